//! The Summertime deck exactly as written in JSON, before validation.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The components of Summertime, as written in JSON. See `docs/deck-template.md`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeck {
    /// Format version of this deck file. Only `1` exists.
    pub format: u32,
    /// Always `"summertime"`.
    pub game: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The pictures cards show (beach, ocean…), which conditions name.
    pub pictures: Vec<RawNamed>,
    /// The item kinds on tiles and card backs (coconut, breadfruit…).
    pub items: Vec<RawNamed>,
    /// How many tiles of each item kind each player has.
    pub tiles_per_item: u8,
    pub cards: Vec<RawCard>,
    pub closing_cards: Vec<RawClosingCard>,
    pub rules: RawRules,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawNamed {
    pub id: String,
    pub name: String,
    /// Pictures only: the built-in pictogram printed for this picture, such
    /// as `surfer` for a picture `windsurfer`. Left out, a picture whose id
    /// is a built-in pictogram uses it, and any other its initial in a ring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pictogram: Option<String>,
}

/// One adventure card: its face (picture, value or multiplier, condition)
/// and the cost printed on its back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCard {
    pub id: String,
    pub name: String,
    /// A picture id.
    pub picture: String,
    /// The blue point value, for a point card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u8>,
    /// The brown ×N factor, for a multiplier card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<u8>,
    /// 0, 1 or 2 picture ids in the stripe: the card must border a card
    /// showing one of them.
    #[serde(default)]
    pub needs: Vec<String>,
    /// The three items printed on the card's back: the price of the face-up
    /// card in front of it.
    pub cost: [String; 3],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawClosingCard {
    pub id: String,
    /// Both sides' costs; the start event says which side is up.
    pub sides: [[String; 3]; 2],
}

/// The numbers of the rulebook, kept as data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRules {
    /// Cards dealt to each player (2).
    pub hand_size: u8,
    /// Cards in each of the three stacks (10).
    pub stack_size: u8,
    /// The grid may be at most `grid_long` × `grid_short` cards, either way (6 × 5).
    pub grid_long: u8,
    pub grid_short: u8,
    /// Cards a player may play in one turn (5).
    pub plays_per_turn: u8,
    /// Points lost per card left in hand at the end (5).
    pub hand_penalty: u8,
}
