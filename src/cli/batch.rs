//! `sunfold audit`, and what it shares with `simulate`, `compare` and
//! `rescore`: worker threads, progress bars, and finding the logs.

use super::error::CliError;
use super::game::{ForGame, Shown, dispatch};
use super::{Exit, Format};
use crate::log::{Fold, FoldError, Located, OpenError, Opened};
use crate::present::Present;
use crate::present::audit::{AuditError, AuditLine, ClaimDiff, Claims, Outcome, Standing};
use rayon::prelude::*;
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Games or files handled per parallel batch: results are reported and
/// dropped batch by batch, so memory stays flat.
pub(super) const CHUNK: usize = 512;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameArg {
    Soleils,
    Summertime,
}

pub(super) fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    match jobs {
        // rayon reads 0 as "every core": refuse it rather than guess.
        Some(0) => {
            return Err(CliError::Usage(
                "expected --jobs of at least 1, but found 0".to_owned(),
            ));
        }
        Some(jobs) => builder = builder.num_threads(jobs),
        None => {}
    }
    builder
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start worker threads: {e}")))
}

pub(super) fn progress(total: u64, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() || total < 2 * CHUNK as u64 {
        return None;
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{{bar:40}} {{pos}}/{{len}} {what} ({{per_sec}}, {{eta}} left)"
    ))
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

/// The seed of game `i` of a batch seeded with `seed`.
pub(super) fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i)
}

/// The audit of one file.
struct FileAudit {
    path: PathBuf,
    game: Option<&'static str>,
    events: u64,
    chained: Option<bool>,
    error: Option<Located<String>>,
    result: Option<Outcome>,
    claims: Option<Claims>,
}

fn audit_file(path: &Path) -> FileAudit {
    struct Quietly;
    impl<R: BufRead> ForGame<R> for Quietly {
        type Output = (&'static str, Quiet);
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            (G::NAME, fold_quietly::<G, R>(opened))
        }
    }
    let mut audit = FileAudit {
        path: path.to_owned(),
        game: None,
        events: 0,
        chained: None,
        error: None,
        result: None,
        claims: None,
    };
    let located = |line: usize, message: String| Located {
        line,
        seq: None,
        kind: None,
        error: message,
    };
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => {
            audit.error = Some(located(0, format!("cannot be read: {e}")));
            return audit;
        }
    };
    let opened = match crate::log::open(std::io::BufReader::new(file)) {
        Ok(opened) => opened,
        Err(OpenError::Io(e)) => {
            audit.error = Some(located(1, format!("cannot be read: {e}")));
            return audit;
        }
        Err(OpenError::Decode(error)) => {
            audit.error = Some(error.map(|e| e.to_string()));
            return audit;
        }
    };
    let (game, folded) = dispatch(opened, Quietly);
    audit.game = Some(game);
    match folded {
        Ok((events, chained, result, claims)) => {
            audit.events = events;
            audit.chained = chained;
            audit.result = Some(result);
            audit.claims = claims;
        }
        Err((events, error)) => {
            audit.events = events;
            audit.error = Some(error);
        }
    }
    audit
}

type Quiet = Result<(u64, Option<bool>, Outcome, Option<Claims>), (u64, Located<String>)>;

fn fold_quietly<G: Present, R: BufRead>(opened: Opened<R>) -> Quiet {
    let fold = opened.fold::<G>(None, &mut |_| {}).map_err(|e| match e {
        FoldError::Io {
            line,
            events,
            error,
        } => {
            let error = Located {
                line,
                seq: None,
                kind: None,
                error: format!("cannot be read: {error}"),
            };
            (events, error)
        }
        FoldError::Start(error) => (0, error.map(|e| e.to_string())),
        FoldError::Rejected { error, fold } => (fold.events(), error.map(|e| e.to_string())),
        FoldError::PastEnd { .. } => unreachable!("no event to stop after was asked"),
    })?;
    let (result, claims) = outcome(&fold);
    Ok((fold.events(), fold.chained(), result, claims))
}

