//! The one place a log's game becomes a type. A verb that works on a log
//! of either game is a [`ForGame`], run by [`dispatch`] with the game the
//! log's start line names, which is shown in words ([`Present`]) and on
//! paper ([`Drawn`]).

use crate::log::{GameKind, Opened};
use crate::present::Present;
use crate::render::game::Drawn;
use crate::soleils::Soleils;
use crate::summertime::Summertime;

/// A game as the command line shows it: in words and on paper.
pub trait Shown: Present + Drawn {}
impl<G: Present + Drawn> Shown for G {}

/// A command that works on a log of either game: `run` is called once,
/// with the game the log's start line names.
pub trait ForGame<R> {
    type Output;
    fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output;
}

/// Runs `command` on the opened log as the game it names.
pub fn dispatch<R: std::io::BufRead, C: ForGame<R>>(opened: Opened<R>, command: C) -> C::Output {
    match opened.game() {
        GameKind::Soleils => command.run::<Soleils>(opened),
        GameKind::Summertime => command.run::<Summertime>(opened),
    }
}
