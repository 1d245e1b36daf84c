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

/// One rule option as a run gives it, `NAME=VALUE`, checked: applied onto a
/// log's own options, it changes that one rule and keeps the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    SunBonus(SunBonus),
    SkipPlacement(SkipPlacement),
    Sailboats(Sailboats),
    Solo(bool),
}

/// A `NAME=VALUE` that names no option, or no value of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected an option sun_bonus=reach_or_pass|exact, skip_placement=voluntary|only_when_blocked, sailboats=symbol|different or solo=true|false, but found {found:?}"
)]
pub struct UnknownSetting {
    pub found: String,
}

impl std::str::FromStr for Setting {
    type Err = UnknownSetting;

    fn from_str(text: &str) -> Result<Setting, UnknownSetting> {
        let setting = match text.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("sun_bonus", "reach_or_pass")) => Setting::SunBonus(SunBonus::ReachOrPass),
            Some(("sun_bonus", "exact")) => Setting::SunBonus(SunBonus::Exact),
            Some(("skip_placement", "voluntary")) => {
                Setting::SkipPlacement(SkipPlacement::Voluntary)
            }
            Some(("skip_placement", "only_when_blocked")) => {
                Setting::SkipPlacement(SkipPlacement::OnlyWhenBlocked)
            }
            Some(("sailboats", "symbol")) => Setting::Sailboats(Sailboats::Symbol),
            Some(("sailboats", "different")) => Setting::Sailboats(Sailboats::Different),
            Some(("solo", "true")) => Setting::Solo(true),
            Some(("solo", "false")) => Setting::Solo(false),
            _ => {
                return Err(UnknownSetting {
                    found: text.to_owned(),
                });
            }
        };
        Ok(setting)
    }
}

impl Setting {
    /// The option it sets: `sun_bonus`, `skip_placement`, `sailboats`, `solo`.
    pub fn name(self) -> &'static str {
        match self {
            Setting::SunBonus(_) => "sun_bonus",
            Setting::SkipPlacement(_) => "skip_placement",
            Setting::Sailboats(_) => "sailboats",
            Setting::Solo(_) => "solo",
        }
    }
}

impl Options {
    /// These options with every setting applied, in order.
    pub fn with(mut self, settings: &[Setting]) -> Options {
        for setting in settings {
            match *setting {
                Setting::SunBonus(v) => self.sun_bonus = v,
                Setting::SkipPlacement(v) => self.skip_placement = v,
                Setting::Sailboats(v) => self.sailboats = v,
                Setting::Solo(v) => self.solo = v,
            }
        }
        self
    }
}
