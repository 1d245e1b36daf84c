//! The ladder page: each bot's rating with its interval. (Being written.)

use super::paper::Paper;
use super::scene::{Page, Scene};
use crate::sim::Ladder;

/// The ladder drawn on one page.
pub fn report(ladder: &Ladder, paper: Paper) -> Scene {
    let (width, height) = paper.size();
    Scene {
        title: format!("{}: ladder", ladder.title),
        pages: vec![Page {
            width,
            height,
            items: Vec::new(),
        }],
    }
}
