//! A deck's cards and a sheet's boxes as the rows of a spreadsheet: read
//! from CSV text (or rows pasted from a spreadsheet), written as CSV, put
//! back into the template's file, or made into a JSON Patch.
//!
//! A column is named for the field it holds (`id`, `pearl`, `cell`, …), in
//! the file's order; a list (`needs`, `cost`, `icons`) is its items
//! separated by spaces, a cell its column and row (`2 3`), and an empty
//! cell of an optional field leaves the field out. The delimiter (`,`, `;`
//! or a tab) is read from the first line, a UTF-8 byte-order mark is
//! skipped, and lines may end in CRLF. A text cell's leading apostrophe,
//! which the export writes where a spreadsheet would otherwise read a
//! formula, is taken off; a number's cell is read as written.
//!
//! Its files: this one (the columns, the rows read and their problems),
//! [`write`] (rows written as CSV, and put into a file's text in place of
//! its cards or boxes, the rest of the text kept byte for byte), [`paste`]
//! (pasted rows as a JSON Patch against the current template).

mod paste;
mod write;

pub use paste::paste;
pub use write::{
    Delimiter, ExportProblem, ImportProblem, Imported, Layout, UnknownDelimiter, export, import,
};

use serde_json::{Map, Value};
use std::fmt;

/// Which rows: a deck's cards or a sheet's boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Cards,
    Boxes,
}

impl Table {
    /// The table of a template or deck, by its `game`.
    pub fn of(template: &Value) -> Option<Table> {
        match template.get("game").and_then(Value::as_str) {
            Some("summertime") => Some(Table::Cards),
            Some("soleils") => Some(Table::Boxes),
            _ => None,
        }
    }

    /// The field of the file that holds the rows.
    pub fn field(self) -> &'static str {
        match self {
            Table::Cards => "cards",
            Table::Boxes => "boxes",
        }
    }

    /// What one row is, for messages.
    pub fn row(self) -> &'static str {
        match self {
            Table::Cards => "card",
            Table::Boxes => "box",
        }
    }

    /// Every column, in the file's order.
    pub fn columns(self) -> &'static [Column] {
        match self {
            Table::Cards => CARDS,
            Table::Boxes => BOXES,
        }
    }

    /// The names of every column, in order.
    pub fn names(self) -> Vec<&'static str> {
        self.columns().iter().map(|c| c.name).collect()
    }

    fn column(self, name: &str) -> Option<Column> {
        let name = name.trim();
        self.columns()
            .iter()
            .copied()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }
}

/// One column: the field it holds and how its cells read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    shape: Shape,
    /// Whether an imported file must have it (its field has no default).
    required: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Text as it is; an empty cell is the empty text.
    Text,
    /// Text, or the field left out for an empty cell.
    OptionalText,
    /// A whole number.
    Whole,
    /// A whole number, or the field left out for an empty cell.
    OptionalWhole,
    /// Two whole numbers, column and row.
    Cell,
    /// Items separated by spaces; an empty cell is the empty list.
    List,
    /// Items separated by spaces, or the field left out for an empty cell.
    OptionalList,
    /// Exactly this many items, separated by spaces.
    Items(usize),
}

impl Shape {
    /// Whether its cells hold text, which a spreadsheet could take for a
    /// formula; a number's never does.
    fn is_text(self) -> bool {
        !matches!(self, Shape::Whole | Shape::OptionalWhole | Shape::Cell)
    }
}

const fn column(name: &'static str, shape: Shape, required: bool) -> Column {
    Column {
        name,
        shape,
        required,
    }
}

const CARDS: &[Column] = &[
    column("id", Shape::Text, true),
    column("name", Shape::Text, true),
    column("picture", Shape::Text, true),
    column("points", Shape::OptionalWhole, false),
    column("multiplier", Shape::OptionalWhole, false),
    column("needs", Shape::List, false),
    column("cost", Shape::Items(3), true),
];

const BOXES: &[Column] = &[
    column("id", Shape::Text, true),
    column("pearl", Shape::Whole, true),
    column("cell", Shape::Cell, true),
    column("zone", Shape::Text, true),
    column("group", Shape::OptionalText, false),
    column("icons", Shape::OptionalList, false),
];

