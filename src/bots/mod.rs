//! The bots, and one game played by them. Bots only ever choose among
//! `legal_events`; every move goes through the reducer. Randomness comes
//! from the portable [`crate::kit::rng::SeededRng`], in separate streams
//! for the table's luck, the order of simultaneous decisions and each
//! seat's bot, so that a seed means the same games forever and two
//! variants can be played on the same luck.
//!
//! Its files: [`run`] (the bots and one game played), [`games`] (each
//! game's bot hooks), [`search`] (the search bot), [`seat`] (a bot in a seat of a table being played, seeing what it may see), [`variant`] (a sheet or
//! deck with its options), [`differ`] (what two variants change), [`deal`]
//! (a Summertime deal from a seed).

pub mod deal;
pub mod differ;
pub mod games;
pub mod run;
pub mod search;
pub mod seat;
pub mod variant;

pub use differ::{Change, SameRules, changes, differing};
pub use run::{
    Bot, BotError, GameResult, NotSearch, PlayerCountError, PlayerRange, Simulated, lineup, play,
    play_from, player_count,
};
pub use search::{DEFAULT_ROLLOUTS, Searched, Searcher};
pub use variant::{SoleilsVariant, SummertimeVariant, VariantInfo};
