//! A line of text as glyphs: each character from the first face of a
//! chain that has it, right-to-left runs in visual order (unicode-bidi, in
//! a left-to-right paragraph, as a browser sets a line),
//! and real shaping (rustybuzz) wherever a script needs it: Arabic
//! joining, Hebrew points, combining marks.
//!
//! Text in the scripts that need none of this (Latin, Greek, Cyrillic,
//! Chinese, left to right, without combining marks) is set character by
//! character from the font's character map and advance widths, as it
//! always was: its widths, and the PDF written for it, stay what they were.

use super::Face;
use std::borrow::Cow;
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;

/// One glyph of a shaped run, in em of its face.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// The glyph's id in its face.
    pub id: u16,
    /// How far the pen moves after it.
    pub advance: f32,
    /// Where it is drawn, from the pen: right and up.
    pub x_offset: f32,
    pub y_offset: f32,
    /// Its cluster: the byte offset, in the run's text, of the first
    /// character it draws; a letter and its marks share one.
    pub cluster: usize,
    /// The text it stands for when the PDF is read back (its ToUnicode
    /// entry), in logical order; empty for the second glyph of a cluster
    /// whose text the first one already carries.
    pub text: String,
}

/// A run of glyphs from one face, left to right as they are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The face's place in the chain: 0 is the weight's own face, then
    /// the fallbacks in order.
    pub face: usize,
    /// The characters of the run, in logical order.
    pub text: String,
    pub glyphs: Vec<Glyph>,
}

impl Run {
    /// The run's advance in em.
    pub fn advance(&self) -> f32 {
        self.glyphs.iter().map(|g| g.advance).sum()
    }
}

/// A line of text, as its runs are drawn from left to right.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub runs: Vec<Run>,
    /// Whether it went through bidi reordering and shaping; if not, each
    /// run is its characters, one glyph each, left to right.
    pub shaped: bool,
}

impl Line {
    /// The line's advance in em.
    pub fn advance(&self) -> f32 {
        self.runs.iter().map(Run::advance).sum()
    }
}

/// The text in Unicode normalisation form C: a decomposed "Zoë" becomes
/// the one character the fonts draw as one glyph.
pub fn nfc(text: &str) -> Cow<'_, str> {
    match unicode_normalization::is_nfc_quick(text.chars()) {
        unicode_normalization::IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfc().collect()),
    }
}

/// Characters that draw nothing and that a shaper handles whether or not
/// the font has them: joiners, direction marks, variation selectors.
pub fn is_ignorable(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}')
}

/// Whether `c` needs bidi reordering or shaping: a right-to-left
/// character, a combining mark, a joiner or direction control, or a
/// script whose letters change with their neighbours.
fn is_complex(c: char) -> bool {
    use unicode_bidi::BidiClass::{AL, AN, R};
    if c.is_ascii() {
        return false;
    }
    matches!(unicode_bidi::bidi_class(c), R | AL | AN)
        || unicode_normalization::char::is_combining_mark(c)
        || is_ignorable(c)
        || matches!(c,
            '\u{0900}'..='\u{0DFF}' // Indic
            | '\u{0E00}'..='\u{0FFF}' // Thai, Lao, Tibetan
            | '\u{1000}'..='\u{109F}' // Myanmar
            | '\u{1780}'..='\u{17FF}' // Khmer
            | '\u{A8E0}'..='\u{A8FF}'
            | '\u{1100}'..='\u{11FF}' // Hangul jamo, which compose
        )
}

/// The face each character is drawn in: the first of `chain` that has
/// it. A combining mark or joiner stays in its base's face when that face
/// has it, so that the shaper can place it. A character no face has takes
/// the first face (whose missing glyph it then draws).
fn faces_of(chain: &[&Face], text: &str) -> Vec<(usize, char, usize)> {
    let parsed: Vec<&ttf_parser::Face<'_>> = chain.iter().map(|f| f.parsed()).collect();
    let mut out: Vec<(usize, char, usize)> = Vec::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        let follows = unicode_normalization::char::is_combining_mark(c) || is_ignorable(c);
        let previous = out.last().map(|&(_, _, face)| face);
        let face = match previous {
            Some(face) if follows && (is_ignorable(c) || parsed[face].glyph_index(c).is_some()) => {
                face
            }
            _ => parsed
                .iter()
                .position(|f| f.glyph_index(c).is_some())
                .unwrap_or(0),
        };
        out.push((at, c, face));
    }
    out
}

/// Splits `range` of `chars` into pieces of one face each, in logical order.
fn by_face(chars: &[(usize, char, usize)], range: Range<usize>) -> Vec<(usize, Range<usize>)> {
    let mut pieces: Vec<(usize, Range<usize>)> = Vec::new();
    for &(at, c, face) in chars.iter().filter(|(at, _, _)| range.contains(at)) {
        let end = at + c.len_utf8();
        match pieces.last_mut() {
            Some((f, r)) if *f == face && r.end == at => r.end = end,
            _ => pieces.push((face, at..end)),
        }
    }
    pieces
}

