//! Writing events as log lines.

use super::envelope::Envelope;
use super::reader::Entry;
use chrono::{DateTime, FixedOffset};
use serde::Serialize;

/// One complete log line, newline included: `seq`, `at`, `prev`, then the
/// event's fields, `type` first, and `at` in RFC 3339 with `Z` for UTC.
/// Every writer of a log line writes it through here, so that one entry has
/// one spelling whichever command or server wrote it.
pub fn to_line<E: Serialize>(envelope: &Envelope<E>) -> String {
    let mut line = serde_json::to_string(envelope).expect("events always serialize");
    line.push('\n');
    line
}

/// The line of a game event or of a meta entry: [`to_line`].
pub fn entry_line<E: Serialize>(
    seq: u64,
    at: Option<DateTime<FixedOffset>>,
    prev: Option<String>,
    by: Option<String>,
    entry: Entry<E>,
) -> String {
    match entry {
        Entry::Game(event) => to_line(&Envelope {
            seq,
            at,
            prev,
            by,
            event,
        }),
        Entry::Meta(event) => to_line(&Envelope {
            seq,
            at,
            prev,
            by,
            event,
        }),
    }
}

/// Events as a whole chained log: `seq` from 0, each line after the first
/// with `prev`, and no `at`, so that the same events give the same bytes.
pub fn chained_log<E: Serialize + Clone>(events: &[E]) -> String {
    let mut text = String::new();
    let mut prev: Option<String> = None;
    for (seq, event) in events.iter().enumerate() {
        let line = to_line(&Envelope {
            seq: seq as u64,
            at: None,
            prev: prev.take(),
            by: None,
            event: event.clone(),
        });
        prev = Some(super::reader::line_hash(line.trim_end().as_bytes()));
        text.push_str(&line);
    }
    text
}
