//! The first page's heading: the title, the batch, what the differences
//! say, and the variants, with what B changes of A.

use crate::bots::VariantInfo;
use crate::render::scene::{Anchor, Canvas, Color, Weight};
use crate::render::text::Fonts;
use crate::report::kit::style::{Font, NOTE, font, plural, swatch, wrap, write};
use crate::workbench::Report;

fn bots(report: &Report) -> String {
    match report.bots.first() {
        Some(first) if report.bots.iter().all(|b| b == first) => {
            format!(
                "{} {first} bot{}",
                report.bots.len(),
                if report.bots.len() == 1 { "" } else { "s" }
            )
        }
        _ if report.rotated => format!(
            "bots {}, turning one seat each game",
            report.bots.join(", ")
        ),
        _ => format!("bots by seat: {}", report.bots.join(", ")),
    }
}

/// The heading's status line of a comparison.
fn status(report: &Report) -> String {
    let with = report
        .rows
        .iter()
        .filter(|r| r.difference.is_some())
        .count();
    let significant = report.rows.iter().filter(|r| r.significant()).count();
    let single = report.rows.len() - with;
    let mut status = if significant == 0 {
        format!("No difference is significant after Holm's correction over {with} figures.")
    } else {
        format!(
            "{significant} of {with} differences are significant after Holm's correction (a 5% chance of any false alarm)."
        )
    };
    if single > 0 {
        let figures = plural(single as u64, "figure", "figures");
        status.push_str(&format!(" {figures} only one variant has."));
    }
    status
}

/// Draws the heading and the variants; returns where they end.
pub(super) fn front(c: &mut Canvas, width: f32, report: &Report) -> f32 {
    let players = plural(report.head.players as u64, "player", "players");
    let (title, caption, status) = match &report.b {
        Some(_) => (
            format!("{}: comparison", report.head.title),
            format!(
                "{} of {players}, seed {}, {}: game i of A and of B sees the same luck.",
                plural(report.head.games, "paired game", "paired games"),
                report.head.seed,
                bots(report)
            ),
            status(report),
        ),
        None => (
            format!("{}: simulation", report.head.title),
            format!(
                "{} of {players}, seed {}, {}.",
                plural(report.head.games, "game", "games"),
                report.head.seed,
                bots(report)
            ),
            "Each figure is a mean per game, with its 95% confidence interval.".to_owned(),
        ),
    };
    c.heading(Fonts::builtin(), width, &title, &caption, &status);
    let mut y = 27.5;
    let indent = 12.0;
    let wide = width - indent;
    let name = font(3.0, Weight::Regular, Color::BLACK);
    let variant = |c: &mut Canvas, y: &mut f32, which: &str, info: &VariantInfo, b: bool| {
        swatch(c, 0.0, *y - 2.9, 5.0, 3.4, b);
        let bold = Font {
            weight: Weight::Bold,
            ..name
        };
        write(c, (6.5, *y), indent - 6.5, bold, Anchor::Start, which);
        for line in wrap(&info.to_string(), name, wide, 3) {
            write(c, (indent, *y), wide, name, Anchor::Start, line);
            *y += 4.0;
        }
    };
    variant(c, &mut y, "A", &report.a, false);
    if let Some(b) = &report.b {
        variant(c, &mut y, "B", b, true);
        for line in wrap(&changes(&report.a, b), NOTE, wide, 3) {
            write(c, (indent, y), wide, NOTE, Anchor::Start, line);
            y += 3.6;
        }
    }
    y
}

/// What B changes of A, in words.
fn changes(a: &VariantInfo, b: &VariantInfo) -> String {
    let mut parts = Vec::new();
    if a.kind != b.kind || a.name != b.name || a.source != b.source {
        parts.push(format!(
            "the {} {:?} ({}) instead of {:?} ({})",
            b.kind, b.name, b.source, a.name, a.source
        ));
    }
    for (k, v) in &b.options {
        match a.options.iter().find(|(ka, _)| ka == k) {
            Some((_, va)) if va == v => {}
            Some((_, va)) => parts.push(format!("{k}={v} instead of {va}")),
            None => parts.push(format!("{k}={v}, which A does not have")),
        }
    }
    for (k, va) in &a.options {
        if !b.options.iter().any(|(kb, _)| kb == k) {
            parts.push(format!("no {k} (A: {va})"));
        }
    }
    if parts.is_empty() {
        "B is the same variant as A, so every difference is 0.".to_owned()
    } else {
        format!("B plays {}.", parts.join("; "))
    }
}
