//! "Did you mean K1a?": the name a mistyped one most likely meant. Pure,
//! shared by both rules cores for players, boxes and cards.

use std::fmt;

/// A suggestion for a name that matched nothing, shown after the message as
/// `; did you mean K1a?`, or nothing when no name is close enough.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suggestion(pub Option<String>);

impl fmt::Display for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(name) => write!(f, "; did you mean {name}?"),
            None => Ok(()),
        }
    }
}

/// The candidate `found` most likely meant: the one equal to it but for
/// case; else the one closest by edit distance, if it is the only one that
/// close and the distance is at most a third of the name (at least 1).
pub fn closest<'a>(found: &str, candidates: impl IntoIterator<Item = &'a str>) -> Suggestion {
    let wanted = found.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for candidate in candidates {
        let lower = candidate.to_lowercase();
        if lower == wanted {
            return Suggestion(Some(candidate.to_owned()));
        }
        let distance = edit_distance(&wanted, &lower);
        match best {
            Some((d, _)) if distance > d => {}
            Some((d, _)) if distance == d => tied = true,
            _ => {
                best = Some((distance, candidate));
                tied = false;
            }
        }
    }
    match best {
        Some((d, name)) if d <= limit && !tied => Suggestion(Some(name.to_owned())),
        _ => Suggestion(None),
    }
}

/// The Levenshtein distance between two strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_first_then_one_close_name() {
        let boxes = ["K1a", "K1b", "C2a", "V1a"];
        assert_eq!(closest("k1a", boxes).to_string(), "; did you mean K1a?");
        assert_eq!(closest("C2", boxes).to_string(), "; did you mean C2a?");
        // Two names equally close: no guess.
        assert_eq!(closest("K1", boxes).to_string(), "");
        assert_eq!(closest("Z9", boxes).to_string(), "");
        let players = ["Maxime", "Fanny", "Théo"];
        assert_eq!(
            closest("Maxim", players).to_string(),
            "; did you mean Maxime?"
        );
        // An accent left out is one letter off.
        assert_eq!(closest("theo", players).to_string(), "; did you mean Théo?");
        assert_eq!(closest("THÉO", players).to_string(), "; did you mean Théo?");
        assert_eq!(closest("Nobody", players).to_string(), "");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
