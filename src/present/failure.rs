//! A located error of a log in words, as a referee reads it: the line that
//! locates it, what is legal instead, and what to do next (repair a torn
//! line, look at the state before it).

use super::command::{Group, lines, quote};
use crate::log::Fold;

/// The legal alternatives to a refused line.
#[derive(Debug, Default)]
pub enum Alternatives {
    #[default]
    None,
    /// Descriptions, for a line of a log on disk.
    Described(Vec<String>),
    /// Commands to paste, grouped by decision, for an entry being recorded.
    Commands(Vec<Group>),
}

/// How many described alternatives a replay error lists.
const ALTERNATIVES_SHOWN: usize = 8;

impl Alternatives {
    /// The commands to paste instead of the event `fold` rejected, for
    /// the log at `file`; none when it rejected no event.
    pub fn commands<G: super::Present>(file: &std::path::Path, fold: &Fold<G>) -> Alternatives {
        fold.rejected()
            .map(|event| {
                let events = G::alternatives(fold.state(), event);
                Alternatives::Commands(super::command::grouped::<G>(file, fold.state(), &events))
            })
            .unwrap_or_default()
    }

    /// Every alternative in words, one each: a description or a command.
    pub fn words(&self) -> Vec<String> {
        match self {
            Alternatives::Described(words) => words.clone(),
            Alternatives::Commands(groups) => groups
                .iter()
                .flat_map(|g| g.commands.iter().cloned())
                .collect(),
            Alternatives::None => Vec::new(),
        }
    }
}

/// The lines of a located error of the log `shown`: `located` (`:LINE:
/// event SEQ (TYPE): REASON`) after the file, the `alternatives`, how to
/// repair a `torn` line, and the replay of the state `before` it.
pub fn failure_lines(
    shown: &str,
    located: &str,
    alternatives: &Alternatives,
    torn: bool,
    before: Option<u64>,
) -> Vec<String> {
    let mut out = vec![format!("{shown}:{located}")];
    match alternatives {
        Alternatives::None => {}
        Alternatives::Described(described) if described.is_empty() => {}
        Alternatives::Described(described) => {
            let more = described.len().saturating_sub(ALTERNATIVES_SHOWN);
            let listed = described[..described.len().min(ALTERNATIVES_SHOWN)].join("; ");
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            out.push(format!("  legal instead: {listed}{more}"));
        }
        Alternatives::Commands(groups) if groups.is_empty() => {}
        Alternatives::Commands(groups) => {
            out.push("  legal instead:".to_owned());
            let more = format!("sunfold status {} --all lists every one", quote(shown));
            out.extend(lines(groups, false, "    ", &more));
        }
    }
    if torn {
        out.push(format!(
            "  a crash cut the last write short: sunfold repair {shown} removes it and keeps it aside"
        ));
    }
    if let Some(last) = before {
        out.push(format!(
            "  the state before it: sunfold replay {shown} --at {last}"
        ));
    }
    out
}
