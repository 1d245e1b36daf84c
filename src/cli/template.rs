//! `sunfold template check`, for sheet templates and decks alike.

use super::load::{LoadError, Loaded, load};
use super::{Exit, io_error};
use std::fmt::Display;
use std::path::Path;

fn problems<P: Display>(shown: &impl Display, problems: &[P]) -> Exit {
    for problem in problems {
        eprintln!("{shown}: {problem}");
    }
    let count = problems.len();
    let plural = if count == 1 { "" } else { "s" };
    eprintln!("{shown}: {count} problem{plural}");
    Exit::Invalid
}

pub fn check(path: &Path) -> Exit {
    let shown = path.display();
    match load(path) {
        Ok(Loaded::Sheet(template)) => {
            println!(
                "{shown}: ok: sheet \"{}\", {} boxes in {} zones, {} constraints, {} sun thresholds, {} rounds, sun limit {}",
                template.name(),
                template.boxes().len(),
                template.zones().len(),
                template.constraints().len(),
                template.thresholds().len(),
                template.rounds(),
                template.sun_limit(),
            );
            Exit::Valid
        }
        Ok(Loaded::Deck(deck)) => {
            let kinds: std::collections::BTreeSet<usize> =
                deck.cards().iter().map(|c| c.picture).collect();
            println!(
                "{shown}: ok: deck \"{}\", {} adventure cards of {} kinds, {} closing cards, {} items × {} tiles per player",
                deck.name(),
                deck.cards().len(),
                kinds.len(),
                deck.closing_cards().len(),
                deck.items(),
                deck.tiles_per_item(),
            );
            Exit::Valid
        }
        Err(error) => report(path, error),
    }
}

/// Reports why a template or deck could not be loaded, every problem with
/// its path, and gives the exit code. Shared by `template check` and `render`.
pub(super) fn report(path: &Path, error: LoadError) -> Exit {
    let shown = path.display();
    match error {
        LoadError::Io(e) => io_error(path, &e),
        LoadError::Shape { path: at, detail } => {
            eprintln!("{shown}: {at}: {detail}");
            Exit::Invalid
        }
        LoadError::Sheet(errors) => problems(&shown, errors.problems()),
        LoadError::Deck(errors) => problems(&shown, errors.problems()),
    }
}
