//! What `--set PATH=VALUES` says: the place a sweep changes (a JSON path of
//! the template or deck, or a rule option) and the values it takes there,
//! each checked before any game is played.
//!
//! - **Paths** are written as `template check` prints them:
//!   `sun.thresholds[2].at`, `end.rounds`, `zones[0].flag`. A rule option
//!   is named as `--option` names it (`sun_bonus`), or as `options.NAME`,
//!   the path a comparison lists it under.
//! - **Values** are a range of whole numbers `LO..HI:STEP` (`26..38:2` is 26,
//!   28, …, 38; HI is included when the steps reach it; `LO..HI` steps by 1),
//!   or a comma list `a,b,c` of numbers, `true`/`false` or words.
//! - **Linked paths** move together: `--set 'a,b=54:54,58:58'` names
//!   several paths, comma-separated, and each value joins one value per
//!   path with `:`. The sweep plays `a=54, b=54`, then `a=58, b=58`, not
//!   every combination of the two.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A sweep plays at most this many values, or combinations of values: a
/// bigger one is more likely a typing slip than a study.
pub const MAX_POINTS: usize = 400;

/// One value a `--set` takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SetValue {
    Integer(i64),
    Number(f64),
    Boolean(bool),
    Text(String),
}

impl SetValue {
    /// A value of a comma list: a number, `true`/`false`, or a word.
    fn parse(text: &str) -> SetValue {
        if let Ok(n) = text.parse::<i64>() {
            return SetValue::Integer(n);
        }
        if let Ok(x) = text.parse::<f64>()
            && x.is_finite()
            && text.chars().any(|c| c.is_ascii_digit())
        {
            return SetValue::Number(x);
        }
        match text {
            "true" => SetValue::Boolean(true),
            "false" => SetValue::Boolean(false),
            _ => SetValue::Text(text.to_owned()),
        }
    }

    /// The value as JSON, to set into the template or deck.
    pub fn json(&self) -> Value {
        match self {
            SetValue::Integer(n) => Value::from(*n),
            SetValue::Number(x) => Value::from(*x),
            SetValue::Boolean(b) => Value::Bool(*b),
            SetValue::Text(t) => Value::String(t.clone()),
        }
    }

    /// The value on an axis, if it is a number.
    pub fn number(&self) -> Option<f64> {
        match self {
            SetValue::Integer(n) => Some(*n as f64),
            SetValue::Number(x) => Some(*x),
            _ => None,
        }
    }
}

impl std::fmt::Display for SetValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetValue::Integer(n) => write!(f, "{n}"),
            SetValue::Number(x) => write!(f, "{x}"),
            SetValue::Boolean(b) => write!(f, "{b}"),
            SetValue::Text(t) => f.write_str(t),
        }
    }
}

/// One step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where a `--set` puts its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A place in the template or deck.
    Path(Vec<Step>),
    /// A rule option, by the name `--option` takes.
    Option(String),
}

/// One `--set`: the place and its values, in the order given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Axis {
    /// The JSON path, as `template check` prints it, or the option's name.
    pub path: String,
    pub values: Vec<SetValue>,
    /// The axis moves with the one before it, value `i` with its value
    /// `i`, as one `--set` naming several paths sets them; it adds no
    /// combinations.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub linked: bool,
}

/// Why a `--set` is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetError {
    #[error(
        "expected --set PATH=VALUES, such as sun.thresholds[2].at=26..38:2, but found {found:?}"
    )]
    NoEquals { found: String },
    #[error(
        "expected a JSON path such as sun.thresholds[2].at or an option name such as sun_bonus, but found {found:?}"
    )]
    BadPath { found: String },
    #[error("expected a range LO..HI:STEP of whole numbers, such as 26..38:2, but found {found:?}")]
    BadRange { found: String },
    #[error("expected a step of at least 1, but found 0 in {found:?}")]
    ZeroStep { found: String },
    #[error("expected a range whose low end is at most its high end, but found {found:?}")]
    EmptyRange { found: String },
    #[error("expected values separated by single commas, but found an empty one in {found:?}")]
    EmptyValue { found: String },
    #[error("expected each value of {path} once, but found {value} twice")]
    RepeatedValue { path: String, value: String },
    #[error("expected each path in one --set, but found {path} in two")]
    RepeatedPath { path: String },
    #[error(
        "expected at most {MAX_POINTS} values or combinations of values in a sweep, but found {found}"
    )]
    TooMany { found: u128 },
    #[error(
        "expected a path that exists in the {what}, but found {path}, where {at} has no {missing}"
    )]
    NoSuchPath {
        what: &'static str,
        path: String,
        at: String,
        missing: String,
    },
    #[error("expected the option {name} in --option or in --set, but found it in both")]
    OptionTwice { name: String },
    #[error(
        "expected --base to name a row by one value per --set, comma-separated, such as {first}, but found {found:?}"
    )]
    NoBase { found: String, first: String },
    #[error(
        "expected {paths} values joined by ':' in each value of {path}, one per path, but found {found:?}"
    )]
    LinkedCount {
        path: String,
        paths: usize,
        found: String,
    },
    /// A value swept of a rule option that the option does not take.
    #[error(transparent)]
    Option(#[from] crate::soleils::UnknownSetting),
}

