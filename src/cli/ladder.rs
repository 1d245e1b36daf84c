//! `sunfold ladder`: seat-rotated tables of several bots, each bot's win
//! rate, mean score and Bradley–Terry rating with intervals.

use super::batch::{GameArg, game_seed, pool};
use super::error::CliError;
use super::render::PaperArg;
use super::simulate::{
    batches, drawing, games, only_for, parse_bot, parse_shard, players, run_of, usage,
    write_partial,
};
use super::{Exit, Format, variant};
use crate::sim::partial::{Partial, Shard, Tallied};
use crate::sim::{Bot, Ladder, LadderGame, Searched, ladder, lineup, play};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::fmt::Write;
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
    /// Players per game; 4 for 62 Soleils and 2 for Summertime if left out.
    #[arg(long)]
    pub players: Option<usize>,
    /// Games to play.
    #[arg(long, default_value_t = 200)]
    pub games: u64,
    /// Game i is played from a seed derived from this one and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads; every core if left out. The output is the same on any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Play only shard K of N (games numbered from G·(K−1)/N up to G·K/N)
    /// and print its partial report as JSON, for `sunfold merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
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
    only_for(args.game, "--template", args.template.is_some())?;
    only_for(args.game, "--deck", args.deck.is_some())?;
    let mut distinct = args.bots.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() != args.bots.len() || distinct.len() < 2 {
        let names: Vec<String> = args.bots.iter().map(|b| b.name()).collect();
        return Err(usage(format!(
            "expected at least two different bots, each once, but found --bots {}",
            names.join(",")
        )));
    }
    match args.game {
        GameArg::Soleils => {
            let variant = variant::soleils(args.template.as_deref(), &args.options)?;
            ladder_game::<Soleils>(&args, &variant)
        }
        GameArg::Summertime => {
            let variant = variant::summertime(args.deck.as_deref(), &args.options)?;
            ladder_game::<Summertime>(&args, &variant)
        }
    }
}

fn ladder_game<G: Searched>(args: &LadderArgs, variant: &G::Variant) -> Result<Exit, CliError> {
    let players = players::<G>(&[variant], args.players)?;
    let count = games(args.games)?;
    let target = drawing(args.output.as_deref(), "ladder")?;
    let pool = pool(args.jobs)?;
    let started = Instant::now();
    let bots = &args.bots;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let played = pool.install(|| {
        batches(
            shard.games(count),
            Vec::new,
            |played: &mut Vec<LadderGame>, i| {
                let mut seats = Vec::new();
                lineup(bots, players, i, &mut seats);
                let result = play::<G>(variant, players, &seats, game_seed(args.seed, i));
                let seats = seats
                    .iter()
                    .map(|s| bots.iter().position(|b| b == s).expect("a listed bot"))
                    .collect();
                played.push(LadderGame {
                    seats,
                    totals: result.totals,
                });
                Ok(())
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        )
    })?;
    if let Some(shard) = args.shard {
        let run = run_of::<G>(players, count, args.seed, bots, &[variant]);
        let games = played.len();
        write_partial(&Partial::new(run, shard, Tallied::Ladder(played)));
        eprintln!(
            "{games} games in {:.2} s on {} threads",
            started.elapsed().as_secs_f64(),
            pool.current_num_threads()
        );
        return Ok(Exit::Valid);
    }
    let report = ladder(
        G::NAME,
        G::TITLE,
        players,
        args.seed,
        G::variant_info(variant),
        bots,
        &played,
    );
    if let Some(target) = &target {
        let scene = crate::render::ladder::report(&report, args.paper.into());
        super::render::write(&scene, target)?;
    }
    print_ladder(&report, args.format);
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{count} games in {seconds:.2} s: {:.1} games per second on {} threads",
        count as f64 / seconds.max(1e-9),
        pool.current_num_threads()
    );
    Ok(Exit::Valid)
}

/// Prints a ladder as text or JSON: what the run with no shards prints,
/// and what `merge` prints.
pub(super) fn print_ladder(report: &Ladder, format: Format) {
    match format {
        Format::Text => print!("{}", text(report)),
        Format::Json => println!(
            "{}",
            serde_json::to_string(report).expect("a ladder serializes")
        ),
    }
}

fn percent(e: &crate::sim::Estimate) -> String {
    format!(
        "{:5.1}% [{:.1}, {:.1}]",
        100.0 * e.estimate,
        100.0 * e.ci95[0].max(0.0),
        100.0 * e.ci95[1].min(1.0)
    )
}

/// The ladder as text: one line per bot, strongest first.
pub fn text(report: &Ladder) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{}: ladder of {} games, {} players, seats rotate; seed {}",
        report.title, report.games, report.players, report.seed
    )
    .unwrap();
    writeln!(out, "variant: {}", report.variant).unwrap();
    writeln!(
        out,
        "rating: Bradley–Terry on the Elo scale, {} = 0, 95% bootstrap interval;",
        report.anchor
    )
    .unwrap();
    writeln!(
        out,
        "matches: seat against seat within a game, the higher score wins, a tie halves"
    )
    .unwrap();
    let width = report
        .rungs
        .iter()
        .map(|r| r.bot.len())
        .max()
        .unwrap_or(0)
        .max(3);
    writeln!(
        out,
        "\n  {:<width$}  {:>18}  {:>21}  {:>21}  {:>20}",
        "bot", "rating", "win rate per seat", "matches won", "mean score"
    )
    .unwrap();
    for r in &report.rungs {
        writeln!(
            out,
            "  {:<width$}  {:>+6.0} [{:+.0}, {:+.0}]  {:>21}  {:>21}  {:>6.2} [{:.2}, {:.2}]",
            r.bot,
            r.rating.estimate,
            r.rating.ci95[0],
            r.rating.ci95[1],
            percent(&r.win_rate),
            percent(&r.match_share),
            r.mean_score.estimate,
            r.mean_score.ci95[0],
            r.mean_score.ci95[1],
        )
        .unwrap();
    }
    let s = &report.skill;
    writeln!(
        out,
        "\nskill against luck: {} beats {} in {} of their matches; mean score gap {:+.2} [{:+.2}, {:+.2}]",
        s.strongest,
        s.weakest,
        percent(&s.win_share).trim(),
        s.score_gap.estimate,
        s.score_gap.ci95[0],
        s.score_gap.ci95[1]
    )
    .unwrap();
    out
}
