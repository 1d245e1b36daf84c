//! `sunfold sweep`: one variant played at every value, or every combination
//! of values, of one or more places of its rules, on the same games.
//! Every value is set into the template or deck as JSON and checked as
//! `template check` checks a file, all before the first game.

use super::batch::{GameArg, game_seed, pool};
use super::error::CliError;
use super::render::PaperArg;
use super::simulate::{BatchArgs, bots, drawing, games, only_for, players, run_of, write_partial};
use super::{Exit, Format, variant};
use crate::sim::partial::{Partial, Shard, Tallied};
use crate::sim::sweep::{self, Axis, SetError, SetValue, Sweep, SweepRun, Target};
use crate::sim::{Searched, SoleilsVariant, SummertimeVariant, Tally, lineup, play};
use crate::soleils::{Setting, Soleils};
use crate::summertime::Summertime;
use crate::template_file::Checked;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    #[arg(value_enum)]
    pub game: GameArg,
    /// A place and its values: PATH=LO..HI:STEP (HI included when the steps
    /// reach it) or PATH=a,b,c. PATH is a JSON path as `template check`
    /// prints it, such as sun.thresholds[2].at, or a rule option such as
    /// sun_bonus. Repeat it to play every combination.
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

/// What a sweep needs of a game beyond playing it: its rules as a JSON
/// document, and a variant again from a changed document.
trait Swept: Searched {
    /// What the document is called in messages: `template`, `deck`.
    const WHAT: &'static str;
    /// The rule options `--set` may name.
    const OPTIONS: &'static [&'static str];
    /// The variant's template or deck as JSON.
    fn document(variant: &Self::Variant) -> Value;
    /// `base` with its template or deck replaced by `doc`, checked as
    /// `template check` checks a file, and `settings` applied; or every
    /// problem, each with its path.
    fn point(
        base: &Self::Variant,
        doc: &Value,
        settings: &[Setting],
    ) -> Result<Self::Variant, Vec<String>>;
}

fn checked(doc: &Value) -> Result<Checked, Vec<String>> {
    let text = serde_json::to_string(doc).expect("JSON serializes");
    crate::template_file::check(&text).map_err(|p| p.iter().map(ToString::to_string).collect())
}

impl Swept for Soleils {
    const WHAT: &'static str = "template";
    const OPTIONS: &'static [&'static str] = &["sun_bonus", "skip_placement", "sailboats", "solo"];

    fn document(variant: &SoleilsVariant) -> Value {
        serde_json::to_value(&variant.raw).expect("a template serializes")
    }

    fn point(
        base: &SoleilsVariant,
        doc: &Value,
        settings: &[Setting],
    ) -> Result<SoleilsVariant, Vec<String>> {
        match checked(doc)? {
            Checked::Sheet(template) => Ok(SoleilsVariant {
                source: base.source.clone(),
                raw: template.raw().clone(),
                template: template.into(),
                options: base.options.with(settings),
            }),
            Checked::Deck(_) => Err(vec![
                "game: expected a sheet template (\"soleils\"), but found a deck (\"summertime\")"
                    .to_owned(),
            ]),
        }
    }
}

impl Swept for Summertime {
    const WHAT: &'static str = "deck";
    const OPTIONS: &'static [&'static str] = &[];

    fn document(variant: &SummertimeVariant) -> Value {
        serde_json::to_value(&variant.raw).expect("a deck serializes")
    }

    fn point(
        base: &SummertimeVariant,
        doc: &Value,
        _: &[Setting],
    ) -> Result<SummertimeVariant, Vec<String>> {
        match checked(doc)? {
            Checked::Deck(deck) => Ok(SummertimeVariant {
                source: base.source.clone(),
                raw: deck.raw().clone(),
                deck: deck.into(),
            }),
            Checked::Sheet(_) => Err(vec![
                "game: expected a deck (\"summertime\"), but found a sheet template (\"soleils\")"
                    .to_owned(),
            ]),
        }
    }
}

fn refused(error: impl std::fmt::Display) -> CliError {
    CliError::Usage(error.to_string())
}

pub fn run(args: SweepArgs) -> Result<Exit, CliError> {
    only_for(args.game, "--template", args.template.is_some())?;
    only_for(args.game, "--deck", args.deck.is_some())?;
    match args.game {
        GameArg::Soleils => {
            let base = variant::soleils(args.template.as_deref(), &args.options)?;
            sweep_game::<Soleils>(&args, &base)
        }
        GameArg::Summertime => {
            let base = variant::summertime(args.deck.as_deref(), &args.options)?;
            sweep_game::<Summertime>(&args, &base)
        }
    }
}

/// The `--set`s read and checked, in order, with where each one goes.
fn axes<G: Swept>(args: &SweepArgs) -> Result<Vec<(Target, Axis)>, CliError> {
    let axes = args
        .sets
        .iter()
        .map(|s| sweep::spec::parse(s, G::OPTIONS))
        .collect::<Result<Vec<_>, SetError>>()
        .map_err(refused)?;
    let plain: Vec<Axis> = axes.iter().map(|(_, a)| a.clone()).collect();
    sweep::spec::combinations(&plain).map_err(refused)?;
    let held = variant::soleils_settings(if G::OPTIONS.is_empty() {
        &[]
    } else {
        &args.options
    })?;
    for (target, axis) in &axes {
        if let Target::Option(name) = target {
            if held.iter().any(|s| s.name() == name) {
                return Err(refused(SetError::OptionTwice { name: name.clone() }));
            }
            for value in &axis.values {
                format!("{name}={value}")
                    .parse::<Setting>()
                    .map_err(refused)?;
            }
        }
    }
    Ok(axes)
}

