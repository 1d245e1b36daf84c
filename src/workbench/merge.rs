//! `sunfold merge`: the parts of a run written by its shards, checked to
//! belong together and merged into the report the run with no shards
//! gives, bit for bit. The reduce of [`crate::workbench::partial`].
//!
//! Tallies merge exactly ([`crate::workbench::Tally::merge`]), and a ladder's games
//! are put back in game order, so the report is a function of the games
//! alone, not of how they were split.

use crate::kit::game::Game;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::workbench::figures::Report;
use crate::workbench::ladder::{Ladder, LadderGame, ladder};
use crate::workbench::partial::{
    Kind, PARTIAL_FORMAT, PARTIAL_MARK, Part, Partial, Shard, Tallied,
};
use crate::workbench::sweep::{self, Sweep};
use serde_json::Value;

/// What the parts of a run merge into.
#[derive(Clone, Debug, PartialEq)]
pub enum Merged {
    /// The report of `simulate` or `compare`.
    Report(Box<Report>),
    /// The report of `ladder`.
    Ladder(Box<Ladder>),
    /// The report of `sweep`.
    Sweep(Box<Sweep>),
}

/// Why parts are refused. `part` names a part as the caller does (its file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("{part}: line {line}, column {column}: {reason}")]
    Json {
        part: String,
        line: usize,
        column: usize,
        reason: String,
    },
    #[error("{part}: expected a partial report, but found an empty file")]
    Empty { part: String },
    #[error("{part}: at {path}: {reason}")]
    Field {
        part: String,
        path: String,
        reason: String,
    },
    #[error(
        "{part}: expected a partial report (written by --shard), but found no \"partial\": {mark:?}"
    )]
    NotPartial { part: String, mark: &'static str },
    #[error("{part}: expected a partial report of format {expected}, but found format {found}")]
    Format {
        part: String,
        expected: u32,
        found: String,
    },
    #[error(
        "{part}: expected a part of the run of {first}, but found {path} {found} where {first} has {expected}"
    )]
    OtherRun {
        part: String,
        first: String,
        path: String,
        expected: String,
        found: String,
    },
    #[error("expected shard {index} of {of}, but found no part of it")]
    Missing { index: u64, of: u64 },
    #[error("expected shard {index} of {of} once, but found it in {first} and in {second}")]
    Duplicate {
        index: u64,
        of: u64,
        first: String,
        second: String,
    },
    #[error(
        "{part}: expected games {from}..{to} as shard {index} of {of}, but found games {found_from}..{found_to}"
    )]
    Range {
        part: String,
        index: u64,
        of: u64,
        from: u64,
        to: u64,
        found_from: u64,
        found_to: u64,
    },
    #[error(
        "{part}: expected the tally of its {games} games under the run's figures, but found one that does not fit"
    )]
    Tally { part: String, games: u64 },
    #[error("{part}: {same}")]
    SameRules {
        part: String,
        same: crate::bots::SameRules,
    },
    #[error("{part}: expected a game of soleils or summertime, but found {found:?}")]
    Game { part: String, found: String },
}

/// Reads the parts in a file's text: one partial report, or several one
/// after another (the lines `parallel -k` gathers from its jobs). A file of
/// one part is named `name`; the parts of a file of several `name#1`,
/// `name#2`, ….
pub fn read(name: &str, text: &str) -> Result<Vec<(String, Partial)>, MergeError> {
    read_parts(name, text, PARTIAL_MARK, PARTIAL_FORMAT)
}

/// The `partial` mark of the first part in a file's text, if it has one:
/// which kind of parts the file holds.
pub fn mark_of(text: &str) -> Option<String> {
    let first = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()?
        .ok()?;
    first.get("partial")?.as_str().map(str::to_owned)
}

/// Reads the parts in a file's text as [`read`] does, for parts that say
/// `"partial": mark` and `"format": format` first.
pub fn read_parts<T: serde::de::DeserializeOwned>(
    name: &str,
    text: &str,
    mark: &'static str,
    format: u32,
) -> Result<Vec<(String, T)>, MergeError> {
    use serde_json::value::RawValue;
    let mut raws: Vec<&RawValue> = Vec::new();
    for next in serde_json::Deserializer::from_str(text).into_iter::<&RawValue>() {
        match next {
            Ok(raw) => raws.push(raw),
            Err(e) => {
                let part = match raws.len() {
                    0 => name.to_owned(),
                    n => format!("{name}#{}", n + 1),
                };
                return Err(MergeError::Json {
                    part,
                    line: e.line(),
                    column: e.column(),
                    reason: crate::kit::json_error::describe(&e),
                });
            }
        }
    }
    if raws.is_empty() {
        return Err(MergeError::Empty {
            part: name.to_owned(),
        });
    }
    let several = raws.len() > 1;
    raws.into_iter()
        .enumerate()
        .map(|(i, raw)| {
            let part = if several {
                format!("{name}#{}", i + 1)
            } else {
                name.to_owned()
            };
            let partial = one(&part, raw.get(), mark, format)?;
            Ok((part, partial))
        })
        .collect()
}

