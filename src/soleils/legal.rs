//! The one source of truth for what may happen next. A property test checks
//! that [`legal_events`] and [`super::apply`] agree both ways.

use super::apply::{placements, writable};
use super::die::Die;
use super::event::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, SunEntered};
use super::options::SkipPlacement;
use super::state::{State, Step};

/// Every event that is legal now, for any player, or every roll.
pub fn legal_events(state: &State) -> Vec<Event> {
    if state.ended.is_some() {
        return Vec::new();
    }
    if state.round_closed() {
        return all_rolls();
    }
    (0..state.players.len())
        .flat_map(|p| legal_events_for(state, p))
        .collect()
}

fn all_rolls() -> Vec<Event> {
    let mut rolls = Vec::with_capacity(216);
    for a in Die::ALL {
        for b in Die::ALL {
            for c in Die::ALL {
                rolls.push(Event::Rolled(Rolled { dice: [a, b, c] }));
            }
        }
    }
    rolls
}

fn die(value: u8) -> Die {
    Die::new(value).expect("dice and box values are 1 to 6")
}

/// Every event player `p` may make now.
pub fn legal_events_for(state: &State, p: usize) -> Vec<Event> {
    let (Some(dice), None) = (state.dice, &state.ended) else {
        return Vec::new();
    };
    let player = &state.players[p];
    let name = || player.name.clone();
    let template = &state.template;
    let id = |b: usize| template.boxes()[b].id.clone();
    let mut events = Vec::new();
    match player.turn.step() {
        Step::Done => {}
        Step::PlaceOrSun => {
            let mut any_placement = false;
            for (b, value) in placements(state, p, dice) {
                any_placement = true;
                events.push(Event::Placed(Placed {
                    player: name(),
                    box_id: id(b),
                    value: die(value),
                }));
            }
            if !any_placement || state.options.skip_placement == SkipPlacement::Voluntary {
                let mut values = dice.to_vec();
                values.sort_unstable();
                values.dedup();
                for value in values {
                    events.push(sun(name(), value));
                }
            }
        }
        Step::Crab(from) => {
            let value = player.value(from).expect("a crab source is filled");
            for &to in template.neighbours(from) {
                if writable(state, p, to, value) {
                    events.push(Event::CrabCopied(CrabCopied {
                        player: name(),
                        from: id(from),
                        to: id(to),
                    }));
                }
            }
            events.push(Event::CrabDeclined(PlayerOnly { player: name() }));
        }
        Step::Sun => {
            let (b, placed) = player
                .turn
                .placed
                .expect("the sun step follows a placement");
            if player.turn.frog {
                events.extend((1..=6).map(|v| sun(name(), v)));
            } else {
                let pearl = template.boxes()[b].pearl;
                let left =
                    super::apply::left_over(dice, pearl, placed).expect("a placement leaves a die");
                events.push(sun(name(), left));
            }
        }
        Step::Bonus => {
            for b in 0..template.boxes().len() {
                for value in 1..=6 {
                    if writable(state, p, b, value) {
                        events.push(Event::BonusPlaced(BonusPlaced {
                            player: name(),
                            box_id: id(b),
                            value: die(value),
                        }));
                    }
                }
            }
            events.push(Event::BonusDeclined(PlayerOnly { player: name() }));
        }
    }
    events
}

fn sun(player: String, value: u8) -> Event {
    Event::SunEntered(SunEntered {
        player,
        value: die(value),
    })
}

/// The legal events a person would consider instead of `rejected`: that
/// player's legal events of the same type first, then the rest.
pub fn alternatives(state: &State, rejected: &Event) -> Vec<Event> {
    use crate::game::EventKind;
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
