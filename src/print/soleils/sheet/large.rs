//! Large print, for a low-vision player: page 1 holds the name line, the
//! sun track and its thresholds; then each zone stands whole on one page,
//! in reading order, at twice the size, with its rule in words beside it
//! and, for each crab and frog box, what it does and where a crab copies to
//! (a copy may cross zones, and the neighbouring zone may be on another
//! page). Everything is black on white; crab and frog are two different
//! shapes and are named in words.

use super::{Block, HEIGHT, Sheet, Tile, WIDTH};
use crate::render::scene::{Anchor, Canvas, Weight};
use crate::soleils::template::Constraint;

/// The size of a zone's name, of its rule and notes, and their line
/// height, at large print's scale of 2.
const NAME_SIZE: f32 = 6.0;
const RULE_SIZE: f32 = 3.4;
const LINE: f32 = 4.6;

/// A zone's cell pitch may shrink to this share of large print's pitch to
/// keep a zone's row in one piece across the page.
const SHRINK: f32 = 0.75;

impl Sheet<'_> {
    /// The pages of a large-print sheet.
    pub(super) fn paginate_large(&self) -> Vec<Vec<Block>> {
        let first = vec![Block::Header, Block::Sun, Block::Thresholds];
        let mut rest = vec![Block::Legend];
        rest.extend(self.reading_order().into_iter().map(|zone| Block::Zone {
            zone,
            tiles: self.zone_tiles(zone),
        }));
        rest.extend([Block::Flags, Block::Score]);
        let mut pages = self.pack(first);
        pages.extend(self.pack(rest));
        pages
    }

    /// The zones by their first box, top to bottom, then left to right.
    fn reading_order(&self) -> Vec<usize> {
        let template = self.template;
        let mut zones: Vec<(u16, u16, usize)> = template
            .zones()
            .iter()
            .enumerate()
            .filter_map(|(z, zone)| {
                let first = zone
                    .boxes
                    .iter()
                    .map(|&b| (template.boxes()[b].row, template.boxes()[b].column))
                    .min()?;
                Some((first.0, first.1, z))
            })
            .collect();
        zones.sort();
        zones.into_iter().map(|(_, _, z)| z).collect()
    }

    /// A zone's boxes in tiles of the page's width: one tile when its
    /// columns fit (at a pitch shrunk by at most [`SHRINK`]), else pieces
    /// of as many columns as fit, stacked on the same page.
    fn zone_tiles(&self, zone: usize) -> Vec<Tile> {
        let template = self.template;
        let boxes = &template.zones()[zone].boxes;
        let column = |b: &usize| template.boxes()[*b].column;
        let row = |b: &usize| template.boxes()[*b].row;
        let (Some(c0), Some(c1)) = (
            boxes.iter().map(column).min(),
            boxes.iter().map(column).max(),
        ) else {
            return Vec::new();
        };
        let mut rows: Vec<u16> = boxes.iter().map(row).collect();
        rows.sort_unstable();
        rows.dedup();
        let large = self.geometry.pitch;
        let columns = f32::from(c1 - c0 + 1);
        let width = self.width();
        let (pitch, per_tile) = if columns * large * SHRINK <= width {
            ((width / columns).min(large), c1 - c0 + 1)
        } else {
            (large, ((width / large).floor() as u16).max(1))
        };
        let mut tiles = Vec::new();
        let mut start = c0;
        while start <= c1 {
            let end = (start + per_tile - 1).min(c1);
            tiles.push(Tile {
                columns: (start, end),
                rows: rows.clone(),
                zone: Some(zone),
                pitch,
            });
            start = end + 1;
        }
        tiles
    }

    /// The height of a zone's block: its name, rule, tiles and notes.
    pub(super) fn zone_height(&self, zone: usize, tiles: &[Tile]) -> f32 {
        let k = self.style.k;
        let words = self.zone_words(zone).len() as f32;
        let grid: f32 = tiles
            .iter()
            .map(|t| t.rows.len() as f32 * t.pitch + 2.0 * k)
            .sum();
        (NAME_SIZE + 2.0) * k + words * LINE * k + grid + 4.0 * k
    }

    /// The lines of words beside a zone: its rule, then each crab and frog.
    fn zone_words(&self, zone: usize) -> Vec<String> {
        let mut lines = Vec::new();
        for sentence in self.rule_sentences(zone) {
            lines.extend(self.fonts.wrap(
                &sentence,
                RULE_SIZE * self.style.k,
                Weight::Regular,
                self.width(),
            ));
        }
        for sentence in self.icon_sentences(zone) {
            lines.extend(self.fonts.wrap(
                &sentence,
                RULE_SIZE * self.style.k,
                Weight::Regular,
                self.width(),
            ));
        }
        lines
    }

    /// The zone's rule in words: every constraint within it.
    fn rule_sentences(&self, zone: usize) -> Vec<String> {
        let template = self.template;
        let id = |b: usize| template.boxes()[b].id.clone();
        let boxes = &template.zones()[zone].boxes;
        let inside = |set: &[usize]| set.iter().all(|b| boxes.contains(b));
        let mut sentences = Vec::new();
        let mut chains: Vec<(Vec<usize>, Vec<&str>)> = Vec::new();
        for constraint in template.constraints() {
            let (a, b, word) = match constraint {
                Constraint::Same(set) if inside(set) => {
                    sentences.push(if set.len() == boxes.len() {
                        "Rule: every box holds the same number.".to_owned()
                    } else {
                        let ids: Vec<String> = set.iter().map(|&b| id(b)).collect();
                        format!("Rule: {} hold the same number.", list(&ids, "and"))
                    });
                    continue;
                }
                Constraint::Distinct(set) if inside(set) => {
                    sentences.push(if set.len() == boxes.len() {
                        "Rule: every box holds a different number.".to_owned()
                    } else {
                        let ids: Vec<String> = set.iter().map(|&b| id(b)).collect();
                        format!("Rule: {} hold different numbers.", list(&ids, "and"))
                    });
                    continue;
                }
                Constraint::Less(a, b) if inside(&[*a, *b]) => (*a, *b, "<"),
                Constraint::Greater(a, b) if inside(&[*a, *b]) => (*a, *b, ">"),
                Constraint::Different(a, b) if inside(&[*a, *b]) => (*a, *b, "differs from"),
                _ => continue,
            };
            match chains.iter_mut().find(|(ids, _)| ids.last() == Some(&a)) {
                Some((ids, words)) => {
                    ids.push(b);
                    words.push(word);
                }
                None => chains.push((vec![a, b], vec![word])),
            }
        }
        if !chains.is_empty() {
            let symbols = chains.iter().flat_map(|(_, w)| w).any(|w| w.len() == 1);
            sentences.push(if symbols {
                "Rule: follow the signs; a < b means a is smaller than b, a > b larger:".to_owned()
            } else {
                "Rule:".to_owned()
            });
            for (ids, words) in &chains {
                let mut text = format!("  {}", id(ids[0]));
                for (b, word) in ids[1..].iter().zip(words) {
                    text.push_str(&format!(" {word} {}", id(*b)));
                }
                sentences.push(text);
            }
        }
        sentences
    }

    /// What each crab and frog box of the zone does, in words.
    fn icon_sentences(&self, zone: usize) -> Vec<String> {
        let template = self.template;
        let mut sentences = Vec::new();
        for &b in &template.zones()[zone].boxes {
            let sheet_box = &template.boxes()[b];
            if sheet_box.crab {
                let to: Vec<String> = template
                    .neighbours(b)
                    .iter()
                    .map(|&n| template.boxes()[n].id.clone())
                    .collect();
                sentences.push(format!(
                    "Crab in {}: copies to {}.",
                    sheet_box.id,
                    list(&to, "or")
                ));
            }
            if sheet_box.frog {
                sentences.push(format!(
                    "Frog in {}: your sun entry may be any number from 1 to 6.",
                    sheet_box.id
                ));
            }
        }
        sentences
    }

    /// Draws a zone's block at `y`.
    pub(super) fn draw_zone(&self, c: &mut Canvas, y: f32, zone: usize, tiles: &[Tile]) {
        let (k, st) = (self.style.k, self.style);
        let name = &self.template.zones()[zone].name;
        let mut top = y + NAME_SIZE * k;
        c.fit_text(
            self.fonts,
            0.0,
            top,
            NAME_SIZE * k,
            self.width(),
            name.clone(),
            Anchor::Start,
            Weight::Bold,
            st.ink,
        );
        top += 2.0 * k;
        for line in self.zone_words(zone) {
            top += LINE * k;
            c.text(
                0.0,
                top - 1.0 * k,
                RULE_SIZE * k,
                line,
                Anchor::Start,
                Weight::Regular,
                st.ink,
            );
        }
        top += 1.0 * k;
        for tile in tiles {
            self.grid(c, top, tile);
            top += tile.rows.len() as f32 * tile.pitch + 2.0 * k;
        }
    }
}

