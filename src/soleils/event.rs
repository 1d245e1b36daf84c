//! The events of a 62 Soleils game, exactly as they appear in the log after
//! the envelope (`seq`, `at`) is taken off. See `docs/replay-format.md`.

use super::die::Die;
use super::options::Options;
use super::template::RawTemplate;
use crate::kit::game::EventKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One event, tagged by its `type` field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The first event: who plays, with which rules, on which sheet.
    Started(Start),
    /// The three shared dice of a new round.
    Rolled(Rolled),
    /// A player writes the value die into a box whose pearl matches another die.
    Placed(Placed),
    /// A player copies the value just written in a crab box to a neighbour.
    CrabCopied(CrabCopied),
    /// A player leaves a crab copy unused.
    CrabDeclined(PlayerOnly),
    /// A player adds a value to the sun track.
    SunEntered(SunEntered),
    /// A player writes a bonus digit won on the sun track.
    BonusPlaced(BonusPlaced),
    /// A player gives up a bonus digit.
    BonusDeclined(PlayerOnly),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The log format version; this release writes `3` and reads `1`, `2`
    /// and `3` (a start line of format 1 is upcast before decoding, so it
    /// decodes as `2`). A log keeps the rules of its format: from `3` on, a
    /// game's end is final.
    pub format: u32,
    /// Always `"soleils"`.
    pub game: String,
    /// 2 to 12 unique, non-empty names, in seating order; exactly 1 under
    /// the option `solo`.
    pub players: Vec<String>,
    pub options: Options,
    /// The complete sheet template, embedded so that the log is self-contained.
    pub template: RawTemplate,
    /// For digital dice: the seed `sunfold roll` draws from. The dice it
    /// draws are written into each `rolled` event and never drawn again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice_seed: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rolled {
    pub dice: [Die; 3],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub player: String,
    /// The id of an empty box whose pearl shows on one die.
    #[serde(rename = "box")]
    pub box_id: String,
    /// The value of a second die, written into the box.
    pub value: Die,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrabCopied {
    pub player: String,
    /// The crab box just written.
    pub from: String,
    /// An empty box orthogonally adjacent to `from`.
    pub to: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerOnly {
    pub player: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SunEntered {
    pub player: String,
    /// The value added to the sun total (not the new total).
    pub value: Die,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BonusPlaced {
    pub player: String,
    #[serde(rename = "box")]
    pub box_id: String,
    pub value: Die,
}

impl Event {
    /// The player who makes this decision; `None` for the start and rolls.
    pub fn player(&self) -> Option<&str> {
        match self {
            Event::Started(_) | Event::Rolled(_) => None,
            Event::Placed(e) => Some(&e.player),
            Event::CrabCopied(e) => Some(&e.player),
            Event::CrabDeclined(e) | Event::BonusDeclined(e) => Some(&e.player),
            Event::SunEntered(e) => Some(&e.player),
            Event::BonusPlaced(e) => Some(&e.player),
        }
    }
}

impl EventKind for Event {
    fn kind(&self) -> &'static str {
        match self {
            Event::Started(_) => "started",
            Event::Rolled(_) => "rolled",
            Event::Placed(_) => "placed",
            Event::CrabCopied(_) => "crab_copied",
            Event::CrabDeclined(_) => "crab_declined",
            Event::SunEntered(_) => "sun_entered",
            Event::BonusPlaced(_) => "bonus_placed",
            Event::BonusDeclined(_) => "bonus_declined",
        }
    }
}

/// A short human form, as a referee would say it: `Ann placed 5 in K3`.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Started(s) => write!(f, "started with {}", s.players.join(", ")),
            Event::Rolled(r) => write!(f, "rolled {}-{}-{}", r.dice[0], r.dice[1], r.dice[2]),
            Event::Placed(e) => write!(f, "{} placed {} in {}", e.player, e.value, e.box_id),
            Event::CrabCopied(e) => write!(f, "{} copied {} to {}", e.player, e.from, e.to),
            Event::CrabDeclined(e) => write!(f, "{} declined the crab copy", e.player),
            Event::SunEntered(e) => write!(f, "{} entered {} on the sun", e.player, e.value),
            Event::BonusPlaced(e) => {
                write!(f, "{} placed bonus {} in {}", e.player, e.value, e.box_id)
            }
            Event::BonusDeclined(e) => write!(f, "{} declined the bonus digit", e.player),
        }
    }
}
