//! The reducer: `apply` checks an action completely, then mutates.
//!
//! [`check`] reads the state and fails with the reason; only `commit` writes.
//! A rejected event therefore leaves the state exactly as it was.

use super::action::{Action, Decision, resolve};
use super::die::{Dice, Die};
use super::error::{Expected, Requirement, RuleError, SunChoice};
use super::event::Event;
use super::options::{SkipPlacement, SunBonus};
use super::state::{Gains, How, Mark, Over, Player, State, Step, Turn};
use super::template::{BoxIndex, BoxIx, Reward, Template, left_over};
use crate::kit::game::Seat;

/// Folds one event into the state, or explains why it is illegal now.
pub fn apply(state: &mut State, event: &Event) -> Result<(), RuleError> {
    let action = resolve(state, event)?;
    apply_action(state, action)
}

/// Folds one resolved action into the state, or explains why it is illegal
/// now. The action must come from [`resolve`] or
/// [`super::legal_actions`] for a table of this game; an index beyond the
/// table is refused as an unknown player or box.
pub fn apply_action(state: &mut State, action: Action) -> Result<(), RuleError> {
    check(state, action)?;
    commit(state, action);
    Ok(())
}

/// Whether `action` is legal now: [`apply_action`] would accept it.
pub fn is_legal(state: &State, action: Action) -> bool {
    check(state, action).is_ok()
}

pub(super) fn game_over(state: &State) -> Result<(), RuleError> {
    match state.ended() {
        Some(reason) => Err(RuleError::GameOver {
            reason: reason.clone(),
        }),
        None => Ok(()),
    }
}

/// Every rule `action` must satisfy now, in the order the messages have
/// always been given. [`resolve`] calls the same functions for the rules
/// that come before a name.
fn check(state: &State, action: Action) -> Result<(), RuleError> {
    game_over(state)?;
    action.beyond(state)?;
    let (Some(p), Some(decision)) = (action.seat(), action.decision()) else {
        return check_roll(state);
    };
    let (dice, step) = check_turn(state, p, decision)?;
    match action {
        Action::Roll(_) => unreachable!("a roll has no player"),
        Action::Place { slot, value, .. } => check_placed(state, p, dice, slot, value.get()),
        Action::CrabCopy { from, to, .. } => {
            check_crab_source(state, step, from)?;
            check_crab_target(state, p, from, to)
        }
        Action::CrabDecline { .. } | Action::BonusDecline { .. } => Ok(()),
        Action::Sun { value, .. } => check_sun(state, p, dice, value.get()),
        Action::BonusPlace { slot, value, .. } => check_writable(state, p, slot, value.get()),
    }
}

/// The rule of the turn: a decision needs this round's roll, and must
/// answer the step its player is at (a placement the first step, a crab
/// decision a crab step, a sun entry the first step or the sun step, a
/// bonus decision a bonus step). Gives the roll and that step.
#[inline]
pub(super) fn check_turn(
    state: &State,
    p: Seat,
    decision: Decision,
) -> Result<([u8; 3], Step), RuleError> {
    let found = decision.kind();
    let Some(dice) = state.dice else {
        let round = state.round + 1;
        return Err(RuleError::NoRoll { round, found });
    };
    let step = state.player(p).turn.step();
    let answers = match decision {
        Decision::Place => step == Step::PlaceOrSun,
        Decision::CrabCopy | Decision::CrabDecline => matches!(step, Step::Crab(_)),
        Decision::Sun => matches!(step, Step::PlaceOrSun | Step::Sun),
        Decision::BonusPlace | Decision::BonusDecline => step == Step::Bonus,
    };
    if answers {
        Ok((dice, step))
    } else {
        Err(wrong_step(state, p, step, found))
    }
}

/// A crab copy comes from the crab box just written: `step` is the crab
/// step [`check_turn`] gave.
pub(super) fn check_crab_source(state: &State, step: Step, from: BoxIx) -> Result<(), RuleError> {
    let Step::Crab(source) = step else {
        unreachable!("check_turn accepts a crab copy only at a crab step")
    };
    if from.index() == source {
        return Ok(());
    }
    Err(RuleError::WrongCrabSource {
        expected: state.template.boxes()[source].id.clone(),
        found: state.template[from].id.clone(),
    })
}

/// A crab copy goes to a neighbour of its source that may take the value.
fn check_crab_target(state: &State, p: Seat, from: BoxIx, to: BoxIx) -> Result<(), RuleError> {
    let template = &state.template;
    if !template.neighbours_of(from).any(|n| n == to) {
        return Err(RuleError::NotAdjacent {
            from: template[from].id.clone(),
            to: template[to].id.clone(),
            neighbours: template
                .neighbours_of(from)
                .map(|n| template[n].id.clone())
                .collect(),
        });
    }
    let value = state
        .player(p)
        .value(from)
        .expect("a crab source is filled");
    check_writable(state, p, to, value)
}

