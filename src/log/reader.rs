//! The streaming reader: lines with their numbers, decoded into envelopes and
//! folded through a game's reducer. Errors leave here with their line, seq
//! and type; the reducer below knows none of these.

use super::envelope::{Envelope, Head, META_KINDS, Meta};
use super::error::MetaError;
use super::error::{DecodeError, Located, LogError, ReplayError};
use super::fast;
use crate::game::{EventKind, Game};
use chrono::{DateTime, FixedOffset};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, BufRead};

/// One line of a log file, without its line ending.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a> {
    /// 1-based line number in the file.
    pub number: usize,
    pub bytes: &'a [u8],
    /// Whether the line ended with a newline. Only the last line may not.
    pub terminated: bool,
}

/// Reads a log line by line, reusing one buffer, so memory stays flat.
pub struct LineReader<R> {
    inner: R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R) -> Self {
        LineReader {
            inner,
            number: 0,
            buf: Vec::with_capacity(256),
        }
    }

    /// The next line, or `None` at the end of the file.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        if self.inner.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.number += 1;
        let terminated = self.buf.last() == Some(&b'\n');
        let mut bytes = &self.buf[..];
        if terminated {
            bytes = &bytes[..bytes.len() - 1];
            if bytes.last() == Some(&b'\r') {
                bytes = &bytes[..bytes.len() - 1];
            }
        }
        Ok(Some(Line {
            number: self.number,
            bytes,
            terminated,
        }))
    }

    /// How many lines have been read.
    pub fn lines_read(&self) -> usize {
        self.number
    }
}

/// The games a log can hold, as named by the start event's `game` field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Soleils,
    Summertime,
}

/// Every value of `game` this release reads.
pub const KNOWN_GAMES: &[&str] = &["soleils", "summertime"];

/// The log format version this release writes. Version 2 added the 62
/// Soleils options `sailboats` and `solo`.
pub const LOG_FORMAT: u32 = 2;

/// Every log format version this release reads: older start lines are
/// upcast to [`LOG_FORMAT`] before decoding (see [`super::upcast`]).
pub const READ_FORMATS: &[u32] = &[1, 2];

fn located<E>(line: &Line, head: Option<&Head>, error: E) -> Located<E> {
    Located {
        line: line.number,
        seq: head.and_then(Head::seq),
        kind: head.and_then(|h| h.kind().map(str::to_owned)),
        error,
    }
}

/// The line as text, or why it cannot be an event at all.
fn text<'a>(line: &Line<'a>) -> Result<&'a str, Located<DecodeError>> {
    if line.bytes.starts_with(BYTE_ORDER_MARK) {
        return Err(located(line, None, DecodeError::ByteOrderMark));
    }
    let text = std::str::from_utf8(line.bytes).map_err(|e| {
        let column = e.valid_up_to() + 1;
        located(line, None, DecodeError::NotUtf8 { column })
    })?;
    if text.trim().is_empty() {
        let error = if line.terminated {
            DecodeError::BlankLine
        } else {
            DecodeError::TornLine {
                bytes: line.bytes.len(),
            }
        };
        return Err(located(line, None, error));
    }
    Ok(text)
}

use crate::json_error::{BYTE_ORDER_MARK, describe as detail, not_json};

/// A JSON syntax error, or a torn last line when the JSON simply stops, or
/// a line that is not JSON at all.
fn syntax(line: &Line, text: &str, error: &serde_json::Error) -> Located<DecodeError> {
    let error = if error.is_eof() && !line.terminated {
        DecodeError::TornLine {
            bytes: line.bytes.len(),
        }
    } else if let Some(found) = not_json(text) {
        DecodeError::NotJson { found }
    } else {
        DecodeError::Json {
            column: error.column(),
            detail: detail(error),
        }
    };
    located(line, None, error)
}

