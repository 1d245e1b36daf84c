//! Entry points for fuzzing: arbitrary bytes through the log reader and
//! both reducers, and through template and deck validation. Used by the
//! cargo-fuzz targets in `fuzz/` and by a seeded test in `cargo test`, so
//! that both stay compiled. They must never panic, whatever the input: a
//! panic is a bug found, such as a game left with no legal entry.

use crate::log::{FoldError, GameKind, Opened};
use crate::soleils::Soleils;
use crate::summertime::Summertime;

/// Reads `bytes` as a log of either game and folds it to its first error.
pub fn log(bytes: &[u8]) {
    let Ok(opened) = crate::log::open(bytes) else {
        return;
    };
    match opened.game() {
        GameKind::Soleils => fold::<Soleils>(opened),
        GameKind::Summertime => fold::<Summertime>(opened),
    }
}

fn fold<G: crate::kit::game::Game>(opened: Opened<&[u8]>) {
    match opened.fold::<G>(None, &mut |_| {}) {
        Ok(fold) => {
            // No dead end: a game that is not over has an entry to make,
            // unless a log of an older format let it into one, which the
            // fold names with the line that made it.
            let legal = G::legal_events(fold.state());
            assert!(
                !legal.is_empty() || fold.is_over() || fold.dead_end().is_some(),
                "a dead end that the fold does not name"
            );
        }
        Err(FoldError::Rejected { fold, .. }) => {
            // The state is still the one before the line: ask for the
            // alternatives too, as the CLI does.
            if let Some(event) = fold.rejected() {
                let _ = G::alternatives(fold.state(), event);
            }
        }
        Err(_) => {}
    }
}

/// Reads `bytes` as a sheet template or a deck and validates it.
pub fn template(bytes: &[u8]) {
    if let Ok(raw) = serde_json::from_slice::<crate::soleils::template::RawTemplate>(bytes) {
        let _ = crate::soleils::Template::try_from(raw);
    }
    if let Ok(raw) = serde_json::from_slice::<crate::summertime::deck::RawDeck>(bytes) {
        let _ = crate::summertime::Deck::try_from(raw);
    }
    let _ = crate::template::file::check_bytes(bytes);
}
