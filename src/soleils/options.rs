//! Rule options: where the English and German rulebooks disagree, the start
//! event records the choice so that an audit is reproducible.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every option is required in the start event: a log never depends on a
/// default that a later release might change. `sailboats` and `solo` came
/// with log format 2; the log reader upcasts a format-1 start event to
/// `sailboats: symbol` and `solo: true` exactly when it has one player,
/// which is what format 1 meant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub sun_bonus: SunBonus,
    pub skip_placement: SkipPlacement,
    pub sailboats: Sailboats,
    /// The solo variant: one player, whom a single seashell gives the
    /// seashell majority. Neither rulebook has a solo rule, so a game of one
    /// must ask for it; a game of 2 to 12 must not.
    pub solo: bool,
}

/// When a sun threshold grants its reward.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SunBonus {
    /// English rulebook: "reaches or passes" the threshold.
    #[default]
    ReachOrPass,
    /// German rulebook: "erreicht exakt", only a total equal to the threshold.
    Exact,
}

/// When a player may leave the placement out and only fill the sun.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SkipPlacement {
    /// German rulebook: "kann oder möchte" — whenever the player wishes.
    #[default]
    Voluntary,
    /// English rulebook: only when the roll allows no placement at all.
    OnlyWhenBlocked,
}

/// What the two boxes of a sailboat need of each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sailboats {
    /// English rulebook: "different numbers matching the rule", the `<` or
    /// `>` printed between the boxes. The template's constraints as written.
    #[default]
    Symbol,
    /// German rulebook: "unterschiedliche Zahlen", only different. Every
    /// `less` or `greater` constraint between two boxes of one zone of kind
    /// `sailboats` is read as `different`.
    Different,
}

impl std::fmt::Display for Sailboats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Sailboats::Symbol => "symbol",
            Sailboats::Different => "different",
        })
    }
}

impl std::fmt::Display for SunBonus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SunBonus::ReachOrPass => "reach_or_pass",
            SunBonus::Exact => "exact",
        })
    }
}

impl std::fmt::Display for SkipPlacement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SkipPlacement::Voluntary => "voluntary",
            SkipPlacement::OnlyWhenBlocked => "only_when_blocked",
        })
    }
}
