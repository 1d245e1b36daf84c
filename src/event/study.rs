//! A format study: whole events played in memory by bots of known
//! strength, to answer the organiser's question of how often the strongest
//! player finishes first with this many rounds, these points or these
//! tie-breaks. Each event is seated and standed exactly as a real one
//! (the same seating, points and tie-breaks), its tables played by
//! [`crate::bots::play`] from seeds drawn from the study's seed and the
//! event's number, so the figures are the same on any number of threads,
//! and the same seed plays the same first rounds whatever the number of
//! rounds or the tie-breaks. `sunfold schema event-study` is the report's
//! shape.

use super::entry::{Entry, EventGame, Leftover, Player, SeatResult, TableResult, TieBreak};
use super::error::EventError;
use super::request::{NewEvent, created};
use super::seat::{NextRound, SeatBy, next_round};
use super::standings::standings;
use super::state::{EventState, Setup, TableRules};
use super::tables::table_seed;
use crate::bots::{Bot, VariantInfo};
use crate::report::kit::style::plural;
use crate::soleils::Soleils;
use crate::stats::{Estimate, mean_of, share_of};
use crate::summertime::Summertime;
use crate::workbench::game_seed;
use std::ops::Range;

/// The format studied and the field that plays it.
#[derive(Clone, Debug)]
pub struct Study {
    /// The event's setup as `sunfold event new` takes it; its seed is the
    /// study's, from which each event's is drawn.
    pub setup: NewEvent,
    /// Each bot and how many players it plays, in the order given.
    pub field: Vec<(Bot, u32)>,
}

/// Why an entry of `--field` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldError {
    #[error("expected BOT=COUNT, such as greedy=6, but found {found:?}")]
    Shape { found: String },
    #[error("{0}")]
    Bot(#[from] crate::bots::BotError),
    #[error("expected a whole number of players after '=', but found {found:?}")]
    Count { found: String },
}

/// One entry of a field written `BOT=COUNT`, such as `greedy=6`.
pub fn field_entry(text: &str) -> Result<(Bot, u32), FieldError> {
    let Some((bot, count)) = text.rsplit_once('=') else {
        let found = text.to_owned();
        return Err(FieldError::Shape { found });
    };
    let bot = Bot::parse(bot)?;
    let count = (count.trim().parse::<u32>()).map_err(|_| FieldError::Count {
        found: count.to_owned(),
    })?;
    Ok((bot, count))
}

/// What the events of a study add up to: exact counts, so that tallies of
/// any split of the events merge to the same figures.
#[derive(
    Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct StudyTally {
    pub events: u64,
    /// By the field's entries: events won by one of its players.
    pub firsts: Vec<u64>,
    /// By the field's entries: the sum of its players' final ranks.
    pub rank_sums: Vec<u64>,
    /// By the field's entries: the sum of the squares of those ranks.
    pub rank_squares: Vec<u64>,
}

impl StudyTally {
    pub fn empty(kinds: usize) -> StudyTally {
        StudyTally {
            events: 0,
            firsts: vec![0; kinds],
            rank_sums: vec![0; kinds],
            rank_squares: vec![0; kinds],
        }
    }

    /// The two tallies added up.
    pub fn merge(mut self, other: StudyTally) -> StudyTally {
        self.events += other.events;
        let add = |a: &mut Vec<u64>, b: &[u64]| a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        add(&mut self.firsts, &other.firsts);
        add(&mut self.rank_sums, &other.rank_sums);
        add(&mut self.rank_squares, &other.rank_squares);
        self
    }
}

impl Study {
    /// The number of players in the field.
    pub fn players(&self) -> u32 {
        self.field.iter().map(|(_, n)| n).sum()
    }

    /// The index in the field of the strongest bot (the first of equals).
    pub fn strongest(&self) -> usize {
        let mut best = 0;
        for (i, (bot, _)) in self.field.iter().enumerate() {
            if bot.strength() > self.field[best].0.strength() {
                best = i;
            }
        }
        best
    }

    /// Checks the study as `sunfold event new` checks an event, that the
    /// field adds up to `players` if given, has no bot twice and enough
    /// players for a table, and that it plays some events.
    pub fn check(&self, players: Option<u32>, events: u64) -> Result<(), EventError> {
        if let Some(expected) = players
            && expected != self.players()
        {
            let found = self.players();
            return Err(EventError::FieldCount { expected, found });
        }
        if events == 0 {
            return Err(EventError::NoEvents);
        }
        for (i, (bot, n)) in self.field.iter().enumerate() {
            if *n == 0 {
                return Err(EventError::Setup {
                    what: "at least one player for each bot of the field",
                    found: format!("{}=0", bot.name()),
                });
            }
            if self.field[..i].iter().any(|(b, _)| b == bot) {
                return Err(EventError::Setup {
                    what: "each bot once in the field",
                    found: format!("{} twice", bot.name()),
                });
            }
        }
        self.event(0)?;
        let (min, _) = super::state::table_sizes(self.setup.game);
        let found = self.players() as usize;
        if found < min {
            return Err(EventError::TooFewPlayers {
                round: 1,
                min,
                found,
            });
        }
        Ok(())
    }

