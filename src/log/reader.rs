//! The streaming reader: lines with their numbers, decoded into envelopes and
//! folded through a game's reducer. Errors leave here with their line, seq
//! and type; the reducer below knows none of these.

use super::envelope::{Envelope, Head, META_KINDS, Meta};
use super::error::{DecodeError, Located};
use super::fast;
use crate::kit::game::{EventKind, Game};
use chrono::{DateTime, FixedOffset};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
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
/// Soleils options `sailboats` and `solo`. Version 3 changed rules, not
/// fields: a game's end is final ([`super::ENDS_KEPT`]), and a physical
/// Summertime game keeps an unseen card for every declared back. Version
/// 4 added the optional `by` of an entry, who posted it to the table's
/// server ([`super::AUTHORS`]). Version 5 lets `by` name a bot or the
/// dealer ([`super::BOT_AUTHORS`]).
pub const LOG_FORMAT: u32 = 5;

/// Every log format version this release reads: a start line of format 1
/// is upcast to format 2 before decoding (see [`super::upcast`]); formats
/// 2 to 5 have the same fields but `by`, which a log of format 4 or 5 may
/// hold, and a log keeps the rules of the format its start line names.
pub const READ_FORMATS: &[u32] = &[1, 2, 3, 4, 5];

fn located<E>(line: &Line, head: Option<&Head>, error: E) -> Located<E> {
    Located {
        line: line.number,
        seq: head.and_then(Head::seq),
        kind: head.and_then(|h| h.kind().map(str::to_owned)),
        error,
    }
}

/// Whether `bytes`, a last line that no newline ends, are a write cut
/// short: anything but one complete JSON value. A line cut inside a
/// multi-byte character, or a tail of NUL bytes, is torn like a line cut
/// between two fields. [`super::repair`] removes exactly these.
pub(super) fn torn(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_err()
}

/// The line as text, or why it cannot be an event at all.
fn text<'a>(line: &Line<'a>) -> Result<&'a str, Located<DecodeError>> {
    if !line.terminated && torn(line.bytes) {
        let bytes = line.bytes.len();
        return Err(located(line, None, DecodeError::TornLine { bytes }));
    }
    if line.bytes.starts_with(BYTE_ORDER_MARK) {
        return Err(located(line, None, DecodeError::ByteOrderMark));
    }
    let text = std::str::from_utf8(line.bytes).map_err(|e| {
        let column = e.valid_up_to() + 1;
        located(line, None, DecodeError::NotUtf8 { column })
    })?;
    if text.trim().is_empty() {
        return Err(located(line, None, DecodeError::BlankLine));
    }
    Ok(text)
}

use crate::kit::json_error::{BYTE_ORDER_MARK, describe as detail, not_json};

/// A JSON syntax error, or a line that is not JSON at all. (A torn last
/// line is named by [`text`] before.)
fn syntax(line: &Line, text: &str, error: &serde_json::Error) -> Located<DecodeError> {
    let error = if let Some(found) = not_json(text) {
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
    /// Who posted the entry to the table's server, if the server did.
    pub by: Option<String>,
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
pub(super) fn hex_hash(bytes: &[u8]) -> [u8; 64] {
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
pub(super) struct Decoded<'a, E> {
    pub seq: u64,
    pub prev: Option<Cow<'a, str>>,
    pub by: Option<String>,
    pub entry: Entry<E>,
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
            by: None,
            entry: Entry::Game(fast.event),
        });
    }
    decode_current::<G>(line)
}

/// Decodes one line for the fold, which needs neither `at` (only checked)
/// nor an owned `prev`.
pub(super) fn decode_borrowed<'a, G: Game>(
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
            by: record.by,
            entry: record.entry,
        });
    }
    if let Some(fast) = fast::decode::<G>(line.bytes) {
        return Ok(Decoded {
            seq: fast.seq,
            prev: fast.prev.map(Cow::Borrowed),
            by: None,
            entry: Entry::Game(fast.event),
        });
    }
    let record = decode_current::<G>(line)?;
    Ok(Decoded {
        seq: record.seq,
        prev: record.prev.map(Cow::Owned),
        by: record.by,
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
                by: e.by,
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
                    by: e.by,
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
    let (path, depth) = crate::kit::json_error::error_path(&track.path(), &error);
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
        Some("created") => return fail(DecodeError::EventLog),
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

/// Decodes one line of a JSON-lines log of other entries than a game's
/// (an event of many tables, say) into its envelope, with the same checks
/// and messages as a game's line: the text, the JSON, a missing `type` or
/// `seq`, and the JSON path of a field that does not fit. Each line must
/// carry `prev`, the hash of the line before it, from line 2 on: `last`
/// is that line's bytes.
pub fn decode_entry<E: serde::de::DeserializeOwned>(
    line: &Line,
    expected_seq: u64,
    last: Option<&[u8]>,
) -> Result<Envelope<E>, Located<DecodeError>> {
    let text = text(line)?;
    let error = match serde_json::from_str::<Envelope<E>>(text) {
        Ok(envelope) => {
            let head = Head {
                seq: Some(envelope.seq.into()),
                ..Head::default()
            };
            let fail = |error| Err(located(line, Some(&head), error));
            if envelope.by.is_some() {
                return fail(DecodeError::Schema {
                    path: String::new(),
                    detail: "expected no \"by\", which names who posted an entry to a table, but found one".to_owned(),
                });
            }
            if envelope.seq != expected_seq {
                let found = envelope.seq;
                return fail(DecodeError::Seq {
                    expected: expected_seq,
                    found,
                });
            }
            return match (last, &envelope.prev) {
                (None, _) => Ok(envelope),
                (Some(_), None) => fail(DecodeError::ChainMissing),
                (Some(last), Some(prev)) if prev.as_bytes() != hex_hash(last) => {
                    fail(DecodeError::ChainBroken {
                        line: line.number - 1,
                    })
                }
                (Some(_), Some(_)) => Ok(envelope),
            };
        }
        Err(e) if e.is_syntax() || e.is_eof() => return Err(syntax(line, text, &e)),
        Err(e) => e,
    };
    let head = head(line, text)?;
    let fail = |error| Err(located(line, Some(&head), error));
    if head.kind.is_none() {
        let found = "no \"type\" field".to_owned();
        return fail(DecodeError::NoType { found });
    }
    if head.seq().is_none() {
        let found = head.seq.as_ref().map_or("none".to_owned(), describe);
        return fail(DecodeError::NoSeq { found });
    }
    fail(DecodeError::Schema {
        path: String::new(),
        detail: detail(&error),
    })
}
