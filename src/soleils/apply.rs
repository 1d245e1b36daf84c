//! The reducer: `apply` checks an event completely, then mutates.
//!
//! Every `check_*` function reads the state and returns what to do; only the
//! `commit` step writes. A rejected event therefore leaves the state exactly
//! as it was.

use super::die::Dice;
use super::error::{Expected, Requirement, RuleError, SunChoice};
use super::event::{BonusPlaced, CrabCopied, Event, Placed, SunEntered};
use super::options::{SkipPlacement, SunBonus};
use super::state::{EndReason, How, Mark, State, Step};
use super::template::{BoxIndex, Reward};
use crate::game::EventKind;

/// Folds one event into the state, or explains why it is illegal now.
pub fn apply(state: &mut State, event: &Event) -> Result<(), RuleError> {
    if let Some(reason) = &state.ended {
        let reason = reason.clone();
        return Err(RuleError::GameOver { reason });
    }
    match event {
        Event::Started(_) => Err(RuleError::SecondStart),
        Event::Rolled(rolled) => {
            check_roll(state)?;
            state.round += 1;
            state.dice = Some(rolled.dice.map(|d| d.get()));
            for player in &mut state.players {
                player.turn = Default::default();
            }
            Ok(())
        }
        _ => {
            let (p, dice) = actor(state, event)?;
            match event {
                Event::Placed(e) => {
                    let (b, value) = check_placed(state, p, dice, e)?;
                    state.players[p].turn.placed = Some((b, value));
                    fill(state, p, b, value, How::Placed);
                }
                Event::CrabCopied(e) => {
                    let (to, value) = check_crab(state, p, e)?;
                    state.players[p].turn.crab_from = None;
                    fill(state, p, to, value, How::Crab);
                }
                Event::CrabDeclined(_) => {
                    expect_step(state, p, event, |s| matches!(s, Step::Crab(_)))?;
                    state.players[p].turn.crab_from = None;
                }
                Event::SunEntered(e) => {
                    let value = check_sun(state, p, dice, e)?;
                    enter_sun(state, p, value);
                }
                Event::BonusPlaced(e) => {
                    let (b, value) = check_bonus(state, p, e)?;
                    state.players[p].turn.bonus_pending -= 1;
                    fill(state, p, b, value, How::Bonus);
                }
                Event::BonusDeclined(_) => {
                    expect_step(state, p, event, |s| s == Step::Bonus)?;
                    state.players[p].turn.bonus_pending -= 1;
                }
                Event::Started(_) | Event::Rolled(_) => unreachable!("handled above"),
            }
            close_round_if_done(state);
            Ok(())
        }
    }
}

fn check_roll(state: &State) -> Result<(), RuleError> {
    if state.dice.is_none() {
        return Ok(());
    }
    for player in &state.players {
        let expected = match player.turn.step() {
            Step::Done => continue,
            step => expected(state, step),
        };
        return Err(RuleError::RoundOpen {
            round: state.round,
            player: player.name.clone(),
            expected,
        });
    }
    Ok(())
}

fn expected(state: &State, step: Step) -> Expected {
    match step {
        Step::PlaceOrSun => Expected::PlacementOrSun,
        Step::Crab(from) => Expected::Crab {
            from: state.template.boxes()[from].id.clone(),
        },
        Step::Sun => Expected::Sun,
        Step::Bonus | Step::Done => Expected::Bonus,
    }
}

/// The acting player and this round's dice.
fn actor(state: &State, event: &Event) -> Result<(usize, [u8; 3]), RuleError> {
    let name = event.player().unwrap_or_default();
    let p = state
        .player_index(name)
        .ok_or_else(|| RuleError::UnknownPlayer {
            found: name.to_owned(),
            known: state.players.iter().map(|p| p.name.clone()).collect(),
        })?;
    let dice = state.dice.ok_or(RuleError::NoRoll {
        round: state.round + 1,
        found: event.kind(),
    })?;
    Ok((p, dice))
}

/// Fails unless the player's next step is one that `allowed` accepts.
fn expect_step(
    state: &State,
    p: usize,
    event: &Event,
    allowed: impl Fn(Step) -> bool,
) -> Result<Step, RuleError> {
    let player = &state.players[p];
    let step = player.turn.step();
    if allowed(step) {
        return Ok(step);
    }
    Err(match step {
        Step::Done => RuleError::PlayerDone {
            player: player.name.clone(),
            round: state.round,
            found: event.kind(),
        },
        step => RuleError::Unexpected {
            player: player.name.clone(),
            expected: expected(state, step),
            found: event.kind(),
        },
    })
}

fn box_index(state: &State, id: &str) -> Result<BoxIndex, RuleError> {
    state
        .template
        .box_index(id)
        .ok_or_else(|| RuleError::UnknownBox {
            found: id.to_owned(),
        })
}

