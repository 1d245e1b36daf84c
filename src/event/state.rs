//! What an event log describes: its setup, its players and who is
//! present, the rounds seated and the results attached. Each entry is
//! checked against the event as it stands before it changes it, so a
//! refused entry changes nothing.

use super::entry::Sitter;
use super::entry::{
    EVENT_FORMAT, Entry, EventGame, Leftover, Player, SeatedTable, TableResult, TieBreak,
};
use super::error::EventError;
use crate::bots::Bot;
use crate::soleils::Options;
use crate::soleils::template::{RawTemplate, Template};
use crate::summertime::deck::{Deck, RawDeck};
use std::collections::BTreeMap;

/// The event's setup, from its `created` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub game: EventGame,
    pub table_size: u32,
    pub rounds: u32,
    pub points: Vec<u32>,
    pub seed: u64,
    pub tie_breaks: Vec<TieBreak>,
    pub leftover: Leftover,
    /// What every table plays, beyond the game.
    pub rules: TableRules,
}

/// What every table of an event plays beyond the game, each left out for
/// the bundled sheet or deck and the default options.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableRules {
    /// 62 Soleils: the sheet template.
    pub template: Option<Box<RawTemplate>>,
    /// 62 Soleils: the rule options.
    pub options: Option<Options>,
    /// Summertime: the deck.
    pub deck: Option<Box<RawDeck>>,
}

impl TableRules {
    /// Each part checked against the game: a sheet and options for 62
    /// Soleils, a deck for Summertime, each valid.
    fn check(&self, game: EventGame) -> Result<(), EventError> {
        let setup = |what, found: String| Err(EventError::Setup { what, found });
        match game {
            EventGame::Soleils if self.deck.is_some() => setup(
                "a sheet template for the tables of a soleils event",
                "a deck".into(),
            ),
            EventGame::Summertime if self.template.is_some() || self.options.is_some() => setup(
                "no sheet template or rule options for the tables of a summertime event, which play a deck",
                match self.template {
                    Some(_) => "a sheet template".into(),
                    None => "rule options".into(),
                },
            ),
            _ if self.options.is_some_and(|o| o.solo) => setup(
                "rule options without solo, since every table seats two players or more",
                "solo=true".into(),
            ),
            _ => {
                if let Some(raw) = &self.template
                    && let Err(e) = Template::try_from((**raw).clone())
                {
                    return setup("a valid sheet template", e.to_string());
                }
                if let Some(raw) = &self.deck
                    && let Err(e) = Deck::try_from((**raw).clone())
                {
                    return setup("a valid deck", e.to_string());
                }
                Ok(())
            }
        }
    }
}

/// A player and the rounds they are there for.
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    pub player: Player,
    /// The first round they can be seated in.
    pub from: u32,
    /// The first round they are no longer seated in, once dropped.
    pub until: Option<u32>,
}

/// A round seated, and the results of its tables so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub round: u32,
    pub tables: Vec<SeatedTable>,
    pub bye: Vec<String>,
    /// The players who do not play the round, without a bye.
    pub out: Vec<String>,
    /// The standing result of each table (the last correction), by table.
    pub results: BTreeMap<u32, TableResult>,
}

impl Round {
    /// Its table `table`, or why it has none.
    pub fn table(&self, table: u32) -> Result<&SeatedTable, EventError> {
        (self.tables.iter().find(|t| t.table == table)).ok_or(EventError::UnknownTable {
            round: self.round,
            tables: self.tables.len() as u32,
            table,
        })
    }

    /// The first table without a result, if any.
    pub fn open_table(&self) -> Option<u32> {
        (self.tables.iter())
            .map(|t| t.table)
            .find(|t| !self.results.contains_key(t))
    }
}

/// The event as its log describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct EventState {
    pub setup: Setup,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<Round>,
    pub closed: bool,
}

/// The table sizes a game allows.
pub fn table_sizes(game: EventGame) -> (usize, usize) {
    match game {
        EventGame::Soleils => (2, crate::soleils::MAX_PLAYERS),
        EventGame::Summertime => (2, 2),
    }
}

