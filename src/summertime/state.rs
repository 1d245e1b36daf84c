//! The state of a Summertime table between two events.

use super::deck::{CardIndex, CardIx, Cost, Deck};
use crate::kit::game::Seat;
use serde::Serialize;
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

#[derive(Debug, PartialEq, Eq, Serialize)]
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

/// `clone_from` reuses the destination's buffers.
impl Clone for Player {
    fn clone(&self) -> Self {
        Player {
            name: self.name.clone(),
            hand: self.hand.clone(),
            unknown: self.unknown,
            up: self.up.clone(),
            down: self.down.clone(),
            points: self.points,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.name.clone_from(&source.name);
        self.hand.clone_from(&source.hand);
        self.unknown = source.unknown;
        self.up.clone_from(&source.up);
        self.down.clone_from(&source.down);
        self.points = source.points;
    }
}

/// One of the three stacks.
#[derive(Debug, PartialEq, Eq)]
pub struct Stack {
    /// Dealt games: the cards still in the stack, top first.
    pub cards: Vec<CardIndex>,
    /// How many cards are still in the stack.
    pub remaining: u8,
    /// Physical games: the back cost declared for the stack's top card.
    pub behind: Option<Cost>,
}

/// `clone_from` reuses the destination's buffer.
impl Clone for Stack {
    fn clone(&self) -> Self {
        Stack {
            cards: self.cards.clone(),
            remaining: self.remaining,
            behind: self.behind,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.cards.clone_from(&source.cards);
        self.remaining = source.remaining;
        self.behind = source.behind;
    }
}

/// The stacks due for a reveal, in order: at most the three stacks, each
/// once. It reads as a slice (`stacks[0]` is the next), without a heap
/// allocation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Reveals {
    stacks: [u8; 3],
    len: u8,
}

impl Reveals {
    /// The stacks of `stacks`, in order; at most three are kept.
    pub fn new(stacks: impl IntoIterator<Item = u8>) -> Reveals {
        let mut reveals = Reveals {
            stacks: [0; 3],
            len: 0,
        };
        for stack in stacks.into_iter().take(3) {
            reveals.stacks[usize::from(reveals.len)] = stack;
            reveals.len += 1;
        }
        reveals
    }

    /// The same stacks without `stack`, the others in their order.
    pub(super) fn remove(&mut self, stack: u8) {
        if let Some(i) = self.iter().position(|&s| s == stack) {
            self.stacks.copy_within(i + 1.., i);
            self.len -= 1;
        }
    }
}

impl std::ops::Deref for Reveals {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.stacks[..usize::from(self.len)]
    }
}

/// As the list it reads as: `[0, 1, 2]`.
impl std::fmt::Debug for Reveals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What the table waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Cards must be turned up in front of these stacks, in this order.
    Reveal(Reveals),
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    Bought { card: CardIndex },
    Flipped,
    Passed,
}

/// One finished or current turn, for the score track and the turn log.
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct TurnRecord {
    pub number: u32,
    pub player: usize,
    pub action: TurnAction,
    /// Cards played: card, cell, points.
    pub plays: Plays,
    /// The player's total after the turn.
    pub total: u32,
}

/// `clone_from` reuses the destination's buffers.
impl Clone for TurnRecord {
    fn clone(&self) -> Self {
        TurnRecord {
            number: self.number,
            player: self.player,
            action: self.action,
            plays: self.plays.clone(),
            total: self.total,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.number = source.number;
        self.player = source.player;
        self.action = source.action;
        self.plays.clone_from(&source.plays);
        self.total = source.total;
    }
}

/// One card played: card, cell, points.
pub type Play = (CardIndex, Cell, u32);

/// How many plays of a turn [`Plays`] keeps without a heap allocation: the
/// default deck's plays per turn.
const INLINE_PLAYS: usize = 5;

/// The cards played in one turn, in order. It reads as a slice of
/// [`Play`]s; the first few are kept inline, so that recording a turn
/// allocates nothing for the default deck.
pub struct Plays {
    len: u8,
    inline: [Play; INLINE_PLAYS],
    /// Every play, once there are more than fit inline; else empty.
    spilled: Vec<Play>,
}

impl Plays {
    pub fn new() -> Plays {
        Plays {
            len: 0,
            inline: [(0, (0, 0), 0); INLINE_PLAYS],
            spilled: Vec::new(),
        }
    }