/// One part from its JSON text, read in order (the options of a variant
/// keep the order they were written in).
fn one<T: serde::de::DeserializeOwned>(
    part: &str,
    text: &str,
    mark: &'static str,
    format: u32,
) -> Result<T, MergeError> {
    // The text is one JSON value already: only its kind is in doubt.
    let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    if value.get("partial").and_then(Value::as_str) != Some(mark) {
        return Err(MergeError::NotPartial {
            part: part.to_owned(),
            mark,
        });
    }
    match value.get("format") {
        Some(Value::Number(n)) if n.as_u64() == Some(u64::from(format)) => {}
        other => {
            return Err(MergeError::Format {
                part: part.to_owned(),
                expected: format,
                found: other.map_or("none".to_owned(), Value::to_string),
            });
        }
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut reader).map_err(|e| MergeError::Field {
        part: part.to_owned(),
        path: e.path().to_string(),
        reason: crate::kit::json_error::describe(e.inner()),
    })
}

/// The first place two JSON values differ: its path and both values.
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<(String, Value, Value)> {
    let at = |key: &str| {
        if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let (va, vb) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                first_difference(va, vb, &at(k))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (va, vb))| first_difference(va, vb, &format!("{path}[{i}]"))),
        _ if a == b => None,
        _ => Some((path.to_owned(), a.clone(), b.clone())),
    }
}

/// A value in a message: JSON, cut short past 60 characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(59).collect::<String>())
    } else {
        text
    }
}

/// The game's name and title as the report has them.
fn names(part: &str, game: &str) -> Result<(&'static str, &'static str), MergeError> {
    use crate::bots::Simulated;
    [
        (Soleils::NAME, Soleils::TITLE),
        (Summertime::NAME, Summertime::TITLE),
    ]
    .into_iter()
    .find(|(name, _)| *name == game)
    .ok_or_else(|| MergeError::Game {
        part: part.to_owned(),
        found: game.to_owned(),
    })
}

/// Checks that `parts` (named, in any order) are the shards of one run,
/// each once: every part's `identity` (what says which run it is of, and
/// into how many shards it was cut) the same as the first's, and each
/// part's games those its shard number has in a run of its `shard`'s
/// second figure. The parts in shard order.
pub fn order<T>(
    parts: &[(String, T)],
    identity: impl Fn(&T) -> Value,
    shard: impl Fn(&T) -> (Part, u64),
) -> Result<Vec<&(String, T)>, MergeError> {
    let Some((first, head)) = parts.first() else {
        return Err(MergeError::Missing { index: 1, of: 1 });
    };
    let reference = identity(head);
    for (name, part) in &parts[1..] {
        if let Some((path, expected, found)) = first_difference(&reference, &identity(part), "") {
            return Err(MergeError::OtherRun {
                part: name.clone(),
                first: first.clone(),
                path,
                expected: shown(&expected),
                found: shown(&found),
            });
        }
    }
    let of = shard(head).0.of;
    let mut by_index: Vec<Option<&(String, T)>> = vec![None; of as usize];
    for entry in parts {
        let (name, part) = entry;
        let (part, games) = shard(part);
        let index = part.index;
        if index == 0 || index > of {
            return Err(MergeError::Range {
                part: name.clone(),
                index,
                of,
                from: 0,
                to: 0,
                found_from: part.from,
                found_to: part.to,
            });
        }
        let games = Shard { index, of }.games(games);
        if (part.from, part.to) != (games.start, games.end) {
            return Err(MergeError::Range {
                part: name.clone(),
                index,
                of,
                from: games.start,
                to: games.end,
                found_from: part.from,
                found_to: part.to,
            });
        }
        let slot = &mut by_index[(index - 1) as usize];
        if let Some((earlier, _)) = slot {
            return Err(MergeError::Duplicate {
                index,
                of,
                first: earlier.clone(),
                second: name.clone(),
            });
        }
        *slot = Some(entry);
    }
    let mut ordered = Vec::with_capacity(by_index.len());
    for (i, slot) in by_index.into_iter().enumerate() {
        match slot {
            Some(entry) => ordered.push(entry),
            None => {
                return Err(MergeError::Missing {
                    index: i as u64 + 1,
                    of,
                });
            }
        }
    }
    Ok(ordered)
}

