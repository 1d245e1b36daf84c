//! The fonts of the printed text, and the one source of text widths for
//! layout and both backends.
//!
//! The default fonts ship inside the binary: Liberation Sans 2 (regular,
//! bold, italic; SIL Open Font License, `assets/fonts/LICENSE`). It covers
//! Latin with Latin Extended, Greek and Cyrillic, and its advance widths are
//! those of Helvetica and Arial, so layouts made for Helvetica still fit.
//! Font files given (`--font`) follow them in a chain, for scripts the
//! default does not cover (Chinese, for instance), and after those the
//! machine's installed fonts ([`installed`]) fill in what is still missing,
//! as a browser falls back on them.
//!
//! Fonts are an argument, as usvg takes its font database: the layout code
//! measures text with the [`Fonts`] it is given ([`Fonts::width`]), the
//! [`Document`](super::scene::Document) it makes keeps those fonts, and the
//! PDF backend embeds them while the SVG backend stretches the viewer's
//! font to their widths, so the two outputs agree with the layout. Nothing
//! here is global but the parsed built-in fonts, which never change, and
//! the widths measured in them, which are the same each time.
//!
//! [`shape`] makes a line of text glyphs: each character from the first
//! face of a chain that has it, right-to-left runs in visual order, and
//! real shaping where a script needs it. `widths` keeps, per set of fonts,
//! the width of each text measured, so a sheet drawn again shapes nothing
//! it shaped before.

pub mod installed;
pub mod shape;
mod widths;

use super::scene::Weight;
use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A character that none of the fonts has a glyph for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedCharacter {
    pub ch: char,
    pub code: u32,
    pub text: String,
    /// The fonts tried, in order, each as a phrase: `the built-in font
    /// Liberation Sans Bold`, or `the font Noto Sans CJK JP (FILE)`.
    pub fonts: Vec<String>,
    /// Whether the machine's installed fonts were searched for it too.
    pub installed: bool,
}

impl UnsupportedCharacter {
    /// It, and what to do about it: a font to add, named for the scripts
    /// whose fonts Debian packages.
    pub fn advice(&self) -> String {
        if self.installed {
            let such_as = match self.ch {
                '\u{0600}'..='\u{06FF}'
                | '\u{0750}'..='\u{077F}'
                | '\u{08A0}'..='\u{08FF}'
                | '\u{FB50}'..='\u{FDFF}'
                | '\u{FE70}'..='\u{FEFF}' => ", such as Noto Sans Arabic (fonts-noto-core)",
                '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' => {
                    ", such as Noto Sans CJK (fonts-noto-cjk)"
                }
                '\u{2600}'..='\u{27BF}' | '\u{1F000}'..='\u{1FAFF}' => {
                    ", such as Symbola (fonts-symbola), whose emoji are outlines"
                }
                _ => "",
            };
            return format!(
                "{self}, nor has any font installed on this machine; install a font that has it{such_as}, or add one with --font FILE.ttf (or .otf)"
            );
        }
        let such_as = match self.ch {
            '\u{0600}'..='\u{06FF}'
            | '\u{0750}'..='\u{077F}'
            | '\u{08A0}'..='\u{08FF}'
            | '\u{FB50}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFF}' => {
                ", such as Noto Sans Arabic: --font /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf (fonts-noto-core)"
            }
            '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' => {
                ", such as Noto Sans CJK: --font /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc (fonts-noto-cjk)"
            }
            _ => "",
        };
        format!("{self}; add a font that has it with --font FILE.ttf (or .otf){such_as}")
    }
}

impl std::fmt::Display for UnsupportedCharacter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (ch, code, text) = (self.ch, self.code, &self.text);
        match &self.fonts[..] {
            [one] => write!(
                f,
                "{one} has no glyph for {ch:?} (U+{code:04X}) in {text:?}"
            ),
            [first, second] => write!(
                f,
                "neither {first} nor {second} has a glyph for {ch:?} (U+{code:04X}) in {text:?}"
            ),
            [first @ .., last] => write!(
                f,
                "none of {} and {last} has a glyph for {ch:?} (U+{code:04X}) in {text:?}",
                first.join(", ")
            ),
            [] => write!(
                f,
                "no font has a glyph for {ch:?} (U+{code:04X}) in {text:?}"
            ),
        }
    }
}

impl std::error::Error for UnsupportedCharacter {}