    pub fn as_slice(&self) -> &[Play] {
        if self.spilled.is_empty() {
            &self.inline[..usize::from(self.len)]
        } else {
            &self.spilled
        }
    }

    pub(super) fn push(&mut self, play: Play) {
        let len = usize::from(self.len);
        if self.spilled.is_empty() && len < INLINE_PLAYS {
            self.inline[len] = play;
            self.len += 1;
        } else {
            if self.spilled.is_empty() {
                self.spilled.extend_from_slice(&self.inline[..len]);
            }
            self.spilled.push(play);
        }
    }
}

impl Default for Plays {
    fn default() -> Plays {
        Plays::new()
    }
}

impl std::ops::Deref for Plays {
    type Target = [Play];
    fn deref(&self) -> &[Play] {
        self.as_slice()
    }
}

impl Clone for Plays {
    fn clone(&self) -> Self {
        Plays {
            len: self.len,
            inline: self.inline,
            spilled: self.spilled.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.len = source.len;
        self.inline = source.inline;
        self.spilled.clone_from(&source.spilled);
    }
}

impl PartialEq for Plays {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Plays {}

/// As the list it reads as.
impl std::fmt::Debug for Plays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Plays {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'a> IntoIterator for &'a Plays {
    type Item = &'a Play;
    type IntoIter = std::slice::Iter<'a, Play>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The cards on the table by cell, in order of column then row, as a map
/// reads: [`Grid::get`], [`Grid::keys`], [`Grid::values`], [`Grid::iter`],
/// `grid[&cell]`. Kept as a sorted list, whose buffer `clone_from` reuses.
#[derive(Default, PartialEq, Eq)]
pub struct Grid {
    cells: Vec<(Cell, Tableau)>,
}

/// A grid entry as a map's iterator gives it.
type Entry<'a> = (&'a Cell, &'a Tableau);

fn entry((cell, tableau): &(Cell, Tableau)) -> Entry<'_> {
    (cell, tableau)
}

fn key((cell, _): &(Cell, Tableau)) -> &Cell {
    cell
}

fn value((_, tableau): &(Cell, Tableau)) -> &Tableau {
    tableau
}

/// The entries of a [`Grid`], in order of column then row.
pub type GridIter<'a> = std::iter::Map<
    std::slice::Iter<'a, (Cell, Tableau)>,
    for<'b> fn(&'b (Cell, Tableau)) -> Entry<'b>,
>;
/// The cells of a [`Grid`], in order.
pub type GridKeys<'a> = std::iter::Map<
    std::slice::Iter<'a, (Cell, Tableau)>,
    for<'b> fn(&'b (Cell, Tableau)) -> &'b Cell,
>;
/// The cards of a [`Grid`], in order of their cells.
pub type GridValues<'a> = std::iter::Map<
    std::slice::Iter<'a, (Cell, Tableau)>,
    for<'b> fn(&'b (Cell, Tableau)) -> &'b Tableau,
>;

impl Grid {
    pub fn len(&self) -> usize {
        self.cells.len()
    }
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
    fn find(&self, cell: &Cell) -> Result<usize, usize> {
        self.cells.binary_search_by(|(c, _)| c.cmp(cell))
    }
    pub fn get(&self, cell: &Cell) -> Option<&Tableau> {
        self.find(cell).ok().map(|i| &self.cells[i].1)
    }
    pub fn contains_key(&self, cell: &Cell) -> bool {
        self.find(cell).is_ok()
    }
    pub fn iter(&self) -> GridIter<'_> {
        self.cells
            .iter()
            .map(entry as for<'b> fn(&'b (Cell, Tableau)) -> Entry<'b>)
    }
    pub fn keys(&self) -> GridKeys<'_> {
        self.cells
            .iter()
            .map(key as for<'b> fn(&'b (Cell, Tableau)) -> &'b Cell)
    }
    pub fn values(&self) -> GridValues<'_> {
        self.cells
            .iter()
            .map(value as for<'b> fn(&'b (Cell, Tableau)) -> &'b Tableau)
    }
    /// Lays a card on an empty cell, or replaces what lies there.
    pub(super) fn insert(&mut self, cell: Cell, tableau: Tableau) {
        match self.find(&cell) {
            Ok(i) => self.cells[i].1 = tableau,
            Err(i) => self.cells.insert(i, (cell, tableau)),
        }
    }
}

