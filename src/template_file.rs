//! Reading a sheet template or deck file, reporting its structural and its
//! semantic problems together wherever it can.
//!
//! A typed decode stops at the first value that does not fit, so a single
//! unknown `kind` used to hide every other problem of the file. Here the
//! JSON is decoded tolerantly: a value that does not fit is recorded as a
//! problem with its path and, where it can be set aside without changing
//! what the rest of the file means, set aside, and the decode goes on:
//!
//! - an unknown field is left out;
//! - an unknown enum value (a zone `kind`, an icon, a reward, a constraint)
//!   is read as one of the known values, chosen so the rest decodes.
//!
//! Anything else (a missing field, a string where a number belongs) stops
//! the decode there, as before, with every problem found so far. Once the
//! file decodes, the template's or deck's own checks run and add theirs.
//! `sunfold template check` is meant to call [`load`].

use crate::json_error::{BYTE_ORDER_MARK, describe, error_path, not_json};
use crate::path::Problem;
use crate::soleils::template::{ProblemKind, RawTemplate, Template};
use crate::summertime::deck::{Deck, DeckProblemKind, RawDeck};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::fmt;
use std::path::Path;

/// A checked template or deck.
pub enum Checked {
    Sheet(Template),
    Deck(Deck),
}

/// One problem of a template or deck file, in the order found: first those
/// of its JSON shape, then those of its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// The file starts with a UTF-8 byte-order mark.
    ByteOrderMark,
    /// The text is not JSON, or not complete JSON.
    Syntax {
        line: usize,
        column: usize,
        detail: String,
    },
    /// A value that does not fit the format, at its path (`zones[2].kind`).
    Shape { path: String, detail: String },
    /// A problem of a sheet template's content.
    Sheet(Problem<ProblemKind>),
    /// A problem of a deck's content.
    Deck(Problem<DeckProblemKind>),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::ByteOrderMark => f.write_str(
                "line 1 column 1: expected JSON, but found a UTF-8 byte-order mark (save the file without it)",
            ),
            FileProblem::Syntax {
                line,
                column,
                detail,
            } => write!(f, "line {line} column {column}: {detail}"),
            FileProblem::Shape { path, detail } => write!(f, "{path}: {detail}"),
            FileProblem::Sheet(problem) => problem.fmt(f),
            FileProblem::Deck(problem) => problem.fmt(f),
        }
    }
}

/// Why a file could not become a checked template or deck.
#[derive(Debug)]
pub enum LoadFailure {
    /// The file could not be read.
    Io(std::io::Error),
    /// Every problem found, at least one.
    Problems(Vec<FileProblem>),
}

/// Reads and checks the template or deck at `path`.
pub fn load(path: &Path) -> Result<Checked, LoadFailure> {
    let bytes = std::fs::read(path).map_err(LoadFailure::Io)?;
    check_bytes(&bytes).map_err(LoadFailure::Problems)
}

/// Checks a template or deck file's bytes.
pub fn check_bytes(bytes: &[u8]) -> Result<Checked, Vec<FileProblem>> {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        return Err(vec![FileProblem::ByteOrderMark]);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.len()
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1)
            + 1;
        vec![FileProblem::Syntax {
            line,
            column,
            detail: "expected UTF-8 text, but found an invalid byte".to_owned(),
        }]
    })?;
    check(text)
}

/// Checks a template or deck given as JSON text: every problem at once.
pub fn check(text: &str) -> Result<Checked, Vec<FileProblem>> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let detail = match not_json(text) {
            Some(found) => format!("expected JSON, but found {found:?}, which is not JSON"),
            None => describe(&e),
        };
        vec![FileProblem::Syntax {
            line: e.line(),
            column: e.column(),
            detail,
        }]
    })?;
    let mut problems = Vec::new();
    match value.get("game").and_then(Value::as_str) {
        Some("soleils") => {
            let raw: Option<RawTemplate> = tolerant(value, &mut problems);
            if let Some(raw) = raw {
                match Template::try_from(raw) {
                    // A file must also be free of contradictions and of
                    // flags and groups no game can win, which a log's own
                    // template is never refused for.
                    Ok(template) if problems.is_empty() => {
                        // Contradictions first: a flag they make unwinnable
                        // is not reported again.
                        let mut contradictions = template.contradictions();
                        if contradictions.is_empty() {
                            contradictions = template.unreachable();
                        }
                        if contradictions.is_empty() {
                            return Ok(Checked::Sheet(template));
                        }
                        problems.extend(contradictions.into_iter().map(FileProblem::Sheet));
                    }
                    Ok(_) => {}
                    Err(errors) => problems.extend(errors.0.into_iter().map(FileProblem::Sheet)),
                }
            }
        }
        Some("summertime") => {
            let raw: Option<RawDeck> = tolerant(value, &mut problems);
            if let Some(raw) = raw {
                match Deck::try_from(raw) {
                    Ok(deck) if problems.is_empty() => return Ok(Checked::Deck(deck)),
                    Ok(_) => {}
                    Err(errors) => problems.extend(errors.0.into_iter().map(FileProblem::Deck)),
                }
            }
        }
        _ => {
            let found = value
                .get("game")
                .map_or("none".to_owned(), |g| g.to_string());
            problems.push(FileProblem::Shape {
                path: "game".to_owned(),
                detail: format!("expected \"soleils\" or \"summertime\", but found {found}"),
            });
        }
    }
    Err(problems)
}

