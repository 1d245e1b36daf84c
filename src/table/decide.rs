//! A decision named as a referee names it at the table (a player, a box, a
//! card, a stack number, dice or none) made into the game's event, with
//! what the log's state fills in: the digital dice, the crab box just
//! written, the card in front of a stack, the next card of a dealt game,
//! the face-up cards discarded; and the line a recording command asks to
//! append ([`line`]).

use crate::kit::game::Game;
use crate::log::{Entry, Fold, GameKind, Meta, Session};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use chrono::{DateTime, FixedOffset};
use std::collections::BTreeMap;
use std::path::Path;

/// A cell as a referee types it, `2,-1`: its column and row.
pub fn cell(text: &str) -> Result<(i32, i32), String> {
    let n = |v: &str| v.trim().parse::<i32>().ok();
    match text.split_once(',').map(|(x, y)| (n(x), n(y))) {
        Some((Some(x), Some(y))) => Ok((x, y)),
        _ => Err(format!("expected a cell such as 2,-1, but found {text:?}")),
    }
}

/// A player's claimed score as a referee types it, `Ann=54`.
pub fn claim(text: &str) -> Result<(String, i64), String> {
    let (name, score) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=SCORE such as Ann=54, but found {text:?}"))?;
    let score = score
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("expected a whole score in {text:?}"))?;
    Ok((name.trim().to_owned(), score))
}

/// One decision of either game, as the recording commands take it.
#[derive(Clone, Debug)]
pub enum Decision {
    /// 62 Soleils: the three dice, or `None` for the log's digital dice.
    Roll {
        dice: Option<Vec<u8>>,
    },
    Place {
        player: String,
        box_id: String,
        value: u8,
    },
    /// `None` declines the copy.
    Crab {
        player: String,
        target: Option<String>,
    },
    Sun {
        player: String,
        value: u8,
    },
    /// A box and a value, or neither to decline.
    Bonus {
        player: String,
        box_id: Option<String>,
        value: Option<u8>,
    },
    /// Summertime: a card's id, or the stack number 0-2.
    Buy {
        player: String,
        card: String,
    },
    Play {
        player: String,
        card: String,
        cell: (i32, i32),
    },
    EndTurn {
        player: String,
    },
    Flip {
        player: String,
    },
    Pass {
        player: String,
    },
    /// A stack and card as seen on the table, or neither for a dealt game.
    Reveal {
        stack: Option<u8>,
        card: Option<String>,
        behind: Option<Vec<String>>,
    },
    Discard,
}

/// What a recording command asks to append.
#[derive(Clone, Debug)]
pub enum Request {
    /// A raw JSON entry, completed with `seq`, `at` and `prev`.
    Json(String),
    /// An `undone` entry taking back the last decision.
    Undo,
    /// The scores claimed on paper; `called` ends the game here.
    Claim {
        scores: BTreeMap<String, i64>,
        called: bool,
    },
    /// A decision of the game.
    Decision(Decision),
}

/// A game whose decisions a referee names at the table.
pub trait Decide: Game + Sized {
    /// The event of `decision` on the log folded in `fold`.
    fn decide(fold: &Fold<Self>, decision: Decision) -> Result<Self::Event, Refusal>;
}

impl Decide for Soleils {
    fn decide(fold: &Fold<Self>, decision: Decision) -> Result<soleils::Event, Refusal> {
        soleils(fold, decision)
    }
}

impl Decide for Summertime {
    fn decide(fold: &Fold<Self>, decision: Decision) -> Result<summertime::Event, Refusal> {
        summertime(fold, decision)
    }
}

/// The line `request` makes on the locked `session`, whose log is folded
/// in `fold`, stamped `at`; it is checked when appended.
pub fn line<G: Decide>(
    session: &Session<'_>,
    fold: &Fold<G>,
    request: Request,
    at: DateTime<FixedOffset>,
) -> Result<String, Refusal> {
    let entry = match request {
        Request::Json(json) => {
            return super::entry::line::<G>(&json, fold.events(), Session::prev(fold), at)
                .map_err(|e| Refusal::Refused(e.to_string()));
        }
        Request::Undo => Session::undo(fold),
        Request::Claim { scores, called } => Entry::Meta(Meta::Claimed { scores, called }),
        Request::Decision(decision) => Entry::Game(G::decide(fold, decision)?),
    };
    Ok(session.line(fold, entry, Some(at)))
}

/// Why a decision cannot be made into an event.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The decision is said in a way that cannot be read (three dice, three
    /// items), or needs what the log lacks.
    Usage(String),
    /// The decision cannot be taken now.
    Refused(String),
}

impl Decision {
    /// The game this decision belongs to.
    pub fn game(&self) -> GameKind {
        match self {
            Decision::Roll { .. }
            | Decision::Place { .. }
            | Decision::Crab { .. }
            | Decision::Sun { .. }
            | Decision::Bonus { .. } => GameKind::Soleils,
            _ => GameKind::Summertime,
        }
    }

    /// Refuses a decision of one game on a log of the other.
    pub fn check_game(&self, path: &Path, found: GameKind) -> Result<(), Refusal> {
        if self.game() == found {
            return Ok(());
        }
        let (wanted, found) = match self.game() {
            GameKind::Soleils => ("62 Soleils", "Summertime"),
            GameKind::Summertime => ("Summertime", "62 Soleils"),
        };
        Err(Refusal::Usage(format!(
            "{}: expected a {wanted} log for this command, but found a {found} game",
            path.display()
        )))
    }
}

