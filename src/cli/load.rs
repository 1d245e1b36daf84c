//! Reading template and deck files for the command line: the library's
//! tolerant reader ([`crate::template::file`]), which lists the problems of
//! the JSON's shape and of its content together, each with its path.

use super::error::CliError;
use crate::template::file::{Checked, LoadFailure};
use std::path::Path;

/// The sheet template or deck at `path`, checked, or every problem with
/// its path, as `template check` reports them. Shared by `render` and the
/// variant arguments.
pub(super) fn checked(path: &Path) -> Result<Checked, CliError> {
    crate::template::file::load(path).map_err(|error| problems(path, error))
}

/// Why a template or deck could not be loaded, every problem with its
/// path.
pub(super) fn problems(path: &Path, error: LoadFailure) -> CliError {
    match error {
        LoadFailure::Io(e) => CliError::io(path, e),
        LoadFailure::Problems(problems) => CliError::Problems {
            path: path.to_owned(),
            problems: problems.iter().map(ToString::to_string).collect(),
        },
    }
}
