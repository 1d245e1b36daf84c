//! The ladder as text, one line per bot, strongest first, and as JSON
//! (`sunfold schema ladder-report`).

use crate::sim::Ladder;
use std::fmt::Write;

/// The ladder as one JSON object.
pub fn json(report: &Ladder) -> String {
    serde_json::to_string(report).expect("a ladder serializes")
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
        report.head.title, report.head.games, report.head.players, report.head.seed
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
