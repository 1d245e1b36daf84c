//! The ladder as text, one line per bot, strongest first, and as JSON
//! (`sunfold schema ladder-report`).

use crate::report::kit::style::plural;
use crate::stats::Estimate;
use crate::workbench::{Exact, FEW, Figure, Ladder, Record, Rung};
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

/// A figure's interval, `[low, high]` with `show`, or in words when it
/// has no width.
pub fn spread(e: &Figure, show: impl Fn(f64) -> String) -> String {
    match e.exact {
        Some(Exact::Anchor) => "anchor".to_owned(),
        Some(Exact::SameInEveryGame) => "the same in every game".to_owned(),
        None => format!("[{}, {}]", show(e.ci95[0]), show(e.ci95[1])),
    }
}

/// Each rating gap between neighbouring rated bots, in the order of the
/// ladder: "search:4 − greedy: +131 [+103, +166]".
pub fn gaps(report: &Ladder) -> Vec<String> {
    let signed = |v: f64| format!("{v:+.0}");
    (report.gaps.iter())
        .map(|g| {
            let e = &g.rating_gap;
            format!(
                "{} − {}: {} {}",
                g.stronger,
                g.weaker,
                signed(e.estimate),
                spread(e, signed)
            )
        })
        .collect()
}

/// What the gaps between neighbours are, in a sentence.
pub const GAPS_NOTE: &str = "each rated bot's rating minus the next one's, with the 95% interval of that difference over the same bootstrap refits: the refits draw the same games for both, so the gap is told apart from 0 when its interval leaves 0 out, even where the two ratings' intervals overlap";

/// Why a bot has no rating, in a few words; `None` when it has one.
pub fn unrated(record: Record) -> Option<&'static str> {
    match record {
        Record::WinsAndLosses => None,
        Record::NeverWon => Some("never won"),
        Record::NeverLost => Some("never lost"),
        Record::NoMatches => Some("met no rated bot"),
    }
}

/// What a rating on few wins or losses rests on: "1 loss", "3 wins",
/// "2 wins, 4 losses".
pub fn few(r: &Rung) -> Option<String> {
    if !r.few {
        return None;
    }
    let count = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let wins = count(r.wins, "win", "wins");
    let losses = count(r.losses, "loss", "losses");
    Some(match (r.wins < FEW, r.losses < FEW) {
        (true, true) => format!("{wins}, {losses}"),
        (true, false) => wins,
        _ => losses,
    })
}

/// Each bot whose rating rests on few wins or losses, with what it rests
/// on ([`few`]), in the order of the ladder.
pub fn thin(report: &Ladder) -> Vec<(&str, String)> {
    (report.rungs.iter())
        .filter_map(|r| few(r).map(|few| (r.bot.as_str(), few)))
        .collect()
}

/// A rung's rating: the value and its interval, `0 (anchor)` for the
/// anchor, or why it has none; with what it rests on when that is few
/// wins or losses.
fn rating(report: &Ladder, r: &Rung) -> String {
    let few = few(r);
    let on = few
        .as_ref()
        .map(|few| format!(" (on {few})"))
        .unwrap_or_default();
    match (r.rating, unrated(r.record)) {
        (_, Some(why)) => format!("none: {why}"),
        _ if report.anchor.as_deref() == Some(r.bot.as_str()) => match few {
            Some(few) => format!("0 (anchor, on {few})"),
            None => "0 (anchor)".to_owned(),
        },
        (Some(e), None) => format!(
            "{:+.0} {}{on}",
            e.estimate,
            spread(&e, |v| format!("{v:+.0}"))
        ),
        (None, None) => "none".to_owned(),
    }
}

/// Which bot is the anchor, and why that one.
pub fn anchored(report: &Ladder) -> Option<String> {
    let anchor = report.anchor.as_deref()?;
    let random = report.rungs.iter().find(|r| r.bot == "random");
    let which = match random {
        Some(r) if r.bot == anchor => String::new(),
        Some(r) => format!(
            ", the weakest rated bot, as random {}",
            unrated(r.record).unwrap_or("has no rating")
        ),
        None => ", the weakest rated bot, as random does not play".to_owned(),
    };
    Some(format!(
        "the anchor of the scale is {anchor}{which}: every rating is a distance from {anchor}, rated 0"
    ))
}

/// The ladder as text: one line per bot, strongest first.
pub fn text(report: &Ladder) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{}: ladder of {}, {}, seats rotate; seed {}",
        report.head.title,
        plural(report.head.games, "game", "games"),
        plural(report.head.players as u64, "player", "players"),
        report.head.seed
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
            "{line}  {:>6.2} {}",
            r.mean_score.estimate,
            spread(&r.mean_score, |v| format!("{v:.2}")),
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
    if let Some(anchored) = anchored(report) {
        writeln!(out, "\n{anchored}").unwrap();
    }
    let thin: Vec<String> = (thin(report).into_iter())
        .map(|(bot, few)| format!("{bot} on {few}"))
        .collect();
    if !thin.is_empty() {
        writeln!(
            out,
            "a rating on fewer than {FEW} wins or {FEW} losses against the rated others, ties aside ({}): the fitting prior still moves it much, so it says which side of the others a bot is on, not how far",
            thin.join(", ")
        )
        .unwrap();
    }
    let gaps = gaps(report);
    if !gaps.is_empty() {
        writeln!(out, "\ngaps between neighbours ({GAPS_NOTE}):").unwrap();
        for gap in gaps {
            writeln!(out, "  {gap}").unwrap();
        }
    }
    let s = &report.skill;
    writeln!(
        out,
        "\nskill against luck: {} beats {} in {} of their matches; mean score gap {:+.2} {}",
        s.strongest,
        s.weakest,
        percent(&s.win_share).trim(),
        s.score_gap.estimate,
        spread(&s.score_gap, |v| format!("{v:+.2}"))
    )
    .unwrap();
    out
}
