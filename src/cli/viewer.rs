//! `sunfold render replay FILE -o match.html`: the HTML viewer
//! ([`crate::show::viewer`]) written to a file, and the command failing as
//! `replay` does when the log breaks a rule.

use super::error::CliError;
use super::game::{ForGame, Shown, dispatch};
use super::{Exit, Format};
use crate::bots::Bot;
use crate::log::Opened;
use crate::show::viewer::{ViewError, viewer};
use crate::workbench::analysis::AnalysisReport;
use std::io::BufRead;
use std::path::Path;

/// `--analyse`: the judging bot (the game's own when none is named) and
/// the seed of its rollouts.
pub struct Analyse {
    pub bot: Option<Bot>,
    pub seed: u64,
}

/// Writes the viewer of the log at `path` to `output`, opening at event
/// `at` (or at the end, or at the first illegal line). A log that breaks a
/// rule still gets its viewer, and the command then fails as `replay` does.
/// With `analyse`, each decision that lost points is marked, with the
/// better one; the log must then fold, as for `sunfold analyse`.
pub fn write(
    path: &Path,
    output: &Path,
    at: Option<u64>,
    analyse: Option<Analyse>,
) -> Result<Exit, CliError> {
    struct View<'a> {
        path: &'a Path,
        at: Option<u64>,
        analysis: Option<AnalysisReport>,
    }
    impl<R: BufRead> ForGame<R> for View<'_> {
        type Output = Result<(String, Option<CliError>), CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            let path = self.path;
            let viewed =
                viewer::<G, R>(path, opened, self.at, self.analysis).map_err(|e| match e {
                    ViewError::Fold(error) => super::game::folding::<G>(path, Format::Text, error),
                    ViewError::NoSuchEvent { at, last } => CliError::File {
                        path: path.to_owned(),
                        message: format!(
                            "expected an event {at} to open at, but the log ends at event {last}"
                        ),
                    },
                })?;
            let failed = viewed.broken.map(|broken| {
                super::game::failure::<G>(
                    path,
                    Format::Text,
                    &broken.error,
                    Some(&broken.fold),
                    super::error::Alternatives::Described(broken.alternatives),
                )
            });
            Ok((viewed.html, failed))
        }
    }
    let analysis = match analyse {
        Some(analyse) => Some(analysis(path, analyse)?),
        None => None,
    };
    let opened = super::game::open(path, Format::Text)?;
    let (page, failure) = dispatch(opened, View { path, at, analysis })?;
    crate::kit::atomic::write(output, page.as_bytes()).map_err(|e| CliError::io(output, e))?;
    eprintln!("wrote {} ({} bytes)", output.display(), page.len());
    match failure {
        Some(error) => Err(error),
        None => Ok(Exit::Valid),
    }
}

/// The analysis of the log at `path`, as `sunfold analyse` makes it.
fn analysis(path: &Path, analyse: Analyse) -> Result<AnalysisReport, CliError> {
    struct Judge {
        path: std::path::PathBuf,
        bot: Option<Bot>,
        seed: u64,
        pool: rayon::ThreadPool,
    }
    impl<R: BufRead> ForGame<R> for Judge {
        type Output = Result<AnalysisReport, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            let bot = crate::workbench::analysis::judging_bot::<G>(self.bot);
            let rollouts = super::batch::budget(bot)?;
            super::game::analysed::<G, R>(
                &self.path,
                Format::Text,
                rollouts,
                self.seed,
                &self.pool,
                opened,
            )
        }
    }
    if let Some(bot) = analyse.bot {
        super::batch::budget(bot)?;
    }
    let pool = super::batch::pool(None)?;
    let opened = super::game::open(path, Format::Text)?;
    dispatch(
        opened,
        Judge {
            path: path.to_owned(),
            bot: analyse.bot,
            seed: analyse.seed,
            pool,
        },
    )
}