/// The `--set`s read, in order, with where each one goes (`options` are
/// the game's option names), and checked to make at most [`MAX_POINTS`]
/// points.
pub fn read(sets: &[String], options: &[&str]) -> Result<Vec<(Target, Axis)>, SetError> {
    let axes = sets
        .iter()
        .map(|s| parse(s, options))
        .collect::<Result<Vec<_>, SetError>>()?
        .concat();
    let plain: Vec<Axis> = axes.iter().map(|(_, a)| a.clone()).collect();
    combinations(&plain)?;
    Ok(axes)
}

/// Refuses an option swept that `held` (the options set at every point)
/// sets too, and a value an option swept does not take.
pub fn check_options(
    axes: &[(Target, Axis)],
    held: &[crate::soleils::Setting],
) -> Result<(), SetError> {
    for (target, axis) in axes {
        if let Target::Option(name) = target {
            if held.iter().any(|s| s.name() == name) {
                return Err(SetError::OptionTwice { name: name.clone() });
            }
            for value in &axis.values {
                format!("{name}={value}").parse::<crate::soleils::Setting>()?;
            }
        }
    }
    Ok(())
}

/// The path as `template check` prints it: `sun.thresholds[2].at`.
pub fn show(steps: &[Step]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// `sun.thresholds[2].at` as its steps.
fn steps(text: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = text;
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[') {
            let close = after.find(']')?;
            let index = &after[..close];
            if index.is_empty() || !index.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            steps.push(Step::Index(index.parse().ok()?));
            rest = &after[close + 1..];
        } else {
            if !steps.is_empty() {
                rest = rest.strip_prefix('.')?;
            }
            let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            steps.push(Step::Key(rest[..end].to_owned()));
            rest = &rest[end..];
        }
    }
    (!steps.is_empty()).then_some(steps)
}

