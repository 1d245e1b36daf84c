//! The studio's print of the saved file: the same scene, fonts and writer
//! as `sunfold render sheet FILE -o x.svg` (or `render cards`) with their
//! switches (paper, sheets per page, large print, names; no bleed), so
//! that the preview is byte for byte the SVG that command writes.

use crate::print::soleils::sheet;
use crate::render::paper::{Paper, PrintBoxes};
use crate::render::scene::Document;
use crate::render::text::{Fonts, UnsupportedCharacter};
use crate::render::{pdf, svg};
use crate::template::file::{Checked, FileProblem};
use serde_json::Value;
use std::sync::Arc;

/// Why there is no print.
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// The file has never been valid since it was opened: nothing prints.
    #[error(
        "expected a saved template or deck that passes template check, but found none: the file was opened with problems, and no edit has mended them yet"
    )]
    NeverValid,
    /// A card past the last of the deck.
    #[error("expected a card of the deck, from 0 to {}, but found card {asked}", cards.saturating_sub(1))]
    NoCard { asked: usize, cards: usize },
    /// A card that cannot be drawn with the deck's items, pictures and
    /// rules as they stand: each reason, `; ` between them.
    #[error(
        "expected card {card} to be drawable with the deck's items, pictures and rules, but found {why}"
    )]
    Undrawable { card: usize, why: String },
    /// A card of a sheet.
    #[error("expected a deck's card, but found a sheet, which has no cards")]
    NotADeck,
    /// A page past the last.
    #[error("expected a page from 1 to {pages}, but found page {asked}")]
    NoPage { asked: usize, pages: usize },
    /// A character the fonts lack.
    #[error("{0}")]
    Missing(UnsupportedCharacter),
    /// A name asked for (`?names=`) with a character the studio's
    /// built-in fonts lack: `render sheet --names` prints it with `--font`.
    #[error(
        "expected names the studio's built-in fonts can draw, but found {:?} (U+{:04X}) in the name {name:?}, which they lack; print such names with sunfold render sheet FILE --names NAMES --font FILE.ttf, a font that has them",
        missing.ch,
        missing.code
    )]
    Name {
        name: String,
        missing: UnsupportedCharacter,
    },
    /// Switches that make no sense together, or a print below the floor.
    #[error("{0}")]
    Look(String),
    /// Text below the 6 pt floor.
    #[error("{0}")]
    Illegible(crate::print::floor::Illegible),
    /// The PDF writer refused.
    #[error("{0}")]
    Pdf(String),
}

/// How the preview prints a sheet, as `render sheet`'s switches say:
/// `--paper`, `--per-page`, `--large-print` and `--names`. A deck prints
/// on A4 or Letter alone; its other switches are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    pub paper: Paper,
    pub per_page: u8,
    pub large_print: bool,
    pub names: Vec<String>,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            paper: Paper::A4,
            per_page: 1,
            large_print: false,
            names: Vec::new(),
        }
    }
}

impl Look {
    /// Refuses what `render sheet` refuses of the same switches.
    fn check(&self) -> Result<(), PrintError> {
        let refuse = |s: String| Err(PrintError::Look(s));
        if ![1, 2, 4].contains(&self.per_page) {
            return refuse(format!(
                "expected per_page 1, 2 or 4, but found {}",
                self.per_page
            ));
        }
        if self.large_print && self.per_page != 1 {
            return refuse(format!(
                "expected per_page 1 with large_print, whose pages are A4 or Letter at twice the size, but found per_page {}",
                self.per_page
            ));
        }
        if self.large_print && self.paper == Paper::A5 {
            return refuse("expected paper a4 or letter with large_print, but found a5, which would shrink its numbers below twice the standard size".to_owned());
        }
        if self.names.iter().any(|n| n.trim().is_empty()) {
            return refuse("expected a name for each sheet, but found a blank one".to_owned());
        }
        if self.names.len() > 500 {
            return refuse(format!(
                "expected at most 500 names, but found {}",
                self.names.len()
            ));
        }
        Ok(())
    }
}

/// What prints the saved file: the built-in fonts, as `render` uses them
/// without `--font`.
pub struct Print {
    fonts: Arc<Fonts>,
}

impl Default for Print {
    fn default() -> Print {
        Print {
            fonts: Fonts::builtin().clone(),
        }
    }
}

