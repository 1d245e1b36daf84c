//! Writing events as log lines.

use super::envelope::Envelope;
use serde::Serialize;

/// One complete log line, newline included.
pub fn to_line<E: Serialize>(envelope: &Envelope<E>) -> String {
    let mut line = serde_json::to_string(envelope).expect("events always serialize");
    line.push('\n');
    line
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
            event: event.clone(),
        });
        prev = Some(super::reader::line_hash(line.trim_end().as_bytes()));
        text.push_str(&line);
    }
    text
}
