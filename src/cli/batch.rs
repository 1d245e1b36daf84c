//! What the verbs that run many games or files share: the batch flags,
//! reading bots and shards, the player count and the game's own flags
//! checked, worker threads and the progress bar, the games spread over the
//! threads, a shard's partial report, the throughput line, and finding the
//! logs under folders.

use super::error::CliError;
use super::output::{PaperArg, Target};
use super::{Exit, Format, variant};
use crate::bots::{Bot, Simulated};
use crate::report::Finished;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::workbench::partial::{Partial, Shard};
use crate::workbench::sweep::Swept;
use rayon::prelude::*;
use std::io::IsTerminal;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Games or files handled per parallel batch: results are reported and
/// dropped batch by batch, so memory stays flat.
const CHUNK: usize = 512;

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

/// What every batch of games takes: who plays, how many games, the seed,
/// the bots, and how the games are spread over threads and shards.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    #[command(flatten)]
    pub table: Table<Batch>,
    /// One bot per seat, repeated over the seats: random, greedy, search
    /// (64 rollouts per decision) or search:N. Mixed bots turn one seat
    /// each game, so that every bot plays every seat.
    #[arg(
        long = "bot",
        value_delimiter = ',',
        default_value = "random",
        value_parser = parse_bot
    )]
    pub bots: Vec<Bot>,
    #[command(flatten)]
    pub threads: Threads,
}

/// Who plays, how many games, the seed: the first flags of every batch,
/// `--games` as the verb `G` means it.
#[derive(clap::Args, Debug)]
pub struct Table<G: GamesFlag> {
    /// Players per game; 4 for 62 Soleils and 2 for Summertime if left out.
    #[arg(long)]
    pub players: Option<usize>,
    #[arg(long, default_value = G::DEFAULT, help = G::HELP)]
    pub games: u64,
    /// Game i is played from a seed derived from this one and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(skip)]
    pub flag: std::marker::PhantomData<G>,
}

/// What `--games` means to a verb, and how many it plays if left out (as
/// text: clap keeps a `default_value_t` in one static for every `G`).
pub trait GamesFlag: Clone + Send + Sync + 'static {
    const DEFAULT: &'static str;
    const HELP: &'static str;
}

/// `simulate`, `compare` and `sweep`: games per variant or per point.
#[derive(Clone, Debug)]
pub struct Batch;
impl GamesFlag for Batch {
    const DEFAULT: &'static str = "1000";
    const HELP: &'static str = "Games to play (per variant, in a comparison)";
}

/// `ladder`: the games of the whole ladder.
#[derive(Clone, Debug)]
pub struct Ladder;
impl GamesFlag for Ladder {
    const DEFAULT: &'static str = "200";
    const HELP: &'static str = "Games to play";
}

/// How a batch is spread: worker threads on this machine, and the shard
/// of the games this run plays.
#[derive(clap::Args, Debug)]
pub struct Threads {
    /// Worker threads; every core if left out. The output is the same on any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Play only shard K of N (games numbered from G·(K−1)/N up to G·K/N)
    /// and print its partial report as JSON, for `sunfold merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

/// The budget of a search bot, or why another bot cannot judge.
pub(super) fn budget(bot: Bot) -> Result<u32, CliError> {
    bot.rollouts().map_err(|e| CliError::Usage(e.to_string()))
}

/// `--bot`'s parser: the message says what a bot is, with a suggestion.
pub(super) fn parse_bot(text: &str) -> Result<Bot, String> {
    Bot::parse(text).map_err(|e| e.to_string())
}

/// `--shard`'s parser.
pub(super) fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}

/// Prints a shard's partial report, one line of JSON.
pub(super) fn write_partial(partial: &Partial) {
    println!(
        "{}",
        serde_json::to_string(partial).expect("a partial report serializes")
    );
}

pub(super) fn bots(args: &[Bot]) -> Vec<Bot> {
    let bots = args.to_vec();
    if bots.is_empty() {
        vec![Bot::Random]
    } else {
        bots
    }
}

/// The player count, defaulted and checked against what every variant allows.
pub(super) fn players<G: Simulated>(
    variants: &[&G::Variant],
    given: Option<usize>,
) -> Result<usize, CliError> {
    crate::bots::player_count::<G>(variants, given).map_err(|e| CliError::Usage(e.to_string()))
}

pub(super) fn games(games: u64) -> Result<u64, CliError> {
    if games == 0 {
        return Err(CliError::Usage(
            "expected at least 1 game, but found --games 0".to_owned(),
        ));
    }
    Ok(games)
}

