//! The Summertime reducer: every `check_*` reads the state and returns what
//! to do; only then does `apply` write. A rejected event changes nothing.

use super::deck::{CardIndex, Cost, Item, Value};
use super::error::{At, Awaited, Borders, Either, RuleError};
use super::event::{Bought, Event, Played, Revealed};
use super::state::{Action, Cell, EndReason, Phase, State, Tableau, TurnRecord, neighbours};
use crate::game::EventKind;

pub fn apply(state: &mut State, event: &Event) -> Result<(), RuleError> {
    if let Some(reason) = &state.ended {
        let reason = reason.clone();
        return Err(RuleError::GameOver { reason });
    }
    match event {
        Event::Started(_) => return Err(RuleError::SecondStart),
        Event::Revealed(e) => {
            let (stack, card, behind) = check_reveal(state, e)?;
            reveal(state, stack, card, behind);
        }
        Event::Discarded(e) => {
            check_discard(state, event, &e.cards)?;
            discard(state);
        }
        Event::Bought(e) => {
            let p = check_action(state, event, false)?;
            let (slot, card) = check_buy(state, p, e)?;
            buy(state, p, slot, card);
        }
        Event::Played(e) => {
            let p = check_actor(state, event)?;
            let (card, from_unknown, points) = check_play(state, p, e)?;
            play(state, p, card, from_unknown, (e.cell[0], e.cell[1]), points);
        }
        Event::TurnEnded(_) => {
            check_action(state, event, true)?;
            end_turn(state);
        }
        Event::TilesFlipped(_) => {
            let p = check_action(state, event, false)?;
            if state.players[p].down.iter().all(|&n| n == 0) {
                let player = state.players[p].name.clone();
                return Err(RuleError::NothingToFlip { player });
            }
            flip(state, p);
        }
        Event::Passed(_) => {
            check_action(state, event, false)?;
            pass(state);
        }
    }
    Ok(())
}

/// What the table waits for now.
pub(super) fn awaited(state: &State) -> Awaited {
    let player = state.players[state.active].name.clone();
    match &state.phase {
        Phase::Reveal(stacks) => Awaited::Reveal { stack: stacks[0] },
        Phase::Discard => Awaited::Discard,
        Phase::Turn { bought: false, .. } | Phase::Over => Awaited::Action { player },
        Phase::Turn { bought: true, .. } => Awaited::PlayOrEnd { player },
    }
}

fn unexpected(state: &State, event: &Event) -> RuleError {
    RuleError::Unexpected {
        awaited: awaited(state),
        found: event.kind(),
    }
}

fn card_index(state: &State, id: &str) -> Result<CardIndex, RuleError> {
    state
        .deck
        .card_index(id)
        .ok_or_else(|| RuleError::UnknownCard {
            found: id.to_owned(),
        })
}

fn item(state: &State, id: &str) -> Result<Item, RuleError> {
    (0..state.deck.items())
        .find(|&i| state.deck.item_id(i) == id)
        .ok_or_else(|| RuleError::UnknownItem {
            found: id.to_owned(),
        })
}

fn check_reveal(
    state: &State,
    e: &Revealed,
) -> Result<(usize, CardIndex, Option<Cost>), RuleError> {
    let Phase::Reveal(stacks) = &state.phase else {
        return Err(unexpected(state, &Event::Revealed(e.clone())));
    };
    if e.stack != stacks[0] {
        return Err(RuleError::WrongStack {
            expected: stacks[0],
            found: e.stack,
        });
    }
    let stack = usize::from(e.stack);
    let card = card_index(state, &e.card)?;
    let s = &state.stacks[stack];
    if state.dealt {
        if s.cards[0] != card {
            return Err(RuleError::WrongReveal {
                stack: e.stack,
                expected: state.deck.card(s.cards[0]).id.clone(),
                found: e.card.clone(),
            });
        }
        if e.behind.is_some() {
            return Err(RuleError::BehindNotExpected {
                stack: e.stack,
                reason: "in a dealt game the order gives it",
            });
        }
        return Ok((stack, card, None));
    }
    if state.seen[card] {
        let card = e.card.clone();
        return Err(RuleError::AlreadySeen { card });
    }
    let actual = state.deck.card(card).cost;
    if let Some(declared) = s.behind
        && declared != actual
    {
        return Err(RuleError::BackMismatch {
            card: e.card.clone(),
            declared: state.deck.describe_cost(declared),
            actual: state.deck.describe_cost(actual),
        });
    }
    let behind = match (&e.behind, s.remaining > 1) {
        (None, false) => None,
        (Some(_), false) => {
            return Err(RuleError::BehindNotExpected {
                stack: e.stack,
                reason: "the stack is now empty and its closing card gives the price",
            });
        }
        (None, true) => return Err(RuleError::BehindMissing { stack: e.stack }),
        (Some(names), true) => {
            let mut items = [0; 3];
            for (slot, name) in items.iter_mut().zip(names) {
                *slot = item(state, name)?;
            }
            items.sort_unstable();
            Some(Cost(items))
        }
    };
    Ok((stack, card, behind))
}

