//! The event's table logs: each created ready to record when its round is
//! seated, played on by bots for a rehearsal, and read back as a result
//! only after the audit `sunfold audit` runs finds it valid, finished and
//! played by exactly the players seated there.

use super::entry::{EventGame, SeatResult, SeatedTable, Sitter, TableResult};
use super::error::{EventError, EventFileError, TableLogError};
use super::state::{EventState, TableRules};
use crate::bots::{Bot, Searched, SoleilsVariant, SummertimeVariant};
use crate::log::{CreateError, Envelope, Located, OpenError, Recorder, line_hash, to_line};
use crate::present::audit::Audited;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::table::start::{self, Deal};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The seed of table `table` of round `round`: its dice or its deal, and
/// its bots' choices.
pub fn table_seed(seed: u64, round: u32, table: u32) -> u64 {
    let n = u64::from(round) << 32 | u64::from(table);
    seed ^ n.wrapping_mul(0xD1B5_4A32_D192_ED03).rotate_left(17)
}

impl TableRules {
    /// The sheet and rule options every table plays.
    pub fn soleils(&self) -> SoleilsVariant {
        let mut variant = match &self.template {
            None => SoleilsVariant::bundled(),
            Some(raw) => SoleilsVariant::new("event", (**raw).clone(), Default::default())
                .expect("an event's template is checked when the event is read"),
        };
        variant.options = self.options.unwrap_or_default();
        variant
    }

    /// The deck every table plays.
    pub fn summertime(&self) -> SummertimeVariant {
        match &self.deck {
            None => SummertimeVariant::bundled(),
            Some(raw) => SummertimeVariant::new("event", (**raw).clone())
                .expect("an event's deck is checked when the event is read"),
        }
    }
}

/// Writes the start line of a table's log at `path`, its players named as
/// the event names them in seat order (a bot by the name its seat gives), on the event's sheet (with its rule options) or deck. A
/// file left there by a seating that was never recorded is replaced.
pub fn create_table_log(
    state: &EventState,
    round: u32,
    table: &SeatedTable,
    path: &Path,
) -> Result<(), EventFileError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let names = state.seat_names(table);
    let seed = table_seed(state.setup.seed, round, table.table);
    match state.setup.game {
        EventGame::Soleils => {
            let start = start::soleils(&names, state.setup.rules.soleils(), seed);
            let created = Recorder::create::<Soleils>(path, start, None, true);
            created.map_err(|e| not_created(path, e))
        }
        EventGame::Summertime => {
            let variant = state.setup.rules.summertime();
            let start = start::summertime(&names, None, variant, Deal::Seeded(seed));
            let created = Recorder::create::<Summertime>(path, start, None, true);
            created.map_err(|e| not_created(path, e))
        }
    }
}

fn not_created<G: crate::kit::game::Game>(path: &Path, error: CreateError<G>) -> EventFileError {
    match error {
        CreateError::Io(error) => EventFileError::Io(error),
        CreateError::Exists => EventFileError::Io(std::io::ErrorKind::AlreadyExists.into()),
        CreateError::Rejected(error) => EventFileError::Table(TableLogError::Invalid {
            path: path.to_owned(),
            error: error.map(|e| e.to_string()),
        }),
    }
}

/// What of the event's rules the valid table log `bytes` of its game
/// starts on otherwise, if anything: its sheet template, rule options or
/// deck.
fn other_rules(rules: &TableRules, game: EventGame, bytes: &[u8]) -> Option<&'static str> {
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let start: serde_json::Value = serde_json::from_slice(first).unwrap_or_default();
    let same = |key: &str, expected: serde_json::Value| start.get(key) == Some(&expected);
    fn value(rules: &impl serde::Serialize) -> serde_json::Value {
        serde_json::to_value(rules).expect("rules serialize")
    }
    match game {
        EventGame::Soleils => {
            let variant = rules.soleils();
            if !same("template", value(&variant.raw)) {
                Some("on the event's sheet template")
            } else if !same("options", value(&variant.options)) {
                Some("under the event's rule options")
            } else {
                None
            }
        }
        EventGame::Summertime => {
            (!same("deck", value(&rules.summertime().raw))).then_some("with the event's deck")
        }
    }
}

