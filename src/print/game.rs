//! A game on paper and on screen: what the scored replay and the HTML
//! viewer need of each game, written once per game in its own folder
//! ([`super::soleils`], [`super::summertime`]).
//!
//! This is the drawing half of what `present::Present` is in words. It
//! stands on the rules alone ([`crate::kit::game::Game`]), so render/ never
//! names present/; the command line asks for both where it needs both.

use crate::kit::game::Game;
use crate::render::paper::Paper;
use crate::render::scene::{Document, Page};
use crate::render::text::Fonts;
use std::sync::Arc;

pub trait Drawn: Game {
    /// What the HTML viewer's Page Up and Page Down step by: "round" or
    /// "turn".
    const SECTION: &'static str;
    /// The round (or turn) an event belongs to, which Page Up and Page Down
    /// step through, from the states `before` and `after` it.
    fn section(before: &Self::State, after: &Self::State) -> u64;
    /// The viewer's panels: one per player's sheet (`false`), or one wide
    /// table (`true`).
    const WIDE: bool;
    /// What the viewer must know of the whole replay before it draws any
    /// state (the cells the Summertime grid ever fills).
    type Layout;
    fn layout(states: &[Self::State]) -> Self::Layout;
    /// Draws the panels of `state` that differ from `before` (all of them
    /// without `before`) in `fonts`, passing each panel's number, name and
    /// pages to `out`.
    fn panels(
        fonts: &Fonts,
        layout: &Self::Layout,
        before: Option<&Self::State>,
        state: &Self::State,
        out: &mut dyn FnMut(usize, &str, Vec<Page>),
    );
    /// What a scored replay keeps from the states on the way (the scores
    /// round by round, for its chart).
    type Course: Default;
    /// Keeps what the scored replay needs from `state`, the state after
    /// one more event.
    fn observe(course: &mut Self::Course, state: &Self::State);
    /// The scored replay of the final state, laid out in `fonts`.
    fn replay(
        fonts: &Arc<Fonts>,
        state: &Self::State,
        course: Self::Course,
        paper: Paper,
        caption: &str,
    ) -> Document;
}
