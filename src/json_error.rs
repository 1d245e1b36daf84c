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
            ("something new", "something new"),
        ];
        for (serde, ours) in cases {
            assert_eq!(reword(serde), ours);
        }
    }
}
