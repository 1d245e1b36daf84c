//! The one source of truth for what may happen next. A property test checks
//! that [`legal_actions`] and [`super::apply_action`] agree both ways.

use super::action::{Action, describe};
use super::apply::{placements, writable};
use super::die::Die;
use super::event::Event;
use super::options::SkipPlacement;
use super::state::{State, Step};
use super::template::{BoxIx, left_over};
use crate::kit::game::Seat;

/// Every action that is legal now, for any player, or every roll, written
/// into `out` (cleared first) so that a caller can reuse one buffer.
pub fn legal_actions(state: &State, out: &mut Vec<Action>) {
    out.clear();
    if state.ended.is_some() {
        return;
    }
    if state.round_closed() {
        for a in Die::ALL {
            for b in Die::ALL {
                for c in Die::ALL {
                    out.push(Action::Roll([a, b, c]));
                }
            }
        }
        return;
    }
    for p in 0..state.players.len() {
        push_legal_for(state, Seat::new(p), out);
    }
}

/// Every action player `p` may take now, written into `out` (cleared first).
pub fn legal_actions_for(state: &State, p: usize, out: &mut Vec<Action>) {
    out.clear();
    if p < state.players.len() {
        push_legal_for(state, Seat::new(p), out);
    }
}

fn die(value: u8) -> Die {
    Die::new(value).expect("dice and box values are 1 to 6")
}

fn push_legal_for(state: &State, me: Seat, out: &mut Vec<Action>) {
    let (Some(dice), None) = (state.dice, &state.ended) else {
        return;
    };
    let player = state.player(me);
    let template = &*state.template;
    match player.turn.step() {
        Step::Done => {}
        Step::PlaceOrSun => {
            let mut any_placement = false;
            placements(template, player, dice, |b, value| {
                any_placement = true;
                out.push(Action::Place {
                    player: me,
                    slot: b,
                    value: die(value),
                });
                true
            });
            if !any_placement || state.options.skip_placement == SkipPlacement::Voluntary {
                let mut values = dice;
                values.sort_unstable();
                for (i, &value) in values.iter().enumerate() {
                    if i == 0 || values[i - 1] != value {
                        out.push(Action::Sun {
                            player: me,
                            value: die(value),
                        });
                    }
                }
            }
        }
        Step::Crab(from) => {
            let from = BoxIx::new(from);
            let value = player.value(from).expect("a crab source is filled");
            for to in template.neighbours_of(from) {
                if writable(player, to, value) {
                    out.push(Action::CrabCopy {
                        player: me,
                        from,
                        to,
                    });
                }
            }
            out.push(Action::CrabDecline { player: me });
        }
        Step::Sun => {
            let (b, placed) = player
                .turn
                .placed
                .expect("the sun step follows a placement");
            if player.turn.frog {
                out.extend(Die::ALL.map(|value| Action::Sun { player: me, value }));
            } else {
                let pearl = template[b].pearl;
                let left = left_over(dice, pearl, placed).expect("a placement leaves a die");
                out.push(Action::Sun {
                    player: me,
                    value: die(left),
                });
            }
        }
        Step::Bonus => {
            for b in (0..template.boxes().len()).map(BoxIx::new) {
                for value in Die::ALL {
                    if writable(player, b, value.get()) {
                        out.push(Action::BonusPlace {
                            player: me,
                            slot: b,
                            value,
                        });
                    }
                }
            }
            out.push(Action::BonusDecline { player: me });
        }
    }
}

/// The legal action of player `p` at position `pick(n)` among the `n`
/// that [`legal_actions_for`] lists, in its order: what a bot drawing
/// uniformly among them needs. A placement step (the most frequent) is
/// counted from the sheet's allowed values and its k-th action found
/// without listing the others; any other step is listed into `out`.
/// `None`, without calling `pick`, when `p` has nothing to decide.
pub fn nth_legal_action_for(
    state: &State,
    p: usize,
    out: &mut Vec<Action>,
    pick: impl FnOnce(usize) -> usize,
) -> Option<Action> {
    let (Some(dice), None, Some(player)) = (state.dice, &state.ended, state.players.get(p)) else {
        return None;
    };
    if player.turn.step() != Step::PlaceOrSun {
        legal_actions_for(state, p, out);
        if out.is_empty() {
            return None;
        }
        let k = pick(out.len());
        return Some(out[k]);
    }
    let me = Seat::new(p);
    let masks = state.template.placement_masks_for(dice);
    let open = |b: BoxIx, mask: u8| player.allowed[b.index()] & mask;
    let placed: usize = masks.iter().map(|&(b, mask)| count(open(b, mask))).sum();
    // The sun entries, as push_legal_for lists them: each value shown,
    // once, smallest first.
    let mut values = dice;
    values.sort_unstable();
    let suns = if placed == 0 || state.options.skip_placement == SkipPlacement::Voluntary {
        1 + usize::from(values[1] != values[0]) + usize::from(values[2] != values[1])
    } else {
        0
    };
    let mut k = pick(placed + suns);
    assert!(
        k < placed + suns,
        "a pick among the {} actions",
        placed + suns
    );
    if k >= placed {
        k -= placed;
        let mut distinct = values
            .iter()
            .enumerate()
            .filter(|&(i, &v)| i == 0 || values[i - 1] != v);
        let (_, &value) = distinct
            .nth(k)
            .expect("k is below the count of sun entries");
        return Some(Action::Sun {
            player: me,
            value: die(value),
        });
    }
    for &(b, mask) in masks {
        let mut values = open(b, mask);
        let n = count(values);
        if k < n {
            for _ in 0..k {
                values &= values - 1;
            }
            return Some(Action::Place {
                player: me,
                slot: b,
                value: die(values.trailing_zeros() as u8),
            });
        }
        k -= n;
    }
    unreachable!("k is below the count of placements")
}

/// The number of values in a bit set of values, from a table: the
/// baseline x86-64 target has no population count instruction.
fn count(values: u8) -> usize {
    usize::from(COUNTS[usize::from(values)])
}

/// [`u8::count_ones`] of every byte.
static COUNTS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    table
};

/// Every event that is legal now, for any player, or every roll.
pub fn legal_events(state: &State) -> Vec<Event> {
    let mut actions = Vec::new();
    legal_actions(state, &mut actions);
    actions.into_iter().map(|a| describe(state, a)).collect()
}

/// Every event player `p` may make now.
pub fn legal_events_for(state: &State, p: usize) -> Vec<Event> {
    let mut actions = Vec::new();
    legal_actions_for(state, p, &mut actions);
    actions.into_iter().map(|a| describe(state, a)).collect()
}

/// The legal events a person would consider instead of `rejected`: that
/// player's legal events of the same type first, then the rest.
pub fn alternatives(state: &State, rejected: &Event) -> Vec<Event> {
    use crate::kit::game::EventKind;
    if matches!(rejected, Event::Started(_)) {
        return Vec::new();
    }
    let mut events = match rejected.player().and_then(|name| state.player_index(name)) {
        Some(p) => legal_events_for(state, p),
        None => legal_events(state),
    };
    if matches!(rejected, Event::Rolled(_)) && !state.round_closed() {
        return events;
    }
    events.sort_by_key(|e| e.kind() != rejected.kind());
    events
}