/// The result of table `table` of round `round` as the log at `path`
/// gives it, after its audit; `reason` for a correction.
pub fn read_result(
    state: &EventState,
    round: u32,
    table: u32,
    path: &Path,
    reason: Option<String>,
) -> Result<TableResult, EventFileError> {
    let seated = state.round(round).map_err(EventFileError::Refused)?;
    let at = seated.table(table).map_err(EventFileError::Refused)?;
    let bytes = std::fs::read(path).map_err(|error| {
        let path = path.to_owned();
        EventFileError::Table(TableLogError::Io { path, error })
    })?;
    let invalid = |error: Located<String>| {
        let path = path.to_owned();
        EventFileError::Table(TableLogError::Invalid { path, error })
    };
    let audited = match crate::log::open(&bytes[..]) {
        Ok(opened) => Audited::of(opened),
        Err(OpenError::Decode(error)) => return Err(invalid(error.map(|e| e.to_string()))),
        Err(OpenError::Io(error)) => {
            let path = path.to_owned();
            return Err(EventFileError::Table(TableLogError::Io { path, error }));
        }
    };
    if let Some(error) = audited.error {
        return Err(invalid(error));
    }
    let expected = state.setup.game.name();
    let found = audited.game.unwrap_or("no game");
    if found != expected {
        let path = path.to_owned();
        return Err(EventFileError::Table(TableLogError::Game {
            path,
            expected,
            found,
        }));
    }
    if let Some(part) = other_rules(&state.setup.rules, state.setup.game, &bytes) {
        let path = path.to_owned();
        return Err(EventFileError::Table(TableLogError::Rules { path, part }));
    }
    let outcome = audited.result.expect("a valid log has a result");
    let Some(ended) = outcome.ended else {
        let path = path.to_owned();
        return Err(EventFileError::Table(TableLogError::Unfinished { path }));
    };
    if outcome.players.len() != at.size() {
        return Err(EventFileError::Table(TableLogError::Count {
            path: path.to_owned(),
            table,
            expected: at.size(),
            found: outcome.players.len(),
        }));
    }
    let mut seats = Vec::new();
    let names = state.seat_names(at);
    let sitters = at.seats();
    for (i, ((sitter, expected), standing)) in
        (sitters.iter().zip(&names).zip(&outcome.players)).enumerate()
    {
        if &standing.player != expected {
            return Err(EventFileError::Refused(EventError::WrongSeat {
                table,
                seat: i + 1,
                expected: expected.clone(),
                found: standing.player.clone(),
            }));
        }
        let (id, bot) = match sitter {
            Sitter::Player(id) => ((*id).to_owned(), None),
            Sitter::Bot(bot) => (bot.name.clone(), Some(bot.bot)),
        };
        seats.push(SeatResult {
            id,
            score: standing.score,
            rank: standing.rank,
            bot,
        });
    }
    Ok(TableResult {
        round,
        table,
        hash: line_hash(&bytes),
        ended,
        seats,
        reason,
    })
}

/// The number of the first line of the table log `bytes` recorded at the
/// table, if any: a line after the start that carries a time (`at`, which
/// every recording command and the server write) or who posted it (`by`).
/// The start line and the lines `event play`'s bots append carry neither.
pub fn recorded_line(bytes: &[u8]) -> Option<usize> {
    let lines = bytes.split(|&b| b == b'\n').enumerate().skip(1);
    for (i, line) in lines.filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace)) {
        let value: serde_json::Value = serde_json::from_slice(line).unwrap_or_default();
        if value.get("at").is_some() || value.get("by").is_some() {
            return Some(i + 1);
        }
    }
    None
}