impl Clone for Grid {
    fn clone(&self) -> Self {
        Grid {
            cells: self.cells.clone(),
        }
    }
    fn clone_from(&mut self, source: &Self) {
        self.cells.clone_from(&source.cells);
    }
}

impl std::ops::Index<&Cell> for Grid {
    type Output = Tableau;
    fn index(&self, cell: &Cell) -> &Tableau {
        self.get(cell).expect("no card at this cell")
    }
}

impl<'a> IntoIterator for &'a Grid {
    type Item = Entry<'a>;
    type IntoIter = GridIter<'a>;
    fn into_iter(self) -> GridIter<'a> {
        self.iter()
    }
}

/// As the map it reads as: `{(0, 0): Tableau { … }, …}`.
impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

#[derive(Debug, PartialEq)]
pub struct State {
    pub(super) deck: Arc<Deck>,
    pub(super) players: Vec<Player>,
    /// Whether the order is known (dealt) or entered as revealed (physical).
    pub(super) dealt: bool,
    pub(super) stacks: Vec<Stack>,
    pub(super) closing_up: [u8; 3],
    pub(super) display: [Option<CardIx>; 3],
    pub(super) grid: Grid,
    /// The same cards by cell, in a dense square around (0,0) that holds
    /// every cell a legal grid can reach: see [`Dense`].
    pub(super) dense: Dense,
    /// The empty cells next to a played card, in order of column then
    /// row: where the next card may go. Only `play` writes it.
    pub(super) open: Vec<Cell>,
    /// For each open cell, the pictures of the cards around it, as a bit
    /// set (bit `p % 64` for the picture `p`). Only `play` writes it.
    pub(super) around: Vec<u64>,
    /// The corners of the grid's bounding box, `(x0, y0, x1, y1)`, once a
    /// card lies. Only `play` writes it.
    pub(super) bounds: Option<(i32, i32, i32, i32)>,
    /// Cards whose identity has been used: dealt (known), revealed, played.
    pub(super) seen: Vec<bool>,
    pub(super) phase: Phase,
    /// After reveals: the phase to return to.
    pub(super) resume: Phase,
    pub(super) active: Seat,
    /// Consecutive passes, and who passed first.
    pub(super) passes: u8,
    pub(super) first_passer: Seat,
    pub(super) turns: Vec<TurnRecord>,
    pub(super) ended: Option<EndReason>,
    /// The log format the game is recorded in: from
    /// [`super::MATCHED_BACKS`] on, a physical game keeps an unseen card
    /// for every declared back and turns its stacks up in any order.
    pub(super) format: u32,
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
    /// The player at `seat`.
    #[inline]
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }
    #[inline]
    pub(super) fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
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
        self.display.map(|c| c.map(CardIx::index))
    }
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    /// The player whose turn it is (or was, once the game is over).
    pub fn active(&self) -> usize {
        self.active.index()
    }
    /// [`State::active`] as a seat.
    pub fn active_seat(&self) -> Seat {
        self.active
    }
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }
    pub fn ended(&self) -> Option<&EndReason> {
        self.ended.as_ref()
    }
    /// Whether a physical game keeps an unseen card for every declared
    /// back and lets its stacks be turned up in any order: a game recorded
    /// in log format [`super::MATCHED_BACKS`] or later.
    pub fn matches_backs(&self) -> bool {
        !self.dealt && self.format >= super::MATCHED_BACKS
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

/// `clone_from` reuses every buffer of the destination, and leaves room in
/// each for as much as the rules let it grow to, so that playing on from the
/// copy allocates nothing: after a first copy, copying a table of the same
/// deck and playing it out allocates nothing.
impl Clone for State {
    fn clone(&self) -> Self {
        State {
            deck: Arc::clone(&self.deck),
            players: self.players.clone(),
            dealt: self.dealt,
            stacks: self.stacks.clone(),
            closing_up: self.closing_up,
            display: self.display,
            grid: self.grid.clone(),
            dense: self.dense.clone(),
            open: self.open.clone(),
            around: self.around.clone(),
            bounds: self.bounds,
            seen: self.seen.clone(),
            phase: self.phase,
            resume: self.resume,
            active: self.active,
            passes: self.passes,
            first_passer: self.first_passer,
            turns: self.turns.clone(),
            ended: self.ended,
            format: self.format,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        if !Arc::ptr_eq(&self.deck, &source.deck) {
            self.deck = Arc::clone(&source.deck);
        }
        self.players.clone_from(&source.players);
        self.dealt = source.dealt;
        self.stacks.clone_from(&source.stacks);
        self.closing_up = source.closing_up;
        self.display = source.display;
        self.grid.clone_from(&source.grid);
        self.dense.clone_from(&source.dense);
        self.open.clone_from(&source.open);
        self.around.clone_from(&source.around);
        self.bounds = source.bounds;
        self.seen.clone_from(&source.seen);
        self.phase = source.phase;
        self.resume = source.resume;
        self.active = source.active;
        self.passes = source.passes;
        self.first_passer = source.first_passer;
        self.turns.clone_from(&source.turns);
        self.ended = source.ended;
        self.format = source.format;
        self.make_room();
    }
}

impl State {
    /// Leaves room in every growing buffer for as much as the rules let it
    /// hold: a hand, the grid, its open cells and the turns.
    fn make_room(&mut self) {
        fn room<T>(buffer: &mut Vec<T>, most: usize) {
            buffer.reserve(most.saturating_sub(buffer.len()));
        }
        let rules = self.deck.rules();
        let cells = usize::from(rules.grid_long) * usize::from(rules.grid_short);
        let cards = self.deck.cards().len();
        for player in &mut self.players {
            room(&mut player.hand, cards);
        }
        room(&mut self.grid.cells, cells);
        // Each card borders at most four open cells.
        room(&mut self.open, 4 * cells + 1);
        room(&mut self.around, 4 * cells + 1);
        // Buys and discards each take one of the stacks' cards; a flip
        // follows a buy; at most two passes in a row. Counted generously.
        room(&mut self.turns, 8 * 3 * usize::from(rules.stack_size) + 8);
    }
}

/// The grid's cards in a dense square of cells `-reach..=reach` on both
/// axes, where `reach` is one less than the grid's long side: no legal
/// grid, which starts at (0,0), leaves it. It answers "which card lies
/// here" without searching the tree; only `play` writes it. For a deck
/// with a grid too large to keep dense, it stays empty and
/// [`State::card_at`] asks the tree.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Dense {
    reach: i32,
    cards: Vec<u32>,
}

impl Clone for Dense {
    fn clone(&self) -> Self {
        Dense {
            reach: self.reach,
            cards: self.cards.clone(),
        }
    }
    fn clone_from(&mut self, source: &Self) {
        self.reach = source.reach;
        self.cards.clone_from(&source.cards);
    }
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
