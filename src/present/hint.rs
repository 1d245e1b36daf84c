//! What `sunfold hint --format json` prints, as a type: `sunfold schema
//! hint-report` prints its schema.

use crate::sim::Estimate;

/// What `sunfold hint --format json` prints (`sunfold schema hint-report`).
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct HintReport<E> {
    pub file: String,
    pub game: String,
    pub bot: String,
    pub seed: u64,
    pub hints: Vec<Hint<E>>,
}

/// The best decision for one player.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Hint<E> {
    pub player: String,
    /// In words: "Ann placed 5 in K1d".
    pub said: String,
    /// The decision as a command to paste.
    pub command: Option<String>,
    /// The decision as an entry that `sunfold append` takes unchanged.
    pub event: E,
    /// The player's expected final score after it, over the rollouts the
    /// search gave it.
    pub expected_score: Estimate,
    /// The expected value the search maximised: the score, or in
    /// Summertime the lead over the other player.
    pub expected_value: Estimate,
    pub rollouts: u64,
    /// How many legal choices the player has.
    pub choices: usize,
}