/// One font face: its file's bytes, which it owns, its names, and the
/// bytes parsed once, for every text measured and shaped after.
pub struct Face {
    /// The face's place in its file (0 but in a collection).
    index: u32,
    /// The face parsed from `data`, which it borrows. The bytes never move
    /// and never change: a static slice, or a vector's buffer that nothing
    /// writes to again. They outlive the borrow: fields drop in their
    /// order, so this one before `data`.
    parsed: ttf_parser::Face<'static>,
    /// The same face for the shaper, made the first time a text needs
    /// shaping.
    shaper: OnceLock<rustybuzz::Face<'static>>,
    data: Cow<'static, [u8]>,
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
    pub fn parse(data: impl Into<Cow<'static, [u8]>>) -> Result<Face, String> {
        Face::parse_at(data, 0)
    }

    /// Parses face `index` of a TrueType or OpenType file (0 but in a
    /// collection).
    pub fn parse_at(data: impl Into<Cow<'static, [u8]>>, index: u32) -> Result<Face, String> {
        let data: Cow<'static, [u8]> = data.into();
        // SAFETY: the slice is `data`'s bytes, which the `Face` owns and
        // never changes; they stay where they are when the `Face` moves (a
        // static slice, or a vector's heap buffer), and are dropped after
        // the parsed faces that borrow them (the fields' order).
        let bytes: &'static [u8] = unsafe { std::slice::from_raw_parts(data.as_ptr(), data.len()) };
        let face = ttf_parser::Face::parse(bytes, index).map_err(|e| e.to_string())?;
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
            index,
            parsed: face,
            shaper: OnceLock::new(),
            data,
            family,
            full_name,
            postscript_name,
            units_per_em,
        })
    }

    /// The bytes of the font file.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The face's place in its file (0 but in a collection).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Whether its glyphs are outlines (a glyf or CFF table) that a PDF
    /// can embed and fill; a colour font of bitmaps (CBDT, sbix) has none,
    /// and its text would print as nothing at all.
    pub fn has_outlines(&self) -> bool {
        let tables = self.parsed.tables();
        tables.glyf.is_some() || tables.cff.is_some() || tables.cff2.is_some()
    }

    /// The face, as [`Face::parse`] parsed it.
    fn parsed(&self) -> &ttf_parser::Face<'_> {
        &self.parsed
    }

    /// The face for the shaper.
    fn shaper(&self) -> &rustybuzz::Face<'_> {
        self.shaper
            .get_or_init(|| rustybuzz::Face::from_face(self.parsed.clone()))
    }

    /// The glyph of `c`, if the font has one.
    pub fn glyph(&self, c: char) -> Option<u16> {
        self.parsed().glyph_index(c).map(|g| g.0)
    }

    /// The glyphs of `chars` that the font has, in order.
    pub fn glyphs(&self, chars: impl IntoIterator<Item = char>) -> Vec<u16> {
        let face = self.parsed();
        chars
            .into_iter()
            .filter_map(|c| face.glyph_index(c).map(|g| g.0))
            .collect()
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
    /// The fonts that draw, in every weight, what the faces above lack:
    /// each character comes from the first that has it.
    fallbacks: Vec<Fallback>,
    /// The CSS font-family list for the SVG.
    pub css_family: String,
    /// Whether the installed fonts were searched for the characters the
    /// others lack.
    installed: bool,
    /// The texts measured in these fonts, kept.
    widths: widths::Widths,
    /// The widths a screen draws, where a browser's own font stands in
    /// for a character these fonts lack.
    screen_widths: widths::Widths,
}

/// A font of the fallback chain, and the file it was read from.
#[derive(Clone, Debug)]
struct Fallback {
    face: Arc<Face>,
    path: String,
}

const REGULAR: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf");
const ITALIC: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Italic.ttf");

/// The CSS font-family list of the built-in fonts.
const BUILTIN_FAMILY: &str = "'Liberation Sans', Arial, Helvetica, sans-serif";

fn css_quote(family: &str) -> String {
    let clean: String = family
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\' | ';' | '<' | '>' | '&'))
        .collect();
    format!("'{clean}'")
}

