//! The Summertime reducer: every `check_*` reads the state and returns what
//! to do; only then does `apply` write. A rejected event changes nothing.

use super::action::{Action, Decision, resolve};
use super::backs::{Taking, check_matched, declared};
use super::deck::{CardIndex, CardIx, Cost, Item, Value};
use super::error::{At, Awaited, Before, Borders, Either, PassRun, RuleError};
use super::event::Event;
use super::state::{
    Cell, EndReason, Phase, Plays, Reveals, State, Tableau, TurnAction, TurnRecord, neighbours,
};
use crate::kit::game::Seat;

/// Folds one event into the state, or explains why it is illegal now.
pub fn apply(state: &mut State, event: &Event) -> Result<(), RuleError> {
    let action = resolve(state, event)?;
    apply_action(state, action)
}

/// Folds one resolved action into the state, or explains why it is illegal
/// now. An index beyond the table is refused as an unknown player or card.
pub fn apply_action(state: &mut State, action: Action) -> Result<(), RuleError> {
    let points = check(state, action)?;
    commit(state, action, points);
    Ok(())
}

/// Whether `action` is legal now: [`apply_action`] would accept it.
pub fn is_legal(state: &State, action: Action) -> bool {
    check(state, action).is_ok()
}

pub(super) fn game_over(state: &State) -> Result<(), RuleError> {
    match &state.ended {
        Some(reason) => Err(RuleError::GameOver { reason: *reason }),
        None => Ok(()),
    }
}

/// Every rule `action` must satisfy now, in the order the messages have
/// always been given. A play gives the points it earns; anything else 0.
/// [`resolve`] calls the same functions for the rules that come before a
/// name.
pub(super) fn check(state: &State, action: Action) -> Result<u32, RuleError> {
    game_over(state)?;
    action.beyond(state)?;
    let (Some(p), Some(decision)) = (action.seat(), action.decision()) else {
        return match action {
            Action::Reveal {
                stack,
                card,
                behind,
            } => {
                check_reveal(state, stack, card, behind.is_some())?;
                if let Some(items) = behind {
                    check_back(state, stack, items)?;
                }
                let behind = declared(behind);
                check_matched(state, card, Taking::Reveal { stack, behind }).map(|()| 0)
            }
            _ => check_discard_due(state).map(|()| 0),
        };
    };
    check_turn(state, p, decision)?;
    match action {
        Action::Reveal { .. } | Action::Discard => unreachable!("no player reveals or discards"),
        Action::Buy { card, .. } => check_buy(state, p, card).map(|()| 0),
        Action::Play { card, cell, .. } => check_play(state, p, card, cell),
        Action::Flip { .. } => check_flip(state, p).map(|()| 0),
        Action::EndTurn { .. } | Action::Pass { .. } => Ok(0),
    }
}

/// The rule of the turn: a player acts only in a turn phase and in their
/// own turn; buying, turning tiles up and passing each open a turn, ending
/// one follows a buy, and a play follows a buy while plays are left.
pub(super) fn check_turn(state: &State, p: Seat, decision: Decision) -> Result<(), RuleError> {
    let found = decision.kind();
    let bought = turn_phase(state, found)?;
    if p != state.active {
        return Err(RuleError::NotYourTurn {
            expected: state.player(state.active).name.clone(),
            found: state.player(p).name.clone(),
        });
    }
    let due = match decision {
        Decision::Buy | Decision::Flip | Decision::Pass => !bought,
        Decision::EndTurn => bought,
        Decision::Play => return check_play_phase(state, p),
    };
    if due {
        Ok(())
    } else {
        Err(unexpected(state, found))
    }
}

/// Turning tiles up needs a tile face down.
fn check_flip(state: &State, p: Seat) -> Result<(), RuleError> {
    let player = state.player(p);
    if player.down.iter().all(|&n| n == 0) {
        let player = player.name.clone();
        return Err(RuleError::NothingToFlip { player });
    }
    Ok(())
}

