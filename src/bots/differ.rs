//! What differs between the two variants of a comparison, by JSON path, so
//! that a report opens with what was changed: `end.sun_limit 62 → 60`.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// One value that differs between A and B.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct Change {
    /// The JSON path in the template or deck (`end.sun_limit`,
    /// `sun.thresholds[2].at`), or `options.NAME` for a rule option of
    /// 62 Soleils. A template's `name` and `notes` are left out: the
    /// report's header names each variant.
    pub path: String,
    /// What the report calls the place: the path, with an element that
    /// has an id named by it (`box S3: cell`, not `boxes[28].cell`).
    pub name: String,
    /// A's value; `null` where only B has one.
    pub a: Value,
    /// B's value; `null` where only A has one.
    pub b: Value,
}

impl std::fmt::Display for Change {
    /// `end.sun_limit 62 → 60`, `box S3: cell [4, 6] → [4, 0]`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} → {}", self.name, show(&self.a), show(&self.b))
    }
}

/// A value as a change shows it: `none`, a bare word, `[4, 6]`.
fn show(v: &Value) -> String {
    match v {
        Value::Null => "none".to_owned(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.iter().all(scalar) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

fn scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

/// An array's key as one of its elements: `boxes` → `box`.
fn singular(key: &str) -> &str {
    if let Some(stem) = key.strip_suffix("xes").or_else(|| key.strip_suffix("sses")) {
        &key[..stem.len() + if key.ends_with("xes") { 1 } else { 2 }]
    } else {
        key.strip_suffix('s').unwrap_or(key)
    }
}

/// Where a walk is: the JSON path, and the name the report gives it.
#[derive(Clone, Default)]
struct Place {
    path: String,
    name: String,
    /// The name ends with an element named by its id: the next key
    /// follows `: `, not `.`.
    named: bool,
}

impl Place {
    fn key(&self, key: &str) -> Place {
        let join = |at: &str, sep: &str| {
            if at.is_empty() {
                key.to_owned()
            } else {
                format!("{at}{sep}{key}")
            }
        };
        Place {
            path: join(&self.path, "."),
            name: join(&self.name, if self.named { ": " } else { "." }),
            named: false,
        }
    }

    /// Element `i` of this array, named by `id` when it has one.
    fn index(&self, i: usize, id: Option<&str>) -> Place {
        let path = format!("{}[{i}]", self.path);
        match id {
            Some(id) => {
                // `boxes` becomes `box S3`, after whatever named the array.
                let (before, key) = match self.name.rfind(['.', ' ']) {
                    Some(at) => (&self.name[..=at], &self.name[at + 1..]),
                    None => ("", self.name.as_str()),
                };
                let before = before.strip_suffix('.').unwrap_or(before);
                let sep = if before.is_empty() || before.ends_with(' ') {
                    ""
                } else {
                    " "
                };
                Place {
                    path,
                    name: format!("{before}{sep}{} {id}", singular(key)),
                    named: true,
                }
            }
            None => Place {
                path,
                name: format!("{}[{i}]", self.name),
                named: false,
            },
        }
    }
}

/// Keys of a template or deck that name or describe it but change no rule:
/// the report's header already names each variant.
const NOT_RULES: [&str; 2] = ["name", "notes"];

/// Every leaf value that differs between `a` and `b`, keys in sorted order.
/// Objects are compared key by key and arrays index by index; a value only
/// one side has is shown against `null`.
pub fn changes(a: &Value, b: &Value) -> Vec<Change> {
    let rules = |v: &Value| {
        let mut v = v.clone();
        if let Value::Object(map) = &mut v {
            for key in NOT_RULES {
                map.remove(key);
            }
        }
        v
    };
    let mut out = Vec::new();
    walk(&Place::default(), &rules(a), &rules(b), &mut out);
    out
}

/// A comparison of two variants with the same rules: every game would be
/// played twice to measure a difference of exactly nothing, so it is refused
/// before any game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected variants A and B with different rules, but found the same rules in A ({a}) and B ({b}), options included: a comparison of them would measure nothing, so no game is played"
)]
pub struct SameRules {
    /// Variant A's file, or `bundled`.
    pub a: String,
    /// Variant B's file, or `bundled`.
    pub b: String,
}

/// What B changes from A, or [`SameRules`] when it changes nothing; `a`
/// and `b` name the two variants for the refusal.
pub fn differing(
    (a, a_rules): (&str, &Value),
    (b, b_rules): (&str, &Value),
) -> Result<Vec<Change>, SameRules> {
    let found = changes(a_rules, b_rules);
    if found.is_empty() {
        return Err(SameRules {
            a: a.to_owned(),
            b: b.to_owned(),
        });
    }
    Ok(found)
}

/// The id of an element, when it has one and A and B agree on it.
fn id<'a>(a: &'a Value, b: &'a Value) -> Option<&'a str> {
    let of = |v: &'a Value| v.get("id").and_then(Value::as_str);
    match (of(a), of(b)) {
        (Some(x), Some(y)) if x == y => Some(x),
        (Some(x), None) if b.is_null() => Some(x),
        (None, Some(y)) if a.is_null() => Some(y),
        _ => None,
    }
}

fn walk(at: &Place, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                walk(&at.key(key), va, y.get(key).unwrap_or(&Value::Null), out);
            }
            for (key, vb) in y {
                if !x.contains_key(key) {
                    walk(&at.key(key), &Value::Null, vb, out);
                }
            }
        }
        // A short list of plain values (a cell, a cost) reads whole.
        (Value::Array(x), Value::Array(y))
            if !(x.iter().all(scalar) && y.iter().all(scalar) && x.len().max(y.len()) <= 8) =>
        {
            for i in 0..x.len().max(y.len()) {
                let (va, vb) = (
                    x.get(i).unwrap_or(&Value::Null),
                    y.get(i).unwrap_or(&Value::Null),
                );
                walk(&at.index(i, id(va, vb)), va, vb, out);
            }
        }
        _ => out.push(Change {
            path: at.path.clone(),
            name: at.name.clone(),
            a: a.clone(),
            b: b.clone(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_values_that_differ_by_path() {
        let a = json!({"name": "A", "end": {"rounds": 20, "sun_limit": 62},
            "sun": {"thresholds": [{"at": 10}, {"at": 20}]}});
        let b = json!({"name": "B", "end": {"rounds": 20, "sun_limit": 60},
            "sun": {"thresholds": [{"at": 10}, {"at": 22}, {"at": 30}]}});
        let shown: Vec<String> = changes(&a, &b).iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "end.sun_limit 62 → 60",
                "sun.thresholds[1].at 20 → 22",
                "sun.thresholds[2] none → {\"at\":30}",
            ]
        );
        assert!(changes(&a, &a).is_empty());
    }

    #[test]
    fn an_element_with_an_id_is_named_by_it() {
        let a = json!({"boxes": [{"id": "S2", "cell": [4, 5]}, {"id": "S3", "cell": [4, 6]}],
            "zones": [{"id": "koinobori", "groups": [{"id": "K1", "reward": {"shells": 1}}]}]});
        let b = json!({"boxes": [{"id": "S2", "cell": [4, 5]}, {"id": "S3", "cell": [4, 0]}],
            "zones": [{"id": "koinobori", "groups": [{"id": "K1", "reward": {"shells": 2}}]}]});
        let found = changes(&a, &b);
        let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "box S3: cell [4, 6] → [4, 0]",
                "zone koinobori: group K1: reward.shells 1 → 2",
            ]
        );
        assert_eq!(found[0].path, "boxes[1].cell");
        assert_eq!(found[1].path, "zones[0].groups[0].reward.shells");
        assert_eq!(singular("boxes"), "box");
        assert_eq!(singular("closing_cards"), "closing_card");
        assert_eq!(singular("classes"), "class");
    }
}
