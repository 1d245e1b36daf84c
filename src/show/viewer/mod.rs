//! The HTML viewer of a log: each line's frame (what it did, in words,
//! and the scores after it), each state's panels drawn, and the line that
//! broke the log, if one did, handed to [`crate::show::viewer::page`] as one
//! page.
//!
//! The [`page`] draws it.

pub mod page;

use super::Shown;
use crate::log::{Change, Fold, FoldError, LogError, Opened, StepError};
use crate::present::Present;
use crate::present::json::rejected_alternatives;
use crate::workbench::analysis::AnalysisReport;
use page::{Analysis, Claim, Failure, Frame, Judged, Panels, Replay, html};
use std::io::BufRead;
use std::path::Path;

/// Why there is no viewer: the log cannot be read or started, or `at`
/// names no event of it.
pub enum ViewError<G: crate::kit::game::Game> {
    Fold(FoldError<G>),
    /// `at` is past the last event.
    NoSuchEvent {
        at: u64,
        last: u64,
    },
}

impl<G: crate::kit::game::Game> From<FoldError<G>> for ViewError<G> {
    fn from(error: FoldError<G>) -> Self {
        ViewError::Fold(error)
    }
}

/// A viewer, and the line that broke the log if one did.
pub struct Viewed<G: crate::kit::game::Game> {
    pub html: String,
    pub broken: Option<Broken<G>>,
}

/// The line that broke a log, with the fold standing just before it and
/// the legal alternatives to its event in words.
pub struct Broken<G: crate::kit::game::Game> {
    pub error: LogError<G>,
    pub fold: Fold<G>,
    pub alternatives: Vec<String>,
}

/// The viewer of the log at `path`, opened as `opened`, as one HTML page
/// opening at event `at` (or at the end, or at the first illegal line),
/// with the decisions of `analysis` marked. A log that breaks a rule still
/// gets its viewer, with the line that broke it.
pub fn viewer<G: Shown, R: BufRead>(
    path: &Path,
    opened: Opened<R>,
    at: Option<u64>,
    analysis: Option<AnalysisReport>,
) -> Result<Viewed<G>, ViewError<G>> {
    let mut steps = opened.steps::<G>().map_err(ViewError::Fold)?;
    let mut states = vec![steps.state().clone()];
    let start_text = match &steps.start().entry {
        crate::log::Entry::Game(event) => G::describe(event),
        crate::log::Entry::Meta(_) => String::new(),
    };
    let start = steps.state();
    let mut seen = vec![frame::<G>(start, start, 0, 1, "started", None, start_text)];
    while let Some(step) = steps.next() {
        let step = match step {
            Ok(step) => step,
            Err(error @ StepError::Io { .. }) => {
                return Err(ViewError::Fold(steps.into_error(error)));
            }
            Err(StepError::Rejected(error)) => {
                let fold = steps.into_fold();
                let (failure, alternatives) = failure::<G>(path, &fold, &error);
                let html = finish::<G>(path, &fold, states, seen, (Some(failure), at), analysis)?;
                let broken = Broken {
                    error,
                    fold,
                    alternatives,
                };
                return Ok(Viewed {
                    html,
                    broken: Some(broken),
                });
            }
        };
        let before = &step.before;
        let (kind, actor, text) = match &step.change {
            Change::Event(event) => (
                crate::kit::game::EventKind::kind(event).to_owned(),
                G::actor(before, event),
                G::describe(event),
            ),
            Change::Undone(taken) => (
                "undone".to_owned(),
                G::actor(before, &taken.event),
                format!("undid event {}: {}", taken.seq, G::describe(&taken.event)),
            ),
            Change::Claimed(scores) => {
                let said: Vec<String> = scores.iter().map(|(p, v)| format!("{p} {v}")).collect();
                (
                    "claimed".to_owned(),
                    None,
                    format!("scores claimed on paper: {}", said.join(", ")),
                )
            }
        };
        let posted = steps.fold_so_far().authored().last();
        let text = match posted.filter(|a| a.seq == step.seq) {
            Some(a) if a.by == crate::log::REFEREE => format!("{text} (posted by the referee)"),
            Some(a) if a.by == crate::log::DEALER => format!("{text} (made by the server)"),
            Some(a) => match crate::log::bot_author(&a.by) {
                Some(bot) => format!("{text} (decided by the bot {bot})"),
                None => format!("{text} (posted by {})", a.by),
            },
            None => text,
        };
        let state = steps.state();
        seen.push(frame::<G>(
            before, state, step.seq, step.line, &kind, actor, text,
        ));
        states.push(state.clone());
    }
    let fold = steps.into_fold();
    let html = finish::<G>(path, &fold, states, seen, (None, at), analysis)?;
    Ok(Viewed { html, broken: None })
}

