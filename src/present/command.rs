//! Legal next entries as commands a referee can paste, in the CLI's own
//! argument order (`sunfold place m.jsonl Ann K1a 3`), grouped by what is
//! decided: one group per player and decision, one for the roll.

use super::Present;
use std::path::Path;

/// One entry as a command: the decision it belongs to, and its arguments
/// after `sunfold VERB FILE`.
pub struct Command {
    /// Who decides what, such as "Ann: a placement"; entries with the same
    /// decision are listed together.
    pub decision: String,
    pub verb: &'static str,
    pub args: Vec<String>,
}

/// The commands of one decision.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Group {
    /// Who decides what, such as "Ann: a placement".
    pub decision: String,
    /// The seat of the player who decides, or `None` for the table's own
    /// events: who may see the group is decided by this, never by the
    /// decision's text.
    #[serde(skip)]
    #[schemars(skip)]
    pub seat: Option<usize>,
    /// Each choice, as a command to paste.
    pub commands: Vec<String>,
}

/// How many commands of one group the text shows without `--all`.
const SHOWN_PER_GROUP: usize = 6;

/// The events as commands on `file`, grouped by decision in the order the
/// decisions first appear; commands that coincide (every ordering of the
/// same dice is one roll) are listed once.
pub fn grouped<G: Present>(file: &Path, state: &G::State, events: &[G::Event]) -> Vec<Group> {
    let file = quote(&file.display().to_string());
    let mut groups: Vec<Group> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for event in events {
        let Some(command) = G::command(state, event) else {
            continue;
        };
        let mut text = format!("sunfold {} {file}", command.verb);
        for arg in &command.args {
            text.push(' ');
            text.push_str(&quote(arg));
        }
        if !seen.insert(text.clone()) {
            continue;
        }
        let seat = G::actor(state, event);
        match groups
            .iter_mut()
            .find(|g| g.seat == seat && g.decision == command.decision)
        {
            Some(group) => group.commands.push(text),
            None => groups.push(Group {
                decision: command.decision,
                seat,
                commands: vec![text],
            }),
        }
    }
    groups
}

/// The groups as indented text lines: each decision, then its commands,
/// the first few of each unless `all`; `more` says how to see the rest.
pub fn lines(groups: &[Group], all: bool, indent: &str, more: &str) -> Vec<String> {
    let mut out = Vec::new();
    for group in groups {
        let count = group.commands.len();
        let shown = if all {
            count
        } else {
            count.min(SHOWN_PER_GROUP)
        };
        let choices = match count {
            1 => String::new(),
            _ if shown < count => format!(" ({count} choices, {shown} shown; {more})"),
            _ => format!(" ({count} choices)"),
        };
        out.push(format!("{indent}{}{choices}:", group.decision));
        for command in &group.commands[..shown] {
            out.push(format!("{indent}  {command}"));
        }
    }
    out
}

/// A word as the shell reads it: as is when it is plain, single-quoted
/// otherwise.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// "winner: Hervine with 14 points", or the tied winners, from each
/// player's name, total and rank (1 for the best).
pub fn winners<'a>(lines: impl IntoIterator<Item = (&'a str, i64, u32)>) -> String {
    let best: Vec<(&str, i64)> = lines
        .into_iter()
        .filter(|&(_, _, rank)| rank == 1)
        .map(|(name, total, _)| (name, total))
        .collect();
    let points = |n: i64| if n == 1 { "point" } else { "points" };
    match best.as_slice() {
        [] => String::new(),
        [(name, total)] => format!("winner: {name} with {total} {}", points(*total)),
        [rest @ .., (last, total)] => {
            let names: Vec<&str> = rest.iter().map(|(n, _)| *n).collect();
            format!(
                "winners, tied: {} and {last} with {total} {} each",
                names.join(", "),
                points(*total)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{quote, winners};

    #[test]
    fn plain_words_stay_and_others_are_quoted() {
        assert_eq!(quote("K1a"), "K1a");
        assert_eq!(quote("-1,2"), "-1,2");
        assert_eq!(quote("Anne Marie"), "'Anne Marie'");
        assert_eq!(quote("O'Neil"), r"'O'\''Neil'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("Łukasz"), "'Łukasz'");
    }

    #[test]
    fn one_winner_or_the_tied_ones() {
        let one = [("Ann", 12, 2), ("Bob", 14, 1)];
        assert_eq!(winners(one), "winner: Bob with 14 points");
        let tied = [("Ann", 9, 1), ("Bob", 9, 1), ("Cy", 9, 1), ("Dee", 1, 4)];
        assert_eq!(
            winners(tied),
            "winners, tied: Ann, Bob and Cy with 9 points each"
        );
        assert_eq!(winners([("Ann", 1, 1)]), "winner: Ann with 1 point");
    }
}
