//! Rows pasted from a spreadsheet, as a JSON Patch against the template
//! being edited: a row whose id is a card's or box's replaces the fields
//! its columns name, and any other row is added at the end.

use super::{Header, RowProblem, RowProblemKind, Table, read};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The JSON Patch that pastes the rows of `text` (cells separated by tabs,
/// as spreadsheets copy them, or by `;` or `,`; with or without a header
/// row) into `template`; or every problem of the rows, with its line and
/// column. Each replaced card or box is tested for its id first, so the
/// patch applies only to the template it was made against.
pub fn paste(template: &Value, text: &str) -> Result<json_patch::Patch, Vec<RowProblem>> {
    let Some(table) = Table::of(template) else {
        return Err(vec![RowProblem::at(
            1,
            None,
            RowProblemKind::Unreadable {
                detail: "expected a sheet template or a deck to paste into, but found neither"
                    .to_owned(),
            },
        )]);
    };
    let rows = read(table, text.as_bytes(), Header::Optional)?;
    let mut problems = Vec::new();
    let mut seen: HashMap<&str, u64> = HashMap::new();
    for row in &rows {
        match row.id() {
            None => {
                problems.push(RowProblem::at(row.line, None, RowProblemKind::NoId));
                break;
            }
            Some(id) => {
                if let Some(&first) = seen.get(id) {
                    problems.push(RowProblem::at(
                        row.line,
                        Some("id"),
                        RowProblemKind::RepeatedId {
                            id: id.to_owned(),
                            first,
                        },
                    ));
                } else {
                    seen.insert(id, row.line);
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let field = table.field();
    let current = template
        .get(field)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut operations = Vec::new();
    for row in &rows {
        let id = row.id().unwrap_or_default();
        let found = current
            .iter()
            .position(|item| item.get("id").and_then(Value::as_str) == Some(id));
        match found {
            Some(index) => {
                let mut item = current[index].clone();
                if let Some(object) = item.as_object_mut() {
                    for (column, value) in &row.cells {
                        match value {
                            Some(value) => {
                                object.insert(column.name.to_owned(), value.clone());
                            }
                            None => {
                                object.remove(column.name);
                            }
                        }
                    }
                }
                operations.push(
                    json!({"op": "test", "path": format!("/{field}/{index}/id"), "value": id}),
                );
                operations.push(
                    json!({"op": "replace", "path": format!("/{field}/{index}"), "value": item}),
                );
            }
            None => {
                operations.push(
                    json!({"op": "add", "path": format!("/{field}/-"), "value": row.object()}),
                );
            }
        }
    }
    Ok(serde_json::from_value(Value::Array(operations)).expect("the operations are a JSON Patch"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet() -> Value {
        json!({
            "game": "soleils",
            "boxes": [
                {"id": "A1", "pearl": 1, "cell": [0, 0], "zone": "z"},
                {"id": "A2", "pearl": 2, "cell": [1, 0], "zone": "z", "icons": ["crab"]}
            ]
        })
    }

    #[test]
    fn rows_without_a_header_replace_boxes_of_their_id_and_add_the_others() {
        let patch = paste(&sheet(), "A2\t5\t1 0\tz\t\t\nA3\t6\t2 0\tz\tg\tfrog\n").unwrap();
        assert_eq!(
            serde_json::to_value(&patch).unwrap(),
            json!([
                {"op": "test", "path": "/boxes/1/id", "value": "A2"},
                {"op": "replace", "path": "/boxes/1", "value": {"id": "A2", "pearl": 5, "cell": [1, 0], "zone": "z"}},
                {"op": "add", "path": "/boxes/-", "value": {"id": "A3", "pearl": 6, "cell": [2, 0], "zone": "z", "group": "g", "icons": ["frog"]}}
            ])
        );
    }

    #[test]
    fn a_header_names_the_columns_pasted_and_only_those_change() {
        let patch = paste(&sheet(), "ID\tPearl\r\nA1\t6\r\n").unwrap();
        assert_eq!(
            serde_json::to_value(&patch).unwrap(),
            json!([
                {"op": "test", "path": "/boxes/0/id", "value": "A1"},
                {"op": "replace", "path": "/boxes/0", "value": {"id": "A1", "pearl": 6, "cell": [0, 0], "zone": "z"}}
            ])
        );
    }

    #[test]
    fn every_row_problem_is_given_with_its_line_and_column() {
        let problems = paste(&sheet(), "A1\tx\t0 0\tz\t\t\nA5\t1\tnowhere\tz\t\t\n").unwrap_err();
        let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "line 1: column \"pearl\": expected a whole number, but found \"x\"",
                "line 2: column \"cell\": expected a cell as its column and row, such as \"2 3\", but found \"nowhere\"",
            ]
        );
    }
}