/// The values of `LO..HI:STEP` or of a comma list.
fn values(text: &str) -> Result<Vec<SetValue>, SetError> {
    let text = text.trim();
    if let Some((lo, rest)) = text.split_once("..") {
        let bad = || SetError::BadRange {
            found: text.to_owned(),
        };
        let (hi, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let whole = |t: &str| t.trim().parse::<i64>().map_err(|_| bad());
        let (lo, hi, step) = (whole(lo)?, whole(hi)?, whole(step)?);
        if step == 0 {
            return Err(SetError::ZeroStep {
                found: text.to_owned(),
            });
        }
        if step < 0 {
            return Err(bad());
        }
        if lo > hi {
            return Err(SetError::EmptyRange {
                found: text.to_owned(),
            });
        }
        let count = (i128::from(hi) - i128::from(lo)) / i128::from(step) + 1;
        if count > MAX_POINTS as i128 {
            return Err(SetError::TooMany {
                found: count as u128,
            });
        }
        return Ok((0..count as i64)
            .map(|k| SetValue::Integer(lo + k * step))
            .collect());
    }
    text.split(',')
        .map(|v| match v.trim() {
            "" => Err(SetError::EmptyValue {
                found: text.to_owned(),
            }),
            v => Ok(SetValue::parse(v)),
        })
        .collect()
}

/// Reads one `--set PATH=VALUES`, or `PATH,PATH=V:V,V:V` for paths that
/// move together: one axis per path, each after the first linked to the
/// one before. `options` are the rule options the game has, by name; a
/// path naming one (or `options.NAME`) sets that option.
pub fn parse(text: &str, options: &[&str]) -> Result<Vec<(Target, Axis)>, SetError> {
    let Some((path, list)) = text.split_once('=') else {
        return Err(SetError::NoEquals {
            found: text.to_owned(),
        });
    };
    if !path.contains(',') {
        let (target, axis) = one(path, values(list)?, options)?;
        repeated(&axis.path, &axis.values.iter().collect::<Vec<_>>())?;
        return Ok(vec![(target, axis)]);
    }
    let paths: Vec<&str> = path.split(',').collect();
    let mut columns: Vec<Vec<SetValue>> = vec![Vec::new(); paths.len()];
    for entry in list.trim().split(',') {
        let parts: Vec<&str> = entry.split(':').collect();
        if parts.len() != paths.len() {
            return Err(SetError::LinkedCount {
                path: path.trim().to_owned(),
                paths: paths.len(),
                found: entry.trim().to_owned(),
            });
        }
        for (column, part) in columns.iter_mut().zip(parts) {
            column.push(match part.trim() {
                "" => {
                    return Err(SetError::EmptyValue {
                        found: list.trim().to_owned(),
                    });
                }
                v => SetValue::parse(v),
            });
        }
    }
    let rows: Vec<String> = (0..columns[0].len())
        .map(|r| {
            let row: Vec<String> = columns.iter().map(|c| c[r].to_string()).collect();
            row.join(":")
        })
        .collect();
    repeated(path.trim(), &rows.iter().collect::<Vec<_>>())?;
    let mut axes = Vec::new();
    for (i, (path, values)) in paths.into_iter().zip(columns).enumerate() {
        let (target, mut axis) = one(path, values, options)?;
        axis.linked = i > 0;
        axes.push((target, axis));
    }
    Ok(axes)
}

/// Refuses a value of `path` given twice.
fn repeated<T: PartialEq + ToString>(path: &str, values: &[T]) -> Result<(), SetError> {
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(SetError::RepeatedValue {
                path: path.to_owned(),
                value: v.to_string(),
            });
        }
    }
    Ok(())
}

/// One path and its values.
fn one(path: &str, values: Vec<SetValue>, options: &[&str]) -> Result<(Target, Axis), SetError> {
    let path = path.trim();
    let bare = path.strip_prefix("options.").unwrap_or(path);
    let target = if options.contains(&bare) {
        Target::Option(bare.to_owned())
    } else {
        Target::Path(steps(path).ok_or_else(|| SetError::BadPath {
            found: path.to_owned(),
        })?)
    };
    let shown = match &target {
        Target::Option(name) => name.clone(),
        Target::Path(steps) => show(steps),
    };
    Ok((
        target,
        Axis {
            path: shown,
            values,
            linked: false,
        },
    ))
}

/// Checks that no path is set twice and that the combinations are few
/// enough; returns how many there are.
pub fn combinations(axes: &[Axis]) -> Result<usize, SetError> {
    for (i, axis) in axes.iter().enumerate() {
        if axes[..i].iter().any(|a| a.path == axis.path) {
            return Err(SetError::RepeatedPath {
                path: axis.path.clone(),
            });
        }
    }
    let found = axes
        .iter()
        .filter(|a| !a.linked)
        .map(|a| a.values.len() as u128)
        .fold(1u128, |n, k| n.saturating_mul(k));
    if found > MAX_POINTS as u128 {
        return Err(SetError::TooMany { found });
    }
    Ok(found as usize)
}

/// The axes that move together, as ranges of axis indices: an axis and
/// those linked after it.
pub fn groups(axes: &[Axis]) -> Vec<std::ops::Range<usize>> {
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, axis) in axes.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if axis.linked => g.end = i + 1,
            _ => groups.push(i..i + 1),
        }
    }
    groups
}

/// A point's values as `--base` names them: one value per `--set`,
/// comma-separated, linked paths' values joined by `:` (`62:62,20`).
pub fn label(axes: &[Axis], point: &[usize]) -> String {
    let groups: Vec<String> = groups(axes)
        .into_iter()
        .map(|g| {
            let values: Vec<String> = g.map(|a| axes[a].values[point[a]].to_string()).collect();
            values.join(":")
        })
        .collect();
    groups.join(",")
}