/// Writes a checked action.
fn commit(state: &mut State, action: Action) {
    if let Action::Roll(dice) = action {
        state.round += 1;
        state.dice = Some(dice.map(Die::get));
        for player in &mut state.players {
            player.turn = Default::default();
        }
        return;
    }
    commit_decision(state, action);
    close_round_if_done(state);
}

/// Writes a checked decision onto its player's sheet, and nowhere else.
fn commit_decision(state: &mut State, action: Action) {
    let template = &*state.template;
    let options = state.options;
    let round = state.round;
    let Some(p) = action.seat() else { return };
    // The template and the sheet are borrowed apart.
    let player = &mut state.players[p.index()];
    match action {
        Action::Roll(_) => {}
        Action::Place { slot, value, .. } => {
            let value = value.get();
            player.turn.placed = Some((slot, value));
            fill(template, player, round, slot, value, How::Placed);
        }
        Action::CrabCopy { from, to, .. } => {
            let value = player.value(from).expect("a crab source is filled");
            player.turn.crab_from = None;
            fill(template, player, round, to, value, How::Crab);
        }
        Action::CrabDecline { .. } => player.turn.crab_from = None,
        Action::Sun { value, .. } => enter_sun(template, options, player, value.get()),
        Action::BonusPlace { slot, value, .. } => {
            player.turn.bonus_pending -= 1;
            fill(template, player, round, slot, value.get(), How::Bonus);
        }
        Action::BonusDecline { .. } => player.turn.bonus_pending -= 1,
    }
}

/// Player `p`'s total if `action` (legal now, by that player) were applied,
/// for a bot weighing its options; `None` if it is not legal. Nothing is
/// written: the rewards the action would win are worked out from the sheet
/// as it is, by the same functions [`commit`] writes them with
/// ([`completes`], [`threshold_won`], [`grant`]), and added to a copy of
/// the player's gains and pearl count. A property test checks it against
/// [`total_after_applying`] and against applying the action to a copy.
pub fn total_after(state: &State, action: Action) -> Option<u32> {
    let p = action.seat()?;
    check(state, action).ok()?;
    let template = &*state.template;
    let player = state.player(p);
    let mut gains = player.gains;
    let mut pearls = player.pearls;
    // Bonus digits won here are not points: their count goes nowhere.
    let mut turn = player.turn;
    let mut write = |b: BoxIx, value: u8| {
        if value == template[b].pearl {
            pearls += 1;
        }
        let (zone, group) = completes(template, player, b);
        if let Some(z) = zone {
            grant(&mut gains, &mut turn, template.zones()[z].flag, |g| {
                &mut g.flag_starfish
            });
        }
        if let Some(reward) = group.and_then(|g| template.groups()[g].reward) {
            grant(&mut gains, &mut turn, reward, |g| &mut g.group_starfish);
        }
    };
    match action {
        Action::Roll(_) => unreachable!("a roll has no player"),
        Action::Place { slot, value, .. } | Action::BonusPlace { slot, value, .. } => {
            write(slot, value.get())
        }
        Action::CrabCopy { from, to, .. } => {
            write(to, player.value(from).expect("a crab source is filled"))
        }
        Action::Sun { value, .. } => {
            let old = player.sun_total;
            let new = old + u16::from(value.get());
            let exact = state.options.sun_bonus == SunBonus::Exact;
            for threshold in template.thresholds() {
                if threshold_won(exact, threshold.at, old, new) {
                    grant(&mut gains, &mut turn, threshold.reward, |g| {
                        &mut g.sun_starfish
                    });
                }
            }
        }
        Action::CrabDecline { .. } | Action::BonusDecline { .. } => {}
    }
    Some(super::score::total_with(state, p.index(), gains, pearls))
}

