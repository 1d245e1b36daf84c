//! Seating the next round, seeded and reproducible.
//!
//! - 62 Soleils, group play: the present players at tables balanced within
//!   one seat, no larger than the event's table size, so that few of them
//!   meet again. A meeting is a pair of players at one table; the seating
//!   minimises the sum over the tables' pairs of the square of how often
//!   they met before (so a third meeting costs more than two seconds), by a
//!   local search that swaps players between tables, restarted from many
//!   seeded random seatings, keeping the best.
//! - Summertime, Swiss: the players in standing order, paired from the top,
//!   each with the best-placed player they have not met, backtracking when
//!   a pairing cannot be finished without a rematch; rematches only when no
//!   pairing avoids them. With an odd count, the lowest-ranked player who
//!   has had no bye sits out, and the bye counts as a win.
//!
//! - By standing ("power pods"), on request: the players in standing order
//!   cut into tables of the same sizes, the leaders together.
//! - By hand: the organiser's tables, seat 1 first, or the first players
//!   of the standings at one table (a final), the others not playing.
//!
//! - With a bot: the player a Summertime round would give a bye plays a
//!   bot instead, and each 62 Soleils table seated short of the event's
//!   table size is filled up to it with bots. A bot plays under a name no
//!   player of the event has, in the seat the draw gives it.
//!
//! Seat 1 starts. At every table not seated by hand, the player who has
//! started fewest games takes seat 1, a seeded draw deciding a tie. In
//! Summertime (the colour of a chess Swiss), the player who started fewest
//! of their games against those they played second, then the one who did
//! not start their last game, then the draw.

use super::entry::{EventGame, Leftover, SeatedTable, Sitter, TableBot};
use super::error::EventError;
use super::standings::standings;
use super::state::{EventState, table_sizes};
use crate::bots::Bot;
use crate::kit::rng::SeededRng;
use std::collections::{BTreeMap, BTreeSet};

/// How many seeded random seatings the group search starts from.
const RESTARTS: u64 = 64;
/// How many partial pairings the Swiss search tries before it allows
/// rematches.
const SWISS_STEPS: u32 = 200_000;

/// What the rounds seated so far say about each pair and player.
#[derive(Default)]
pub struct History {
    /// How often each pair (in id order) sat at one table.
    pub meetings: BTreeMap<(String, String), u32>,
    /// How often each player sat in seat 1.
    pub starts: BTreeMap<String, u32>,
    /// How many games each player sat at a table for.
    pub played: BTreeMap<String, u32>,
    /// Whether each player sat in seat 1 at the last game they played.
    pub started_last: BTreeMap<String, bool>,
    /// Who has had a bye, or played a bot in its place.
    pub byes: BTreeSet<String>,
}

fn pair(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

impl History {
    pub fn of(state: &EventState) -> History {
        let mut history = History::default();
        for round in &state.rounds {
            for table in &round.tables {
                for (i, a) in table.players.iter().enumerate() {
                    for b in &table.players[i + 1..] {
                        *history.meetings.entry(pair(a, b)).or_default() += 1;
                    }
                }
                if let Some(Sitter::Player(first)) = table.seats().first() {
                    *history.starts.entry((*first).to_owned()).or_default() += 1;
                }
                for (seat, sitter) in table.seats().into_iter().enumerate() {
                    if let Sitter::Player(id) = sitter {
                        *history.played.entry(id.to_owned()).or_default() += 1;
                        history.started_last.insert(id.to_owned(), seat == 0);
                    }
                }
                if !table.bots.is_empty() {
                    history.byes.extend(table.players.iter().cloned());
                }
            }
            history.byes.extend(round.bye.iter().cloned());
        }
        history
    }

    /// The games `id` started less the games they played in another seat:
    /// the colour difference of a chess Swiss.
    pub fn start_balance(&self, id: &str) -> i64 {
        let starts = i64::from(self.starts.get(id).copied().unwrap_or(0));
        let played = i64::from(self.played.get(id).copied().unwrap_or(0));
        starts - (played - starts)
    }

    pub fn met(&self, a: &str, b: &str) -> u32 {
        self.meetings.get(&pair(a, b)).copied().unwrap_or(0)
    }

    /// Repeat meetings: every meeting of a pair after its first.
    pub fn repeats(&self) -> u32 {
        self.meetings.values().map(|m| m.saturating_sub(1)).sum()
    }
}

/// How the next round is seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatBy {
    /// The seeded search: new opponents at each table (62 Soleils), or
    /// Swiss pairing (Summertime).
    Draw,
    /// By standing ("power pods"): the players in standing order, cut into
    /// tables of the event's sizes, so that the leaders meet.
    Standing,
    /// The organiser's tables, each a list of player names or ids with
    /// seat 1 first, and the players given a bye.
    Hand {
        tables: Vec<Vec<String>>,
        bye: Vec<String>,
    },
    /// The first `n` of the standings at one table, such as a final; the
    /// other present players do not play the round.
    Final(usize),
}

