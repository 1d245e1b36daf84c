//! `sunfold analyse` and `sunfold hint`: a recorded match judged decision by
//! decision by the search bot, and the best decision for whoever must
//! decide now.

use super::batch::pool;
use super::error::CliError;
use super::game::{ForGame, Shown, dispatch};
use super::simulate::parse_bot;
use super::{Exit, Format};
use crate::game::Game;
use crate::log::{Fold, Line, Opened};
use crate::present::Present;
use crate::present::command as commands;
use crate::present::hint::{Hint, HintReport};
use crate::sim::analysis::{
    AnalysisReport, Decision, DecisionReport, Judged, PlayerSummary, judge,
};
use crate::sim::{Bot, Estimate, Searched, Searcher, Simulated};
use rayon::prelude::*;
use std::io::BufRead;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    pub file: PathBuf,
    /// The judging bot: search (64 rollouts) or search:N, N rollouts for the
    /// search and for each of the two decisions compared.
    #[arg(long, default_value = "search", value_parser = parse_bot)]
    pub bot: Bot,
    /// The seed of the rollouts: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads; every core if left out. The output is the same on any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The analysis as text, or as one JSON object (`sunfold schema analyse-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct HintArgs {
    pub file: PathBuf,
    /// The player to advise; everyone who must decide now if left out.
    pub player: Option<String>,
    /// The advising bot: search (64 rollouts) or search:N.
    #[arg(long, default_value = "search", value_parser = parse_bot)]
    pub bot: Bot,
    /// The seed of the rollouts: the same seed gives the same hint.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The hint as text, or as one JSON object (`sunfold schema hint-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The budget of a search bot, or why another bot cannot judge.
fn budget(bot: Bot) -> Result<u32, CliError> {
    match bot {
        Bot::Search(n) => Ok(n),
        other => Err(CliError::Usage(format!(
            "expected a search bot (search or search:N), but found {}",
            other.name()
        ))),
    }
}

pub fn analyse(args: AnalyseArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a AnalyseArgs, u32, rayon::ThreadPool);
    impl<R: BufRead> ForGame<R> for Run<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            analyse_game::<G, R>(self.0, self.1, &self.2, opened)
        }
    }
    let rollouts = budget(args.bot)?;
    let pool = pool(args.jobs)?;
    let opened = super::replay::open(&args.file, args.format)?;
    dispatch(opened, Run(&args, rollouts, pool))
}

/// A decision still standing in the log, with its line.
struct Recorded<G: Game> {
    line: usize,
    /// The seq of the event before it: `replay --at` that shows the state.
    before_seq: u64,
    decision: Decision<G::State, G::Action>,
    event: G::Event,
}

/// Every decision of a log that folds cleanly, undone ones left out.
fn decisions<G: Present, R: BufRead>(
    path: &Path,
    format: Format,
    opened: Opened<R>,
) -> Result<(Vec<Recorded<G>>, G::State), CliError> {
    let (first, terminated, mut lines) = opened.into_parts();
    let line = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    let (mut fold, _) = Fold::<G>::start(&line).map_err(|error| {
        super::replay::folding::<G>(path, format, crate::log::FoldError::Start(error))
    })?;
    let mut recorded: Vec<Recorded<G>> = Vec::new();
    let mut last_seq = 0;
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => return Err(CliError::io(path, error)),
        };
        let number = line.number;
        let before = fold.state().clone();
        let undone = fold.taken_back().len();
        match fold.feed_event(&line) {
            Ok((seq, event)) => {
                if let Some(event) = event
                    && let Some(seat) = G::actor(&before, &event)
                    && let Ok(action) = G::resolve(&before, &event)
                {
                    recorded.push(Recorded {
                        line: number,
                        before_seq: last_seq,
                        decision: Decision {
                            seq,
                            before,
                            seat,
                            action,
                        },
                        event,
                    });
                } else if fold.taken_back().len() > undone {
                    let taken = fold.taken_back().last().expect("just taken back").seq;
                    recorded.retain(|r| r.decision.seq != taken);
                }
                last_seq = seq;
            }
            Err(error) => {
                let fold = Box::new(fold);
                return Err(super::replay::folding::<G>(
                    path,
                    format,
                    crate::log::FoldError::Rejected { error, fold },
                ));
            }
        }
    }
    Ok((recorded, fold.into_state()))
}

fn estimate_text(e: &Estimate) -> String {
    format!("{:.1} [{:.1}, {:.1}]", e.estimate, e.ci95[0], e.ci95[1])
}

fn analyse_game<G: Present, R: BufRead>(
    args: &AnalyseArgs,
    rollouts: u32,
    pool: &rayon::ThreadPool,
    opened: Opened<R>,
) -> Result<Exit, CliError> {
    let report = report::<G, R>(&args.file, args.format, rollouts, args.seed, pool, opened)?;
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        ),
        Format::Text => print!("{}", analysis_text(&report)),
    }
    Ok(Exit::Valid)
}

