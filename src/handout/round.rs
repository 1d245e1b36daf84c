//! The papers of a round, in one document: the seating by table and by
//! name to pin up, a slip to stand on each table, and a result slip for
//! each table, the paper record of its scores.

use super::{BODY, Column, Flow};
use crate::event::seating::{Seating, SeatingTable};
use crate::event::{EventError, EventState};
use crate::render::scene::{Anchor, Canvas, Color, Document, Scene, Stroke, Weight};
use crate::render::text::Fonts;
use std::sync::Arc;

/// Two slips to a page: each half of the page's flow, less a gap.
const SLIP: f32 = 122.0;

/// The papers of round `round` (the last seated if `None`) of the event
/// named `name`, laid out in `fonts`.
pub fn round(
    fonts: &Arc<Fonts>,
    state: &EventState,
    name: &str,
    round: Option<u32>,
) -> Result<Document, EventError> {
    let seating = Seating::of(state, round)?;
    let round = seating.round;
    let game = state.setup.game.name();
    let title = format!("{name}: round {round} of {}", state.setup.rounds);
    let mut flow = Flow::new(
        fonts,
        title.clone(),
        format!(
            "{game}, {} table{}; seat 1 starts",
            seating.tables.len(),
            if seating.tables.len() == 1 { "" } else { "s" }
        ),
    );
    by_table(&mut flow, &seating);
    flow.break_page();
    by_name(&mut flow, &seating);
    flow.break_page();
    for (i, table) in seating.tables.iter().enumerate() {
        if i > 0 && i % 2 == 0 {
            flow.break_page();
        }
        flow.block(SLIP, |c, y| table_slip(c, fonts, y, &title, table));
    }
    flow.break_page();
    for (i, table) in seating.tables.iter().enumerate() {
        if i > 0 && i % 2 == 0 {
            flow.break_page();
        }
        flow.block(SLIP, |c, y| result_slip(c, fonts, y, &title, table));
    }
    let scene = Scene {
        title: format!("{title}: seating and slips"),
        pages: flow.finish(),
    };
    Ok(Document::new(scene, fonts.clone()))
}

fn by_table(flow: &mut Flow, seating: &Seating) {
    let columns = [
        Column {
            heading: "Seat",
            width: 20.0,
            anchor: Anchor::End,
        },
        Column {
            heading: "Player",
            width: 110.0,
            anchor: Anchor::Start,
        },
        Column {
            heading: "Id",
            width: 50.0,
            anchor: Anchor::Start,
        },
    ];
    flow.heading("Seating by table");
    for table in &seating.tables {
        flow.room(7.0 * (table.players.len() as f32 + 1.0) + 16.0);
        let bots: Vec<String> = (table.players.iter())
            .filter(|p| p.bot.is_some())
            .map(|p| p.seat.to_string())
            .collect();
        let heading = match &bots[..] {
            [] => format!("Table {}", table.table),
            [one] => format!("Table {}: a bot plays seat {one}", table.table),
            _ => format!("Table {}: bots play seats {}", table.table, bots.join(", ")),
        };
        flow.heading(&heading);
        flow.headings(&columns);
        for p in &table.players {
            let id = match &p.bot {
                Some(bot) => format!("bot: {bot}"),
                None => p.id.clone(),
            };
            flow.row(
                &columns,
                &[p.seat.to_string(), p.name.clone(), id],
                Weight::Regular,
            );
        }
    }
    let aside = [
        ("Sitting out (a bye, counted as a win)", &seating.bye),
        ("Not playing this round (no points)", &seating.out),
    ];
    for (heading, players) in aside {
        if !players.is_empty() {
            flow.heading(heading);
            for p in players {
                flow.row(
                    &columns,
                    &[String::new(), p.name.clone(), p.id.clone()],
                    Weight::Regular,
                );
            }
        }
    }
}

fn by_name(flow: &mut Flow, seating: &Seating) {
    let columns = [
        Column {
            heading: "Player",
            width: 110.0,
            anchor: Anchor::Start,
        },
        Column {
            heading: "Table",
            width: 35.0,
            anchor: Anchor::End,
        },
        Column {
            heading: "Seat",
            width: 35.0,
            anchor: Anchor::End,
        },
    ];
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for table in &seating.tables {
        for p in table.players.iter().filter(|p| p.bot.is_none()) {
            rows.push((p.name.clone(), table.table.to_string(), p.seat.to_string()));
        }
    }
    for p in &seating.bye {
        rows.push((p.name.clone(), "bye".to_owned(), String::new()));
    }
    for p in &seating.out {
        rows.push((p.name.clone(), "out".to_owned(), String::new()));
    }
    rows.sort_by(|a, b| (a.0.to_lowercase().cmp(&b.0.to_lowercase())).then_with(|| a.0.cmp(&b.0)));
    flow.heading("Seating by name");
    flow.headings(&columns);
    for (name, table, seat) in rows {
        flow.row(&columns, &[name, table, seat], Weight::Regular);
    }
}

