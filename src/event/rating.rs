//! Ratings across events: each player's Weng-Lin rating (the model of
//! OpenSkill), from the ranks of every table they played, the events taken
//! in the order they were played (when each seated its first round, as
//! its log's times say), or in the order given. Each table is one free-for-all game of one-player
//! teams, tied players sharing their rank; a bye is no game. The model is
//! the `skillratings` crate's, with its defaults: a new player starts at
//! mu 25 and sigma 25/3, and beta is 25/6. The ratings are computed from
//! the event logs alone (a corrected result in place of the first), so
//! they replay byte for byte. `sunfold schema rating-report` is their
//! shape.
//!
//! Who is who across events: a player whose id was given (by the players
//! file's id column or `event arrive --id`) is the same as the player of
//! another event with the same id. An id of the form `p` and digits is the
//! one sunfold generates, so it says nothing across events: such a player
//! is matched by name, to the one earlier player of that name, with a
//! [`SameByName`] warning. Two earlier players of that name match neither,
//! with a warning too.

use super::entry::Entry;
use super::state::EventState;
use chrono::{DateTime, FixedOffset, SecondsFormat};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::fmt;

/// How many sigmas below mu the conservative rating lies.
pub const SIGMAS: f64 = 3.0;

/// One event log read, with the name it is known by (its path).
#[derive(Clone, Debug)]
pub struct RatedEvent {
    pub name: String,
    pub entries: Vec<Entry>,
    pub state: EventState,
    /// When its first round was seated (or it was created, if none is);
    /// none in a log written before event logs carried times.
    pub played: Option<DateTime<FixedOffset>>,
}

impl RatedEvent {
    /// The event of `log`, known by `name`.
    pub fn of(name: String, log: super::EventLog) -> RatedEvent {
        RatedEvent {
            name,
            played: log.played(),
            entries: log.entries,
            state: log.state,
        }
    }
}

/// The order the events are rated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By when each event seated its first round (or was created, if none
    /// is), earliest first; events of the same time in the order given.
    Played,
    /// As given.
    Given,
}

/// An order of rating that is neither `played` nor `given`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected played or given, but found {found:?}")]
pub struct UnknownOrder {
    pub found: String,
}

impl std::str::FromStr for Order {
    type Err = UnknownOrder;

    /// `played` or `given`.
    fn from_str(name: &str) -> Result<Order, UnknownOrder> {
        match name {
            "played" => Ok(Order::Played),
            "given" => Ok(Order::Given),
            found => Err(UnknownOrder {
                found: found.to_owned(),
            }),
        }
    }
}

/// Why events cannot be rated together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    #[error("expected events of one game, but {first} is of {expected} and {found_in} of {found}")]
    MixedGames {
        first: String,
        expected: &'static str,
        found_in: String,
        found: &'static str,
    },
    #[error("expected each event once, but {again} holds the same event as {first}")]
    SameEvent { first: String, again: String },
    #[error("expected at least one event log, but found none")]
    NoEvent,
    #[error(
        "expected the time each event was played, to rate them in that order, but {undated} has none (it was written before event logs carried times) and {dated} has one; give --order given to rate them in the order given"
    )]
    Undated { undated: String, dated: String },
}

/// The events were rated in the order given though asked for the order
/// played, as none of them says when it was played: said on standard
/// error, never silent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InOrderGiven {
    pub events: Vec<String>,
}

impl fmt::Display for InOrderGiven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no event log given says when it was played (each was written before event logs carried times): the events are rated in the order given: {}",
            self.events.join(", then ")
        )
    }
}

/// What rating said besides the report, on standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    SameByName(SameByName),
    InOrderGiven(InOrderGiven),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::SameByName(w) => w.fmt(f),
            Warning::InOrderGiven(w) => w.fmt(f),
        }
    }
}

/// A player of a later event taken for a player of an earlier one by
/// name alone, or left apart as the name is ambiguous: said on standard
/// error, never silent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SameByName {
    pub name: String,
    pub event: String,
    pub id: String,
    /// The earlier players of that name: (event, id).
    pub earlier: Vec<(String, String)>,
}