/// Refuses the table log at `path` when a line of it was recorded at the
/// table, unless `force`.
pub fn check_unrecorded(path: &Path, force: bool) -> Result<(), EventFileError> {
    if force {
        return Ok(());
    }
    let bytes = std::fs::read(path).map_err(|error| {
        let path = path.to_owned();
        EventFileError::Table(TableLogError::Io { path, error })
    })?;
    refuse_recorded(path, &bytes)
}

fn refuse_recorded(path: &Path, bytes: &[u8]) -> Result<(), EventFileError> {
    match recorded_line(bytes) {
        Some(line) => Err(EventFileError::Table(TableLogError::Recorded {
            path: path.to_owned(),
            line,
        })),
        None => Ok(()),
    }
}

/// Plays the table log at `path` on to its end with `bots[i]` in seat i
/// (cycling when fewer), from `seed`, appending the lines under the log's lock with one write
/// and a sync. A log already at its end is left as it is. A log with a
/// line recorded at the table is refused, unless `force`.
pub fn play_table(
    game: EventGame,
    path: &Path,
    players: usize,
    bots: &[Bot],
    seed: u64,
    force: bool,
) -> Result<(), EventFileError> {
    match game {
        EventGame::Soleils => play_on::<Soleils>(path, players, bots, seed, force),
        EventGame::Summertime => play_on::<Summertime>(path, players, bots, seed, force),
    }
}

fn play_on<G: Searched>(
    path: &Path,
    players: usize,
    bots: &[Bot],
    seed: u64,
    force: bool,
) -> Result<(), EventFileError> {
    let table = |error| EventFileError::Table(error);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path);
    let file = file.map_err(|error| {
        let path = path.to_owned();
        table(TableLogError::Io { path, error })
    })?;
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = lock.write()?;
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut bytes)?;
    if !force {
        refuse_recorded(path, &bytes)?;
    }
    let invalid = |error: Located<String>| {
        let path = path.to_owned();
        table(TableLogError::Invalid { path, error })
    };
    let opened = match crate::log::open(&bytes[..]) {
        Ok(opened) => opened,
        Err(OpenError::Decode(error)) => return Err(invalid(error.map(|e| e.to_string()))),
        Err(OpenError::Io(error)) => return Err(error.into()),
    };
    let fold = match opened.fold::<G>(None, &mut |_| {}) {
        Ok(fold) => fold,
        Err(crate::log::FoldError::Io { error, .. }) => return Err(error.into()),
        Err(crate::log::FoldError::Start(error)) => {
            return Err(invalid(error.map(|e| e.to_string())));
        }
        Err(crate::log::FoldError::Rejected { error, .. }) => {
            return Err(invalid(error.map(|e| e.to_string())));
        }
        Err(crate::log::FoldError::PastEnd { .. }) => unreachable!("no event to stop after"),
    };
    let mut state = fold.state().clone();
    let actions = crate::bots::play_from::<G>(&mut state, players, bots, seed);
    let mut state = fold.state().clone();
    let last = bytes
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap_or_default();
    let mut prev = (fold.chained() != Some(false)).then(|| line_hash(last));
    // A last line that lost only its newline is ended first, so that the
    // bots' first entry goes on a line of its own.
    let mut text = match bytes.last() {
        Some(&b) if b != b'\n' => "\n".to_owned(),
        _ => String::new(),
    };
    for (i, action) in actions.into_iter().enumerate() {
        let event = G::describe_action(&state, action);
        G::apply_action(&mut state, action).expect("bots choose legal actions");
        let line = to_line(&Envelope {
            seq: fold.events() + i as u64,
            at: None,
            prev: prev.take(),
            by: None,
            event,
        });
        if fold.chained() != Some(false) {
            prev = Some(line_hash(line.trim_end().as_bytes()));
        }
        text.push_str(&line);
    }
    file.seek(SeekFrom::End(0))?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(())
}
