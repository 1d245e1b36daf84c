//! A raw JSON entry, as `sunfold append` and the server take it, completed
//! with the `seq`, `at` and `prev` that the log's next line needs.

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
}

/// The log line for the raw entry `json`: its own `seq`, `at` and `prev`
/// where it gives them, otherwise `seq` (the next sequence number), `now`
/// and `prev` (the hash of the line before). The line ends with a newline.
pub fn line(
    json: &str,
    seq: u64,
    prev: Option<String>,
    now: chrono::DateTime<chrono::FixedOffset>,
) -> Result<String, EntryError> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        let start = json.trim_start().chars().next();
        if !matches!(start, Some('{' | '[' | '"')) {
            EntryError::NotJson {
                text: json.to_owned(),
            }
        } else {
            EntryError::Malformed {
                reason: crate::json_error::describe(&e),
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
    let serde_json::Value::Object(given) = value else {
        return Err(EntryError::NotAnObject { found });
    };
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
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> chrono::DateTime<chrono::FixedOffset> {
        chrono::DateTime::parse_from_rfc3339("2026-07-01T12:00:00+02:00").unwrap()
    }

    #[test]
    fn given_a_bare_event_when_completed_then_seq_at_and_prev_are_filled_in() {
        let line = line(
            r#"{"type":"rolled","dice":[1,2,3]}"#,
            4,
            Some("ab".into()),
            now(),
        );
        // The keys come out sorted, as serde_json's map keeps them.
        assert_eq!(
            line.unwrap(),
            "{\"at\":\"2026-07-01T12:00:00+02:00\",\"dice\":[1,2,3],\"prev\":\"ab\",\"seq\":4,\"type\":\"rolled\"}\n"
        );
    }

    #[test]
    fn given_what_is_not_an_object_then_each_is_named() {
        let text = |json: &str| line(json, 1, None, now()).unwrap_err().to_string();
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