fn die(value: u8) -> Result<soleils::Die, Refusal> {
    let refused = format!("expected a die value from 1 to 6, but found {value}");
    soleils::Die::new(value).ok_or(Refusal::Refused(refused))
}

/// The 62 Soleils event of `decision` on the log folded in `fold`.
pub fn soleils(fold: &Fold<Soleils>, decision: Decision) -> Result<soleils::Event, Refusal> {
    use soleils::{BonusPlaced, CrabCopied, Event, Placed, PlayerOnly, Rolled, Step, SunEntered};
    let state = fold.state();
    Ok(match decision {
        Decision::Roll { dice } => {
            let dice = match dice {
                Some(dice) if dice.len() == 3 => dice,
                Some(dice) => {
                    return Err(Refusal::Usage(format!(
                        "expected three dice such as 3,4,6, but found {}",
                        dice.len()
                    )));
                }
                None => digital_dice(fold)?,
            };
            Event::Rolled(Rolled {
                dice: [die(dice[0])?, die(dice[1])?, die(dice[2])?],
            })
        }
        Decision::Place {
            player,
            box_id,
            value,
        } => Event::Placed(Placed {
            player,
            box_id,
            value: die(value)?,
        }),
        Decision::Crab {
            player,
            target: None,
        } => Event::CrabDeclined(PlayerOnly { player }),
        Decision::Crab {
            player,
            target: Some(to),
        } => {
            // The copy comes from the crab box the player just wrote.
            let from = state
                .player_index(&player)
                .and_then(|p| match state.players()[p].turn.step() {
                    Step::Crab(b) => Some(state.template().boxes()[b].id.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| to.clone());
            Event::CrabCopied(CrabCopied { player, from, to })
        }
        Decision::Sun { player, value } => Event::SunEntered(SunEntered {
            player,
            value: die(value)?,
        }),
        Decision::Bonus {
            player,
            box_id: Some(box_id),
            value: Some(value),
        } => Event::BonusPlaced(BonusPlaced {
            player,
            box_id,
            value: die(value)?,
        }),
        Decision::Bonus { player, .. } => Event::BonusDeclined(PlayerOnly { player }),
        _ => unreachable!("only 62 Soleils decisions reach here"),
    })
}

/// The dice a roll without dice draws, from the log's seed.
fn digital_dice(fold: &Fold<Soleils>) -> Result<Vec<u8>, Refusal> {
    let refused = "expected --dice 3,4,6: this log has no dice_seed for digital dice (sunfold new writes one)";
    let dice = super::digital_dice(fold.state());
    dice.map(|dice| dice.to_vec())
        .ok_or(Refusal::Usage(refused.to_owned()))
}

/// The Summertime event of `decision` on the log folded in `fold`.
pub fn summertime(
    fold: &Fold<Summertime>,
    decision: Decision,
) -> Result<summertime::Event, Refusal> {
    use summertime::{Bought, Discarded, Event, Phase, Played, PlayerOnly, Revealed};
    let state = fold.state();
    let deck = state.deck();
    Ok(match decision {
        Decision::Buy { player, card } => {
            // A stack number names the face-up card in front of that stack.
            let card = match card.parse::<usize>() {
                Ok(stack) if stack < 3 => {
                    state.display()[stack].map_or(card, |c| deck.card(c).id.clone())
                }
                _ => card,
            };
            Event::Bought(Bought { player, card })
        }
        Decision::Play { player, card, cell } => Event::Played(Played {
            player,
            card,
            cell: [cell.0, cell.1],
        }),
        Decision::EndTurn { player } => Event::TurnEnded(PlayerOnly { player }),
        Decision::Flip { player } => Event::TilesFlipped(PlayerOnly { player }),
        Decision::Pass { player } => Event::Passed(PlayerOnly { player }),
        Decision::Reveal {
            stack: Some(stack),
            card: Some(card),
            behind,
        } => {
            let behind = match behind {
                None => None,
                Some(items) if items.len() == 3 => {
                    Some([items[0].clone(), items[1].clone(), items[2].clone()])
                }
                Some(items) => {
                    return Err(Refusal::Usage(format!(
                        "expected three items behind, such as coconut,coconut,shell, but found {}",
                        items.len()
                    )));
                }
            };
            Event::Revealed(Revealed {
                stack,
                card,
                behind,
            })
        }
        Decision::Reveal { .. } => {
            // In a dealt game the order says which card comes next.
            let Phase::Reveal(stacks) = state.phase() else {
                return Err(Refusal::Refused(
                    "expected a reveal to be due, but none is: nothing to turn up now".to_owned(),
                ));
            };
            if !state.is_dealt() {
                return Err(Refusal::Usage(
                    "expected STACK CARD --behind ITEMS in a physical game, whose order is unknown"
                        .to_owned(),
                ));
            }
            let stack = stacks[0];
            let card = deck
                .card(state.stacks()[usize::from(stack)].cards[0])
                .id
                .clone();
            Event::Revealed(Revealed {
                stack,
                card,
                behind: None,
            })
        }
        Decision::Discard => Event::Discarded(Discarded {
            cards: state
                .display()
                .iter()
                .flatten()
                .map(|&c| deck.card(c).id.clone())
                .collect(),
        }),
        _ => unreachable!("only Summertime decisions reach here"),
    })
}
