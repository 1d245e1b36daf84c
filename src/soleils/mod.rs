//! 62 Soleils d'été: the pure rules core.
//!
//! Template → [`setup`] → [`State`]; [`apply`] folds events; [`legal_events`]
//! lists what may happen next; [`score`] gives the breakdown. No I/O, no
//! clock, no randomness, no serde_json.
//!
//! Its files: [`template`] (the sheet as data, checked), [`event`] (the wire
//! events), [`action`] (an event resolved to indexes), [`die`], [`options`]
//! (the rule options), [`state`], `apply.rs`, [`legal`], `score.rs`, and
//! [`error`] (`RuleError`).

mod action;
mod apply;
mod die;
mod error;
mod event;
mod legal;
mod options;
mod score;
mod setup;
mod state;
pub mod template;

pub use crate::kit::game::Seat;
pub use action::{Action, describe, resolve};
pub use apply::{apply, apply_action, is_legal, total_after, total_after_applying};
pub use die::{Dice, Die, NotADie};
pub use error::{Expected, Requirement, RuleError, SetupError, SunChoice};
pub use event::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, Start, SunEntered};
pub use legal::{
    alternatives, legal_actions, legal_actions_for, legal_events, legal_events_for,
    nth_legal_action_for,
};
pub use options::{Options, Sailboats, Setting, SkipPlacement, SunBonus, UnknownSetting};
pub use score::{SEASHELL_MAJORITY, ScoreLine, score, total_counting_pearls, total_of};
pub use setup::{MAX_PLAYERS, setup, table};
pub use state::{EndReason, Gains, How, Mark, Player, State, Step, Turn};
pub use template::{BoxIx, Template};

/// 62 Soleils d'été as a [`crate::kit::game::Game`].
pub struct Soleils;

impl crate::kit::game::Game for Soleils {
    const NAME: &'static str = "soleils";
    const EVENT_KINDS: &'static [&'static str] = &[
        "started",
        "rolled",
        "placed",
        "crab_copied",
        "crab_declined",
        "sun_entered",
        "bonus_placed",
        "bonus_declined",
    ];
    type Event = Event;
    type Action = Action;
    type Start = Start;
    type State = State;
    type SetupError = SetupError;
    type RuleError = RuleError;

    fn as_start(event: &Event) -> Option<&Start> {
        match event {
            Event::Started(start) => Some(start),
            _ => None,
        }
    }
    fn is_barrier(event: &Event) -> bool {
        matches!(event, Event::Started(_) | Event::Rolled(_))
    }
    fn format(start: &Start) -> u32 {
        start.format
    }
    fn is_over(state: &State) -> bool {
        state.ended().is_some()
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
            "started" => Event::Started(Start::deserialize(fields)?),
            "rolled" => Event::Rolled(Rolled::deserialize(fields)?),
            "placed" => Event::Placed(Placed::deserialize(fields)?),
            "crab_copied" => Event::CrabCopied(CrabCopied::deserialize(fields)?),
            "crab_declined" => Event::CrabDeclined(PlayerOnly::deserialize(fields)?),
            "sun_entered" => Event::SunEntered(SunEntered::deserialize(fields)?),
            "bonus_placed" => Event::BonusPlaced(BonusPlaced::deserialize(fields)?),
            "bonus_declined" => Event::BonusDeclined(PlayerOnly::deserialize(fields)?),
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
