//! `sunfold replay`: fold a log, show the result or the first located error.

use super::error::CliError;
use super::game::{ForGame, Shown, dispatch, fold, open};
use super::{Exit, Format};
use crate::log::Opened;
use crate::present::Present;
use crate::present::report::{ReplayReport, Undone};
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
    let events = fold.events();
    let chain = match fold.chained() {
        Some(true) => format!("chained: all {} hashes verified", events - 1),
        Some(false) => "not chained: no hash chain, so no tamper evidence".to_owned(),
        None => "chained: nothing to verify yet".to_owned(),
    };
    match format {
        Format::Text => {
            println!("{}: {events} events, valid; {chain}", path.display());
            for taken in fold.taken_back() {
                println!(
                    "  undone: {} (event {}, taken back by event {})",
                    strike(&G::describe(&taken.event)),
                    taken.seq,
                    taken.by
                );
            }
            print!("{}", G::text(fold.state(), fold.called()));
            for line in crate::present::report::audit_lines(&fold) {
                println!("{line}");
            }
        }
        Format::Json => {
            let undone = fold
                .taken_back()
                .iter()
                .map(|t| Undone {
                    seq: t.seq,
                    by: t.by,
                    event: G::describe(&t.event),
                })
                .collect();
            let report = ReplayReport {
                file: path.display().to_string(),
                game: G::NAME.to_owned(),
                valid: true,
                events,
                chained: fold.chained(),
                undone,
                claims: crate::present::report::claims(&fold),
                dead_end: crate::present::report::dead_end(&fold),
                lenient: crate::present::report::lenient(&fold),
                state: G::view(fold.state()),
            };
            println!(
                "{:#}",
                serde_json::to_value(report).expect("reports serialize")
            );
        }
    }
    Ok(Exit::Valid)
}

/// Text struck through with a combining long stroke, for undone events.
fn strike(text: &str) -> String {
    text.chars().flat_map(|c| [c, '\u{0336}']).collect()
}
