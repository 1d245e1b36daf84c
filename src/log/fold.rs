//! The fold: a log's lines through a game's reducer, with the hash chain
//! checked, undo handled and claims kept; and what the log format's rules
//! say about the end of a game (see [`ENDS_KEPT`]).

use super::envelope::Meta;
use super::error::{DecodeError, Located, LogError, MetaError, ReplayError};
use super::reader::{Entry, Line, LineReader, Record, decode, decode_borrowed, hex_hash};
use crate::kit::game::Game;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::io::{self, BufRead};

/// A decision taken back by an `undone` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct TakenBack<E> {
    /// The seq of the decision taken back.
    pub seq: u64,
    pub event: E,
    /// The seq of the `undone` entry.
    pub by: u64,
}

/// The first log format whose rules keep a game's end final: no undo takes
/// back a decision of a game that is over, and no claim comes before the
/// end unless it calls the game (`"called": true`), which ends it there.
/// A log of an older format keeps its rules; the fold notes where it used
/// them ([`Lenient`]).
pub const ENDS_KEPT: u32 = 3;

/// The first log format whose entries may say who posted them to the
/// table's server: `"by": "referee"`, or a player's name.
pub const AUTHORS: u32 = 4;

/// The first log format whose entries may name a bot or the dealer as
/// their author: `"by": "bot:greedy"` for a seat's decision that a bot
/// took at the table's server, `"by": "dealer"` for a table's event (a
/// roll of digital dice, a dealt card revealed) that the server made.
pub const BOT_AUTHORS: u32 = 5;

/// The `by` of an entry the referee's link posted.
pub const REFEREE: &str = "referee";

/// The `by` of a table's event the server made itself ([`BOT_AUTHORS`]).
pub const DEALER: &str = "dealer";

/// What a bot's `by` starts with: `bot:` and the bot's name.
pub const BOT_PREFIX: &str = "bot:";

/// The bot's name in a `by` that names a bot ([`BOT_AUTHORS`]): `greedy`
/// in `bot:greedy`.
pub fn bot_author(by: &str) -> Option<&str> {
    by.strip_prefix(BOT_PREFIX).filter(|name| {
        matches!(*name, "random" | "greedy" | "search")
            || name
                .strip_prefix("search:")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// An entry that says who posted it ([`AUTHORS`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Authored<E> {
    pub line: usize,
    pub seq: u64,
    /// [`REFEREE`], or a player's name.
    pub by: String,
    pub entry: Entry<E>,
}

/// An entry that the rules of an older log format accepted and
/// [`ENDS_KEPT`] refuses, in a log of that older format: it still replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lenient {
    pub line: usize,
    pub seq: u64,
    pub what: Leniency,
}

/// What a [`Lenient`] entry did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leniency {
    /// An `undone` entry took back a decision of a game that was over.
    UndonePastEnd,
    /// A `claimed` entry came before the end, without calling the game.
    ClaimedBeforeEnd,
}

impl std::fmt::Display for Leniency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Leniency::UndonePastEnd => "an undo after the end of the game",
            Leniency::ClaimedBeforeEnd => "claims before the end of the game",
        })
    }
}

/// Where a game the rules of an older log format let in can no longer
/// reach its end ([`Game::dead_end`]): the line that made it so, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadEnd {
    pub line: usize,
    pub seq: u64,
    pub reason: String,
}

/// A dead end as the fold keeps it: the state before the line that made
/// it, for the `undone` entry that takes that line back, and the events
/// standing since, which that entry takes back with it.
struct Doom<G: Game> {
    at: DeadEnd,
    before: G::State,
    standing: Vec<(u64, G::Event)>,
}

impl<G: Game> Clone for Doom<G> {
    fn clone(&self) -> Self {
        Doom {
            at: self.at.clone(),
            before: self.before.clone(),
            standing: self.standing.clone(),
        }
    }
}

/// Folds a log through game `G`: the state after every accepted line, with
/// the hash chain checked and undo handled.
///
/// On error the state is the one before the failing line, so that a caller
/// can list the legal alternatives.
pub struct Fold<G: Game> {
    state: G::State,
    next_seq: u64,
    rejected: Option<G::Event>,
    /// The SHA-256 of the last folded line, in lowercase hex ASCII.
    last_hash: [u8; 64],
    /// Decided by line 2: whether the log carries a hash chain.
    chained: Option<bool>,
    /// The state after the last roll or reveal, and the decisions since.
    checkpoint: G::State,
    since: Vec<(u64, G::Event)>,
    taken_back: Vec<TakenBack<G::Event>>,
    claims: Vec<(u64, BTreeMap<String, i64>)>,
    /// The log format the start line names.
    format: u32,
    /// The seq of the claims that called the game, if they did.
    called: Option<u64>,
    lenient: Vec<Lenient>,
    doom: Option<Doom<G>>,
    authored: Vec<Authored<G::Event>>,
}

