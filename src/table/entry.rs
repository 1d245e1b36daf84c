//! A raw JSON entry, as `sunfold append` and the server take it, completed
//! with the `seq`, `at` and `prev` that the log's next line needs.

use crate::kit::game::Game;

/// Why a raw entry is not one the log can take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// Nothing of it reads as a JSON object or array.
    #[error(
        "the entry to append: expected a JSON object, but found text that is not JSON: {text:?}"
    )]
    NotJson { text: String },
    /// It starts like JSON but does not parse.
    #[error("the entry to append: expected a JSON object, but found malformed JSON ({reason})")]
    Malformed { reason: String },
    /// It is JSON, but not an object: `found` is "an array", "a string"…
    #[error("the entry to append: expected a JSON object, but found {found}")]
    NotAnObject { found: &'static str },
    /// It gives its own `at` where the table's clock writes the time (the
    /// server's): `found` is the value given, as JSON.
    #[error(
        "the entry to append: expected no \"at\", as the server writes the time of every entry from its own clock, but found \"at\": {found}"
    )]
    AtGiven { found: String },
    /// It says who posted it, which the server writes from the link it
    /// came with: `found` is the value given, as JSON.
    #[error(
        "the entry to append: expected no \"by\", as the server writes who posted every entry from the link it came with, but found \"by\": {found}"
    )]
    ByGiven { found: String },
    /// It gives its own `prev`, which the server fills with the hash of
    /// the log's last line: `found` is the value given, as JSON.
    #[error(
        "the entry to append: expected no \"prev\", as the server fills it with the hash of the log's last line, but found \"prev\": {found}"
    )]
    PrevGiven { found: String },
}

/// The log line for the raw entry `json` in a log of game `G`: its own
/// `seq`, `at` and `prev` where it gives them, otherwise `seq` (the next
/// sequence number), `now` and `prev` (the hash of the line before). The
/// line ends with a newline, and is spelled as the recorder's verbs spell
/// the same entry ([`crate::log::to_line`]).
pub fn line<G: Game>(
    json: &str,
    seq: u64,
    prev: Option<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
) -> Result<String, EntryError> {
    Ok(respelled::<G>(complete(object(json)?, seq, prev, now)))
}

/// The log line for the raw entry `json` posted to the table server, which
/// owns the clock, the log and the link: as [`line`], but an entry that
/// gives its own `at`, `by` or `prev` is refused, `at` is always `now`,
/// `prev` the hash of the log's last line, and `by` is who posted it
/// ([`crate::log::REFEREE`] or a player's name), where the log's format
/// has authors.
pub fn served_line<G: Game>(
    json: &str,
    seq: u64,
    prev: Option<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
    by: Option<&str>,
) -> Result<String, EntryError> {
    let mut given = object(json)?;
    if let Some(at) = given.get("at") {
        return Err(EntryError::AtGiven {
            found: at.to_string(),
        });
    }
    if let Some(by) = given.get("by") {
        return Err(EntryError::ByGiven {
            found: by.to_string(),
        });
    }
    if let Some(prev) = given.get("prev") {
        return Err(EntryError::PrevGiven {
            found: prev.to_string(),
        });
    }
    if let Some(by) = by {
        given.insert("by".into(), by.into());
    }
    Ok(respelled::<G>(complete(given, seq, prev, now)))
}

/// `line` written again by [`crate::log::entry_line`], when it decodes as
/// an entry of game `G`: the one spelling of every log line. A line that
/// does not decode is kept as given, for the log's fold to refuse it with
/// the reason.
fn respelled<G: Game>(line: String) -> String {
    let candidate = crate::log::Line {
        number: 1,
        bytes: line.trim_end().as_bytes(),
        terminated: true,
    };
    match crate::log::decode::<G>(&candidate) {
        Ok(record) => {
            crate::log::entry_line(record.seq, record.at, record.prev, record.by, record.entry)
        }
        Err(_) => line,
    }
}

