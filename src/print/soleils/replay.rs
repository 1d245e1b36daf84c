//! A scored 62 Soleils replay: each player's filled sheet, drawn by the same
//! code as the blank sheet, then a summary page with the score breakdown and
//! the sun totals and scores round by round.

use super::sheet::{self, Filled, HEIGHT, WIDTH};
use crate::render::chart::{Series, line_chart};
use crate::render::paper::{Paper, impose};
use crate::render::scene::{
    Anchor, Canvas, Color, Document, Draw, Frame, Page, Scene, Stroke, Weight,
};
use crate::render::text::Fonts;
use crate::soleils::{State, score};
use std::sync::Arc;

/// One player's sun total and score at the end of a round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundPoint {
    pub sun: u16,
    pub score: u32,
}

/// What each round ended with, per player: `rounds[r][p]`.
pub type History = Vec<Vec<RoundPoint>>;

/// The course of a game as a scored replay charts it, gathered state by
/// state: a point when every player has finished a round, and one for
/// the round in progress at the end.
#[derive(Debug, Default)]
pub struct Course {
    points: History,
    last_round: u16,
}

impl Course {
    /// Keeps what the chart needs from `state`, the state after one more
    /// event.
    pub fn observe(&mut self, state: &State) {
        if state.round() > 0 && state.round_closed() && state.round() != self.last_round {
            self.last_round = state.round();
            self.points.push(round_points(state));
        }
    }

    /// The points of every round, ending with `state`, the last state.
    pub fn finish(self, state: &State) -> History {
        let mut points = self.points;
        if !state.round_closed() {
            points.push(round_points(state));
        }
        points
    }
}

/// The history point of the state now, for every player.
pub fn round_points(state: &State) -> Vec<RoundPoint> {
    let lines = score(state);
    state
        .players()
        .iter()
        .zip(lines)
        .map(|(p, l)| RoundPoint {
            sun: p.sun_total,
            score: l.total,
        })
        .collect()
}

/// The scored replay of `state`: every player's filled sheet, then the
/// score breakdown and the course of the game round by round, laid out in
/// `fonts`.
pub fn document(
    fonts: &Arc<Fonts>,
    state: &State,
    history: &History,
    paper: Paper,
    caption: &str,
) -> Document {
    let measure: &Fonts = fonts;
    let mut pieces: Vec<Draw> = Vec::new();
    for player in 0..state.players().len() {
        let options = sheet::Options {
            name: None,
            large: false,
        };
        pieces.extend(sheet::pages_in(
            measure,
            state.template(),
            options,
            Some(Filled { state, player }),
        ));
    }
    pieces.push(Box::new(move |c: &mut Canvas| {
        summary(c, measure, state, history, caption)
    }));
    let scene = Scene {
        title: format!("{} — scored replay", state.template().name()),
        pages: impose(paper, 1, (WIDTH, HEIGHT), pieces),
    };
    Document::new(scene, fonts.clone())
}

/// One player's sheet as the HTML viewer shows it, in the built-in fonts:
/// [`viewer_sheet_in`] with [`Fonts::builtin`].
pub fn viewer_sheet(state: &State, player: usize) -> Vec<Page> {
    viewer_sheet_in(Fonts::builtin(), state, player)
}

/// One player's sheet as the HTML viewer shows it: the sheet's pages,
/// filled from `state` and laid out in `fonts`, each with a margin around
/// it.
pub fn viewer_sheet_in(fonts: &Fonts, state: &State, player: usize) -> Vec<Page> {
    const MARGIN: f32 = 5.0;
    let options = sheet::Options {
        name: None,
        large: false,
    };
    sheet::pages_in(
        fonts,
        state.template(),
        options,
        Some(Filled { state, player }),
    )
    .into_iter()
    .map(|draw| framed(&draw, (WIDTH, HEIGHT), MARGIN))
    .collect()
}

/// A drawing of `width` × `height` on a page with `margin` around it.
fn framed(draw: &Draw<'_>, (width, height): (f32, f32), margin: f32) -> Page {
    let mut items = Vec::new();
    draw(&mut Canvas {
        items: &mut items,
        frame: Frame {
            scale: 1.0,
            dx: margin,
            dy: margin,
        },
    });
    Page {
        width: width + 2.0 * margin,
        height: height + 2.0 * margin,
        items,
    }
}