/// A discard comes only after two passes in a row.
pub(super) fn check_discard_due(state: &State) -> Result<(), RuleError> {
    if state.phase == Phase::Discard {
        Ok(())
    } else {
        Err(unexpected(state, "discarded"))
    }
}

/// A reveal comes only when the table waits for one, in front of the next
/// stack due; in a physical game that matches its backs, in front of any
/// stack due.
pub(super) fn check_reveal_due(state: &State, stack: u8) -> Result<(), RuleError> {
    let Phase::Reveal(stacks) = &state.phase else {
        return Err(unexpected(state, "revealed"));
    };
    if state.matches_backs() && !stacks.contains(&stack) {
        return Err(RuleError::StackNotDue {
            due: super::error::Stacks(stacks.to_vec()),
            found: stack,
        });
    }
    if !state.matches_backs() && stack != stacks[0] {
        return Err(RuleError::WrongStack {
            expected: stacks[0],
            found: stack,
        });
    }
    Ok(())
}

/// Writes a checked action; `points` is what [`check`] found a play earns.
fn commit(state: &mut State, action: Action, points: u32) {
    match action {
        Action::Reveal {
            stack,
            card,
            behind,
        } => {
            reveal(state, usize::from(stack), card, behind.map(back_cost));
        }
        Action::Discard => discard(state),
        Action::Buy { player, card } => {
            let slot = state
                .display
                .iter()
                .position(|&d| d == Some(card))
                .expect("a checked buy is face up");
            buy(state, player, slot, card);
        }
        Action::Play { player, card, cell } => {
            let from_unknown = in_hand(state, player, card).expect("a checked play is in hand");
            play(state, player, card, from_unknown, cell, points);
        }
        Action::EndTurn { .. } => end_turn(state),
        Action::Flip { player } => flip(state, player),
        Action::Pass { .. } => pass(state),
    }
}

/// The acting player's total if `action` (legal now) were applied, for a
/// bot weighing its options, without changing the state. It follows the
/// same rules as [`commit`]: what a play earns comes from [`placement`],
/// and the hand penalty counts once the action ends the game. A property
/// test checks it against applying the action to a copy.
pub fn total_after(state: &State, action: Action) -> Option<i32> {
    let p = action.seat()?;
    let earned = check(state, action).ok()?;
    let player = state.player(p);
    let penalty = i32::from(state.deck.rules().hand_penalty);
    let (points, in_hand, over) = match action {
        Action::Play { .. } => {
            let over = grid_full(state, state.grid.len() + 1);
            (player.points + earned, player.hand_size() - 1, over)
        }
        Action::EndTurn { .. } => (player.points, player.hand_size(), !cards_left(state)),
        Action::Buy { .. } => (player.points, player.hand_size() + 1, false),
        _ => (player.points, player.hand_size(), false),
    };
    let hand_penalty = if over { penalty * in_hand as i32 } else { 0 };
    Some(points as i32 - hand_penalty)
}

/// What the table waits for now.
pub(super) fn awaited(state: &State) -> Awaited {
    let player = state.player(state.active).name.clone();
    match &state.phase {
        Phase::Reveal(stacks) => Awaited::Reveal { stack: stacks[0] },
        Phase::Discard => Awaited::Discard,
        Phase::Turn { bought: false, .. } | Phase::Over => Awaited::Action { player },
        Phase::Turn { bought: true, .. } => Awaited::PlayOrEnd { player },
    }
}

/// An event the table does not wait for now. A reveal or a discard in the
/// middle of the turns says why it is not due.
pub(super) fn unexpected(state: &State, found: &'static str) -> RuleError {
    if let Phase::Turn { .. } = state.phase {
        match found {
            "revealed" => {
                let face_up = display_ids(state);
                return RuleError::RevealWhileFaceUp { face_up };
            }
            "discarded" => {
                let passes = pass_run(state);
                return RuleError::NotTwoPasses { passes };
            }
            _ => {}
        }
    }
    RuleError::Unexpected {
        awaited: awaited(state),
        found,
    }
}