/// At most this many shape problems are set aside in one file.
const MAX_REPAIRS: usize = 100;

/// Decodes `value`, recording each value that does not fit and setting it
/// aside where that is possible; `None` once one cannot be.
fn tolerant<T: DeserializeOwned>(mut value: Value, problems: &mut Vec<FileProblem>) -> Option<T> {
    for _ in 0..MAX_REPAIRS {
        let error = match attempt::<T>(&value) {
            Ok(decoded) => return Some(decoded),
            Err(error) => error,
        };
        let (path, _) = error_path(error.path(), error.inner());
        let path = if path.is_empty() {
            crate::path::JsonPath::root().to_string()
        } else {
            path
        };
        problems.push(FileProblem::Shape {
            path,
            detail: describe(error.inner()),
        });
        if !set_aside::<T>(&mut value, &error) {
            return None;
        }
    }
    None
}

type Located = serde_path_to_error::Error<serde_json::Error>;

fn attempt<T: DeserializeOwned>(value: &Value) -> Result<T, Located> {
    serde_path_to_error::deserialize(value)
}

/// The steps of a path that serde_path_to_error followed all the way.
fn steps(path: &serde_path_to_error::Path) -> Option<Vec<Step>> {
    use serde_path_to_error::Segment;
    path.iter()
        .map(|segment| match segment {
            Segment::Seq { index } => Some(Step::Index(*index)),
            Segment::Map { key } => Some(Step::Key(key.clone())),
            // An externally tagged enum's variant is the key of its object.
            Segment::Enum { variant } => Some(Step::Key(variant.clone())),
            Segment::Unknown => None,
        })
        .collect()
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn at_mut<'v>(value: &'v mut Value, steps: &[Step]) -> Option<&'v mut Value> {
    steps.iter().try_fold(value, |value, step| match step {
        Step::Key(key) => value.get_mut(key.as_str()),
        Step::Index(index) => value.get_mut(*index),
    })
}

/// Sets aside the value `error` is about, if it can be without changing
/// what the rest of the file means. True if the value changed.
fn set_aside<T: DeserializeOwned>(value: &mut Value, error: &Located) -> bool {
    let Some(steps) = steps(error.path()) else {
        return false;
    };
    let message = error.inner().to_string();
    if message.starts_with("unknown field `") {
        // The path ends at the unknown key: leave it out of its object.
        let Some((Step::Key(key), parent)) = steps.split_last() else {
            return false;
        };
        return at_mut(value, parent)
            .and_then(Value::as_object_mut)
            .and_then(|object| object.remove(key))
            .is_some();
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        return read_as_known::<T>(value, &steps, &variants(rest));
    }
    false
}

/// The variants serde lists after `expected`: `a`, `b` or `c`.
fn variants(rest: &str) -> Vec<String> {
    let Some((_, expected)) = rest.split_once(", expected ") else {
        return Vec::new();
    };
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Reads an unknown variant as the first known one with which the file
/// gets past this value: a unit variant's string is replaced, a tagged
/// one's key renamed. The path of an unknown variant ends at the field
/// that holds it; the file is past it once no error lies within.
fn read_as_known<T: DeserializeOwned>(value: &mut Value, steps: &[Step], known: &[String]) -> bool {
    for candidate in known {
        let mut trial = value.clone();
        if !rename(&mut trial, steps, candidate) {
            return false;
        }
        let past = match attempt::<T>(&trial) {
            Ok(_) => true,
            Err(error) => match self::steps(error.path()) {
                Some(now) => !within(&now, steps),
                None => true,
            },
        };
        if past {
            *value = trial;
            return true;
        }
    }
    false
}

/// Whether `path` lies at or below `place`.
fn within(path: &[Step], place: &[Step]) -> bool {
    path.len() >= place.len()
        && path.iter().zip(place).all(|pair| match pair {
            (Step::Key(a), Step::Key(b)) => a == b,
            (Step::Index(a), Step::Index(b)) => a == b,
            _ => false,
        })
}

fn rename(value: &mut Value, steps: &[Step], to: &str) -> bool {
    match at_mut(value, steps) {
        Some(Value::String(text)) => {
            *text = to.to_owned();
            true
        }
        Some(Value::Object(object)) if object.len() == 1 => {
            let Some(key) = object.keys().next().cloned() else {
                return false;
            };
            let inner = object.remove(&key).unwrap_or(Value::Null);
            object.insert(to.to_owned(), inner);
            true
        }
        _ => false,
    }
}
