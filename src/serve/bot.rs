//! Bots in seats of a served table, and the dealer.
//!
//! A seat given to a bot (`sunfold serve FILE --bot NAME=BOT`) has no link:
//! when the table waits for it, the bot decides after a short pause, from
//! what that seat may see ([`crate::bots::seat`]), and its decision is
//! appended through the same lock, check and fsync as a phone's post, with
//! `"by": "bot:BOT"`. Where the log decides the table's own events (digital
//! dice from its seed, a dealt Summertime deck's reveals and discards), the
//! server makes them too, as `"by": "dealer"`, so that a person can play
//! against bots with no referee at the table.
//!
//! The runner keeps nothing that matters: at every change of the log (a
//! post, an undo, an entry recorded by another program) and at its start,
//! it reads the log and does what is due. A server killed in the middle of
//! a bot's turn, started again, finds the same turn due and plays it; a
//! decision is appended only as the entry of the seq it was decided for,
//! so a table that moved on meanwhile is never given a stale one.
//!
//! When a bot cannot decide, the table is not blocked: the referee's page
//! says why ([`BotSeat::problem`]), and the referee may record for the seat
//! (`?as=NAME`). The bot tries again once the log changes.

use super::ApiError;
use super::http::Shared;
use super::page::Table;
use crate::bots::Bot;
use crate::bots::search::Searched;
use crate::kit::game::Game;
use crate::log::{Fold, Session};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use serde::Serialize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pause before a bot's decision or the dealer's event, by default: a
/// person sees what changed before the next change comes.
pub const PAUSE: Duration = Duration::from_millis(800);

/// The seats a served table gives to bots, and how they play.
pub struct Bots {
    /// Each bot's seat, by the player's name in the log, and its bot.
    pub seats: Vec<(String, Bot)>,
    /// How long a bot or the dealer waits before it acts.
    pub pause: Duration,
    /// Why a bot could not decide, by seat name, until the log changes.
    problems: Mutex<Vec<(String, String)>>,
}

impl Bots {
    pub fn new(seats: Vec<(String, Bot)>, pause: Duration) -> Bots {
        Bots {
            seats,
            pause,
            problems: Mutex::new(Vec::new()),
        }
    }

    /// The bot that holds the seat of `name`, if one does.
    pub fn of(&self, name: &str) -> Option<Bot> {
        (self.seats.iter())
            .find(|(seat, _)| seat == name)
            .map(|&(_, bot)| bot)
    }

    /// What each bot seat's line on a page says.
    pub fn lines(&self) -> Vec<BotSeat> {
        let problems = self.problems.lock().map(|p| p.clone()).unwrap_or_default();
        (self.seats.iter())
            .map(|(name, bot)| BotSeat {
                name: name.clone(),
                bot: bot.name(),
                problem: (problems.iter())
                    .find(|(seat, _)| seat == name)
                    .map(|(_, why)| why.clone()),
            })
            .collect()
    }

    fn told(&self, problems: Vec<(String, String)>) {
        if let Ok(mut kept) = self.problems.lock() {
            *kept = problems;
        }
    }
}

/// A seat played by a bot, as a page shows it.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct BotSeat {
    /// The player's name in the log.
    pub name: String,
    /// The bot, as `--bot` spells it: `greedy`, `search:64`.
    pub bot: String,
    /// Why the bot could not decide, when it could not: the referee may
    /// record for the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// A game whose seats a bot may take at the table server.
pub trait Played: Table + Searched {
    /// The table's next event when the log decides it and it is due: a
    /// roll of the log's digital dice, a dealt game's reveal or discard.
    fn dealt(state: &Self::State) -> Option<Self::Event>;
}

impl Played for Soleils {
    fn dealt(state: &soleils::State) -> Option<soleils::Event> {
        if Soleils::is_over(state) || !state.round_closed() {
            return None;
        }
        let dice = crate::table::digital_dice(state)?.map(soleils::Die::new);
        let action = soleils::Action::Roll([dice[0]?, dice[1]?, dice[2]?]);
        Soleils::is_legal(state, action).then(|| Soleils::describe_action(state, action))
    }
}

impl Played for Summertime {
    fn dealt(state: &summertime::State) -> Option<summertime::Event> {
        use crate::bots::Simulated;
        if !state.is_dealt() {
            return None;
        }
        // A dealt game's chance is no chance: the next card is known.
        let mut unused = crate::kit::rng::SeededRng::new(0);
        let action = Summertime::chance(state, &mut unused)?;
        Some(Summertime::describe_action(state, action))
    }
}

