//! The one error type of the command line, printed in one place
//! ([`CliError::report`], called by `main`) and mapped to exit codes 1 and 2.
//!
//! Commands return `Result<Exit, CliError>`: `Ok` carries the verdict of a
//! command that ran to its end (`audit` finding bad files exits 1 with
//! `Ok`), `Err` a command that could not.

use super::{Exit, Format};
use crate::present::failure::failure_lines;
use std::path::{Path, PathBuf};

/// Why a command stopped.
#[derive(Debug)]
pub enum CliError {
    /// A bad argument, or a request that makes no sense: `sunfold: MESSAGE`,
    /// exit 2.
    Usage(String),
    /// A file that cannot be read or written: `sunfold: PATH: REASON`, exit 2.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// An entry or a file refused for what it says, where no line locates
    /// it: `sunfold: MESSAGE`, exit 1.
    Refused(String),
    /// A file whose content is wrong at a place the message names:
    /// `PATH: MESSAGE`, exit 1.
    File { path: PathBuf, message: String },
    /// Every problem of a template or deck: `PATH: PROBLEM` each, then the
    /// count, exit 1.
    Problems {
        path: PathBuf,
        problems: Vec<String>,
    },
    /// Problems of several files, each line already located (`PATH:LINE:
    /// …` or `PATH: …`), then `sunfold: SUMMARY`, exit 1.
    Listed { lines: Vec<String>, summary: String },
    /// The first malformed or illegal line of a log, located, exit 1.
    Log(Box<LogFailure>),
    /// Damage that a command will not touch: the damage as found, then
    /// `sunfold: MESSAGE`, exit 1.
    Untouched {
        damage: Box<CliError>,
        message: String,
    },
}

/// A located log error, ready to print as text or JSON.
#[derive(Debug)]
pub struct LogFailure {
    pub path: PathBuf,
    pub format: Format,
    /// `:LINE: event SEQ (TYPE): REASON`, as the log reader locates it.
    pub located: String,
    /// What is legal instead, one entry per line of text.
    pub alternatives: Alternatives,
    /// What to do about it: repair a torn line, read an event log with
    /// the event verbs.
    pub advice: Advice,
    /// The seq of the last event folded before the error, if any.
    pub before: Option<u64>,
    /// The whole report, for `--format json`.
    pub json: Option<serde_json::Value>,
}

pub use crate::present::failure::{Advice, Alternatives};

impl From<crate::serve::edge::StartError> for CliError {
    fn from(error: crate::serve::edge::StartError) -> CliError {
        CliError::Usage(error.to_string())
    }
}

impl CliError {
    /// A file that cannot be read or written.
    pub fn io(path: &Path, error: std::io::Error) -> CliError {
        CliError::Io {
            path: path.to_owned(),
            error,
        }
    }

    /// A new file asked for where one is, without `--force`.
    pub fn exists(path: &Path) -> CliError {
        let path = path.display();
        CliError::Usage(format!(
            "{path}: expected a new file, but it exists; use --force to overwrite it"
        ))
    }

    /// The exit code it gives.
    pub fn exit(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::Io { .. } => Exit::Usage,
            CliError::Refused(_)
            | CliError::File { .. }
            | CliError::Problems { .. }
            | CliError::Listed { .. }
            | CliError::Log(_)
            | CliError::Untouched { .. } => Exit::Invalid,
        }
    }

    /// Prints it: a JSON report to standard output for `--format json`,
    /// everything else to standard error.
    pub fn report(&self) {
        match self {
            CliError::Usage(message) | CliError::Refused(message) => {
                eprintln!("sunfold: {message}");
            }
            CliError::Io { path, error } => {
                eprintln!("sunfold: {}: {}", path.display(), io_reason(error));
            }
            CliError::File { path, message } => eprintln!("{}: {message}", path.display()),
            CliError::Problems { path, problems } => {
                let shown = path.display();
                for problem in problems {
                    eprintln!("{shown}: {problem}");
                }
                let count = problems.len();
                let plural = if count == 1 { "" } else { "s" };
                eprintln!("{shown}: {count} problem{plural}");
            }
            CliError::Listed { lines, summary } => {
                for line in lines {
                    eprintln!("{line}");
                }
                eprintln!("sunfold: {summary}");
            }
            CliError::Log(failure) => failure.report(),
            CliError::Untouched { damage, message } => {
                damage.report();
                eprintln!("sunfold: {message}");
            }
        }
    }
}

impl CliError {
    /// The line of the log it locates, if it locates one.
    pub fn line(&self) -> Option<usize> {
        match self {
            CliError::Log(failure) => failure.located.split(':').next()?.parse().ok(),
            CliError::Untouched { damage, .. } => damage.line(),
            _ => None,
        }
    }
}

impl LogFailure {
    fn report(&self) {
        if let (Format::Json, Some(json)) = (self.format, &self.json) {
            println!("{json:#}");
            return;
        }
        let shown = self.path.display().to_string();
        let (alternatives, advice, before) = (&self.alternatives, self.advice, self.before);
        for line in failure_lines(&shown, &self.located, alternatives, advice, before) {
            eprintln!("{line}");
        }
    }
}

/// An I/O error in the words of the other messages.
pub fn io_reason(error: &std::io::Error) -> String {
    crate::log::io_reason(error)
}

impl CliError {
    /// `error`, a problem of the whole file at `path`: `PATH: MESSAGE`.
    pub fn refused_at(path: &Path, error: impl std::fmt::Display) -> CliError {
        CliError::File {
            path: path.to_owned(),
            message: error.to_string(),
        }
    }

    /// A problem of `path` at a line, `located` starting with the line's
    /// number: printed `PATH:LINE: …`.
    pub fn located_at(path: &Path, located: String, advice: Advice) -> CliError {
        CliError::Log(Box::new(LogFailure {
            path: path.to_owned(),
            format: Format::Text,
            located,
            alternatives: Default::default(),
            advice,
            before: None,
            json: None,
        }))
    }

    /// An error of the event log at `path`, with the path in front.
    pub fn event_file(path: &Path, error: crate::event::EventFileError) -> CliError {
        use crate::event::{EventFileError, TableLogError};
        let failure = |located: String, advice| CliError::located_at(path, located, advice);
        match error {
            EventFileError::Io(error) => CliError::io(path, error),
            EventFileError::Decode(e) => failure(e.to_string(), advice(path, &e.error, e.line)),
            EventFileError::Rule(e) => failure(e.to_string(), Advice::None),
            EventFileError::Table(TableLogError::Io { path, error }) => {
                CliError::Io { path, error }
            }
            e @ (EventFileError::Table(_) | EventFileError::Players(_)) => {
                CliError::Refused(e.to_string())
            }
            e @ (EventFileError::Empty | EventFileError::Refused(_)) => {
                CliError::refused_at(path, e)
            }
        }
    }
}

/// What to do about `error`, found at line `line` of the log at `path`:
/// `repair` for a torn line or a blank line at the end (as `repair` itself
/// finds them), the event verbs for an event log.
pub fn advice(path: &Path, error: &crate::log::DecodeError, line: usize) -> Advice {
    use crate::log::DecodeError;
    match error {
        DecodeError::EventLog => Advice::EventLog,
        DecodeError::TornLine { .. } | DecodeError::BlankLine => Advice::at_file(path, line),
        _ => Advice::None,
    }
}
