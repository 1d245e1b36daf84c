//! From a start event to the state before the first roll.

use super::error::SetupError;
use super::event::Start;
use super::state::{Player, State};
use super::template::Template;
use std::sync::Arc;

/// The most players a game takes.
pub const MAX_PLAYERS: usize = 12;

pub fn setup(start: &Start) -> Result<State, SetupError> {
    if start.game != "soleils" {
        let found = start.game.clone();
        return Err(SetupError::WrongGame { found });
    }
    let count = start.players.len();
    if !(1..=MAX_PLAYERS).contains(&count) {
        return Err(SetupError::PlayerCount { found: count });
    }
    // The rulebooks say 2 to 12; one player is the documented solo variant,
    // which the start event must ask for.
    if count == 1 && !start.options.solo {
        return Err(SetupError::SoloNotAsked);
    }
    if count > 1 && start.options.solo {
        return Err(SetupError::SoloWithMore { found: count });
    }
    for (i, name) in start.players.iter().enumerate() {
        if name.trim().is_empty() {
            let found = name.clone();
            return Err(SetupError::EmptyName {
                position: i + 1,
                found,
            });
        }
        if start.players[..i].contains(name) {
            let name = name.clone();
            return Err(SetupError::DuplicateName { name });
        }
    }
    let template = Template::try_from(start.template.clone()).map_err(SetupError::Template)?;
    Ok(State::new(
        Arc::new(template),
        start.options,
        &start.players,
        start.dice_seed,
    ))
}

/// A table before the first roll for a template already checked, with the
/// names and their count not checked: for a simulator that chose them itself. [`setup`]
/// gives the same state from a start event with these names and template.
pub fn table(template: Arc<Template>, options: super::options::Options, names: &[String]) -> State {
    State::new(template, options, names, None)
}

impl State {
    /// A table before the first roll. Prefer [`setup`], which checks its input.
    pub(super) fn new(
        template: Arc<Template>,
        options: super::options::Options,
        names: &[String],
        dice_seed: Option<u64>,
    ) -> State {
        let template = template.with_sailboats(options.sailboats);
        let players = names
            .iter()
            .map(|name| Player {
                name: name.clone(),
                marks: vec![None; template.boxes().len()],
                // One entry a round at most: room for every round at once.
                sun: Vec::with_capacity(usize::from(template.rounds())),
                sun_total: 0,
                thresholds_won: vec![false; template.thresholds().len()],
                zones_done: vec![false; template.zones().len()],
                groups_done: vec![false; template.groups().len()],
                gains: Default::default(),
                turn: Default::default(),
                pearls: 0,
                allowed: vec![super::template::Need::ANY; template.boxes().len()],
            })
            .collect();
        State {
            template,
            options,
            players,
            round: 0,
            dice: None,
            ended: None,
            reason: Default::default(),
            dice_seed,
        }
    }
}