/// The JSON object of the raw entry `json`.
fn object(json: &str) -> Result<serde_json::Map<String, serde_json::Value>, EntryError> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        let start = json.trim_start().chars().next();
        if !matches!(start, Some('{' | '[' | '"')) {
            EntryError::NotJson {
                text: json.to_owned(),
            }
        } else {
            EntryError::Malformed {
                reason: crate::kit::json_error::describe(&e),
            }
        }
    })?;
    let found = match &value {
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Null => "null",
        serde_json::Value::Object(_) => "an object",
    };
    match value {
        serde_json::Value::Object(given) => Ok(given),
        _ => Err(EntryError::NotAnObject { found }),
    }
}

/// The line for the entry `given`, with `seq`, `at` and `prev` where it
/// does not give them.
fn complete(
    given: serde_json::Map<String, serde_json::Value>,
    seq: u64,
    prev: Option<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
) -> String {
    let mut object = serde_json::Map::new();
    object.insert(
        "seq".into(),
        given.get("seq").cloned().unwrap_or(seq.into()),
    );
    object.insert(
        "at".into(),
        given.get("at").cloned().unwrap_or(now.to_rfc3339().into()),
    );
    if let Some(prev) = given.get("prev").cloned().or(prev.map(Into::into)) {
        object.insert("prev".into(), prev);
    }
    for (key, value) in given {
        object.entry(key).or_insert(value);
    }
    let mut line = serde_json::Value::Object(object).to_string();
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soleils::Soleils;

    fn now() -> chrono::DateTime<chrono::FixedOffset> {
        chrono::DateTime::parse_from_rfc3339("2026-07-01T12:00:00+02:00").unwrap()
    }

    #[test]
    fn given_a_bare_event_when_completed_then_seq_at_and_prev_are_filled_in() {
        let line = line::<Soleils>(
            r#"{"type":"rolled","dice":[1,2,3]}"#,
            4,
            Some("ab".into()),
            now(),
        );
        // Spelled as every log line is: seq, at, prev, then the event.
        assert_eq!(
            line.unwrap(),
            "{\"seq\":4,\"at\":\"2026-07-01T12:00:00+02:00\",\"prev\":\"ab\",\"type\":\"rolled\",\"dice\":[1,2,3]}\n"
        );
    }

    #[test]
    fn given_an_at_when_served_then_it_is_refused_and_otherwise_the_clocks() {
        let refused = served_line::<Soleils>(
            r#"{"type":"rolled","dice":[1,2,3],"at":"1999-01-01T00:00:00Z"}"#,
            4,
            None,
            now(),
            Some("referee"),
        );
        assert_eq!(
            refused,
            Err(EntryError::AtGiven {
                found: "\"1999-01-01T00:00:00Z\"".to_owned()
            })
        );
        let served = served_line::<Soleils>(
            r#"{"type":"rolled","dice":[1,2,3]}"#,
            4,
            None,
            now(),
            Some("referee"),
        );
        assert_eq!(
            served,
            line::<Soleils>(
                r#"{"type":"rolled","dice":[1,2,3],"by":"referee"}"#,
                4,
                None,
                now()
            )
        );
        // Nor does it take who posted it from the entry.
        let refused = served_line::<Soleils>(r#"{"by":"Ann"}"#, 4, None, now(), Some("Bob"));
        assert_eq!(
            refused,
            Err(EntryError::ByGiven {
                found: "\"Ann\"".to_owned()
            })
        );
        // The command line's append keeps a given time.
        let kept = line::<Soleils>(r#"{"at":"1999-01-01T00:00:00Z"}"#, 4, None, now()).unwrap();
        assert!(kept.contains("1999-01-01T00:00:00Z"), "{kept}");
    }

    #[test]
    fn given_what_is_not_an_object_then_each_is_named() {
        let text = |json: &str| {
            line::<Soleils>(json, 1, None, now())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            text("place Ann"),
            "the entry to append: expected a JSON object, but found text that is not JSON: \"place Ann\""
        );
        assert_eq!(
            text("[1,2]"),
            "the entry to append: expected a JSON object, but found an array"
        );
        assert!(text("{\"type\":").starts_with(
            "the entry to append: expected a JSON object, but found malformed JSON ("
        ));
    }
}