impl EventState {
    /// The event its first entry creates.
    pub fn created(entry: &Entry) -> Result<EventState, EventError> {
        let Entry::Created {
            format,
            game,
            table_size,
            rounds,
            points,
            seed,
            tie_breaks,
            leftover,
            template,
            options,
            deck,
        } = entry
        else {
            let found = entry.kind().to_owned();
            return Err(EventError::NotCreated { found });
        };
        if *format != EVENT_FORMAT {
            let (expected, found) = (EVENT_FORMAT, *format);
            return Err(EventError::Format { expected, found });
        }
        let (min, max) = table_sizes(*game);
        if !(min..=max).contains(&(*table_size as usize)) {
            return Err(EventError::Setup {
                what: match game {
                    EventGame::Soleils => "a table size from 2 to 12",
                    EventGame::Summertime => "a table size of 2 for summertime",
                },
                found: table_size.to_string(),
            });
        }
        if *game == EventGame::Summertime && *leftover != Leftover::Smaller {
            let found = format!("{} tables", leftover.name());
            let what =
                "no choice of leftover tables in summertime, where the odd player out has a bye";
            return Err(EventError::Setup { what, found });
        }
        let rules = TableRules {
            template: template.clone(),
            options: *options,
            deck: deck.clone(),
        };
        rules.check(*game)?;
        if *rounds == 0 || points.is_empty() {
            let found = format!("{rounds} rounds and {} points", points.len());
            let what = "at least one round and the points of one rank";
            return Err(EventError::Setup { what, found });
        }
        Ok(EventState {
            setup: Setup {
                game: *game,
                table_size: *table_size,
                rounds: *rounds,
                points: points.clone(),
                seed: *seed,
                tie_breaks: tie_breaks.clone(),
                leftover: *leftover,
                rules,
            },
            entrants: Vec::new(),
            rounds: Vec::new(),
            closed: false,
        })
    }

    /// The number of rounds seated.
    pub fn seated(&self) -> u32 {
        self.rounds.len() as u32
    }