/// The row `--base` names ([`label`]); the first row without it.
pub fn base(axes: &[Axis], text: Option<&str>) -> Result<usize, SetError> {
    let Some(text) = text else { return Ok(0) };
    let wanted: Vec<String> = text
        .split(',')
        .map(|g| g.split(':').map(str::trim).collect::<Vec<_>>().join(":"))
        .collect();
    let wanted = wanted.join(",");
    let rows = points(axes);
    rows.iter()
        .position(|p| label(axes, p) == wanted)
        .ok_or_else(|| SetError::NoBase {
            found: text.to_owned(),
            first: rows.first().map_or_else(String::new, |p| label(axes, p)),
        })
}

/// What a group of axes is called: its paths joined by ` with `.
pub fn group_name(axes: &[Axis]) -> String {
    let paths: Vec<&str> = axes.iter().map(|a| a.path.as_str()).collect();
    paths.join(" with ")
}

/// Every combination of values, as one index per axis: the first axis
/// outermost, the last changing fastest; a linked axis takes the index of
/// the axis before it.
pub fn points(axes: &[Axis]) -> Vec<Vec<usize>> {
    let mut points = vec![Vec::new()];
    for axis in axes {
        if axis.linked {
            for p in &mut points {
                let last = p.last().copied().unwrap_or(0);
                p.push(last);
            }
            continue;
        }
        points = points
            .into_iter()
            .flat_map(|p| {
                (0..axis.values.len()).map(move |v| {
                    let mut next = p.clone();
                    next.push(v);
                    next
                })
            })
            .collect();
    }
    points
}

