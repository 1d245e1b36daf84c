//! Errors of the log: decoding (bad JSON or schema) and located replay errors.

use crate::kit::game::Game;
use std::fmt;

/// A line that is not a well-formed event of the log. Never about rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("expected a start event, but the file is empty")]
    EmptyFile,
    #[error("expected a JSON event, but found an empty line")]
    BlankLine,
    #[error("expected UTF-8 text, but found an invalid byte at column {column}")]
    NotUtf8 { column: usize },
    #[error(
        "expected a complete last line, but the file ends mid-event after {bytes} bytes (a torn write)"
    )]
    TornLine { bytes: usize },
    #[error("expected JSON, but found a UTF-8 byte-order mark at the start of the line")]
    ByteOrderMark,
    #[error("expected a JSON event, but found {found:?}, which is not JSON")]
    NotJson { found: String },
    #[error("malformed JSON at column {column}: {detail}")]
    Json { column: usize, detail: String },
    #[error("expected a JSON object with a \"type\", but found {found}")]
    NoType { found: String },
    #[error("expected a \"seq\" number, but found {found}")]
    NoSeq { found: String },
    #[error("expected the first event to be \"started\", but found {found:?}")]
    StartNotFirst { found: String },
    /// The first line is an event log's `created`: not a match log at all.
    #[error(
        "expected a match log, whose first event is \"started\", but found an event log, whose first entry is \"created\""
    )]
    EventLog,
    #[error("expected log format version {}, but found {found}", or_list(.supported))]
    UnsupportedFormat {
        supported: &'static [u32],
        found: String,
    },
    #[error("expected a game of {}, but found {found}", .known.join(" or "))]
    UnknownGame {
        found: String,
        known: &'static [&'static str],
    },
    #[error("expected an event type of {game} ({}), but found {found:?}", .known.join(", "))]
    UnknownType {
        game: &'static str,
        found: String,
        known: Vec<&'static str>,
    },
    #[error("expected seq {expected}, but found {found}{}", seq_hint(*.expected, *.found))]
    Seq { expected: u64, found: u64 },
    #[error("{}{detail}", at_path(.path))]
    Schema { path: String, detail: String },
    #[error(
        "expected \"prev\" to be the hash of line {line}, but found another: line {line} was changed after this line was written"
    )]
    ChainBroken { line: usize },
    #[error(
        "expected a \"prev\" hash, as the log is chained from line 2, but found none: a line was inserted or its hash removed"
    )]
    ChainMissing,
    #[error(
        "expected no \"prev\" hash, as line 2 has none and the log is not chained, but found one"
    )]
    ChainUnexpected,
}

/// `1 or 2`, `1, 2 or 3`.
fn or_list(versions: &[u32]) -> String {
    let text: Vec<String> = versions.iter().map(u32::to_string).collect();
    match text.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => text.join(""),
    }
}

/// Why an `undone` or `claimed` entry cannot stand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MetaError {
    #[error("expected a decision to undo, but none was made since the last {barrier}")]
    NothingToUndo { barrier: &'static str },
    #[error("expected to undo event {expected}, the last decision standing, but found {found}")]
    NotLast { expected: u64, found: u64 },
    #[error("expected claims for players of the game ({}), but found {found:?}", .known.join(", "))]
    UnknownClaimant { found: String, known: Vec<String> },
    #[error("expected an undo before the game is over, but it is over, and its end is final")]
    UndoPastEnd,
    #[error(
        "expected claims once the game is over, or claims that call it (\"called\": true), but the game is not over"
    )]
    ClaimBeforeEnd,
    #[error("expected claims that call a game still going, but the game is already over")]
    CalledAfterEnd,
    #[error("expected no more entries, but the game was called by the claims of event {seq}")]
    Called { seq: u64 },
    /// A `by` in a log of a format before [`super::AUTHORS`], which had
    /// no such field.
    #[error(
        "expected no \"by\" in a log of format {format}, as only format {AUTHORS} and later name who posted an entry, but found \"by\": {found:?}",
        AUTHORS = super::AUTHORS
    )]
    AuthorBeforeFormat { format: u32, found: String },
    /// A `by` on the start line, which no server posts.
    #[error(
        "expected no \"by\" on the start line, as it is written when the log is made, not posted to a table, but found \"by\": {found:?}"
    )]
    AuthorOfStart { found: String },
    /// A `by` that names neither the referee nor a player of the game
    /// (nor, from format [`super::BOT_AUTHORS`] on, a bot or the dealer).
    #[error(
        "expected \"by\" to name the referee{}, but found {found:?}",
        authors(known, *bots)
    )]
    UnknownAuthor {
        found: String,
        known: Vec<String>,
        /// Whether the log's format lets a bot or the dealer post.
        bots: bool,
    },
}

