//! What each `sunfold event` verb asks, done on the event log: each reads
//! the event under its lock, decides the entries, and appends them, or
//! refuses and leaves the file as it was.

use super::entry::{
    EVENT_FORMAT, Entry, EventGame, Leftover, Player, Sitter, TIE_BREAKS, TableResult, TieBreak,
};
use super::error::{EventError, EventFileError, TableLogError};
use super::file::{EventLog, append, create, table_path};
use super::players::{Players, PlayersError, Renamed};
use super::seat::{NextRound, SeatBy, next_round};
use super::state::TableRules;
use super::tables::{check_unrecorded, create_table_log, play_table, read_result, table_seed};
use crate::bots::Bot;
use crate::table::Clock;
use std::path::Path;

/// How a new event is set up; what is left out takes the game's default.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub game: EventGame,
    /// 62 Soleils: 4; Summertime: 2.
    pub table_size: Option<u32>,
    /// 62 Soleils: 3; Summertime: enough for a Swiss to leave one player
    /// alone on top, ⌈log2 n⌉ for n players ([`swiss_rounds`]).
    pub rounds: Option<u32>,
    /// 62 Soleils: 6,5,3,1,0; Summertime: 1,0 (a win is a point).
    pub points: Option<Vec<u32>>,
    pub seed: u64,
    /// The tie-breaks after the points, in order (the draw is added last
    /// when left out); score, buchholz, margin, draw if `None`.
    pub tie_breaks: Option<Vec<TieBreak>>,
    pub leftover: Leftover,
    pub rules: TableRules,
}

/// Each tie-break at most once, and the draw, if given, last: the order
/// an event declares (events written before this check keep theirs).
fn check_tie_breaks(tie_breaks: &[TieBreak]) -> Result<(), EventError> {
    let mut seen = Vec::new();
    for tie_break in tie_breaks {
        if seen.contains(tie_break) {
            return Err(EventError::Setup {
                what: "each tie-break once",
                found: format!("{} twice", tie_break.name()),
            });
        }
        seen.push(*tie_break);
    }
    let draw = tie_breaks.iter().position(|t| *t == TieBreak::Draw);
    if draw.is_some_and(|at| at + 1 != tie_breaks.len()) {
        let found = (tie_breaks.iter().map(|t| t.name()))
            .collect::<Vec<_>>()
            .join(",");
        return Err(EventError::Setup {
            what: "the draw as the last tie-break, since it decides every tie left",
            found,
        });
    }
    Ok(())
}

/// The rounds of a Swiss of `players` that can leave one player alone on
/// top: ⌈log2 players⌉, and at least 1.
pub fn swiss_rounds(players: usize) -> u32 {
    players.max(2).next_power_of_two().trailing_zeros()
}

/// The `created` line of an event of `players` players set up as `setup`,
/// its defaults filled in. Refused when the tie-breaks repeat one or put
/// the draw before another.
pub fn created(setup: NewEvent, players: usize) -> Result<Entry, EventError> {
    if let Some(tie_breaks) = &setup.tie_breaks {
        check_tie_breaks(tie_breaks)?;
    }
    let (size, points) = match setup.game {
        EventGame::Soleils => (4, vec![6, 5, 3, 1, 0]),
        EventGame::Summertime => (2, vec![1, 0]),
    };
    Ok(Entry::Created {
        format: EVENT_FORMAT,
        game: setup.game,
        table_size: setup.table_size.unwrap_or(size),
        rounds: setup.rounds.unwrap_or(match setup.game {
            EventGame::Soleils => 3,
            EventGame::Summertime => swiss_rounds(players),
        }),
        points: setup.points.unwrap_or(points),
        seed: setup.seed,
        tie_breaks: match setup.tie_breaks {
            None => TIE_BREAKS.to_vec(),
            Some(mut tie_breaks) => {
                if !tie_breaks.contains(&TieBreak::Draw) {
                    tie_breaks.push(TieBreak::Draw);
                }
                tie_breaks
            }
        },
        leftover: setup.leftover,
        template: setup.rules.template,
        options: setup.rules.options,
        deck: setup.rules.deck,
    })
}

/// Writes a new event log: its `created` line and a `registered` line for
/// each player of `players` (the text of a players file): the event, and
/// the players whose names were taken by another before them. A file of
/// one player is refused, since no table seats one.
pub fn new_event(
    path: &Path,
    setup: NewEvent,
    players: &str,
    force: bool,
    clock: &dyn Clock,
) -> Result<(EventLog, Vec<Renamed>), EventFileError> {
    let Players { players, renamed } = super::players::parse(players, &[])?;
    if players.len() < 2 {
        return Err(EventFileError::Players(PlayersError::One));
    }
    let created = created(setup, players.len()).map_err(EventFileError::Refused)?;
    let mut entries = vec![created];
    entries.extend(players.into_iter().map(Entry::Registered));
    Ok((create(path, &entries, force, clock)?, renamed))
}

