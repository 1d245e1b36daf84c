//! The ladder as text, one line per bot, strongest first, and as JSON
//! (`sunfold schema ladder-report`).

use crate::stats::Estimate;
use crate::workbench::{Ladder, Record, Rung};
use std::fmt::Write;

/// The ladder as one JSON object.
pub fn json(report: &Ladder) -> String {
    serde_json::to_string(report).expect("a ladder serializes")
}

fn percent(e: &Estimate) -> String {
    format!(
        "{:5.1}% [{:.1}, {:.1}]",
        100.0 * e.estimate,
        100.0 * e.ci95[0].max(0.0),
        100.0 * e.ci95[1].min(1.0)
    )
}

/// Why a bot has no rating, in a few words; `None` when it has one.
pub fn unrated(record: Record) -> Option<&'static str> {
    match record {
        Record::WinsAndLosses => None,
        Record::NeverWon => Some("never won"),
        Record::NeverLost => Some("never lost"),
        Record::NoMatches => Some("met no rated bot"),
    }
}

/// A rung's rating: the value and its interval, `0 (anchor)` for the
/// anchor, or why it has none.
fn rating(report: &Ladder, r: &Rung) -> String {
    match (r.rating, unrated(r.record)) {
        (_, Some(why)) => format!("none: {why}"),
        _ if report.anchor.as_deref() == Some(r.bot.as_str()) => "0 (anchor)".to_owned(),
        (Some(e), None) => format!("{:+.0} [{:+.0}, {:+.0}]", e.estimate, e.ci95[0], e.ci95[1]),
        (None, None) => "none".to_owned(),
    }
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
    match &report.anchor {
        Some(anchor) => writeln!(
            out,
            "rating: Bradley–Terry on the Elo scale, {anchor} = 0, 95% bootstrap interval;"
        ),
        None => writeln!(
            out,
            "rating: Bradley–Terry on the Elo scale; no bot won and lost against the others, so none has a rating;"
        ),
    }
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
    // With two players a game is one match: the win rate is the matches'.
    let two = report.head.players == 2;
    let several = report.rungs.iter().any(|r| r.seats != r.games);
    let ratings: Vec<String> = report.rungs.iter().map(|r| rating(report, r)).collect();
    let rating_w = ratings.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let rating_w = rating_w.max(6);
    let mut head = format!("\n  {:<width$}  {:>5}", "bot", "games");
    if several {
        write!(head, "  {:>5}", "seats").unwrap();
    }
    write!(head, "  {:>rating_w$}", "rating").unwrap();
    if two {
        write!(head, "  {:>21}", "games won").unwrap();
    } else {
        write!(head, "  {:>21}  {:>21}", "win rate per seat", "matches won").unwrap();
    }
    writeln!(out, "{head}  {:>20}", "mean score").unwrap();
    for (r, rated) in report.rungs.iter().zip(&ratings) {
        let mut line = format!("  {:<width$}  {:>5}", r.bot, r.games);
        if several {
            write!(line, "  {:>5}", r.seats).unwrap();
        }
        write!(line, "  {rated:>rating_w$}").unwrap();
        if two {
            write!(line, "  {:>21}", percent(&r.match_share)).unwrap();
        } else {
            write!(
                line,
                "  {:>21}  {:>21}",
                percent(&r.win_rate),
                percent(&r.match_share)
            )
            .unwrap();
        }
        writeln!(
            out,
            "{line}  {:>6.2} [{:.2}, {:.2}]",
            r.mean_score.estimate, r.mean_score.ci95[0], r.mean_score.ci95[1],
        )
        .unwrap();
    }
    let set_aside: Vec<&Rung> = report
        .rungs
        .iter()
        .filter(|r| r.record != Record::WinsAndLosses)
        .collect();
    if !set_aside.is_empty() {
        let names: Vec<String> = set_aside
            .iter()
            .map(|r| format!("{} {}", r.bot, unrated(r.record).unwrap_or("")))
            .collect();
        writeln!(
            out,
            "\nno rating for a bot that never won or never lost against the rated others, ties aside ({}): its rating would rest on the fitting prior, not on its games; the others are rated without its matches",
            names.join(", ")
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
