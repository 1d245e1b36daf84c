//! Reading template and deck files for the command line: the library's
//! tolerant reader ([`crate::template_file`]), which lists the problems of
//! the JSON's shape and of its content together, each with its path.

use super::error::CliError;
use std::path::Path;

pub use crate::template_file::{Checked as Loaded, LoadFailure as LoadError, load};

/// Why a template or deck could not be loaded, every problem with its
/// path. Shared by `template check`, `render` and the variant arguments.
pub(super) fn problems(path: &Path, error: LoadError) -> CliError {
    match error {
        LoadError::Io(e) => CliError::io(path, e),
        LoadError::Problems(problems) => CliError::Problems {
            path: path.to_owned(),
            problems: problems.iter().map(ToString::to_string).collect(),
        },
    }
}
