//! A game shown both in words ([`crate::present`]) and on paper
//! ([`crate::render`]): what needs the two together, above both and
//! beneath the front ends. The HTML viewer of a log is here.
//!
//! Its one room: [`viewer`], the frames of a log and their page.

pub mod viewer;

use crate::present::Present;
use crate::print::game::Drawn;

/// A game in words and on paper.
pub trait Shown: Present + Drawn {}
impl<G: Present + Drawn> Shown for G {}
