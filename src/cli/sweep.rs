//! `sunfold sweep`: one variant played at every value, or every combination
//! of values, of one or more places of its rules, on the same games.
//! Every value is set into the template or deck as JSON and checked as
//! `template check` checks a file, all before the first game.

use super::batch::{
    BatchArgs, GameArg, OnVariant, batches, bots, games, on_variant, players, pool, publish,
    throughput, write_partial,
};
use super::error::CliError;
use super::output::{PaperArg, drawing};
use super::{Exit, Format, variant};
use crate::bots::{lineup, play};
use crate::report::Finished;
use crate::workbench::partial::{Partial, Run, Shard, Tallied};
use crate::workbench::sweep::{self, Axis, Points, SweepRun, Swept, Target};
use crate::workbench::{Tally, game_seed};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    #[arg(value_enum)]
    pub game: GameArg,
    /// A place and its values: PATH=LO..HI:STEP (HI included when the steps
    /// reach it) or PATH=a,b,c. PATH is a JSON path as `template check`
    /// prints it, such as sun.thresholds[2].at, or a rule option such as
    /// sun_bonus. Repeat it to play every combination; PATH,PATH=a:b,c:d
    /// moves paths together.
    #[arg(long = "set", value_name = "PATH=VALUES", required = true)]
    pub sets: Vec<String>,
    #[command(flatten)]
    pub batch: BatchArgs,
    /// 62 Soleils: the sheet template swept from; the bundled sheet if left out.
    #[arg(long, conflicts_with = "deck")]
    pub template: Option<PathBuf>,
    /// Summertime: the deck swept from; the bundled deck if left out.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    /// A rule option held at every point, such as sun_bonus=exact; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The figures of each row, by the ids of the simulate report
    /// (mean_score, rounds, win_rate.seat_1, ...); the mean score, the
    /// game's length and every seat's win rate if left out.
    #[arg(long = "figure", value_name = "ID", value_delimiter = ',')]
    pub figures: Vec<String>,
    /// The row the others are paired against: one value per --set, joined
    /// by commas (a:b for linked paths); the first row if left out.
    #[arg(long, value_name = "VALUES")]
    pub base: Option<String>,
    /// The sweep as text, or as one JSON object (`sunfold schema sweep-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw each figure against the values, its interval as a band,
    /// as .pdf or .svg.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "shard"
    )]
    pub output: Option<PathBuf>,
    /// The paper of the drawing.
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
}

fn refused(error: impl std::fmt::Display) -> CliError {
    CliError::Usage(error.to_string())
}

pub fn run(args: SweepArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a SweepArgs);
    impl OnVariant for Run<'_> {
        fn run<G: Swept>(self, base: &G::Variant) -> Result<Exit, CliError>
        where
            G::Event: Send,
        {
            sweep_game::<G>(self.0, base)
        }
    }
    let (template, deck) = (args.template.as_deref(), args.deck.as_deref());
    on_variant(args.game, template, deck, &args.options, Run(&args))
}

/// The `--set`s read and checked, in order, with where each one goes.
fn axes<G: Swept>(args: &SweepArgs) -> Result<Vec<(Target, Axis)>, CliError> {
    let axes = sweep::spec::read(&args.sets, G::OPTIONS).map_err(refused)?;
    let held = variant::soleils_settings(if G::OPTIONS.is_empty() {
        &[]
    } else {
        &args.options
    })?;
    sweep::spec::check_options(&axes, &held).map_err(refused)?;
    Ok(axes)
}

fn sweep_game<G: Swept>(args: &SweepArgs, base: &G::Variant) -> Result<Exit, CliError>
where
    G::Event: Send,
{
    let axes = axes::<G>(args)?;
    let doc = G::document(base);
    // Each combination checked whole: values may be valid only together.
    let plain: Vec<Axis> = axes.iter().map(|(_, a)| a.clone()).collect();
    let variants = sweep::spec::points(&plain)
        .into_iter()
        .map(|p| {
            let point: Vec<Option<usize>> = p.into_iter().map(Some).collect();
            G::at(base, &doc, &axes, &point).map_err(refused)
        })
        .collect::<Result<Vec<G::Variant>, CliError>>()?;
    let refs: Vec<&G::Variant> = variants.iter().collect();
    let players = players::<G>(&refs, args.batch.table.players)?;
    let count = games(args.batch.table.games)?;
    let bots = bots(&args.batch.bots);
    let empty: Vec<Tally> = variants
        .iter()
        .map(|v| Tally::new(G::variant_info(v), players, &bots, G::metrics(v, players)))
        .collect();
    let before: Vec<_> = empty
        .iter()
        .map(|t| t.clone().report(G::NAME, G::TITLE, args.batch.table.seed))
        .collect();
    let figures = sweep::figures(&before, &args.figures).map_err(refused)?;
    let base_row = sweep::spec::base(&plain, args.base.as_deref()).map_err(refused)?;
    let empty = Points::new(empty, figures.len());
    let target = drawing(args.output.as_deref(), "sweep")?;
    let pool = pool(args.batch.threads.jobs)?;
    let started = Instant::now();
    let shard = args.batch.threads.shard.unwrap_or(Shard::WHOLE);
    let tallies = pool.install(|| {
        batches(
            shard.games(count),
            || empty.clone(),
            |points: &mut Points, i| {
                let seed = game_seed(args.batch.table.seed, i);
                let mut seats = Vec::new();
                lineup(&bots, players, i, &mut seats);
                for (tally, variant) in points.tallies.iter_mut().zip(&variants) {
                    let result = play::<G>(variant, players, &seats, seed);
                    tally.add(i, &result);
                }
                points.add_differences(base_row, &figures);
                Ok(())
            },
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
    })?;
    let run_sweep = SweepRun {
        axes: plain,
        figures,
        base: base_row,
    };
    let played = tallies.games() * tallies.tallies.len() as u64;
    let threads = pool.current_num_threads();
    if let Some(shard) = args.batch.threads.shard {
        let mut run = Run::of::<G>(players, count, args.batch.table.seed, &bots, &[base]);
        run.sweep = Some(run_sweep);
        write_partial(&Partial::new(run, shard, Tallied::Sweep(tallies)));
        throughput(played, started, threads);
        return Ok(Exit::Valid);
    }
    let report = sweep::report(
        G::NAME,
        G::TITLE,
        args.batch.table.seed,
        G::variant_info(base),
        &run_sweep,
        tallies,
    );
    publish(
        Finished::Sweep(&report),
        args.format,
        target.as_ref(),
        args.paper,
    )?;
    throughput(played, started, threads);
    Ok(Exit::Valid)
}