impl fmt::Display for SameByName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            name, event, id, ..
        } = self;
        let earlier: Vec<String> = (self.earlier.iter())
            .map(|(event, id)| format!("{id} in {event}"))
            .collect();
        match earlier.as_slice() {
            [one] => write!(
                f,
                "{name:?} ({id} in {event}) is taken for {name:?} ({one}) by name alone: give each player the same id in both players files to be sure"
            ),
            many => write!(
                f,
                "{name:?} ({id} in {event}) is rated apart: its name is that of {}, and no id says which",
                many.join(" and ")
            ),
        }
    }
}

/// The ratings, as `sunfold rating --format json` prints them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct RatingReport {
    /// `soleils` or `summertime`.
    pub game: &'static str,
    /// `weng-lin`: the Bayesian approximation of Weng and Lin (OpenSkill).
    pub model: &'static str,
    /// Every new player's rating: mu 25.
    pub initial_mu: f64,
    /// Every new player's uncertainty: sigma 25/3.
    pub initial_sigma: f64,
    /// The model's beta: the rating difference of a likely win, 25/6.
    pub beta: f64,
    /// The conservative rating is mu minus this many sigmas: 3.
    pub sigmas: f64,
    /// The order the events were rated in: `played` (by when each seated
    /// its first round), or `given` (as asked, or as no event says when
    /// it was played).
    pub order: Order,
    /// The events, in the order they were rated.
    pub events: Vec<EventSummary>,
    /// Every player with at least one table, best first by the
    /// conservative rating.
    pub rows: Vec<RatingRow>,
    /// The players with no table played: not rated.
    pub unrated: Vec<Unrated>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct EventSummary {
    /// The event log, as given.
    pub file: String,
    /// When its first round was seated, RFC 3339 to the second; null in a
    /// log written before event logs carried times.
    pub played: Option<String>,
    /// The tables with a result, each one game rated.
    pub tables: u32,
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct RatingRow {
    /// 1 for the best; equal conservative ratings share a rank.
    pub rank: u32,
    /// The name in the last event they played in.
    pub name: String,
    /// The id in the last event they played in: an id sunfold generated
    /// (`p` and digits) is that event's alone.
    pub id: String,
    /// The last event log they played a table in.
    pub event: String,
    /// The rating's mean.
    pub mu: f64,
    /// The rating's uncertainty: its standard deviation.
    pub sigma: f64,
    /// mu - 3 sigma: the rating the player is very likely above.
    pub conservative: f64,
    /// The tables they played.
    pub tables: u32,
    /// The events they played a table in.
    pub events: u32,
}

/// A player of an event who played no table.
#[derive(Clone, Debug, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Unrated {
    pub name: String,
    pub id: String,
    /// The event log they are in.
    pub event: String,
}