/// The analysis of the log at `path`, opened as `opened`, by a search bot
/// with `rollouts` rollouts, seeded `seed`, on `pool`. A log that does not
/// fold is the located error `replay` gives.
pub(super) fn report<G: Present, R: BufRead>(
    path: &Path,
    format: Format,
    rollouts: u32,
    seed: u64,
    pool: &rayon::ThreadPool,
    opened: Opened<R>,
) -> Result<AnalysisReport, CliError> {
    let (recorded, end) = decisions::<G, R>(path, format, opened)?;
    let judged: Vec<_> = pool.install(|| {
        recorded
            .par_iter()
            .map_init(Searcher::<G>::new, |searcher, r| {
                judge::<G>(&r.decision, rollouts, seed, searcher)
            })
            .collect()
    });
    let names = G::player_names(&end);
    let file = commands::quote(&path.display().to_string());
    let decisions: Vec<DecisionReport> = recorded
        .iter()
        .zip(&judged)
        .map(|(r, j)| {
            let before = &r.decision.before;
            let best = G::describe_action(before, j.best);
            let judged = |said: String, e: &crate::sim::search::Evaluation| Judged {
                said,
                expected_score: e.score,
                expected_value: e.value,
                rollouts: e.rollouts,
            };
            let costly = j.lost.estimate > 0.0 && j.lost.excludes_zero();
            DecisionReport {
                seq: r.decision.seq,
                line: r.line,
                player: names[r.decision.seat].clone(),
                choices: j.choices,
                taken: judged(G::describe(&r.event), &j.taken),
                best: judged(G::describe(&best), &j.best_eval),
                points_lost: j.lost,
                costly,
                state_before: format!("sunfold replay {file} --at {}", r.before_seq),
            }
        })
        .collect();
    let players = names
        .iter()
        .map(|name| {
            let mine: Vec<&DecisionReport> =
                decisions.iter().filter(|d| &d.player == name).collect();
            let mut costliest: Vec<&&DecisionReport> = mine
                .iter()
                .filter(|d| d.points_lost.estimate > 0.0)
                .collect();
            costliest.sort_by(|a, b| {
                b.points_lost
                    .estimate
                    .total_cmp(&a.points_lost.estimate)
                    .then(a.seq.cmp(&b.seq))
            });
            PlayerSummary {
                player: name.clone(),
                decisions: mine.len(),
                points_lost: mine.iter().map(|d| d.points_lost.estimate.max(0.0)).sum(),
                costly: mine.iter().filter(|d| d.costly).count(),
                costliest: costliest.iter().take(3).map(|d| d.seq).collect(),
            }
        })
        .collect();
    Ok(AnalysisReport {
        file: path.display().to_string(),
        game: G::NAME.to_owned(),
        bot: Bot::Search(rollouts).name(),
        seed,
        rollouts,
        value: value_meaning::<G>().to_owned(),
        decisions,
        players,
    })
}

/// What a point of value is in `G`.
fn value_meaning<G: Game>() -> &'static str {
    if G::NAME == "summertime" {
        "lead"
    } else {
        "score"
    }
}

/// The analysis as text: the costly decisions, then each player's summary.
pub fn analysis_text(report: &AnalysisReport) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let lead = report.value == "lead";
    writeln!(
        out,
        "{}: {} decisions judged by {} (seed {}); points lost are {}, best minus taken on the same futures",
        report.file,
        report.decisions.len(),
        report.bot,
        report.seed,
        if lead {
            "points of lead over the other player"
        } else {
            "points of the player's own final score"
        }
    )
    .unwrap();
    let costly: Vec<&DecisionReport> = report.decisions.iter().filter(|d| d.costly).collect();
    if costly.is_empty() {
        writeln!(
            out,
            "\nno decision lost points beyond the noise of the rollouts"
        )
        .unwrap();
    } else {
        writeln!(
            out,
            "\ncostly decisions (the loss's 95% interval leaves out 0):"
        )
        .unwrap();
        for d in &costly {
            decision_text(&mut out, d);
        }
    }
    writeln!(out, "\nby player:").unwrap();
    for p in &report.players {
        writeln!(
            out,
            "  {}: {} decisions, {:.1} points lost, {} costly",
            p.player, p.decisions, p.points_lost, p.costly
        )
        .unwrap();
        for seq in &p.costliest {
            if let Some(d) = report.decisions.iter().find(|d| d.seq == *seq) {
                writeln!(
                    out,
                    "    event {} (line {}): {} lost {}; {}",
                    d.seq,
                    d.line,
                    d.taken.said,
                    estimate_text(&d.points_lost),
                    d.state_before
                )
                .unwrap();
            }
        }
    }
    out
}

