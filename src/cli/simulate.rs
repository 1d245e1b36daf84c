//! `sunfold simulate` and `sunfold compare`: many games with bots, under any
//! variant, on every core. The same seed gives the same report, byte for
//! byte, whatever the number of threads.

use super::batch::{
    BatchArgs, GameArg, OnVariant, batches, bots, games, on_variant, only_for, players, pool,
    publish, throughput, write_partial,
};
use super::error::CliError;
use super::output::{PaperArg, drawing};
use super::{Exit, Format, variant};
use crate::bots::{GameResult, Searched, Simulated, lineup, play};
use crate::log::chained_log;
use crate::report::Finished;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::workbench::partial::{Partial, Run, Shard, Tallied};
use crate::workbench::sweep::Swept;
use crate::workbench::{Paired, Tally, game_seed};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

pub fn simulate(args: SimulateArgs) -> Result<Exit, CliError> {
    struct Simulate<'a>(&'a SimulateArgs);
    impl OnVariant for Simulate<'_> {
        fn run<G: Swept>(self, variant: &G::Variant) -> Result<Exit, CliError>
        where
            G::Event: Send,
        {
            simulate_game::<G>(self.0, variant)
        }
    }
    let (template, deck) = (args.template.as_deref(), args.deck.as_deref());
    on_variant(args.game, template, deck, &args.options, Simulate(&args))
}

fn simulate_game<G: Searched>(args: &SimulateArgs, variant: &G::Variant) -> Result<Exit, CliError>
where
    G::Event: Send,
{
    let players = players::<G>(&[variant], args.batch.table.players)?;
    let count = games(args.batch.table.games)?;
    let bots = bots(&args.batch.bots);
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, e))?;
    }
    let pool = pool(args.batch.threads.jobs)?;
    let started = Instant::now();
    let empty = Tally::new(
        G::variant_info(variant),
        players,
        &bots,
        G::metrics(variant, players),
    );
    let out = args.out.as_deref();
    let shard = args.batch.threads.shard.unwrap_or(Shard::WHOLE);
    let tally = pool.install(|| {
        batches(
            shard.games(count),
            || empty.clone(),
            |tally, i| -> Result<_, CliError> {
                let mut seats = Vec::new();
                lineup(&bots, players, i, &mut seats);
                let result = play::<G>(
                    variant,
                    players,
                    &seats,
                    game_seed(args.batch.table.seed, i),
                );
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
    if let Some(shard) = args.batch.threads.shard {
        let run = Run::of::<G>(players, count, args.batch.table.seed, &bots, &[variant]);
        let played = tally.games();
        write_partial(&Partial::new(
            run,
            shard,
            Tallied::Simulate(Box::new(tally)),
        ));
        throughput(played, started, pool.current_num_threads());
        return Ok(Exit::Valid);
    }
    let report = tally.report(G::NAME, G::TITLE, args.batch.table.seed);
    publish(Finished::Compare(&report), args.format, None, PaperArg::A4)?;
    throughput(report.head.games, started, pool.current_num_threads());
    Ok(Exit::Valid)
}

fn write_log<G: Simulated>(
    dir: &Path,
    i: u64,
    variant: &G::Variant,
    result: &GameResult<G>,
) -> Result<(), CliError> {
    let path = dir.join(format!("{}-{:06}.jsonl", G::NAME, i + 1));
    crate::kit::atomic::write(&path, chained_log(&result.events(variant)).as_bytes())
        .map_err(|e| CliError::io(&path, e))
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
    let players = players::<G>(&[a, b], args.batch.table.players)?;
    let count = games(args.batch.table.games)?;
    let bots = bots(&args.batch.bots);
    let target = drawing(args.output.as_deref(), "report")?;
    let pool = pool(args.batch.threads.jobs)?;
    let changes = crate::bots::differing(
        (&G::variant_info(a).source, &G::rules(a)),
        (&G::variant_info(b).source, &G::rules(b)),
    )
    .map_err(|same| CliError::Usage(same.to_string()))?;
    let started = Instant::now();
    let tally = |v| Tally::new(G::variant_info(v), players, &bots, G::metrics(v, players));
    let empty = Paired::new(tally(a), tally(b));
    let shard = args.batch.threads.shard.unwrap_or(Shard::WHOLE);
    let paired = pool.install(|| {
        batches(
            shard.games(count),
            || empty.clone(),
            |paired, i| {
                let seed = game_seed(args.batch.table.seed, i);
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
    if let Some(shard) = args.batch.threads.shard {
        let run = Run::of::<G>(players, count, args.batch.table.seed, &bots, &[a, b]);
        let played = 2 * paired.games();
        write_partial(&Partial::new(
            run,
            shard,
            Tallied::Compare(Box::new(paired)),
        ));
        throughput(played, started, pool.current_num_threads());
        return Ok(Exit::Valid);
    }
    let mut report = paired.report(G::NAME, G::TITLE, args.batch.table.seed);
    report.changes = changes;
    publish(
        Finished::Compare(&report),
        args.format,
        target.as_ref(),
        args.paper,
    )?;
    throughput(2 * report.head.games, started, pool.current_num_threads());
    Ok(Exit::Valid)
}
