//! The standings to pin up: every player's rank, points and every
//! tie-break, in the event's order, so that a player can see why they are
//! where they are.

use super::{Column, Flow};
use crate::event::{Standings, TieBreak};
use crate::render::scene::{Anchor, Scene, Weight};

/// The standings of the event named `name`.
pub fn standings(standings: &Standings, name: &str) -> Scene {
    let order: Vec<&str> = (standings.tie_breaks.iter())
        .map(|t| match t {
            TieBreak::Buchholz => "opponents' points",
            TieBreak::BuchholzCut1 => "opponents' points but the lowest",
            t => t.name(),
        })
        .collect();
    let caption = format!(
        "{}: {} rounds complete; ties broken by {}",
        standings.game,
        standings.rounds_complete,
        order.join(", then ")
    );
    let mut flow = Flow::new(format!("{name}: standings"), caption);
    let column = |heading, width, anchor| Column {
        heading,
        width,
        anchor,
    };
    let cut = standings.tie_breaks.contains(&TieBreak::BuchholzCut1);
    let h2h = standings.tie_breaks.contains(&TieBreak::HeadToHead);
    // The player's column gives up the room of the optional ones.
    let player = 55.0 - if cut { 18.0 } else { 0.0 } - if h2h { 14.0 } else { 0.0 };
    let mut columns = vec![
        column("Rank", 13.0, Anchor::End),
        column("Player", player, Anchor::Start),
        column("Points", 17.0, Anchor::End),
        column("Score", 17.0, Anchor::End),
        column("Opp. pts", 20.0, Anchor::End),
    ];
    if cut {
        columns.push(column("Cut 1", 18.0, Anchor::End));
    }
    columns.push(column("Margin", 17.0, Anchor::End));
    if h2h {
        columns.push(column("H2H", 14.0, Anchor::End));
    }
    columns.extend([
        column("Draw", 14.0, Anchor::End),
        column("Played", 15.0, Anchor::End),
        column("Byes", 12.0, Anchor::End),
    ]);
    flow.repeated_headings(&columns);
    // The draw is shown as its place among the players, 1 first.
    let mut draws: Vec<u32> = standings.rows.iter().map(|r| r.draw).collect();
    draws.sort_unstable();
    for row in &standings.rows {
        let draw = draws.iter().position(|d| *d == row.draw).unwrap_or(0) + 1;
        let name = if row.dropped {
            format!("{} (dropped)", row.name)
        } else {
            row.name.clone()
        };
        let mut cells = vec![
            row.rank.to_string(),
            name,
            row.points.to_string(),
            row.score.to_string(),
            row.buchholz.to_string(),
        ];
        if cut {
            cells.push(row.buchholz_cut1.to_string());
        }
        cells.push(row.margin.to_string());
        if h2h {
            cells.push(row.head_to_head.to_string());
        }
        cells.extend([
            draw.to_string(),
            row.played.to_string(),
            row.byes.to_string(),
        ]);
        flow.row(&columns, &cells, Weight::Regular);
    }
    Scene {
        title: format!("{name}: standings"),
        pages: flow.finish(),
    }
}