impl Fonts {
    /// The fonts shipped inside the binary: Liberation Sans. They are
    /// parsed once and shared; they never change.
    pub fn builtin() -> &'static Arc<Fonts> {
        static BUILTIN: OnceLock<Arc<Fonts>> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            let face = |data: &'static [u8]| {
                Arc::new(Face::parse(data).expect("the built-in fonts parse"))
            };
            Arc::new(Fonts {
                regular: face(REGULAR),
                bold: face(BOLD),
                oblique: face(ITALIC),
                origin: None,
                fallbacks: Vec::new(),
                css_family: BUILTIN_FAMILY.to_owned(),
                installed: false,
                widths: Default::default(),
                screen_widths: Default::default(),
            })
        })
    }

    /// One font file for every weight, read from `path` (a .ttf or .otf,
    /// or the first face of a .ttc collection), instead of the built-in
    /// fonts. The fonts own the file's bytes, and free them when the last
    /// document drawn in them goes.
    pub fn load(path: &Path) -> Result<Arc<Fonts>, FontFileError> {
        let face = read(path)?;
        Ok(Arc::new(Fonts {
            css_family: format!("{}, sans-serif", css_quote(&face.family)),
            origin: Some(path.display().to_string()),
            regular: face.clone(),
            bold: face.clone(),
            oblique: face,
            fallbacks: Vec::new(),
            installed: false,
            widths: Default::default(),
            screen_widths: Default::default(),
        }))
    }

    /// The built-in fonts, followed by the font files of `paths` in order:
    /// each character is drawn from the first of them that has it, so
    /// that names in several scripts print in one document. With no paths,
    /// the built-in fonts alone.
    pub fn with_fallbacks(paths: &[impl AsRef<Path>]) -> Result<Arc<Fonts>, FontFileError> {
        let builtin = Fonts::builtin();
        if paths.is_empty() {
            return Ok(builtin.clone());
        }
        let mut fallbacks = Vec::new();
        for path in paths {
            let path = path.as_ref();
            fallbacks.push(Fallback {
                face: read(path)?,
                path: path.display().to_string(),
            });
        }
        Ok(Arc::new(builtin.followed_by(fallbacks, false)))
    }

    /// These fonts' faces, followed by theirs and then `more` fallbacks,
    /// the installed fonts searched if `installed`.
    fn followed_by(&self, more: Vec<Fallback>, installed: bool) -> Fonts {
        let mut fallbacks: Vec<Fallback> = self.fallbacks.clone();
        fallbacks.extend(more);
        let families: Vec<String> = fallbacks
            .iter()
            .map(|f| css_quote(&f.face.family))
            .collect();
        let css_family = match &self.origin {
            None if fallbacks.is_empty() => BUILTIN_FAMILY.to_owned(),
            None => format!(
                "'Liberation Sans', {}, Arial, Helvetica, sans-serif",
                families.join(", ")
            ),
            Some(_) => std::iter::once(css_quote(&self.regular.family))
                .chain(families)
                .chain(["sans-serif".to_owned()])
                .collect::<Vec<_>>()
                .join(", "),
        };
        Fonts {
            regular: self.regular.clone(),
            bold: self.bold.clone(),
            oblique: self.oblique.clone(),
            origin: self.origin.clone(),
            css_family,
            fallbacks,
            installed: self.installed || installed,
            widths: Default::default(),
            screen_widths: Default::default(),
        }
    }

    /// The face that draws `weight`.
    pub fn face(&self, weight: Weight) -> &Arc<Face> {
        match weight {
            Weight::Regular => &self.regular,
            Weight::Bold => &self.bold,
            Weight::Oblique => &self.oblique,
        }
    }

    /// The faces of all weights, each once, then the fallbacks: the
    /// fonts a PDF may embed.
    pub fn faces(&self) -> Vec<(Weight, &Arc<Face>)> {
        let mut faces: Vec<(Weight, &Arc<Face>)> = Vec::new();
        for weight in [Weight::Regular, Weight::Bold, Weight::Oblique] {
            let face = self.face(weight);
            if !faces.iter().any(|(_, f)| Arc::ptr_eq(f, face)) {
                faces.push((weight, face));
            }
        }
        faces.extend(self.fallbacks.iter().map(|f| (Weight::Regular, &f.face)));
        faces
    }

    /// The faces that draw `weight`, in the order they are tried: the
    /// weight's own, then the fallbacks.
    pub fn chain(&self, weight: Weight) -> Vec<&Arc<Face>> {
        std::iter::once(self.face(weight))
            .chain(self.fallbacks.iter().map(|f| &f.face))
            .collect()
    }

    /// Whether these are the built-in fonts.
    pub fn is_builtin(&self) -> bool {
        self.origin.is_none() && self.fallbacks.is_empty()
    }

    /// `text` in `weight` as the glyphs that draw it, left to right:
    /// normalised to NFC, each character from the first face of the
    /// chain that has it, right-to-left runs reordered and complex
    /// scripts shaped.
    pub fn line(&self, text: &str, weight: Weight) -> shape::Line {
        let chain: Vec<&Face> = self.chain(weight).into_iter().map(|f| &**f).collect();
        shape::line(&chain, text)
    }

    /// The phrase naming the face of `weight` or a fallback, for messages.
    fn describe(&self, face: &Face, fallback: Option<&str>) -> String {
        match (fallback, self.origin.as_deref()) {
            (Some(path), _) | (None, Some(path)) => format!("the font {} ({path})", face.full_name),
            (None, None) => format!("the built-in font {}", face.full_name),
        }
    }

    /// The fonts that draw `weight`, each as a phrase for messages.
    pub fn names(&self, weight: Weight) -> Vec<String> {
        std::iter::once(self.describe(self.face(weight), None))
            .chain(
                self.fallbacks
                    .iter()
                    .map(|f| self.describe(&f.face, Some(&f.path))),
            )
            .collect()
    }

    /// The phrase naming the face at place `index` of the chain of
    /// `weight` ([`Fonts::chain`]), and whether it is a font file.
    pub fn name_of(&self, weight: Weight, index: usize) -> (String, bool) {
        let name = self.names(weight).swap_remove(index);
        (name, index > 0 || self.origin.is_some())
    }

    /// The characters of `text` (in NFC) that no face of the chain of
    /// `weight` has a glyph for, in order.
    pub fn lacking(&self, text: &str, weight: Weight) -> impl Iterator<Item = char> {
        let normal = shape::nfc(text).into_owned();
        let chain = self.chain(weight);
        let parsed: Vec<&ttf_parser::Face<'_>> = chain.iter().map(|f| f.parsed()).collect();
        let lacking: Vec<char> = normal
            .chars()
            .filter(|&c| {
                !shape::is_ignorable(c) && parsed.iter().all(|f| f.glyph_index(c).is_none())
            })
            .collect();
        lacking.into_iter()
    }

    /// Checks that some face of the chain of `weight` has a glyph for
    /// every character (of the text in NFC).
    pub fn check(&self, text: &str, weight: Weight) -> Result<(), UnsupportedCharacter> {
        match self.lacking(text, weight).next() {
            None => Ok(()),
            Some(ch) => Err(UnsupportedCharacter {
                ch,
                code: ch as u32,
                text: text.to_owned(),
                fonts: self.names(weight),
                installed: self.installed,
            }),
        }
    }

    /// The width in millimetres of `text` at `size` millimetres.
    pub fn width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        let advance = self.widths.advance(text, weight, || {
            let chain: Vec<&Face> = self.chain(weight).into_iter().map(|f| &**f).collect();
            shape::advance(&chain, text)
        });
        advance * size
    }

    /// The width in millimetres of `text` at `size` millimetres on a
    /// screen: [`Fonts::width`], except that a wide character these fonts
    /// lack (CJK, an emoji), which a browser draws in a font of its own,
    /// takes a whole em, as in every font that has it, rather than the
    /// missing glyph's advance. Print refuses such a character, so for a
    /// text it prints this is its width.
    pub fn screen_width(&self, text: &str, size: f32, weight: Weight) -> f32 {
        let advance = self.screen_widths.advance(text, weight, || {
            let wide = |c: char| unicode_width::UnicodeWidthChar::width(c) == Some(2);
            if !self.lacking(text, weight).any(wide) {
                return self.width(text, 1.0, weight);
            }
            let chain: Vec<&Face> = self.chain(weight).into_iter().map(|f| &**f).collect();
            let line = shape::line(&chain, text);
            let glyphs = line.runs.iter().flat_map(|r| r.glyphs.iter());
            glyphs
                .map(|g| {
                    let mut chars = g.text.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if g.id == 0 && wide(c) => 1.0,
                        _ => g.advance,
                    }
                })
                .sum()
        });
        advance * size
    }

    /// The words of `text` in lines no wider than `width` at `size`, each
    /// line as many words as fit (a word wider than `width` alone).
    pub fn wrap(&self, text: &str, size: f32, weight: Weight, width: f32) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split(' ') {
            let candidate = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && self.width(&candidate, size, weight) > width {
                lines.push(std::mem::take(&mut line));
                line = word.to_owned();
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }

    /// The size at which `text` fits `max_width`: `size`, or smaller if the
    /// text is wider than that at `size`.
    pub fn fit(&self, text: &str, size: f32, max_width: f32, weight: Weight) -> f32 {
        let width = self.width(text, size, weight);
        if width > max_width && width > 0.0 {
            size * max_width / width
        } else {
            size
        }
    }
}