/// Adds a player: registered before the first round is seated, arrived
/// after (from the next round). Their name is made unique in the event.
pub fn arrive(
    path: &Path,
    name: &str,
    id: Option<&str>,
    clock: &dyn Clock,
) -> Result<Player, EventFileError> {
    let (_, player) = append(path, clock, |log: &EventLog| {
        let taken: Vec<&str> = (log.state.entrants.iter())
            .map(|e| e.player.name.as_str())
            .collect();
        let line = match id {
            Some(id) => format!("{name}\t{id}"),
            None => name.to_owned(),
        };
        let mut player = super::players::parse(&line, &taken)?.players.remove(0);
        if id.is_none() {
            // `p` and the first number from the next entrant's that no
            // player of the event has as an id.
            let free = |id: &String| log.state.entrant(id).is_none();
            player.id = ((log.state.entrants.len() + 1)..)
                .map(|n| format!("p{n}"))
                .find(free)
                .expect("some number is free");
        }
        let rounds = log.state.setup.rounds;
        if log.state.seated() >= rounds {
            let name = player.name.clone();
            return Err(EventFileError::Refused(EventError::NoRoundLeft {
                name,
                rounds,
            }));
        }
        let entry = if log.state.seated() == 0 {
            Entry::Registered(player.clone())
        } else {
            Entry::Arrived(player.clone())
        };
        Ok::<_, EventFileError>((vec![entry], player))
    })?;
    Ok(player)
}

/// Drops the player `who` names (their id, or a name only they have) from
/// the next round on: the player dropped.
pub fn drop_player(path: &Path, who: &str, clock: &dyn Clock) -> Result<Player, EventFileError> {
    let (_, player) = append(path, clock, |log: &EventLog| {
        let player = log
            .state
            .find_player(who)
            .map_err(EventFileError::Refused)?;
        let id = player.id.clone();
        Ok::<_, EventFileError>((vec![Entry::Dropped { id }], player.clone()))
    })?;
    Ok(player)
}

/// Closes the event.
pub fn close(path: &Path, clock: &dyn Clock) -> Result<(), EventFileError> {
    append(path, clock, |_: &EventLog| {
        Ok::<_, EventFileError>((vec![Entry::Closed {}], ()))
    })?;
    Ok(())
}

/// Seats the next round as `by` says and writes each table's log, ready
/// to record: the round seated.
pub fn seat(path: &Path, by: &SeatBy, clock: &dyn Clock) -> Result<u32, EventFileError> {
    seat_with(path, by, None, clock)
}

/// [`seat`], with `bot` in the seat of each bye and in the empty seats of
/// each table short of the event's table size (the draw and by standing).
pub fn seat_with(
    path: &Path,
    by: &SeatBy,
    bot: Option<Bot>,
    clock: &dyn Clock,
) -> Result<u32, EventFileError> {
    let (_, round) = append(path, clock, |log: &EventLog| {
        let state = &log.state;
        let NextRound { tables, bye, out } =
            next_round(state, by, bot).map_err(EventFileError::Refused)?;
        let round = state.seated() + 1;
        let entry = Entry::Seated {
            round,
            tables: tables.clone(),
            bye,
            out,
        };
        // Checked before a table log is written.
        state
            .clone()
            .apply(&entry)
            .map_err(EventFileError::Refused)?;
        for table in &tables {
            create_table_log(state, round, table, &table_path(path, round, table.table))?;
        }
        Ok::<_, EventFileError>((vec![entry], round))
    })?;
    Ok(round)
}

/// Attaches the log at `log` as the result of table `table` of `round`
/// (the last seated if `None`); with `correction`, the reason a result
/// already attached is replaced.
pub fn attach(
    path: &Path,
    round: Option<u32>,
    table: u32,
    log: &Path,
    correction: Option<String>,
    clock: &dyn Clock,
) -> Result<TableResult, EventFileError> {
    attach_from(path, round, table, log, correction, clock).map(|(result, _)| result)
}

/// A table log attached from a file other than its table's: copied to the
/// table's path, where `event verify` and the standings check it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopiedIn {
    /// The table's path, now holding the attached log's bytes.
    pub to: std::path::PathBuf,
    /// Where the log it held before was kept, if it held another.
    pub kept: Option<std::path::PathBuf>,
}