/// The passes since the last turn that was not one, for a discard that is
/// not due: in a turn phase there is at most one pass in a row.
fn pass_run(state: &State) -> PassRun {
    let name = |p: usize| state.players[p].name.clone();
    let before = |turn: Option<&TurnRecord>| match turn {
        None => Before::Start,
        Some(TurnRecord {
            action: TurnAction::Passed,
            ..
        }) => Before::Discard,
        Some(t) => Before::Turn {
            player: name(t.player),
            action: match t.action {
                TurnAction::Bought { .. } => "buy",
                _ => "tile flip",
            },
        },
    };
    let turns = &state.turns;
    match turns.split_last() {
        Some((last, earlier)) if state.passes == 1 => PassRun {
            last_pass: Some(name(last.player)),
            before: before(earlier.last()),
        },
        _ => PassRun {
            last_pass: None,
            before: before(turns.last()),
        },
    }
}

/// A back cost declared in a physical game must be one that some card of
/// the deck shows.
fn check_back(state: &State, stack: u8, items: [u32; 3]) -> Result<(), RuleError> {
    let cost = back_cost(items);
    if state.deck.cards().iter().any(|c| c.cost == cost) {
        return Ok(());
    }
    Err(RuleError::NoSuchBack {
        stack,
        declared: state.deck.describe_cost(cost),
    })
}

/// The cost a reveal's `behind` declares, its items sorted.
pub(super) fn back_cost(items: [u32; 3]) -> Cost {
    let mut items = items.map(|i| i as Item);
    items.sort_unstable();
    Cost(items)
}

/// The rules of a reveal. None of them looks at which items a declared
/// back cost names, only at whether one is declared.
pub(super) fn check_reveal(
    state: &State,
    stack: u8,
    card: CardIx,
    behind: bool,
) -> Result<(), RuleError> {
    check_reveal_due(state, stack)?;
    let s = &state.stacks[usize::from(stack)];
    let id = || state.deck[card].id.clone();
    if state.dealt {
        if s.cards[0] != card.index() {
            return Err(RuleError::WrongReveal {
                stack,
                expected: state.deck.card(s.cards[0]).id.clone(),
                found: id(),
            });
        }
        if behind {
            return Err(RuleError::BehindNotExpected {
                stack,
                reason: "in a dealt game the order gives it",
            });
        }
        return Ok(());
    }
    if state.seen[card.index()] {
        return Err(RuleError::AlreadySeen { card: id() });
    }
    let actual = state.deck[card].cost;
    if let Some(declared) = s.behind
        && declared != actual
    {
        return Err(RuleError::BackMismatch {
            card: id(),
            declared: state.deck.describe_cost(declared),
            actual: state.deck.describe_cost(actual),
        });
    }
    match (behind, s.remaining > 1) {
        (false, false) | (true, true) => Ok(()),
        (true, false) => Err(RuleError::BehindNotExpected {
            stack,
            reason: "the stack is now empty and its closing card gives the price",
        }),
        (false, true) => Err(RuleError::BehindMissing { stack }),
    }
}

fn reveal(state: &mut State, stack: usize, card: CardIx, behind: Option<Cost>) {
    let s = &mut state.stacks[stack];
    if state.dealt {
        s.cards.remove(0);
    } else {
        s.behind = behind;
    }
    s.remaining -= 1;
    state.display[stack] = Some(card);
    state.seen[card.index()] = true;
    if let Phase::Reveal(stacks) = &mut state.phase {
        stacks.remove(stack as u8);
        if stacks.is_empty() {
            state.phase = state.resume;
        }
    }
}

pub(super) fn display_ids(state: &State) -> Vec<String> {
    state
        .display
        .iter()
        .flatten()
        .map(|&c| state.deck[c].id.clone())
        .collect()
}

/// The stacks that still hold cards, for the next reveals.
fn to_reveal(state: &State) -> Reveals {
    Reveals::new((0..3u8).filter(|&s| state.stacks[usize::from(s)].remaining > 0))
}

