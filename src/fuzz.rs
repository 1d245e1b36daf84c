//! Entry points for fuzzing: arbitrary bytes through the log reader and
//! both reducers, and through template and deck validation. Used by the
//! cargo-fuzz targets in `fuzz/` and by a seeded test in `cargo test`, so
//! that both stay compiled. They must never panic, whatever the input.

use crate::log::{Fold, GameKind, LineReader, detect};
use crate::soleils::Soleils;
use crate::summertime::Summertime;

/// Reads `bytes` as a log of either game and folds it to its first error.
pub fn log(bytes: &[u8]) {
    let mut lines = LineReader::new(bytes);
    let Ok(Some(first)) = lines.next_line() else {
        return;
    };
    let first = (first.bytes.to_vec(), first.terminated);
    let line = crate::log::Line {
        number: 1,
        bytes: &first.0,
        terminated: first.1,
    };
    match detect(&line) {
        Ok(GameKind::Soleils) => fold::<Soleils>(&line, lines),
        Ok(GameKind::Summertime) => fold::<Summertime>(&line, lines),
        Err(_) => {}
    }
}

fn fold<G: crate::game::Game>(first: &crate::log::Line, mut lines: LineReader<&[u8]>) {
    let Ok((mut fold, _)) = Fold::<G>::start(first) else {
        return;
    };
    while let Ok(Some(line)) = lines.next_line() {
        if fold.feed(&line).is_err() {
            // The state is still the one before the line: ask for the
            // alternatives too, as the CLI does.
            if let Some(event) = fold.rejected() {
                let _ = G::alternatives(fold.state(), event);
            }
            return;
        }
    }
    let _ = G::legal_events(fold.state());
}

/// Reads `bytes` as a sheet template or a deck and validates it.
pub fn template(bytes: &[u8]) {
    if let Ok(raw) = serde_json::from_slice::<crate::soleils::template::RawTemplate>(bytes) {
        let _ = crate::soleils::Template::try_from(raw);
    }
    if let Ok(raw) = serde_json::from_slice::<crate::summertime::deck::RawDeck>(bytes) {
        let _ = crate::summertime::Deck::try_from(raw);
    }
    let _ = crate::template_file::check_bytes(bytes);
}
