//! A die face, 1 to 6. Anything else is refused while decoding.

use schemars::JsonSchema;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "u8")]
pub struct Die(u8);

/// Any whole number is read, so that one beyond a `u8` is refused as a die
/// value too (`expected a die value from 1 to 6, but found 4000000000`).
impl<'de> Deserialize<'de> for Die {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Die, D::Error> {
        struct Face;
        impl Visitor<'_> for Face {
            type Value = Die;
            // A number of the wrong type keeps its message (`a whole number`).
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("u8")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Die, E> {
                let die = u8::try_from(v).ok().and_then(Die::new);
                die.ok_or_else(|| E::custom(NotADie::beyond(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Die, E> {
                let die = u8::try_from(v).ok().and_then(Die::new);
                die.ok_or_else(|| E::custom(NotADie::beyond(v)))
            }
        }
        deserializer.deserialize_u64(Face)
    }
}

impl Die {
    pub const ALL: [Die; 6] = [Die(1), Die(2), Die(3), Die(4), Die(5), Die(6)];

    pub fn new(value: u8) -> Option<Die> {
        (1..=6).contains(&value).then_some(Die(value))
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

/// Why a number is not a die face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a die value from 1 to 6, but found {0}")]
pub struct NotADie(pub u8);

impl NotADie {
    /// The message for any whole number that is not a die face.
    fn beyond(found: impl fmt::Display) -> String {
        format!("expected a die value from 1 to 6, but found {found}")
    }
}

impl TryFrom<u8> for Die {
    type Error = NotADie;
    fn try_from(value: u8) -> Result<Self, NotADie> {
        Die::new(value).ok_or(NotADie(value))
    }
}

impl From<Die> for u8 {
    fn from(die: Die) -> u8 {
        die.0
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl JsonSchema for Die {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Die".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A die face.",
            "type": "integer",
            "minimum": 1,
            "maximum": 6
        })
    }
}

/// Three dice, displayed as `2-4-6`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dice(pub [u8; 3]);

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.0;
        write!(f, "{a}-{b}-{c}")
    }
}
