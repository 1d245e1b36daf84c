//! Rows written as CSV, and rows put into a template's file in place of
//! its cards or boxes.
//!
//! An import keeps the rest of the file's text byte for byte and writes
//! one card or box to a line, as the bundled files are laid out, so that a
//! file exported and imported again is the same file.

use super::{Header, Read, Row, RowProblem, RowProblemKind, Shape, TEXT_MARK, Table, read_parts};
use crate::soleils::template::RawTemplate;
use crate::summertime::deck::RawDeck;
use crate::template::file::{FileProblem, check, check_bytes};
use serde_json::Value;
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// Why a file's rows could not be written as CSV.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportProblem {
    /// The file is not a template or deck of the right shape.
    File(FileProblem),
    /// A list's item that would not read back as itself from a cell.
    Unlistable { path: String, found: String },
}

impl fmt::Display for ExportProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportProblem::File(problem) => problem.fmt(f),
            ExportProblem::Unlistable { path, found } => write!(
                f,
                "{path}: expected an id without spaces or commas, to write in a list's cell, but found {found:?}"
            ),
        }
    }
}

/// How the CSV is laid out for the program that opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Between cells: `,`, `;` or a tab.
    pub delimiter: Delimiter,
    /// A UTF-8 byte-order mark first, by which Excel knows the text is
    /// UTF-8 (without it, it reads the bytes in the machine's code page).
    pub bom: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            delimiter: Delimiter::Comma,
            bom: false,
        }
    }
}

/// The delimiters an import reads back, from the header line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Semicolon,
    Tab,
}

/// Every delimiter, and the name each is given by.
const DELIMITERS: [(Delimiter, &str); 3] = [
    (Delimiter::Comma, ","),
    (Delimiter::Semicolon, ";"),
    (Delimiter::Tab, "tab"),
];

impl Delimiter {
    fn byte(self) -> u8 {
        match self {
            Delimiter::Comma => b',',
            Delimiter::Semicolon => b';',
            Delimiter::Tab => b'\t',
        }
    }
}

/// A delimiter that an import could not read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDelimiter {
    pub found: String,
}

impl fmt::Display for UnknownDelimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a delimiter of \",\", \";\" or \"tab\", but found {:?}",
            self.found
        )
    }
}

impl std::error::Error for UnknownDelimiter {}

impl std::str::FromStr for Delimiter {
    type Err = UnknownDelimiter;

    /// `,`, `;`, or a tab: the character itself, `tab` or `\t`.
    fn from_str(text: &str) -> Result<Delimiter, UnknownDelimiter> {
        let named = match text {
            "\t" | "\\t" => Some(Delimiter::Tab),
            _ => DELIMITERS
                .iter()
                .find(|(_, name)| name.eq_ignore_ascii_case(text))
                .map(|&(delimiter, _)| delimiter),
        };
        named.ok_or_else(|| UnknownDelimiter {
            found: text.to_owned(),
        })
    }
}

