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
    /// A's value; `null` where only B has one.
    pub a: Value,
    /// B's value; `null` where only A has one.
    pub b: Value,
}

impl std::fmt::Display for Change {
    /// `end.sun_limit 62 → 60`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |v: &Value| match v {
            Value::Null => "none".to_owned(),
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        write!(f, "{} {} → {}", self.path, show(&self.a), show(&self.b))
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
    walk(String::new(), &rules(a), &rules(b), &mut out);
    out
}

fn walk(path: String, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    let child = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, va) in x {
                walk(child(key), va, y.get(key).unwrap_or(&Value::Null), out);
            }
            for (key, vb) in y {
                if !x.contains_key(key) {
                    walk(child(key), &Value::Null, vb, out);
                }
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            for i in 0..x.len().max(y.len()) {
                let (va, vb) = (
                    x.get(i).unwrap_or(&Value::Null),
                    y.get(i).unwrap_or(&Value::Null),
                );
                walk(format!("{path}[{i}]"), va, vb, out);
            }
        }
        _ => out.push(Change {
            path,
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
}