/// Checks that `value` may be written into box `b` of player `p`'s sheet.
fn check_writable(state: &State, p: usize, b: BoxIndex, value: u8) -> Result<(), RuleError> {
    let player = &state.players[p];
    let id = &state.template.boxes()[b].id;
    if let Some(mark) = player.marks[b] {
        return Err(RuleError::BoxFilled {
            id: id.clone(),
            value: mark.value,
        });
    }
    match state.template.violation(b, value, |o| player.value(o)) {
        None => Ok(()),
        Some(violation) => Err(RuleError::Violates {
            id: id.clone(),
            value,
            requirement: Requirement {
                need: violation.need,
                other: state.template.boxes()[violation.other].id.clone(),
            },
        }),
    }
}

/// Whether `value` may be written into box `b` of player `p`'s sheet.
pub(super) fn writable(state: &State, p: usize, b: BoxIndex, value: u8) -> bool {
    let player = &state.players[p];
    player.marks[b].is_none()
        && state
            .template
            .violation(b, value, |o| player.value(o))
            .is_none()
}

/// The die left for the sun when `pearl` and `value` are taken from `dice`.
pub(super) fn left_over(dice: [u8; 3], pearl: u8, value: u8) -> Option<u8> {
    let mut rest = dice.to_vec();
    rest.remove(rest.iter().position(|&d| d == pearl)?);
    rest.remove(rest.iter().position(|&d| d == value)?);
    rest.pop()
}

fn check_placed(
    state: &State,
    p: usize,
    dice: [u8; 3],
    e: &Placed,
) -> Result<(BoxIndex, u8), RuleError> {
    let event = Event::Placed(e.clone());
    expect_step(state, p, &event, |s| s == Step::PlaceOrSun)?;
    let b = box_index(state, &e.box_id)?;
    let value = e.value.get();
    let pearl = state.template.boxes()[b].pearl;
    if let Some(mark) = state.players[p].marks[b] {
        return Err(RuleError::BoxFilled {
            id: e.box_id.clone(),
            value: mark.value,
        });
    }
    if !dice.contains(&pearl) {
        return Err(RuleError::NoPearlDie {
            id: e.box_id.clone(),
            pearl,
            dice: Dice(dice),
        });
    }
    if left_over(dice, pearl, value).is_none() {
        return Err(RuleError::NoValueDie {
            id: e.box_id.clone(),
            pearl,
            value,
            dice: Dice(dice),
        });
    }
    check_writable(state, p, b, value)?;
    Ok((b, value))
}

fn check_crab(state: &State, p: usize, e: &CrabCopied) -> Result<(BoxIndex, u8), RuleError> {
    let event = Event::CrabCopied(e.clone());
    let Step::Crab(from) = expect_step(state, p, &event, |s| matches!(s, Step::Crab(_)))? else {
        unreachable!("expect_step accepted only a crab step")
    };
    let boxes = state.template.boxes();
    let named = box_index(state, &e.from)?;
    if named != from {
        return Err(RuleError::WrongCrabSource {
            expected: boxes[from].id.clone(),
            found: e.from.clone(),
        });
    }
    let to = box_index(state, &e.to)?;
    let neighbours = state.template.neighbours(from);
    if !neighbours.contains(&to) {
        return Err(RuleError::NotAdjacent {
            from: e.from.clone(),
            to: e.to.clone(),
            neighbours: neighbours.iter().map(|&n| boxes[n].id.clone()).collect(),
        });
    }
    let value = state.players[p]
        .value(from)
        .expect("a crab source is filled");
    check_writable(state, p, to, value)?;
    Ok((to, value))
}

/// The first placement the roll allows player `p`, if any.
pub(super) fn first_placement(state: &State, p: usize, dice: [u8; 3]) -> Option<(BoxIndex, u8)> {
    placements(state, p, dice).next()
}

/// Every placement the roll allows player `p`: box and value.
pub(super) fn placements(
    state: &State,
    p: usize,
    dice: [u8; 3],
) -> impl Iterator<Item = (BoxIndex, u8)> + '_ {
    state
        .template
        .boxes()
        .iter()
        .enumerate()
        .filter(move |(_, sheet_box)| dice.contains(&sheet_box.pearl))
        .flat_map(move |(b, sheet_box)| {
            (1..=6)
                .filter(move |&v| left_over(dice, sheet_box.pearl, v).is_some())
                .map(move |v| (b, v))
        })
        .filter(move |&(b, v)| writable(state, p, b, v))
}

