//! The seating of a round as `sunfold event seating` prints it, in text
//! and JSON (`sunfold schema event-seating`).

use super::entry::Sitter;
use super::error::EventError;
use super::state::EventState;
use std::collections::BTreeMap;

/// A round's tables and byes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Seating {
    pub round: u32,
    pub tables: Vec<SeatingTable>,
    /// The players who sit out this round with a bye, counted as a win;
    /// empty when no one does.
    pub bye: Vec<SeatingPlayer>,
    /// The present players who do not play this round and score nothing
    /// for it (a final seated by hand); empty when everyone plays.
    pub out: Vec<SeatingPlayer>,
    /// The pairs at this round's tables who sat at one table in an earlier
    /// round; empty when everyone meets new opponents.
    pub repeats: Vec<Repeat>,
    /// The repeat meetings of the event up to this round: for every pair
    /// of players, every meeting at a table after their first.
    pub repeats_so_far: u32,
}

/// Two players who meet again.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Repeat {
    /// Their table this round.
    pub table: u32,
    /// The two, in seat order.
    pub players: [SeatingPlayer; 2],
    /// How often they sat at one table before this round.
    pub met_before: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SeatingTable {
    pub table: u32,
    /// The players by seat, a bot's seat among them; seat 1 starts.
    pub players: Vec<SeatedPlayer>,
    /// The seats a bot plays: 0 at a table of players alone.
    pub bots: u32,
    /// Whether the table's result is attached.
    pub done: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SeatedPlayer {
    /// The player's id; for a bot, the name it plays under.
    pub id: String,
    pub name: String,
    /// The bot that plays this seat (`random`, `greedy`, `search:N`); left
    /// out for a player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<crate::bots::Bot>,
    /// From 1; seat 1 starts.
    pub seat: u32,
    /// The games of the event the player started (sat in seat 1), this
    /// round's included.
    pub started: u32,
    /// The games of the event the player played, this round's included.
    pub played: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct SeatingPlayer {
    pub id: String,
    pub name: String,
}

impl Seating {
    /// The seating of round `round` (the last seated if `None`).
    pub fn of(state: &EventState, round: Option<u32>) -> Result<Seating, EventError> {
        let seated = state.round(round.unwrap_or(state.seated()))?;
        let mut started = std::collections::BTreeMap::<&str, u32>::new();
        let mut played = std::collections::BTreeMap::<&str, u32>::new();
        for table in state.rounds[..seated.round as usize]
            .iter()
            .flat_map(|r| &r.tables)
        {
            for (seat, sitter) in table.seats().into_iter().enumerate() {
                if let Sitter::Player(id) = sitter {
                    *played.entry(id).or_default() += 1;
                    *started.entry(id).or_default() += u32::from(seat == 0);
                }
            }
        }
        let player = |id: &String| SeatingPlayer {
            id: id.clone(),
            name: state.name(id).to_owned(),
        };
        // How often each pair, in id order, sat at one table up to each
        // round.
        let pair = |a: &String, b: &String| {
            if a <= b {
                (a.clone(), b.clone())
            } else {
                (b.clone(), a.clone())
            }
        };
        let mut met: BTreeMap<(String, String), u32> = BTreeMap::new();
        let mut repeats = Vec::new();
        let mut repeats_so_far = 0;
        for earlier in state.rounds.iter().take_while(|r| r.round <= seated.round) {
            for table in &earlier.tables {
                for (i, a) in table.players.iter().enumerate() {
                    for b in &table.players[i + 1..] {
                        let before = met.entry(pair(a, b)).or_default();
                        if *before > 0 {
                            repeats_so_far += 1;
                            if earlier.round == seated.round {
                                repeats.push(Repeat {
                                    table: table.table,
                                    players: [player(a), player(b)],
                                    met_before: *before,
                                });
                            }
                        }
                        *before += 1;
                    }
                }
            }
        }
        Ok(Seating {
            round: seated.round,
            tables: (seated.tables.iter())
                .map(|t| SeatingTable {
                    table: t.table,
                    players: (t.seats().into_iter().enumerate())
                        .map(|(i, sitter)| match sitter {
                            Sitter::Player(id) => SeatedPlayer {
                                id: id.to_owned(),
                                name: state.name(id).to_owned(),
                                bot: None,
                                seat: i as u32 + 1,
                                started: started.get(id).copied().unwrap_or(0),
                                played: played.get(id).copied().unwrap_or(0),
                            },
                            Sitter::Bot(bot) => SeatedPlayer {
                                id: bot.name.clone(),
                                name: bot.name.clone(),
                                bot: Some(bot.bot),
                                seat: i as u32 + 1,
                                started: 0,
                                played: 0,
                            },
                        })
                        .collect(),
                    bots: t.bots.len() as u32,
                    done: seated.results.contains_key(&t.table),
                })
                .collect(),
            bye: seated.bye.iter().map(player).collect(),
            out: seated.out.iter().map(player).collect(),
            repeats,
            repeats_so_far,
        })
    }

    /// One line a table, seat 1 first, with the games each player has
    /// started of those played; then the byes and those not playing.
    pub fn text(&self) -> String {
        let mut out = format!("round {}\n", self.round);
        for table in &self.tables {
            let names: Vec<&str> = table.players.iter().map(|p| p.name.as_str()).collect();
            let done = if table.done {
                "  (result attached)"
            } else {
                ""
            };
            let starts: Vec<String> = (table.players.iter())
                .filter(|p| p.bot.is_none())
                .map(|p| format!("{} {} of {}", p.name, p.started, p.played))
                .collect();
            let bots: Vec<String> = (table.players.iter())
                .filter_map(|p| Some(format!("seat {} plays {}", p.seat, p.bot.as_ref()?)))
                .collect();
            let bots = match &bots[..] {
                [] => String::new(),
                [one] => format!("  (a bot: {one})"),
                _ => format!("  (bots: {})", bots.join(", ")),
            };
            out.push_str(&format!(
                "table {}: {}  (started: {}){bots}{done}\n",
                table.table,
                names.join(", "),
                starts.join(", ")
            ));
        }
        if !self.bye.is_empty() {
            let names: Vec<&str> = self.bye.iter().map(|p| p.name.as_str()).collect();
            out.push_str(&format!("bye: {}\n", names.join(", ")));
        }
        if !self.out.is_empty() {
            let names: Vec<&str> = self.out.iter().map(|p| p.name.as_str()).collect();
            out.push_str(&format!("not playing: {}\n", names.join(", ")));
        }
        out.push_str(&format!(
            "repeat meetings: {} this round, {} in the event so far\n",
            self.repeats.len(),
            self.repeats_so_far
        ));
        for r in &self.repeats {
            let times = match r.met_before {
                1 => "once".to_owned(),
                2 => "twice".to_owned(),
                n => format!("{n} times"),
            };
            out.push_str(&format!(
                "  table {}: {} and {}, met {times} before\n",
                r.table, r.players[0].name, r.players[1].name
            ));
        }
        out
    }
}
