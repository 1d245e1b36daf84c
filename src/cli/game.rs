//! The one place a log's game becomes a type. A verb that works on a log
//! of either game is a [`ForGame`], run by [`dispatch`] with the game the
//! log's start line names, which is shown in words and on paper
//! ([`Shown`]).

use crate::log::{GameKind, Opened};
pub use crate::show::Shown;
use crate::soleils::Soleils;
use crate::summertime::Summertime;

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