fn reveal(state: &mut State, stack: usize, card: CardIndex, behind: Option<Cost>) {
    let s = &mut state.stacks[stack];
    if state.dealt {
        s.cards.remove(0);
    } else {
        s.behind = behind;
    }
    s.remaining -= 1;
    state.display[stack] = Some(card);
    state.seen[card] = true;
    if let Phase::Reveal(stacks) = &mut state.phase {
        stacks.remove(0);
        if stacks.is_empty() {
            state.phase = state.resume.clone();
        }
    }
}

fn display_ids(state: &State) -> Vec<String> {
    state
        .display
        .iter()
        .flatten()
        .map(|&c| state.deck.card(c).id.clone())
        .collect()
}

fn check_discard(state: &State, event: &Event, cards: &[String]) -> Result<(), RuleError> {
    if state.phase != Phase::Discard {
        return Err(unexpected(state, event));
    }
    let expected = display_ids(state);
    if cards != expected {
        return Err(RuleError::WrongDiscard {
            expected,
            found: cards.to_vec(),
        });
    }
    Ok(())
}

/// The stacks that still hold cards, for the next reveals.
fn to_reveal(state: &State) -> Vec<u8> {
    (0..3u8)
        .filter(|&s| state.stacks[usize::from(s)].remaining > 0)
        .collect()
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

/// The acting player, who must be the active one, in a turn phase.
fn check_actor(state: &State, event: &Event) -> Result<usize, RuleError> {
    if !matches!(state.phase, Phase::Turn { .. }) {
        return Err(unexpected(state, event));
    }
    let name = event.player().unwrap_or_default();
    let p = state
        .player_index(name)
        .ok_or_else(|| RuleError::UnknownPlayer {
            found: name.to_owned(),
            known: state.players.iter().map(|p| p.name.clone()).collect(),
        })?;
    if p != state.active {
        return Err(RuleError::NotYourTurn {
            expected: state.players[state.active].name.clone(),
            found: name.to_owned(),
        });
    }
    Ok(p)
}

/// The actor, in a turn where they have (`bought`) or have not bought yet.
fn check_action(state: &State, event: &Event, bought: bool) -> Result<usize, RuleError> {
    let p = check_actor(state, event)?;
    match state.phase {
        Phase::Turn { bought: b, .. } if b == bought => Ok(p),
        _ => Err(unexpected(state, event)),
    }
}

fn check_buy(state: &State, p: usize, e: &Bought) -> Result<(usize, CardIndex), RuleError> {
    let card = card_index(state, &e.card)?;
    let Some(slot) = state.display.iter().position(|&d| d == Some(card)) else {
        return Err(RuleError::NotFaceUp {
            found: e.card.clone(),
            face_up: display_ids(state),
        });
    };
    let cost = state.price(slot).expect("a face-up card has a price");
    if !affordable(state, p, cost) {
        let up = &state.players[p].up;
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
    Ok((slot, card))
}

pub(super) fn affordable(state: &State, p: usize, cost: Cost) -> bool {
    let up = &state.players[p].up;
    cost.counts(state.deck.items())
        .iter()
        .zip(up)
        .all(|(need, have)| need <= have)
}

fn buy(state: &mut State, p: usize, slot: usize, card: CardIndex) {
    let cost = state.price(slot).expect("a face-up card has a price");
    let needed = cost.counts(state.deck.items());
    let player = &mut state.players[p];
    for (item, n) in needed.into_iter().enumerate() {
        player.up[item] -= n;
        player.down[item] += n;
    }
    player.hand.push(card);
    state.display[slot] = None;
    state.passes = 0;
    record(state, Action::Bought { card });
    state.phase = Phase::Turn {
        bought: true,
        plays: 0,
    };
    if state.display.iter().all(Option::is_none) {
        let stacks = to_reveal(state);
        if !stacks.is_empty() {
            state.resume = state.phase.clone();
            state.phase = Phase::Reveal(stacks);
        }
    }
}

fn record(state: &mut State, action: Action) {
    let number = state.turns.len() as u32 + 1;
    let player = state.active;
    let total = state.players[player].points;
    state.turns.push(TurnRecord {
        number,
        player,
        action,
        plays: Vec::new(),
        total,
    });
}

/// Whether `card` can come from player `p`'s hand: known there, or one of a
/// physical game's unseen dealt cards. The flag says which.
pub(super) fn in_hand(state: &State, p: usize, card: CardIndex) -> Option<bool> {
    let player = &state.players[p];
    if player.hand.contains(&card) {
        Some(false)
    } else if !state.dealt && player.unknown > 0 && !state.seen[card] {
        Some(true)
    } else {
        None
    }
}

/// Why `card` cannot go to `cell` now, or the points it would earn.
pub(super) fn placement(state: &State, card: CardIndex, cell: Cell) -> Result<u32, RuleError> {
    let at = At(cell.0, cell.1);
    if state.grid.is_empty() {
        if cell != (0, 0) {
            return Err(RuleError::FirstNotAtOrigin { cell: at });
        }
    } else {
        if let Some(t) = state.grid.get(&cell) {
            let card = state.deck.card(t.card).id.clone();
            return Err(RuleError::CellTaken { cell: at, card });
        }
        if !neighbours(cell).iter().any(|n| state.grid.contains_key(n)) {
            return Err(RuleError::Detached { cell: at });
        }
    }
    let rules = state.deck.rules();
    let (width, height) = state.extent_with(cell);
    let (long, short) = (i32::from(rules.grid_long), i32::from(rules.grid_short));
    if width.max(height) > long || width.min(height) > short {
        return Err(RuleError::GridTooLarge {
            width,
            height,
            long: rules.grid_long,
            short: rules.grid_short,
        });
    }
    let deck = &state.deck;
    let face = deck.card(card);
    let around: Vec<CardIndex> = neighbours(cell)
        .iter()
        .filter_map(|n| state.grid.get(n).map(|t| t.card))
        .collect();
    if !face.needs.is_empty()
        && !around
            .iter()
            .any(|&c| face.needs.contains(&deck.card(c).picture))
    {
        let mut borders: Vec<String> = around
            .iter()
            .map(|&c| deck.picture_name(deck.card(c).picture).to_lowercase())
            .collect();
        let mut seen = Vec::new();
        borders.retain(|b| {
            !seen.contains(b) && {
                seen.push(b.clone());
                true
            }
        });
        return Err(RuleError::NeedsNeighbour {
            needs: Either(
                face.needs
                    .iter()
                    .map(|&p| deck.picture_name(p).to_lowercase())
                    .collect(),
            ),
            cell: at,
            borders: Borders(borders),
        });
    }
    Ok(match face.value {
        Value::Points(v) => u32::from(v),
        Value::Multiplier(factor) => {
            let matched: u32 = around
                .iter()
                .map(|&c| deck.card(c))
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

fn check_play(state: &State, p: usize, e: &Played) -> Result<(CardIndex, bool, u32), RuleError> {
    let rules = state.deck.rules();
    match state.phase {
        Phase::Turn { bought: false, .. } => {
            let player = state.players[p].name.clone();
            return Err(RuleError::NotBought { player });
        }
        Phase::Turn { plays, .. } if plays >= rules.plays_per_turn => {
            let max = rules.plays_per_turn;
            return Err(RuleError::TooManyPlays { max });
        }
        _ => {}
    }
    let card = card_index(state, &e.card)?;
    let Some(from_unknown) = in_hand(state, p, card) else {
        return Err(RuleError::NotInHand {
            player: state.players[p].name.clone(),
            card: e.card.clone(),
        });
    };
    let points = placement(state, card, (e.cell[0], e.cell[1]))?;
    Ok((card, from_unknown, points))
}

fn play(state: &mut State, p: usize, card: CardIndex, from_unknown: bool, cell: Cell, points: u32) {
    let turn = state.turns.len() as u32;
    let player = &mut state.players[p];
    if from_unknown {
        player.unknown -= 1;
    } else {
        player.hand.retain(|&c| c != card);
    }
    player.points += points;
    let total = player.points;
    state.seen[card] = true;
    state.grid.insert(
        cell,
        Tableau {
            card,
            by: p,
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
    let rules = state.deck.rules();
    let full = usize::from(rules.grid_long) * usize::from(rules.grid_short);
    if state.grid.len() >= full {
        state.phase = Phase::Over;
        state.ended = Some(EndReason::GridFull { cards: full });
    }
}

fn next_player(state: &mut State) {
    state.active = 1 - state.active;
    state.phase = Phase::Turn {
        bought: false,
        plays: 0,
    };
}

fn end_turn(state: &mut State) {
    let cards_left =
        state.display.iter().any(Option::is_some) || state.stacks.iter().any(|s| s.remaining > 0);
    if cards_left {
        next_player(state);
    } else {
        state.phase = Phase::Over;
        state.ended = Some(EndReason::LastCardBought);
    }
}

fn flip(state: &mut State, p: usize) {
    let player = &mut state.players[p];
    for (up, down) in player.up.iter_mut().zip(player.down.iter_mut()) {
        *up += std::mem::take(down);
    }
    state.passes = 0;
    record(state, Action::Flipped);
    next_player(state);
}

fn pass(state: &mut State) {
    record(state, Action::Passed);
    if state.passes == 1 {
        state.phase = Phase::Discard;
        state.passes = 0;
    } else {
        state.passes = 1;
        state.first_passer = state.active;
        next_player(state);
    }
}