/// The standings at the end of a folded log, and its last claims.
fn outcome<G: Present>(fold: &Fold<G>) -> (Outcome, Option<Claims>) {
    let totals = G::totals(fold.state());
    let players: Vec<Standing> = totals
        .iter()
        .map(|(player, score)| Standing {
            player: player.clone(),
            score: *score,
            rank: 1 + totals.iter().filter(|(_, t)| t > score).count() as u32,
        })
        .collect();
    let winners = players
        .iter()
        .filter(|s| s.rank == 1)
        .map(|s| s.player.clone())
        .collect();
    let result = Outcome {
        ended: G::ending(fold.state()),
        winners,
        players,
    };
    let claims = fold.claims().last().map(|(seq, claimed)| {
        let differ: Vec<ClaimDiff> = totals
            .iter()
            .filter(|(name, total)| claimed.get(name) != Some(total))
            .map(|(name, total)| ClaimDiff {
                player: name.clone(),
                claimed: claimed.get(name).copied(),
                recomputed: *total,
            })
            .collect();
        Claims {
            seq: *seq,
            agree: differ.is_empty(),
            differ,
        }
    });
    (result, claims)
}

/// The text of one valid file: how it ended, the winners, every score.
fn result_text(a: &FileAudit) -> Vec<String> {
    let Some(result) = &a.result else {
        return Vec::new();
    };
    let ended = result.ended.as_deref().unwrap_or("unfinished");
    let scores: Vec<String> = result
        .players
        .iter()
        .map(|s| format!("{} {} (#{})", s.player, s.score, s.rank))
        .collect();
    let winners = if result.ended.is_some() {
        format!("; won by {}", result.winners.join(" and "))
    } else {
        String::new()
    };
    let mut lines = vec![format!(
        "{}: valid, {} events; {ended}{winners}; {}",
        a.path.display(),
        a.events,
        scores.join(", ")
    )];
    if let Some(claims) = &a.claims {
        for d in &claims.differ {
            let claimed = d
                .claimed
                .map_or("no claim".to_owned(), |c| format!("claimed {c}"));
            lines.push(format!(
                "  claims (event {}): {} {claimed}, recomputed {}",
                claims.seq, d.player, d.recomputed
            ));
        }
    }
    lines
}

/// Every .jsonl file under the paths, in order.
pub(super) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| CliError::io(path, e))?;
        if meta.is_dir() {
            walk(path, &mut files).map_err(|e| CliError::io(path, e))?;
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

pub fn audit(
    paths: &[PathBuf],
    format: Format,
    jobs: Option<usize>,
    strict_claims: bool,
) -> Result<Exit, CliError> {
    let files = collect(paths)?;
    let pool = pool(jobs)?;
    let started = Instant::now();
    let bar = progress(files.len() as u64, "files");
    let (mut bad, mut events, mut disputed) = (0u64, 0u64, 0u64);
    for (n, chunk) in files.chunks(CHUNK).enumerate() {
        let audits: Vec<FileAudit> =
            pool.install(|| chunk.par_iter().map(|p| audit_file(p)).collect());
        for a in audits {
            events += a.events;
            let differs = a.claims.as_ref().is_some_and(|c| !c.agree);
            disputed += u64::from(differs);
            let valid = a.error.is_none() && !(strict_claims && differs);
            bad += u64::from(!valid);
            let text = match format {
                Format::Text => match &a.error {
                    Some(error) => format!("{}:{error}", a.path.display()),
                    None => result_text(&a).join("\n"),
                },
                Format::Json => {
                    let line = AuditLine {
                        file: a.path.display().to_string(),
                        game: a.game.map(str::to_owned),
                        valid,
                        events: a.events,
                        chained: a.chained,
                        error: a.error.as_ref().map(|e| AuditError {
                            line: e.line,
                            seq: e.seq,
                            kind: e.kind.clone(),
                            message: e.error.clone(),
                        }),
                        result: a.result.clone(),
                        claims: a.claims.clone(),
                    };
                    serde_json::to_string(&line).expect("an audit line serializes")
                }
            };
            // The bar draws on standard error; the result goes to standard
            // output, so that `audit dir > out` keeps it.
            match &bar {
                Some(bar) => bar.suspend(|| println!("{text}")),
                None => println!("{text}"),
            }
        }
        if let Some(bar) = &bar {
            bar.set_position(((n + 1) * CHUNK).min(files.len()) as u64);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    if format == Format::Text {
        let claims = if strict_claims {
            "counted as bad"
        } else {
            "reported, not counted as bad; --strict-claims counts them"
        };
        println!(
            "{} files, {bad} bad, {events} events; {disputed} with claims that differ ({claims})",
            files.len()
        );
    }
    eprintln!(
        "audited {events} events in {seconds:.2} s: {:.0} events per second",
        events as f64 / seconds.max(1e-9)
    );
    Ok(if bad > 0 { Exit::Invalid } else { Exit::Valid })
}
