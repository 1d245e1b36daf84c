//! A decision as a page offers it: its kind, by which buttons are grouped,
//! its label in the game's words, and where on the drawing it is tapped.
//! Each game writes its own offers ([`Present::offer`]); a page only lays
//! them out.
//!
//! [`Present::offer`]: super::Present::offer

use serde::Serialize;

/// What kind of decision an offer is. A page groups its buttons by kind,
/// and gives each group its title; on the wire it is the lowercase name
/// (`place`, `sun`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A value written in a box of the sheet.
    Place,
    /// A bonus digit written, or declined.
    Bonus,
    /// A value entered on the sun track.
    Sun,
    /// A crab's copy made, or declined.
    Crab,
    /// A face-up card bought.
    Buy,
    /// A card played from the hand into the grid.
    Play,
    /// The end of a turn: ended, tiles flipped, or a pass.
    Turn,
    /// The next card of a stack turned up.
    Reveal,
    /// The face-up cards discarded.
    Discard,
    /// The dice rolled.
    Roll,
    /// The last decision taken back.
    Undo,
}

/// One decision offered, without the event it posts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: Kind,
    /// The button's text.
    pub label: String,
    /// The element of the drawing it is chosen by tapping (`box:K1a`,
    /// `cell:0,1`), if any.
    pub key: Option<String>,
    /// The card in hand a play is made with (`Ocean 2 (O2)`): on a phone,
    /// the player taps it, then the highlighted cell.
    pub hand: Option<String>,
}

impl Offer {
    /// An offer made by a button alone.
    pub fn button(kind: Kind, label: String) -> Offer {
        Offer {
            kind,
            label,
            key: None,
            hand: None,
        }
    }

    /// An offer made by tapping `key` on the drawing.
    pub fn tap(kind: Kind, label: String, key: String) -> Offer {
        Offer {
            kind,
            label,
            key: Some(key),
            hand: None,
        }
    }

    /// Taking back a decision, `described` as a referee would say it.
    pub fn take_back(described: &str) -> Offer {
        Offer::button(Kind::Undo, format!("Take back: {described}"))
    }
}
