//! A located error of a log in words, as a referee reads it: the line that
//! locates it, what is legal instead, and what to do next (repair a torn
//! line or blank lines at the end, read an event log with the event verbs,
//! look at the state before it).

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

/// What to do about a damaged log, beside what is wrong with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Advice {
    #[default]
    None,
    /// The line is the torn last line, which `repair` removes.
    Torn,
    /// The line is one of the blank lines at the end, which `repair`
    /// removes.
    BlankEnd,
    /// The file is an event log, read by the event verbs and `audit`.
    EventLog,
}

impl Advice {
    /// What `repair` would do about the damage at line `line` of a log of
    /// `bytes`: remove it as a torn line, or as a blank line at the end
    /// ([`crate::log::end`]), or nothing.
    pub fn at(bytes: &[u8], line: usize) -> Advice {
        let end = crate::log::end(bytes);
        if !end.removes_line(line) {
            Advice::None
        } else if end.torn && line == end.first + end.blank {
            Advice::Torn
        } else {
            Advice::BlankEnd
        }
    }

    /// The advice for the log at `path` damaged at line `line`: [`Advice::at`]
    /// of its bytes, if they can be read.
    pub fn at_file(path: &std::path::Path, line: usize) -> Advice {
        std::fs::read(path).map_or(Advice::None, |bytes| Advice::at(&bytes, line))
    }

    /// The advice in words, for the log `shown`, indented as a note under
    /// its error.
    pub fn said(self, shown: &str) -> Option<String> {
        self.report(shown).map(|r| format!("  {}", r.message))
    }

    /// The advice as the JSON reports give it, for the log `shown`: what
    /// it is, in words, and the commands it names.
    pub fn report(self, shown: &str) -> Option<AdviceReport> {
        let (kind, message, commands) = match self {
            Advice::None => return None,
            Advice::Torn => (
                "torn_line",
                format!(
                    "a crash cut the last write short: sunfold repair {shown} removes it and keeps it aside"
                ),
                vec![format!("sunfold repair {shown}")],
            ),
            Advice::BlankEnd => (
                "blank_lines_at_end",
                format!(
                    "the log ends in blank lines: sunfold repair {shown} removes them and keeps them aside"
                ),
                vec![format!("sunfold repair {shown}")],
            ),
            Advice::EventLog => (
                "event_log",
                format!(
                    "an event log: sunfold event standings {shown} shows where it stands, and sunfold audit {shown} checks every line"
                ),
                vec![
                    format!("sunfold event standings {shown}"),
                    format!("sunfold audit {shown}"),
                ],
            ),
        };
        Some(AdviceReport {
            kind,
            message,
            commands,
        })
    }
}

/// What to do about a damaged log, in a JSON report: the same advice the
/// text gives under the error.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct AdviceReport {
    /// `torn_line` (the torn last line, which `repair` removes),
    /// `blank_lines_at_end` (which `repair` removes) or `event_log` (a log
    /// the event verbs and `audit` read).
    pub kind: &'static str,
    /// The advice in words, as the text gives it.
    pub message: String,
    /// The commands it names, each ready to paste.
    pub commands: Vec<String>,
}

/// The command that replays a log `shown` up to event `last`: the state a
/// refused line was checked against.
pub fn state_before_command(shown: &str, last: u64) -> String {
    format!("sunfold replay {shown} --at {last}")
}

/// The lines of a located error of the log `shown`: `located` (`:LINE:
/// event SEQ (TYPE): REASON`) after the file, the `alternatives`, the
/// `advice` (repair a torn line), and the replay of the state `before` it.
pub fn failure_lines(
    shown: &str,
    located: &str,
    alternatives: &Alternatives,
    advice: Advice,
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
    out.extend(advice.said(shown));
    if let Some(last) = before {
        out.push(format!(
            "  the state before it: {}",
            state_before_command(shown, last)
        ));
    }
    out
}
