//! A game shown both in words ([`crate::present`]) and on paper
//! ([`crate::render`]): what needs the two together, above both and
//! beneath the front ends. The HTML viewer of a log is here.
//!
//! Its one room: [`viewer`], the frames of a log and their page; and
//! [`scored_replay`], the scored replay of a log on paper.

pub mod viewer;

use crate::present::Present;
use crate::print::game::Drawn;

/// A game in words and on paper.
pub trait Shown: Present + Drawn {}
impl<G: Present + Drawn> Shown for G {}

/// The scored replay of the log at `file`, opened as `opened`, after event
/// `at` (or at its end), on `paper` in `fonts`, captioned with the file
/// and the event it stops after; or why the log does not fold.
pub fn scored_replay<G: Shown, R: std::io::BufRead>(
    file: &std::path::Path,
    opened: crate::log::Opened<R>,
    at: Option<u64>,
    fonts: &std::sync::Arc<crate::render::text::Fonts>,
    paper: crate::render::paper::Paper,
) -> Result<crate::render::scene::Document, crate::log::FoldError<G>> {
    let caption = match at {
        Some(at) => format!("{}, after event {at}", file.display()),
        None => format!("{}", file.display()),
    };
    let mut course = G::Course::default();
    let fold = opened.fold::<G>(at, &mut |state| G::observe(&mut course, state))?;
    Ok(G::replay(fonts, fold.state(), course, paper, &caption))
}
