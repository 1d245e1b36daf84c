//! Summertime on paper: the print-and-play cards, the table as the HTML
//! viewer shows it, and the scored replay.
//!
//! Its files: [`cards`] (faces, backs, closing cards, tiles), [`layout`]
//! (print-and-play sheets, or a page a piece for a card printer),
//! [`pictogram`] and [`item_pictogram`] (the pictures of cards and items),
//! [`table`] (the grid the viewer shows), [`replay`].

pub mod cards;
pub mod item_pictogram;
pub mod layout;
pub mod pictogram;
pub mod replay;
pub mod table;

use super::game::Drawn;
use crate::render::paper::Paper;
use crate::render::scene::{Document, Page};
use crate::render::text::Fonts;
use crate::summertime::{Phase, State, Summertime};
use std::sync::Arc;

impl Drawn for Summertime {
    const SECTION: &'static str = "turn";
    /// A turn's events, from its first decision to its end: the turn
    /// under way before each.
    fn section(before: &State, _: &State) -> u64 {
        match before.phase() {
            Phase::Turn { bought: true, .. } => before.turns().len() as u64,
            _ => before.turns().len() as u64 + 1,
        }
    }
    const WIDE: bool = true;
    type Layout = table::Window;
    fn layout(states: &[State]) -> table::Window {
        table::window(states.iter().flat_map(|s| s.grid().keys()))
    }
    fn panels(
        fonts: &Fonts,
        window: &table::Window,
        _: Option<&State>,
        state: &State,
        out: &mut dyn FnMut(usize, &str, Vec<Page>),
    ) {
        out(
            0,
            "The table",
            vec![table::page_in(fonts, state, *window, None)],
        );
    }
    type Course = ();
    fn observe(_: &mut (), _: &State) {}
    fn replay(fonts: &Arc<Fonts>, state: &State, _: (), paper: Paper, caption: &str) -> Document {
        replay::document(fonts, state, paper, caption)
    }
}
