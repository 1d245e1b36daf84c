//! Rule options: where the English and German rulebooks disagree, the start
//! event records the choice so that an audit is reproducible.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Both options are required in the start event: a log never depends on a
/// default that a later release might change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Options {
    pub sun_bonus: SunBonus,
    pub skip_placement: SkipPlacement,
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
