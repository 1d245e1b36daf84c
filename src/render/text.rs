//! Text for the builtin PDF fonts: Helvetica's widths, and the check that a
//! text stays inside the WinAnsi character set those fonts can print.
//!
//! We use the PDF's builtin Helvetica rather than an embedded font: files
//! stay small (no 390 KB font in every sheet), every PDF reader has it, and
//! WinAnsi covers the languages of our games (é, à, ü, ß, €). Any other
//! character is refused with a clear error instead of printing as "?".

use super::scene::Weight;

/// A character the builtin fonts cannot print.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected text in the Western European (WinAnsi) character set of the PDF fonts, but found {ch:?} (U+{code:04X}) in {text:?}"
)]
pub struct UnsupportedCharacter {
    pub ch: char,
    pub code: u32,
    pub text: String,
}

/// The characters of WinAnsi outside Latin-1.
const EXTRA: &str = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

pub fn is_winansi(c: char) -> bool {
    matches!(c as u32, 0x20..=0x7E | 0xA0..=0xFF) || EXTRA.contains(c)
}

pub fn check(text: &str) -> Result<(), UnsupportedCharacter> {
    match text.chars().find(|&c| !is_winansi(c)) {
        None => Ok(()),
        Some(ch) => Err(UnsupportedCharacter {
            ch,
            code: ch as u32,
            text: text.to_owned(),
        }),
    }
}

/// Helvetica advance widths for ASCII 32..=126, in 1/1000 em (Adobe AFM).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278,
    278, // space../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0..9
    278, 278, 584, 584, 584, 556, 1015, // :..@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, // A..Z
    278, 278, 278, 469, 556, 333, // [..`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500, 500, 500, // a..z
    334, 260, 334, 584, // {..~
];

/// Helvetica-Bold advance widths for ASCII 32..=126.
const HELVETICA_BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278,
    278, // space../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0..9
    333, 333, 584, 584, 584, 611, 975, // :..@
    722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, // A..Z
    333, 278, 333, 584, 556, 333, // [..`
    556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556,
    333, 611, 556, 778, 556, 556, 500, // a..z
    389, 280, 389, 584, // {..~
];

/// The ASCII letter whose width an accented Latin-1 letter shares.
fn base(c: char) -> char {
    match c {
        'À'..='Å' => 'A',
        'Ç' => 'C',
        'È'..='Ë' => 'E',
        'Ì'..='Ï' => 'I',
        'Ñ' => 'N',
        'Ò'..='Ö' | 'Ø' => 'O',
        'Ù'..='Ü' => 'U',
        'Ý' | 'Ÿ' => 'Y',
        'à'..='å' => 'a',
        'ç' => 'c',
        'è'..='ë' => 'e',
        'ì'..='ï' => 'i',
        'ñ' => 'n',
        'ò'..='ö' | 'ø' => 'o',
        'ù'..='ü' => 'u',
        'ý' | 'ÿ' => 'y',
        'ß' => 'B',
        '×' | '÷' | '±' => '+',
        '·' | '•' => '.',
        '–' => '-',
        '—' => 'M',
        '€' => '0',
        _ => 'n',
    }
}

/// The width in millimetres of `text` at `size` millimetres.
pub fn width(text: &str, size: f32, weight: Weight) -> f32 {
    let table = match weight {
        Weight::Bold => &HELVETICA_BOLD,
        Weight::Regular | Weight::Oblique => &HELVETICA,
    };
    let units: u32 = text
        .chars()
        .map(|c| {
            let c = if (' '..='~').contains(&c) { c } else { base(c) };
            u32::from(table[(c as usize) - 32])
        })
        .sum();
    units as f32 / 1000.0 * size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winansi_covers_french_and_german_but_not_symbols() {
        assert!(check("62 Soleils d'été, Straße, 5 €").is_ok());
        let error = check("A → B").unwrap_err();
        assert_eq!(error.ch, '→');
        assert!(check("≠").is_err());
    }

    #[test]
    fn widths_follow_helvetica() {
        assert!((width("ii", 10.0, Weight::Regular) - 4.44).abs() < 0.01);
        // Adobe's AFM: W is 944 units, and bold m (889) is wider than regular m (833).
        assert!((width("W", 10.0, Weight::Regular) - 9.44).abs() < 0.001);
        assert!(width("m", 10.0, Weight::Bold) > width("m", 10.0, Weight::Regular));
        assert_eq!(
            width("é", 10.0, Weight::Regular),
            width("e", 10.0, Weight::Regular)
        );
    }
}
