//! The names printed on personalised sheets, from `--names` or
//! `--names-file`.

use super::{CliError, MAX_COPIES, SheetArgs};
use unicode_normalization::UnicodeNormalization;

/// The names of `--names` or `--names-file`, trimmed and in NFC, so that
/// a name typed with a combining accent prints as the one it looks like.
pub(super) fn names(args: &SheetArgs) -> Result<Vec<String>, CliError> {
    let names: Vec<String> = match &args.names_file {
        None => {
            if let Some(i) = args.names.iter().position(|n| n.trim().is_empty()) {
                return Err(CliError::Usage(format!(
                    "expected a name in each place of --names, but found an empty one at place {}",
                    i + 1
                )));
            }
            args.names
                .iter()
                .map(|n| n.trim().nfc().collect())
                .collect()
        }
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
            let names: Vec<String> = text
                .trim_start_matches('\u{FEFF}')
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty())
                .map(|line| line.nfc().collect())
                .collect();
            if names.is_empty() {
                return Err(CliError::Usage(format!(
                    "{}: expected one name per line, but found no name",
                    path.display()
                )));
            }
            names
        }
    };
    if names.len() > usize::from(MAX_COPIES) {
        return Err(CliError::Usage(format!(
            "expected at most {MAX_COPIES} names, as for --copies, but found {}",
            names.len()
        )));
    }
    Ok(names)
}
