//! The sheet template exactly as it is written in JSON, before validation.
//!
//! Every type here mirrors the file format one to one; see
//! `docs/sheet-template.md` for a complete example. Nothing here is checked
//! beyond its JSON shape: [`super::Template::try_from`] does that.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A sheet template for 62 Soleils d'été, as written in JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTemplate {
    /// Format version of this template. Only `1` exists.
    pub format: u32,
    /// Always `"soleils"` for a 62 Soleils sheet.
    pub game: String,
    /// Title printed on the sheet.
    pub name: String,
    /// Free text: where the layout comes from, what is reconstructed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The box grid: boxes sit in cells `[column, row]`, from `[0, 0]` at top left.
    pub grid: RawGrid,
    pub zones: Vec<RawZone>,
    pub boxes: Vec<RawBox>,
    pub constraints: Vec<RawConstraint>,
    pub sun: RawSun,
    pub end: RawEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGrid {
    pub columns: u16,
    pub rows: u16,
}

/// One of the five kinds of zone printed on the sheet. The kind names the
/// zone's picture; its rules come only from `constraints`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ZoneKind {
    Cabins,
    Koinobori,
    Sailboats,
    Bottles,
    Seagulls,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawZone {
    pub id: String,
    pub name: String,
    pub kind: ZoneKind,
    /// Gained once, when every box of the zone is filled.
    pub flag: Reward,
    /// Cabins, windsocks, boats: named parts of the zone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<RawGroup>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGroup {
    pub id: String,
    pub name: String,
    /// Gained once, when every box of the group is filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reward: Option<Reward>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Icon {
    /// After writing here, the same value may be copied to an orthogonal neighbour.
    Crab,
    /// Filling this box in the placement step frees the sun entry to any value 1 to 6.
    Frog,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBox {
    /// Unique name such as `K3`, used by events.
    pub id: String,
    /// The number in the box's top-left pearl, 1 to 6.
    #[serde(deserialize_with = "crate::kit::bounded::pearl")]
    pub pearl: u8,
    /// `[column, row]` in the grid.
    pub cell: [u16; 2],
    /// The id of the zone the box belongs to.
    pub zone: String,
    /// The id of a group of that zone, if the box belongs to one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
}

/// A rule between written values. Only filled boxes constrain: an empty box
/// constrains nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawConstraint {
    /// All boxes hold the same value (a cabin; all bottles).
    Same(Vec<String>),
    /// All boxes hold different values (the seagulls).
    Distinct(Vec<String>),
    /// The first box holds a lower value than the second (`<`).
    Less([String; 2]),
    /// The first box holds a higher value than the second (`>`).
    Greater([String; 2]),
    /// The two boxes hold different values (`≠`).
    Different([String; 2]),
}

/// What a flag, a group or a sun threshold grants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reward {
    /// Victory points.
    Starfish(u32),
    /// Counted at the end: the most seashells score 5.
    Seashells(u32),
    /// A free digit 1 to 6 into any empty box.
    BonusDigit,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSun {
    /// How many sun entries the track has room for.
    pub slots: u16,
    /// In increasing order of `at`.
    pub thresholds: Vec<RawThreshold>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawThreshold {
    /// The sun total that unlocks the reward.
    pub at: u16,
    pub reward: Reward,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEnd {
    /// The game ends after this round at the latest (20).
    pub rounds: u16,
    /// The game ends after the round in which a sun total reaches this (62).
    pub sun_limit: u16,
}
