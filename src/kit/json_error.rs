//! serde_json's messages, put in sunfold's "expected X, but found Y" shape.
//! Used at the edges that parse JSON: the log reader and the template loader.

/// The message of a serde_json error without its position suffix, reworded
/// where serde's own shape is known.
pub fn describe(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let message = match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => &message,
    };
    reword(message)
}

/// Where a decode error lies, as `zones[2].flag`, and how many steps deep:
/// the path serde_path_to_error tracked, up to any step it could not follow
/// (inside a buffered, internally tagged value), and for a missing field
/// the field itself.
pub fn error_path(path: &serde_path_to_error::Path, error: &serde_json::Error) -> (String, usize) {
    use serde_path_to_error::Segment;
    let mut text = String::new();
    let mut depth = 0;
    let key = |text: &mut String, key: &str| {
        if !text.is_empty() {
            text.push('.');
        }
        text.push_str(key);
    };
    for segment in path {
        match segment {
            Segment::Seq { index } => text.push_str(&format!("[{index}]")),
            Segment::Map { key: k } | Segment::Enum { variant: k } => key(&mut text, k),
            Segment::Unknown => break,
        }
        depth += 1;
    }
    if let Some(field) = missing_field(error) {
        key(&mut text, &field);
        depth += 1;
    }
    (text, depth)
}

/// The field of serde's `missing field `flag``.
fn missing_field(error: &serde_json::Error) -> Option<String> {
    let message = error.to_string();
    let field = message.strip_prefix("missing field `")?.split('`').next()?;
    Some(field.to_owned())
}

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The beginning of `text` if it cannot be the start of any JSON value
/// (`not json`), to show in the message; `None` if it could be.
pub fn not_json(text: &str) -> Option<String> {
    let text = text.trim_start();
    let json = match text.chars().next() {
        None => true,
        Some('{' | '[' | '"' | '-' | '0'..='9') => true,
        Some(_) => ["true", "false", "null"]
            .iter()
            .any(|word| text.starts_with(word) || word.starts_with(text)),
    };
    if json {
        return None;
    }
    const SHOWN: usize = 30;
    let mut found: String = text.trim_end().chars().take(SHOWN).collect();
    if text.trim_end().chars().count() > SHOWN {
        found.push('…');
    }
    Some(found)
}

/// The values an integer type holds, as `0 to 255`.
fn range(expected: &str) -> Option<String> {
    Some(match expected {
        "u8" => format!("0 to {}", u8::MAX),
        "u16" => format!("0 to {}", u16::MAX),
        "u32" => format!("0 to {}", u32::MAX),
        "u64" | "usize" => format!("0 to {}", u64::MAX),
        "i32" => format!("{} to {}", i32::MIN, i32::MAX),
        "i64" => format!("{} to {}", i64::MIN, i64::MAX),
        _ => return None,
    })
}

/// The number in serde's `integer `-3`` or `floating point `1e20``.
fn number(found: &str) -> Option<&str> {
    let quoted = found
        .strip_prefix("integer ")
        .or_else(|| found.strip_prefix("floating point "))?;
    quoted.strip_prefix('`')?.strip_suffix('`')
}

fn reword(message: &str) -> String {
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("expected a field {field}, but found none");
    }
    if let Some(rest) = message.strip_prefix("unknown field ")
        && let Some((field, expected)) = rest.split_once(", expected ")
    {
        let expected = expected.strip_prefix("one of ").unwrap_or(expected);
        return format!("expected only the fields {expected}, but found {field}");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ")
        && let Some((found, expected)) = rest.split_once(", expected ")
    {
        let expected = expected.strip_prefix("one of ").unwrap_or(expected);
        return format!("expected {expected}, but found {found}");
    }
    for prefix in ["invalid type: ", "invalid value: ", "invalid length "] {
        if let Some(rest) = message.strip_prefix(prefix)
            && let Some((found, expected)) = rest.split_once(", expected ")
        {
            if let Some(range) = range(expected)
                && let Some(number) = number(found)
            {
                return format!("expected a whole number from {range}, but found {number}");
            }
            let expected = match expected {
                "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number",
                other => other,
            };
            return format!("expected {expected}, but found {found}");
        }
    }
    if let Some(what) = message.strip_prefix("EOF while parsing ") {
        return format!("expected the rest of {what}, but the text ends");
    }
    message.to_owned()
}

#[cfg(test)]
mod tests {
    use super::reword;

    #[test]
    fn rewords_serde_messages() {
        let cases = [
            (
                "missing field `box`",
                "expected a field `box`, but found none",
            ),
            (
                "unknown field `colour`, expected one of `id`, `pearl`",
                "expected only the fields `id`, `pearl`, but found `colour`",
            ),
            (
                "invalid type: string \"four\", expected u8",
                "expected a whole number, but found string \"four\"",
            ),
            (
                "unknown variant `pink`, expected `crab` or `frog`",
                "expected `crab` or `frog`, but found `pink`",
            ),
            (
                "EOF while parsing an object",
                "expected the rest of an object, but the text ends",
            ),
            (
                "invalid value: integer `4000000000`, expected u8",
                "expected a whole number from 0 to 255, but found 4000000000",
            ),
            (
                "invalid value: integer `-1`, expected u64",
                "expected a whole number from 0 to 18446744073709551615, but found -1",
            ),
            (
                "invalid type: floating point `1e20`, expected i64",
                "expected a whole number from -9223372036854775808 to 9223372036854775807, but found 1e20",
            ),
            ("something new", "something new"),
        ];
        for (serde, ours) in cases {
            assert_eq!(reword(serde), ours);
        }
    }
}