/// [`total_after`] as it was first written: the action is applied to the
/// player's sheet, the total read with the pearls counted box by box
/// ([`super::score::total_counting_pearls`]), and the sheet swapped back.
/// The state is left exactly as it was; `spare` is scratch space reused
/// between calls. Kept as the reference [`total_after`] is tested and
/// benchmarked against.
pub fn total_after_applying(state: &mut State, action: Action, spare: &mut Player) -> Option<u32> {
    let p = action.seat()?;
    check(state, action).ok()?;
    spare.clone_from(state.player(p));
    commit_decision(state, action);
    let total = super::score::total_counting_pearls(state, p.index());
    std::mem::swap(state.player_mut(p), spare);
    Some(total)
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

/// Why player `p`, at `step`, may not make the decision `found` now.
#[cold]
fn wrong_step(state: &State, p: Seat, step: Step, found: &'static str) -> RuleError {
    if let Some(no_copy) = no_crab_copy(state, p, found) {
        return no_copy;
    }
    let player = state.player(p);
    let waiting = state
        .players
        .iter()
        .find(|other| other.turn.step() != Step::Done);
    match (step, waiting) {
        (Step::Done, Some(other)) => RuleError::RoundWaits {
            player: player.name.clone(),
            round: state.round,
            waits_on: other.name.clone(),
            expected: expected(state, other.turn.step()),
            found,
        },
        (Step::Done, None) => RuleError::PlayerDone {
            player: player.name.clone(),
            round: state.round,
            found,
        },
        (step, _) => RuleError::Unexpected {
            player: player.name.clone(),
            expected: expected(state, step),
            found,
        },
    }
}

/// A crab decision from a player whose placement this round went to a crab
/// box none of whose neighbours could take the value, and who copied
/// nothing: say why there is nothing to decide.
fn no_crab_copy(state: &State, p: Seat, found: &'static str) -> Option<RuleError> {
    if !matches!(found, "crab_copied" | "crab_declined") {
        return None;
    }
    let player = state.player(p);
    let (b, value) = player.turn.placed?;
    let template = &state.template;
    if !template[b].crab {
        return None;
    }
    let copied = template.neighbours_of(b).any(|n| {
        player
            .mark(n)
            .is_some_and(|m| m.how == How::Crab && m.round == state.round)
    });
    let open = template.neighbours_of(b).any(|n| {
        player.mark(n).is_none()
            && template
                .violation(n.index(), value, written(player))
                .is_none()
    });
    (!copied && !open).then(|| RuleError::NoCrabCopy {
        player: player.name.clone(),
        id: template[b].id.clone(),
        value,
        found,
    })
}

/// Checks that `value` may be written into box `b` of player `p`'s sheet.
fn check_writable(state: &State, p: Seat, b: BoxIx, value: u8) -> Result<(), RuleError> {
    let player = state.player(p);
    // The sheet's allowed values are what the constraints allow an empty
    // box: they answer yes without walking the constraints; a no is
    // explained by walking them below.
    if writable(player, b, value) {
        return Ok(());
    }
    let id = &state.template[b].id;
    if let Some(mark) = player.mark(b) {
        return Err(RuleError::BoxFilled {
            id: id.clone(),
            value: mark.value,
        });
    }
    match state.template.violation(b.index(), value, written(player)) {
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

/// Whether `value` may be written into box `b` of `player`'s sheet: the
/// box is empty and its constraints allow the value (see [`fill`]).
pub(super) fn writable(player: &Player, b: BoxIx, value: u8) -> bool {
    player.allowed[b.index()] & (1 << value) != 0
}

/// The values written on `player`'s sheet, by box, as the template's
/// constraints read them.
fn written(player: &Player) -> impl Fn(BoxIndex) -> Option<u8> + '_ {
    |o| player.marks[o].map(|m| m.value)
}

fn check_placed(
    state: &State,
    p: Seat,
    dice: [u8; 3],
    b: BoxIx,
    value: u8,
) -> Result<(), RuleError> {
    let sheet_box = &state.template[b];
    let (id, pearl) = (&sheet_box.id, sheet_box.pearl);
    if let Some(mark) = state.player(p).mark(b) {
        return Err(RuleError::BoxFilled {
            id: id.clone(),
            value: mark.value,
        });
    }
    if !dice.contains(&pearl) {
        return Err(RuleError::NoPearlDie {
            id: id.clone(),
            pearl,
            dice: Dice(dice),
        });
    }
    if left_over(dice, pearl, value).is_none() {
        return Err(RuleError::NoValueDie {
            id: id.clone(),
            pearl,
            value,
            dice: Dice(dice),
        });
    }
    check_writable(state, p, b, value)
}

/// The first placement the roll allows player `p`, if any.
pub(super) fn first_placement(state: &State, p: Seat, dice: [u8; 3]) -> Option<(BoxIx, u8)> {
    let mut first = None;
    placements(&state.template, state.player(p), dice, |b, v| {
        first = Some((b, v));
        false
    });
    first
}

/// Calls `each` with every placement the roll allows `player`, box by box
/// and value by value, until it returns `false`.
pub(super) fn placements(
    template: &Template,
    player: &Player,
    dice: [u8; 3],
    mut each: impl FnMut(BoxIx, u8) -> bool,
) {
    for &(b, mask) in template.placement_masks_for(dice) {
        let mut values = player.allowed[b.index()] & mask;
        while values != 0 {
            let value = values.trailing_zeros() as u8;
            if !each(b, value) {
                return;
            }
            values &= values - 1;
        }
    }
}

fn check_sun(state: &State, p: Seat, dice: [u8; 3], value: u8) -> Result<(), RuleError> {
    let turn = state.player(p).turn;
    match turn.placed {
        Some(_) if turn.frog => Ok(()),
        Some((b, placed)) => {
            let pearl = state.template[b].pearl;
            let left = left_over(dice, pearl, placed).expect("a placement leaves a die");
            if value == left {
                Ok(())
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
                    player: state.player(p).name.clone(),
                    id: state.template[b].id.clone(),
                    value: v,
                });
            }
            Ok(())
        }
    }
}