/// Reads a font file.
fn read(path: &Path) -> Result<Arc<Face>, FontFileError> {
    let bytes = std::fs::read(path).map_err(|e| FontFileError {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let face = Face::parse(bytes).map_err(|reason| FontFileError {
        path: path.display().to_string(),
        reason: format!("expected a TrueType or OpenType font, but {reason}"),
    })?;
    if !face.has_outlines() {
        return Err(FontFileError {
            path: path.display().to_string(),
            reason: format!(
                "expected a font whose glyphs are outlines (a glyf or CFF table), but {} has none: its glyphs are bitmaps, which would print as nothing",
                face.full_name
            ),
        });
    }
    Ok(Arc::new(face))
}

/// A font file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct FontFileError {
    pub path: String,
    pub reason: String,
}

/// The width in millimetres of `text` at `size` millimetres in the
/// built-in fonts: `Fonts::builtin().width(..)`, for a caller that draws
/// in nothing else.
pub fn width(text: &str, size: f32, weight: Weight) -> f32 {
    Fonts::builtin().width(text, size, weight)
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

    /// Given characters no built-in face has, when a text of them is
    /// measured for a screen (where a browser draws them in a font of its
    /// own), then a wide one (CJK, an emoji) takes a whole em, as in every
    /// font that has it, not the missing glyph's 0.75 em; the layout's
    /// measure is unchanged, and a text the fonts have keeps its width to
    /// the bit.
    #[test]
    fn a_wide_character_the_fonts_lack_is_measured_a_whole_em_on_a_screen() {
        let fonts = Fonts::builtin();
        for weight in [Weight::Regular, Weight::Bold, Weight::Oblique] {
            let screen = |text: &str| fonts.screen_width(text, 10.0, weight);
            assert!((screen("李雷") - 20.0).abs() < 1e-4);
            assert!((screen("Mia 😀") - screen("Mia ") - 10.0).abs() < 1e-4);
            // The layout's measure is unchanged: the missing glyph's.
            assert!((width("李雷", 10.0, weight) - 20.0).abs() > 1.0);
            // A text the fonts have: the same width to the bit.
            for text in ["Beach cabins", "Σοφία", "שָׂרָה", "ii"] {
                assert_eq!(screen(text).to_bits(), width(text, 10.0, weight).to_bits());
            }
        }
    }

    #[test]
    fn a_font_file_is_owned_by_its_fonts() {
        let path = std::env::temp_dir().join(format!("sunfold-font-{}.ttf", std::process::id()));
        std::fs::write(&path, REGULAR).unwrap();
        let fonts = Fonts::load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!fonts.is_builtin());
        assert!(Fonts::builtin().is_builtin());
        // One face for every weight, with the bytes of the file.
        assert_eq!(fonts.faces().len(), 1);
        assert_eq!(fonts.face(Weight::Bold).data(), REGULAR);
        assert_eq!(
            fonts.width("Soleils", 10.0, Weight::Bold),
            Fonts::builtin().width("Soleils", 10.0, Weight::Regular)
        );
        let weak = Arc::downgrade(&fonts);
        drop(fonts);
        assert!(weak.upgrade().is_none(), "nothing else keeps the fonts");
    }

    #[test]
    fn fit_shrinks_only_what_is_too_wide() {
        let fonts = Fonts::builtin();
        let wide = fonts.width("Summertime", 4.0, Weight::Bold);
        assert_eq!(fonts.fit("Summertime", 4.0, wide + 1.0, Weight::Bold), 4.0);
        let half = fonts.fit("Summertime", 4.0, wide / 2.0, Weight::Bold);
        assert!((half - 2.0).abs() < 1e-4, "{half}");
        assert_eq!(fonts.fit("", 4.0, 0.0, Weight::Bold), 4.0);
    }
}