/// Whether the first row names the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// It must: a CSV file.
    Required,
    /// It may: rows pasted from a spreadsheet, with or without their header.
    /// Without one, every column is there, in order.
    Optional,
}

/// One row read: where it starts and its cells, each as its field's value
/// (`None`: an empty cell of an optional field, which leaves it out).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The line of the text the row starts on, from 1.
    pub line: u64,
    pub cells: Vec<(Column, Option<Value>)>,
}

impl Row {
    /// The row as the JSON object of a card or box, its fields in the
    /// file's order.
    pub fn object(&self) -> Value {
        let mut object = Map::new();
        for (column, value) in &self.cells {
            if let Some(value) = value {
                object.insert(column.name.to_owned(), value.clone());
            }
        }
        Value::Object(object)
    }

    /// The text of the `id` cell, if the row has one.
    pub fn id(&self) -> Option<&str> {
        self.cells
            .iter()
            .find(|(c, _)| c.name == "id")
            .and_then(|(_, v)| v.as_ref())
            .and_then(Value::as_str)
    }
}

/// A problem of one row or of the header, with its line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowProblem {
    /// The line of the text the row starts on, from 1.
    pub line: u64,
    /// The column's name, where the problem is one cell's.
    pub column: Option<String>,
    pub kind: RowProblemKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowProblemKind {
    /// The header names a column the table does not have.
    UnknownColumn {
        found: String,
        known: Vec<&'static str>,
    },
    /// The header names a column twice.
    RepeatedColumn,
    /// The header lacks a column whose field has no default.
    MissingColumn,
    /// A row with fewer cells than the header, or more that are not empty.
    Width {
        expected: usize,
        found: usize,
    },
    /// Rows without a header that do not have every column.
    NoHeader {
        expected: usize,
        found: usize,
    },
    NotWhole {
        found: String,
    },
    NotCell {
        found: String,
    },
    /// A list of a fixed length with another number of items.
    Items {
        column: &'static str,
        expected: usize,
        found: Vec<String>,
    },
    /// The same id on two rows of a paste.
    RepeatedId {
        id: String,
        first: u64,
    },
    /// A paste with no `id` column: rows are matched by id.
    NoId,
    /// Text that is not CSV, or not UTF-8.
    Unreadable {
        detail: String,
    },
    /// No rows at all.
    Empty,
    /// Found by the template's own checks, at this row's field (`item`: the
    /// place within the field's list, from 1).
    Template {
        item: Option<usize>,
        detail: String,
    },
}

impl fmt::Display for RowProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowProblemKind::UnknownColumn { found, known } => write!(
                f,
                "expected one of the columns {}, but found {found:?}",
                known.join(", ")
            ),
            RowProblemKind::RepeatedColumn => {
                f.write_str("expected each column once, but found it twice")
            }
            RowProblemKind::MissingColumn => {
                f.write_str("expected this column in the header, but found none")
            }
            RowProblemKind::Width { expected, found } => write!(
                f,
                "expected {expected} cells, as the header has, but found {found}"
            ),
            RowProblemKind::NoHeader { expected, found } => write!(
                f,
                "expected a header row naming the columns, or {expected} cells in every column's order, but found {found} cells"
            ),
            RowProblemKind::NotWhole { found } => {
                write!(f, "expected a whole number, but found {found:?}")
            }
            RowProblemKind::NotCell { found } => write!(
                f,
                "expected a cell as its column and row, such as \"2 3\", but found {found:?}"
            ),
            RowProblemKind::Items {
                column,
                expected,
                found,
            } => match found.as_slice() {
                [] => write!(
                    f,
                    "expected {expected} items in {column}, but the cell is empty"
                ),
                [one] => write!(
                    f,
                    "expected {expected} items in {column}, but found 1: {one:?}"
                ),
                many => write!(
                    f,
                    "expected {expected} items in {column}, but found {}: {:?}",
                    many.len(),
                    many.join(" ")
                ),
            },
            RowProblemKind::RepeatedId { id, first } => write!(
                f,
                "expected each id once, but found {id:?} again (first on line {first})"
            ),
            RowProblemKind::NoId => f.write_str(
                "expected an id column, to know which rows are new and which replace one, but found none",
            ),
            RowProblemKind::Unreadable { detail } => f.write_str(detail),
            RowProblemKind::Empty => f.write_str("expected rows, but found none"),
            RowProblemKind::Template { item, detail } => match item {
                Some(item) => write!(f, "item {item}: {detail}"),
                None => f.write_str(detail),
            },
        }
    }
}