/// The variant at one combination of values (`point[a]` the value of axis
/// `a`), or why it is refused, naming the `--set`s that make it.
fn variant_at<G: Swept>(
    base: &G::Variant,
    doc: &Value,
    axes: &[(Target, Axis)],
    point: &[Option<usize>],
) -> Result<G::Variant, CliError> {
    let mut doc = doc.clone();
    let mut settings = Vec::new();
    let mut named = Vec::new();
    for ((target, axis), at) in axes.iter().zip(point) {
        let Some(v) = *at else { continue };
        let value: &SetValue = &axis.values[v];
        named.push(format!("--set {}={value}", axis.path));
        match target {
            Target::Path(steps) => {
                sweep::spec::set(&mut doc, steps, value.json(), G::WHAT).map_err(refused)?
            }
            Target::Option(name) => settings.push(
                format!("{name}={value}")
                    .parse::<Setting>()
                    .map_err(refused)?,
            ),
        }
    }
    G::point(base, &doc, &settings).map_err(|problems| {
        let count = problems.len();
        let mut message = format!(
            "expected a valid {} at every value, but {} gives {count} problem{}:",
            G::WHAT,
            named.join(" "),
            if count == 1 { "" } else { "s" }
        );
        for p in problems {
            message.push_str("\n  ");
            message.push_str(&p);
        }
        CliError::Usage(message)
    })
}

fn sweep_game<G: Swept>(args: &SweepArgs, base: &G::Variant) -> Result<Exit, CliError>
where
    G::Event: Send,
{
    let axes = axes::<G>(args)?;
    let doc = G::document(base);
    // Each value alone first, so that a refusal names the one --set at
    // fault; then every combination.
    for a in 0..axes.len() {
        for v in 0..axes[a].1.values.len() {
            let mut point = vec![None; axes.len()];
            point[a] = Some(v);
            variant_at::<G>(base, &doc, &axes, &point)?;
        }
    }
    let plain: Vec<Axis> = axes.iter().map(|(_, a)| a.clone()).collect();
    let variants = sweep::spec::points(&plain)
        .into_iter()
        .map(|p| {
            let point: Vec<Option<usize>> = p.into_iter().map(Some).collect();
            variant_at::<G>(base, &doc, &axes, &point)
        })
        .collect::<Result<Vec<G::Variant>, CliError>>()?;
    let refs: Vec<&G::Variant> = variants.iter().collect();
    let players = players::<G>(&refs, args.batch.players)?;
    let count = games(args.batch.games)?;
    let bots = bots(&args.batch.bots);
    let empty: Vec<Tally> = variants
        .iter()
        .map(|v| Tally::new(G::variant_info(v), players, &bots, G::metrics(v, players)))
        .collect();
    let before: Vec<_> = empty
        .iter()
        .map(|t| t.clone().report(G::NAME, G::TITLE, args.batch.seed))
        .collect();
    let figures = sweep::figures(&before, &args.figures).map_err(refused)?;
    let target = drawing(args.output.as_deref(), "sweep")?;
    let pool = pool(args.batch.jobs)?;
    let started = Instant::now();
    let shard = args.batch.shard.unwrap_or(Shard::WHOLE);
    let tallies = pool.install(|| {
        super::simulate::batches(
            shard.games(count),
            || empty.clone(),
            |tallies: &mut Vec<Tally>, i| {
                let seed = game_seed(args.batch.seed, i);
                let mut seats = Vec::new();
                lineup(&bots, players, i, &mut seats);
                for (tally, variant) in tallies.iter_mut().zip(&variants) {
                    let result = play::<G>(variant, players, &seats, seed);
                    tally.add(i, &result);
                }
                Ok(())
            },
            |mut a, b| {
                sweep::merge(&mut a, &b);
                a
            },
        )
    })?;
    let run_sweep = SweepRun {
        axes: plain,
        figures,
    };
    let played = tallies.first().map_or(0, Tally::games) * tallies.len() as u64;
    let threads = pool.current_num_threads();
    if let Some(shard) = args.batch.shard {
        let mut run = run_of::<G>(players, count, args.batch.seed, &bots, &[base]);
        run.sweep = Some(run_sweep);
        write_partial(&Partial::new(run, shard, Tallied::Sweep(tallies)));
        throughput(played, started, threads);
        return Ok(Exit::Valid);
    }
    let report = sweep::report(
        G::NAME,
        G::TITLE,
        args.batch.seed,
        G::variant_info(base),
        &run_sweep,
        tallies,
    );
    if let Some(target) = &target {
        let scene = crate::render::sweep::report(&report, args.paper.into());
        super::render::write(&scene, target)?;
    }
    print_sweep(&report, args.format);
    throughput(played, started, threads);
    Ok(Exit::Valid)
}

fn throughput(played: u64, started: Instant, threads: usize) {
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "{played} games in {seconds:.2} s: {:.0} games per second on {threads} threads",
        played as f64 / seconds.max(1e-9),
    );
}

/// Prints a sweep as text or JSON: what the run with no shards prints, and
/// what `merge` prints.
pub(super) fn print_sweep(report: &Sweep, format: Format) {
    match format {
        Format::Text => print!("{}", crate::present::sweep::text(report)),
        Format::Json => println!("{}", crate::present::sweep::json(report)),
    }
}