impl SeatBy {
    /// The organiser's tables written as `Ann,Bob,Cid;Dee,Eve`: tables
    /// split by ';', players by ',', each trimmed, none empty.
    pub fn hand(spec: &str, bye: Vec<String>) -> Result<SeatBy, EventError> {
        let tables: Vec<Vec<String>> = (spec.split(';'))
            .map(|t| t.split(',').map(|p| p.trim().to_owned()).collect())
            .collect();
        match tables.iter().position(|t| t.iter().any(String::is_empty)) {
            Some(i) => Err(EventError::EmptyName { table: i + 1 }),
            None => Ok(SeatBy::Hand { tables, bye }),
        }
    }
}

/// A round, seated: its tables, the players with a bye (a win), and the
/// players who do not play it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextRound {
    pub tables: Vec<SeatedTable>,
    pub bye: Vec<String>,
    pub out: Vec<String>,
}

/// The next round of `state`, seated as `by` says, with `bot` in the seats
/// a bye or a short table leaves (the draw and by standing only). Refused
/// when the event is closed, the last round is still open, all rounds are
/// seated, too few players are present, or a name given by hand is no
/// player's. The seating is checked in full when its entry is applied.
pub fn next_round(
    state: &EventState,
    by: &SeatBy,
    bot: Option<Bot>,
) -> Result<NextRound, EventError> {
    if state.closed {
        return Err(EventError::Closed);
    }
    let round = state.seated() + 1;
    if round > state.setup.rounds {
        let rounds = state.setup.rounds;
        return Err(EventError::TooManyRounds {
            rounds,
            found: round,
        });
    }
    if let Some(last) = state.rounds.last()
        && let Some(table) = last.open_table()
    {
        let round = last.round;
        return Err(EventError::RoundOpen { round, table });
    }
    let present: Vec<String> = state.present(round).iter().map(|p| p.id.clone()).collect();
    let (min, max) = table_sizes(state.setup.game);
    if present.len() < min {
        let found = present.len();
        return Err(EventError::TooFewPlayers { round, min, found });
    }
    let history = History::of(state);
    let mut rng =
        SeededRng::new(state.setup.seed ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let by_standing = || -> Vec<String> {
        (standings(state).rows.into_iter())
            .map(|r| r.id)
            .filter(|id| present.contains(id))
            .collect()
    };
    let size = state.setup.table_size as usize;
    let (groups, bye, out) = match (by, state.setup.game) {
        (SeatBy::Draw, EventGame::Soleils) => {
            let sizes = table_sizes_for(present.len(), size, (min, max), state.setup.leftover);
            (groups(&present, &sizes, &history, &mut rng), vec![], vec![])
        }
        (SeatBy::Draw, EventGame::Summertime) => {
            let (pairs, bye) = swiss(&by_standing(), &history);
            (pairs, bye, vec![])
        }
        (SeatBy::Standing, _) => {
            let mut order = by_standing();
            let bye = match state.setup.game {
                EventGame::Summertime if order.len() % 2 == 1 => {
                    vec![order.remove(bye_at(&order, &history))]
                }
                _ => vec![],
            };
            let mut rest = &order[..];
            let mut pods = Vec::new();
            for s in table_sizes_for(order.len(), size, (min, max), state.setup.leftover) {
                pods.push(rest[..s].to_vec());
                rest = &rest[s..];
            }
            (pods, bye, vec![])
        }
        (SeatBy::Hand { tables, bye }, _) => {
            let ids = |names: &[String]| -> Result<Vec<String>, EventError> {
                names.iter().map(|name| player_id(state, name)).collect()
            };
            let tables: Vec<Vec<String>> =
                tables.iter().map(|t| ids(t)).collect::<Result<_, _>>()?;
            let tables = (tables.into_iter().enumerate())
                .map(|(i, players)| SeatedTable::of_players(i as u32 + 1, players))
                .collect();
            let bye = ids(bye)?;
            return Ok(NextRound {
                tables,
                bye,
                out: vec![],
            });
        }
        (SeatBy::Final(n), _) => {
            let n = *n;
            if !(min..=max).contains(&n) {
                return Err(EventError::TableSize {
                    table: 1,
                    min,
                    max,
                    found: n,
                });
            }
            if present.len() < n {
                let found = present.len();
                return Err(EventError::TooFewPlayers {
                    round,
                    min: n,
                    found,
                });
            }
            let mut order = by_standing();
            let out = order.split_off(n);
            (vec![order], vec![], out)
        }
    };
    let Some(bot) = bot.filter(|_| !matches!(by, SeatBy::Final(_))) else {
        let tables = (groups.into_iter().enumerate())
            .map(|(i, players)| {
                let players = seat_order(players, state.setup.game, &history, &mut rng);
                SeatedTable::of_players(i as u32 + 1, players)
            })
            .collect();
        return Ok(NextRound { tables, bye, out });
    };
    // The bye's player plays a bot; each table short of the size is filled
    // up to it.
    let mut groups = groups;
    groups.extend(bye.into_iter().map(|id| vec![id]));
    let size = size.max(min);
    let tables = (groups.into_iter().enumerate())
        .map(|(i, players)| {
            // A full table is seated as it would be without bots.
            if players.len() >= size {
                let players = seat_order(players, state.setup.game, &history, &mut rng);
                return SeatedTable::of_players(i as u32 + 1, players);
            }
            let mut seats: Vec<Option<String>> = players.into_iter().map(Some).collect();
            seats.resize(size, None);
            let seats = seat_order_with_bots(seats, state.setup.game, &history, &mut rng);
            with_bots(state, i as u32 + 1, seats, bot)
        })
        .collect();
    Ok(NextRound {
        tables,
        bye: vec![],
        out,
    })
}

/// The name a bot plays under at a table: `Bot (greedy)`, then `Bot 2
/// (greedy)` and on, the first that no player of the event and no other
/// seat of the table has.
pub fn bot_name(state: &EventState, bot: Bot, taken: &[String]) -> String {
    (1..)
        .map(|n| match n {
            1 => format!("Bot ({})", bot.name()),
            n => format!("Bot {n} ({})", bot.name()),
        })
        .find(|name| !taken.contains(name) && !state.name_taken(name))
        .expect("a name is free")
}

/// A table of `seats` in order, `None` for a bot's.
fn with_bots(state: &EventState, table: u32, seats: Vec<Option<String>>, bot: Bot) -> SeatedTable {
    let mut bots: Vec<TableBot> = Vec::new();
    let mut players = Vec::new();
    for (i, seat) in seats.into_iter().enumerate() {
        match seat {
            Some(id) => players.push(id),
            None => {
                let taken: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
                bots.push(TableBot {
                    seat: i as u32 + 1,
                    bot,
                    name: bot_name(state, bot, &taken),
                });
            }
        }
    }
    SeatedTable {
        table,
        players,
        bots,
    }
}

/// [`seat_order`] for a table with bots (`None`): seat 1 goes to a player
/// as it would without them, the bots and the other players take the
/// other seats in a seeded order.
fn seat_order_with_bots(
    seats: Vec<Option<String>>,
    game: EventGame,
    history: &History,
    rng: &mut SeededRng,
) -> Vec<Option<String>> {
    let players: Vec<String> = seats.iter().flatten().cloned().collect();
    let bots = seats.len() - players.len();
    let mut ordered = seat_order(players, game, history, rng).into_iter();
    let first = ordered.next();
    let mut rest: Vec<Option<String>> = ordered.map(Some).collect();
    rest.extend(std::iter::repeat_n(None, bots));
    shuffle(&mut rest, rng);
    // In Summertime the bot starts when its player started more games
    // than they played second, as a player's opponent would.
    if let (EventGame::Summertime, Some(id), [None]) = (game, &first, &rest[..])
        && history.start_balance(id) > 0
    {
        return vec![None, first];
    }
    std::iter::once(first).chain(rest).collect()
}

/// The id of the player `name` names: by name first, then by id.
fn player_id(state: &EventState, name: &str) -> Result<String, EventError> {
    let name = name.trim();
    (state.entrants.iter())
        .find(|e| e.player.name == name)
        .or_else(|| state.entrant(name))
        .map(|e| e.player.id.clone())
        .ok_or_else(|| EventError::UnknownName {
            name: name.to_owned(),
        })
}

/// Seat 1 to whoever started fewest games, a draw deciding a tie; the
/// others in a seeded order. In Summertime, as colours in a chess Swiss:
/// to whoever started fewest of their games against those they played
/// second, then to whoever did not start their last game, then the draw.
fn seat_order(
    mut players: Vec<String>,
    game: EventGame,
    history: &History,
    rng: &mut SeededRng,
) -> Vec<String> {
    shuffle(&mut players, rng);
    let starts = |id: &String| history.starts.get(id).copied().unwrap_or(0);
    let first = match game {
        EventGame::Soleils => (0..players.len()).min_by_key(|&i| starts(&players[i])),
        EventGame::Summertime => (0..players.len()).min_by_key(|&i| {
            let id = &players[i];
            let last = history.started_last.get(id).copied().unwrap_or(false);
            (history.start_balance(id), last)
        }),
    };
    let first = first.unwrap_or(0);
    players.swap(0, first);
    players
}

fn shuffle<T>(items: &mut [T], rng: &mut SeededRng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// The sizes of the tables for `n` players at tables of `size`, balanced
/// within one seat, the larger first. With `Smaller` leftovers, tables of
/// at most `size`: as many as that takes, but one table fewer (one seat
/// over `size`) when a table would have fewer than `min`. With `Larger`,
/// tables of at least `size`: as few as that allows, but one table more
/// (one seat under) when a table would have more than `max`.
pub fn table_sizes_for(
    n: usize,
    size: usize,
    (min, max): (usize, usize),
    leftover: Leftover,
) -> Vec<usize> {
    let size = size.max(1);
    let mut tables = match leftover {
        Leftover::Smaller => n.div_ceil(size).max(1),
        Leftover::Larger => (n / size).max(1),
    };
    if tables > 1 && n / tables < min {
        tables -= 1;
    }
    if n.div_ceil(tables) > max {
        tables += 1;
    }
    (0..tables)
        .map(|t| n / tables + usize::from(t < n % tables))
        .collect()
}

/// The cost of a table: each pair's earlier meetings, squared.
fn table_cost(table: &[usize], cost: &[Vec<u32>]) -> u32 {
    let mut sum = 0;
    for (i, &a) in table.iter().enumerate() {
        for &b in &table[i + 1..] {
            sum += cost[a][b];
        }
    }
    sum
}

/// Group play: the players at tables of `sizes`, with the fewest repeat
/// meetings the seeded search finds.
fn groups(
    players: &[String],
    sizes: &[usize],
    history: &History,
    rng: &mut SeededRng,
) -> Vec<Vec<String>> {
    let n = players.len();
    let cost: Vec<Vec<u32>> = (0..n)
        .map(|a| {
            (0..n)
                .map(|b| history.met(&players[a], &players[b]).pow(2))
                .collect()
        })
        .collect();
    let mut best: Option<(u32, Vec<Vec<usize>>)> = None;
    for _ in 0..RESTARTS {
        let mut order: Vec<usize> = (0..n).collect();
        shuffle(&mut order, rng);
        let mut tables: Vec<Vec<usize>> = Vec::new();
        let mut rest = &order[..];
        for &s in sizes {
            tables.push(rest[..s].to_vec());
            rest = &rest[s..];
        }
        improve(&mut tables, &cost);
        let total: u32 = tables.iter().map(|t| table_cost(t, &cost)).sum();
        if best.as_ref().is_none_or(|(b, _)| total < *b) {
            best = Some((total, tables));
        }
        if total == 0 {
            break;
        }
    }
    let (_, tables) = best.expect("at least one restart");
    (tables.into_iter())
        .map(|t| t.into_iter().map(|i| players[i].clone()).collect())
        .collect()
}

/// Swaps players between tables while a swap lowers the cost.
fn improve(tables: &mut [Vec<usize>], cost: &[Vec<u32>]) {
    let against = |table: &[usize], p: usize, skip: usize| -> u32 {
        table
            .iter()
            .filter(|&&q| q != skip)
            .map(|&q| cost[p][q])
            .sum()
    };
    loop {
        let mut improved = false;
        for a in 0..tables.len() {
            for b in a + 1..tables.len() {
                for i in 0..tables[a].len() {
                    for j in 0..tables[b].len() {
                        let (p, q) = (tables[a][i], tables[b][j]);
                        let before = against(&tables[a], p, p) + against(&tables[b], q, q);
                        let after = against(&tables[a], q, p) + against(&tables[b], p, q);
                        if after < before {
                            tables[a][i] = q;
                            tables[b][j] = p;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            return;
        }
    }
}

/// Swiss pairing of `order` (best first): the pairs, best first, and the
/// bye.
fn swiss(order: &[String], history: &History) -> (Vec<Vec<String>>, Vec<String>) {
    let mut players = order.to_vec();
    let mut bye = Vec::new();
    if players.len() % 2 == 1 {
        bye.push(players.remove(bye_at(&players, history)));
    }
    let mut steps = SWISS_STEPS;
    let pairs = pair_up(&players, history, false, &mut steps).unwrap_or_else(|| {
        let mut steps = u32::MAX;
        pair_up(&players, history, true, &mut steps).expect("an even count pairs")
    });
    (pairs, bye)
}

/// Where in `order` (best first) the bye goes: to the lowest-ranked
/// player who has had none, else to the last.
fn bye_at(order: &[String], history: &History) -> usize {
    (0..order.len())
        .rev()
        .find(|&i| !history.byes.contains(&order[i]))
        .unwrap_or(order.len() - 1)
}

/// Pairs `players` from the top, each with the best-placed partner
/// possible; without `rematch`, never two who met. `None` when no such
/// pairing exists or the steps run out.
fn pair_up(
    players: &[String],
    history: &History,
    rematch: bool,
    steps: &mut u32,
) -> Option<Vec<Vec<String>>> {
    let Some((first, rest)) = players.split_first() else {
        return Some(Vec::new());
    };
    for (i, partner) in rest.iter().enumerate() {
        *steps = steps.checked_sub(1)?;
        if !rematch && history.met(first, partner) > 0 {
            continue;
        }
        let mut others = rest.to_vec();
        others.remove(i);
        if let Some(mut pairs) = pair_up(&others, history, rematch, steps) {
            pairs.insert(0, vec![first.clone(), partner.clone()]);
            return Some(pairs);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_balanced_within_one_seat() {
        let sizes = |n, size, leftover| table_sizes_for(n, size, (2, 12), leftover);
        let (smaller, larger) = (Leftover::Smaller, Leftover::Larger);
        assert_eq!(sizes(23, 5, smaller), [5, 5, 5, 4, 4]);
        assert_eq!(sizes(23, 5, larger), [6, 6, 6, 5]);
        assert_eq!(sizes(23, 4, smaller), [4, 4, 4, 4, 4, 3]);
        assert_eq!(sizes(23, 4, larger), [5, 5, 5, 4, 4]);
        assert_eq!(sizes(3, 5, smaller), [3]);
        assert_eq!(sizes(3, 5, larger), [3]);
        assert_eq!(sizes(9, 2, smaller), [3, 2, 2, 2]);
        assert_eq!(sizes(9, 2, larger), [3, 2, 2, 2]);
        assert_eq!(sizes(20, 4, larger), [4, 4, 4, 4, 4]);
        // Never over the game's largest table: 25 at tables of 12 or more.
        assert_eq!(sizes(25, 12, larger), [9, 8, 8]);
        assert_eq!(sizes(25, 12, smaller), [9, 8, 8]);
    }
}