/// The rows of a template or deck file as CSV text laid out as `layout`
/// says, with a header naming every column; and which rows they are, and
/// how many.
///
/// A text cell is written so that a spreadsheet reads it as text: where it
/// starts with a character that would start a formula (`=`, `+`, `-`, `@`,
/// a tab, a carriage return), or with the mark itself, an apostrophe goes
/// first, as OWASP advises against formula injection; the import takes it
/// off. A cell that holds any of the delimiters (not only the file's), a
/// quote or a line's end is quoted, so that no program splits it.
pub fn export(bytes: &[u8], layout: Layout) -> Result<(Table, usize, String), Vec<ExportProblem>> {
    let file = |problems: Vec<FileProblem>| -> Vec<ExportProblem> {
        problems.into_iter().map(ExportProblem::File).collect()
    };
    // The file must have the format's shape; its content may still be
    // wrong, to be put right in the spreadsheet.
    let text = std::str::from_utf8(bytes)
        .ok()
        .filter(|_| !bytes.starts_with(b"\xEF\xBB\xBF"));
    let value = text.and_then(|text| {
        let value: Value = serde_json::from_str(text).ok()?;
        let table = Table::of(&value)?;
        let typed = match table {
            Table::Cards => serde_json::from_value::<RawDeck>(value)
                .ok()
                .map(|deck| serde_json::to_value(deck).expect("decks serialize")),
            Table::Boxes => serde_json::from_value::<RawTemplate>(value)
                .ok()
                .map(|sheet| serde_json::to_value(sheet).expect("templates serialize")),
        };
        Some((table, typed?))
    });
    let Some((table, value)) = value else {
        return Err(match check_bytes(bytes) {
            Err(problems) => file(problems),
            Ok(_) => vec![not_either()],
        });
    };
    let items = value[table.field()].as_array().cloned().unwrap_or_default();
    let mut problems = Vec::new();
    let mut text = String::new();
    if layout.bom {
        text.push('\u{feff}');
    }
    let delimiter = char::from(layout.delimiter.byte());
    let header: Vec<String> = table.names().into_iter().map(str::to_owned).collect();
    write_line(&mut text, &header, delimiter);
    for (index, item) in items.iter().enumerate() {
        let mut record = Vec::new();
        for column in table.columns() {
            let path = format!("{}[{index}].{}", table.field(), column.name);
            record.push(cell(
                column.shape,
                item.get(column.name),
                &path,
                &mut problems,
            ));
        }
        write_line(&mut text, &record, delimiter);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok((table, items.len(), text))
}

/// One record as a line of CSV: cells between `delimiter`s, a cell quoted
/// (its quotes doubled) when it holds a quote, a line's end or any of the
/// delimiters a spreadsheet may split on, whichever this file uses.
fn write_line(text: &mut String, cells: &[String], delimiter: char) {
    for (index, cell) in cells.iter().enumerate() {
        if index > 0 {
            text.push(delimiter);
        }
        if cell.contains(['"', '\r', '\n', ',', ';', '\t']) {
            text.push('"');
            text.push_str(&cell.replace('"', "\"\""));
            text.push('"');
        } else {
            text.push_str(cell);
        }
    }
    text.push('\n');
}

/// Text as its cell holds it: after the mark where it starts with a
/// character a spreadsheet would read as a formula's start, or with the
/// mark; the mark alone for the empty text of a field that may be left
/// out, which an empty cell would leave out.
fn text_cell(shape: Shape, text: String) -> String {
    let optional = matches!(shape, Shape::OptionalText | Shape::OptionalList);
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r', TEXT_MARK]);
    if formula || (optional && text.trim().is_empty()) {
        format!("{TEXT_MARK}{text}")
    } else {
        text
    }
}

/// What a file that checks but does not decode is said to be: never met.
fn not_either() -> ExportProblem {
    ExportProblem::File(FileProblem::Shape {
        path: "game".to_owned(),
        detail: "expected a sheet template or a deck".to_owned(),
    })
}

/// A field's value as the text of its cell.
fn cell(
    shape: Shape,
    value: Option<&Value>,
    path: &str,
    problems: &mut Vec<ExportProblem>,
) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match (shape, value) {
        (_, Value::String(text)) => text_cell(shape, text.clone()),
        (Shape::Cell, Value::Array(items)) => items
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        (_, Value::Array(items)) => {
            let mut texts = Vec::new();
            for (index, item) in items.iter().enumerate() {
                let text = item
                    .as_str()
                    .map_or_else(|| item.to_string(), str::to_owned);
                if text.is_empty() || text.contains(|c: char| c.is_whitespace() || c == ',') {
                    problems.push(ExportProblem::Unlistable {
                        path: format!("{path}[{index}]"),
                        found: text.clone(),
                    });
                }
                texts.push(text);
            }
            text_cell(shape, texts.join(" "))
        }
        (_, other) => other.to_string(),
    }
}

/// A problem of an import: of a row of the CSV, or of the file it would
/// make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportProblem {
    Row(RowProblem),
    File(FileProblem),
}

/// A template or deck file with its rows replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub table: Table,
    pub rows: usize,
    /// The new text of the file.
    pub text: String,
}

