//! Text columns for a terminal, measured in the columns a terminal gives
//! each character (`unicode-width`): a Chinese character or an emoji takes
//! two, a combining mark none, so that names in any script line up.

use unicode_width::UnicodeWidthStr;

/// How many terminal columns `text` takes.
pub fn width(text: &str) -> usize {
    text.width()
}

/// `text` followed by spaces to `columns` terminal columns (unchanged if it
/// is as wide or wider).
pub fn left(text: &str, columns: usize) -> String {
    let pad = columns.saturating_sub(width(text));
    format!("{text}{}", " ".repeat(pad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_twice_and_marks_not_at_all() {
        // Given names in four scripts, when measured, then each takes the
        // columns a terminal gives it.
        assert_eq!(width("Ann"), 3);
        assert_eq!(width("李雷"), 4);
        assert_eq!(width("שָׂרָה"), 3);
        assert_eq!(width("Zoe\u{308}"), 3);
        assert_eq!(width("Mia 😀"), 6);
        assert_eq!(left("李雷", 6), "李雷  ");
        assert_eq!(left("Anneliese", 4), "Anneliese");
    }
}