fn head(line: &Line, text: &str) -> Result<Head, Located<DecodeError>> {
    match serde_json::from_str::<Head>(text) {
        Ok(head) => Ok(head),
        Err(e) if e.is_data() => {
            let found = match serde_json::from_str::<serde_json::Value>(text) {
                Ok(serde_json::Value::Array(_)) => "an array",
                Ok(serde_json::Value::String(_)) => "a string",
                Ok(serde_json::Value::Number(_)) => "a number",
                Ok(serde_json::Value::Bool(_)) => "a boolean",
                Ok(serde_json::Value::Null) => "null",
                _ => "something else",
            };
            let found = found.to_owned();
            Err(located(line, None, DecodeError::NoType { found }))
        }
        Err(e) => Err(syntax(line, text, &e)),
    }
}

fn describe(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    }
}

/// One decoded line: the envelope and either a game event or a meta entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<E> {
    pub seq: u64,
    pub at: Option<DateTime<FixedOffset>>,
    pub prev: Option<String>,
    pub entry: Entry<E>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Entry<E> {
    Game(E),
    Meta(Meta),
}

impl<E: EventKind> Entry<E> {
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Game(event) => event.kind(),
            Entry::Meta(Meta::Undone { .. }) => "undone",
            Entry::Meta(Meta::Claimed { .. }) => "claimed",
        }
    }
}

/// The SHA-256 of a line's bytes (without its line ending), in lowercase hex.
pub fn line_hash(bytes: &[u8]) -> String {
    let hex = hex_hash(bytes);
    std::str::from_utf8(&hex).expect("hex digits").to_owned()
}

/// The SHA-256 of a line's bytes in lowercase hex ASCII, without
/// allocating: the fold keeps it to compare the next line's `prev` text.
fn hex_hash(bytes: &[u8]) -> [u8; 64] {
    let digest = Sha256::digest(bytes);
    let mut out = [0; 64];
    for (pair, &b) in out.chunks_exact_mut(2).zip(digest.iter()) {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(b)]);
    }
    out
}

/// The two lowercase hex digits of every byte value.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0; 2]; 256];
    let mut b = 0;
    while b < 256 {
        pairs[b] = [DIGITS[b >> 4], DIGITS[b & 15]];
        b += 1;
    }
    pairs
};

/// A decoded line whose `prev` may still borrow the line.
struct Decoded<'a, E> {
    seq: u64,
    prev: Option<Cow<'a, str>>,
    entry: Entry<E>,
}

/// The line in the current format: a start line of format 1 upcast (see
/// [`super::upcast`]), or `None` for a line to decode as it is. Every
/// decode goes through here first, the fast path as the exact one; the hash
/// chain still hashes the line as read.
pub(super) fn upcast(line: &Line) -> Result<Option<Vec<u8>>, Located<DecodeError>> {
    // Only a start line can be of an older format, and most lines are not.
    const STARTED: &[u8] = b"started";
    if !line.bytes.windows(STARTED.len()).any(|w| w == STARTED) {
        return Ok(None);
    }
    let Ok(text) = std::str::from_utf8(line.bytes) else {
        return Ok(None);
    };
    let Ok(head) = serde_json::from_str::<Head>(text) else {
        return Ok(None);
    };
    let format = head.format.as_ref().and_then(serde_json::Value::as_u64);
    if head.kind() != Some("started") || format != Some(1) {
        return Ok(None);
    }
    match super::upcast::v1_to_v2(text) {
        Ok(upcast) => Ok(Some(upcast.into_bytes())),
        Err(super::upcast::UpcastError::UnknownOption { field }) => {
            // The message format 1 always gave for a field it did not know.
            let error = <serde_json::Error as serde::de::Error>::unknown_field(
                &field,
                super::upcast::V1_OPTIONS,
            );
            let error = DecodeError::Schema {
                path: String::new(),
                detail: detail(&error),
            };
            Err(located(line, Some(&head), error))
        }
    }
}

