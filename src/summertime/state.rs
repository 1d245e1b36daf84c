//! The state of a Summertime table between two events.

use super::deck::{CardIndex, Cost, Deck};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A grid position `(column, row)`; the first card lies at `(0, 0)`.
pub type Cell = (i32, i32);

/// A card on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Tableau {
    pub card: CardIndex,
    /// The player who played it.
    pub by: usize,
    /// The points it earned when played.
    pub points: u32,
    /// The turn in which it was played.
    pub turn: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Player {
    pub name: String,
    /// Cards known to be in hand.
    pub hand: Vec<CardIndex>,
    /// In a physical game, dealt cards not yet seen.
    pub unknown: u8,
    /// Face-up tiles per item kind.
    pub up: Vec<u8>,
    /// Face-down tiles per item kind.
    pub down: Vec<u8>,
    /// Points scored by playing cards.
    pub points: u32,
}

impl Player {
    pub fn hand_size(&self) -> usize {
        self.hand.len() + usize::from(self.unknown)
    }
}

/// One of the three stacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stack {
    /// Dealt games: the cards still in the stack, top first.
    pub cards: Vec<CardIndex>,
    /// How many cards are still in the stack.
    pub remaining: u8,
    /// Physical games: the back cost declared for the stack's top card.
    pub behind: Option<Cost>,
}

/// What the table waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cards must be turned up in front of these stacks, in this order.
    Reveal(Vec<u8>),
    /// Two passes in a row: the face-up cards must be discarded.
    Discard,
    /// The active player's turn.
    Turn {
        bought: bool,
        plays: u8,
    },
    Over,
}

/// What a turn was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    Bought { card: CardIndex },
    Flipped,
    Passed,
}

/// One finished or current turn, for the score track and the turn log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnRecord {
    pub number: u32,
    pub player: usize,
    pub action: TurnAction,
    /// Cards played: card, cell, points.
    pub plays: Vec<(CardIndex, Cell, u32)>,
    /// The player's total after the turn.
    pub total: u32,
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The turn in which the last adventure card was bought is over.
    LastCardBought,
    /// Two passes in a row discarded the last adventure cards.
    LastCardsDiscarded,
    /// The grid holds its maximum of cards.
    GridFull { cards: usize },
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::LastCardBought => f.write_str("the last adventure card was bought"),
            EndReason::LastCardsDiscarded => {
                f.write_str("two passes discarded the last adventure cards")
            }
            EndReason::GridFull { cards } => write!(f, "the grid is full with {cards} cards"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub(super) deck: Arc<Deck>,
    pub(super) players: Vec<Player>,
    /// Whether the order is known (dealt) or entered as revealed (physical).
    pub(super) dealt: bool,
    pub(super) stacks: Vec<Stack>,
    pub(super) closing_up: [u8; 3],
    pub(super) display: [Option<CardIndex>; 3],
    pub(super) grid: BTreeMap<Cell, Tableau>,
    /// The same cards by cell, in a dense square around (0,0) that holds
    /// every cell a legal grid can reach: see [`Dense`].
    pub(super) dense: Dense,
    /// The empty cells next to a played card, in order of column then
    /// row: where the next card may go. Only `play` writes it.
    pub(super) open: Vec<Cell>,
    /// The corners of the grid's bounding box, `(x0, y0, x1, y1)`, once a
    /// card lies. Only `play` writes it.
    pub(super) bounds: Option<(i32, i32, i32, i32)>,
    /// Cards whose identity has been used: dealt (known), revealed, played.
    pub(super) seen: Vec<bool>,
    pub(super) phase: Phase,
    /// After reveals: the phase to return to.
    pub(super) resume: Phase,
    pub(super) active: usize,
    /// Consecutive passes, and who passed first.
    pub(super) passes: u8,
    pub(super) first_passer: usize,
    pub(super) turns: Vec<TurnRecord>,
    pub(super) ended: Option<EndReason>,
}