fn discard(state: &mut State) {
    state.display = [None; 3];
    state.passes = 0;
    state.active = state.first_passer;
    let stacks = to_reveal(state);
    if stacks.is_empty() {
        state.phase = Phase::Over;
        state.ended = Some(EndReason::LastCardsDiscarded);
    } else {
        state.phase = Phase::Reveal(stacks);
        state.resume = Phase::Turn {
            bought: false,
            plays: 0,
        };
    }
}

/// A player acts only in a turn phase. Gives whether the active player has
/// bought this turn.
pub(super) fn turn_phase(state: &State, found: &'static str) -> Result<bool, RuleError> {
    match state.phase {
        Phase::Turn { bought, .. } => Ok(bought),
        _ => Err(unexpected(state, found)),
    }
}

fn check_buy(state: &State, p: Seat, card: CardIx) -> Result<(), RuleError> {
    let Some(slot) = state.display.iter().position(|&d| d == Some(card)) else {
        return Err(RuleError::NotFaceUp {
            found: state.deck[card].id.clone(),
            face_up: display_ids(state),
        });
    };
    let cost = state.price(slot).expect("a face-up card has a price");
    if !affordable(state, p, cost) {
        let up = &state.player(p).up;
        let needed = cost.counts(state.deck.items());
        let face_up = super::error::Shortfall(
            (0..needed.len())
                .filter(|&i| needed[i] > 0 && up[i] < needed[i])
                .map(|i| (up[i], state.deck.item_name(i).to_owned()))
                .collect(),
        );
        return Err(RuleError::CannotAfford {
            cost: state.deck.describe_cost(cost),
            face_up,
        });
    }
    Ok(())
}

pub(super) fn affordable(state: &State, p: Seat, cost: Cost) -> bool {
    let up = &state.player(p).up;
    cost.0.iter().all(|&item| {
        let need = cost.0.iter().filter(|&&i| i == item).count();
        usize::from(up[item]) >= need
    })
}

fn buy(state: &mut State, p: Seat, slot: usize, card: CardIx) {
    let cost = state.price(slot).expect("a face-up card has a price");
    let player = state.player_mut(p);
    for item in cost.0 {
        player.up[item] -= 1;
        player.down[item] += 1;
    }
    player.hand.push(card.index());
    state.display[slot] = None;
    state.passes = 0;
    record(state, TurnAction::Bought { card: card.index() });
    state.phase = Phase::Turn {
        bought: true,
        plays: 0,
    };
    if state.display.iter().all(Option::is_none) {
        let stacks = to_reveal(state);
        if !stacks.is_empty() {
            state.resume = state.phase;
            state.phase = Phase::Reveal(stacks);
        }
    }
}

fn record(state: &mut State, action: TurnAction) {
    let number = state.turns.len() as u32 + 1;
    let total = state.player(state.active).points;
    state.turns.push(TurnRecord {
        number,
        player: state.active.index(),
        action,
        plays: Plays::new(),
        total,
    });
}

/// Whether `card` can come from player `p`'s hand: known there, or one of a
/// physical game's unseen dealt cards. The flag says which.
pub(super) fn in_hand(state: &State, p: Seat, card: CardIx) -> Option<bool> {
    let player = state.player(p);
    if player.hand.contains(&card.index()) {
        Some(false)
    } else if !state.dealt && player.unknown > 0 && !state.seen[card.index()] {
        Some(true)
    } else {
        None
    }
}

/// Why a card does not fit a cell, before it is put into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Misfit {
    FirstNotAtOrigin,
    CellTaken(CardIndex),
    Detached,
    GridTooLarge { width: i32, height: i32 },
    NeedsNeighbour,
}

/// A cell as a card would see it: what any card there would border, or
/// why no card can go there. It depends on the grid, not on the card.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    pub cell: Cell,
    /// The cards on its four sides.
    pub around: [Option<CardIndex>; 4],
    pub misfit: Option<Misfit>,
}

