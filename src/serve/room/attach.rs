//! The results taken from finished tables: once a second, each table of
//! the round seated last that has no result, whose log's bytes have
//! changed and whose game the room's kept fold tells is over, is offered
//! to the event as `sunfold event result` would offer it. The event
//! audits the log and attaches its result; a game still under way is left
//! for the next look. The bytes are
//! compared by their SHA-256, not their length: a log copied over with
//! another of the same size is read again.

use super::Room;
use crate::event::{EventFileError, EventGame, TableLogError, request, table_path};
use crate::log::line_hash;
use crate::serve::Kept;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Looks at the room's tables once a second, for as long as the runtime
/// runs.
pub fn watch(room: Arc<Room>) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
        let mut seen = Seen::new();
        loop {
            every.tick().await;
            let looked = room.clone();
            let mut hashes = std::mem::take(&mut seen);
            let done = tokio::task::spawn_blocking(move || {
                let said = look(&looked, &mut hashes);
                (said, hashes)
            })
            .await;
            if let Ok((said, hashes)) = done {
                seen = hashes;
                for line in said {
                    (room.report)(line);
                }
            }
        }
    });
}

/// The SHA-256 of each open table's log when last looked at, by round and
/// table.
pub type Seen = HashMap<(u32, u32), String>;

/// Offers each open table whose log's bytes are not those `seen` holds the
/// hash of to the event: what was attached or refused, a line each.
pub fn look(room: &Room, seen: &mut Seen) -> Vec<String> {
    let Ok(log) = room.fold.read() else {
        return Vec::new();
    };
    let state = &log.state;
    let round = state.seated();
    let Ok(seated) = state.round(round) else {
        return Vec::new();
    };
    if state.closed {
        return Vec::new();
    }
    let mut said = Vec::new();
    for at in &seated.tables {
        if seated.results.contains_key(&at.table) {
            continue;
        }
        let path = table_path(&room.event, round, at.table);
        // A file that cannot be read is the empty file here: the offer
        // says why it cannot be read, once.
        let hash = line_hash(&std::fs::read(&path).unwrap_or_default());
        if seen.get(&(round, at.table)) == Some(&hash) {
            continue;
        }
        seen.insert((round, at.table), hash);
        // A game still under way, told by the fold the room keeps, is not
        // offered: offering it would read and fold the whole event.
        if over(room, &path) == Some(false) {
            (room
                .problems
                .lock()
                .expect("the problems are never poisoned"))
            .remove(&(round, at.table));
            continue;
        }
        if let Some(line) = offer(room, round, at.table, &path) {
            said.push(line);
        }
    }
    said
}

/// Whether the game of the table log at `path` is over, from the fold
/// the room keeps; `None` when the log cannot be read (offering it says
/// why).
fn over(room: &Room, path: &Path) -> Option<bool> {
    fn of<G: crate::present::Present + 'static>(kept: &Kept, path: &Path) -> Option<bool>
    where
        crate::log::Fold<G>: Send + Sync,
    {
        let snapshot = kept.read::<G, crate::serve::ApiError>(path).ok()?;
        Some(G::ending(snapshot.fold.state()).is_some())
    }
    match room.game {
        EventGame::Soleils => of::<Soleils>(&room.kept, path),
        EventGame::Summertime => of::<Summertime>(&room.kept, path),
    }
}

/// Attaches table `table`'s log at `path` if its game is over: what
/// happened, if anything worth saying.
fn offer(room: &Room, round: u32, table: u32, path: &Path) -> Option<String> {
    let mut problems = room
        .problems
        .lock()
        .expect("the problems are never poisoned");
    match request::attach(&room.event, Some(round), table, path, None, &*room.clock) {
        Ok(result) => {
            problems.remove(&(round, table));
            let log = room.fold.read().ok()?;
            let state = &log.state;
            let seats: Vec<String> = (result.seats.iter())
                .map(|s| format!("{} {} (rank {})", state.name(&s.id), s.score, s.rank))
                .collect();
            Some(format!(
                "round {round}, table {table}: result attached: {}",
                seats.join(", ")
            ))
        }
        Err(EventFileError::Table(TableLogError::Unfinished { .. })) => {
            problems.remove(&(round, table));
            None
        }
        Err(e) => {
            let text = e.to_string();
            let new = problems.insert((round, table), text.clone()).as_ref() != Some(&text);
            new.then(|| format!("round {round}, table {table}: result not attached: {text}"))
        }
    }
}
