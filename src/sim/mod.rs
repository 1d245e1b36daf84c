//! Bots and batch simulation. Bots only ever choose among `legal_events`;
//! every move goes through the reducer. Randomness comes from the portable
//! [`crate::rng::SeededRng`], so a seed means the same games forever.

mod games;
mod run;

pub use run::{Bot, GameResult, Simulated, Stats, play};