/// `--template` belongs to 62 Soleils and `--deck` to Summertime.
pub(super) fn only_for(game: GameArg, flag: &str, given: bool) -> Result<(), CliError> {
    let (owner, other) = match flag {
        "--deck" | "--a-deck" | "--b-deck" => (GameArg::Summertime, "summertime"),
        _ => (GameArg::Soleils, "soleils"),
    };
    if given && game != owner {
        return Err(CliError::Usage(format!(
            "expected {flag} only with {other}, but found it with {}",
            match game {
                GameArg::Soleils => "soleils",
                GameArg::Summertime => "summertime",
            }
        )));
    }
    Ok(())
}

/// Plays the games of `games` on the pool's threads ([`crate::workbench::batches`]),
/// with a progress bar on a terminal.
pub(super) fn batches<A: Send>(
    games: Range<u64>,
    empty: impl Fn() -> A + Sync + Send,
    play: impl Fn(&mut A, u64) -> Result<(), CliError> + Sync + Send,
    merge: impl Fn(A, A) -> A + Sync + Send,
) -> Result<A, CliError> {
    let bar = progress(games.end - games.start, "games");
    let result = crate::workbench::batches(games, empty, play, merge, |n| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

/// The throughput line, on standard error.
pub(super) fn throughput(played: u64, started: Instant, threads: usize) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{played} games in {seconds:.2} s: {:.0} games per second on {threads} threads",
        played as f64 / seconds.max(1e-9),
    );
}

/// Every .jsonl file under the paths, in order.
pub(super) fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    crate::log::jsonl_files(paths).map_err(|(path, e)| CliError::io(&path, e))
}

/// Prints a finished report as text or JSON, drawn first on `paper` where
/// `-o` asked: what a batch verb run whole does, and what `merge` does.
pub(super) fn publish(
    report: Finished,
    format: Format,
    drawing: Option<&Target>,
    paper: PaperArg,
) -> Result<(), CliError> {
    if let Some(target) = drawing {
        super::output::write(&report.drawing(paper.into()), target)?;
    }
    match format {
        Format::Text => print!("{}", report.text()),
        Format::Json => println!("{}", report.json()),
    }
    Ok(())
}

/// A batch verb's work on one variant of either game.
pub(super) trait OnVariant {
    /// What the verb refuses once the game's own flags are checked and
    /// before the variant is read.
    fn check(&self) -> Result<(), CliError> {
        Ok(())
    }
    /// The games played and reported on `variant`, of the game `G`.
    fn run<G: Swept>(self, variant: &G::Variant) -> Result<Exit, CliError>
    where
        G::Event: Send;
}

/// The one dispatch on the game of a batch verb: `--template` only with
/// 62 Soleils and `--deck` only with Summertime, then the variant they and
/// the `--option`s name, and `verb` run on it as its game.
pub(super) fn on_variant(
    game: GameArg,
    template: Option<&Path>,
    deck: Option<&Path>,
    options: &[String],
    verb: impl OnVariant,
) -> Result<Exit, CliError> {
    only_for(game, "--template", template.is_some())?;
    only_for(game, "--deck", deck.is_some())?;
    verb.check()?;
    match game {
        GameArg::Soleils => verb.run::<Soleils>(&variant::soleils(template, options)?),
        GameArg::Summertime => verb.run::<Summertime>(&variant::summertime(deck, options)?),
    }
}

/// Handles `files` on the pool's threads, [`CHUNK`] at a time so that
/// memory stays flat: `each` on every file in parallel, then `line` on each
/// result in file order, printed on standard output (the bar, on a
/// terminal, draws on standard error, so `> out` keeps the lines).
pub(super) fn per_file<T: Send>(
    files: &[PathBuf],
    pool: &rayon::ThreadPool,
    each: impl Fn(&Path) -> T + Sync + Send,
    mut line: impl FnMut(&Path, T) -> String,
) {
    let bar = progress(files.len() as u64, "files");
    for (n, chunk) in files.chunks(CHUNK).enumerate() {
        let results: Vec<T> = pool.install(|| chunk.par_iter().map(|p| each(p)).collect());
        let mut out = String::new();
        for (path, result) in chunk.iter().zip(results) {
            out.push_str(&line(path, result));
            out.push('\n');
        }
        match &bar {
            Some(bar) => bar.suspend(|| print!("{out}")),
            None => print!("{out}"),
        }
        if let Some(bar) = &bar {
            bar.set_position(((n + 1) * CHUNK).min(files.len()) as u64);
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}
