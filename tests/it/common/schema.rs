//! A JSON value checked against a JSON Schema as schemars writes it,
//! enough for the reports' schemas: where it breaks it, or `None`.

use serde_json::Value;

/// Where `value` breaks `schema` (JSON Schema as schemars writes it:
/// `$ref`, `type`, `enum`, `const`, `oneOf`, `anyOf`, `allOf`,
/// `properties`, `required`, `additionalProperties`, `items`,
/// `prefixItems`, `minimum`), or `None`.
pub fn breaks(root: &Value, schema: &Value, value: &Value, at: &str) -> Option<String> {
    let Some(schema) = schema.as_object() else {
        return (schema == &Value::Bool(false)).then(|| format!("{at}: nothing is allowed"));
    };
    if let Some(name) = schema.get("$ref").and_then(Value::as_str) {
        let def = name.strip_prefix("#/$defs/").expect("a local $ref");
        if let Some(b) = breaks(root, &root["$defs"][def], value, at) {
            return Some(b);
        }
    }
    if let Some(types) = schema.get("type") {
        let fits = |t: &Value| match t.as_str().unwrap() {
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "null" => value.is_null(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            other => panic!("type {other}"),
        };
        let ok = match types {
            Value::Array(list) => list.iter().any(fits),
            t => fits(t),
        };
        if !ok {
            return Some(format!("{at}: expected type {types}, but found {value}"));
        }
    }
    if let Some(list) = schema.get("enum").and_then(Value::as_array)
        && !list.contains(value)
    {
        return Some(format!("{at}: {value} is not one of {list:?}"));
    }
    if let Some(c) = schema.get("const")
        && c != value
    {
        return Some(format!("{at}: expected {c}, but found {value}"));
    }
    let count = |key: &str| {
        schema.get(key).and_then(Value::as_array).map(|list| {
            list.iter()
                .filter(|s| breaks(root, s, value, at).is_none())
                .count()
        })
    };
    if count("oneOf").is_some_and(|n| n != 1) || count("anyOf") == Some(0) {
        return Some(format!(
            "{at}: {value} fits none (or several) of its alternatives"
        ));
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array)
        && let Some(b) = all.iter().find_map(|s| breaks(root, s, value, at))
    {
        return Some(b);
    }
    if let (Some(pattern), Some(text)) = (
        schema.get("pattern").and_then(Value::as_str),
        value.as_str(),
    ) && !matches(pattern, text)
    {
        return Some(format!("{at}: {text:?} does not match {pattern}"));
    }
    if let (Some(min), Some(x)) = (
        schema.get("minimum").and_then(Value::as_f64),
        value.as_f64(),
    ) && x < min
    {
        return Some(format!("{at}: {x} is below {min}"));
    }
    if let Some(object) = value.as_object() {
        let properties = schema.get("properties").and_then(Value::as_object);
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !object.contains_key(key.as_str().unwrap()) {
                return Some(format!("{at}: {key} is missing"));
            }
        }
        for (key, v) in object {
            let here = format!("{at}.{key}");
            let patterned = schema
                .get("patternProperties")
                .and_then(Value::as_object)
                .and_then(|p| p.iter().find(|(pattern, _)| matches(pattern, key)))
                .map(|(_, s)| s);
            match properties.and_then(|p| p.get(key)).or(patterned) {
                Some(s) => {
                    if let Some(b) = breaks(root, s, v, &here) {
                        return Some(b);
                    }
                }
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => return Some(format!("{here} is not allowed")),
                    Some(s) => {
                        if let Some(b) = breaks(root, s, v, &here) {
                            return Some(b);
                        }
                    }
                    None => {}
                },
            }
        }
    }
    if let Some(items) = value.as_array() {
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        for (i, v) in items.iter().enumerate() {
            let s = match prefix.and_then(|p| p.get(i)) {
                Some(s) => s,
                None => match schema.get("items") {
                    Some(s) => s,
                    None => continue,
                },
            };
            if let Some(b) = breaks(root, s, v, &format!("{at}[{i}]")) {
                return Some(b);
            }
        }
    }
    None
}

/// The patterns the schemas use: an integer key, a count's key, an exact
/// sum.
fn matches(pattern: &str, text: &str) -> bool {
    let integer = |t: &str| {
        let digits = t.strip_prefix('-').unwrap_or(t);
        !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
    };
    match pattern {
        "^-?\\d+$" => integer(text),
        "^\\d+$" => integer(text) && !text.starts_with('-'),
        "^-?[0-9]+\\+[0-9]+$" => text
            .split_once('+')
            .is_some_and(|(w, f)| integer(w) && !f.starts_with('-') && integer(f)),
        other => panic!("a pattern this test does not know: {other}"),
    }
}