fn decision_text(out: &mut String, d: &DecisionReport) {
    use std::fmt::Write;
    writeln!(
        out,
        "  line {}, event {}: {} (expected score {})",
        d.line,
        d.seq,
        d.taken.said,
        estimate_text(&d.taken.expected_score)
    )
    .unwrap();
    writeln!(
        out,
        "    better: {} (expected score {}); lost {} over {} rollouts each",
        d.best.said,
        estimate_text(&d.best.expected_score),
        estimate_text(&d.points_lost),
        d.best.rollouts
    )
    .unwrap();
}

pub fn hint(args: HintArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a HintArgs, u32);
    impl<R: BufRead> ForGame<R> for Run<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            hint_game::<G, R>(self.0, self.1, opened)
        }
    }
    let rollouts = budget(args.bot)?;
    let opened = super::replay::open(&args.file, args.format)?;
    dispatch(opened, Run(&args, rollouts))
}

fn hint_game<G: Present, R: BufRead>(
    args: &HintArgs,
    rollouts: u32,
    opened: Opened<R>,
) -> Result<Exit, CliError> {
    let path = &args.file;
    let fold = super::replay::fold::<G, _>(path, opened, None, args.format, &mut |_| {})?;
    let mut state = fold.state().clone();
    let names = G::player_names(&state);
    if let Some(ending) = G::ending(&state) {
        return Err(CliError::Usage(format!(
            "{}: expected a game in progress to give a hint for, but the game is over ({ending})",
            path.display()
        )));
    }
    let mut deciders = Vec::new();
    <G as Simulated>::deciders(&state, &mut deciders);
    if deciders.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: expected a player's decision to give a hint for, but the table waits for {}",
            path.display(),
            G::pending_lines(&state).join("; ")
        )));
    }
    if let Some(wanted) = &args.player {
        let Some(seat) = names.iter().position(|n| n == wanted) else {
            let suggestion = crate::suggest::closest(wanted, names.iter().map(String::as_str));
            return Err(CliError::Usage(format!(
                "expected a player of this game ({}), but found {wanted:?}{suggestion}",
                names.join(", ")
            )));
        };
        if !deciders.contains(&seat) {
            let now: Vec<&str> = deciders.iter().map(|&p| names[p].as_str()).collect();
            return Err(CliError::Usage(format!(
                "expected a player who must decide now ({}), but found {wanted}, who has nothing to decide",
                now.join(", ")
            )));
        }
        deciders = vec![seat];
    }
    let mut searcher = Searcher::<G>::new();
    let mut hints = Vec::new();
    for &seat in &deciders {
        let base = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seat as u64;
        searcher.search(&mut state, seat, rollouts, base);
        let chosen = searcher.candidates()[0];
        let event = G::describe_action(&state, chosen.action);
        let command = commands::grouped::<G>(path, &state, std::slice::from_ref(&event))
            .into_iter()
            .next()
            .and_then(|g| g.commands.into_iter().next());
        let mut options = Vec::new();
        <G as Simulated>::options(&state, seat, &mut options);
        let (expected_score, expected_value) = if chosen.rollouts() == 0 {
            // A single choice: nothing was played out.
            let total = <G as Simulated>::total(&state, seat) as f64;
            let value = <G as Searched>::value(&state, seat);
            let at = |x: f64| Estimate {
                estimate: x,
                ci95: [x, x],
            };
            (at(total), at(value))
        } else {
            (chosen.score.estimate(), chosen.value.estimate())
        };
        hints.push(Hint {
            player: names[seat].clone(),
            said: G::describe(&event),
            command,
            event,
            expected_score,
            expected_value,
            rollouts: chosen.rollouts(),
            choices: options.len(),
        });
    }
    match args.format {
        Format::Json => {
            let report = HintReport {
                file: path.display().to_string(),
                game: G::NAME.to_owned(),
                bot: args.bot.name(),
                seed: args.seed,
                hints,
            };
            println!(
                "{}",
                serde_json::to_string(&report).expect("reports serialize")
            );
        }
        Format::Text => {
            for h in &hints {
                let why = if h.rollouts == 0 {
                    "the only legal choice".to_owned()
                } else {
                    format!(
                        "expected final score {} over {} rollouts, best of {} choices",
                        estimate_text(&h.expected_score),
                        h.rollouts,
                        h.choices
                    )
                };
                println!("{}: {} ({why})", h.player, h.said);
                if let Some(command) = &h.command {
                    println!("  {command}");
                }
                println!(
                    "  sunfold append {} '{}'",
                    commands::quote(&path.display().to_string()),
                    serde_json::to_string(&h.event)
                        .expect("events serialize")
                        .replace('\'', r"'\''")
                );
            }
        }
    }
    Ok(Exit::Valid)
}