/// `text`, each character from the first face of `chain` that has it.
pub fn line(chain: &[&Face], text: &str) -> Line {
    let text = nfc(text);
    let chars = faces_of(chain, &text);
    if !text.chars().any(is_complex) {
        let runs = by_face(&chars, 0..text.len())
            .into_iter()
            .map(|(face, range)| simple(chain[face], face, &text[range]))
            .collect();
        return Line {
            runs,
            shaped: false,
        };
    }
    // A left-to-right paragraph, as a browser sets a line by default and as
    // the SVG's text is shown: "3. שָׂרָה" keeps its number on the left, and
    // the right-to-left run is shaped and placed right to left after it.
    let bidi = unicode_bidi::BidiInfo::new(&text, Some(unicode_bidi::Level::ltr()));
    let mut runs = Vec::new();
    for paragraph in &bidi.paragraphs {
        let (levels, visual) = bidi.visual_runs(paragraph, paragraph.range.clone());
        for range in visual {
            let rtl = levels[range.start].is_rtl();
            let mut pieces = by_face(&chars, range);
            if rtl {
                pieces.reverse();
            }
            for (face, range) in pieces {
                runs.push(shaped(chain[face], face, &text, range, rtl));
            }
        }
    }
    Line { runs, shaped: true }
}

/// The advance of `text` in em: `line(chain, text).advance()`, the same
/// sums in the same order, without making the glyphs of a line that
/// needs no shaping (measuring is most of what wrapping text costs).
pub fn advance(chain: &[&Face], text: &str) -> f32 {
    let text = nfc(text);
    if text.chars().any(is_complex) {
        return line(chain, &text).advance();
    }
    let chars = faces_of(chain, &text);
    by_face(&chars, 0..text.len())
        .into_iter()
        .map(|(face, range)| {
            let face = chain[face];
            text[range]
                .chars()
                .map(|c| glyph_of(face, c).1)
                .sum::<f32>()
        })
        .sum()
}

/// The glyph of `c` in `face`'s character map (0 when it has none) and
/// its advance in em.
fn glyph_of(face: &Face, c: char) -> (u16, f32) {
    let parsed = face.parsed();
    let id = parsed.glyph_index(c).unwrap_or(ttf_parser::GlyphId(0));
    let advance = f32::from(parsed.glyph_hor_advance(id).unwrap_or(0)) / face.units_per_em;
    (id.0, advance)
}

/// A run of one glyph per character, from the character map.
fn simple(face: &Face, index: usize, text: &str) -> Run {
    let glyphs = text
        .char_indices()
        .map(|(at, c)| {
            let (id, advance) = glyph_of(face, c);
            Glyph {
                cluster: at,
                id,
                advance,
                x_offset: 0.0,
                y_offset: 0.0,
                text: c.to_string(),
            }
        })
        .collect();
    Run {
        face: index,
        text: text.to_owned(),
        glyphs,
    }
}

/// `text[range]` shaped by rustybuzz in `face`, its glyphs left to right.
fn shaped(face: &Face, index: usize, text: &str, range: Range<usize>, rtl: bool) -> Run {
    let piece = &text[range.clone()];
    let font = face.shaper();
    let mut buffer = rustybuzz::UnicodeBuffer::new();
    buffer.push_str(piece);
    buffer.set_pre_context(&text[..range.start]);
    buffer.set_post_context(&text[range.end..]);
    buffer.set_direction(if rtl {
        rustybuzz::Direction::RightToLeft
    } else {
        rustybuzz::Direction::LeftToRight
    });
    buffer.guess_segment_properties();
    let output = rustybuzz::shape(font, &[], buffer);
    let em = face.units_per_em;
    let infos = output.glyph_infos();
    let positions = output.glyph_positions();
    // Each cluster's text: from its start to the next cluster's start.
    let mut starts: Vec<usize> = infos.iter().map(|i| i.cluster as usize).collect();
    starts.sort_unstable();
    starts.dedup();
    let cluster_text = |start: usize| {
        let end = starts
            .iter()
            .find(|&&s| s > start)
            .copied()
            .unwrap_or(piece.len());
        &piece[start..end]
    };
    // The text of each glyph: a glyph that the character map gives for
    // one of its cluster's characters stands for that character; the
    // first glyph of a cluster that does not takes the cluster's other
    // characters (a ligature, a joined form).
    let parsed = face.parsed();
    let mut texts: Vec<String> = vec![String::new(); infos.len()];
    for &start in &starts {
        let members: Vec<usize> = (0..infos.len())
            .filter(|&i| infos[i].cluster as usize == start)
            .collect();
        let mut left: Vec<char> = cluster_text(start).chars().collect();
        for &i in &members {
            let id = infos[i].glyph_id;
            if let Some(at) = left
                .iter()
                .position(|&c| parsed.glyph_index(c).is_some_and(|g| u32::from(g.0) == id))
            {
                texts[i] = left.remove(at).to_string();
            }
        }
        if let Some(&first) = members.iter().find(|&&i| texts[i].is_empty()) {
            texts[first] = left.into_iter().collect();
        } else if !left.is_empty() {
            let first = members[0];
            texts[first].extend(left);
        }
    }
    let glyphs = infos
        .iter()
        .zip(positions)
        .zip(texts)
        .map(|((info, position), text)| Glyph {
            cluster: info.cluster as usize,
            id: u16::try_from(info.glyph_id).unwrap_or(0),
            advance: position.x_advance as f32 / em,
            x_offset: position.x_offset as f32 / em,
            y_offset: position.y_offset as f32 / em,
            text,
        })
        .collect();
    Run {
        face: index,
        text: piece.to_owned(),
        glyphs,
    }
}
