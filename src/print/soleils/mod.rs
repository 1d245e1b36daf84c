//! 62 Soleils on paper: the sheet, blank or filled from a game, and the
//! scored replay.
//!
//! Its files: [`sheet`] and [`replay`].

pub mod replay;
pub mod sheet;

use super::game::Drawn;
use crate::render::paper::Paper;
use crate::render::scene::{Document, Page};
use crate::render::text::Fonts;
use crate::soleils::{Soleils, State, score};
use std::sync::Arc;

impl Drawn for Soleils {
    const SECTION: &'static str = "round";
    /// A round starts with its roll.
    fn section(_: &State, after: &State) -> u64 {
        u64::from(after.round())
    }
    const WIDE: bool = false;
    type Layout = ();
    fn layout(_: &[State]) {}
    fn panels(
        fonts: &Fonts,
        _: &(),
        before: Option<&State>,
        state: &State,
        out: &mut dyn FnMut(usize, &str, Vec<Page>),
    ) {
        // A sheet shows its player's marks and score line, and the score
        // line holds the seashell majority, which others' marks move.
        let lines = score(state);
        let lines_before = before.map(score);
        for (p, player) in state.players().iter().enumerate() {
            let same = before.is_some_and(|b| b.players()[p] == *player)
                && lines_before.as_ref().is_some_and(|l| l[p] == lines[p]);
            if !same {
                out(p, &player.name, replay::viewer_sheet_in(fonts, state, p));
            }
        }
    }
    type Course = replay::Course;
    fn observe(course: &mut replay::Course, state: &State) {
        course.observe(state);
    }
    fn replay(
        fonts: &Arc<Fonts>,
        state: &State,
        course: replay::Course,
        paper: Paper,
        caption: &str,
    ) -> Document {
        let history = course.finish(state);
        replay::document(fonts, state, &history, paper, caption)
    }
}
