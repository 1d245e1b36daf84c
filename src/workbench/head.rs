//! What every workbench report begins with: the game, the batch's size
//! and its seed. `simulate`, `compare`, `ladder` and `sweep` each flatten
//! one [`Head`] into their JSON, so these fields read the same in all.

use schemars::JsonSchema;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Head {
    /// `soleils` or `summertime`.
    pub game: &'static str,
    /// "62 Soleils d'été" or "Summertime".
    pub title: &'static str,
    pub players: usize,
    /// Games played: per variant in a comparison (game i of A and of B
    /// share a seed), per point in a sweep (the same games at every point).
    pub games: u64,
    pub seed: u64,
}
