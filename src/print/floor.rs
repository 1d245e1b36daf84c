//! The 6 pt floor of every print, and what is too small and why: a name
//! too long for its line, a font whose wide glyphs shrink a text, or a
//! paper too small for the sheet.

use crate::render::scene::{Item, MM_PER_PT, Scene, Weight};
use crate::render::text::Fonts;

/// The smallest text a print may hold: 6 pt.
pub const SMALLEST_PT: f32 = 6.0;

/// A print with a text below [`SMALLEST_PT`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Illegible {
    /// A text shrunk below the floor by the wide glyphs of a font file.
    #[error(
        "expected text of at least {SMALLEST_PT} pt, but {how} prints {text:?} at {pt:.1} pt, shrunk to fit its place by the widths of {font}; use a narrower font or a shorter text"
    )]
    Shrunk {
        how: String,
        text: String,
        pt: f32,
        font: String,
    },
    /// A text below the floor on this paper; `hint` says what to change.
    #[error(
        "expected text of at least {SMALLEST_PT} pt, but {how} prints {text:?} at {pt:.1} pt; {hint}"
    )]
    Small {
        how: String,
        text: String,
        pt: f32,
        hint: String,
    },
    /// A name longer than its line holds at the floor.
    #[error(
        "name too long: at most {most} characters fit here, on the name line at {SMALLEST_PT} pt{drawn}, but found {count} in {name:?}"
    )]
    NameTooLong {
        most: usize,
        /// " in FONT" for the font files it is drawn in, or nothing.
        drawn: String,
        count: usize,
        name: String,
    },
}

/// A zone's name that its label or its flag prints below the floor: how
/// many of its characters fit there at the floor.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected a zone name that prints at {SMALLEST_PT} pt or more, but zone {zone:?} has {count} characters in its name, and at most {most} fit its place on the sheet {how}; shorten its name"
)]
pub struct ZoneNameTooLong {
    /// The zone's id.
    pub zone: String,
    /// Its index in the template's zones.
    pub index: usize,
    pub count: usize,
    pub most: usize,
    /// The paper and layout it was printed on.
    pub how: String,
}

/// The first zone of `zones` (id and name, in the template's order) whose
/// name `scene` prints below the 6 pt floor: as a text that is the name,
/// or begins with it (`NAME: REWARD`, `NAME · RULE`), with how many of its
/// characters fit the room that text has (the rest of the text kept).
/// None when a text of no zone is below the floor too: then the paper or
/// the layout is at fault, which [`legible`] says.
pub fn zone_names(
    scene: &Scene,
    fonts: &Fonts,
    zones: &[(String, String)],
    how: &str,
) -> Result<(), ZoneNameTooLong> {
    let mut all = Vec::new();
    for page in &scene.pages {
        texts(&page.items, &mut all);
    }
    let below = (all.iter()).filter(|(size, _, _)| size / MM_PER_PT < SMALLEST_PT - 0.005);
    let mut worst: Option<ZoneNameTooLong> = None;
    for &(size, text, weight) in below {
        let Some((index, (zone, name))) = (zones.iter().enumerate())
            .filter(|(_, (_, name))| {
                text == name
                    || [": ", " · ", " ("]
                        .iter()
                        .any(|s| text.starts_with(&format!("{name}{s}")))
            })
            .max_by_key(|(_, (_, name))| name.len())
        else {
            // Another text is too small as well: the paper or the layout
            // is at fault, not a zone's name.
            return Ok(());
        };
        let count = name.chars().count();
        let rest = text.chars().count() - count;
        let most = fitting(fonts, text, size, weight).saturating_sub(rest);
        let found = ZoneNameTooLong {
            zone: zone.clone(),
            index,
            count,
            most: most.min(count.saturating_sub(1)),
            how: how.to_owned(),
        };
        if worst
            .as_ref()
            .is_none_or(|w| (index, most) < (w.index, w.most))
        {
            worst = Some(found);
        }
    }
    worst.map_or(Ok(()), Err)
}

