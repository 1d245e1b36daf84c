//! The pages' scripts are typed by the schemas: `src/serve/edge/types.js`
//! holds a JSDoc `@typedef` for the JSON each page receives, made here from
//! the code's JSON Schemas (the same as docs/schema/), and every type a
//! script names in its JSDoc is one of those, one of its own, or one of
//! the browser's.

use crate::common;

use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use sunfold::schema::{SchemaKind, schema_text};

/// The answers the pages read, each with the name of its type.
const TYPED: [(SchemaKind, &str); 6] = [
    (SchemaKind::TableView, "TableView"),
    (SchemaKind::TableReview, "TableReview"),
    (SchemaKind::RoomBoard, "RoomBoard"),
    (SchemaKind::StudioStanding, "StudioStanding"),
    (SchemaKind::StudioFigures, "StudioFigures"),
    (SchemaKind::ApiRefusal, "ApiRefusal"),
];

/// The pages' scripts, and the common one they share, each with the
/// types it must name: what its page receives.
const SCRIPTS: [(&str, &[&str]); 8] = [
    ("src/serve/edge/common.js", &[]),
    ("src/serve/page.js", &["TableView"]),
    ("src/serve/review.js", &["TableReview"]),
    ("src/serve/room/page.js", &["RoomBoard"]),
    ("src/studio/page.js", &["StudioStanding", "ApiRefusal"]),
    ("src/studio/parts.js", &[]),
    ("src/studio/changes.js", &[]),
    ("src/studio/figures.js", &["StudioFigures"]),
];

/// The browser's and JavaScript's own types a script may name.
const BUILTIN: [&str; 17] = [
    "Array",
    "Object",
    "Promise",
    "Event",
    "Element",
    "HTMLElement",
    "HTMLButtonElement",
    "HTMLInputElement",
    "Response",
    "RequestInit",
    "RequestCache",
    "Partial",
    "Record",
    "Node",
    "Blob",
    "KeyboardEvent",
    "Pick",
];

const TYPES: &str = "src/serve/edge/types.js";

#[test]
fn the_committed_page_types_match_the_schemas() {
    let made = page_types();
    let path = common::repo().join(TYPES);
    if std::env::var_os("SUNFOLD_WRITE_TYPES").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == made,
        "{TYPES} is stale: write it again with `SUNFOLD_WRITE_TYPES=1 cargo test --test it -- docs::page_types`"
    );
}

#[test]
fn every_type_a_script_names_is_defined() {
    let defined: BTreeSet<String> = typedefs(&page_types());
    for (script, must) in SCRIPTS {
        let text = std::fs::read_to_string(common::repo().join(script)).unwrap();
        let own = typedefs(&text);
        let named = named_types(&text);
        for name in &named {
            assert!(
                defined.contains(name) || own.contains(name) || BUILTIN.contains(&name.as_str()),
                "{script} names the type {name}, which neither {TYPES} nor the script defines"
            );
        }
        for name in must {
            assert!(
                named.contains(*name),
                "{script} reads {name} but never names its type"
            );
        }
    }
}