/// Decodes one line into a record of game `G`.
pub fn decode<G: Game>(line: &Line) -> Result<Record<G::Event>, Located<DecodeError>> {
    let upcast = upcast(line)?;
    let line = &match &upcast {
        Some(bytes) => Line { bytes, ..*line },
        None => *line,
    };
    if let Some(fast) = fast::decode::<G>(line.bytes) {
        let at = fast
            .at
            .map(|text| DateTime::parse_from_rfc3339(text).expect("checked by the fast path"));
        return Ok(Record {
            seq: fast.seq,
            at,
            prev: fast.prev.map(str::to_owned),
            entry: Entry::Game(fast.event),
        });
    }
    decode_current::<G>(line)
}

/// Decodes one line for the fold, which needs neither `at` (only checked)
/// nor an owned `prev`.
fn decode_borrowed<'a, G: Game>(
    line: &Line<'a>,
) -> Result<Decoded<'a, G::Event>, Located<DecodeError>> {
    if let Some(bytes) = upcast(line)? {
        let record = decode::<G>(&Line {
            bytes: &bytes,
            ..*line
        })?;
        return Ok(Decoded {
            seq: record.seq,
            prev: record.prev.map(Cow::Owned),
            entry: record.entry,
        });
    }
    if let Some(fast) = fast::decode::<G>(line.bytes) {
        return Ok(Decoded {
            seq: fast.seq,
            prev: fast.prev.map(Cow::Borrowed),
            entry: Entry::Game(fast.event),
        });
    }
    let record = decode_current::<G>(line)?;
    Ok(Decoded {
        seq: record.seq,
        prev: record.prev.map(Cow::Owned),
        entry: record.entry,
    })
}

/// Decodes one line by the derived envelope, with the exact message of
/// whatever is wrong: the reference that the fast path agrees with.
#[cfg(test)]
pub(super) fn decode_exact<G: Game>(line: &Line) -> Result<Record<G::Event>, Located<DecodeError>> {
    match upcast(line)? {
        Some(bytes) => decode_current::<G>(&Line {
            bytes: &bytes,
            ..*line
        }),
        None => decode_current::<G>(line),
    }
}

