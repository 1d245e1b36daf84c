//! Small whole numbers read from JSON with the range they allow named when
//! a number does not even fit the type: `expected a pearl from 1 to 6, but
//! found 4000000000`, not `expected u8`. Numbers that fit are passed on as
//! they are, for the checks that know the rules to refuse them.

use serde::Deserializer;
use serde::de::{self, Visitor};
use std::fmt;

/// A `u8` whose allowed values are `min..=max`, called `what` in messages.
pub struct Bounded {
    pub what: &'static str,
    pub min: u8,
    pub max: u8,
}

impl Bounded {
    fn refuse<E: de::Error>(&self, found: impl fmt::Display) -> E {
        let Bounded { what, min, max } = self;
        E::custom(format_args!(
            "expected {what} from {min} to {max}, but found {found}"
        ))
    }

    /// Reads the number, or says which range it should be in.
    pub fn read<'de, D: Deserializer<'de>>(self, deserializer: D) -> Result<u8, D::Error> {
        deserializer.deserialize_u64(self)
    }
}

impl Visitor<'_> for Bounded {
    type Value = u8;

    // A number of the wrong type keeps its message (`a whole number`).
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("u8")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u8, E> {
        u8::try_from(v).map_err(|_| self.refuse(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u8, E> {
        u8::try_from(v).map_err(|_| self.refuse(v))
    }
}

/// A pearl, 1 to 6 (a template checks the values that fit a `u8`).
pub fn pearl<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
    let range = Bounded {
        what: "a pearl",
        min: 1,
        max: 6,
    };
    range.read(deserializer)
}

/// A Summertime stack, 0 to 2 (the rules check the values that fit a `u8`).
pub fn stack<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u8, D::Error> {
    let range = Bounded {
        what: "a stack",
        min: 0,
        max: 2,
    };
    range.read(deserializer)
}
