//! How the CLI shows a game's state: the one place that knows both the
//! command line and a game's types.

use crate::game::Game;
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};

pub trait Present: Game {
    /// The state as text: sheets or grid, and the score table.
    fn text(state: &Self::State) -> String;
    /// The state and score as JSON.
    fn json(state: &Self::State) -> serde_json::Value;
    /// One event, as a referee would say it.
    fn describe(event: &Self::Event) -> String;
}

impl Present for Soleils {
    fn text(state: &soleils::State) -> String {
        super::soleils_text::text(state)
    }
    fn json(state: &soleils::State) -> serde_json::Value {
        super::soleils_text::json(state)
    }
    fn describe(event: &soleils::Event) -> String {
        event.to_string()
    }
}

impl Present for Summertime {
    fn text(state: &summertime::State) -> String {
        super::summertime_text::text(state)
    }
    fn json(state: &summertime::State) -> serde_json::Value {
        super::summertime_text::json(state)
    }
    fn describe(event: &summertime::Event) -> String {
        event.to_string()
    }
}