/// The names of the `@typedef`s of `text`.
fn typedefs(text: &str) -> BTreeSet<String> {
    text.split("@typedef")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.trim_start();
            let rest = if rest.starts_with('{') {
                &rest[braced(rest)?..]
            } else {
                rest
            };
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The types named in the braces of the JSDoc tags of `text`: every
/// identifier there that starts with a capital.
fn named_types(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for tag in ["@type", "@param", "@returns", "@property", "@typedef"] {
        for rest in text.split(tag).skip(1) {
            let rest = rest.trim_start();
            let Some(end) = rest.starts_with('{').then(|| braced(rest)).flatten() else {
                continue;
            };
            let inside = &rest[1..end - 1];
            // Quoted literals ("soleils") are values, not types.
            let mut quoted = false;
            let mut word = String::new();
            for c in inside.chars().chain([' ']) {
                if c == '"' || c == '\'' {
                    quoted = !quoted;
                } else if !quoted && (c.is_alphanumeric() || c == '_') {
                    word.push(c);
                    continue;
                }
                if word.starts_with(|c: char| c.is_ascii_uppercase()) {
                    names.insert(word.clone());
                }
                word.clear();
            }
        }
    }
    names
}

/// Where the braces that open `text` close, just after the last one.
fn braced(text: &str) -> Option<usize> {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The file of types, made from the schemas of [`TYPED`].
fn page_types() -> String {
    let schemas: Vec<(&str, Value)> = TYPED
        .iter()
        .map(|(kind, name)| (*name, serde_json::from_str(&schema_text(*kind)).unwrap()))
        .collect();
    // A definition's name, bare where every schema that has one by that
    // name means the same, else with its schema's name in front.
    let mut meanings: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for (_, schema) in &schemas {
        for (def, body) in defs(schema) {
            meanings.entry(def).or_default().insert(body.to_string());
        }
    }
    let mut out = String::from(
        "// The JSON the servers answer the pages, as JSDoc types for their scripts:\n\
         // made from the code's JSON Schemas (docs/schema/) by\n\
         // tests/it/docs/page_types.rs, which fails when this file is stale.\n\
         // Nothing here runs, and it is never sent to a browser.\n",
    );
    let mut written = BTreeSet::new();
    for (root, schema) in &schemas {
        let naming = |def: &str| {
            if meanings[def].len() == 1 {
                def.to_owned()
            } else {
                format!("{root}{def}")
            }
        };
        let kind = TYPED.iter().find(|(_, n)| n == root).unwrap().0;
        let about = format!(
            "{} (`sunfold schema {}`).",
            text_of(schema.get("description"))
                .unwrap_or_default()
                .trim_end_matches('.'),
            kind.name()
        );
        out += &typedef(root, &about, schema, &naming);
        for (def, body) in defs(schema) {
            let name = naming(def);
            if written.insert(name.clone()) {
                let about = text_of(body.get("description")).unwrap_or_default();
                out += &typedef(&name, &about, body, &naming);
            }
        }
    }
    out
}

fn defs(schema: &Value) -> Vec<(&str, &Value)> {
    schema
        .get("$defs")
        .and_then(Value::as_object)
        .map(|defs| defs.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

/// A description on one line, safe inside a comment.
fn text_of(value: Option<&Value>) -> Option<String> {
    let text = value?.as_str()?;
    Some(
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace("*/", "*\u{2060}/"),
    )
}

/// One `@typedef`: an object's with a `@property` a field, else one line.
fn typedef(name: &str, about: &str, schema: &Value, naming: &dyn Fn(&str) -> String) -> String {
    let mut out = String::from("\n/**\n");
    if !about.is_empty() {
        out += &format!(" * {about}\n");
    }
    match schema.get("properties").and_then(Value::as_object) {
        Some(fields) if schema.get("oneOf").is_none() && schema.get("anyOf").is_none() => {
            out += &format!(" * @typedef {{Object}} {name}\n");
            let required = required(schema);
            for (field, body) in fields {
                let field = if required.contains(field.as_str()) {
                    field.clone()
                } else {
                    format!("[{field}]")
                };
                let about = text_of(body.get("description"))
                    .map(|t| format!(" {t}"))
                    .unwrap_or_default();
                out += &format!(
                    " * @property {{{}}} {field}{about}\n",
                    type_of(body, naming)
                );
            }
        }
        _ => out += &format!(" * @typedef {{{}}} {name}\n", type_of(schema, naming)),
    }
    out + " */\n"
}

fn required(schema: &Value) -> BTreeSet<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The JSDoc type of a schema.
fn type_of(schema: &Value, naming: &dyn Fn(&str) -> String) -> String {
    let Some(schema) = schema.as_object() else {
        // `true`: anything.
        return "unknown".to_owned();
    };
    if let Some(Value::String(reference)) = schema.get("$ref") {
        return naming(reference.trim_start_matches("#/$defs/"));
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return union(values.iter().map(Value::to_string).collect());
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(options)) = schema.get(key) {
            let mut types: Vec<String> = options.iter().map(|o| type_of(o, naming)).collect();
            // Properties beside the options are shared by every one.
            if schema.contains_key("properties") {
                let mut shared = schema.clone();
                shared.remove(key);
                let shared = type_of(&Value::Object(shared), naming);
                types = types
                    .into_iter()
                    .map(|t| format!("{shared} & {t}"))
                    .collect();
            }
            return union(types);
        }
    }
    match schema.get("type") {
        Some(Value::Array(types)) => union(
            types
                .iter()
                .map(|t| {
                    let mut one = schema.clone();
                    one.insert("type".to_owned(), t.clone());
                    type_of(&Value::Object(one), naming)
                })
                .collect(),
        ),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".to_owned(),
            "integer" | "number" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "null" => "null".to_owned(),
            "array" => array(schema, naming),
            "object" => object(schema, naming),
            other => panic!("a schema of type {other}"),
        },
        _ if schema.contains_key("properties") => object(schema, naming),
        _ => "unknown".to_owned(),
    }
}

fn array(schema: &Map<String, Value>, naming: &dyn Fn(&str) -> String) -> String {
    if let Some(Value::Array(items)) = schema.get("prefixItems") {
        let items: Vec<String> = items.iter().map(|i| type_of(i, naming)).collect();
        return format!("[{}]", items.join(", "));
    }
    match schema.get("items") {
        Some(items) => format!("Array<{}>", type_of(items, naming)),
        None => "Array<unknown>".to_owned(),
    }
}

fn object(schema: &Map<String, Value>, naming: &dyn Fn(&str) -> String) -> String {
    if let Some(Value::Object(fields)) = schema.get("properties") {
        let required = required(&Value::Object(schema.clone()))
            .into_iter()
            .map(str::to_owned)
            .collect::<BTreeSet<_>>();
        let fields: Vec<String> = fields
            .iter()
            .map(|(field, body)| {
                let optional = if required.contains(field) { "" } else { "?" };
                format!("{field}{optional}: {}", type_of(body, naming))
            })
            .collect();
        return format!("{{ {} }}", fields.join(", "));
    }
    match schema.get("additionalProperties") {
        Some(values @ Value::Object(_)) => format!("Object<string, {}>", type_of(values, naming)),
        _ => "Object<string, unknown>".to_owned(),
    }
}

fn union(types: Vec<String>) -> String {
    let mut seen = Vec::new();
    for t in types {
        if !seen.contains(&t) {
            seen.push(t);
        }
    }
    if seen.len() == 1 {
        seen.remove(0)
    } else {
        format!("({})", seen.join(" | "))
    }
}