impl Print {
    /// The document of `saved`, and the print boxes of its pages.
    fn document(
        &self,
        saved: &Value,
        look: &Look,
    ) -> Result<(Document, Vec<PrintBoxes>), PrintError> {
        look.check()?;
        let text = super::session::template_text(saved);
        match crate::template::file::check(&text) {
            Err(_) => Err(PrintError::NeverValid),
            Ok(Checked::Sheet(template)) => {
                let per_page = if look.large_print { 1 } else { look.per_page };
                let (scene, size) = sheet::printed(
                    &self.fonts,
                    &template,
                    &look.names,
                    None,
                    per_page,
                    look.large_print,
                    look.paper,
                );
                scene.check_text(&self.fonts).map_err(|missing| {
                    match look.names.iter().find(|n| n.contains(missing.ch)) {
                        Some(name) => PrintError::Name {
                            name: name.clone(),
                            missing,
                        },
                        None => PrintError::Missing(missing),
                    }
                })?;
                let how = format!(
                    "per_page {per_page} on {}{}",
                    format!("{:?}", look.paper).to_lowercase(),
                    if size == sheet::Size::Compact {
                        " in the compact layout"
                    } else {
                        ""
                    }
                );
                let hint = "choose a larger paper or fewer sheets per page";
                crate::print::floor::legible(&scene, &self.fonts, &look.names, &how, hint)
                    .map_err(PrintError::Illegible)?;
                Ok((Document::new(scene, self.fonts.clone()), Vec::new()))
            }
            Ok(Checked::Deck(deck)) => {
                if look.per_page != 1 || look.large_print || !look.names.is_empty() {
                    return Err(PrintError::Look(
                        "expected only paper for a deck's print, but found per_page, large_print or names, which are a sheet's".to_owned(),
                    ));
                }
                Ok(crate::print::summertime::cards::print(
                    &self.fonts,
                    &deck,
                    look.paper,
                    0.0,
                    crate::print::summertime::layout::Layout::Sheets,
                ))
            }
        }
    }

    /// The SVG of `saved`: every page, or page `page` (from 1) alone.
    pub fn svg(
        &self,
        saved: &Value,
        look: &Look,
        page: Option<usize>,
    ) -> Result<String, PrintError> {
        let (mut document, _) = self.document(saved, look)?;
        if let Some(asked) = page {
            let pages = document.scene.pages.len();
            if asked > pages {
                return Err(PrintError::NoPage { asked, pages });
            }
            let kept = document.scene.pages.swap_remove(asked - 1);
            document.scene.pages = vec![kept];
        }
        svg::to_svg(&document).map_err(PrintError::Missing)
    }

    /// The face of card `index` (from 0) of the deck as edited, alone, as
    /// `render cards` prints it on its page, whenever that card can be
    /// drawn: its deck holding it alone, with the deck's items, pictures,
    /// tiles and rules, passes every check of a deck but the counts of its
    /// cards and closing cards. A deck that passes `template check` draws
    /// every card so, as `render cards` does.
    pub fn card(&self, edited: &Value, index: usize) -> Result<String, PrintError> {
        use crate::print::summertime::cards::{CARD_H, CARD_W, face};
        use crate::render::scene::{Canvas, Frame, Page, Scene};
        use crate::summertime::deck::{Deck, RawDeck};
        if edited.get("game").and_then(Value::as_str) != Some("summertime") {
            return Err(PrintError::NotADeck);
        }
        let all = edited.get("cards").and_then(Value::as_array);
        let cards = all.map_or(0, Vec::len);
        let Some(card) = all.and_then(|all| all.get(index)) else {
            return Err(PrintError::NoCard {
                asked: index,
                cards,
            });
        };
        let undrawable = |why: String| PrintError::Undrawable { card: index, why };
        // The card stands first in its deck alone; its problems are told
        // at its place in the deck.
        let told = |path: String, what: String| match path.strip_prefix("cards[0]") {
            Some(rest) => format!("cards[{index}]{rest}: {what}"),
            None => format!("{path}: {what}"),
        };
        let mut alone = edited.clone();
        alone["cards"] = Value::Array(vec![card.clone()]);
        alone["closing_cards"] = Value::Array(Vec::new());
        let raw: RawDeck = serde_json::from_value(alone.clone()).map_err(|e| {
            // A value of the wrong shape: where, as `template check` says.
            let text = super::session::template_text(&alone);
            let shapes: Vec<String> = match crate::template::file::check(&text) {
                Err(problems) => (problems.into_iter())
                    .filter_map(|p| match p {
                        FileProblem::Shape { path, detail } => Some(told(path, detail)),
                        _ => None,
                    })
                    .collect(),
                Ok(_) => Vec::new(),
            };
            if shapes.is_empty() {
                undrawable(crate::kit::json_error::describe(&e))
            } else {
                undrawable(shapes.join("; "))
            }
        })?;
        let deck = Deck::sample(raw).map_err(|errors| {
            let why =
                (errors.problems().iter()).map(|p| told(p.path.to_string(), p.kind.to_string()));
            undrawable(why.collect::<Vec<_>>().join("; "))
        })?;
        let mut items = Vec::new();
        face(
            &mut Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            },
            &self.fonts,
            &deck,
            0,
        );
        let scene = Scene {
            title: deck.card(0).name.clone(),
            pages: vec![Page {
                width: CARD_W,
                height: CARD_H,
                items,
            }],
        };
        svg::to_svg(&Document::new(scene, self.fonts.clone())).map_err(PrintError::Missing)
    }

    /// The PDF of `saved`, as `render` writes it.
    pub fn pdf(&self, saved: &Value, look: &Look) -> Result<Vec<u8>, PrintError> {
        let (document, boxes) = self.document(saved, look)?;
        pdf::to_pdf_boxed(&document, &boxes).map_err(|e| match e {
            pdf::PdfError::Missing(e) => PrintError::Missing(e),
            e => PrintError::Pdf(e.to_string()),
        })
    }
}
