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
//! - a value of the wrong type or length (`"pearl": "one"`, a cost of four
//!   items) or a missing field is replaced by a stand-in of the right shape
//!   (a number, the value's text, the array cut or filled to its length).
//!
//! Once the file decodes, the template's or deck's own checks run on the
//! parts that did parse and add their problems, leaving out any at or
//! below a value set aside or replaced: its shape problem already covers
//! it. The stand-ins are read twice, a number as 1 and as a large one,
//! and a content problem is kept only if both readings find it, so that a
//! stand-in (a missing `end.rounds` read as 1) adds no problem of its own. Only when no stand-in fits does the decode stop there, with every
//! problem found so far. The checks of the sheet as a whole (contradictions,
//! zones no game completes) wait for a file whose shape is right.
//! `sunfold template check` calls [`load`].

use crate::kit::json_error::{BYTE_ORDER_MARK, describe, error_path, not_json};
use crate::kit::path::Problem;
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
    let content = |problems: &Vec<FileProblem>, found: FileProblem| {
        let covered = problems.iter().any(|p| match (p, &found) {
            (FileProblem::Shape { path, .. }, FileProblem::Sheet(q)) => {
                within_path(&q.path.to_string(), path)
            }
            (FileProblem::Shape { path, .. }, FileProblem::Deck(q)) => {
                within_path(&q.path.to_string(), path)
            }
            _ => false,
        });
        (!covered).then_some(found)
    };
    // The content problems of the file with its stand-ins read the other
    // way (a wrong or missing number as a large one rather than as 1): a
    // problem that only one reading finds comes of a stand-in, not of the
    // file, and is left out.
    let confirmed = |other: Option<Vec<String>>, found: &FileProblem| {
        other.is_none_or(|other| other.contains(&found.to_string()))
    };
    match value.get("game").and_then(Value::as_str) {
        Some("soleils") => {
            let raw: Option<RawTemplate> = tolerant(value.clone(), &mut problems, Reading::Low);
            let other = || {
                let raw: RawTemplate = tolerant(value.clone(), &mut Vec::new(), Reading::High)?;
                let errors = Template::check_with_contradictions(raw).err()?.0;
                Some(
                    errors
                        .iter()
                        .map(|e| FileProblem::Sheet(e.clone()).to_string())
                        .collect(),
                )
            };
            if let Some(raw) = raw {
                match Template::check_with_contradictions(raw) {
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
                    Err(errors) => {
                        let other = (!problems.is_empty()).then(other).flatten();
                        for error in errors.0 {
                            let found = FileProblem::Sheet(error);
                            if confirmed(other.clone(), &found) {
                                problems.extend(content(&problems, found));
                            }
                        }
                    }
                }
            }
        }
        Some("summertime") => {
            let raw: Option<RawDeck> = tolerant(value.clone(), &mut problems, Reading::Low);
            let other = || {
                let raw: RawDeck = tolerant(value.clone(), &mut Vec::new(), Reading::High)?;
                let errors = Deck::try_from(raw).err()?.0;
                Some(
                    errors
                        .iter()
                        .map(|e| FileProblem::Deck(e.clone()).to_string())
                        .collect(),
                )
            };
            if let Some(raw) = raw {
                match Deck::try_from(raw) {
                    Ok(deck) if problems.is_empty() => return Ok(Checked::Deck(deck)),
                    Ok(_) => {}
                    Err(errors) => {
                        let other = (!problems.is_empty()).then(other).flatten();
                        for error in errors.0 {
                            let found = FileProblem::Deck(error);
                            if confirmed(other.clone(), &found) {
                                problems.extend(content(&problems, found));
                            }
                        }
                    }
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

/// Whether the JSON path `path` is `place` or lies below it.
fn within_path(path: &str, place: &str) -> bool {
    path.strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Which number a stand-in is, where a number fits: 1, or a large one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Low,
    High,
}

/// At most this many shape problems are set aside in one file.
const MAX_REPAIRS: usize = 100;

/// Decodes `value`, recording each value that does not fit and setting it
/// aside where that is possible; `None` once one cannot be.
fn tolerant<T: DeserializeOwned>(
    mut value: Value,
    problems: &mut Vec<FileProblem>,
    reading: Reading,
) -> Option<T> {
    for _ in 0..MAX_REPAIRS {
        let error = match attempt::<T>(&value) {
            Ok(decoded) => return Some(decoded),
            Err(error) => error,
        };
        let (path, _) = error_path(error.path(), error.inner());
        let path = if path.is_empty() {
            crate::kit::path::JsonPath::root().to_string()
        } else {
            path
        };
        problems.push(FileProblem::Shape {
            path,
            detail: describe(error.inner()),
        });
        if !set_aside::<T>(&mut value, &error, reading) {
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
fn set_aside<T: DeserializeOwned>(value: &mut Value, error: &Located, reading: Reading) -> bool {
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
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    {
        // The path ends at the object that lacks the field: give it one.
        let mut place = steps.clone();
        place.push(Step::Key(field.to_owned()));
        let Some(Value::Object(object)) = at_mut(value, &steps) else {
            return false;
        };
        object.insert(field.to_owned(), Value::Null);
        return stand_in::<T>(value, &place, reading);
    }
    stand_in::<T>(value, &steps, reading)
}

/// Replaces the value at `steps` by the first stand-in of another shape
/// with which the file gets past it: a number, the value's text, the array
/// cut or filled to a length, the value as a one-item array, an empty array
/// or object; last, the field left out, for one that may be. True if one did.
fn stand_in<T: DeserializeOwned>(value: &mut Value, steps: &[Step], reading: Reading) -> bool {
    let Some(found) = at_mut(value, steps).map(|v| v.clone()) else {
        return false;
    };
    let text = match &found {
        Value::String(text) => text.clone(),
        Value::Null => "?".to_owned(),
        other => other.to_string(),
    };
    let mut candidates = Vec::new();
    if reading == Reading::High {
        candidates.push(Value::from(250));
    }
    candidates.extend([
        Value::from(1),
        Value::String(text),
        Value::Array(vec![Value::from(1), Value::from(1)]),
    ]);
    if let Value::Array(items) = &found {
        let filler = items.last().cloned().unwrap_or(Value::from(1));
        for length in (0..items.len()).rev() {
            candidates.push(Value::Array(items[..length].to_vec()));
        }
        for more in 1..=4 {
            let mut longer = items.clone();
            longer.extend(std::iter::repeat_n(filler.clone(), more));
            candidates.push(Value::Array(longer));
        }
    } else if !found.is_null() {
        candidates.push(Value::Array(vec![found.clone()]));
    }
    candidates.extend([
        Value::Array(Vec::new()),
        Value::Object(serde_json::Map::new()),
        Value::Bool(false),
    ]);
    for candidate in candidates {
        let mut trial = value.clone();
        if let Some(place) = at_mut(&mut trial, steps) {
            *place = candidate;
        }
        if past::<T>(&trial, steps) {
            *value = trial;
            return true;
        }
    }
    // A field that may be left out.
    if let Some((Step::Key(key), parent)) = steps.split_last() {
        let mut trial = value.clone();
        if let Some(Value::Object(object)) = at_mut(&mut trial, parent) {
            object.remove(key);
            if past::<T>(&trial, steps) {
                *value = trial;
                return true;
            }
        }
    }
    false
}

/// Whether `trial` decodes, or its first error lies elsewhere than `steps`.
fn past<T: DeserializeOwned>(trial: &Value, steps: &[Step]) -> bool {
    match attempt::<T>(trial) {
        Ok(_) => true,
        Err(error) => match self::steps(error.path()) {
            Some(now) => !within(&now, steps) && !missing_at(&error, &now, steps),
            None => true,
        },
    }
}

/// Whether `error` is a missing field of the object at `now`, which is the
/// field `steps` names: the stand-in was left out again.
fn missing_at(error: &Located, now: &[Step], steps: &[Step]) -> bool {
    let message = error.inner().to_string();
    let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next())
    else {
        return false;
    };
    let mut place = now.to_vec();
    place.push(Step::Key(field.to_owned()));
    within(&place, steps) && within(steps, &place)
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
        if past::<T>(&trial, steps) {
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
