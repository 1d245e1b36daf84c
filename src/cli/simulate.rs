//! `sunfold simulate` and `sunfold compare`: many games with bots, under any
//! variant, on every core. The same seed gives the same report, byte for
//! byte, whatever the number of threads.

use super::batch::{GameArg, game_seed, pool, progress};
use super::error::CliError;
use super::render::PaperArg;
use super::{Exit, Format, variant};
use crate::log::chained_log;
use crate::present::simulation as report_view;
use crate::sim::partial::{Partial, Run, RunVariant, Shard, Tallied};
use crate::sim::{Bot, GameResult, Paired, Report, Searched, Simulated, Tally, lineup, play};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use rayon::prelude::*;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What every batch of games takes: who plays, how many games, the seed.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// Players per game; 4 for 62 Soleils and 2 for Summertime if left out.
    #[arg(long)]
    pub players: Option<usize>,
    /// Games to play (per variant, in a comparison).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Game i is played from a seed derived from this one and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
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
    /// Worker threads; every core if left out. The output is the same on any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Play only shard K of N (games numbered from G·(K−1)/N up to G·K/N)
    /// and print its partial report as JSON, for `sunfold merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    #[arg(value_enum)]
    pub game: GameArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// 62 Soleils: a sheet template; the bundled sheet if left out.
    #[arg(long, conflicts_with = "deck")]
    pub template: Option<PathBuf>,
    /// Summertime: a deck; the bundled deck if left out.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    /// A rule option, such as sun_bonus=exact, skip_placement=only_when_blocked, sailboats=different or solo=true; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The summary as text, or as one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write every game as a chained log in this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    #[arg(value_enum)]
    pub game: GameArg,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// 62 Soleils: variant A's sheet template; the bundled sheet if left out.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a_deck", "b_deck"])]
    pub a_template: Option<PathBuf>,
    /// A rule option of variant A, such as sun_bonus=reach_or_pass; repeatable.
    #[arg(long = "a-option", value_name = "NAME=VALUE")]
    pub a_options: Vec<String>,
    /// 62 Soleils: variant B's sheet template; the bundled sheet if left out.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a_deck", "b_deck"])]
    pub b_template: Option<PathBuf>,
    /// A rule option of variant B, such as sun_bonus=exact; repeatable.
    #[arg(long = "b-option", value_name = "NAME=VALUE")]
    pub b_options: Vec<String>,
    /// Summertime: variant A's deck; the bundled deck if left out.
    #[arg(long, value_name = "FILE")]
    pub a_deck: Option<PathBuf>,
    /// Summertime: variant B's deck; the bundled deck if left out.
    #[arg(long, value_name = "FILE")]
    pub b_deck: Option<PathBuf>,
    /// The report as text, or as one JSON object with `a`, `b` and `difference`.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the report: distributions side by side and every difference
    /// with its interval, as .pdf or .svg.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "shard"
    )]
    pub output: Option<PathBuf>,
    /// The paper of the drawn report.
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
}

pub(super) fn usage(message: String) -> CliError {
    CliError::Usage(message)
}

/// `--bot`'s parser: the message says what a bot is, with a suggestion.
pub(super) fn parse_bot(text: &str) -> Result<Bot, String> {
    Bot::parse(text).map_err(|e| e.to_string())
}

/// `--shard`'s parser.
pub(super) fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}

/// What a shard's partial report says of its run.
pub(super) fn run_of<G: Simulated>(
    players: usize,
    games: u64,
    seed: u64,
    bots: &[Bot],
    variants: &[&G::Variant],
) -> Run {
    Run {
        game: G::NAME.to_owned(),
        players,
        games,
        seed,
        bots: bots.to_vec(),
        variants: variants
            .iter()
            .map(|v| RunVariant {
                info: G::variant_info(v),
                rules: G::rules(v),
            })
            .collect(),
        sweep: None,
    }
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
    let first = G::players(variants[0]);
    let (min, max) = (first.min, first.max);
    let players = given.unwrap_or(if min == max { min } else { 4 });
    for range in variants.iter().map(|v| G::players(v)) {
        let (min, max, note) = (range.min, range.max, range.note);
        if !(min..=max).contains(&players) {
            let expected = match (min, max) {
                (1, 1) => "exactly 1 player".to_owned(),
                _ if min == max => format!("exactly {min} players"),
                _ => format!("{min} to {max} players"),
            };
            return Err(usage(format!(
                "expected {expected} for {}{note}, but found {players}",
                G::NAME
            )));
        }
    }
    Ok(players)
}

