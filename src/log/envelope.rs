//! The envelope around every event of the log: `seq`, `type`, optional
//! `at`, `prev` and `by`.

use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

/// One line of the log. The event's own fields, including its `type` tag,
/// sit beside `seq` and `at` in the same JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(extend("unevaluatedProperties" = false))]
pub struct Envelope<E> {
    /// Consecutive from 0: the line's position among the events.
    pub seq: u64,
    /// When the event happened, RFC 3339 (`2026-07-14T15:02:00+02:00`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "rfc3339"
    )]
    #[schemars(with = "Option<String>", extend("format" = "date-time"))]
    pub at: Option<DateTime<FixedOffset>>,
    /// The SHA-256 of the previous line's bytes, in lowercase hex: the hash
    /// chain sunfold writes. Absent in hand-written logs, and on line 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
    /// Who posted the entry to the table's server: `referee` for the
    /// referee's link, or the player of the seat's own link, by name; from
    /// log format 5 on also a bot that took a seat's decision (`bot:greedy`)
    /// or `dealer` for a table's event the server made. The server writes
    /// it, never the client; an entry recorded at the command line has
    /// none. From log format 4 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    #[serde(flatten)]
    pub event: E,
}

/// The few fields read before the full event, to locate errors and to
/// choose the game. Unknown fields are ignored here.
#[derive(Debug, Default, Deserialize)]
pub(super) struct Head {
    #[serde(default)]
    pub seq: Option<serde_json::Value>,
    #[serde(default, rename = "type")]
    pub kind: Option<serde_json::Value>,
    #[serde(default)]
    pub game: Option<serde_json::Value>,
    #[serde(default)]
    pub format: Option<serde_json::Value>,
}

impl Head {
    pub fn seq(&self) -> Option<u64> {
        self.seq.as_ref()?.as_u64()
    }
    pub fn kind(&self) -> Option<&str> {
        self.kind.as_ref()?.as_str()
    }
}

fn rfc3339<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<DateTime<FixedOffset>>, D::Error> {
    let text = String::deserialize(deserializer)?;
    DateTime::parse_from_rfc3339(&text).map(Some).map_err(|_| {
        serde::de::Error::custom(format_args!(
            "expected an RFC 3339 timestamp such as 2026-07-14T15:02:00+02:00, but found {text:?}"
        ))
    })
}

/// The entries of a log that belong to no game: taking back a decision, and
/// the scores claimed on paper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Meta {
    /// Takes back the decision with seq `undoes`, which must be the last one
    /// still standing since the last roll or reveal.
    Undone { undoes: u64 },
    /// The scores the players wrote on paper, by name, for the audit.
    Claimed {
        scores: std::collections::BTreeMap<String, i64>,
        /// Whether the referee calls the game with these claims before its
        /// end (on time, say): a called game is over like any other. From
        /// log format 3 on, claims before the end must call the game.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        called: bool,
    },
}

/// The `type` values of [`Meta`].
pub const META_KINDS: &[&str] = &["undone", "claimed"];
