//! The viewer's pictures and what changes in them from event to event.
//!
//! A panel (a player's sheet, the Summertime table) is drawn by the scene
//! code after every event that touches it. Each top-level item of each
//! page becomes a *slot* of the panel's SVG; an event's delta lists the
//! slots whose markup changed, and the markup they change to, from a table
//! of distinct fragments. The script in the page swaps those slots in and
//! out: it knows nothing of the game.

use crate::render::scene::Page;
use crate::render::svg;
use crate::render::text::Fonts;
use std::collections::HashMap;
use std::sync::Arc;

/// The markup of an empty slot: a slot the page does not use at this event.
const EMPTY: &str = "<g/>";

/// One slot changing: `[panel, page, slot, fragment]`.
pub type Change = [u32; 4];

/// A panel's pages as first drawn, and their slots now.
struct Panel {
    name: String,
    /// Each page's width and height, in millimetres.
    sizes: Vec<(f32, f32)>,
    /// The markup each slot had at the first event.
    base: Vec<Vec<String>>,
    /// The markup of each slot now.
    now: Vec<Vec<String>>,
}

/// Every panel of a replay, and the changes event by event.
pub struct Panels {
    fonts: Arc<Fonts>,
    panels: Vec<Panel>,
    fragments: Vec<String>,
    index: HashMap<String, u32>,
    changes: Vec<Vec<Change>>,
}

impl Panels {
    /// No panels yet, drawn in `fonts`' text widths.
    pub fn new(fonts: Arc<Fonts>) -> Self {
        let mut panels = Panels {
            fonts,
            panels: Vec::new(),
            fragments: Vec::new(),
            index: HashMap::new(),
            changes: Vec::new(),
        };
        panels.intern(EMPTY.to_owned());
        panels
    }

    /// The fonts the panels' text was measured in, which the page names.
    pub fn fonts(&self) -> &Arc<Fonts> {
        &self.fonts
    }

    fn intern(&mut self, markup: String) -> u32 {
        if let Some(&i) = self.index.get(&markup) {
            return i;
        }
        let i = u32::try_from(self.fragments.len()).expect("fewer than 2^32 fragments");
        self.index.insert(markup.clone(), i);
        self.fragments.push(markup);
        i
    }

    /// Adds a panel named `name`, drawn as `pages` at the first event.
    /// Returns its number.
    pub fn add(&mut self, name: impl Into<String>, pages: &[Page]) -> usize {
        let base: Vec<Vec<String>> = pages
            .iter()
            .map(|page| {
                page.items
                    .iter()
                    .map(|item| svg::fragment(&self.fonts, item))
                    .collect()
            })
            .collect();
        let now = base.clone();
        self.panels.push(Panel {
            name: name.into(),
            sizes: pages.iter().map(|p| (p.width, p.height)).collect(),
            base,
            now,
        });
        self.panels.len() - 1
    }

    /// Starts the changes of the next event (the first event's state is
    /// what [`add`](Self::add) drew).
    pub fn next_event(&mut self) {
        self.changes.push(Vec::new());
    }

    /// Panel `panel` as drawn after the current event: records the slots
    /// that changed since it was last drawn.
    pub fn draw(&mut self, panel: usize, pages: &[Page]) {
        let count = self.panels[panel].now.len().max(pages.len());
        for p in 0..count {
            let items = pages.get(p).map_or(&[][..], |page| &page.items[..]);
            let slots = self.panels[panel].now.get(p).map_or(0, Vec::len);
            for s in 0..slots.max(items.len()) {
                let fragment = match items.get(s) {
                    Some(item) => svg::fragment(&self.fonts, item),
                    None => EMPTY.to_owned(),
                };
                let panel_now = &mut self.panels[panel];
                if panel_now.now.len() <= p {
                    panel_now.now.resize(p + 1, Vec::new());
                    let size = pages
                        .get(p)
                        .map_or((0.0, 0.0), |page| (page.width, page.height));
                    panel_now.sizes.resize(p + 1, size);
                }
                let now = &mut panel_now.now[p];
                if now.len() <= s {
                    now.resize(s + 1, EMPTY.to_owned());
                }
                if now[s] != fragment {
                    now[s].clone_from(&fragment);
                    let f = self.intern(fragment);
                    let [panel, p, s] = [panel, p, s].map(|v| u32::try_from(v).expect("small"));
                    let events = self.changes.last_mut().expect("next_event comes first");
                    events.push([panel, p, s, f]);
                }
            }
        }
    }

    /// How many slots each page of each panel needs over the whole replay.
    fn slots(&self, panel: usize, page: usize) -> usize {
        let now = self.panels[panel].now.get(page).map_or(0, Vec::len);
        let base = self.panels[panel].base.get(page).map_or(0, Vec::len);
        let changed = self
            .changes
            .iter()
            .flatten()
            .filter(|c| c[0] as usize == panel && c[1] as usize == page)
            .map(|c| c[2] as usize + 1)
            .max()
            .unwrap_or(0);
        now.max(base).max(changed)
    }

    /// The names of the panels, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.panels.iter().map(|p| p.name.as_str())
    }

    /// Panel `panel` as it stands at the first event: one SVG element with
    /// pages stacked top to bottom, each page a `<g class="page">` whose
    /// children after its background are the slots, padded with empty
    /// ones to the most the replay needs.
    pub fn base_svg(&self, panel: usize, label: &str) -> String {
        const GAP: f32 = 6.0;
        let p = &self.panels[panel];
        let width = p.sizes.iter().map(|s| s.0).fold(0.0, f32::max);
        let height: f32 =
            p.sizes.iter().map(|s| s.1).sum::<f32>() + GAP * p.sizes.len().saturating_sub(1) as f32;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"panel-svg\" viewBox=\"0 0 {} {}\" font-family=\"{}\" role=\"group\" aria-label=\"{}\">",
            svg::length(width),
            svg::length(height),
            escape(&self.fonts.css_family),
            escape(label)
        );
        let mut top = 0.0;
        for (page, &(w, h)) in p.sizes.iter().enumerate() {
            out.push_str(&format!(
                "<g class=\"page\" transform=\"translate(0 {})\">",
                svg::length(top)
            ));
            out.push_str(&svg::page_background(w, h));
            let base = p.base.get(page);
            for s in 0..self.slots(panel, page) {
                match base.and_then(|b| b.get(s)) {
                    Some(markup) => out.push_str(markup),
                    None => out.push_str(EMPTY),
                }
            }
            out.push_str("</g>");
            top += h + GAP;
        }
        out.push_str("</svg>");
        out
    }

    /// The distinct fragments the changes point into.
    pub fn fragments(&self) -> &[String] {
        &self.fragments
    }

    /// The changes of event `i` (0 is the first event, which changes
    /// nothing).
    pub fn changes(&self, i: usize) -> &[Change] {
        match i {
            0 => &[],
            i => self.changes.get(i - 1).map_or(&[], Vec::as_slice),
        }
    }
}

/// Text escaped for HTML and XML, in text and in double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