    pub fn entrant(&self, id: &str) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.player.id == id)
    }

    /// The player `who` names: the player with that id, or the one player
    /// with that name. A name is refused, naming each player and their
    /// id, when another player has it as an id, or has it renamed (`Ann
    /// (2)` beside `Ann`); a name or id of no player, with the one most
    /// likely meant.
    pub fn find_player(&self, who: &str) -> Result<&Player, EventError> {
        let who = who.trim();
        let renamed = |name: &str| {
            (name.strip_prefix(who)).is_some_and(|rest| {
                (rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
        };
        let by_id = self.entrant(who);
        let by_name: Vec<&Entrant> = (self.entrants.iter())
            .filter(|e| e.player.name == who || renamed(&e.player.name))
            .collect();
        let exact = by_name.iter().find(|e| e.player.name == who);
        let mut candidates: Vec<&Entrant> = by_id.into_iter().collect();
        if exact.is_some() {
            candidates.extend(by_name.iter().filter(|e| by_id != Some(**e)));
        }
        match candidates[..] {
            [one] => Ok(&one.player),
            [] => {
                let known = (self.entrants.iter())
                    .flat_map(|e| [e.player.name.as_str(), e.player.id.as_str()]);
                Err(EventError::NoSuchPlayer {
                    found: who.to_owned(),
                    suggestion: crate::kit::suggest::closest(who, known),
                })
            }
            _ => Err(EventError::AmbiguousName {
                found: who.to_owned(),
                players: (candidates.iter())
                    .map(|e| format!("{} (id {:?})", e.player.name, e.player.id))
                    .collect::<Vec<_>>()
                    .join(" or "),
            }),
        }
    }

    /// The player's name, or the id itself for an unknown one.
    pub fn name<'a>(&'a self, id: &'a str) -> &'a str {
        self.entrant(id).map_or(id, |e| e.player.name.as_str())
    }

    /// The players who may be seated in `round`, in registration order.
    pub fn present(&self, round: u32) -> Vec<&Player> {
        (self.entrants.iter())
            .filter(|e| e.from <= round && e.until.is_none_or(|u| round < u))
            .map(|e| &e.player)
            .collect()
    }

    pub fn round(&self, round: u32) -> Result<&Round, EventError> {
        let seated = self.seated();
        if seated == 0 {
            return Err(EventError::NoRoundYet);
        }
        (round >= 1)
            .then(|| self.rounds.get(round as usize - 1))
            .flatten()
            .ok_or(EventError::UnknownRound { round, seated })
    }

    /// Checks `entry` against the event as it stands, then applies it.
    pub fn apply(&mut self, entry: &Entry) -> Result<(), EventError> {
        if self.closed {
            return Err(EventError::Closed);
        }
        let next = self.seated() + 1;
        match entry {
            Entry::Created { .. } => return Err(EventError::CreatedAgain),
            Entry::Registered(player) | Entry::Arrived(player) => {
                if matches!(entry, Entry::Registered(_)) && next > 1 {
                    return Err(EventError::LateRegistration { seated: next - 1 });
                }
                self.check_new(player)?;
                let from = next;
                let player = player.clone();
                self.entrants.push(Entrant {
                    player,
                    from,
                    until: None,
                });
            }
            Entry::Dropped { id } => {
                let Some(entrant) = self.entrants.iter_mut().find(|e| &e.player.id == id) else {
                    return Err(EventError::UnknownPlayer { id: id.clone() });
                };
                if let Some(round) = entrant.until {
                    return Err(EventError::AlreadyDropped {
                        id: id.clone(),
                        round,
                    });
                }
                entrant.until = Some(next);
            }
            Entry::Seated {
                round,
                tables,
                bye,
                out,
            } => {
                self.check_seating(*round, tables, bye, out)?;
                self.rounds.push(Round {
                    round: *round,
                    tables: tables.clone(),
                    bye: bye.clone(),
                    out: out.clone(),
                    results: BTreeMap::new(),
                });
            }
            Entry::Result(result) | Entry::Corrected(result) => {
                let correcting = matches!(entry, Entry::Corrected(_));
                self.check_result(result, correcting)?;
                let round = &mut self.rounds[result.round as usize - 1];
                round.results.insert(result.table, result.clone());
            }
            Entry::Closed {} => self.closed = true,
        }
        Ok(())
    }

    fn check_new(&self, player: &Player) -> Result<(), EventError> {
        if player.id.trim().is_empty() || player.name.trim().is_empty() {
            let (id, name) = (player.id.clone(), player.name.clone());
            return Err(EventError::EmptyPlayer { id, name });
        }
        if let Some(other) = self.entrant(&player.id) {
            return Err(EventError::DuplicateId {
                id: player.id.clone(),
                name: other.player.name.clone(),
            });
        }
        if let Some(other) = self.entrants.iter().find(|e| e.player.name == player.name) {
            return Err(EventError::DuplicateName {
                name: player.name.clone(),
                id: other.player.id.clone(),
            });
        }
        Ok(())
    }

    fn check_seating(
        &self,
        round: u32,
        tables: &[SeatedTable],
        bye: &[String],
        out: &[String],
    ) -> Result<(), EventError> {
        let expected = self.seated() + 1;
        if round != expected {
            let found = round;
            return Err(EventError::RoundOrder { expected, found });
        }
        if round > self.setup.rounds {
            let rounds = self.setup.rounds;
            return Err(EventError::TooManyRounds {
                rounds,
                found: round,
            });
        }
        if let Some(last) = self.rounds.last()
            && let Some(table) = last.open_table()
        {
            let round = last.round;
            return Err(EventError::RoundOpen { round, table });
        }
        let (min, max) = table_sizes(self.setup.game);
        let mut seen: BTreeMap<&str, ()> = BTreeMap::new();
        let present = self.present(round);
        let seating = |id: &str, found| EventError::Seating {
            round,
            name: self.name(id).to_owned(),
            id: id.to_owned(),
            found,
        };
        for (i, table) in tables.iter().enumerate() {
            let expected = i as u32 + 1;
            if table.table != expected {
                let found = table.table;
                return Err(EventError::TableOrder {
                    round,
                    expected,
                    found,
                });
            }
            let found = table.size();
            if !(min..=max).contains(&found) {
                let table = table.table;
                return Err(EventError::TableSize {
                    table,
                    min,
                    max,
                    found,
                });
            }
        }
        for table in tables {
            self.check_bots(table)?;
        }
        let ids = (tables.iter().flat_map(|t| &t.players))
            .chain(bye)
            .chain(out);
        for id in ids {
            if self.entrant(id).is_none() {
                return Err(EventError::UnknownPlayer { id: id.clone() });
            }
            if !present.iter().any(|p| &p.id == id) {
                return Err(self.absent(round, id));
            }
            if seen.insert(id, ()).is_some() {
                return Err(seating(id, "seated twice"));
            }
        }
        match present.iter().find(|p| !seen.contains_key(p.id.as_str())) {
            Some(p) => Err(seating(&p.id, "not seated")),
            None => Ok(()),
        }
    }

    /// Each bot of `table` in a seat of the table of its own, a bot known
    /// by name, under a name no entrant and no other bot of the table has;
    /// at least one player at the table.
    fn check_bots(&self, table: &SeatedTable) -> Result<(), EventError> {
        let refuse = |found: String| {
            Err(EventError::BotSeat {
                table: table.table,
                found,
            })
        };
        if !table.bots.is_empty() && table.players.is_empty() {
            return refuse("bots alone".to_owned());
        }
        for (i, bot) in table.bots.iter().enumerate() {
            let earlier = &table.bots[..i];
            if bot.seat == 0 || bot.seat as usize > table.size() {
                return refuse(format!("{:?} in seat {}", bot.name, bot.seat));
            }
            if earlier.iter().any(|b| b.seat == bot.seat) {
                return refuse(format!("two bots in seat {}", bot.seat));
            }
            let taken = self.name_taken(&bot.name) || earlier.iter().any(|b| b.name == bot.name);
            if taken || bot.name.trim().is_empty() {
                return refuse(format!("the name {:?}", bot.name));
            }
        }
        Ok(())
    }

    /// Whether `name` is an entrant's name or id: no bot may play under it.
    pub fn name_taken(&self, name: &str) -> bool {
        (self.entrants.iter()).any(|e| e.player.name == name || e.player.id == name)
    }

    /// The name each seat of `table` plays under in its log, seat 1 first.
    pub fn seat_names(&self, table: &SeatedTable) -> Vec<String> {
        (table.seats().into_iter())
            .map(|sitter| match sitter {
                Sitter::Player(id) => self.name(id).to_owned(),
                Sitter::Bot(bot) => bot.name.clone(),
            })
            .collect()
    }

    /// The seats of table `table` of round `round` that a bot plays: the
    /// name each plays under in the table's log, and its bot. Empty for a
    /// table of players alone; refused for a round or table not seated.
    pub fn bots_at(&self, round: u32, table: u32) -> Result<Vec<(String, Bot)>, EventError> {
        let at = self.round(round)?.table(table)?;
        Ok((at.bots.iter()).map(|b| (b.name.clone(), b.bot)).collect())
    }

    /// Why `id`, an entrant not present in `round`, cannot sit in it:
    /// dropped before it, or joining after it.
    fn absent(&self, round: u32, id: &str) -> EventError {
        let (name, id) = (self.name(id).to_owned(), id.to_owned());
        match self.entrant(&id) {
            Some(e) if e.until.is_some_and(|u| u <= round) => EventError::SeatedDropped {
                round,
                name,
                dropped: e.until.unwrap_or(round),
                id,
            },
            Some(e) => EventError::SeatedEarly {
                round,
                name,
                from: e.from,
                id,
            },
            None => EventError::UnknownPlayer { id },
        }
    }

    fn check_result(&self, result: &TableResult, correcting: bool) -> Result<(), EventError> {
        let (round, table) = (result.round, result.table);
        let seated = self.round(round)?;
        let at = seated.table(table)?;
        let has = seated.results.contains_key(&table);
        match (correcting, has, &result.reason) {
            (false, true, _) => return Err(EventError::ResultExists { round, table }),
            (true, false, _) => return Err(EventError::NothingToCorrect { round, table }),
            (true, true, None) => return Err(EventError::Reason { found: "none" }),
            (true, true, Some(r)) if r.trim().is_empty() => {
                return Err(EventError::Reason {
                    found: "an empty one",
                });
            }
            (false, false, Some(_)) => return Err(EventError::ReasonOnFirst),
            _ => {}
        }
        // Each seat as "Ann", or "Bot (greedy), the bot greedy".
        let said = |name: &str, bot: Option<crate::bots::Bot>| match bot {
            Some(bot) => format!("{name}, the bot {bot}"),
            None => name.to_owned(),
        };
        let expected: Vec<String> = (self.seat_names(at).iter().zip(at.seats()))
            .map(|(name, sitter)| match sitter {
                Sitter::Bot(b) => said(name, Some(b.bot)),
                Sitter::Player(_) => said(name, None),
            })
            .collect();
        let found: Vec<String> = (result.seats.iter())
            .map(|s| match s.bot {
                Some(_) => said(&s.id, s.bot),
                None => said(self.name(&s.id), None),
            })
            .collect();
        for seat in 0..expected.len().max(found.len()) {
            let expected = expected.get(seat).map_or("no one", String::as_str);
            let found = found.get(seat).map_or("no one", String::as_str);
            if expected != found {
                return Err(EventError::WrongSeat {
                    table,
                    seat: seat + 1,
                    expected: expected.to_owned(),
                    found: found.to_owned(),
                });
            }
        }
        Ok(())
    }
}