/// [`attach`], saying whether the log was copied to its table's path: a
/// log attached from elsewhere (a copy, a phone's download) is written
/// there, the bytes its result's SHA-256 is of, and the log the table held
/// before is kept beside it as `table-T.jsonl.replaced-K`. Nothing is
/// copied when the result is refused.
pub fn attach_from(
    path: &Path,
    round: Option<u32>,
    table: u32,
    log: &Path,
    correction: Option<String>,
    clock: &dyn Clock,
) -> Result<(TableResult, Option<CopiedIn>), EventFileError> {
    // A shared lock on the table log from its reading until its result is
    // written: a server appending to it under its exclusive lock waits, then
    // finds the result and refuses the entry. A file that cannot be opened
    // is said so by the reading; the event log itself, given as the table's,
    // is not locked twice (it is refused as no table log).
    let file = (!same(path, log))
        .then(|| std::fs::File::open(log).ok())
        .flatten();
    let mut lock = file.map(fd_lock::RwLock::new);
    let _reading = match &mut lock {
        Some(lock) => Some(lock.read()?),
        None => None,
    };
    let (_, attached) = append(path, clock, |event: &EventLog| {
        let state = &event.state;
        let round = round.unwrap_or(state.seated());
        let correcting = correction.is_some();
        let result = read_result(state, round, table, log, correction)?;
        let home = table_path(path, round, table);
        let copied = match same(log, &home) {
            true => None,
            false => copy_in(log, &home, &result.hash)?,
        };
        let entry = if correcting {
            Entry::Corrected(result.clone())
        } else {
            Entry::Result(result.clone())
        };
        Ok::<_, EventFileError>((vec![entry], (result, copied)))
    })?;
    Ok(attached)
}

/// Writes the bytes of `log`, whose SHA-256 is `hash`, to `home`, keeping
/// the different log `home` held as `home.replaced-K` (the first K free).
/// `None` if `home` holds those bytes already.
fn copy_in(log: &Path, home: &Path, hash: &str) -> Result<Option<CopiedIn>, EventFileError> {
    use sha2::Digest;
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |error| EventFileError::Table(TableLogError::Io { path, error })
    };
    let bytes = std::fs::read(log).map_err(failed(log))?;
    let hex = |b: &[u8]| {
        (sha2::Sha256::digest(b).iter())
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
    };
    if hex(&bytes) != hash {
        let error = std::io::Error::other("it changed while it was read; attach it again");
        return Err(failed(log)(error));
    }
    let before = match std::fs::read(home) {
        Ok(before) if before == bytes => return Ok(None),
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(failed(home)(e)),
    };
    let kept = match before {
        false => None,
        true => {
            let name = home.file_name().unwrap_or_default().to_string_lossy();
            let kept = (1..)
                .map(|k| home.with_file_name(format!("{name}.replaced-{k}")))
                .find(|p| !p.exists())
                .expect("some number is free");
            std::fs::rename(home, &kept).map_err(failed(home))?;
            Some(kept)
        }
    };
    if let Some(dir) = home.parent() {
        std::fs::create_dir_all(dir).map_err(failed(dir))?;
    }
    crate::kit::atomic::write(home, &bytes).map_err(failed(home))?;
    let to = home.to_owned();
    Ok(Some(CopiedIn { to, kept }))
}

/// Whether `a` and `b` are one file.
fn same(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Which tables `event play` plays, and whether over entries recorded at
/// the table.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayOptions {
    /// One table of the round; every open table if `None`.
    pub table: Option<u32>,
    /// Play on after entries recorded at the table.
    pub force: bool,
}

/// Plays every table of the last round seated that has no result (or only
/// `options.table`) with `bot` in every player's seat and each bot's seat
/// by its own bot, writes each table's log and
/// attaches each result: the results attached. A table with an entry
/// recorded at the table is refused, before any table is played, unless
/// `options.force`.
pub fn play(
    path: &Path,
    bot: Bot,
    options: PlayOptions,
    clock: &dyn Clock,
) -> Result<Vec<TableResult>, EventFileError> {
    let event = EventLog::open(path)?;
    let state = &event.state;
    let round = state.seated();
    let seated = state.round(round).map_err(EventFileError::Refused)?;
    if state.closed {
        return Err(EventFileError::Refused(EventError::Closed));
    }
    if let Some(table) = options.table {
        seated.table(table).map_err(EventFileError::Refused)?;
        if seated.results.contains_key(&table) {
            return Err(EventFileError::Refused(EventError::Played { round, table }));
        }
    }
    let open: Vec<_> = (seated.tables.iter())
        .filter(|t| !seated.results.contains_key(&t.table))
        .filter(|t| options.table.is_none_or(|n| n == t.table))
        .collect();
    for table in &open {
        check_unrecorded(&table_path(path, round, table.table), options.force)?;
    }
    let mut results = Vec::new();
    for table in open {
        let log = table_path(path, round, table.table);
        let seed = table_seed(state.setup.seed, round, table.table);
        // A bot's seat is played by its own bot; the players' by `bot`.
        let bots: Vec<Bot> = (table.seats().into_iter())
            .map(|sitter| match sitter {
                Sitter::Bot(at) => at.bot,
                Sitter::Player(_) => bot,
            })
            .collect();
        play_table(
            state.setup.game,
            &log,
            bots.len(),
            &bots,
            seed,
            options.force,
        )?;
        results.push(attach(path, Some(round), table.table, &log, None, clock)?);
    }
    Ok(results)
}