/// One player's sheet as a phone shows it, in the built-in fonts: the
/// zones stacked in one column on one page ([`sheet::phone_page`]), with a
/// margin around it.
pub fn phone_sheet(state: &State, player: usize) -> Page {
    const MARGIN: f32 = 3.0;
    let fonts = Fonts::builtin();
    let (draw, height) = sheet::phone_page(fonts, state.template(), Filled { state, player });
    framed(&draw, (sheet::PHONE_WIDTH, height), MARGIN)
}

fn summary(c: &mut Canvas, fonts: &Fonts, state: &State, history: &History, caption: &str) {
    let status = match state.ended() {
        Some(reason) => format!("Round {}: game over, {reason}.", state.round()),
        None => format!("Round {}, in progress.", state.round()),
    };
    c.heading(
        fonts,
        WIDTH,
        "Score and course of the game",
        caption,
        &status,
    );
    // The breakdown table.
    let lines = score(state);
    let headers = [
        "Player", "Sun", "Flags", "Groups", "Pearls", "Shells", "Majority", "Total", "Rank",
    ];
    let widths = [54.0, 16.0, 16.0, 17.0, 17.0, 17.0, 19.0, 17.0, 17.0];
    let row_h = 6.0;
    let top = 25.0;
    let rows = lines.len() + 1;
    let table_h = rows as f32 * row_h;
    c.rect(
        0.0,
        top,
        WIDTH,
        table_h,
        1.0,
        None,
        Some(Stroke::solid(Color::BLACK, 0.3)),
    );
    c.rect(0.0, top, WIDTH, row_h, 1.0, Some(Color::LIGHT), None);
    let mut x = 0.0;
    for (i, header) in headers.iter().enumerate() {
        let anchor_x = if i == 0 { x + 2.0 } else { x + widths[i] - 2.0 };
        let anchor = if i == 0 { Anchor::Start } else { Anchor::End };
        c.text(
            anchor_x,
            top + 4.3,
            3.2,
            *header,
            anchor,
            Weight::Bold,
            Color::BLACK,
        );
        x += widths[i];
    }
    for (r, line) in lines.iter().enumerate() {
        let y = top + (r + 1) as f32 * row_h;
        c.line(0.0, y, WIDTH, y, Stroke::solid(Color::LIGHT, 0.2));
        let cells = [
            line.player.clone(),
            line.sun.to_string(),
            line.flags.to_string(),
            line.groups.to_string(),
            line.pearls.to_string(),
            line.seashells.to_string(),
            line.seashell_majority.to_string(),
            line.total.to_string(),
            line.rank.to_string(),
        ];
        let mut x = 0.0;
        for (i, cell) in cells.iter().enumerate() {
            let weight = if i == 7 {
                Weight::Bold
            } else {
                Weight::Regular
            };
            if i == 0 {
                c.fit_text(
                    fonts,
                    x + 2.0,
                    y + 4.3,
                    3.2,
                    widths[0] - 4.0,
                    cell.clone(),
                    Anchor::Start,
                    weight,
                    Color::BLACK,
                );
            } else {
                c.text(
                    x + widths[i] - 2.0,
                    y + 4.3,
                    3.2,
                    cell.clone(),
                    Anchor::End,
                    weight,
                    Color::BLACK,
                );
            }
            x += widths[i];
        }
    }
    let names: Vec<&str> = state.players().iter().map(|p| p.name.as_str()).collect();
    let series = |value: &dyn Fn(&RoundPoint) -> f32| -> Vec<Series> {
        names
            .iter()
            .enumerate()
            .map(|(p, name)| Series {
                label: name,
                values: history.iter().map(|round| value(&round[p])).collect(),
            })
            .collect()
    };
    let chart_top = top + table_h + 8.0;
    let room = HEIGHT - chart_top;
    let limit = f32::from(state.template().sun_limit());
    let sun_max = history
        .iter()
        .flatten()
        .map(|p| f32::from(p.sun))
        .fold(limit, f32::max);
    let score_max = history
        .iter()
        .flatten()
        .map(|p| p.score as f32)
        .fold(10.0, f32::max);
    line_chart(
        c,
        fonts,
        (0.0, chart_top, WIDTH, room / 2.0 - 3.0),
        "Sun total after each round",
        "round",
        &series(&|p| f32::from(p.sun)),
        sun_max,
    );
    line_chart(
        c,
        fonts,
        (0.0, chart_top + room / 2.0, WIDTH, room / 2.0 - 3.0),
        "Score after each round",
        "round",
        &series(&|p| p.score as f32),
        score_max,
    );
}
