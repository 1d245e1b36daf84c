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
