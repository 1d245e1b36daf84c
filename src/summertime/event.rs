//! The events of a Summertime game, as they appear in the log after the
//! envelope (`seq`, `at`) is taken off. See `docs/replay-format.md`.

use super::deck::RawDeck;
use crate::kit::game::EventKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The first event: players, who goes first, the deck and its order.
    Started(Box<Start>),
    /// A card is turned up in front of a stack.
    Revealed(Revealed),
    /// The active player buys a face-up card.
    Bought(Bought),
    /// The active player plays a card from hand into the grid.
    Played(Played),
    /// The active player ends a turn in which they bought.
    TurnEnded(PlayerOnly),
    /// The active player turns all face-down tiles face up (a whole turn).
    TilesFlipped(PlayerOnly),
    /// The active player passes (a whole turn).
    Passed(PlayerOnly),
    /// After two passes in a row, the face-up cards leave the game.
    Discarded(Discarded),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The log format version: `3`, or `2`, or `1`, which the reader upcasts
    /// to `2`. A log keeps the rules of its format: from `3` on, a game's
    /// end is final, and a physical game keeps an unseen card for every
    /// declared back and turns its stacks up in any order.
    pub format: u32,
    /// Always `"summertime"`.
    pub game: String,
    /// Exactly two unique names.
    pub players: Vec<String>,
    /// The name of the player who takes the first turn.
    pub first: String,
    /// The complete deck, embedded so that the log is self-contained.
    pub deck: RawDeck,
    pub order: Order,
}

/// How the cards lie at the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum Order {
    /// The whole order is known: the hands dealt and the three stacks.
    Dealt {
        /// The cards dealt to each player, in the order of `players`.
        hands: Vec<Vec<String>>,
        /// The three stacks, each listed from the top card down.
        stacks: Vec<Vec<String>>,
        /// For each closing card, which of its two sides (0 or 1) is up.
        closing_up: [u8; 3],
        /// The seed the order was drawn from, if any. It is a record only:
        /// the order above is what counts and is never drawn again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    /// A game on a real table: cards are entered as they are turned up.
    Physical {
        /// For each closing card, which of its two sides (0 or 1) is up.
        closing_up: [u8; 3],
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Revealed {
    /// The stack, 0 to 2, in front of which the card is turned up.
    #[serde(deserialize_with = "crate::kit::bounded::stack")]
    pub stack: u8,
    pub card: String,
    /// Physical games only: the cost now showing on the back of the stack's
    /// new top card. Left out when the stack is now empty, and in dealt games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behind: Option<[String; 3]>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bought {
    pub player: String,
    pub card: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Played {
    pub player: String,
    pub card: String,
    /// `[column, row]`. The first card of the game lies at `[0, 0]`; the
    /// others next to it, so coordinates may be negative.
    pub cell: [i32; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerOnly {
    pub player: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Discarded {
    /// The face-up cards that leave the game, in stack order.
    pub cards: Vec<String>,
}

impl Event {
    /// The player who acts; `None` for the start, reveals and discards.
    pub fn player(&self) -> Option<&str> {
        match self {
            Event::Started(_) | Event::Revealed(_) | Event::Discarded(_) => None,
            Event::Bought(e) => Some(&e.player),
            Event::Played(e) => Some(&e.player),
            Event::TurnEnded(e) | Event::TilesFlipped(e) | Event::Passed(e) => Some(&e.player),
        }
    }
}

impl EventKind for Event {
    fn kind(&self) -> &'static str {
        match self {
            Event::Started(_) => "started",
            Event::Revealed(_) => "revealed",
            Event::Bought(_) => "bought",
            Event::Played(_) => "played",
            Event::TurnEnded(_) => "turn_ended",
            Event::TilesFlipped(_) => "tiles_flipped",
            Event::Passed(_) => "passed",
            Event::Discarded(_) => "discarded",
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Started(s) => write!(f, "started with {}", s.players.join(", ")),
            Event::Revealed(e) => write!(f, "revealed {} on stack {}", e.card, e.stack),
            Event::Bought(e) => write!(f, "{} bought {}", e.player, e.card),
            Event::Played(e) => {
                write!(
                    f,
                    "{} played {} at ({},{})",
                    e.player, e.card, e.cell[0], e.cell[1]
                )
            }
            Event::TurnEnded(e) => write!(f, "{} ended the turn", e.player),
            Event::TilesFlipped(e) => write!(f, "{} turned the tiles up", e.player),
            Event::Passed(e) => write!(f, "{} passed", e.player),
            Event::Discarded(e) => write!(f, "discarded {}", e.cards.join(", ")),
        }
    }
}
