//! The studio's print of the saved file: the same scene, fonts and writer
//! as `sunfold render sheet FILE -o x.svg` (or `render cards`) with their
//! defaults (A4, one sheet per page, no bleed), so that the preview is
//! byte for byte the SVG that command writes.

use crate::print::soleils::sheet;
use crate::render::paper::{Paper, PrintBoxes};
use crate::render::scene::Document;
use crate::render::text::{Fonts, UnsupportedCharacter};
use crate::render::{pdf, svg};
use crate::template_file::Checked;
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
    /// A page past the last.
    #[error("expected a page from 1 to {pages}, but found page {asked}")]
    NoPage { asked: usize, pages: usize },
    /// A character the fonts lack.
    #[error("{0}")]
    Missing(UnsupportedCharacter),
    /// The PDF writer refused.
    #[error("{0}")]
    Pdf(String),
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
    fn document(&self, saved: &Value) -> Result<(Document, Vec<PrintBoxes>), PrintError> {
        let text = super::session::template_text(saved);
        match crate::template_file::check(&text) {
            Err(_) => Err(PrintError::NeverValid),
            Ok(Checked::Sheet(template)) => {
                let (scene, _) =
                    sheet::printed(&self.fonts, &template, &[], None, 1, false, Paper::A4);
                Ok((Document::new(scene, self.fonts.clone()), Vec::new()))
            }
            Ok(Checked::Deck(deck)) => Ok(crate::print::summertime::cards::print(
                &self.fonts,
                &deck,
                Paper::A4,
                0.0,
            )),
        }
    }

    /// The SVG of `saved`: every page, or page `page` (from 1) alone.
    pub fn svg(&self, saved: &Value, page: Option<usize>) -> Result<String, PrintError> {
        let (mut document, _) = self.document(saved)?;
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

    /// The PDF of `saved`, as `render` writes it.
    pub fn pdf(&self, saved: &Value) -> Result<Vec<u8>, PrintError> {
        let (document, boxes) = self.document(saved)?;
        pdf::to_pdf_boxed(&document, &boxes).map_err(|e| match e {
            pdf::PdfError::Missing(e) => PrintError::Missing(e),
            e => PrintError::Pdf(e.to_string()),
        })
    }
}