/// Whether `id` is of the form sunfold generates (`p` and digits), and so
/// says nothing about who the player is across events.
pub fn generated_id(id: &str) -> bool {
    id.strip_prefix('p')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A player across events.
struct Known {
    /// The given id, if any appearance had one.
    given: Option<String>,
    name: String,
    id: String,
    /// The last event they played a table in.
    event: String,
    /// Every (event, id) they appear as.
    seen: Vec<(String, String)>,
    rating: WengLinRating,
    tables: u32,
    events: u32,
}

/// The events in the order to rate them, and the order it is: by when
/// they were played if asked and every event says it; in the order given
/// if asked, or if none says it (with a warning); refused if some say it
/// and some do not.
fn ordered(
    events: &[RatedEvent],
    order: Order,
) -> Result<(Vec<&RatedEvent>, Order, Option<InOrderGiven>), RatingError> {
    let mut sorted: Vec<&RatedEvent> = events.iter().collect();
    if order == Order::Given {
        return Ok((sorted, Order::Given, None));
    }
    let undated = events.iter().find(|e| e.played.is_none());
    match (undated, events.iter().find(|e| e.played.is_some())) {
        (None, _) => {
            sorted.sort_by_key(|e| e.played);
            Ok((sorted, Order::Played, None))
        }
        (Some(_), None) => {
            let events = events.iter().map(|e| e.name.clone()).collect();
            Ok((sorted, Order::Given, Some(InOrderGiven { events })))
        }
        (Some(undated), Some(dated)) => Err(RatingError::Undated {
            undated: undated.name.clone(),
            dated: dated.name.clone(),
        }),
    }
}

/// Rates the players of `events`, in the order asked: the report, and
/// what it says besides (the players matched, or not, by name alone; the
/// order given taken for want of times).
pub fn rate(
    events: &[RatedEvent],
    order: Order,
) -> Result<(RatingReport, Vec<Warning>), RatingError> {
    let first = events.first().ok_or(RatingError::NoEvent)?;
    let game = first.state.setup.game;
    for (i, event) in events.iter().enumerate() {
        if event.state.setup.game != game {
            return Err(RatingError::MixedGames {
                first: first.name.clone(),
                expected: game.name(),
                found_in: event.name.clone(),
                found: event.state.setup.game.name(),
            });
        }
        let same = |earlier: &RatedEvent| {
            let n = earlier.entries.len().min(event.entries.len());
            earlier.entries[..n] == event.entries[..n]
        };
        if let Some(earlier) = events[..i].iter().find(|e| same(e)) {
            return Err(RatingError::SameEvent {
                first: earlier.name.clone(),
                again: event.name.clone(),
            });
        }
    }
    let (events, order, in_order_given) = ordered(events, order)?;
    let config = WengLinConfig::new();
    let mut known: Vec<Known> = Vec::new();
    let mut warnings = Vec::new();
    let mut summaries = Vec::new();
    let mut unrated = Vec::new();
    for event in events {
        let index = identify(event, &mut known, &mut warnings);
        let mut tables = 0;
        let mut played = vec![false; event.state.entrants.len()];
        for round in &event.state.rounds {
            for result in round.results.values() {
                // A bot is never rated, nor rates the people it played: the
                // people of its table are rated among themselves, by their
                // places there, and a person alone with bots not at all.
                let seats: Vec<_> = (result.seats.iter()).filter(|s| s.bot.is_none()).collect();
                if seats.len() < 2 {
                    continue;
                }
                let at: Vec<usize> = (seats.iter())
                    .map(|s| {
                        (event.state.entrants.iter())
                            .position(|e| e.player.id == s.id)
                            .expect("a result's players are the event's")
                    })
                    .collect();
                let teams: Vec<[WengLinRating; 1]> =
                    at.iter().map(|&e| [known[index[e]].rating]).collect();
                let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = (teams.iter())
                    .zip(&seats)
                    .map(|(team, seat)| (&team[..], MultiTeamOutcome::new(seat.rank as usize)))
                    .collect();
                let after = weng_lin_multi_team(&ranked, &config);
                for (&e, new) in at.iter().zip(after) {
                    let player = &mut known[index[e]];
                    player.rating = new[0];
                    player.tables += 1;
                    let entrant = &event.state.entrants[e].player;
                    (player.name, player.id) = (entrant.name.clone(), entrant.id.clone());
                    player.event = event.name.clone();
                    played[e] = true;
                }
                tables += 1;
            }
        }
        for (e, entrant) in event.state.entrants.iter().enumerate() {
            if played[e] {
                known[index[e]].events += 1;
            } else {
                unrated.push((index[e], entrant.player.clone(), event.name.clone()));
            }
        }
        summaries.push(EventSummary {
            file: event.name.clone(),
            played: (event.played).map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true)),
            tables,
        });
    }
    let mut rows: Vec<RatingRow> = (known.iter())
        .filter(|k| k.tables > 0)
        .map(|k| RatingRow {
            rank: 0,
            name: k.name.clone(),
            id: k.id.clone(),
            event: k.event.clone(),
            mu: k.rating.rating,
            sigma: k.rating.uncertainty,
            conservative: k.rating.rating - SIGMAS * k.rating.uncertainty,
            tables: k.tables,
            events: k.events,
        })
        .collect();
    let by_rating = |a: &RatingRow, b: &RatingRow| b.conservative.total_cmp(&a.conservative);
    rows.sort_by(|a, b| by_rating(a, b).then_with(|| a.name.cmp(&b.name)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && by_rating(&rows[i - 1], &rows[i]).is_eq() {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    // A player in several events with no table is listed once, as last seen.
    let mut listed = Vec::new();
    let mut unrated: Vec<Unrated> = (unrated.into_iter().rev())
        .filter(|(k, _, _)| {
            known[*k].tables == 0 && !listed.contains(k) && {
                listed.push(*k);
                true
            }
        })
        .map(|(_, player, event)| Unrated {
            name: player.name,
            id: player.id,
            event,
        })
        .collect();
    unrated.reverse();
    let fresh = WengLinRating::new();
    let report = RatingReport {
        game: game.name(),
        model: "weng-lin",
        initial_mu: fresh.rating,
        initial_sigma: fresh.uncertainty,
        beta: config.beta,
        sigmas: SIGMAS,
        order,
        events: summaries,
        rows,
        unrated,
    };
    let warnings = (in_order_given.map(Warning::InOrderGiven).into_iter())
        .chain(warnings.into_iter().map(Warning::SameByName))
        .collect();
    Ok((report, warnings))
}

/// The known player each entrant of `event` is, in entrant order: matched
/// by a given id first, then by name, else a new player.
fn identify(
    event: &RatedEvent,
    known: &mut Vec<Known>,
    warnings: &mut Vec<SameByName>,
) -> Vec<usize> {
    let before = known.len();
    let entrants = &event.state.entrants;
    let mut index: Vec<Option<usize>> = vec![None; entrants.len()];
    for (e, entrant) in entrants.iter().enumerate() {
        let id = &entrant.player.id;
        if !generated_id(id) {
            index[e] = known[..before]
                .iter()
                .position(|k| k.given.as_deref() == Some(id.as_str()));
        }
    }
    for (e, entrant) in entrants.iter().enumerate() {
        if index[e].is_some() {
            continue;
        }
        let (name, id) = (&entrant.player.name, &entrant.player.id);
        let given = !generated_id(id);
        let taken = |k: usize| index.contains(&Some(k));
        // A given id matches by name only a player whose id was never given.
        let candidates: Vec<usize> = (0..before)
            .filter(|&k| &known[k].name == name)
            .filter(|&k| !(taken(k) || given && known[k].given.is_some()))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        warnings.push(SameByName {
            name: name.clone(),
            event: event.name.clone(),
            id: id.clone(),
            earlier: (candidates.iter())
                .flat_map(|&k| known[k].seen.last().cloned())
                .collect(),
        });
        if let [one] = candidates[..] {
            index[e] = Some(one);
        }
    }
    (entrants.iter().zip(index))
        .map(|(entrant, k)| {
            let (name, id) = (&entrant.player.name, &entrant.player.id);
            let given = (!generated_id(id)).then(|| id.clone());
            let k = k.unwrap_or_else(|| {
                known.push(Known {
                    given: None,
                    name: name.clone(),
                    id: id.clone(),
                    event: event.name.clone(),
                    seen: Vec::new(),
                    rating: WengLinRating::new(),
                    tables: 0,
                    events: 0,
                });
                known.len() - 1
            });
            let player = &mut known[k];
            player.given = player.given.take().or(given);
            player.seen.push((event.name.clone(), id.clone()));
            k
        })
        .collect()
}

/// `28.41`.
fn two(value: f64) -> String {
    format!("{value:.2}")
}

impl RatingReport {
    /// The ratings as a text table, one row a player.
    pub fn text(&self) -> String {
        let files: Vec<String> = (self.events.iter())
            .map(|e| match (&e.played, self.order) {
                (Some(played), Order::Played) => format!("{} ({played})", e.file),
                _ => e.file.clone(),
            })
            .collect();
        let mut out = format!(
            "{} ratings (Weng-Lin) from {} event{}, in the order {}: {}\n",
            self.game,
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            match self.order {
                Order::Played => "played",
                Order::Given => "given",
            },
            files.join(", then ")
        );
        if self.rows.is_empty() {
            out.push_str("no player has played a table: no one is rated\n");
        } else {
            // A generated id is its event's alone: shown with the event.
            let ids: Vec<String> = (self.rows.iter())
                .map(|r| match generated_id(&r.id) {
                    true => format!("{} in {}", r.id, r.event),
                    false => r.id.clone(),
                })
                .collect();
            let width = |texts: &mut dyn Iterator<Item = &str>| {
                texts.map(crate::kit::columns::width).max().unwrap_or(0)
            };
            let name = width(&mut self.rows.iter().map(|r| r.name.as_str())).max(4);
            let id = width(&mut ids.iter().map(String::as_str)).max(2);
            out.push_str(&format!(
                "{:>4}  {:<name$}  {:<id$}  {:>6}  {:>5}  {:>9}  {:>6}  {:>6}\n",
                "rank", "name", "id", "mu", "sigma", "mu-3sigma", "tables", "events"
            ));
            for (r, shown) in self.rows.iter().zip(&ids) {
                out.push_str(&format!(
                    "{:>4}  {}  {}  {:>6}  {:>5}  {:>9}  {:>6}  {:>6}\n",
                    r.rank,
                    crate::kit::columns::left(&r.name, name),
                    crate::kit::columns::left(shown, id),
                    two(r.mu),
                    two(r.sigma),
                    two(r.conservative),
                    r.tables,
                    r.events
                ));
            }
        }
        if !self.unrated.is_empty() {
            let names: Vec<String> = (self.unrated.iter())
                .map(|u| format!("{} ({} in {})", u.name, u.id, u.event))
                .collect();
            out.push_str(&format!(
                "not rated, with no table played: {}\n",
                names.join(", ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::entry::{Player, SeatResult, SeatedTable, TableResult};

    /// An event of `players` (name, id) playing `tables`, each a list of
    /// (id, rank) in seat order, one round a table.
    fn event(name: &str, players: &[(&str, &str)], tables: &[&[(&str, u32)]]) -> RatedEvent {
        let mut entries = vec![Entry::Created {
            format: crate::event::EVENT_FORMAT,
            game: crate::event::EventGame::Soleils,
            table_size: 4,
            rounds: tables.len().max(1) as u32,
            points: vec![1, 0],
            seed: 1,
            tie_breaks: Vec::new(),
            leftover: Default::default(),
            template: None,
            options: None,
            deck: None,
        }];
        for (name, id) in players {
            let (name, id) = (name.to_string(), id.to_string());
            entries.push(Entry::Registered(Player { id, name }));
        }
        for (i, table) in tables.iter().enumerate() {
            let round = i as u32 + 1;
            let ids: Vec<String> = table.iter().map(|(id, _)| id.to_string()).collect();
            let bye = (players.iter())
                .map(|(_, id)| id.to_string())
                .filter(|id| !ids.contains(id))
                .collect();
            let players = ids.clone();
            let tables = vec![SeatedTable::of_players(1, players)];
            entries.push(Entry::Seated {
                round,
                tables,
                bye,
                out: Vec::new(),
            });
            entries.push(Entry::Result(TableResult {
                round,
                table: 1,
                hash: String::new(),
                ended: String::new(),
                seats: (table.iter())
                    .map(|&(id, rank)| SeatResult {
                        id: id.to_owned(),
                        score: 0,
                        rank,
                        bot: None,
                    })
                    .collect(),
                reason: None,
            }));
        }
        let mut state = EventState::created(&entries[0]).unwrap();
        for entry in &entries[1..] {
            state.apply(entry).unwrap();
        }
        let name = name.to_owned();
        RatedEvent {
            name,
            entries,
            state,
            played: None,
        }
    }

    /// `event` played at `time` (RFC 3339).
    fn at(mut event: RatedEvent, time: &str) -> RatedEvent {
        event.played = Some(DateTime::parse_from_rfc3339(time).unwrap());
        event
    }

    #[test]
    fn who_wins_every_table_is_rated_first_and_a_tie_shares() {
        let players = [("Ann", "ann"), ("Bob", "bob"), ("Cid", "cid")];
        let won: &[(&str, u32)] = &[("ann", 1), ("bob", 2), ("cid", 2)];
        let (report, warnings) =
            rate(&[event("a", &players, &[won, won, won])], Order::Given).unwrap();
        assert!(warnings.is_empty());
        let names: Vec<(&str, u32)> = (report.rows.iter())
            .map(|r| (r.name.as_str(), r.rank))
            .collect();
        assert_eq!(names, [("Ann", 1), ("Bob", 2), ("Cid", 2)]);
        assert!(report.rows[0].sigma < report.initial_sigma);
        assert_eq!(report.rows[0].tables, 3);
    }

    #[test]
    fn a_given_id_joins_events_and_a_generated_one_matches_by_name() {
        let first = event(
            "a",
            &[("Ann", "ann"), ("Bob", "p2"), ("Cid", "p3")],
            &[&[("ann", 1), ("p2", 2)]],
        );
        let second = event(
            "b",
            &[("Ann B.", "ann"), ("Bob", "p1"), ("Cid", "cid")],
            &[&[("ann", 1), ("p1", 2)]],
        );
        let (report, warnings) = rate(&[first, second], Order::Given).unwrap();
        let ann = &report.rows[0];
        assert_eq!(
            (ann.name.as_str(), ann.tables, ann.events),
            ("Ann B.", 2, 2)
        );
        let said: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "\"Bob\" (p1 in b) is taken for \"Bob\" (p2 in a) by name alone: give each player the same id in both players files to be sure",
                "\"Cid\" (cid in b) is taken for \"Cid\" (p3 in a) by name alone: give each player the same id in both players files to be sure",
            ]
        );
        assert_eq!(report.rows.len(), 2);
        let unrated: Vec<&str> = report.unrated.iter().map(|u| u.id.as_str()).collect();
        assert_eq!(unrated, ["cid"], "Cid played no table in either event");
    }

    #[test]
    fn mixed_games_and_an_event_given_twice_are_refused() {
        let a = event("a", &[("Ann", "ann"), ("Bob", "bob")], &[]);
        let mut b = a.clone();
        b.name = "b".into();
        let error = rate(&[a.clone(), b], Order::Given).unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected each event once, but b holds the same event as a"
        );
        let mut c = event("c", &[("Cid", "cid"), ("Dee", "dee")], &[]);
        c.state.setup.game = crate::event::EventGame::Summertime;
        let error = rate(&[a, c], Order::Given).unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected events of one game, but a is of soleils and c of summertime"
        );
    }

    /// Ann wins the first event and loses the second: rated last, the
    /// loss weighs more.
    fn seasons() -> (RatedEvent, RatedEvent) {
        let players = [("Ann", "ann"), ("Bob", "bob")];
        let spring = event("spring", &players, &[&[("ann", 1), ("bob", 2)]]);
        let autumn = event("autumn", &players, &[&[("ann", 2), ("bob", 1)]]);
        (spring, autumn)
    }

    #[test]
    fn events_are_rated_in_the_order_they_were_played_whatever_the_order_given() {
        let (spring, autumn) = seasons();
        let spring = at(spring, "2026-04-01T10:00:00+02:00");
        let autumn = at(autumn, "2026-10-01T10:00:00+02:00");
        let given = [autumn.clone(), spring.clone()];
        let (played, warnings) = rate(&given, Order::Played).unwrap();
        assert!(warnings.is_empty());
        let (in_time, _) = rate(&[spring, autumn], Order::Given).unwrap();
        assert_eq!(played.rows, in_time.rows);
        assert_eq!(played.order, Order::Played);
        let files: Vec<(&str, Option<&str>)> = (played.events.iter())
            .map(|e| (e.file.as_str(), e.played.as_deref()))
            .collect();
        assert_eq!(
            files,
            [
                ("spring", Some("2026-04-01T10:00:00+02:00")),
                ("autumn", Some("2026-10-01T10:00:00+02:00"))
            ]
        );
        assert_eq!(played.rows[0].name, "Bob", "Bob won last");
        let (as_given, _) = rate(&given, Order::Given).unwrap();
        assert_eq!(as_given.rows[0].name, "Ann", "given, Ann won last");
        assert!(played.text().starts_with(
            "soleils ratings (Weng-Lin) from 2 events, in the order played: spring (2026-04-01T10:00:00+02:00), then autumn (2026-10-01T10:00:00+02:00)\n"
        ));
    }

    #[test]
    fn events_with_no_time_are_rated_as_given_with_a_warning_and_never_mixed() {
        let (spring, autumn) = seasons();
        let (report, warnings) = rate(&[autumn.clone(), spring.clone()], Order::Played).unwrap();
        assert_eq!(report.order, Order::Given);
        assert_eq!(report.rows[0].name, "Ann");
        let said: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [
                "no event log given says when it was played (each was written before event logs carried times): the events are rated in the order given: autumn, then spring"
            ]
        );
        let spring = at(spring, "2026-04-01T10:00:00+02:00");
        let error = rate(&[spring.clone(), autumn.clone()], Order::Played).unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected the time each event was played, to rate them in that order, but autumn has none (it was written before event logs carried times) and spring has one; give --order given to rate them in the order given"
        );
        let (report, warnings) = rate(&[spring, autumn], Order::Given).unwrap();
        assert_eq!((report.order, warnings.len()), (Order::Given, 0));
    }
}