/// The spot at `cell`.
pub(super) fn spot(state: &State, cell: Cell) -> Spot {
    let around = neighbours(cell).map(|n| state.card_at(n));
    Spot {
        cell,
        around,
        misfit: misfit(state, cell, &around),
    }
}

/// Why no card can go to `cell`, whose neighbours hold `around`, if so.
fn misfit(state: &State, cell: Cell, around: &[Option<CardIndex>; 4]) -> Option<Misfit> {
    if state.grid.is_empty() {
        return (cell != (0, 0)).then_some(Misfit::FirstNotAtOrigin);
    }
    if let Some(card) = state.card_at(cell) {
        return Some(Misfit::CellTaken(card));
    }
    if around.iter().all(Option::is_none) {
        return Some(Misfit::Detached);
    }
    let rules = state.deck.rules();
    let (width, height) = state.extent_with(cell);
    let (long, short) = (i32::from(rules.grid_long), i32::from(rules.grid_short));
    if width.max(height) > long || width.min(height) > short {
        return Some(Misfit::GridTooLarge { width, height });
    }
    None
}

/// The points `card` would earn at `spot`, or why it does not fit there.
pub(super) fn fit_at(state: &State, card: CardIx, spot: &Spot) -> Result<u32, Misfit> {
    if let Some(misfit) = spot.misfit {
        return Err(misfit);
    }
    let deck = &state.deck;
    let face = &deck[card];
    let around = spot.around.iter().flatten().map(|&c| deck.card(c));
    if !face.needs.is_empty() && !around.clone().any(|n| face.needs.contains(&n.picture)) {
        return Err(Misfit::NeedsNeighbour);
    }
    Ok(match face.value {
        Value::Points(v) => u32::from(v),
        Value::Multiplier(factor) => {
            let matched: u32 = around
                .filter(|n| face.needs.contains(&n.picture))
                .map(|n| match n.value {
                    Value::Points(v) => u32::from(v),
                    Value::Multiplier(_) => 0,
                })
                .sum();
            u32::from(factor) * matched
        }
    })
}

/// Why `card` cannot go to `cell` now, or the points it would earn.
pub(super) fn placement(state: &State, card: CardIx, cell: Cell) -> Result<u32, RuleError> {
    let spot = spot(state, cell);
    let misfit = match fit_at(state, card, &spot) {
        Ok(points) => return Ok(points),
        Err(misfit) => misfit,
    };
    let at = At(cell.0, cell.1);
    let deck = &state.deck;
    Err(match misfit {
        Misfit::FirstNotAtOrigin => RuleError::FirstNotAtOrigin { cell: at },
        Misfit::CellTaken(taken) => RuleError::CellTaken {
            cell: at,
            card: deck.card(taken).id.clone(),
        },
        Misfit::Detached => RuleError::Detached { cell: at },
        Misfit::GridTooLarge { width, height } => {
            let rules = deck.rules();
            RuleError::GridTooLarge {
                width,
                height,
                long: rules.grid_long,
                short: rules.grid_short,
            }
        }
        Misfit::NeedsNeighbour => {
            let face = &deck[card];
            let mut borders: Vec<String> = (spot.around.iter().flatten())
                .map(|&c| deck.picture_name(deck.card(c).picture).to_lowercase())
                .collect();
            let mut seen = Vec::new();
            borders.retain(|b| {
                !seen.contains(b) && {
                    seen.push(b.clone());
                    true
                }
            });
            RuleError::NeedsNeighbour {
                needs: Either(
                    face.needs
                        .iter()
                        .map(|&p| deck.picture_name(p).to_lowercase())
                        .collect(),
                ),
                cell: at,
                borders: Borders(borders),
            }
        }
    })
}

/// The rules of the turn for a play: a card bought, plays left.
fn check_play_phase(state: &State, p: Seat) -> Result<(), RuleError> {
    let rules = state.deck.rules();
    match state.phase {
        Phase::Turn { bought: false, .. } => {
            let player = state.player(p).name.clone();
            Err(RuleError::NotBought { player })
        }
        Phase::Turn { plays, .. } if plays >= rules.plays_per_turn => {
            let max = rules.plays_per_turn;
            Err(RuleError::TooManyPlays { max })
        }
        _ => Ok(()),
    }
}

