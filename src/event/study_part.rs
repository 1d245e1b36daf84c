//! A format study spread over many machines: shard K of N plays its run of
//! the events and writes a part, the exact counts of its events with what
//! says which study it belongs to; `sunfold merge` checks that the parts
//! are the shards of one study, each once, and adds them up into the
//! report the study with no shards prints, byte for byte. The shards and
//! their checks are those of [`crate::workbench::partial`] and
//! [`crate::workbench::merge`]; `sunfold schema event-study-part` is a part's
//! shape.

use super::entry::{EventGame, Leftover, TieBreak};
use super::error::EventError;
use super::request::NewEvent;
use super::state::TableRules;
use super::study::{Study, StudyReport, StudyTally};
use crate::bots::Bot;
use crate::soleils::Options;
use crate::soleils::template::RawTemplate;
use crate::summertime::deck::RawDeck;
use crate::workbench::merge::{MergeError, order, read_parts};
use crate::workbench::partial::{Part, Shard};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What every part of a format study says first.
pub const STUDY_PART_MARK: &str = "sunfold event study part";

/// The version of a part's format; a merge takes only its own.
pub const STUDY_PART_FORMAT: u32 = 1;

/// The study a part belongs to, its defaults filled in: every part of one
/// study says the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyRun {
    pub game: EventGame,
    pub table_size: u32,
    pub rounds: u32,
    pub points: Vec<u32>,
    pub tie_breaks: Vec<TieBreak>,
    /// What the leftover seats make: `smaller` tables (left out) or
    /// `larger` ones.
    #[serde(default, skip_serializing_if = "Leftover::is_smaller")]
    pub leftover: Leftover,
    /// 62 Soleils: the sheet template every table plays; left out for the
    /// bundled sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Box<RawTemplate>>,
    /// 62 Soleils: the rule options of every table; left out for the
    /// defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Options>,
    /// Summertime: the deck every table plays; left out for the bundled
    /// deck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Box<RawDeck>>,
    /// Each bot and how many players it plays, in the order given.
    pub field: Vec<FieldEntry>,
    /// The events of the whole study.
    pub events: u64,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldEntry {
    pub bot: Bot,
    pub players: u32,
}

/// What `sunfold event simulate --shard K/N` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StudyPart {
    /// Always `sunfold event study part`.
    pub partial: String,
    /// The version of this format: 1.
    pub format: u32,
    pub study: StudyRun,
    pub shard: Part,
    pub tally: StudyTally,
}

impl StudyRun {
    /// The run of `study` over `events` events.
    pub fn of(study: &Study, events: u64) -> Result<StudyRun, EventError> {
        let setup = study.setup_filled()?;
        Ok(StudyRun {
            game: setup.game,
            table_size: setup.table_size,
            rounds: setup.rounds,
            points: setup.points,
            tie_breaks: setup.tie_breaks,
            leftover: setup.leftover,
            template: setup.rules.template,
            options: setup.rules.options,
            deck: setup.rules.deck,
            field: (study.field.iter())
                .map(|&(bot, players)| FieldEntry { bot, players })
                .collect(),
            events,
            seed: study.setup.seed,
        })
    }

    /// The study this run is of.
    pub fn study(&self) -> Study {
        Study {
            setup: NewEvent {
                game: self.game,
                table_size: Some(self.table_size),
                rounds: Some(self.rounds),
                points: Some(self.points.clone()),
                seed: self.seed,
                tie_breaks: Some(self.tie_breaks.clone()),
                leftover: self.leftover,
                rules: TableRules {
                    template: self.template.clone(),
                    options: self.options,
                    deck: self.deck.clone(),
                },
            },
            field: self.field.iter().map(|e| (e.bot, e.players)).collect(),
        }
    }
}

impl StudyPart {
    /// Shard `shard` of `study`, played.
    pub fn play(study: &Study, events: u64, shard: Shard) -> Result<StudyPart, EventError> {
        let games = shard.games(events);
        let tally = study.tally(games.clone())?;
        Ok(StudyPart {
            partial: STUDY_PART_MARK.to_owned(),
            format: STUDY_PART_FORMAT,
            study: StudyRun::of(study, events)?,
            shard: Part {
                index: shard.index,
                of: shard.of,
                from: games.start,
                to: games.end,
            },
            tally,
        })
    }
}

/// The parts in the texts of named files (one or several a file, as
/// [`crate::workbench::merge::read`] takes them), checked and added up into the
/// study's report.
pub fn merge_texts(texts: &[(String, String)]) -> Result<StudyReport, MergeError> {
    let mut parts = Vec::with_capacity(texts.len());
    for (name, text) in texts {
        parts.extend(read_parts(name, text, STUDY_PART_MARK, STUDY_PART_FORMAT)?);
    }
    merge(parts)
}

/// The parts of one study, checked and added up into its report.
pub fn merge(parts: Vec<(String, StudyPart)>) -> Result<StudyReport, MergeError> {
    let ordered = order(
        &parts,
        |part| serde_json::json!({ "study": part.study, "shard": { "of": part.shard.of } }),
        |part| (part.shard, part.study.events),
    )?;
    let (first, head) = &parts[0];
    let study = head.study.study();
    let refused = |e: EventError| MergeError::Field {
        part: first.clone(),
        path: "study".to_owned(),
        reason: e.to_string(),
    };
    study.check(None, head.study.events).map_err(refused)?;
    let kinds = head.study.field.len();
    let mut tally = StudyTally::empty(kinds);
    for (name, part) in ordered {
        let t = &part.tally;
        let fits = t.events == part.shard.to - part.shard.from
            && [&t.firsts, &t.rank_sums, &t.rank_squares]
                .iter()
                .all(|v| v.len() == kinds);
        if !fits {
            return Err(MergeError::Tally {
                part: name.clone(),
                games: part.shard.to - part.shard.from,
            });
        }
        tally = tally.merge(t.clone());
    }
    study.report(&tally).map_err(refused)
}
