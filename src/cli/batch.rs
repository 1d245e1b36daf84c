//! `sunfold audit`, and what it shares with `simulate`, `compare` and
//! `rescore`: worker threads, progress bars, and finding the logs.

use super::error::CliError;
use super::{Exit, Format};
use crate::log::OpenError;
use crate::present::audit::Audited;
use rayon::prelude::*;
use std::io::IsTerminal;
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

/// The audit of one file: what the file could not give, or what its log
/// gave.
fn audit_file(path: &Path) -> Audited {
    let file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) => return Audited::unreadable(0, format!("cannot be read: {e}")),
    };
    match crate::log::open(std::io::BufReader::new(file)) {
        Ok(opened) => Audited::of(opened),
        Err(OpenError::Io(e)) => Audited::unreadable(1, format!("cannot be read: {e}")),
        Err(OpenError::Decode(error)) => Audited {
            error: Some(error.map(|e| e.to_string())),
            ..Audited::default()
        },
    }
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
        let audits: Vec<Audited> =
            pool.install(|| chunk.par_iter().map(|p| audit_file(p)).collect());
        for (path, a) in chunk.iter().zip(audits) {
            let file = path.display().to_string();
            events += a.events;
            let differs = a.claims.as_ref().is_some_and(|c| !c.agree);
            disputed += u64::from(differs);
            let valid = a.error.is_none() && !(strict_claims && differs);
            bad += u64::from(!valid);
            let text = match format {
                Format::Text => match &a.error {
                    Some(error) => format!("{file}:{error}"),
                    None => a.text(&file).join("\n"),
                },
                Format::Json => {
                    serde_json::to_string(&a.line(file, valid)).expect("an audit line serializes")
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
