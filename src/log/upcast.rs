//! Upcasting: a start line of an older log format, as JSON, rewritten into
//! the current format before typed decoding, as event stores such as
//! cqrs-es do. Each step is a pure function from one format's line to the
//! next's, so that a release writes one step and the steps chain (1→2,
//! 2→3). The typed events only ever know the current format.
//!
//! Between formats 1 and 2 only the start event changed, and only for 62
//! Soleils: its `options` gained `sailboats` and `solo`. A format-1 log
//! meant the English sailboats (`symbol`) and, with exactly one player, the
//! solo rule that sunfold then applied to every one-player game; the step
//! writes exactly that. A Summertime start line only gets its new `format`.
//!
//! The step edits the JSON text rather than rebuilding it: it replaces the
//! `format` number and appends the two option fields inside `options`,
//! keeping every other byte. So the decoder meets the fields in the order
//! they were written and names the same first problem of a broken line as
//! before (a `serde_json::Value` would sort the keys). The hash chain is not
//! affected: it hashes the line as read, never its upcast form.

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::fmt;

/// The fields of a 62 Soleils `options` object in log format 1.
pub const V1_OPTIONS: &[&str] = &["sun_bonus", "skip_placement"];

/// Why a line that says it is format 1 has no format-2 form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpcastError {
    /// Its `options` has a field that format 1 did not have, such as
    /// `sailboats`: format 1 never meant anything by it, so it is refused
    /// as format 1 always refused it.
    UnknownOption { field: String },
}

/// The format-2 form of a format-1 start line.
///
/// `line` is the whole line, envelope included. What is not a JSON object
/// comes back unchanged, for the decoder to report; so does a field of the
/// wrong shape (a `players` that is not a list, an `options` that is not an
/// object), which the decoder refuses with the same message as before.
pub fn v1_to_v2(line: &str) -> Result<String, UpcastError> {
    let Ok(fields) = serde_json::from_str::<HashMap<String, &RawValue>>(line) else {
        return Ok(line.to_owned());
    };
    let at = |raw: &RawValue| raw.get().as_ptr() as usize - line.as_ptr() as usize;
    // (start, end, replacement), applied from the end of the line.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    if let Some(format) = fields.get("format") {
        let start = at(format);
        edits.push((start, start + format.get().len(), "2".to_owned()));
    }
    let game = fields
        .get("game")
        .and_then(|g| serde_json::from_str::<String>(g.get()).ok());
    if game.as_deref() == Some("soleils")
        && let Some(options) = fields.get("options")
        && let Ok(Keys(keys)) = serde_json::from_str::<Keys>(options.get())
    {
        if let Some(field) = keys.iter().find(|k| !V1_OPTIONS.contains(&k.as_str())) {
            let field = field.clone();
            return Err(UpcastError::UnknownOption { field });
        }
        let players = fields
            .get("players")
            .and_then(|p| serde_json::from_str::<Vec<IgnoredAny>>(p.get()).ok())
            .map(|p| p.len());
        let solo = players == Some(1);
        let comma = if keys.is_empty() { "" } else { "," };
        // The object's text ends with its closing brace.
        let end = at(options) + options.get().len() - 1;
        let added = format!(r#"{comma}"sailboats":"symbol","solo":{solo}"#);
        edits.push((end, end, added));
    }
    edits.sort_by_key(|&(start, _, _)| std::cmp::Reverse(start));
    let mut out = line.to_owned();
    for (start, end, text) in edits {
        out.replace_range(start..end, &text);
    }
    Ok(out)
}

/// The keys of a JSON object, in the order written.
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeysVisitor;
        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = Keys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        deserializer.deserialize_map(KeysVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = r#"{"format":1,"game":"soleils"}"#;

    fn start(format: u32, players: &str, options: &str) -> String {
        format!(
            r#"{{"seq":0,"type":"started","format":{format},"game":"soleils","players":{players},"options":{options},"template":{TEMPLATE}}}"#
        )
    }

    #[test]
    fn a_format_1_start_gets_symbol_sailboats_and_no_solo() {
        let v1 = start(
            1,
            r#"["Ann","Bob"]"#,
            r#"{"sun_bonus":"exact","skip_placement":"voluntary"}"#,
        );
        let v2 = start(
            2,
            r#"["Ann","Bob"]"#,
            r#"{"sun_bonus":"exact","skip_placement":"voluntary","sailboats":"symbol","solo":false}"#,
        );
        assert_eq!(v1_to_v2(&v1).unwrap(), v2);
    }

    #[test]
    fn a_format_1_start_of_one_player_is_solo() {
        let v1 = start(
            1,
            r#"["Ann"]"#,
            r#"{ "sun_bonus": "exact", "skip_placement": "voluntary" }"#,
        );
        let v2 = start(
            2,
            r#"["Ann"]"#,
            r#"{ "sun_bonus": "exact", "skip_placement": "voluntary" ,"sailboats":"symbol","solo":true}"#,
        );
        assert_eq!(v1_to_v2(&v1).unwrap(), v2);
    }

    #[test]
    fn only_the_format_and_options_change() {
        let v1 = r#"{"type":"started","seq":0,"at":"2026-07-14T15:00:00+02:00","format":1,"game":"summertime","players":["A","B"]}"#;
        let v2 = r#"{"type":"started","seq":0,"at":"2026-07-14T15:00:00+02:00","format":2,"game":"summertime","players":["A","B"]}"#;
        assert_eq!(v1_to_v2(v1).unwrap(), v2);
        let empty = start(1, "[]", "{}");
        let expected = start(2, "[]", r#"{"sailboats":"symbol","solo":false}"#);
        assert_eq!(v1_to_v2(&empty).unwrap(), expected);
    }

    #[test]
    fn a_field_of_format_2_is_not_format_1() {
        let v1 = start(
            1,
            r#"["Ann"]"#,
            r#"{"sun_bonus":"exact","sailboats":"different"}"#,
        );
        let field = "sailboats".to_owned();
        assert_eq!(v1_to_v2(&v1), Err(UpcastError::UnknownOption { field }));
    }

    #[test]
    fn what_is_not_an_object_is_left_to_the_decoder() {
        for line in [
            "[1]",
            "{\"seq\":",
            "{}",
            r#"{"game":"soleils","options":"x"}"#,
        ] {
            assert_eq!(v1_to_v2(line).unwrap(), line);
        }
    }
}