    /// The event's setup, its defaults filled in.
    pub fn setup_filled(&self) -> Result<Setup, EventError> {
        Ok(EventState::created(&created(self.setup.clone(), self.players() as usize)?)?.setup)
    }

    /// Event `i` of the study, created and registered, nothing seated.
    fn event(&self, i: u64) -> Result<EventState, EventError> {
        let mut setup = self.setup.clone();
        setup.seed = game_seed(self.setup.seed, i);
        let mut state = EventState::created(&created(setup, self.players() as usize)?)?;
        let mut n = 0;
        for (bot, count) in &self.field {
            for k in 1..=*count {
                n += 1;
                state.apply(&Entry::Registered(Player {
                    id: format!("p{n}"),
                    name: format!("{} #{k}", bot.name()),
                }))?;
            }
        }
        Ok(state)
    }

    /// Plays events `events` on the current thread pool, the same on any
    /// number of threads.
    pub fn tally(&self, events: Range<u64>) -> Result<StudyTally, EventError> {
        let kinds = self.field.len();
        crate::workbench::batches(
            events,
            || StudyTally::empty(kinds),
            |tally, i| self.play(tally, i),
            StudyTally::merge,
            |_| {},
        )
    }

    /// The field's entry each player (`p1`, `p2`, …) plays for.
    fn kind_of(&self, id: &str) -> usize {
        let n: u32 = id[1..].parse().expect("the study's own ids");
        let mut upto = 0;
        for (k, (_, count)) in self.field.iter().enumerate() {
            upto += count;
            if n <= upto {
                return k;
            }
        }
        unreachable!("every id is in the field")
    }

    /// Plays event `i` to its last round and adds it to `tally`.
    pub fn play(&self, tally: &mut StudyTally, i: u64) -> Result<(), EventError> {
        let mut state = self.event(i)?;
        let seed = state.setup.seed;
        for round in 1..=state.setup.rounds {
            let NextRound { tables, bye, out } = next_round(&state, &SeatBy::Draw, None)?;
            state.apply(&Entry::Seated {
                round,
                tables: tables.clone(),
                bye,
                out,
            })?;
            for table in tables {
                let bots: Vec<Bot> = (table.players.iter())
                    .map(|id| self.field[self.kind_of(id)].0)
                    .collect();
                let seed = table_seed(seed, round, table.table);
                let totals = match state.setup.game {
                    EventGame::Soleils => {
                        let variant = state.setup.rules.soleils();
                        crate::bots::play::<Soleils>(&variant, bots.len(), &bots, seed).totals
                    }
                    EventGame::Summertime => {
                        let variant = state.setup.rules.summertime();
                        crate::bots::play::<Summertime>(&variant, bots.len(), &bots, seed).totals
                    }
                };
                let seats = (table.players.iter().zip(&totals))
                    .map(|(id, score)| SeatResult {
                        id: id.clone(),
                        score: *score,
                        rank: 1 + totals.iter().filter(|t| *t > score).count() as u32,
                        bot: None,
                    })
                    .collect();
                state.apply(&Entry::Result(TableResult {
                    round,
                    table: table.table,
                    hash: String::new(),
                    ended: "played by bots".to_owned(),
                    seats,
                    reason: None,
                }))?;
            }
        }
        let rows = standings(&state).rows;
        tally.events += 1;
        if let Some(first) = rows.first() {
            tally.firsts[self.kind_of(&first.id)] += 1;
        }
        for row in &rows {
            let k = self.kind_of(&row.id);
            tally.rank_sums[k] += u64::from(row.rank);
            tally.rank_squares[k] += u64::from(row.rank).pow(2);
        }
        Ok(())
    }

    /// The report of `tally`.
    pub fn report(&self, tally: &StudyTally) -> Result<StudyReport, EventError> {
        let setup = self.setup_filled()?;
        let strongest = self.strongest();
        let share = |firsts: u64| share_of(firsts, tally.events);
        let field = (self.field.iter().enumerate())
            .map(|(k, (bot, players))| {
                let n = tally.events * u64::from(*players);
                let (sum, squares) = (tally.rank_sums[k], tally.rank_squares[k]);
                FieldRow {
                    bot: *bot,
                    players: *players,
                    first: tally.firsts[k],
                    first_share: share(tally.firsts[k]),
                    mean_rank: within(mean_of(sum, squares, n), 1.0, f64::from(self.players())),
                }
            })
            .collect();
        Ok(StudyReport {
            game: setup.game.name(),
            players: self.players(),
            rounds: setup.rounds,
            table_size: setup.table_size,
            leftover: setup.leftover,
            tables: (setup.rules != TableRules::default()).then(|| match setup.game {
                EventGame::Soleils => setup.rules.soleils().info(),
                EventGame::Summertime => setup.rules.summertime().info(),
            }),
            points: setup.points,
            tie_breaks: setup.tie_breaks,
            events: tally.events,
            seed: self.setup.seed,
            strongest: self.field[strongest].0,
            strongest_first: share(tally.firsts[strongest]),
            field,
        })
    }
}