/// Every text of `items` that holds more than spaces: its size in
/// millimetres, its text and its weight.
fn texts<'a>(items: &'a [Item], out: &mut Vec<(f32, &'a str, Weight)>) {
    for item in items {
        match item {
            Item::Text {
                size, text, weight, ..
            } if !text.trim().is_empty() => out.push((*size, text, *weight)),
            Item::Group { items, .. } => texts(items, out),
            _ => {}
        }
    }
}

/// How many characters of `name`, from its start, fit the width it takes
/// at `size` when they print at the 6 pt floor instead.
fn fitting(fonts: &Fonts, name: &str, size: f32, weight: Weight) -> usize {
    let room = fonts.width(name, size, weight) * 1.0001;
    let floor = SMALLEST_PT * MM_PER_PT;
    let mut prefix = String::new();
    let mut count = 0;
    for c in name.chars() {
        prefix.push(c);
        if fonts.width(&prefix, floor, weight) > room {
            break;
        }
        count += 1;
    }
    count
}

/// Refuses a scene whose smallest text would print below 6 pt, naming the
/// cause: a name too long for its line, a text shrunk by the wide glyphs
/// of a font file, or else the paper (`how` says which paper and how many
/// sheets to a page, and `hint` what to change then).
pub fn legible(
    scene: &Scene,
    fonts: &Fonts,
    names: &[String],
    how: &str,
    hint: &str,
) -> Result<(), Illegible> {
    let mut all = Vec::new();
    for page in &scene.pages {
        texts(&page.items, &mut all);
    }
    let below = |&&(size, _, _): &&(f32, &str, Weight)| size / MM_PER_PT < SMALLEST_PT - 0.005;
    let smallest = |named: bool| {
        all.iter()
            .filter(|(_, text, _)| names.iter().any(|n| n == text) == named)
            .filter(below)
            .min_by(|a, b| a.0.total_cmp(&b.0))
    };
    if let Some(&(size, text, weight)) = smallest(false) {
        let pt = size / MM_PER_PT;
        // A text partly drawn in a font file, which would reach the floor
        // at the widths of the built-in font: that font's glyphs shrank it.
        let line = fonts.line(text, weight);
        let own = line.advance();
        let builtin = Fonts::builtin().line(text, weight).advance();
        if let Some(run) = line
            .runs
            .iter()
            .find(|run| fonts.name_of(weight, run.face).1)
            && builtin > 0.0
            && pt * own / builtin >= SMALLEST_PT
        {
            let (font, _) = fonts.name_of(weight, run.face);
            return Err(Illegible::Shrunk {
                how: how.to_owned(),
                text: text.to_owned(),
                pt,
                font,
            });
        }
        return Err(Illegible::Small {
            how: how.to_owned(),
            text: text.to_owned(),
            pt,
            hint: hint.to_owned(),
        });
    }
    if let Some(&(size, name, weight)) = smallest(true) {
        let most = fitting(fonts, name, size, weight);
        // The font files it is drawn in, whose widths count too.
        let mut files: Vec<String> = Vec::new();
        for run in &fonts.line(name, weight).runs {
            let (font, is_file) = fonts.name_of(weight, run.face);
            if is_file && !files.contains(&font) {
                files.push(font);
            }
        }
        let drawn = if files.is_empty() {
            String::new()
        } else {
            format!(" in {}", files.join(" and "))
        };
        return Err(Illegible::NameTooLong {
            most,
            drawn,
            count: name.chars().count(),
            name: name.to_owned(),
        });
    }
    Ok(())
}

/// Refuses a scene with a text below 6 pt: the smallest such text, with
/// `what` (the output and its paper) and `hint` (what to change).
pub fn floor(scene: &Scene, what: &str, hint: &str) -> Result<(), Illegible> {
    let mut all = Vec::new();
    for page in &scene.pages {
        texts(&page.items, &mut all);
    }
    let smallest = all
        .iter()
        .filter(|(size, _, _)| size / MM_PER_PT < SMALLEST_PT - 0.005)
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match smallest {
        Some(&(size, text, _)) => Err(Illegible::Small {
            how: what.to_owned(),
            text: text.to_owned(),
            pt: size / MM_PER_PT,
            hint: hint.to_owned(),
        }),
        None => Ok(()),
    }
}
