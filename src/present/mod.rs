//! A game in words and views, written once: the text of a state, the
//! pending decisions, the commands a referee pastes, and the typed JSON
//! reports with their schemas. The command line, the table service and the
//! server all show a game through [`Present`]; nothing here prints, reads a
//! file or knows an argument.
//!
//! Reading order: [`command`] (a leaf: commands and quoting), [`choice`]
//! (a decision as a page offers it), [`json`] (the JSON reports, as types),
//! [`failure`] (a located error of a log in words), then
//! one file per game ([`soleils`], [`summertime`]); then what a verb finds in a log or a file: [`audit`],
//! [`rescore`], [`analysis`], [`hint`], [`posted`] (who posted a log's
//! entries) and [`template`] (a sheet or deck checked). The workbench's batch reports are `crate::report`'s.

pub mod analysis;
pub mod audit;
pub mod choice;
pub mod command;
pub mod failure;
pub mod hint;
pub mod json;
pub mod posted;
pub mod rescore;
pub mod soleils;
pub mod summertime;
pub mod template;

pub use command::{Command, Group, winners};

pub trait Present: crate::bots::Searched {
    /// The state as text: sheets or grid, and the score table. `called`
    /// is the seq of the claims that called the game before its end.
    fn text(state: &Self::State, called: Option<u64>) -> String;
    /// The state and score, for the JSON reports.
    type View: serde::Serialize + schemars::JsonSchema;
    fn view(state: &Self::State) -> Self::View;
    /// One event, as a referee would say it.
    fn describe(event: &Self::Event) -> String;
    /// What recording `event` did, for the referee who just entered it:
    /// the dice and the round of a roll, the card revealed, what a buy
    /// paid. `before` and `after` are the states around it.
    fn said(before: &Self::State, after: &Self::State, event: &Self::Event) -> String;
    /// Where the game stands: the round or turn.
    fn progress(state: &Self::State) -> String;
    /// The decisions the game waits for: whose, by seat, and what.
    fn pending(state: &Self::State) -> Vec<Pending>;
    /// The pending decisions as people read them: "Ann: a placement", or
    /// "the roll for turn 3" for the table's own.
    fn pending_lines(state: &Self::State) -> Vec<String> {
        let names = Self::player_names(state);
        Self::pending(state)
            .into_iter()
            .map(|p| match p.seat.and_then(|s| names.get(s)) {
                Some(name) => format!("{name}: {}", p.what),
                None => p.what,
            })
            .collect()
    }
    /// Each player's score total so far, by name.
    fn totals(state: &Self::State) -> Vec<(String, i64)>;
    /// How the game ended, once it has.
    fn ending(state: &Self::State) -> Option<String>;
    /// The recording command that appends `event`, or `None` for an event
    /// no command records (the start event).
    fn command(state: &Self::State, event: &Self::Event) -> Option<Command>;
    /// `event` as a page offers it, as a button or a tap on the drawing;
    /// `None` for an event no page offers so (the start, and a 62 Soleils
    /// roll, whose dice the referee types or draws digitally).
    fn offer(state: &Self::State, event: &Self::Event) -> Option<choice::Offer>;
    /// The seat of the player whose decision `event` is, if any.
    fn actor(state: &Self::State, event: &Self::Event) -> Option<usize> {
        let name = Self::actor_name(event)?;
        Self::player_names(state).iter().position(|n| n == name)
    }
    /// The player `event` names as deciding it, at the table or not; `None`
    /// for an event of the table (a roll, a reveal, a discard).
    fn actor_name(event: &Self::Event) -> Option<&str>;
}

/// A decision the game waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The seat of the player who decides, or `None` for the table's own
    /// events (a roll, a reveal, a discard).
    pub seat: Option<usize>,
    /// What is decided, such as "a placement or a sun entry".
    pub what: String,
}

impl Pending {
    fn table(what: String) -> Pending {
        Pending { seat: None, what }
    }
    fn seat(seat: usize, what: String) -> Pending {
        Pending {
            seat: Some(seat),
            what,
        }
    }
}
