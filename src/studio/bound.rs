//! The bounds of a template as a patch leaves it. A body is bounded by
//! its size ([`super::BODY_LIMIT`]) and its depth (the JSON reader's
//! nesting limit, 128); a patch's `copy` can still double what it copies
//! at each operation. The patch is applied one operation at a time, and
//! refused at the first that would leave the template deeper or larger
//! than these bounds, before it is built: nothing is applied or logged.

use super::session::EditError;
use json_patch::PatchOperation;
use serde_json::Value;

/// The deepest a template may be, in nested values (a scalar is 1): the
/// nesting a body may hold.
pub const DEPTH: usize = 128;

/// The most values (objects, arrays and scalars) a template may hold: a
/// bundled sheet holds about 600, a full deck a few thousand.
pub const VALUES: usize = 200_000;

/// How deep `value` is and how many values it holds, the count stopped
/// once it passes `stop`. Without recursion: the value may be deep.
fn measure(value: &Value, stop: usize) -> (usize, usize) {
    let mut deepest = 0;
    let mut count = 0;
    let mut stack = vec![(value, 1)];
    while let Some((value, depth)) = stack.pop() {
        count += 1;
        deepest = deepest.max(depth);
        if count > stop {
            break;
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            Value::Object(fields) => stack.extend(fields.values().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    (deepest, count)
}

/// Applies `patch` to `state` one operation at a time, refusing the first
/// that fails or would pass [`DEPTH`] or [`VALUES`]; on a refusal `state`
/// is left part-patched, for the caller to drop.
pub fn apply(state: &mut Value, patch: &[PatchOperation]) -> Result<(), EditError> {
    let (_, mut values) = measure(state, VALUES);
    for (operation, op) in patch.iter().enumerate() {
        // What the operation places, and where: its depth there, and the
        // values it adds (a move adds none).
        let (path, placed, adds) = match op {
            PatchOperation::Add(o) => (&o.path, Some(&o.value), true),
            PatchOperation::Replace(o) => (&o.path, Some(&o.value), true),
            PatchOperation::Copy(o) => (&o.path, state.pointer(o.from.as_str()), true),
            PatchOperation::Move(o) => (&o.path, state.pointer(o.from.as_str()), false),
            PatchOperation::Remove(o) => (&o.path, None, false),
            PatchOperation::Test(o) => (&o.path, None, false),
        };
        if let Some(placed) = placed {
            let (depth, count) = measure(placed, VALUES - values.min(VALUES));
            let depth = depth + path.count();
            if depth > DEPTH {
                return Err(EditError::TooDeep {
                    operation,
                    path: path.to_string(),
                    depth,
                });
            }
            if adds {
                values += count;
                if values > VALUES {
                    return Err(EditError::TooLarge {
                        operation,
                        path: path.to_string(),
                    });
                }
            }
        }
        json_patch::patch(state, std::slice::from_ref(op)).map_err(|e| EditError::Unappliable {
            operation,
            path: e.path.to_string(),
            reason: e.kind.to_string(),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An array `depth` deep, holding `inner` at its bottom.
    fn nested(depth: usize) -> Value {
        let mut value = json!([]);
        for _ in 1..depth {
            value = json!([value]);
        }
        value
    }

    fn patch(ops: Value) -> Vec<PatchOperation> {
        serde_json::from_value(ops).unwrap()
    }

    #[test]
    fn given_a_deep_note_when_copied_into_itself_then_the_copy_is_refused() {
        let mut state = json!({"name": "mine"});
        let deepest = format!("/notes{}", "/0".repeat(99));
        let ops = patch(json!([
            {"op": "add", "path": "/notes", "value": nested(100)},
            {"op": "copy", "from": "/notes", "path": format!("{deepest}/-")},
        ]));
        let refused = apply(&mut state, &ops).unwrap_err();
        assert!(
            matches!(
                refused,
                EditError::TooDeep {
                    operation: 1,
                    depth: 201,
                    ..
                }
            ),
            "{refused:?}"
        );
    }

    #[test]
    fn given_a_wide_value_when_copied_over_and_over_then_the_copy_past_the_bound_is_refused() {
        let mut state = json!({"a": vec![0; 10_000]});
        let ops: Vec<Value> = (0..30)
            .map(|k| json!({"op": "copy", "from": "/a", "path": format!("/b{k}")}))
            .collect();
        let refused = apply(&mut state, &patch(Value::Array(ops))).unwrap_err();
        assert!(
            matches!(refused, EditError::TooLarge { operation: 18, .. }),
            "{refused:?}"
        );
    }

    #[test]
    fn given_a_deep_value_when_measured_then_no_recursion_is_needed() {
        let mut value = json!(1);
        for _ in 0..100_000 {
            value = Value::Array(vec![value]);
        }
        assert_eq!(measure(&value, usize::MAX), (100_001, 100_001));
        // Dropped without recursion too.
        while let Value::Array(mut items) = value {
            value = items.pop().unwrap_or(Value::Null);
        }
    }
}