/// The line that broke the log, as the viewer shows it, and the legal
/// alternatives to its event in words. `fold` stands just before the line.
fn failure<G: Shown>(path: &Path, fold: &Fold<G>, error: &LogError<G>) -> (Failure, Vec<String>) {
    let number = error.line;
    let seq = error.seq.unwrap_or(fold.events());
    let mut alternatives = rejected_alternatives::<G>(fold).unwrap_or_default();
    let cli_alternatives = alternatives.clone();
    // A line that did not decode has no alternatives of its own: what the
    // rules allowed there instead.
    let allowed = alternatives.is_empty();
    if allowed {
        let mut seen = std::collections::HashSet::new();
        alternatives = G::legal_events(fold.state())
            .iter()
            .map(G::describe)
            .filter(|d| seen.insert(d.clone()))
            .collect();
    }
    let (heading, hint) = match &error.error {
        crate::log::ReplayError::Decode(crate::log::DecodeError::TornLine { .. }) => (
            format!("Line {number} is torn"),
            Some(format!(
                "A crash in the middle of a write leaves a torn last line: sunfold repair {} removes it, keeping it in a .torn file.",
                path.display()
            )),
        ),
        crate::log::ReplayError::Decode(_) => (format!("Line {number} cannot be read"), None),
        _ => (format!("The log breaks a rule at line {number}"), None),
    };
    let failure = Failure {
        line: number,
        seq,
        kind: error.kind.clone(),
        message: format!("{}:{error}", path.display()),
        reason: error.error.to_string(),
        heading,
        hint,
        actor: fold.rejected().and_then(|e| G::actor(fold.state(), e)),
        alternatives,
        allowed,
    };
    (failure, cli_alternatives)
}

fn frame<G: Shown>(
    before: &G::State,
    state: &G::State,
    seq: u64,
    line: usize,
    kind: &str,
    actor: Option<usize>,
    text: String,
) -> Frame {
    Frame {
        seq,
        line,
        kind: kind.to_owned(),
        actor,
        text,
        status: status::<G>(state),
        section: G::section(before, state),
        scores: G::totals(state).into_iter().map(|(_, v)| v).collect(),
        undone_by: None,
    }
}

/// Where the game stands, and whom it waits for.
fn status<G: Present>(state: &G::State) -> String {
    let progress = G::progress(state);
    let pending = G::pending_lines(state);
    match pending.len() {
        0 => progress,
        1..=3 => format!("{progress}; waiting for {}", pending.join("; ")),
        n => format!("{progress}; waiting for {n} players"),
    }
}

fn finish<G: Shown>(
    path: &Path,
    fold: &Fold<G>,
    states: Vec<G::State>,
    mut frames: Vec<Frame>,
    (failure, at): (Option<Failure>, Option<u64>),
    analysis: Option<AnalysisReport>,
) -> Result<String, ViewError<G>> {
    for taken in fold.taken_back() {
        if let Some(frame) = frames.iter_mut().find(|f| f.seq == taken.seq) {
            frame.undone_by = Some(taken.by);
        }
    }
    let start = match at {
        Some(at) => match frames.iter().position(|f| f.seq == at) {
            Some(i) => i,
            // The illegal line, by the seq it carries.
            None if failure.as_ref().is_some_and(|f| f.seq == at) => frames.len(),
            None => {
                let last = frames.last().map_or(0, |f| f.seq);
                return Err(ViewError::NoSuchEvent { at, last });
            }
        },
        // The illegal line, after the last event, or the end.
        None => frames.len() - usize::from(failure.is_none()),
    };
    let players = G::player_names(&states[0]);
    let claims = fold
        .claims()
        .iter()
        .filter_map(|(seq, claimed)| {
            let frame = frames.iter().position(|f| f.seq == *seq)?;
            let scores = &frames[frame].scores;
            let players = players
                .iter()
                .zip(scores)
                .map(|(name, &computed)| {
                    claimed.get(name).map(|&c| {
                        let verdict = if c == computed {
                            "agrees".to_owned()
                        } else {
                            format!("computed {computed}, differs by {:+}", computed - c)
                        };
                        (c, verdict)
                    })
                })
                .collect();
            Some(Claim { frame, players })
        })
        .collect();
    let layout = G::layout(&states);
    let fonts = crate::render::text::Fonts::builtin();
    let mut panels = Panels::new(fonts.clone());
    G::panels(fonts, &layout, None, &states[0], &mut |_, name, pages| {
        panels.add(name, &pages);
    });
    for pair in states.windows(2) {
        panels.next_event();
        G::panels(
            fonts,
            &layout,
            Some(&pair[0]),
            &pair[1],
            &mut |p, _, pages| panels.draw(p, &pages),
        );
    }
    let name = match G::NAME {
        "soleils" => "62 Soleils d'été",
        _ => "Summertime",
    };
    let events = fold.events();
    let chain = match fold.chained() {
        Some(true) => format!("chained: all {} hashes verified", events - 1),
        Some(false) => "not chained: no hash chain, so no tamper evidence".to_owned(),
        None => "chained: nothing to verify yet".to_owned(),
    };
    let analysis = analysis.map(|report| judged(report, &frames));
    let replay = Replay {
        title: format!("{name}: replay of {}", file_name(path)),
        caption: format!("{}", path.display()),
        chain,
        section_name: G::SECTION,
        players,
        frames,
        panels,
        wide: G::WIDE,
        claims,
        failure,
        start,
        analysis,
    };
    Ok(html(&replay))
}

/// The decisions of `report` that lost points, each at its frame.
fn judged(report: AnalysisReport, frames: &[Frame]) -> Analysis {
    let judged = report
        .decisions
        .iter()
        .filter_map(|d| {
            let lost = d.points_lost.filter(|e| e.estimate > 0.0)?;
            let frame = frames.iter().position(|f| f.seq == d.seq)?;
            Some(Judged {
                frame,
                best: d.best.said.clone(),
                taken_score: d.taken.expected_score.estimate,
                best_score: d.best.expected_score.estimate,
                lost: lost.estimate,
                lost_ci95: lost.ci95,
                costly: d.costly,
            })
        })
        .collect();
    Analysis {
        bot: report.bot,
        seed: report.seed,
        value: report.value,
        decisions: report.decisions.len(),
        judged,
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