impl RowProblem {
    fn at(line: u64, column: Option<&str>, kind: RowProblemKind) -> RowProblem {
        RowProblem {
            line,
            column: column.map(str::to_owned),
            kind,
        }
    }

    /// What is wrong, after the line: `column "value": expected …`.
    pub fn message(&self) -> String {
        match &self.column {
            Some(column) => format!("column {column:?}: {}", self.kind),
            None => self.kind.to_string(),
        }
    }
}

impl fmt::Display for RowProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message())
    }
}

/// Reads the rows of `bytes`: every problem at once, or the rows.
pub fn read(table: Table, bytes: &[u8], header: Header) -> Result<Vec<Row>, Vec<RowProblem>> {
    let read = read_parts(table, bytes, header);
    if read.problems.is_empty() {
        Ok(read.rows)
    } else {
        Err(read.problems)
    }
}

/// What the text held: the rows that read, and every problem, of the
/// header and of each row that did not read.
struct Read {
    rows: Vec<Row>,
    problems: Vec<RowProblem>,
    /// Whether the rows hold every field without a default: false when
    /// the header lacks one (each row would then lack it too), or when no
    /// row could be read.
    whole: bool,
}

/// The columns a header's cells name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Column(Column),
    /// An empty heading: its cells must be empty too.
    Blank,
    /// A heading with a problem (an unknown name, a column named twice),
    /// given once for the header: its cells are not read.
    Ignored,
}

fn read_parts(table: Table, bytes: &[u8], header: Header) -> Read {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let failed = |problems| Read {
        rows: Vec::new(),
        problems,
        whole: false,
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter(bytes))
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut lines = Lines::new(bytes);
    let mut records = Vec::new();
    for record in reader.records() {
        match record {
            Ok(record) => {
                if record.iter().any(|cell| !cell.trim().is_empty()) {
                    records.push((lines.at(record.position()), record));
                }
            }
            Err(error) => {
                let line = lines.at(error.position());
                let detail = match error.kind() {
                    csv::ErrorKind::Utf8 { .. } => {
                        "expected UTF-8 text, but found an invalid byte".to_owned()
                    }
                    _ => format!("expected CSV, but found text that is not ({error})"),
                };
                return failed(vec![RowProblem::at(
                    line,
                    None,
                    RowProblemKind::Unreadable { detail },
                )]);
            }
        }
    }
    let Some((first_line, first)) = records.first() else {
        return failed(vec![RowProblem::at(1, None, RowProblemKind::Empty)]);
    };
    let named = header == Header::Required
        || first
            .iter()
            .all(|cell| cell.trim().is_empty() || table.column(cell).is_some());
    let mut problems = Vec::new();
    let (slots, body): (Vec<Slot>, &[_]) = if named {
        let slots = header_slots(table, *first_line, first, header, &mut problems);
        (slots, &records[1..])
    } else {
        let slots = table.columns().iter().copied().map(Slot::Column).collect();
        (slots, &records[..])
    };
    if body.is_empty() {
        problems.push(RowProblem::at(first_line + 1, None, RowProblemKind::Empty));
        return failed(problems);
    }
    let whole = !problems
        .iter()
        .any(|problem| problem.kind == RowProblemKind::MissingColumn);
    let mut rows = Vec::new();
    for (line, record) in body {
        if let Some(row) = read_row(table, *line, record, &slots, named, &mut problems) {
            rows.push(row);
        }
    }
    Read {
        rows,
        problems,
        whole,
    }
}

