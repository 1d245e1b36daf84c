//! The start line of a new log: the players, the variant and how chance
//! comes in (the dice seed, or the deal), as `sunfold new` records it.

use crate::bots::{SoleilsVariant, SummertimeVariant};
use crate::{soleils, summertime};

/// A seed from the clock, for a log started without one.
pub fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() ^ u64::from(now.subsec_nanos()).rotate_left(32)
}

/// The names as given, trimmed.
fn trimmed(players: &[String]) -> Vec<String> {
    players.iter().map(|p| p.trim().to_owned()).collect()
}

/// A 62 Soleils game of `players` on `variant`, its digital dice drawn
/// from `dice_seed`.
pub fn soleils(players: &[String], variant: SoleilsVariant, dice_seed: u64) -> soleils::Event {
    soleils::Event::Started(soleils::Start {
        format: crate::log::LOG_FORMAT,
        game: "soleils".into(),
        players: trimmed(players),
        options: variant.options,
        template: variant.raw,
        dice_seed: Some(dice_seed),
    })
}

/// How the cards of a new Summertime game come: turned up at a real table
/// with these closing cards face up, in a given order, or dealt from a seed.
pub enum Deal {
    Physical { closing_up: [u8; 3] },
    Given(summertime::Order),
    Seeded(u64),
}

impl Deal {
    /// A game at a real table whose closing cards show these sides, one for
    /// each of the three, or why the sides are refused.
    pub fn physical(closing: &[u8]) -> Result<Deal, String> {
        match <[u8; 3]>::try_from(closing) {
            Ok(closing_up) => Ok(Deal::Physical { closing_up }),
            Err(_) => Err(format!(
                "expected --closing with three sides such as 0,1,0, but found {}",
                closing.len()
            )),
        }
    }
}

/// A deal given in full, as a deck-order file holds it:
/// `{"hands": [[..],[..]], "stacks": [[..],[..],[..]], "closing_up": [0,1,0]}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Given {
    hands: Vec<Vec<String>>,
    stacks: Vec<Vec<String>>,
    closing_up: [u8; 3],
}

impl From<Given> for Deal {
    fn from(given: Given) -> Deal {
        Deal::Given(summertime::Order::Dealt {
            hands: given.hands,
            stacks: given.stacks,
            closing_up: given.closing_up,
            seed: None,
        })
    }
}

/// A Summertime game of `players` on `variant`, `first` to play (the first
/// player if `None`), its cards coming as `deal` says.
pub fn summertime(
    players: &[String],
    first: Option<String>,
    variant: SummertimeVariant,
    deal: Deal,
) -> summertime::Event {
    let order = match deal {
        Deal::Physical { closing_up } => summertime::Order::Physical { closing_up },
        Deal::Given(order) => order,
        Deal::Seeded(seed) => crate::bots::deal::dealt_order(&variant.deck, seed),
    };
    let players = trimmed(players);
    let first = first.unwrap_or_else(|| players.first().cloned().unwrap_or_default());
    summertime::Event::Started(Box::new(summertime::Start {
        format: crate::log::LOG_FORMAT,
        game: "summertime".into(),
        players,
        first,
        deck: variant.raw,
        order,
    }))
}