/// `estimate` with its interval cut to the values it can take.
fn within(mut estimate: Estimate, low: f64, high: f64) -> Estimate {
    estimate.ci95 = estimate.ci95.map(|x| x.clamp(low, high));
    estimate
}

/// What `sunfold event simulate` prints.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct StudyReport {
    /// `soleils` or `summertime`.
    pub game: &'static str,
    pub players: u32,
    pub rounds: u32,
    pub table_size: u32,
    /// `larger` when the seats left over make tables one seat over
    /// `table_size`; left out when they make smaller ones.
    #[serde(default, skip_serializing_if = "Leftover::is_smaller")]
    pub leftover: Leftover,
    /// The sheet (with its rule options) or deck every table plays, when
    /// the study names one; left out for the bundled sheet or deck under
    /// the default options. Its `source` is `event` for a sheet or deck
    /// given, `bundled` for options on the bundled sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<VariantInfo>,
    pub points: Vec<u32>,
    pub tie_breaks: Vec<TieBreak>,
    /// The events played, each one whole event of every round.
    pub events: u64,
    pub seed: u64,
    /// The strongest bot of the field.
    pub strongest: Bot,
    /// The share of events one of the strongest bot's players won, with
    /// its 95% Wilson interval; the events are the independent draws.
    pub strongest_first: Estimate,
    /// Each bot of the field, in the order given.
    pub field: Vec<FieldRow>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct FieldRow {
    pub bot: Bot,
    /// How many players of each event it plays.
    pub players: u32,
    /// The events one of them won.
    pub first: u64,
    /// That share of the events, with its 95% Wilson interval.
    pub first_share: Estimate,
    /// Their mean final rank (1 the best), with its 95% interval from the
    /// normal approximation, cut to the ranks there are, over every player
    /// of every event: the players of one event are not independent, so
    /// the interval is narrower than the truth when the bot plays more
    /// than one.
    pub mean_rank: Estimate,
}

impl StudyReport {
    pub fn text(&self) -> String {
        // A share and its interval, the interval's name written before it.
        let share_in = |e: &Estimate, interval: &str| {
            format!(
                "{:.1}% ({interval}{:.1}% to {:.1}%)",
                100.0 * e.estimate,
                100.0 * e.ci95[0],
                100.0 * e.ci95[1]
            )
        };
        let tie_breaks: Vec<&str> = self.tie_breaks.iter().map(|t| t.name()).collect();
        let points: Vec<String> = self.points.iter().map(u32::to_string).collect();
        let tables = match self.leftover {
            Leftover::Smaller => format!("at most {}", self.table_size),
            Leftover::Larger => format!("{} or one more", self.table_size),
        };
        let mut out = format!(
            "{} of {}, {} at tables of {tables} ({}), seed {}\n",
            plural(self.events, "event", "events"),
            plural(self.players as u64, "player", "players"),
            plural(u64::from(self.rounds), "round", "rounds"),
            self.game,
            self.seed
        );
        if let Some(tables) = &self.tables {
            let options: Vec<String> = (tables.options.iter())
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            out.push_str(&format!("every table plays {:?}", tables.name));
            if !options.is_empty() {
                out.push_str(&format!(" under {}", options.join(", ")));
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "points {}; ties broken by {}\n",
            points.join(","),
            tie_breaks.join(", then ")
        ));
        let of = self.field.iter().find(|r| r.bot == self.strongest);
        let n = of.map_or(0, |r| r.players);
        out.push_str(&format!(
            "the strongest, {} ({} player{}), finishes first in {}\n\n",
            self.strongest.name(),
            n,
            if n == 1 { "" } else { "s" },
            share_in(&self.strongest_first, "95% interval ")
        ));
        let mut rows = vec![[
            "bot".to_owned(),
            "players".to_owned(),
            "first".to_owned(),
            "first, share (95% interval)".to_owned(),
            "mean rank (95% interval)".to_owned(),
        ]];
        for row in &self.field {
            let rank = &row.mean_rank;
            rows.push([
                row.bot.name(),
                row.players.to_string(),
                row.first.to_string(),
                share_in(&row.first_share, ""),
                format!(
                    "{:.2} ({:.2} to {:.2})",
                    rank.estimate, rank.ci95[0], rank.ci95[1]
                ),
            ]);
        }
        let widths: Vec<usize> = (0..5)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for row in &rows {
            let cells: Vec<String> = (row.iter().enumerate())
                .map(|(c, cell)| match c {
                    1 | 2 => format!("{cell:>w$}", w = widths[c]),
                    _ => format!("{cell:<w$}", w = widths[c]),
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out
    }
}
