//! A log from the command line. It is opened ([`open`]) and its game
//! becomes a type in this one place: a verb that works on a log of either
//! game is a [`ForGame`], run by [`dispatch`] with the game the log's start
//! line names, which is shown in words and on paper ([`Shown`]). Then it is
//! folded ([`fold`]), and every error of the log comes back located with the
//! file's path ([`opening`], [`folding`], [`failure`]), with the legal
//! alternatives in words. [`analysed`] judges its decisions.

use super::Format;
use super::error::{Alternatives, CliError, LogFailure};
use crate::log::{Fold, FoldError, GameKind, LogError, OpenError, Opened, ReplayError};
use crate::present::Present;
use crate::present::json::{failure_json, unopened_json};
pub use crate::show::Shown;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// A command that works on a log of either game: `run` is called once,
/// with the game the log's start line names.
pub trait ForGame<R> {
    type Output;
    fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output;
}

/// Runs `command` on the opened log as the game it names.
pub fn dispatch<R: std::io::BufRead, C: ForGame<R>>(opened: Opened<R>, command: C) -> C::Output {
    match opened.game() {
        GameKind::Soleils => command.run::<Soleils>(opened),
        GameKind::Summertime => command.run::<Summertime>(opened),
    }
}

/// Opens a log and reads its first line.
pub(super) fn open(path: &Path, format: Format) -> Result<Opened<BufReader<File>>, CliError> {
    crate::log::open_file(path).map_err(|error| opening(path, format, error))
}

/// Why a log could not be opened, as a CLI error.
pub(super) fn opening(path: &Path, format: Format, error: OpenError) -> CliError {
    match error {
        OpenError::Io(error) => CliError::io(path, error),
        OpenError::Decode(located) => {
            let advice = super::error::advice(path, &located.error, located.line);
            let json = (format == Format::Json)
                .then(|| unopened_json(path.display().to_string(), &located, advice));
            CliError::Log(Box::new(LogFailure {
                path: path.to_owned(),
                format,
                located: located.to_string(),
                alternatives: Alternatives::None,
                advice,
                before: None,
                json,
            }))
        }
    }
}

/// Folds the whole log (or up to event `at`), calling `observe` with the
/// state after every event. An error comes back located, with the legal
/// alternatives in words.
pub(super) fn fold<G: Present, R: std::io::BufRead>(
    path: &Path,
    opened: Opened<R>,
    at: Option<u64>,
    format: Format,
    observe: &mut dyn FnMut(&G::State),
) -> Result<Fold<G>, CliError> {
    opened
        .fold::<G>(at, observe)
        .map_err(|error| folding(path, format, error))
}

/// Why a log could not be folded, as a CLI error.
pub(super) fn folding<G: Present>(path: &Path, format: Format, error: FoldError<G>) -> CliError {
    match error {
        FoldError::Io { error, .. } => CliError::io(path, error),
        FoldError::Start(error) => failure::<G>(path, format, &error, None, Alternatives::None),
        FoldError::Rejected { error, fold } => {
            let alternatives = described::<G>(&fold);
            failure::<G>(path, format, &error, Some(&fold), alternatives)
        }
        FoldError::PastEnd { at, last } => CliError::File {
            path: path.to_owned(),
            message: format!(
                "expected an event {at} to stop after, but the log ends at event {last}"
            ),
        },
    }
}

/// The legal alternatives to the event `fold` rejected, in words, each
/// once (a physical reveal lists each card once per possible back cost).
pub(super) fn described<G: Present>(fold: &Fold<G>) -> Alternatives {
    match crate::present::json::rejected_alternatives(fold) {
        Some(words) => Alternatives::Described(words),
        None => Alternatives::None,
    }
}

/// A located log error as a CLI error, with the state it was checked
/// against (`before`) when past the first line.
pub(super) fn failure<G: Present>(
    path: &Path,
    format: Format,
    error: &LogError<G>,
    before: Option<&Fold<G>>,
    alternatives: Alternatives,
) -> CliError {
    let before = before.map(|fold| (fold.state(), fold.events() - 1));
    let advice = match &error.error {
        ReplayError::Decode(decode) => super::error::advice(path, decode, error.line),
        _ => super::error::Advice::None,
    };
    let json = (format == Format::Json).then(|| {
        let words = alternatives.words();
        failure_json::<G>(path.display().to_string(), error, words, before, advice)
    });
    CliError::Log(Box::new(LogFailure {
        path: path.to_owned(),
        format,
        located: error.to_string(),
        alternatives,
        advice,
        before: before.map(|(_, last)| last),
        json,
    }))
}

/// The analysis of the log at `path`, opened as `opened`, by a search bot
/// with `rollouts` rollouts, seeded `seed`, on `pool`. A log that does not
/// fold is the located error `replay` gives.
pub(super) fn analysed<G: Present, R: std::io::BufRead>(
    path: &Path,
    format: Format,
    rollouts: u32,
    seed: u64,
    pool: &rayon::ThreadPool,
    opened: Opened<R>,
) -> Result<crate::workbench::analysis::AnalysisReport, CliError> {
    analysed_player::<G, R>(path, format, None, (rollouts, seed), pool, opened)
}

/// [`analysed`], of the decisions of the player named `player` alone when
/// one is named.
pub(super) fn analysed_player<G: Present, R: std::io::BufRead>(
    path: &Path,
    format: Format,
    player: Option<&str>,
    (rollouts, seed): (u32, u64),
    pool: &rayon::ThreadPool,
    opened: Opened<R>,
) -> Result<crate::workbench::analysis::AnalysisReport, CliError> {
    use crate::present::analysis::{player_report, report};
    let decisions = crate::present::analysis::decisions::<G, R>(opened)
        .map_err(|error| folding::<G>(path, format, error))?;
    let file = path.display().to_string();
    let Some(player) = player else {
        let (recorded, end) = (&decisions.recorded, &decisions.end);
        return Ok(report::<G>(&file, recorded, end, rollouts, seed, pool));
    };
    let names = G::player_names(&decisions.end).join(", ");
    player_report::<G>(&file, decisions, player, rollouts, seed, pool).ok_or_else(|| {
        CliError::Usage(format!(
            "{file}: expected --player to name a player of this log ({names}), but found {player}"
        ))
    })
}