impl State {
    pub fn deck(&self) -> &Deck {
        &self.deck
    }
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name == name)
    }
    pub fn is_dealt(&self) -> bool {
        self.dealt
    }
    pub fn stacks(&self) -> &[Stack] {
        &self.stacks
    }
    pub fn closing_up(&self) -> [u8; 3] {
        self.closing_up
    }
    /// The face-up card in front of each stack.
    pub fn display(&self) -> [Option<CardIndex>; 3] {
        self.display
    }
    pub fn grid(&self) -> &BTreeMap<Cell, Tableau> {
        &self.grid
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    /// The player whose turn it is (or was, once the game is over).
    pub fn active(&self) -> usize {
        self.active
    }
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }
    pub fn ended(&self) -> Option<&EndReason> {
        self.ended.as_ref()
    }

    /// The price of the face-up card in front of `stack`: the back of the
    /// stack's top card, or the closing card once the stack is empty.
    pub fn price(&self, stack: usize) -> Option<Cost> {
        let s = &self.stacks[stack];
        if s.remaining == 0 {
            let side = usize::from(self.closing_up[stack]);
            return Some(self.deck.closing_cards()[stack].sides[side]);
        }
        if self.dealt {
            s.cards.first().map(|&c| self.deck.card(c).cost)
        } else {
            s.behind
        }
    }

    /// The bounding box `(width, height)` of the grid with `extra` added.
    pub fn extent_with(&self, (x, y): Cell) -> (i32, i32) {
        let (x0, y0, x1, y1) = self.bounds.unwrap_or((x, y, x, y));
        (x1.max(x) - x0.min(x) + 1, y1.max(y) - y0.min(y) + 1)
    }
}

/// The grid's cards in a dense square of cells `-reach..=reach` on both
/// axes, where `reach` is one less than the grid's long side: no legal
/// grid, which starts at (0,0), leaves it. It answers "which card lies
/// here" without searching the tree; only `play` writes it. For a deck
/// with a grid too large to keep dense, it stays empty and
/// [`State::card_at`] asks the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Dense {
    reach: i32,
    cards: Vec<u32>,
}

/// The largest reach kept dense: a square of 63 × 63 cells.
const DENSE_REACH: i32 = 31;
const NO_CARD: u32 = u32::MAX;

impl Dense {
    pub fn new(long_side: u8) -> Dense {
        let reach = i32::from(long_side.max(1)) - 1;
        if reach > DENSE_REACH {
            return Dense {
                reach,
                cards: Vec::new(),
            };
        }
        let side = (2 * reach + 1) as usize;
        Dense {
            reach,
            cards: vec![NO_CARD; side * side],
        }
    }

    #[inline]
    fn slot(&self, (x, y): Cell) -> Option<usize> {
        let r = self.reach;
        if x < -r || x > r || y < -r || y > r {
            return None;
        }
        let side = 2 * r + 1;
        Some(((x + r) * side + (y + r)) as usize)
    }

    #[inline]
    fn is_kept(&self) -> bool {
        !self.cards.is_empty()
    }

    pub fn set(&mut self, cell: Cell, card: super::deck::CardIndex) {
        if let (true, Some(i)) = (self.is_kept(), self.slot(cell)) {
            self.cards[i] = u32::try_from(card).unwrap_or(NO_CARD);
        }
    }
}

impl State {
    /// The card at `cell`, if any.
    #[inline]
    pub(super) fn card_at(&self, cell: Cell) -> Option<super::deck::CardIndex> {
        if !self.dense.is_kept() {
            return self.grid.get(&cell).map(|t| t.card);
        }
        let i = self.dense.slot(cell)?;
        let card = self.dense.cards[i];
        (card != NO_CARD).then_some(card as usize)
    }
}

/// The four orthogonal neighbours of a cell.
pub fn neighbours((x, y): Cell) -> [Cell; 4] {
    [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
}