impl<G: Game> Clone for Fold<G> {
    fn clone(&self) -> Self {
        Fold {
            state: self.state.clone(),
            next_seq: self.next_seq,
            rejected: self.rejected.clone(),
            last_hash: self.last_hash,
            chained: self.chained,
            checkpoint: self.checkpoint.clone(),
            since: self.since.clone(),
            taken_back: self.taken_back.clone(),
            claims: self.claims.clone(),
            format: self.format,
            called: self.called,
            lenient: self.lenient.clone(),
            doom: self.doom.clone(),
            authored: self.authored.clone(),
        }
    }
}

impl<G: Game> Fold<G>
where
    G::Event: DeserializeOwned,
{
    /// Starts a fold from the first line, which must be the start event.
    pub fn start(line: &Line) -> Result<(Self, Record<G::Event>), LogError<G>> {
        let record = decode::<G>(line).map_err(|e| e.map(ReplayError::Decode))?;
        let at = |error| Located {
            line: line.number,
            seq: Some(record.seq),
            kind: Some(record.entry.kind().to_owned()),
            error,
        };
        let start = match &record.entry {
            Entry::Game(event) => G::as_start(event),
            Entry::Meta(_) => None,
        };
        let Some(start) = start else {
            let found = record.entry.kind().to_owned();
            return Err(at(ReplayError::Decode(DecodeError::StartNotFirst {
                found,
            })));
        };
        if record.seq != 0 {
            let error = DecodeError::Seq {
                expected: 0,
                found: record.seq,
            };
            return Err(at(ReplayError::Decode(error)));
        }
        if record.prev.is_some() {
            return Err(at(ReplayError::Decode(DecodeError::ChainUnexpected)));
        }
        if let Some(found) = &record.by {
            let found = found.clone();
            return Err(at(ReplayError::Meta(MetaError::AuthorOfStart { found })));
        }
        let state = G::setup(start).map_err(|e| at(ReplayError::Setup(e)))?;
        let fold = Fold {
            checkpoint: state.clone(),
            state,
            next_seq: 1,
            rejected: None,
            last_hash: hex_hash(line.bytes),
            chained: None,
            since: Vec::new(),
            taken_back: Vec::new(),
            claims: Vec::new(),
            format: G::format(start),
            called: None,
            lenient: Vec::new(),
            doom: None,
            authored: Vec::new(),
        };
        Ok((fold, record))
    }

    /// Folds one more line and returns its seq.
    pub fn feed(&mut self, line: &Line) -> Result<u64, LogError<G>> {
        self.fold_line(line, false).map(|(seq, _)| seq)
    }

    /// Folds one more line and returns its seq and, for a game event, a copy
    /// of the event: for a caller that keeps the decisions, without decoding
    /// the line a second time.
    pub fn feed_event(&mut self, line: &Line) -> Result<(u64, Option<G::Event>), LogError<G>> {
        self.fold_line(line, true)
    }

    fn fold_line(
        &mut self,
        line: &Line,
        keep: bool,
    ) -> Result<(u64, Option<G::Event>), LogError<G>> {
        let mut record = decode_borrowed::<G>(line).map_err(|e| e.map(ReplayError::Decode))?;
        let Some(by) = record.by.take() else {
            return self.fold_record(line, record, keep);
        };
        let at = |error| Located {
            line: line.number,
            seq: Some(record.seq),
            kind: Some(record.entry.kind().to_owned()),
            error,
        };
        if self.format < AUTHORS {
            let format = self.format;
            let error = MetaError::AuthorBeforeFormat { format, found: by };
            return Err(at(ReplayError::Meta(error)));
        }
        let known = G::player_names(&self.state);
        let machine = self.format >= BOT_AUTHORS && (by == DEALER || bot_author(&by).is_some());
        if by != REFEREE && !known.contains(&by) && !machine {
            let bots = self.format >= BOT_AUTHORS;
            let error = MetaError::UnknownAuthor {
                found: by,
                known,
                bots,
            };
            return Err(at(ReplayError::Meta(error)));
        }
        let (seq, entry) = (record.seq, record.entry.clone());
        let folded = self.fold_record(line, record, keep)?;
        self.authored.push(Authored {
            line: line.number,
            seq,
            by,
            entry,
        });
        Ok(folded)
    }

    fn fold_record(
        &mut self,
        line: &Line,
        record: super::reader::Decoded<'_, G::Event>,
        keep: bool,
    ) -> Result<(u64, Option<G::Event>), LogError<G>> {
        let seq = record.seq;
        let kind = record.entry.kind();
        let at = |error| Located {
            line: line.number,
            seq: Some(seq),
            kind: Some(kind.to_owned()),
            error,
        };
        if seq != self.next_seq {
            let error = DecodeError::Seq {
                expected: self.next_seq,
                found: seq,
            };
            return Err(at(ReplayError::Decode(error)));
        }
        let mut kept = None;
        let chained = *self.chained.get_or_insert(record.prev.is_some());
        match (&record.prev, chained) {
            (None, true) => return Err(at(ReplayError::Decode(DecodeError::ChainMissing))),
            (Some(_), false) => return Err(at(ReplayError::Decode(DecodeError::ChainUnexpected))),
            (Some(prev), true) if prev.as_bytes() != self.last_hash => {
                let error = DecodeError::ChainBroken {
                    line: line.number - 1,
                };
                return Err(at(ReplayError::Decode(error)));
            }
            _ => {}
        }
        match record.entry {
            Entry::Game(event) => {
                if let Some(called) = self.called {
                    return Err(at(ReplayError::Meta(MetaError::Called { seq: called })));
                }
                if keep {
                    kept = Some(event.clone());
                }
                let watch = self.doom.is_none() && G::can_dead_end(&self.state);
                let before = watch.then(|| self.state.clone());
                if let Err(e) = G::apply(&mut self.state, &event) {
                    let error = at(ReplayError::Rule(e));
                    self.rejected = Some(event);
                    return Err(error);
                }
                self.watch_dead_end(before, line.number, seq, &event);
                if G::is_barrier(&event) {
                    self.checkpoint = self.state.clone();
                    self.since.clear();
                } else {
                    self.since.push((seq, event));
                }
            }
            Entry::Meta(Meta::Undone { undoes }) => {
                if let Some(called) = self.called {
                    return Err(at(ReplayError::Meta(MetaError::Called { seq: called })));
                }
                if G::is_over(&self.state) {
                    if self.format >= ENDS_KEPT {
                        return Err(at(ReplayError::Meta(MetaError::UndoPastEnd)));
                    }
                    self.note(line.number, seq, Leniency::UndonePastEnd);
                }
                let last_standing = self.since.last().map(|&(last, _)| last);
                if last_standing != Some(undoes)
                    && self.doom.as_ref().is_some_and(|d| d.at.seq == undoes)
                {
                    self.rewind(seq);
                    self.last_hash = hex_hash(line.bytes);
                    self.next_seq += 1;
                    return Ok((seq, kept));
                }
                let Some(&(last, _)) = self.since.last() else {
                    let error = MetaError::NothingToUndo {
                        barrier: "roll or reveal",
                    };
                    return Err(at(ReplayError::Meta(error)));
                };
                if undoes != last {
                    let error = MetaError::NotLast {
                        expected: last,
                        found: undoes,
                    };
                    return Err(at(ReplayError::Meta(error)));
                }
                let (undone, event) = self.since.pop().expect("checked above");
                let mut state = self.checkpoint.clone();
                for (_, event) in &self.since {
                    G::apply(&mut state, event).expect("a decision applied before applies again");
                }
                self.state = state;
                if let Some(doom) = &mut self.doom {
                    if doom.at.seq == undone {
                        self.doom = None;
                    } else {
                        doom.standing.retain(|&(s, _)| s != undone);
                    }
                }
                self.taken_back.push(TakenBack {
                    seq: undone,
                    event,
                    by: seq,
                });
            }
            Entry::Meta(Meta::Claimed { scores, called }) => {
                let known = G::player_names(&self.state);
                if let Some(found) = scores.keys().find(|name| !known.contains(name)) {
                    let found = found.clone();
                    let error = MetaError::UnknownClaimant { found, known };
                    return Err(at(ReplayError::Meta(error)));
                }
                let over = G::is_over(&self.state) || self.called.is_some();
                if called && over {
                    return Err(at(ReplayError::Meta(MetaError::CalledAfterEnd)));
                }
                if !over && !called {
                    if self.format >= ENDS_KEPT {
                        return Err(at(ReplayError::Meta(MetaError::ClaimBeforeEnd)));
                    }
                    self.note(line.number, seq, Leniency::ClaimedBeforeEnd);
                }
                if called {
                    self.called = Some(seq);
                }
                self.claims.push((seq, scores));
            }
        }
        self.last_hash = hex_hash(line.bytes);
        self.next_seq += 1;
        Ok((seq, kept))
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// After an event applied at `line` and `seq`: whether it made the
    /// game a dead end, from `before`, the state before it (taken only
    /// while the game can become one); or, in a dead end already, the
    /// event standing with the others since.
    fn watch_dead_end(
        &mut self,
        before: Option<G::State>,
        line: usize,
        seq: u64,
        event: &G::Event,
    ) {
        if let Some(doom) = &mut self.doom {
            doom.standing.push((seq, event.clone()));
            return;
        }
        let Some(before) = before else {
            return;
        };
        let Some(reason) = G::dead_end(&self.state) else {
            return;
        };
        self.doom = Some(Doom {
            at: DeadEnd {
                line,
                seq,
                reason: reason.to_string(),
            },
            before,
            standing: vec![(seq, event.clone())],
        });
    }

    /// The way out of a dead end: the `undone` entry `by` takes back the
    /// line that made it, with every decision and reveal standing since,
    /// even across a reveal. The hash chain goes on: nothing is erased.
    fn rewind(&mut self, by: u64) {
        let doom = self.doom.take().expect("a dead end to rewind");
        for (seq, event) in doom.standing {
            self.taken_back.push(TakenBack { seq, event, by });
        }
        self.checkpoint = doom.before.clone();
        self.state = doom.before;
        self.since.clear();
    }

    fn note(&mut self, line: usize, seq: u64, what: Leniency) {
        self.lenient.push(Lenient { line, seq, what });
    }

    /// The log format the start line names.
    pub fn format(&self) -> u32 {
        self.format
    }

    /// The seq of the claims that called the game before its end, if any:
    /// a called game is over.
    pub fn called(&self) -> Option<u64> {
        self.called
    }

    /// Whether the game is over: ended by its rules, or called.
    pub fn is_over(&self) -> bool {
        self.called.is_some() || G::is_over(&self.state)
    }

    /// The entries of a log of an older format that [`ENDS_KEPT`] refuses.
    pub fn lenient(&self) -> &[Lenient] {
        &self.lenient
    }

    /// Where the game became a dead end, if it is one: a log of an older
    /// format whose rules let it in. An `undone` entry of that line's seq
    /// takes it back, with everything since.
    pub fn dead_end(&self) -> Option<&DeadEnd> {
        self.doom.as_ref().map(|d| &d.at)
    }

    pub fn into_state(self) -> G::State {
        self.state
    }

    /// The event the reducer rejected last, if any: the state is still the
    /// one before it, so that alternatives can be listed.
    pub fn rejected(&self) -> Option<&G::Event> {
        self.rejected.as_ref()
    }

    /// How many lines have been folded, the start event included.
    pub fn events(&self) -> u64 {
        self.next_seq
    }

    /// The hash of the last folded line, for the next line's `prev`.
    pub fn last_hash(&self) -> &str {
        std::str::from_utf8(&self.last_hash).expect("hex digits")
    }

    /// Whether the log carries a hash chain; `None` with only a start line.
    pub fn chained(&self) -> Option<bool> {
        self.chained
    }

    /// The decision an `undone` entry would take back now: the last one
    /// standing since the last roll or reveal, or else, in a dead end, the
    /// line that made it; none once the game is over under rules that keep
    /// its end final.
    pub fn undoable(&self) -> Option<(u64, &G::Event)> {
        if self.called.is_some() || (self.format >= ENDS_KEPT && G::is_over(&self.state)) {
            return None;
        }
        let last = self.since.last().map(|(seq, event)| (*seq, event));
        last.or_else(|| {
            let doom = self.doom.as_ref()?;
            doom.standing.first().map(|(seq, event)| (*seq, event))
        })
    }

    /// The entries that say who posted them, in log order.
    pub fn authored(&self) -> &[Authored<G::Event>] {
        &self.authored
    }

    pub fn taken_back(&self) -> &[TakenBack<G::Event>] {
        &self.taken_back
    }

    /// The scores claimed on paper, latest last.
    pub fn claims(&self) -> &[(u64, BTreeMap<String, i64>)] {
        &self.claims
    }
}

/// Why a whole log could not be folded.
#[derive(Debug)]
pub enum ReadError<G: Game> {
    Io(io::Error),
    Log(Box<LogError<G>>),
}

/// Folds a whole log of game `G`, stopping after event `stop_after` if given.
/// Convenient for tests and tools that need only the final state.
pub fn fold_log<G: Game, R: BufRead>(
    reader: R,
    stop_after: Option<u64>,
) -> Result<G::State, ReadError<G>> {
    let mut lines = LineReader::new(reader);
    let Some(first) = lines.next_line().map_err(ReadError::Io)? else {
        let error = Located {
            line: 1,
            seq: None,
            kind: None,
            error: ReplayError::Decode(DecodeError::EmptyFile),
        };
        return Err(ReadError::Log(Box::new(error)));
    };
    let (mut fold, _) = Fold::<G>::start(&first).map_err(|e| ReadError::Log(Box::new(e)))?;
    if stop_after == Some(0) {
        return Ok(fold.state);
    }
    while let Some(line) = lines.next_line().map_err(ReadError::Io)? {
        let seq = fold.feed(&line).map_err(|e| ReadError::Log(Box::new(e)))?;
        if stop_after == Some(seq) {
            break;
        }
    }
    Ok(fold.state)
}
