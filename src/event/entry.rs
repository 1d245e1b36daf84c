//! The lines of an event log: what was decided, one entry each, in the
//! envelope of every sunfold log (`seq`, optional `at`, `prev`). Its schema
//! is `sunfold schema event-log`.

use crate::soleils::Options;
use crate::soleils::template::RawTemplate;
use crate::summertime::deck::RawDeck;
use serde::{Deserialize, Serialize};

/// The version of the event log's format, in its first line.
pub const EVENT_FORMAT: u32 = 1;

/// The game every table of an event plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventGame {
    /// 62 Soleils d'été: group play, tables of 2 to 12.
    Soleils,
    /// Summertime: Swiss pairing, tables of 2.
    Summertime,
}

impl EventGame {
    /// The game of its name, `soleils` or `summertime`.
    pub fn named(name: &str) -> Option<EventGame> {
        [EventGame::Soleils, EventGame::Summertime]
            .into_iter()
            .find(|g| g.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            EventGame::Soleils => "soleils",
            EventGame::Summertime => "summertime",
        }
    }
}

/// A tie-break, in the order the event declares them after the points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// The sum of the player's scores at every table.
    Score,
    /// The sum of the points of every opponent met (Buchholz).
    Buchholz,
    /// Buchholz without the opponent of fewest points, once.
    BuchholzCut1,
    /// The sum, over the player's tables, of their score minus the best
    /// other score at that table.
    Margin,
    /// The points won at the tables the players still tied shared with
    /// one another.
    HeadToHead,
    /// A draw from the event's seed and the player's id, the same on every
    /// replay.
    Draw,
}

impl TieBreak {
    /// Its name on the command line and in the reports.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Score => "score",
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz-cut1",
            TieBreak::Margin => "margin",
            TieBreak::HeadToHead => "head-to-head",
            TieBreak::Draw => "draw",
        }
    }

    /// The tie-break of its name.
    pub fn named(name: &str) -> Option<TieBreak> {
        TieBreak::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Every tie-break, in the order of the default.
    pub const ALL: [TieBreak; 6] = [
        TieBreak::Score,
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::Margin,
        TieBreak::HeadToHead,
        TieBreak::Draw,
    ];
}

/// What the seats left over make when the players do not fill tables of
/// the size the event prefers: 23 players at tables of 5 sit at 5, 5, 5,
/// 4, 4 (`smaller`) or 6, 6, 6, 5 (`larger`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Leftover {
    /// Tables one seat under the size: as many tables as it takes.
    #[default]
    Smaller,
    /// Tables one seat over the size: as few tables as the size allows.
    Larger,
}

impl Leftover {
    pub fn is_smaller(&self) -> bool {
        *self == Leftover::Smaller
    }

    pub fn name(self) -> &'static str {
        match self {
            Leftover::Smaller => "smaller",
            Leftover::Larger => "larger",
        }
    }

    /// The choice of its name, `smaller` or `larger`.
    pub fn named(name: &str) -> Option<Leftover> {
        [Leftover::Smaller, Leftover::Larger]
            .into_iter()
            .find(|l| l.name() == name)
    }
}

/// The tie-breaks an event declares unless told otherwise.
pub const TIE_BREAKS: [TieBreak; 4] = [
    TieBreak::Score,
    TieBreak::Buchholz,
    TieBreak::Margin,
    TieBreak::Draw,
];