/// What is due at a table: the dealer's event, or a bot's decision.
enum Due<E> {
    Dealer(E),
    Bot { name: String, bot: Bot, event: E },
}

/// The seed of a bot's decision at the log's state after `fold`: the
/// same log gives the same decision, after a restart too.
fn seed<G: Game>(fold: &Fold<G>, seat: usize) -> u64 {
    // FNV-1a: a seed that no Rust release changes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let prev = Session::prev(fold).unwrap_or_default();
    let text = format!("{prev}:{}:{seat}", fold.events());
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// What is due at the table of `fold`, decided now (a bot's search runs
/// here); problems of bots that could not decide go to `problems`.
fn due<G: Played>(
    fold: &Fold<G>,
    bots: &Bots,
    problems: &mut Vec<(String, String)>,
) -> Option<Due<G::Event>> {
    let state = fold.state();
    if G::is_over(state) {
        return None;
    }
    if let Some(event) = G::dealt(state) {
        return Some(Due::Dealer(event));
    }
    let names = G::player_names(state);
    let mut deciders = Vec::new();
    G::deciders(state, &mut deciders);
    for seat in deciders {
        let name = &names[seat];
        let Some(bot) = bots.of(name) else { continue };
        match crate::bots::seat::decide::<G>(state, seat, bot, seed(fold, seat)) {
            Ok(action) => {
                let event = G::describe_action(state, action);
                return Some(Due::Bot {
                    name: name.clone(),
                    bot,
                    event,
                });
            }
            Err(error) => problems.push((name.clone(), error.to_string())),
        }
    }
    None
}

/// Starts the bots of `shared`'s table, if it has any: they play from the
/// log as it stands, and again at each change of it.
pub fn spawn<G: Played>(shared: Arc<Shared>) {
    let Some(bots) = shared.bots.clone() else {
        return;
    };
    tokio::spawn(async move {
        let mut heard = shared.appended.subscribe();
        loop {
            let acted = act::<G>(&shared, &bots).await;
            if acted {
                continue;
            }
            // Nothing due: wait for the log to change (a post, an undo,
            // another program), or look again in a while.
            let changed = tokio::time::timeout(Duration::from_secs(5), heard.recv()).await;
            if let Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) = changed {
                return;
            }
        }
    });
}

/// Does what is due at the table, after the pause: whether anything was
/// appended.
async fn act<G: Played>(shared: &Arc<Shared>, bots: &Arc<Bots>) -> bool {
    let looked = {
        let (shared, bots) = (shared.clone(), bots.clone());
        super::pool::blocking(move || {
            let snapshot = shared.kept.read::<G, ApiError>(&shared.path)?;
            let fold = &*snapshot.fold;
            let mut problems = Vec::new();
            let due = due::<G>(fold, &bots, &mut problems);
            bots.told(problems);
            Ok(due.map(|due| (fold.events(), fold.format(), due)))
        })
        .await
    };
    let Ok(Some((at, format, due))) = looked else {
        return false;
    };
    tokio::time::sleep(bots.pause).await;
    let (text, by) = match &due {
        Due::Dealer(event) => (entry_json(event), crate::log::DEALER.to_owned()),
        Due::Bot { bot, event, .. } => (
            entry_json(event),
            format!("{}{}", crate::log::BOT_PREFIX, bot.name()),
        ),
    };
    let shared = shared.clone();
    let bots = bots.clone();
    let posted = super::pool::appending(move || {
        // A log keeps its format: one before bot authors says nobody.
        let by = |_: &Fold<G>| (format >= crate::log::BOT_AUTHORS).then_some(by);
        super::http::append_posted::<G>(&shared, &text, Some(at), by, |_, _| Ok(()))
    })
    .await;
    match posted {
        Ok(_) => true,
        // The log moved on meanwhile: what is due is looked at again.
        Err(ApiError::Other(axum::http::StatusCode::CONFLICT, _)) => true,
        Err(error) => {
            let name = match due {
                Due::Dealer(_) => "the dealer".to_owned(),
                Due::Bot { name, .. } => name,
            };
            bots.told(vec![(name, error.into_text())]);
            false
        }
    }
}

/// The raw entry of `event`, as a page would post it.
fn entry_json<E: Serialize>(event: &E) -> String {
    serde_json::to_string(event).expect("events serialize")
}
