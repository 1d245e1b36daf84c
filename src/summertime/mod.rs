//! Summertime (Inka & Markus Brand, Kosmos 2006): the pure rules core.
//!
//! Deck → [`setup`] → [`State`]; [`apply`] folds events; [`legal_events`]
//! lists what may happen next; [`score`] gives the breakdown. No I/O, no
//! clock, no randomness, no serde_json.
//!
//! Its files: [`deck`] (the cards as data, checked), [`event`] (the wire
//! events), [`action`] (an event resolved to indexes), [`state`], [`hidden`]
//! (what a player cannot see), `apply.rs`, `backs.rs` (each declared back
//! kept by an unseen card), [`legal`], `score.rs`, and
//! [`error`] (`RuleError`).

mod action;
mod apply;
mod backs;
pub mod deck;
mod error;
mod event;
mod hidden;
mod legal;
mod score;
mod setup;
mod state;

pub use crate::kit::game::Seat;
pub use action::{Action, describe, resolve};
pub use apply::{apply, apply_action, is_legal, total_after};
pub use deck::{CardIx, Deck};
pub use error::{
    At, Awaited, Before, Borders, Either, PassRun, RuleError, SetupError, Shortfall, Stacks,
};
pub use event::{Bought, Discarded, Event, Order, Played, PlayerOnly, Revealed, Start};
pub use hidden::{Hidden, fill, hidden};
pub use legal::{alternatives, legal_actions, legal_events};
pub use score::{ScoreLine, score, total_of};
pub use setup::{dealt_table, setup};
pub use state::{
    Cell, EndReason, Grid, GridIter, GridKeys, GridValues, Phase, Play, Player, Plays, Reveals,
    Stack, State, Tableau, TurnAction, TurnRecord, neighbours,
};

/// The first log format in which a physical game keeps an unseen card for
/// every declared back (see `backs.rs`) and turns its stacks up in any
/// order. A game recorded in an older format keeps the rules it was
/// recorded under.
pub const MATCHED_BACKS: u32 = 3;

/// Summertime as a [`crate::kit::game::Game`].
pub struct Summertime;

impl crate::kit::game::Game for Summertime {
    const NAME: &'static str = "summertime";
    const EVENT_KINDS: &'static [&'static str] = &[
        "started",
        "revealed",
        "bought",
        "played",
        "turn_ended",
        "tiles_flipped",
        "passed",
        "discarded",
    ];
    type Event = Event;
    type Action = Action;
    type Start = Start;
    type State = State;
    type SetupError = SetupError;
    type RuleError = RuleError;

    fn as_start(event: &Event) -> Option<&Start> {
        match event {
            Event::Started(start) => Some(&**start),
            _ => None,
        }
    }
    fn is_barrier(event: &Event) -> bool {
        matches!(
            event,
            Event::Started(_) | Event::Revealed(_) | Event::Discarded(_)
        )
    }
    fn format(start: &Start) -> u32 {
        start.format
    }
    fn is_over(state: &State) -> bool {
        state.ended().is_some()
    }
    fn dead_end(state: &State) -> Option<RuleError> {
        backs::dead_end(state)
    }
    fn can_dead_end(state: &State) -> bool {
        !state.is_dealt() && !state.matches_backs() && state.ended().is_none()
    }
    fn setup(start: &Start) -> Result<State, SetupError> {
        setup(start)
    }
    fn apply(state: &mut State, event: &Event) -> Result<(), RuleError> {
        apply(state, event)
    }
    fn resolve(state: &State, event: &Event) -> Result<Action, RuleError> {
        resolve(state, event)
    }
    fn describe_action(state: &State, action: Action) -> Event {
        describe(state, action)
    }
    fn apply_action(state: &mut State, action: Action) -> Result<(), RuleError> {
        apply_action(state, action)
    }
    fn is_legal(state: &State, action: Action) -> bool {
        is_legal(state, action)
    }
    fn legal_actions(state: &State, out: &mut Vec<Action>) {
        legal_actions(state, out)
    }
    fn decode_fields<'de, D: serde::Deserializer<'de>>(
        kind: &str,
        fields: D,
    ) -> Result<Event, D::Error> {
        use serde::Deserialize;
        Ok(match kind {
            "started" => Event::Started(Box::new(Start::deserialize(fields)?)),
            "revealed" => Event::Revealed(Revealed::deserialize(fields)?),
            "bought" => Event::Bought(Bought::deserialize(fields)?),
            "played" => Event::Played(Played::deserialize(fields)?),
            "turn_ended" => Event::TurnEnded(PlayerOnly::deserialize(fields)?),
            "tiles_flipped" => Event::TilesFlipped(PlayerOnly::deserialize(fields)?),
            "passed" => Event::Passed(PlayerOnly::deserialize(fields)?),
            "discarded" => Event::Discarded(Discarded::deserialize(fields)?),
            other => {
                return Err(serde::de::Error::unknown_variant(other, Self::EVENT_KINDS));
            }
        })
    }
    fn player_names(state: &State) -> Vec<String> {
        state.players().iter().map(|p| p.name.clone()).collect()
    }
    fn legal_events(state: &State) -> Vec<Event> {
        legal_events(state)
    }
    fn alternatives(state: &State, rejected: &Event) -> Vec<Event> {
        alternatives(state, rejected)
    }
}
