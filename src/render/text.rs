//! The fonts of the printed text, and the one source of text widths for
//! both backends.
//!
//! The default fonts ship inside the binary: Liberation Sans 2 (regular,
//! bold, italic; SIL Open Font License, `assets/fonts/LICENSE`). It covers
//! Latin with Latin Extended, Greek and Cyrillic, and its advance widths are
//! those of Helvetica and Arial, so layouts made for Helvetica still fit.
//! A user's own font (`--font`) replaces all three faces, for scripts the
//! default does not cover (Chinese, for instance).
//!
//! The layout code measures text with [`width`], which reads the fonts in
//! force on this thread ([`with_fonts`], the built-in ones otherwise); the
//! PDF backend embeds those same fonts and the SVG backend stretches the
//! viewer's font to those same widths, so the two outputs agree.

use super::scene::Weight;
use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A character the font has no glyph for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{font} has no glyph for {ch:?} (U+{code:04X}) in {text:?}")]
pub struct UnsupportedCharacter {
    pub ch: char,
    pub code: u32,
    pub text: String,
    /// The font, as a phrase: `the built-in font Liberation Sans Bold`, or
    /// `the font Noto Sans CJK JP (FILE)`.
    pub font: String,
}

/// One font face: its file's bytes and what the layout needs from them.
pub struct Face {
    data: &'static [u8],
    face: ttf_parser::Face<'static>,
    /// The family name, for the SVG and for messages.
    pub family: String,
    /// The full name (family and style), for messages.
    pub full_name: String,
    /// The PostScript name, for the PDF's /BaseFont.
    pub postscript_name: String,
    units_per_em: f32,
}

impl std::fmt::Debug for Face {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Face")
            .field("full_name", &self.full_name)
            .finish_non_exhaustive()
    }
}

fn name(face: &ttf_parser::Face<'_>, ids: &[u16]) -> Option<String> {
    ids.iter().find_map(|&id| {
        face.names()
            .into_iter()
            .filter(|n| n.name_id == id)
            .find_map(|n| n.to_string())
    })
}

impl Face {
    /// Parses the first face of a TrueType or OpenType file (or collection).
    pub fn parse(data: &'static [u8]) -> Result<Face, String> {
        let face = ttf_parser::Face::parse(data, 0).map_err(|e| e.to_string())?;
        if face.tables().cmap.is_none() {
            return Err("no character map (cmap table)".to_owned());
        }
        use ttf_parser::name_id;
        let family = name(&face, &[name_id::TYPOGRAPHIC_FAMILY, name_id::FAMILY])
            .unwrap_or_else(|| "unnamed font".to_owned());
        let full_name = name(&face, &[name_id::FULL_NAME]).unwrap_or_else(|| family.clone());
        let postscript_name = name(&face, &[name_id::POST_SCRIPT_NAME])
            .map(|n| n.chars().filter(|c| c.is_ascii_graphic()).collect())
            .filter(|n: &String| !n.is_empty())
            .unwrap_or_else(|| "Font".to_owned());
        let units_per_em = f32::from(face.units_per_em());
        Ok(Face {
            data,
            face,
            family,
            full_name,
            postscript_name,
            units_per_em,
        })
    }

    /// The bytes of the font file.
    pub fn data(&self) -> &'static [u8] {
        self.data
    }

    /// The glyph of `c`, if the font has one.
    pub fn glyph(&self, c: char) -> Option<u16> {
        self.face.glyph_index(c).map(|g| g.0)
    }

    /// The advance width of `c` in em (that of the missing glyph if absent).
    fn advance(&self, c: char) -> f32 {
        let glyph = self.face.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
        f32::from(self.face.glyph_hor_advance(glyph).unwrap_or(0)) / self.units_per_em
    }
}

/// The faces of the three weights the scene uses (they may be one face).
#[derive(Debug)]
pub struct Fonts {
    regular: Arc<Face>,
    bold: Arc<Face>,
    oblique: Arc<Face>,
    /// The file the fonts come from; `None` for the built-in ones.
    origin: Option<String>,
    /// The CSS font-family list for the SVG.
    pub css_family: String,
}

const REGULAR: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf");
const ITALIC: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Italic.ttf");

fn css_quote(family: &str) -> String {
    let clean: String = family
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\' | ';' | '<' | '>' | '&'))
        .collect();
    format!("'{clean}'")
}