/// Checks that `parts` (named, in any order) are the shards of one run,
/// each once, and merges them into its report.
pub fn merge(parts: Vec<(String, Partial)>) -> Result<Merged, MergeError> {
    let ordered = order(
        &parts,
        |part| {
            serde_json::json!({
                "kind": part.kind,
                "run": part.run,
                "shard": { "of": part.shard.of },
            })
        },
        |part| (part.shard, part.run.games),
    )?;
    let (first, head) = &parts[0];
    let run = &head.run;
    let (game, title) = names(first, &run.game)?;
    let unfit = |name: &String, part: &Partial| MergeError::Tally {
        part: name.clone(),
        games: part.shard.to - part.shard.from,
    };
    match &head.tally {
        Tallied::Simulate(start) => {
            let mut tally = start.empty();
            for (name, part) in &ordered {
                match &part.tally {
                    Tallied::Simulate(t)
                        if tally.fits(t) && t.games() == part.shard.to - part.shard.from =>
                    {
                        tally.merge(t)
                    }
                    _ => return Err(unfit(name, part)),
                }
            }
            Ok(Merged::Report(Box::new(
                tally.report(game, title, run.seed),
            )))
        }
        Tallied::Compare(start) => {
            let mut paired = start.empty();
            for (name, part) in &ordered {
                match &part.tally {
                    Tallied::Compare(t)
                        if paired.fits(t) && t.games() == part.shard.to - part.shard.from =>
                    {
                        paired.merge(t)
                    }
                    _ => return Err(unfit(name, part)),
                }
            }
            let mut report = paired.report(game, title, run.seed);
            if let [a, b] = run.variants.as_slice() {
                // A comparison refuses the same rules before any game: so
                // does the merge of its parts, whatever wrote them.
                report.changes =
                    crate::bots::differing((&a.info.source, &a.rules), (&b.info.source, &b.rules))
                        .map_err(|same| MergeError::SameRules {
                            part: first.clone(),
                            same,
                        })?;
            }
            Ok(Merged::Report(Box::new(report)))
        }
        Tallied::Sweep(start) => {
            let mut tallies = start.empty();
            for (name, part) in &ordered {
                match &part.tally {
                    Tallied::Sweep(t)
                        if tallies.fits(t) && t.games() == part.shard.to - part.shard.from =>
                    {
                        tallies.merge(t)
                    }
                    _ => return Err(unfit(name, part)),
                }
            }
            let (Some(variant), Some(run_sweep)) = (run.variants.first(), &run.sweep) else {
                return Err(unfit(first, head));
            };
            // Linked axes add no combinations: count the points as played.
            let points = sweep::spec::points(&run_sweep.axes).len();
            let empty_axis = run_sweep.axes.iter().any(|a| a.values.is_empty());
            let unlinked = run_sweep
                .axes
                .windows(2)
                .any(|w| w[1].linked && w[0].values.len() != w[1].values.len());
            let first_linked = run_sweep.axes.first().is_some_and(|a| a.linked);
            if run_sweep.axes.is_empty()
                || empty_axis
                || unlinked
                || first_linked
                || points != tallies.tallies.len()
                || run_sweep.base >= points
                || tallies
                    .differences
                    .iter()
                    .any(|d| d.len() != run_sweep.figures.len())
            {
                return Err(unfit(first, head));
            }
            Ok(Merged::Sweep(Box::new(sweep::report(
                game,
                title,
                run.seed,
                variant.info.clone(),
                run_sweep,
                tallies,
            ))))
        }
        Tallied::Ladder(_) => {
            let mut games: Vec<LadderGame> = Vec::with_capacity(run.games as usize);
            for (name, part) in &ordered {
                let fits = |g: &LadderGame| {
                    g.seats.len() == run.players
                        && g.totals.len() == run.players
                        && g.seats.iter().all(|&s| s < run.bots.len())
                };
                match &part.tally {
                    Tallied::Ladder(played)
                        if played.len() as u64 == part.shard.to - part.shard.from
                            && played.iter().all(fits) =>
                    {
                        games.extend(played.iter().cloned())
                    }
                    _ => return Err(unfit(name, part)),
                }
            }
            let Some(variant) = run.variants.first() else {
                return Err(unfit(first, head));
            };
            if run.bots.len() < 2 {
                return Err(unfit(first, head));
            }
            Ok(Merged::Ladder(Box::new(ladder(
                game,
                title,
                run.players,
                run.seed,
                variant.info.clone(),
                &run.bots,
                &games,
            ))))
        }
    }
}

impl Merged {
    pub fn kind(&self) -> Kind {
        match self {
            Merged::Report(r) if r.b.is_some() => Kind::Compare,
            Merged::Report(_) => Kind::Simulate,
            Merged::Ladder(_) => Kind::Ladder,
            Merged::Sweep(_) => Kind::Sweep,
        }
    }
}
