//! Reading template and deck files for the command line: the library's
//! tolerant reader ([`crate::template_file`]), which lists the problems of
//! the JSON's shape and of its content together, each with its path.

use crate::soleils::template::Template;
use crate::summertime::deck::Deck;
use crate::template_file::{Checked, FileProblem, LoadFailure};
use std::path::Path;

/// A checked template or deck.
pub enum Loaded {
    Sheet(Template),
    Deck(Deck),
}

/// Why a file could not become a checked template or deck.
pub enum LoadError {
    Io(std::io::Error),
    /// Every problem found, at least one, in the order found.
    Problems(Vec<FileProblem>),
}

pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    match crate::template_file::load(path) {
        Ok(Checked::Sheet(template)) => Ok(Loaded::Sheet(template)),
        Ok(Checked::Deck(deck)) => Ok(Loaded::Deck(deck)),
        Err(LoadFailure::Io(e)) => Err(LoadError::Io(e)),
        Err(LoadFailure::Problems(problems)) => Err(LoadError::Problems(problems)),
    }
}

/// Where a problem is and what it is, apart.
pub fn located(problem: &FileProblem) -> (String, String) {
    match problem {
        FileProblem::ByteOrderMark => {
            let text = problem.to_string();
            let (at, what) = text.split_once(": ").unwrap_or(("line 1 column 1", &text));
            (at.to_owned(), what.to_owned())
        }
        FileProblem::Syntax {
            line,
            column,
            detail,
        } => (format!("line {line} column {column}"), detail.clone()),
        FileProblem::Shape { path, detail } => (path.clone(), detail.clone()),
        FileProblem::Sheet(p) => (p.path.to_string(), p.kind.to_string()),
        FileProblem::Deck(p) => (p.path.to_string(), p.kind.to_string()),
    }
}