fn enter_sun(
    template: &Template,
    options: super::options::Options,
    player: &mut Player,
    value: u8,
) {
    let old = player.sun_total;
    let new = old + u16::from(value);
    let exact = options.sun_bonus == SunBonus::Exact;
    player.turn.sun = Some(value);
    player.sun.push(value);
    player.sun_total = new;
    for (t, threshold) in template.thresholds().iter().enumerate() {
        if threshold_won(exact, threshold.at, old, new) {
            player.thresholds_won[t] = true;
            grant(&mut player.gains, &mut player.turn, threshold.reward, |g| {
                &mut g.sun_starfish
            });
        }
    }
}

/// Whether a sun entry taking the track from `old` to `new` wins the
/// threshold at `at`: hit exactly under `exact`, else reached or passed.
fn threshold_won(exact: bool, at: u16, old: u16, new: u16) -> bool {
    if exact {
        at == new
    } else {
        old < at && at <= new
    }
}

/// What writing the empty box `b` completes on `player`'s sheet, read
/// before it is written: its zone, if every other box of it is filled and
/// its flag not yet won, and likewise its group.
fn completes(template: &Template, player: &Player, b: BoxIx) -> (Option<usize>, Option<usize>) {
    let sheet_box = &template[b];
    let filled = |x: &BoxIndex| *x == b.index() || player.marks[*x].is_some();
    let z = sheet_box.zone;
    let zone = (!player.zones_done[z] && template.zones()[z].boxes.iter().all(filled)).then_some(z);
    let group = sheet_box
        .group
        .filter(|&g| !player.groups_done[g] && template.groups()[g].boxes.iter().all(filled));
    (zone, group)
}

/// Writes a checked value and triggers everything writing it does: pearl,
/// frog, zone flag, group reward and crab.
fn fill(template: &Template, player: &mut Player, round: u16, b: BoxIx, value: u8, how: How) {
    let sheet_box = &template[b];
    let (zone, group) = completes(template, player, b);
    player.marks[b.index()] = Some(Mark { value, how, round });
    player.allowed[b.index()] = 0;
    if value == sheet_box.pearl {
        player.pearls += 1;
    }
    // What each constrained box may take now: what it could take, less
    // what the value just written rules out (a written box stays at 0).
    for &(other, masks) in template.effects(b) {
        player.allowed[other.index()] &= masks[usize::from(value)];
    }
    if sheet_box.frog && how != How::Bonus && player.turn.sun.is_none() {
        player.turn.frog = true;
    }
    if let Some(z) = zone {
        player.zones_done[z] = true;
        let flag = template.zones()[z].flag;
        grant(&mut player.gains, &mut player.turn, flag, |g| {
            &mut g.flag_starfish
        });
    }
    if let Some(g) = group {
        player.groups_done[g] = true;
        if let Some(reward) = template.groups()[g].reward {
            grant(&mut player.gains, &mut player.turn, reward, |g| {
                &mut g.group_starfish
            });
        }
    }
    let crab = sheet_box.crab
        && template
            .neighbours_of(b)
            .any(|n| writable(player, n, value));
    player.turn.crab_from = crab.then_some(b);
}

/// Adds `reward` to `gains` (starfish to the count `starfish` picks), and
/// a bonus digit to those `turn` has to place.
fn grant(
    gains: &mut Gains,
    turn: &mut Turn,
    reward: Reward,
    starfish: impl Fn(&mut Gains) -> &mut u32,
) {
    match reward {
        Reward::Starfish(n) => *starfish(gains) += n,
        Reward::Seashells(n) => gains.seashells += n,
        Reward::BonusDigit => {
            gains.bonus_digits += 1;
            turn.bonus_pending += 1;
        }
    }
}

fn close_round_if_done(state: &mut State) {
    if !state.round_closed() {
        return;
    }
    let limit = state.template.sun_limit();
    if state.players.iter().any(|p| p.sun_total >= limit) {
        state.ended = Some(Over::SunLimit);
    } else if state.round >= state.template.rounds() {
        state.ended = Some(Over::RoundLimit);
    }
}
