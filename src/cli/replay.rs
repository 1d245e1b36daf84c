//! `sunfold replay`: fold a log, show the result or the first located error.

use super::error::CliError;
use super::game::{ForGame, Shown, dispatch, fold, open};
use super::{Exit, Format};
use crate::log::Opened;
use crate::present::Present;
use crate::present::json::{replay_report, replay_text};
use std::io::BufRead;
use std::path::Path;

pub fn run(path: &Path, at: Option<u64>, format: Format) -> Result<Exit, CliError> {
    struct Replay<'a> {
        path: &'a Path,
        at: Option<u64>,
        format: Format,
    }
    impl<R: BufRead> ForGame<R> for Replay<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            report::<G, R>(self.path, opened, self.at, self.format)
        }
    }
    dispatch(open(path, format)?, Replay { path, at, format })
}

fn report<G: Present, R: BufRead>(
    path: &Path,
    opened: Opened<R>,
    at: Option<u64>,
    format: Format,
) -> Result<Exit, CliError> {
    let fold = fold::<G, _>(path, opened, at, format, &mut |_| {})?;
    let file = path.display().to_string();
    match format {
        Format::Text => print!("{}", replay_text(&file, &fold)),
        Format::Json => {
            let report = replay_report(file, &fold);
            println!(
                "{:#}",
                serde_json::to_value(report).expect("reports serialize")
            );
        }
    }
    Ok(Exit::Valid)
}
