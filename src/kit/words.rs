//! Words for figures: a count with its noun in the singular or the plural.

/// `n` and the noun that goes with it: "1 round", "2 rounds".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
