//! `sunfold audit`, and what it shares with `simulate`, `compare` and
//! `rescore`: worker threads, progress bars, and finding the logs.

use super::{Exit, Format, io_error};
use crate::game::{EventKind, Game};
use crate::log::{Fold, GameKind, Line, LineReader, Located, detect};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use rayon::prelude::*;
use std::io::{BufReader, IsTerminal};
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

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotArg {
    Random,
    Greedy,
}

pub(super) fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Exit> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    match jobs {
        // rayon reads 0 as "every core": refuse it rather than guess.
        Some(0) => {
            eprintln!("sunfold: expected --jobs of at least 1, but found 0");
            return Err(Exit::Usage);
        }
        Some(jobs) => builder = builder.num_threads(jobs),
        None => {}
    }
    builder.build().map_err(|e| {
        eprintln!("sunfold: cannot start worker threads: {e}");
        Exit::Usage
    })
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
}

/// A log opened far enough to know its game: the bytes of its first line
/// and a reader at the second.
pub(super) struct OpenLog {
    pub game: GameKind,
    pub first: Vec<u8>,
    pub terminated: bool,
    pub lines: LineReader<BufReader<std::fs::File>>,
}

/// Why a log could not be opened that far.
pub(super) enum Unopened {
    /// The file cannot be opened.
    Open(std::io::Error),
    /// Its first line cannot be read.
    Read(std::io::Error),
    /// It is empty, or its first line names no game.
    Invalid(Located<String>),
}

/// Opens a log and reads its first line, for the commands that go through
/// many logs without stopping at a bad one (`audit`, `rescore`).
pub(super) fn open_log(path: &Path) -> Result<OpenLog, Unopened> {
    let file = std::fs::File::open(path).map_err(Unopened::Open)?;
    let mut lines = LineReader::new(BufReader::new(file));
    let (first, terminated) = match lines.next_line() {
        Ok(Some(line)) => (line.bytes.to_vec(), line.terminated),
        Ok(None) => {
            return Err(Unopened::Invalid(Located {
                line: 1,
                seq: None,
                kind: None,
                error: crate::log::DecodeError::EmptyFile.to_string(),
            }));
        }
        Err(e) => return Err(Unopened::Read(e)),
    };
    let line = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    let game = detect(&line).map_err(|e| Unopened::Invalid(e.map(|e| e.to_string())))?;
    Ok(OpenLog {
        game,
        first,
        terminated,
        lines,
    })
}

fn audit_file(path: &Path) -> FileAudit {
    let mut audit = FileAudit {
        path: path.to_owned(),
        game: None,
        events: 0,
        chained: None,
        error: None,
    };
    let located = |line: usize, message: String| Located {
        line,
        seq: None,
        kind: None,
        error: message,
    };
    let OpenLog {
        game,
        first,
        terminated,
        lines,
    } = match open_log(path) {
        Ok(log) => log,
        Err(Unopened::Open(e)) => {
            audit.error = Some(located(0, format!("cannot be read: {e}")));
            return audit;
        }
        Err(Unopened::Read(e)) => {
            audit.error = Some(located(1, format!("cannot be read: {e}")));
            return audit;
        }
        Err(Unopened::Invalid(error)) => {
            audit.error = Some(error);
            return audit;
        }
    };
    let first = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    let folded = match game {
        GameKind::Soleils => fold_quietly::<Soleils>(&first, lines),
        GameKind::Summertime => fold_quietly::<Summertime>(&first, lines),
    };
    audit.game = Some(match game {
        GameKind::Soleils => Soleils::NAME,
        GameKind::Summertime => Summertime::NAME,
    });
    match folded {
        Ok((events, chained)) => {
            audit.events = events;
            audit.chained = chained;
        }
        Err((events, error)) => {
            audit.events = events;
            audit.error = Some(error);
        }
    }
    audit
}

type Quiet = Result<(u64, Option<bool>), (u64, Located<String>)>;

fn fold_quietly<G: Game>(first: &Line, mut lines: LineReader<BufReader<std::fs::File>>) -> Quiet
where
    G::Event: EventKind,
{
    let (mut fold, _) = Fold::<G>::start(first).map_err(|e| (0, e.map(|e| e.to_string())))?;
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let error = Located {
                    line: lines.lines_read() + 1,
                    seq: None,
                    kind: None,
                    error: format!("cannot be read: {e}"),
                };
                return Err((fold.events(), error));
            }
        };
        if let Err(e) = fold.feed(&line) {
            return Err((fold.events(), e.map(|e| e.to_string())));
        }
    }
    Ok((fold.events(), fold.chained()))
}

/// Every .jsonl file under the paths, in order.
pub(super) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Exit> {
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
        let meta = std::fs::metadata(path).map_err(|e| io_error(path, &e))?;
        if meta.is_dir() {
            walk(path, &mut files).map_err(|e| io_error(path, &e))?;
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

pub fn audit(paths: &[PathBuf], format: Format, jobs: Option<usize>) -> Exit {
    let files = match collect(paths) {
        Ok(files) => files,
        Err(exit) => return exit,
    };
    let pool = match pool(jobs) {
        Ok(pool) => pool,
        Err(exit) => return exit,
    };
    let started = Instant::now();
    let bar = progress(files.len() as u64, "files");
    let (mut bad, mut events) = (0u64, 0u64);
    for (n, chunk) in files.chunks(CHUNK).enumerate() {
        let audits: Vec<FileAudit> =
            pool.install(|| chunk.par_iter().map(|p| audit_file(p)).collect());
        for a in audits {
            events += a.events;
            match format {
                Format::Text => {
                    if let Some(error) = &a.error {
                        bad += 1;
                        let text = format!("{}:{error}", a.path.display());
                        // The bar draws on standard error; the result goes to
                        // standard output, so that `audit dir > out` keeps it.
                        match &bar {
                            Some(bar) => bar.suspend(|| println!("{text}")),
                            None => println!("{text}"),
                        }
                    }
                }
                Format::Json => {
                    bad += u64::from(a.error.is_some());
                    let error = a.error.as_ref().map(|e| serde_json::json!({"line": e.line, "seq": e.seq, "type": e.kind, "message": e.error}));
                    let object = serde_json::json!({
                        "file": a.path.display().to_string(),
                        "game": a.game,
                        "valid": a.error.is_none(),
                        "events": a.events,
                        "chained": a.chained,
                        "error": error,
                    });
                    println!("{object}");
                }
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
        println!("{} files, {bad} bad, {events} events", files.len());
    }
    eprintln!(
        "audited {events} events in {seconds:.2} s: {:.0} events per second",
        events as f64 / seconds.max(1e-9)
    );
    if bad > 0 { Exit::Invalid } else { Exit::Valid }
}