impl Fonts {
    /// The fonts shipped inside the binary: Liberation Sans.
    pub fn builtin() -> Arc<Fonts> {
        static BUILTIN: OnceLock<Arc<Fonts>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                let face = |data| Arc::new(Face::parse(data).expect("the built-in fonts parse"));
                Arc::new(Fonts {
                    regular: face(REGULAR),
                    bold: face(BOLD),
                    oblique: face(ITALIC),
                    origin: None,
                    css_family: "'Liberation Sans', Arial, Helvetica, sans-serif".to_owned(),
                })
            })
            .clone()
    }

    /// One font file for every weight, read from `path` (a .ttf or .otf,
    /// or the first face of a .ttc collection).
    ///
    /// The file's bytes live as long as the process: a command renders
    /// with one font.
    pub fn load(path: &Path) -> Result<Arc<Fonts>, FontFileError> {
        let bytes = std::fs::read(path).map_err(|e| FontFileError {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        let data: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let face = Face::parse(data).map_err(|reason| FontFileError {
            path: path.display().to_string(),
            reason: format!("expected a TrueType or OpenType font, but {reason}"),
        })?;
        let face = Arc::new(face);
        Ok(Arc::new(Fonts {
            css_family: format!("{}, sans-serif", css_quote(&face.family)),
            origin: Some(path.display().to_string()),
            regular: face.clone(),
            bold: face.clone(),
            oblique: face,
        }))
    }

    /// The face that draws `weight`.
    pub fn face(&self, weight: Weight) -> &Arc<Face> {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
            Weight::Oblique => &self.oblique,
        }
    }

    /// The faces of all weights, each once.
    pub fn faces(&self) -> Vec<(Weight, &Arc<Face>)> {
        let mut faces: Vec<(Weight, &Arc<Face>)> = Vec::new();
        for weight in [Weight::Regular, Weight::Bold, Weight::Oblique] {
            let face = self.face(weight);
            if !faces.iter().any(|(_, f)| Arc::ptr_eq(f, face)) {
                faces.push((weight, face));
            }
        }
        faces
    }

    /// Checks that the face of `weight` has a glyph for every character.
    pub fn check(&self, text: &str, weight: Weight) -> Result<(), UnsupportedCharacter> {
        let face = self.face(weight);
        match text.chars().find(|&c| face.glyph(c).is_none()) {
            None => Ok(()),
            Some(ch) => Err(UnsupportedCharacter {
                ch,
                code: ch as u32,
                text: text.to_owned(),
                font: match &self.origin {
                    None => format!("the built-in font {}", face.full_name),
                    Some(path) => format!("the font {} ({path})", face.full_name),
                },
            }),
        }
    }

    /// The width in millimetres of `text` at `size` millimetres.
    pub fn width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        let face = self.face(weight);
        text.chars().map(|c| face.advance(c)).sum::<f32>() * size
    }
}

/// A font file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct FontFileError {
    pub path: String,
    pub reason: String,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Fonts>>> = const { RefCell::new(None) };
}

/// Makes `fonts` the fonts of this thread until the guard is dropped:
/// [`width`] and the backends' defaults then use them.
#[must_use = "the fonts apply only while the guard lives"]
pub fn use_fonts(fonts: Arc<Fonts>) -> FontsGuard {
    let previous = CURRENT.with(|c| c.borrow_mut().replace(fonts));
    FontsGuard { previous }
}

/// Restores the previous fonts of the thread when dropped.
pub struct FontsGuard {
    previous: Option<Arc<Fonts>>,
}

impl Drop for FontsGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Runs `f` with `fonts` as the fonts of this thread.
pub fn with_fonts<R>(fonts: &Arc<Fonts>, f: impl FnOnce() -> R) -> R {
    let _guard = use_fonts(fonts.clone());
    f()
}

/// The fonts of this thread: those of [`with_fonts`], or the built-in ones.
pub fn current() -> Arc<Fonts> {
    CURRENT
        .with(|c| c.borrow().clone())
        .unwrap_or_else(Fonts::builtin)
}

/// The width in millimetres of `text` at `size` millimetres, in the fonts
/// of this thread.
pub fn width(text: &str, size: f32, weight: Weight) -> f32 {
    CURRENT.with(|c| match &*c.borrow() {
        Some(fonts) => fonts.width(text, size, weight),
        None => Fonts::builtin().width(text, size, weight),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_font_covers_latin_greek_and_cyrillic_but_not_chinese() {
        let fonts = Fonts::builtin();
        for weight in [Weight::Regular, Weight::Bold, Weight::Oblique] {
            for text in [
                "62 Soleils d'été, Straße, 5 €",
                "Łukasz",
                "Σοφία",
                "Дмитрий",
            ] {
                assert!(fonts.check(text, weight).is_ok(), "{text} {weight:?}");
            }
        }
        let error = fonts.check("李雷", Weight::Regular).unwrap_err();
        assert_eq!(error.ch, '李');
        assert_eq!(
            error.to_string(),
            "the built-in font Liberation Sans has no glyph for '李' (U+674E) in \"李雷\""
        );
    }

    #[test]
    fn widths_come_from_the_font_and_match_helvetica() {
        // Liberation Sans has Helvetica's (and Arial's) advance widths.
        assert!((width("ii", 10.0, Weight::Regular) - 4.44).abs() < 0.01);
        assert!((width("W", 10.0, Weight::Regular) - 9.44).abs() < 0.01);
        assert!(width("m", 10.0, Weight::Bold) > width("m", 10.0, Weight::Regular));
        assert_eq!(
            width("é", 10.0, Weight::Regular),
            width("e", 10.0, Weight::Regular)
        );
        assert!(width("Дмитрий", 10.0, Weight::Regular) > 0.0);
    }

    #[test]
    fn with_fonts_scopes_the_fonts_to_the_closure() {
        let fonts = Fonts::builtin();
        let inside = with_fonts(&fonts, || Arc::ptr_eq(&current(), &fonts));
        assert!(inside);
    }
}
