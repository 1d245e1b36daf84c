//! `sunfold ladder`: seat-rotated tables of several bots, each bot's win
//! rate, mean score and Bradley–Terry rating with intervals.

use super::batch::{
    GameArg, Ladder, OnVariant, Table, Threads, batches, games, on_variant, parse_bot, players,
    pool, publish, throughput, write_partial,
};
use super::error::CliError;
use super::output::{PaperArg, drawing};
use super::{Exit, Format};
use crate::bots::{Bot, lineup, play};
use crate::report::Finished;
use crate::workbench::ladder::check_bots;
use crate::workbench::partial::{Partial, Run, Shard, Tallied};
use crate::workbench::sweep::Swept;
use crate::workbench::{LadderGame, game_seed, ladder};
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    #[arg(value_enum)]
    pub game: GameArg,
    /// The bots to rank, at least two: random, greedy, search (64 rollouts
    /// per decision) or search:N.
    #[arg(long, value_delimiter = ',', required = true, value_parser = parse_bot)]
    pub bots: Vec<Bot>,
    #[command(flatten)]
    pub table: Table<Ladder>,
    #[command(flatten)]
    pub threads: Threads,
    /// 62 Soleils: a sheet template; the bundled sheet if left out.
    #[arg(long, conflicts_with = "deck")]
    pub template: Option<PathBuf>,
    /// Summertime: a deck; the bundled deck if left out.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    /// A rule option, such as sun_bonus=exact; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The ladder as text, or as one JSON object (`sunfold schema ladder-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the ladder, each rating with its interval, as .pdf or .svg.
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

pub fn run(args: LadderArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a LadderArgs);
    impl OnVariant for Run<'_> {
        fn check(&self) -> Result<(), CliError> {
            check_bots(&self.0.bots).map_err(CliError::Usage)
        }
        fn run<G: Swept>(self, variant: &G::Variant) -> Result<Exit, CliError>
        where
            G::Event: Send,
        {
            ladder_game::<G>(self.0, variant)
        }
    }
    let (template, deck) = (args.template.as_deref(), args.deck.as_deref());
    on_variant(args.game, template, deck, &args.options, Run(&args))
}

fn ladder_game<G: Swept>(args: &LadderArgs, variant: &G::Variant) -> Result<Exit, CliError> {
    let players = players::<G>(&[variant], args.table.players)?;
    let count = games(args.table.games)?;
    let target = drawing(args.output.as_deref(), "ladder")?;
    let pool = pool(args.threads.jobs)?;
    let started = Instant::now();
    let bots = &args.bots;
    let shard = args.threads.shard.unwrap_or(Shard::WHOLE);
    let played = pool.install(|| {
        batches(
            shard.games(count),
            Vec::new,
            |played: &mut Vec<LadderGame>, i| {
                let mut seats = Vec::new();
                lineup(bots, players, i, &mut seats);
                let result = play::<G>(variant, players, &seats, game_seed(args.table.seed, i));
                played.push(LadderGame::of(bots, &seats, result.totals));
                Ok(())
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        )
    })?;
    if let Some(shard) = args.threads.shard {
        let run = Run::of::<G>(players, count, args.table.seed, bots, &[variant]);
        let games = played.len();
        write_partial(&Partial::new(run, shard, Tallied::Ladder(played)));
        throughput(games as u64, started, pool.current_num_threads());
        return Ok(Exit::Valid);
    }
    let report = ladder(
        G::NAME,
        G::TITLE,
        players,
        args.table.seed,
        G::variant_info(variant),
        bots,
        &played,
    );
    let finished = Finished::Ladder(&report);
    publish(finished, args.format, target.as_ref(), args.paper)?;
    throughput(count, started, pool.current_num_threads());
    Ok(Exit::Valid)
}