/// One line of an event log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    /// The first line: the game and the format of the event.
    Created {
        /// The event log's format: 1.
        format: u32,
        game: EventGame,
        /// 62 Soleils: the preferred table size; tables are balanced within
        /// one seat. Summertime: 2.
        table_size: u32,
        /// The number of rounds.
        rounds: u32,
        /// The points for each rank at a table, best first; a rank beyond
        /// the list scores 0, and tied players share the points of their
        /// ranks.
        points: Vec<u32>,
        /// The seed of the seating, the table logs and the draw.
        seed: u64,
        /// The tie-breaks after the points, in order.
        tie_breaks: Vec<TieBreak>,
        /// 62 Soleils: what the seats left over make when the players do
        /// not fill tables of `table_size`: `smaller` tables, one seat
        /// under (left out), or `larger` ones, one seat over.
        #[serde(default, skip_serializing_if = "Leftover::is_smaller")]
        leftover: Leftover,
        /// 62 Soleils: the sheet template every table plays, embedded; the
        /// bundled sheet when left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        template: Option<Box<RawTemplate>>,
        /// 62 Soleils: the rule options of every table; the defaults when
        /// left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        options: Option<Options>,
        /// Summertime: the deck every table plays, embedded; the bundled
        /// deck when left out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        deck: Option<Box<RawDeck>>,
    },
    /// A player who is there from the first round.
    Registered(Player),
    /// A player who joins from the next round seated.
    Arrived(Player),
    /// A player who leaves: seated no more from the next round on. A result
    /// of a round already seated stands.
    Dropped { id: String },
    /// A round seated: every present player at one table, or given a bye.
    Seated {
        round: u32,
        tables: Vec<SeatedTable>,
        /// The players who sit out, each counted as a win.
        bye: Vec<String>,
        /// The present players who do not play this round and score
        /// nothing for it, as in a final of the top players seated by
        /// hand; left out when there are none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        out: Vec<String>,
    },
    /// A table's result, read from its audited log.
    Result(TableResult),
    /// A table's result read again from another log, by the referee, with
    /// the reason.
    Corrected(TableResult),
    /// The event is over: nothing more is seated or attached.
    Closed {},
}

/// A player of the event: a stable id, and the name the table logs use,
/// unique in the event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub id: String,
    pub name: String,
}

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatedTable {
    /// From 1.
    pub table: u32,
    /// The players' ids by seat; seat 1 starts. A seat a bot plays is
    /// left out here and named in `bots`.
    pub players: Vec<String>,
    /// The seats a bot plays, in place of a bye or of a missing player;
    /// left out when there are none (and in every log written before bots
    /// could sit at an event's table).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<TableBot>,
}

/// A seat of a table played by a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableBot {
    /// Its seat, from 1, counted over every seat of the table.
    pub seat: u32,
    /// The bot, as the command line spells it: `random`, `greedy`,
    /// `search:N`.
    pub bot: crate::bots::Bot,
    /// The name it plays under in the table's log, such as `Bot (greedy)`:
    /// no player of the event has it.
    pub name: String,
}

/// Who sits in a seat of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sitter<'a> {
    /// A player of the event, by id.
    Player(&'a str),
    /// A bot.
    Bot(&'a TableBot),
}

impl SeatedTable {
    /// A table of players alone.
    pub fn of_players(table: u32, players: Vec<String>) -> SeatedTable {
        SeatedTable {
            table,
            players,
            bots: Vec::new(),
        }
    }

    /// Every seat of the table in order, seat 1 first: the players, and
    /// the bots in their seats.
    pub fn seats(&self) -> Vec<Sitter<'_>> {
        let mut players = self.players.iter();
        (1..=self.size() as u32)
            .filter_map(|seat| match self.bots.iter().find(|b| b.seat == seat) {
                Some(bot) => Some(Sitter::Bot(bot)),
                None => players.next().map(|id| Sitter::Player(id)),
            })
            .collect()
    }

    /// The number of seats: players and bots.
    pub fn size(&self) -> usize {
        self.players.len() + self.bots.len()
    }
}

/// The result of one table: each seat's score and rank, as its log gives
/// them, and the log's hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableResult {
    pub round: u32,
    pub table: u32,
    /// The SHA-256 of the table log's bytes, in lowercase hex.
    pub hash: String,
    /// How the game ended, as the audit says.
    pub ended: String,
    /// Each seat in order.
    pub seats: Vec<SeatResult>,
    /// Why a corrected result changed; a first result has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatResult {
    /// The player's id; for a bot's seat, the name it played under.
    pub id: String,
    pub score: i64,
    /// 1 for the best; tied players share a rank.
    pub rank: u32,
    /// The bot that played the seat, as the command line spells it; left
    /// out for a player. A bot's seat counts in the ranks of its table,
    /// never in the standings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<crate::bots::Bot>,
}

impl Entry {
    /// The entry's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Created { .. } => "created",
            Entry::Registered(_) => "registered",
            Entry::Arrived(_) => "arrived",
            Entry::Dropped { .. } => "dropped",
            Entry::Seated { .. } => "seated",
            Entry::Result(_) => "result",
            Entry::Corrected(_) => "corrected",
            Entry::Closed {} => "closed",
        }
    }
}
