//! Where a game stands, as one viewer may see it.

use crate::log::Fold;
use crate::present::json::StatusReport;
use crate::present::{Present, command};
use std::path::Path;

/// Who looks at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The referee, or `sunfold status` at the table's laptop: everything.
    Referee,
    /// The player at this seat: their own decisions only.
    Seat(usize),
    /// Everyone at once, as the live stream sends it: no decisions at all.
    Everyone,
}

/// `status --format json` of `fold`, the log at `path`, as `viewer` may see
/// it. A player gets only the legal decisions of their own seat (a
/// Summertime reveal would name the next card of a stack); everyone gets
/// none. What each may see of the state itself (hidden cards) is the
/// caller's to take out.
pub fn status<G: Present>(
    path: &Path,
    fold: &Fold<G>,
    viewer: Viewer,
) -> StatusReport<G::View, G::Event> {
    let state = fold.state();
    let mut events = G::legal_events(state);
    // A called game is over like any other.
    if fold.called().is_some() {
        events.clear();
    }
    let mut groups = command::grouped::<G>(path, state, &events);
    match viewer {
        Viewer::Referee => {}
        Viewer::Seat(seat) => {
            events.retain(|e| G::actor(state, e) == Some(seat));
            groups.retain(|g| g.seat == Some(seat));
        }
        Viewer::Everyone => {
            events.clear();
            groups.clear();
        }
    }
    let mut seen = std::collections::HashSet::new();
    let legal = events
        .iter()
        .map(G::describe)
        .filter(|d| seen.insert(d.clone()))
        .collect();
    StatusReport {
        file: path.display().to_string(),
        game: G::NAME.to_owned(),
        events: fold.events(),
        chained: fold.chained(),
        progress: G::progress(state),
        pending: match fold.called() {
            Some(_) => Vec::new(),
            None => G::pending_lines(state),
        },
        legal,
        commands: groups,
        legal_events: events,
        undoable: fold
            .undoable()
            .map(|(seq, e)| format!("event {seq}: {}", G::describe(e))),
        claims: crate::present::json::claims(fold),
        state: G::view(state),
    }
}