pub(super) fn games(games: u64) -> Result<u64, CliError> {
    if games == 0 {
        return Err(usage(
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
        return Err(usage(format!(
            "expected {flag} only with {other}, but found it with {}",
            match game {
                GameArg::Soleils => "soleils",
                GameArg::Summertime => "summertime",
            }
        )));
    }
    Ok(())
}

pub fn simulate(args: SimulateArgs) -> Result<Exit, CliError> {
    let run = || -> Result<Exit, CliError> {
        only_for(args.game, "--template", args.template.is_some())?;
        only_for(args.game, "--deck", args.deck.is_some())?;
        match args.game {
            GameArg::Soleils => {
                let variant = variant::soleils(args.template.as_deref(), &args.options)?;
                simulate_game::<Soleils>(&args, &variant)
            }
            GameArg::Summertime => {
                let variant = variant::summertime(args.deck.as_deref(), &args.options)?;
                simulate_game::<Summertime>(&args, &variant)
            }
        }
    };
    run()
}

fn simulate_game<G: Searched>(args: &SimulateArgs, variant: &G::Variant) -> Result<Exit, CliError>
where
    G::Event: Send,
{
    let players = players::<G>(&[variant], args.batch.players)?;
    let count = games(args.batch.games)?;
    let bots = bots(&args.batch.bots);
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, e))?;
    }
    let pool = pool(args.batch.jobs)?;
    let started = Instant::now();
    let empty = Tally::new(
        G::variant_info(variant),
        players,
        &bots,
        G::metrics(variant, players),
    );
    let out = args.out.as_deref();
    let shard = args.batch.shard.unwrap_or(Shard::WHOLE);
    let tally = pool.install(|| {
        batches(
            shard.games(count),
            || empty.clone(),
            |tally, i| -> Result<_, CliError> {
                let mut seats = Vec::new();
                lineup(&bots, players, i, &mut seats);
                let result = play::<G>(variant, players, &seats, game_seed(args.batch.seed, i));
                if let Some(dir) = out {
                    write_log::<G>(dir, i, variant, &result)?;
                }
                tally.add(i, &result);
                Ok(())
            },
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
    })?;
    if let Some(shard) = args.batch.shard {
        let run = run_of::<G>(players, count, args.batch.seed, &bots, &[variant]);
        let played = tally.games();
        write_partial(&Partial::new(
            run,
            shard,
            Tallied::Simulate(Box::new(tally)),
        ));
        throughput(played, started, pool.current_num_threads());
        return Ok(Exit::Valid);
    }
    let report = tally.report(G::NAME, G::TITLE, args.batch.seed);
    finish(&report, args.format, started, pool.current_num_threads());
    Ok(Exit::Valid)
}

fn write_log<G: Simulated>(
    dir: &Path,
    i: u64,
    variant: &G::Variant,
    result: &GameResult<G>,
) -> Result<(), CliError> {
    let path = dir.join(format!("{}-{:06}.jsonl", G::NAME, i + 1));
    crate::atomic::write(&path, chained_log(&result.events(variant)).as_bytes())
        .map_err(|e| CliError::io(&path, e))
}

/// Games played in a row by one worker before it looks for more work.
const STRIDE: u64 = 32;

