//! The drawing engine beneath every picture: one scene model in
//! millimetres ([`scene`]), measured in the fonts it is given ([`text`]),
//! written by the [`svg`] and [`pdf`] backends on a [`paper`]. It knows no
//! game and no report: the game pictures (`crate::print`), the workbench's
//! charts (`crate::report`) and the HTML viewer (`crate::show`) lay out
//! scenes, and this part only draws them. Nothing here reads files or knows
//! the command line.
//!
//! - [`scene`]: pages of items in millimetres, and the canvas that lays
//!   them out;
//! - [`text`]: fonts, shaping and measuring;
//! - [`svg`] and [`pdf`]: the two backends, which draw the same scene;
//! - [`paper`]: the paper sizes and the printable margin;
//! - [`chart`]: a line chart, the one primitive the scored replays, the
//!   viewer and the sweep report share;
//! - [`encode`]: a document as the bytes of a PDF file, or of an SVG file
//!   per page, and the [`file_names`] of those files, as [`files_said`].

pub mod chart;
pub mod paper;
pub mod pdf;
pub mod scene;
pub mod svg;
pub mod text;

/// The document as the bytes of one PDF file (with each page's trim and
/// bleed `boxes`), or of one SVG file per page, in the fonts it was laid
/// out in; or why not, with the advice for a missing glyph.
pub fn encode(
    document: &impl scene::Typeset,
    boxes: &[paper::PrintBoxes],
    as_pdf: bool,
) -> Result<Vec<Vec<u8>>, String> {
    if as_pdf {
        let pdf = pdf::to_pdf_boxed(document, boxes).map_err(|e| match e {
            pdf::PdfError::Missing(e) => e.advice(),
            e => e.to_string(),
        })?;
        Ok(vec![pdf])
    } else {
        let pages = svg::pages(document).map_err(|e| e.advice())?;
        Ok(pages.into_iter().map(String::into_bytes).collect())
    }
}

/// The names of the `count` files of a drawing asked for as `path`: `path`
/// itself for one, and `NAME-1.svg`, `NAME-2.svg`, … beside it for several.
pub fn file_names(path: &std::path::Path, count: usize) -> Vec<std::path::PathBuf> {
    if count <= 1 {
        return vec![path.to_owned()];
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let extension = path.extension().unwrap_or_default().to_string_lossy();
    (1..=count)
        .map(|i| path.with_file_name(format!("{stem}-{i}.{extension}")))
        .collect()
}

/// The numbered pages beside `path` that a drawing of `count` files does
/// not write, left by an earlier drawing of more pages under the same name:
/// `NAME-4.svg` and on after a drawing of 3 pages, `NAME-1.svg` and on
/// after one of a single page. They are found in order, up to the first
/// number missing.
pub fn stale_pages(path: &std::path::Path, count: usize) -> Vec<std::path::PathBuf> {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let extension = path.extension().unwrap_or_default().to_string_lossy();
    let first = if count <= 1 { 1 } else { count + 1 };
    (first..)
        .map(|i| path.with_file_name(format!("{stem}-{i}.{extension}")))
        .take_while(|page| page.is_file())
        .collect()
}

/// The files `paths` of a drawing of `pages` pages and `bytes` bytes, in
/// words: `x.pdf (3 pages, 5120 bytes)`, `x-1.svg to x-3.svg (3 pages, …)`.
pub fn files_said(paths: &[std::path::PathBuf], pages: usize, bytes: usize) -> String {
    let named = match paths {
        [first, .., last] => format!("{} to {}", first.display(), last.display()),
        [one] => one.display().to_string(),
        [] => String::new(),
    };
    let s = if pages == 1 { "" } else { "s" };
    format!("{named} ({pages} page{s}, {bytes} bytes)")
}