/// The file `file` with its cards or boxes replaced by the rows of the CSV
/// `rows`, if it then passes every check of `template check`; otherwise
/// every problem, of the rows (with their line and column) and of the file.
pub fn import(file: &[u8], rows: &[u8]) -> Result<Imported, Vec<ImportProblem>> {
    let files = |problems: Vec<FileProblem>| -> Vec<ImportProblem> {
        problems.into_iter().map(ImportProblem::File).collect()
    };
    let found = std::str::from_utf8(file)
        .ok()
        .filter(|_| !file.starts_with(b"\xEF\xBB\xBF"))
        .and_then(|text| {
            let value: Value = serde_json::from_str(text).ok()?;
            Some((text, Table::of(&value)?))
        });
    let Some((text, table)) = found else {
        return Err(match check_bytes(file) {
            Err(problems) => files(problems),
            Ok(_) => vec![ImportProblem::File(FileProblem::Shape {
                path: "game".to_owned(),
                detail: "expected a sheet template or a deck".to_owned(),
            })],
        });
    };
    let Read {
        rows,
        problems: unread,
        whole,
    } = read_parts(table, rows, Header::Required);
    if !whole {
        // The rows lack a field: the file they would make says only that.
        return Err(unread.into_iter().map(ImportProblem::Row).collect());
    }
    let Some(span) = span(text, table.field()) else {
        return Err(vec![ImportProblem::File(FileProblem::Shape {
            path: table.field().to_owned(),
            detail: format!(
                "expected an array of {}s to replace, but found none",
                table.row()
            ),
        })]);
    };
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let mut new = String::with_capacity(text.len());
    new.push_str(&text[..span.start]);
    new.push_str(&rows_text(&rows, &indent));
    new.push_str(&text[span.end..]);
    let checked = match check(&new) {
        Ok(_) if unread.is_empty() => {
            return Ok(Imported {
                table,
                rows: rows.len(),
                text: new,
            });
        }
        Ok(_) => Vec::new(),
        Err(problems) => problems
            .into_iter()
            .map(|problem| located(table, &rows, problem))
            .collect(),
    };
    if unread.is_empty() {
        return Err(checked);
    }
    // Some rows did not read: the problems the check finds in the others
    // are theirs too, but not those of the file as a whole, which lacks
    // the rows left out (the count of cards, a constraint's box).
    let mut problems: Vec<RowProblem> = unread;
    problems.extend(checked.into_iter().filter_map(|problem| match problem {
        ImportProblem::Row(row) => Some(row),
        ImportProblem::File(_) => None,
    }));
    problems.sort_by_key(|problem| problem.line);
    Err(problems.into_iter().map(ImportProblem::Row).collect())
}

/// Where the value of the top-level field `field` lies in `text`.
fn span(text: &str, field: &str) -> Option<Range<usize>> {
    let fields: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let raw = fields.get(field)?.get();
    let start = (raw.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (start + raw.len() <= text.len()).then_some(start..start + raw.len())
}

/// The rows as a JSON array, one to a line, the array's brackets at
/// `indent` and its items two spaces further.
fn rows_text(rows: &[Row], indent: &str) -> String {
    if rows.is_empty() {
        return "[]".to_owned();
    }
    let lines: Vec<String> = rows
        .iter()
        .map(|row| {
            let fields: Vec<String> = row
                .cells
                .iter()
                .filter_map(|(column, value)| {
                    let value = value.as_ref()?;
                    Some(format!("{}: {}", Value::from(column.name), compact(value)))
                })
                .collect();
            format!("{indent}  {{{}}}", fields.join(", "))
        })
        .collect();
    format!("[\n{}\n{indent}]", lines.join(",\n"))
}

/// A value on one line, with a space after each comma: `[2, 3]`.
fn compact(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// A problem of the file as made, at the row and column it came from
/// where it lies in the rows (`cards[3].cost[1]: …`).
fn located(table: Table, rows: &[Row], problem: FileProblem) -> ImportProblem {
    let text = problem.to_string();
    let at_row = || {
        let rest = text.strip_prefix(table.field())?.strip_prefix('[')?;
        let (index, rest) = rest.split_once(']')?;
        let row = rows.get(index.parse::<usize>().ok()?)?;
        if let Some(detail) = rest.strip_prefix(": ") {
            return Some(RowProblem::at(
                row.line,
                None,
                RowProblemKind::Template {
                    item: None,
                    detail: detail.to_owned(),
                },
            ));
        }
        let rest = rest.strip_prefix('.')?;
        let end = rest.find(['[', ':', '.'])?;
        let (column, rest) = rest.split_at(end);
        let column = table.column(column)?;
        let (item, rest) = match rest.strip_prefix('[') {
            Some(rest) => {
                let (item, rest) = rest.split_once(']')?;
                (Some(item.parse::<usize>().ok()? + 1), rest)
            }
            None => (None, rest),
        };
        let detail = rest.strip_prefix(": ")?;
        Some(RowProblem::at(
            row.line,
            Some(column.name),
            RowProblemKind::Template {
                item,
                detail: detail.to_owned(),
            },
        ))
    };
    match at_row() {
        Some(row) => ImportProblem::Row(row),
        None => ImportProblem::File(problem),
    }
}