/// Plays the games of `games` on the pool's threads. Each worker adds the
/// games it plays to a tally of its own (`empty()` at first, `play` adding
/// game `i`), and the tallies are merged in game order by `merge`: no
/// thread waits on another to tally, and as tallies merge exactly (or, for
/// a list, in order), the result is the same on any thread count.
pub(super) fn batches<A: Send>(
    games: Range<u64>,
    empty: impl Fn() -> A + Sync + Send,
    play: impl Fn(&mut A, u64) -> Result<(), CliError> + Sync + Send,
    merge: impl Fn(A, A) -> A + Sync + Send,
) -> Result<A, CliError> {
    let bar = progress(games.end - games.start, "games");
    // Runs of STRIDE games are the unit of work: few enough tallies to
    // start and merge, many enough to keep every thread busy to the end.
    let runs = (games.end - games.start).div_ceil(STRIDE);
    let result = (0..runs)
        .into_par_iter()
        .try_fold(&empty, |mut tally, run| {
            let from = games.start + run * STRIDE;
            for i in from..(from + STRIDE).min(games.end) {
                play(&mut tally, i)?;
            }
            if let Some(bar) = &bar {
                bar.inc((from + STRIDE).min(games.end) - from);
            }
            Ok::<A, CliError>(tally)
        })
        .try_reduce(&empty, |a, b| Ok(merge(a, b)));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

/// Where `-o` draws a report, checked before any game is played: a
/// report that cannot be written is found out before the games, not after.
pub(super) fn drawing(
    output: Option<&Path>,
    what: &str,
) -> Result<Option<super::render::Target>, CliError> {
    let target = output.map(super::render::target).transpose()?;
    if let Some(dir) = output.and_then(Path::parent)
        && !dir.as_os_str().is_empty()
        && !dir.is_dir()
    {
        return Err(CliError::Usage(format!(
            "{}: expected a folder to write the {what} into, but there is none",
            dir.display()
        )));
    }
    Ok(target)
}

/// Prints a report as text or JSON: what the run with no shards prints,
/// and what `merge` prints.
pub(super) fn print_report(report: &Report, format: Format) {
    match format {
        Format::Text => print!("{}", report_view::text(report)),
        Format::Json => println!("{}", report_view::json(report)),
    }
}

pub(super) fn finish(report: &Report, format: Format, started: Instant, threads: usize) {
    print_report(report, format);
    let played = report.games * if report.b.is_some() { 2 } else { 1 };
    throughput(played, started, threads);
}

/// The throughput line, on standard error.
fn throughput(played: u64, started: Instant, threads: usize) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{played} games in {seconds:.2} s: {:.0} games per second on {threads} threads",
        played as f64 / seconds.max(1e-9),
    );
}

pub fn compare(args: CompareArgs) -> Result<Exit, CliError> {
    let run = || -> Result<Exit, CliError> {
        for (flag, given) in [
            ("--a-template", args.a_template.is_some()),
            ("--b-template", args.b_template.is_some()),
            ("--a-deck", args.a_deck.is_some()),
            ("--b-deck", args.b_deck.is_some()),
        ] {
            only_for(args.game, flag, given)?;
        }
        match args.game {
            GameArg::Soleils => {
                let a = variant::soleils(args.a_template.as_deref(), &args.a_options)?;
                let b = variant::soleils(args.b_template.as_deref(), &args.b_options)?;
                compare_game::<Soleils>(&args, &a, &b)
            }
            GameArg::Summertime => {
                let a = variant::summertime(args.a_deck.as_deref(), &args.a_options)?;
                let b = variant::summertime(args.b_deck.as_deref(), &args.b_options)?;
                compare_game::<Summertime>(&args, &a, &b)
            }
        }
    };
    run()
}

fn compare_game<G: Searched>(
    args: &CompareArgs,
    a: &G::Variant,
    b: &G::Variant,
) -> Result<Exit, CliError>
where
    G::Event: Send,
{
    let players = players::<G>(&[a, b], args.batch.players)?;
    let count = games(args.batch.games)?;
    let bots = bots(&args.batch.bots);
    let target = drawing(args.output.as_deref(), "report")?;
    let pool = pool(args.batch.jobs)?;
    let started = Instant::now();
    let tally = |v| Tally::new(G::variant_info(v), players, &bots, G::metrics(v, players));
    let empty = Paired::new(tally(a), tally(b));
    let shard = args.batch.shard.unwrap_or(Shard::WHOLE);
    let paired = pool.install(|| {
        batches(
            shard.games(count),
            || empty.clone(),
            |paired, i| {
                let seed = game_seed(args.batch.seed, i);
                let mut seats = Vec::new();
                lineup(&bots, players, i, &mut seats);
                let ra = play::<G>(a, players, &seats, seed);
                let rb = play::<G>(b, players, &seats, seed);
                paired.add(i, &ra, &rb);
                Ok(())
            },
            |mut x, y| {
                x.merge(&y);
                x
            },
        )
    })?;
    if let Some(shard) = args.batch.shard {
        let run = run_of::<G>(players, count, args.batch.seed, &bots, &[a, b]);
        let played = 2 * paired.games();
        write_partial(&Partial::new(
            run,
            shard,
            Tallied::Compare(Box::new(paired)),
        ));
        throughput(played, started, pool.current_num_threads());
        return Ok(Exit::Valid);
    }
    let mut report = paired.report(G::NAME, G::TITLE, args.batch.seed);
    report.changes = crate::sim::changes(&G::rules(a), &G::rules(b));
    if let Some(target) = &target {
        let scene = crate::render::compare::report(&report, args.paper.into());
        super::render::write(&scene, target)?;
    }
    finish(&report, args.format, started, pool.current_num_threads());
    Ok(Exit::Valid)
}