/// Sets `value` at `steps` of `doc`, a place that must already exist.
pub fn set(
    doc: &mut Value,
    steps: &[Step],
    value: Value,
    what: &'static str,
) -> Result<(), SetError> {
    let mut here = doc;
    for (i, step) in steps.iter().enumerate() {
        let missing = || SetError::NoSuchPath {
            what,
            path: show(steps),
            at: if i == 0 {
                format!("the {what}")
            } else {
                show(&steps[..i])
            },
            missing: match step {
                Step::Key(k) => format!("field {k:?}"),
                Step::Index(n) => format!("entry [{n}]"),
            },
        };
        here = match (step, here) {
            (Step::Key(k), Value::Object(map)) => map.get_mut(k).ok_or_else(missing)?,
            (Step::Index(n), Value::Array(list)) => list.get_mut(*n).ok_or_else(missing)?,
            _ => return Err(missing()),
        };
    }
    *here = value;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(text: &str) -> Result<Axis, SetError> {
        parse(text, &["sun_bonus"]).map(|mut axes| axes.remove(0).1)
    }

    #[test]
    fn linked_paths_move_together() {
        let axes: Vec<Axis> = parse("a[1].b,end=54:55,58:59", &[])
            .unwrap()
            .into_iter()
            .map(|(_, a)| a)
            .collect();
        assert_eq!(axes[0].path, "a[1].b");
        assert_eq!(axes[1].path, "end");
        assert_eq!(axes[0].values, [54, 58].map(SetValue::Integer));
        assert_eq!(axes[1].values, [55, 59].map(SetValue::Integer));
        assert!(!axes[0].linked && axes[1].linked);
        let c = axis("c=1,2,3").unwrap();
        let all = [axes[0].clone(), axes[1].clone(), c];
        assert_eq!(combinations(&all), Ok(6));
        assert_eq!(points(&all)[..3], [[0, 0, 0], [0, 0, 1], [0, 0, 2]]);
        assert_eq!(points(&all)[3], [1, 1, 0]);
        assert_eq!(
            parse("a,b=1:2,3", &[]).unwrap_err().to_string(),
            "expected 2 values joined by ':' in each value of a,b, one per path, but found \"3\""
        );
        assert!(matches!(
            parse("a,b=1:,3:4", &[]),
            Err(SetError::EmptyValue { .. })
        ));
        assert_eq!(base(&all, None), Ok(0));
        assert_eq!(base(&all, Some("58:59, 2")), Ok(4));
        assert_eq!(
            base(&all, Some("58,2")).unwrap_err().to_string(),
            "expected --base to name a row by one value per --set, comma-separated, such as 54:55,1, but found \"58,2\""
        );
    }

    #[test]
    fn ranges_include_their_high_end_when_the_steps_reach_it() {
        let values = |t: &str| axis(t).unwrap().values;
        assert_eq!(values("a=26..30:2"), [26, 28, 30].map(SetValue::Integer));
        assert_eq!(values("a=26..31:2"), [26, 28, 30].map(SetValue::Integer));
        assert_eq!(values("a=3..5"), [3, 4, 5].map(SetValue::Integer));
        assert_eq!(values("a=7..7:3"), [SetValue::Integer(7)]);
        assert!(matches!(axis("a=1..5:0"), Err(SetError::ZeroStep { .. })));
        assert!(matches!(axis("a=5..1:1"), Err(SetError::EmptyRange { .. })));
        assert!(matches!(axis("a=1..x:1"), Err(SetError::BadRange { .. })));
        assert!(matches!(axis("a=0..100000"), Err(SetError::TooMany { .. })));
    }

    #[test]
    fn lists_hold_numbers_booleans_and_words() {
        let a = axis("sun_bonus=exact,reach_or_pass").unwrap();
        assert_eq!(a.path, "sun_bonus");
        let a = axis("options.sun_bonus=exact").unwrap();
        assert_eq!(a.path, "sun_bonus");
        let a = axis("x=1,2.5,true,word").unwrap();
        assert_eq!(
            a.values,
            [
                SetValue::Integer(1),
                SetValue::Number(2.5),
                SetValue::Boolean(true),
                SetValue::Text("word".into())
            ]
        );
        assert!(matches!(axis("x=1,,2"), Err(SetError::EmptyValue { .. })));
        assert!(matches!(axis("x=1,1"), Err(SetError::RepeatedValue { .. })));
    }

    #[test]
    fn paths_read_as_template_check_prints_them() {
        let (target, a) = parse(" sun.thresholds[2].at =26", &[]).unwrap().remove(0);
        assert_eq!(a.path, "sun.thresholds[2].at");
        assert_eq!(
            target,
            Target::Path(vec![
                Step::Key("sun".into()),
                Step::Key("thresholds".into()),
                Step::Index(2),
                Step::Key("at".into())
            ])
        );
        for bad in ["a..b=1", "[x]=1", "a[1=1", ".a=1", "=1", "a.=1"] {
            assert!(
                matches!(parse(bad, &[]), Err(SetError::BadPath { .. })),
                "{bad}"
            );
        }
        assert!(matches!(parse("a", &[]), Err(SetError::NoEquals { .. })));
    }

    #[test]
    fn combinations_are_every_pairing_first_axis_outermost() {
        let a = axis("a=1,2").unwrap();
        let b = axis("b=1..3").unwrap();
        assert_eq!(combinations(&[a.clone(), b.clone()]), Ok(6));
        assert_eq!(
            points(&[a.clone(), b]),
            vec![
                vec![0, 0],
                vec![0, 1],
                vec![0, 2],
                vec![1, 0],
                vec![1, 1],
                vec![1, 2]
            ]
        );
        assert!(matches!(
            combinations(&[a.clone(), a]),
            Err(SetError::RepeatedPath { .. })
        ));
        let big = axis("c=1..300").unwrap();
        let two = axis("d=1,2").unwrap();
        assert!(matches!(
            combinations(&[big, two]),
            Err(SetError::TooMany { found: 600 })
        ));
    }

    #[test]
    fn a_path_must_exist() {
        let mut doc = serde_json::json!({"sun": {"thresholds": [{"at": 12}]}});
        let at = |t: &str| match parse(t, &[]).unwrap().remove(0).0 {
            Target::Path(s) => s,
            Target::Option(_) => unreachable!(),
        };
        set(
            &mut doc,
            &at("sun.thresholds[0].at=1"),
            30.into(),
            "template",
        )
        .unwrap();
        assert_eq!(doc["sun"]["thresholds"][0]["at"], 30);
        let e = set(
            &mut doc,
            &at("sun.thresholds[4].at=1"),
            1.into(),
            "template",
        );
        assert_eq!(
            e.unwrap_err().to_string(),
            "expected a path that exists in the template, but found sun.thresholds[4].at, where sun.thresholds has no entry [4]"
        );
        let e = set(&mut doc, &at("suns=1"), 1.into(), "template");
        assert_eq!(
            e.unwrap_err().to_string(),
            "expected a path that exists in the template, but found suns, where the template has no field \"suns\""
        );
    }
}