impl Sheet<'_> {
    /// The foot of a page of several: the player's name (or a line to
    /// write it on), so that pages that come apart find their owner, and
    /// "page 2 of 6".
    pub(super) fn footer(&self, c: &mut Canvas, page: usize, pages: usize) {
        let (k, st) = (self.style.k, self.style);
        let size = st.t(3.0);
        let y = HEIGHT - 0.3 * k;
        let number = format!("page {page} of {pages}");
        let number_w = self.fonts.width(&number, size, Weight::Regular);
        c.text(WIDTH, y, size, number, Anchor::End, Weight::Regular, st.ink);
        c.text(
            0.0,
            y,
            size,
            "Name",
            Anchor::Start,
            Weight::Regular,
            st.soft,
        );
        let after = self.fonts.width("Name", size, Weight::Regular) + 2.0 * k;
        let end = WIDTH - number_w - 6.0 * k;
        match self.name() {
            Some(name) => c.fit_text(
                self.fonts,
                after,
                y,
                size,
                end - after,
                name,
                Anchor::Start,
                Weight::Oblique,
                st.hand,
            ),
            None => c.line(after, y + 0.6 * k, end, y + 0.6 * k, st.s(0.3)),
        }
    }
}

/// "A, B or C".
fn list(items: &[String], last: &str) -> String {
    match items {
        [] => "no box".to_owned(),
        [one] => one.clone(),
        [rest @ .., end] => format!("{} {last} {end}", rest.join(", ")),
    }
}