fn check_play(state: &State, p: Seat, card: CardIx, cell: Cell) -> Result<u32, RuleError> {
    let Some(from_unknown) = in_hand(state, p, card) else {
        return Err(RuleError::NotInHand {
            player: state.player(p).name.clone(),
            card: state.deck[card].id.clone(),
        });
    };
    let points = placement(state, card, cell)?;
    if from_unknown {
        check_matched(state, card, Taking::Play)?;
    }
    Ok(points)
}

/// Whether a grid of `cards` cards is full.
pub(super) fn grid_full(state: &State, cards: usize) -> bool {
    let rules = state.deck.rules();
    cards >= usize::from(rules.grid_long) * usize::from(rules.grid_short)
}

/// Whether any adventure card is face up or still in a stack.
pub(super) fn cards_left(state: &State) -> bool {
    state.display.iter().any(Option::is_some) || state.stacks.iter().any(|s| s.remaining > 0)
}

fn play(state: &mut State, p: Seat, card: CardIx, from_unknown: bool, cell: Cell, points: u32) {
    let turn = state.turns.len() as u32;
    let picture = 1 << (state.deck[card].picture % 64);
    // The table's lists hold the card as a plain index.
    let card = card.index();
    let player = state.player_mut(p);
    if from_unknown {
        player.unknown -= 1;
    } else {
        player.hand.retain(|&c| c != card);
    }
    player.points += points;
    let total = player.points;
    state.seen[card] = true;
    state.dense.set(cell, card);
    state.bounds = Some(match state.bounds {
        None => (cell.0, cell.1, cell.0, cell.1),
        Some((x0, y0, x1, y1)) => (
            x0.min(cell.0),
            y0.min(cell.1),
            x1.max(cell.0),
            y1.max(cell.1),
        ),
    });
    if let Ok(i) = state.open.binary_search(&cell) {
        state.open.remove(i);
        state.around.remove(i);
    }
    for n in neighbours(cell) {
        if state.card_at(n).is_none() {
            match state.open.binary_search(&n) {
                Ok(i) => state.around[i] |= picture,
                Err(i) => {
                    state.open.insert(i, n);
                    state.around.insert(i, picture);
                }
            }
        }
    }
    state.grid.insert(
        cell,
        Tableau {
            card,
            by: p.index(),
            points,
            turn,
        },
    );
    if let Some(record) = state.turns.last_mut() {
        record.plays.push((card, cell, points));
        record.total = total;
    }
    if let Phase::Turn { plays, .. } = &mut state.phase {
        *plays += 1;
    }
    if grid_full(state, state.grid.len()) {
        let rules = state.deck.rules();
        let cards = usize::from(rules.grid_long) * usize::from(rules.grid_short);
        state.phase = Phase::Over;
        state.ended = Some(EndReason::GridFull { cards });
    }
}

fn next_player(state: &mut State) {
    state.active = Seat::new(1 - state.active.index());
    state.phase = Phase::Turn {
        bought: false,
        plays: 0,
    };
}

fn end_turn(state: &mut State) {
    if cards_left(state) {
        next_player(state);
    } else {
        state.phase = Phase::Over;
        state.ended = Some(EndReason::LastCardBought);
    }
}

fn flip(state: &mut State, p: Seat) {
    let player = state.player_mut(p);
    for (up, down) in player.up.iter_mut().zip(player.down.iter_mut()) {
        *up += std::mem::take(down);
    }
    state.passes = 0;
    record(state, TurnAction::Flipped);
    next_player(state);
}

fn pass(state: &mut State) {
    record(state, TurnAction::Passed);
    if state.passes == 1 {
        state.phase = Phase::Discard;
        state.passes = 0;
    } else {
        state.passes = 1;
        state.first_passer = state.active;
        next_player(state);
    }
}