/// [`decode_exact`] of a line already in the current format.
fn decode_current<G: Game>(line: &Line) -> Result<Record<G::Event>, Located<DecodeError>> {
    let text = text(line)?;
    let error = match serde_json::from_str::<Envelope<G::Event>>(text) {
        Ok(e) => {
            return Ok(Record {
                seq: e.seq,
                at: e.at,
                prev: e.prev,
                entry: Entry::Game(e.event),
            });
        }
        Err(e) if e.is_syntax() || e.is_eof() => return Err(syntax(line, text, &e)),
        Err(e) => e,
    };
    if let Ok(head) = serde_json::from_str::<Head>(text)
        && head.kind().is_some_and(|k| META_KINDS.contains(&k))
    {
        match serde_json::from_str::<Envelope<Meta>>(text) {
            Ok(e) => {
                return Ok(Record {
                    seq: e.seq,
                    at: e.at,
                    prev: e.prev,
                    entry: Entry::Meta(e.event),
                });
            }
            Err(e) => {
                let detail = detail(&e);
                let error = DecodeError::Schema {
                    path: String::new(),
                    detail,
                };
                return Err(located(line, Some(&head), error));
            }
        }
    }
    // Well-formed JSON that is not an event: find out what is wrong, and
    // keep the seq and type for the message when they are readable.
    let head = head(line, text)?;
    let fail = |error| Err(located(line, Some(&head), error));
    let Some(kind) = head.kind.as_ref() else {
        let found = "no \"type\" field".to_owned();
        return fail(DecodeError::NoType { found });
    };
    match kind.as_str() {
        Some(kind) if G::EVENT_KINDS.contains(&kind) => {}
        Some(kind) => {
            return fail(DecodeError::UnknownType {
                game: G::NAME,
                found: kind.to_owned(),
                known: G::EVENT_KINDS.iter().chain(META_KINDS).copied().collect(),
            });
        }
        None => {
            let found = describe(kind);
            return fail(DecodeError::NoType { found });
        }
    }
    if head.seq().is_none() {
        let found = match &head.seq {
            None => "none".to_owned(),
            Some(seq) => describe(seq),
        };
        return fail(DecodeError::NoSeq { found });
    }
    if let Some((path, error)) = embedded::<G>(text, &head) {
        let detail = detail(&error);
        return fail(DecodeError::Schema { path, detail });
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let path = match serde_path_to_error::deserialize::<_, Envelope<G::Event>>(&mut deserializer) {
        Err(e) => e.path().to_string(),
        Ok(_) => String::new(),
    };
    let path = if path == "?" { String::new() } else { path };
    fail(DecodeError::Schema {
        path,
        detail: detail(&error),
    })
}

/// An error inside a document embedded in a start event (its template or
/// deck), with its path from the event: `template.zones[2].flag`. The
/// derived envelope buffers the event for its `type` tag and loses the path
/// there, so the event's own fields are decoded again without the envelope.
fn embedded<G: Game>(text: &str, head: &Head) -> Option<(String, serde_json::Error)> {
    let kind = head.kind().filter(|&k| k == "started")?;
    let serde_json::Value::Object(mut fields) = serde_json::from_str(text).ok()? else {
        return None;
    };
    for envelope in ["seq", "at", "prev", "type"] {
        fields.remove(envelope);
    }
    let mut track = serde_path_to_error::Track::new();
    let fields =
        serde_path_to_error::Deserializer::new(serde_json::Value::Object(fields), &mut track);
    let error = G::decode_fields(kind, fields).err()?;
    let (path, depth) = crate::json_error::error_path(&track.path(), &error);
    // A field of the event itself is named by the message already.
    (depth >= 2).then_some((path, error))
}

/// Reads the first line far enough to know which game the log holds.
pub fn detect(line: &Line) -> Result<GameKind, Located<DecodeError>> {
    let text = text(line)?;
    let head = head(line, text)?;
    let fail = |error| Err(located(line, Some(&head), error));
    match head.kind() {
        Some("started") => {}
        Some(other) => {
            let found = other.to_owned();
            return fail(DecodeError::StartNotFirst { found });
        }
        None => {
            let found = head
                .kind
                .as_ref()
                .map_or("no \"type\" field".into(), describe);
            return fail(DecodeError::NoType { found });
        }
    }
    match &head.format {
        Some(v)
            if v.as_u64()
                .is_some_and(|v| READ_FORMATS.iter().any(|&f| u64::from(f) == v)) => {}
        other => {
            let found = other.as_ref().map_or("none".into(), describe);
            let supported = READ_FORMATS;
            return fail(DecodeError::UnsupportedFormat { supported, found });
        }
    }
    match head.game.as_ref().and_then(|g| g.as_str()) {
        Some("soleils") => Ok(GameKind::Soleils),
        Some("summertime") => Ok(GameKind::Summertime),
        _ => {
            let found = head.game.as_ref().map_or("none".into(), describe);
            let known = KNOWN_GAMES;
            fail(DecodeError::UnknownGame { found, known })
        }
    }
}

/// A decision taken back by an `undone` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct TakenBack<E> {
    /// The seq of the decision taken back.
    pub seq: u64,
    pub event: E,
    /// The seq of the `undone` entry.
    pub by: u64,
}

/// Folds a log through game `G`: the state after every accepted line, with
/// the hash chain checked and undo handled.
///
/// On error the state is the one before the failing line, so that a caller
/// can list the legal alternatives.
pub struct Fold<G: Game> {
    state: G::State,
    next_seq: u64,
    rejected: Option<G::Event>,
    /// The SHA-256 of the last folded line, in lowercase hex ASCII.
    last_hash: [u8; 64],
    /// Decided by line 2: whether the log carries a hash chain.
    chained: Option<bool>,
    /// The state after the last roll or reveal, and the decisions since.
    checkpoint: G::State,
    since: Vec<(u64, G::Event)>,
    taken_back: Vec<TakenBack<G::Event>>,
    claims: Vec<(u64, BTreeMap<String, i64>)>,
}

