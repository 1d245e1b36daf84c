//! The contract every game's rules core fulfils, so that the log reader, the
//! CLI and the exporters are written once for both games.
//!
//! A game is a pure reducer: [`Game::setup`] turns the start event into the
//! initial state, and [`Game::apply`] folds one further event into it. Neither
//! does I/O, reads a clock or draws random numbers.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::error::Error;

/// A seat at the table: a player's position in the start event's list of
/// players. Who may see or do what is decided by seat, never by matching a
/// name's text. Both games seat far fewer than 256 players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The seat at position `i` of the list of players.
    #[inline]
    pub fn new(i: usize) -> Seat {
        Seat(u8::try_from(i).expect("a game seats fewer than 256 players"))
    }

    /// Its position in the list of players.
    #[inline]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl From<Seat> for usize {
    fn from(seat: Seat) -> usize {
        seat.index()
    }
}

/// The name of an event as it appears in the log's `type` field.
pub trait EventKind {
    /// The past-tense event name, such as `rolled` or `placed`.
    fn kind(&self) -> &'static str;
}

pub trait Game {
    /// The value of the start event's `game` field.
    const NAME: &'static str;
    /// Every value of the `type` field this game knows, start event first.
    const EVENT_KINDS: &'static [&'static str];

    /// Every event of the game, including its start event, tagged by `type`.
    type Event: DeserializeOwned + Serialize + EventKind + Clone;
    /// An event resolved against the state: names replaced by indexes.
    type Action: Copy + std::fmt::Debug + PartialEq + Send + Sync;
    /// The payload of the start event.
    type Start;
    type State: Clone;
    /// Why a start event cannot begin a game (bad template, bad players).
    type SetupError: Error + 'static;
    /// Why a well-formed event is illegal in the current state.
    type RuleError: Error + 'static;

    /// The start payload, if this event is the game's start event.
    fn as_start(event: &Self::Event) -> Option<&Self::Start>;

    /// The initial state described by a start event.
    fn setup(start: &Self::Start) -> Result<Self::State, Self::SetupError>;

    /// Whether an undo may never cross this event: a roll or a reveal, which
    /// nobody may take back and repeat.
    fn is_barrier(event: &Self::Event) -> bool;

    /// The log format the start event says the game is recorded in.
    fn format(start: &Self::Start) -> u32;

    /// Whether the game is over: it has ended, and nothing more may happen.
    fn is_over(state: &Self::State) -> bool;

    /// Why a game that is not over can never reach its end, whatever comes
    /// next: a state that the rules of an older log format let in, and the
    /// current rules refuse to enter. `None` while the end can be reached.
    fn dead_end(_state: &Self::State) -> Option<Self::RuleError> {
        None
    }

    /// Whether the next event could make the game a dead end
    /// ([`Game::dead_end`]): only under the rules of an older log format.
    /// The log's fold keeps the state before such an event, to take it
    /// back.
    fn can_dead_end(_state: &Self::State) -> bool {
        false
    }

    /// Folds one event into the state. On error the state is unchanged.
    /// It is [`Game::resolve`] followed by [`Game::apply_action`].
    fn apply(state: &mut Self::State, event: &Self::Event) -> Result<(), Self::RuleError>;

    /// Checks the names of an event against the state and gives its action.
    fn resolve(state: &Self::State, event: &Self::Event) -> Result<Self::Action, Self::RuleError>;

    /// The event an action is, in the names of `state`, the state the
    /// action applies to.
    fn describe_action(state: &Self::State, action: Self::Action) -> Self::Event;

    /// Folds one action into the state. On error the state is unchanged.
    fn apply_action(state: &mut Self::State, action: Self::Action) -> Result<(), Self::RuleError>;

    /// Whether [`Game::apply_action`] would accept `action` now.
    fn is_legal(state: &Self::State, action: Self::Action) -> bool;

    /// Every action that is legal now, into `out` (cleared first).
    fn legal_actions(state: &Self::State, out: &mut Vec<Self::Action>);

    /// The event of type `kind` (one of [`Game::EVENT_KINDS`]) from its
    /// other fields, read straight from the line: the log reader's one-pass
    /// path, which knows the `type` before the fields. It gives what the
    /// derived `Deserialize` of [`Game::Event`] gives for the same fields,
    /// without buffering them first; the reader's tests compare the two.
    fn decode_fields<'de, D: serde::Deserializer<'de>>(
        kind: &str,
        fields: D,
    ) -> Result<Self::Event, D::Error>;

    /// The players' names, in seating order.
    fn player_names(state: &Self::State) -> Vec<String>;

    /// Every event that is legal now.
    fn legal_events(state: &Self::State) -> Vec<Self::Event>;

    /// The legal events a person would consider instead of a rejected one:
    /// the same actor's legal events, most relevant first.
    fn alternatives(state: &Self::State, rejected: &Self::Event) -> Vec<Self::Event>;
}