fn check_sun(state: &State, p: usize, dice: [u8; 3], e: &SunEntered) -> Result<u8, RuleError> {
    let event = Event::SunEntered(e.clone());
    expect_step(state, p, &event, |s| {
        matches!(s, Step::PlaceOrSun | Step::Sun)
    })?;
    let turn = state.players[p].turn;
    let value = e.value.get();
    match turn.placed {
        Some(_) if turn.frog => Ok(value),
        Some((b, placed)) => {
            let pearl = state.template.boxes()[b].pearl;
            let left = left_over(dice, pearl, placed).expect("a placement leaves a die");
            if value == left {
                Ok(value)
            } else {
                Err(RuleError::SunValue {
                    expected: SunChoice::LeftOver(left),
                    found: value,
                })
            }
        }
        None => {
            if !dice.contains(&value) {
                return Err(RuleError::SunValue {
                    expected: SunChoice::AnyDie(Dice(dice)),
                    found: value,
                });
            }
            if state.options.skip_placement == SkipPlacement::OnlyWhenBlocked
                && let Some((b, v)) = first_placement(state, p, dice)
            {
                return Err(RuleError::SkipNotAllowed {
                    player: e.player.clone(),
                    id: state.template.boxes()[b].id.clone(),
                    value: v,
                });
            }
            Ok(value)
        }
    }
}

fn check_bonus(state: &State, p: usize, e: &BonusPlaced) -> Result<(BoxIndex, u8), RuleError> {
    let event = Event::BonusPlaced(e.clone());
    expect_step(state, p, &event, |s| s == Step::Bonus)?;
    let b = box_index(state, &e.box_id)?;
    check_writable(state, p, b, e.value.get())?;
    Ok((b, e.value.get()))
}

/// The indexes of the thresholds a sun entry from `old` to `new` unlocks.
fn unlocked(state: &State, old: u16, new: u16) -> Vec<usize> {
    let exact = state.options.sun_bonus == SunBonus::Exact;
    let thresholds = state.template.thresholds().iter().enumerate();
    thresholds
        .filter(|(_, t)| {
            if exact {
                t.at == new
            } else {
                old < t.at && t.at <= new
            }
        })
        .map(|(i, _)| i)
        .collect()
}

fn enter_sun(state: &mut State, p: usize, value: u8) {
    let old = state.players[p].sun_total;
    let new = old + u16::from(value);
    let won = unlocked(state, old, new);
    let player = &mut state.players[p];
    player.turn.sun = Some(value);
    player.sun.push(value);
    player.sun_total = new;
    for t in won {
        player.thresholds_won[t] = true;
        let reward = state.template.thresholds()[t].reward;
        grant(player, reward, |g| &mut g.sun_starfish);
    }
}

/// Writes a checked value and triggers everything writing it does: frog,
/// zone flag, group reward and crab.
fn fill(state: &mut State, p: usize, b: BoxIndex, value: u8, how: How) {
    let template = state.template.clone();
    let sheet_box = &template.boxes()[b];
    let round = state.round;
    {
        let player = &mut state.players[p];
        player.marks[b] = Some(Mark { value, how, round });
        if sheet_box.frog && how != How::Bonus && player.turn.sun.is_none() {
            player.turn.frog = true;
        }
        let zone = &template.zones()[sheet_box.zone];
        if !player.zones_done[sheet_box.zone]
            && zone.boxes.iter().all(|&z| player.marks[z].is_some())
        {
            player.zones_done[sheet_box.zone] = true;
            grant(player, zone.flag, |g| &mut g.flag_starfish);
        }
        if let Some(g) = sheet_box.group {
            let group = &template.groups()[g];
            if !player.groups_done[g] && group.boxes.iter().all(|&x| player.marks[x].is_some()) {
                player.groups_done[g] = true;
                if let Some(reward) = group.reward {
                    grant(player, reward, |g| &mut g.group_starfish);
                }
            }
        }
    }
    let crab = sheet_box.crab
        && template
            .neighbours(b)
            .iter()
            .any(|&n| writable(state, p, n, value));
    state.players[p].turn.crab_from = crab.then_some(b);
}

fn grant(
    player: &mut super::state::Player,
    reward: Reward,
    starfish: impl Fn(&mut super::state::Gains) -> &mut u32,
) {
    match reward {
        Reward::Starfish(n) => *starfish(&mut player.gains) += n,
        Reward::Seashells(n) => player.gains.seashells += n,
        Reward::BonusDigit => {
            player.gains.bonus_digits += 1;
            player.turn.bonus_pending += 1;
        }
    }
}

fn close_round_if_done(state: &mut State) {
    if !state.round_closed() {
        return;
    }
    let limit = state.template.sun_limit();
    let reached: Vec<String> = state
        .players
        .iter()
        .filter(|p| p.sun_total >= limit)
        .map(|p| p.name.clone())
        .collect();
    if !reached.is_empty() {
        state.ended = Some(EndReason::SunLimit {
            players: reached,
            limit,
        });
    } else if state.round >= state.template.rounds() {
        state.ended = Some(EndReason::RoundLimit {
            rounds: state.template.rounds(),
        });
    }
}
