//! Who posted a log's entries to the table's server, as its `by` fields
//! say: how many through each link, and the players' decisions that the
//! referee's link posted for them. `replay`, `audit` and the viewer show
//! it.

use super::Present;
use crate::log::{Entry, Fold, REFEREE};
use schemars::JsonSchema;
use serde::Serialize;

/// Who posted the entries of a log whose entries say so.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct Posted {
    /// Each link that posted entries, the players in seating order, then the
    /// referee, then the bots and the dealer, with how many each posted.
    pub by: Vec<PostedBy>,
    /// Entries after the start that say nobody: recorded at the command
    /// line rather than posted to the server.
    pub unsigned: u64,
    /// The players' decisions that the referee's link posted for them.
    pub for_players: Vec<PostedFor>,
}

#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PostedBy {
    /// `referee`, a player's name, a bot (`bot:greedy`) or `dealer`.
    pub who: String,
    pub entries: u64,
}

/// A player's decision posted by the referee's link.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PostedFor {
    pub line: usize,
    pub seq: u64,
    #[serde(rename = "type")]
    pub kind: String,
    /// The player whose decision it is.
    pub player: String,
}

/// Who posted the entries folded in `fold`, or `None` when no entry says:
/// a log of a format before authors, or one recorded at the command line.
pub fn posted<G: Present>(fold: &Fold<G>) -> Option<Posted> {
    let authored = fold.authored();
    if authored.is_empty() {
        return None;
    }
    let mut who = G::player_names(fold.state());
    who.push(REFEREE.to_owned());
    // The bots and the dealer, in the order they first posted.
    for a in authored {
        if !who.contains(&a.by) {
            who.push(a.by.clone());
        }
    }
    let by = who
        .into_iter()
        .map(|who| {
            let entries = authored.iter().filter(|a| a.by == who).count() as u64;
            PostedBy { who, entries }
        })
        .filter(|p| p.entries > 0)
        .collect();
    let for_players = authored
        .iter()
        .filter(|a| a.by == REFEREE)
        .filter_map(|a| match &a.entry {
            Entry::Game(event) => Some(PostedFor {
                line: a.line,
                seq: a.seq,
                kind: crate::kit::game::EventKind::kind(event).to_owned(),
                player: G::actor_name(event)?.to_owned(),
            }),
            Entry::Meta(_) => None,
        })
        .collect();
    Some(Posted {
        by,
        unsigned: fold.events().saturating_sub(1) - authored.len() as u64,
        for_players,
    })
}

/// The most decisions posted for players that the text names one by one.
const NAMED: usize = 8;

impl Posted {
    /// The report's lines, indented: the entries of each link, and the
    /// players' decisions the referee posted.
    pub fn text(&self) -> Vec<String> {
        let mut counts: Vec<String> = self
            .by
            .iter()
            .map(|p| match p.who.as_str() {
                REFEREE => format!("{} by the referee", p.entries),
                crate::log::DEALER => format!("{} by the dealer", p.entries),
                who => match crate::log::bot_author(who) {
                    Some(bot) => format!("{} by the bot {bot}", p.entries),
                    None => format!("{} by {who}", p.entries),
                },
            })
            .collect();
        if self.unsigned > 0 {
            counts.push(format!("{} recorded at the command line", self.unsigned));
        }
        let mut lines = vec![format!("  posted: {}", counts.join(", "))];
        if !self.for_players.is_empty() {
            let named: Vec<String> = (self.for_players.iter().take(NAMED))
                .map(|p| format!("event {} ({}, {})", p.seq, p.kind, p.player))
                .collect();
            let more = match self.for_players.len().saturating_sub(NAMED) {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            lines.push(format!(
                "  posted by the referee for a player: {}{more}",
                named.join(", ")
            ));
        }
        lines
    }
}