/// The authors a `by` may name, after "the referee".
fn authors(known: &[String], bots: bool) -> String {
    if bots {
        format!(
            ", a player ({}), a bot (bot:greedy, bot:search:64) or the dealer",
            known.join(", ")
        )
    } else {
        format!(" or a player ({})", known.join(", "))
    }
}

fn seq_hint(expected: u64, found: u64) -> String {
    match found {
        f if f.checked_add(1) == Some(expected) => " again (a duplicate)".to_owned(),
        f if f > expected.saturating_add(1) => {
            format!(" (seq {expected} to {} are missing)", f - 1)
        }
        f if f > expected => format!(" (seq {expected} is missing)"),
        _ => " (out of order)".to_owned(),
    }
}

fn at_path(path: &str) -> String {
    if path.is_empty() || path == "." {
        String::new()
    } else {
        format!("{path}: ")
    }
}

/// Anything that stops a replay, from the layer that found it.
pub enum ReplayError<G: Game> {
    Decode(DecodeError),
    Setup(G::SetupError),
    Rule(G::RuleError),
    Meta(MetaError),
}

impl<G: Game> ReplayError<G> {
    /// The rule error, if the event was well-formed but illegal.
    pub fn rule(&self) -> Option<&G::RuleError> {
        match self {
            ReplayError::Rule(e) => Some(e),
            _ => None,
        }
    }
}

impl<G: Game> fmt::Display for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Decode(e) => e.fmt(f),
            ReplayError::Setup(e) => e.fmt(f),
            ReplayError::Rule(e) => e.fmt(f),
            ReplayError::Meta(e) => e.fmt(f),
        }
    }
}

impl<G: Game> fmt::Debug for ReplayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Decode(e) => f.debug_tuple("Decode").field(e).finish(),
            ReplayError::Setup(e) => f.debug_tuple("Setup").field(&e.to_string()).finish(),
            ReplayError::Rule(e) => f.debug_tuple("Rule").field(&e.to_string()).finish(),
            ReplayError::Meta(e) => f.debug_tuple("Meta").field(e).finish(),
        }
    }
}

impl<G: Game> std::error::Error for ReplayError<G> {}

/// A replay error of game `G`, located in the log.
pub type LogError<G> = Located<ReplayError<G>>;

/// An error with where it happened: the line, and the event's seq and type
/// when they could be read. Displays as `17: event 16 (placed): reason`, so
/// that the CLI only has to put the file name in front.
#[derive(Debug)]
pub struct Located<E> {
    pub line: usize,
    pub seq: Option<u64>,
    pub kind: Option<String>,
    pub error: E,
}

impl<E> Located<E> {
    pub fn map<F>(self, f: impl FnOnce(E) -> F) -> Located<F> {
        Located {
            line: self.line,
            seq: self.seq,
            kind: self.kind,
            error: f(self.error),
        }
    }
}

impl<E: fmt::Display> fmt::Display for Located<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.line)?;
        match (self.seq, &self.kind) {
            (Some(seq), Some(kind)) => write!(f, "event {seq} ({kind}): ")?,
            (Some(seq), None) => write!(f, "event {seq}: ")?,
            (None, Some(kind)) => write!(f, "{kind} event: ")?,
            (None, None) => {}
        }
        self.error.fmt(f)
    }
}

impl<E: fmt::Display + fmt::Debug> std::error::Error for Located<E> {}
