//! The JSON-lines event log shared by both games.
//!
//! Every line is one JSON object: the envelope fields `seq` (consecutive from
//! 0) and optional `at` (RFC 3339), beside the event's own fields and its
//! `type`. The first line is the game's `started` event, which names the game
//! and embeds everything needed to replay it. See `docs/replay-format.md`.
//!
//! Its files: [`envelope`] (a line's fields around its event), [`error`]
//! (`DecodeError`, located errors), [`reader`] (lines with their numbers),
//! [`fast`] (the one-pass decoder into borrowed strings), [`fold`] (the lines
//! through a game's reducer, undo, claims and the end), [`open`] (a log
//! opened and its game learnt), [`steps`] (each line's change with the state
//! before it), [`writer`] (lines and the hash chain), [`recorder`] (appending
//! under a lock), [`repair`] (a torn last line and blank lines at the end
//! removed), [`upcast`] (old formats read as the current one), [`files`]
//! (the logs under folders).

mod envelope;
mod error;
mod fast;
mod files;
mod fold;
mod open;
mod reader;
mod recorder;
mod repair;
mod steps;
pub mod upcast;
mod writer;

pub use envelope::{Envelope, META_KINDS, Meta};
pub use error::{DecodeError, Located, LogError, MetaError, ReplayError};
pub use files::{jsonl_files, shown_name};
pub use fold::{
    AUTHORS, Authored, BOT_AUTHORS, BOT_PREFIX, DEALER, DeadEnd, ENDS_KEPT, Fold, Lenient, REFEREE,
    ReadError, TakenBack, bot_author, fold_log,
};
pub use open::{FoldError, OpenError, Opened, io_reason, open, open_file};
pub use reader::{
    Entry, GameKind, KNOWN_GAMES, LOG_FORMAT, Line, LineReader, READ_FORMATS, Record, decode,
    decode_entry, detect, line_hash,
};
pub use recorder::{AppendError, Appended, CreateError, LockError, Recorder, Session, write_new};
pub use repair::{End, RepairError, Repaired, end, repair};
pub use steps::{Change, Step, StepError, Steps};
pub use writer::{chained_log, entry_line, to_line};
