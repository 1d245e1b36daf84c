//! The standings to pin up: every player's rank, points and every
//! tie-break, in the event's order, so that a player can see why they are
//! where they are.

use super::{Column, Flow};
use crate::event::{Standings, TieBreak};
use crate::render::scene::{Anchor, Document, Scene, Weight};
use crate::render::text::Fonts;
use crate::report::kit::style::plural;
use std::sync::Arc;

/// The standings of the event named `name`, laid out in `fonts`.
pub fn standings(fonts: &Arc<Fonts>, standings: &Standings, name: &str) -> Document {
    let order: Vec<&str> = (standings.tie_breaks.iter())
        .map(|t| match t {
            TieBreak::Buchholz => "opponents' points",
            TieBreak::BuchholzCut1 => "opponents' points but the lowest",
            t => t.name(),
        })
        .collect();
    let caption = format!(
        "{}: {} complete; ties broken by {}",
        standings.game,
        plural(u64::from(standings.rounds_complete), "round", "rounds"),
        order.join(", then ")
    );
    let mut flow = Flow::new(fonts, format!("{name}: standings"), caption);
    let column = |heading, width, anchor| Column {
        heading,
        width,
        anchor,
    };
    let cut = standings.tie_breaks.contains(&TieBreak::BuchholzCut1);
    let h2h = standings.tie_breaks.contains(&TieBreak::HeadToHead);
    // The player's column gives up the room of the optional ones.
    let player = 48.0 - if cut { 18.0 } else { 0.0 } - if h2h { 14.0 } else { 0.0 };
    let mut columns = vec![
        column("Rank", 12.0, Anchor::End),
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
        column("Draw", 22.0, Anchor::End),
        column("Played", 15.0, Anchor::End),
        column("Byes", 12.0, Anchor::End),
    ]);
    flow.repeated_headings(&columns);
    // The draw is the number the text and the JSON show, lowest first.
    for row in &standings.rows {
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
            row.draw.to_string(),
            row.played.to_string(),
            row.byes.to_string(),
        ]);
        flow.row(&columns, &cells, Weight::Regular);
    }
    let scene = Scene {
        title: format!("{name}: standings"),
        pages: flow.finish(),
    };
    Document::new(scene, fonts.clone())
}