/// The line each record starts on, from 1, counted in the text itself:
/// the CSV reader counts a line's end only as it reads the next record,
/// so after a CRLF or a blank line its count is short.
struct Lines<'a> {
    bytes: &'a [u8],
    /// Where the count stands: the line that holds `bytes[offset]`.
    offset: usize,
    line: u64,
}

impl<'a> Lines<'a> {
    fn new(bytes: &'a [u8]) -> Lines<'a> {
        Lines {
            bytes,
            offset: 0,
            line: 1,
        }
    }

    /// The line of a record that starts at `position` (after any ends of
    /// lines there, which belong to the lines before it). Positions come
    /// in order.
    fn at(&mut self, position: Option<&csv::Position>) -> u64 {
        let Some(position) = position else {
            return self.line;
        };
        let mut start = usize::try_from(position.byte())
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        while matches!(self.bytes.get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        for index in self.offset..start {
            // `\n`, `\r\n` and a lone `\r` each end one line.
            let ends = match self.bytes[index] {
                b'\n' => true,
                b'\r' => self.bytes.get(index + 1) != Some(&b'\n'),
                _ => false,
            };
            self.line += u64::from(ends);
        }
        self.offset = self.offset.max(start);
        self.line
    }
}

/// The columns a header names, each of its problems given once.
fn header_slots(
    table: Table,
    line: u64,
    record: &csv::StringRecord,
    header: Header,
    problems: &mut Vec<RowProblem>,
) -> Vec<Slot> {
    let mut slots: Vec<Slot> = Vec::new();
    for cell in record {
        let slot = match table.column(cell) {
            None if cell.trim().is_empty() => Slot::Blank,
            None => {
                problems.push(RowProblem::at(
                    line,
                    None,
                    RowProblemKind::UnknownColumn {
                        found: cell.to_owned(),
                        known: table.names(),
                    },
                ));
                Slot::Ignored
            }
            Some(column) if slots.contains(&Slot::Column(column)) => {
                problems.push(RowProblem::at(
                    line,
                    Some(column.name),
                    RowProblemKind::RepeatedColumn,
                ));
                Slot::Ignored
            }
            Some(column) => Slot::Column(column),
        };
        slots.push(slot);
    }
    if header == Header::Required {
        for column in table.columns().iter().filter(|c| c.required) {
            if !slots.contains(&Slot::Column(*column)) {
                problems.push(RowProblem::at(
                    line,
                    Some(column.name),
                    RowProblemKind::MissingColumn,
                ));
            }
        }
    }
    slots
}

fn read_row(
    table: Table,
    line: u64,
    record: &csv::StringRecord,
    slots: &[Slot],
    named: bool,
    problems: &mut Vec<RowProblem>,
) -> Option<Row> {
    let width = slots.len();
    let extra = record
        .iter()
        .skip(width)
        .any(|cell| !cell.trim().is_empty());
    if record.len() < width || extra {
        let found = record.len();
        let kind = if named {
            RowProblemKind::Width {
                expected: width,
                found,
            }
        } else {
            RowProblemKind::NoHeader {
                expected: table.columns().len(),
                found,
            }
        };
        problems.push(RowProblem::at(line, None, kind));
        return None;
    }
    let mut cells = Vec::new();
    let before = problems.len();
    for (slot, cell) in slots.iter().zip(record) {
        match slot {
            Slot::Column(column) => match value(*column, cell) {
                Ok(value) => cells.push((*column, value)),
                Err(kind) => problems.push(RowProblem::at(line, Some(column.name), kind)),
            },
            Slot::Blank if !cell.trim().is_empty() => problems.push(RowProblem::at(
                line,
                None,
                RowProblemKind::Width {
                    expected: width,
                    found: record.len(),
                },
            )),
            Slot::Blank | Slot::Ignored => {}
        }
    }
    // In the file's order, whatever the header's.
    cells.sort_by_key(|(column, _)| table.columns().iter().position(|c| c == column));
    (problems.len() == before).then_some(Row { line, cells })
}

/// The mark the export writes before a text cell's first character where
/// a spreadsheet would read a formula, or would take that character
/// itself for the mark (see [`write`]): a text cell loses one, and keeps
/// the rest as written.
const TEXT_MARK: char = '\'';

/// A cell read as its field's value.
fn value(column: Column, cell: &str) -> Result<Option<Value>, RowProblemKind> {
    let shape = column.shape;
    let (marked, cell) = match cell.strip_prefix(TEXT_MARK) {
        Some(rest) if shape.is_text() => (true, rest),
        _ => (false, cell),
    };
    let trimmed = cell.trim();
    let whole = |text: &str| {
        text.parse::<u64>()
            .map(Value::from)
            .map_err(|_| RowProblemKind::NotWhole {
                found: cell.to_owned(),
            })
    };
    let items = |text: &str| -> Vec<String> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let list = |text: &str| Value::from(items(text));
    // An empty cell leaves an optional field out; a marked one holds
    // the empty text.
    let left_out = trimmed.is_empty() && !marked;
    Ok(match shape {
        Shape::Text => Some(Value::String(cell.to_owned())),
        Shape::OptionalText if left_out => None,
        Shape::OptionalText => Some(Value::String(cell.to_owned())),
        Shape::Whole => Some(whole(trimmed)?),
        Shape::OptionalWhole if trimmed.is_empty() => None,
        Shape::OptionalWhole => Some(whole(trimmed)?),
        Shape::Cell => {
            let inner = trimmed.trim_start_matches('[').trim_end_matches(']');
            let parts: Vec<&str> = inner
                .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
                .filter(|part| !part.is_empty())
                .collect();
            let numbers: Option<Vec<u64>> = parts.iter().map(|p| p.parse().ok()).collect();
            match numbers.as_deref() {
                Some([column, row]) => Some(Value::from(vec![*column, *row])),
                _ => {
                    return Err(RowProblemKind::NotCell {
                        found: cell.to_owned(),
                    });
                }
            }
        }
        Shape::List => Some(list(trimmed)),
        Shape::OptionalList if left_out => None,
        Shape::OptionalList => Some(list(trimmed)),
        Shape::Items(expected) => {
            let found = items(trimmed);
            if found.len() != expected {
                return Err(RowProblemKind::Items {
                    column: column.name,
                    expected,
                    found,
                });
            }
            Some(Value::from(found))
        }
    })
}

/// The delimiter of the first line: the most frequent of a tab, `;` and
/// `,` outside quotes; `,` if none.
fn delimiter(bytes: &[u8]) -> u8 {
    let mut counts = [(b'\t', 0usize), (b';', 0), (b',', 0)];
    let mut quoted = false;
    for &byte in bytes {
        match byte {
            b'"' => quoted = !quoted,
            b'\n' if !quoted => break,
            _ if !quoted => {
                for (delimiter, count) in &mut counts {
                    if byte == *delimiter {
                        *count += 1;
                    }
                }
            }
            _ => {}
        }
    }
    // The first of the most frequent, so a tie goes to a tab, then `;`.
    let most = counts.iter().map(|&(_, n)| n).max().unwrap_or(0);
    if most == 0 {
        return b',';
    }
    counts
        .iter()
        .find(|&&(_, n)| n == most)
        .map_or(b',', |&(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delimiter_is_read_from_the_first_line_outside_quotes() {
        assert_eq!(delimiter(b"id,name\n1;2;3"), b',');
        assert_eq!(delimiter(b"id;name;\"a,b,c\"\n"), b';');
        assert_eq!(delimiter(b"id\tname\n"), b'\t');
        assert_eq!(delimiter(b"id\n"), b',');
    }

    #[test]
    fn a_cell_reads_as_two_whole_numbers_however_written() {
        let cell = column("cell", Shape::Cell, true);
        for text in ["2 3", "[2, 3]", " 2,3 ", "2;3"] {
            assert_eq!(
                value(cell, text),
                Ok(Some(serde_json::json!([2, 3]))),
                "{text}"
            );
        }
        assert!(value(cell, "2").is_err());
        assert!(value(cell, "a b").is_err());
    }
}