impl<G: Game> Fold<G>
where
    G::Event: DeserializeOwned,
{
    /// Starts a fold from the first line, which must be the start event.
    pub fn start(line: &Line) -> Result<(Self, Record<G::Event>), LogError<G>> {
        let record = decode::<G>(line).map_err(|e| e.map(ReplayError::Decode))?;
        let at = |error| Located {
            line: line.number,
            seq: Some(record.seq),
            kind: Some(record.entry.kind().to_owned()),
            error,
        };
        let start = match &record.entry {
            Entry::Game(event) => G::as_start(event),
            Entry::Meta(_) => None,
        };
        let Some(start) = start else {
            let found = record.entry.kind().to_owned();
            return Err(at(ReplayError::Decode(DecodeError::StartNotFirst {
                found,
            })));
        };
        if record.seq != 0 {
            let error = DecodeError::Seq {
                expected: 0,
                found: record.seq,
            };
            return Err(at(ReplayError::Decode(error)));
        }
        if record.prev.is_some() {
            return Err(at(ReplayError::Decode(DecodeError::ChainUnexpected)));
        }
        let state = G::setup(start).map_err(|e| at(ReplayError::Setup(e)))?;
        let fold = Fold {
            checkpoint: state.clone(),
            state,
            next_seq: 1,
            rejected: None,
            last_hash: hex_hash(line.bytes),
            chained: None,
            since: Vec::new(),
            taken_back: Vec::new(),
            claims: Vec::new(),
        };
        Ok((fold, record))
    }

    /// Folds one more line and returns its seq.
    pub fn feed(&mut self, line: &Line) -> Result<u64, LogError<G>> {
        self.fold_line(line, false).map(|(seq, _)| seq)
    }

    /// Folds one more line and returns its seq and, for a game event, a copy
    /// of the event: for a caller that keeps the decisions, without decoding
    /// the line a second time.
    pub fn feed_event(&mut self, line: &Line) -> Result<(u64, Option<G::Event>), LogError<G>> {
        self.fold_line(line, true)
    }

    fn fold_line(
        &mut self,
        line: &Line,
        keep: bool,
    ) -> Result<(u64, Option<G::Event>), LogError<G>> {
        let record = decode_borrowed::<G>(line).map_err(|e| e.map(ReplayError::Decode))?;
        let seq = record.seq;
        let kind = record.entry.kind();
        let at = |error| Located {
            line: line.number,
            seq: Some(seq),
            kind: Some(kind.to_owned()),
            error,
        };
        if seq != self.next_seq {
            let error = DecodeError::Seq {
                expected: self.next_seq,
                found: seq,
            };
            return Err(at(ReplayError::Decode(error)));
        }
        let mut kept = None;
        let chained = *self.chained.get_or_insert(record.prev.is_some());
        match (&record.prev, chained) {
            (None, true) => return Err(at(ReplayError::Decode(DecodeError::ChainMissing))),
            (Some(_), false) => return Err(at(ReplayError::Decode(DecodeError::ChainUnexpected))),
            (Some(prev), true) if prev.as_bytes() != self.last_hash => {
                let error = DecodeError::ChainBroken {
                    line: line.number - 1,
                };
                return Err(at(ReplayError::Decode(error)));
            }
            _ => {}
        }
        match record.entry {
            Entry::Game(event) => {
                if keep {
                    kept = Some(event.clone());
                }
                if let Err(e) = G::apply(&mut self.state, &event) {
                    let error = at(ReplayError::Rule(e));
                    self.rejected = Some(event);
                    return Err(error);
                }
                if G::is_barrier(&event) {
                    self.checkpoint = self.state.clone();
                    self.since.clear();
                } else {
                    self.since.push((seq, event));
                }
            }
            Entry::Meta(Meta::Undone { undoes }) => {
                let Some(&(last, _)) = self.since.last() else {
                    let error = MetaError::NothingToUndo {
                        barrier: "roll or reveal",
                    };
                    return Err(at(ReplayError::Meta(error)));
                };
                if undoes != last {
                    let error = MetaError::NotLast {
                        expected: last,
                        found: undoes,
                    };
                    return Err(at(ReplayError::Meta(error)));
                }
                let (undone, event) = self.since.pop().expect("checked above");
                let mut state = self.checkpoint.clone();
                for (_, event) in &self.since {
                    G::apply(&mut state, event).expect("a decision applied before applies again");
                }
                self.state = state;
                self.taken_back.push(TakenBack {
                    seq: undone,
                    event,
                    by: seq,
                });
            }
            Entry::Meta(Meta::Claimed { scores }) => {
                let known = G::player_names(&self.state);
                if let Some(found) = scores.keys().find(|name| !known.contains(name)) {
                    let found = found.clone();
                    let error = MetaError::UnknownClaimant { found, known };
                    return Err(at(ReplayError::Meta(error)));
                }
                self.claims.push((seq, scores));
            }
        }
        self.last_hash = hex_hash(line.bytes);
        self.next_seq += 1;
        Ok((seq, kept))
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    pub fn into_state(self) -> G::State {
        self.state
    }

    /// The event the reducer rejected last, if any: the state is still the
    /// one before it, so that alternatives can be listed.
    pub fn rejected(&self) -> Option<&G::Event> {
        self.rejected.as_ref()
    }

    /// How many lines have been folded, the start event included.
    pub fn events(&self) -> u64 {
        self.next_seq
    }

    /// The hash of the last folded line, for the next line's `prev`.
    pub fn last_hash(&self) -> &str {
        std::str::from_utf8(&self.last_hash).expect("hex digits")
    }

    /// Whether the log carries a hash chain; `None` with only a start line.
    pub fn chained(&self) -> Option<bool> {
        self.chained
    }

    /// The decision an `undone` entry would take back now.
    pub fn undoable(&self) -> Option<(u64, &G::Event)> {
        self.since.last().map(|(seq, event)| (*seq, event))
    }

    pub fn taken_back(&self) -> &[TakenBack<G::Event>] {
        &self.taken_back
    }

    /// The scores claimed on paper, latest last.
    pub fn claims(&self) -> &[(u64, BTreeMap<String, i64>)] {
        &self.claims
    }
}

/// Why a whole log could not be folded.
#[derive(Debug)]
pub enum ReadError<G: Game> {
    Io(io::Error),
    Log(Box<LogError<G>>),
}

/// Folds a whole log of game `G`, stopping after event `stop_after` if given.
/// Convenient for tests and tools that need only the final state.
pub fn fold_log<G: Game, R: BufRead>(
    reader: R,
    stop_after: Option<u64>,
) -> Result<G::State, ReadError<G>> {
    let mut lines = LineReader::new(reader);
    let Some(first) = lines.next_line().map_err(ReadError::Io)? else {
        let error = Located {
            line: 1,
            seq: None,
            kind: None,
            error: ReplayError::Decode(DecodeError::EmptyFile),
        };
        return Err(ReadError::Log(Box::new(error)));
    };
    let (mut fold, _) = Fold::<G>::start(&first).map_err(|e| ReadError::Log(Box::new(e)))?;
    if stop_after == Some(0) {
        return Ok(fold.state);
    }
    while let Some(line) = lines.next_line().map_err(ReadError::Io)? {
        let seq = fold.feed(&line).map_err(|e| ReadError::Log(Box::new(e)))?;
        if stop_after == Some(seq) {
            break;
        }
    }
    Ok(fold.state)
}
