//! Writing events as log lines.

use super::envelope::Envelope;
use serde::Serialize;

/// One complete log line, newline included.
pub fn to_line<E: Serialize>(envelope: &Envelope<E>) -> String {
    let mut line = serde_json::to_string(envelope).expect("events always serialize");
    line.push('\n');
    line
}