/// A frame around a slip, dashed, to cut along.
fn frame(c: &mut Canvas, y: f32) {
    let width = Flow::width();
    c.rect(
        0.0,
        y,
        width,
        SLIP - 6.0,
        2.0,
        None,
        Some(Stroke::dashed(Color::GREY, 0.3, 2.0, 1.5)),
    );
}

#[allow(clippy::too_many_arguments)]
fn text(
    c: &mut Canvas,
    fonts: &Fonts,
    x: f32,
    y: f32,
    size: f32,
    width: f32,
    s: String,
    a: Anchor,
    w: Weight,
) {
    c.fit_text(fonts, x, y, size, width, s, a, w, Color::BLACK);
}

/// The slip that stands on a table: its number, large, and its players by
/// seat.
fn table_slip(c: &mut Canvas, fonts: &Fonts, y: f32, title: &str, table: &SeatingTable) {
    let width = Flow::width();
    frame(c, y);
    let middle = width / 2.0;
    let inner = width - 16.0;
    text(
        c,
        fonts,
        middle,
        y + 12.0,
        BODY,
        inner,
        title.to_owned(),
        Anchor::Middle,
        Weight::Regular,
    );
    text(
        c,
        fonts,
        middle,
        y + 38.0,
        22.0,
        inner,
        format!("Table {}", table.table),
        Anchor::Middle,
        Weight::Bold,
    );
    let size = if table.players.len() > 6 { 4.5 } else { 6.0 };
    let step = (60.0 / table.players.len().max(1) as f32).min(size * 1.6);
    for (i, p) in table.players.iter().enumerate() {
        text(
            c,
            fonts,
            middle,
            y + 52.0 + size + i as f32 * step,
            size,
            inner,
            format!("{}. {}", p.seat, p.name),
            Anchor::Middle,
            Weight::Regular,
        );
    }
    text(
        c,
        fonts,
        middle,
        y + SLIP - 12.0,
        BODY,
        inner,
        "Seat 1 starts.".to_owned(),
        Anchor::Middle,
        Weight::Regular,
    );
}

/// The result slip of a table: each seat's score and rank written by
/// hand, and signed.
fn result_slip(c: &mut Canvas, fonts: &Fonts, y: f32, title: &str, table: &SeatingTable) {
    let width = Flow::width();
    frame(c, y);
    let inner = width - 16.0;
    text(
        c,
        fonts,
        8.0,
        y + 10.0,
        5.0,
        inner,
        format!("Result slip: table {}", table.table),
        Anchor::Start,
        Weight::Bold,
    );
    text(
        c,
        fonts,
        8.0,
        y + 16.0,
        BODY,
        inner,
        title.to_owned(),
        Anchor::Start,
        Weight::Regular,
    );
    let heads = [
        ("Seat", 8.0),
        ("Player", 22.0),
        ("Score", 100.0),
        ("Rank", 125.0),
        ("Signature", 145.0),
    ];
    let top = y + 25.0;
    for (head, x) in heads {
        text(
            c,
            fonts,
            x,
            top,
            BODY,
            40.0,
            head.to_owned(),
            Anchor::Start,
            Weight::Bold,
        );
    }
    let step = (SLIP - 50.0) / table.players.len().max(1) as f32;
    let step = step.min(11.0);
    let rule = Stroke::solid(Color::BLACK, 0.3);
    for (i, p) in table.players.iter().enumerate() {
        let row = top + 4.0 + (i as f32 + 1.0) * step;
        text(
            c,
            fonts,
            8.0,
            row - 1.5,
            BODY,
            12.0,
            p.seat.to_string(),
            Anchor::Start,
            Weight::Regular,
        );
        text(
            c,
            fonts,
            22.0,
            row - 1.5,
            BODY,
            76.0,
            p.name.clone(),
            Anchor::Start,
            Weight::Regular,
        );
        c.line(100.0, row, 120.0, row, rule);
        c.line(125.0, row, 140.0, row, rule);
        c.line(145.0, row, width - 8.0, row, rule);
    }
    text(
        c,
        fonts,
        8.0,
        y + SLIP - 12.0,
        BODY,
        inner,
        "The result counts as the table's log gives it; this slip is its paper record.".to_owned(),
        Anchor::Start,
        Weight::Regular,
    );
}
