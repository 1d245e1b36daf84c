//! The event log on disk: read and checked line by line, created whole, and
//! appended under an exclusive lock with one write and a sync, as a match
//! log is. The entries are checked against the event read under the lock
//! before anything is written, so a refusal leaves the file's bytes as
//! they were. Each line carries the time it was written (`at`), never
//! earlier than the line before it; lines written before event logs
//! carried times have none.

use super::entry::Entry;
use super::error::{EventError, EventFileError};
use super::state::EventState;
use crate::log::{Envelope, LineReader, Located, decode_entry, to_line};
use crate::table::Clock;
use chrono::{DateTime, FixedOffset};
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// An event log read to its end: its entries and the event they describe.
#[derive(Clone, Debug)]
pub struct EventLog {
    pub entries: Vec<Entry>,
    /// When each entry was written, as its line's `at` says.
    pub times: Vec<Option<DateTime<FixedOffset>>>,
    pub state: EventState,
    /// The last line's bytes, for the next line's `prev`.
    last: Vec<u8>,
}

/// The folder of an event's table logs: `EVENT.d` beside `EVENT.jsonl`.
pub fn tables_dir(event: &Path) -> PathBuf {
    event.with_extension("d")
}

/// The event's name on its papers and pages: its file's, without the
/// folder or the extension.
pub fn event_name(event: &Path) -> String {
    event
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Where the log of table `table` of round `round` lives.
pub fn table_path(event: &Path, round: u32, table: u32) -> PathBuf {
    tables_dir(event)
        .join(format!("round-{round}"))
        .join(format!("table-{table}.jsonl"))
}

/// Whether `bytes` start as an event log does, not a match log: their
/// first line is an entry whose `type` is `created`.
pub fn is_event_log(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct First {
        #[serde(rename = "type")]
        kind: String,
    }
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    serde_json::from_slice::<First>(first).is_ok_and(|f| f.kind == "created")
}

/// Whether the file at `path` starts as an event log does: its first line
/// read, not the whole file.
pub fn is_event_file(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = Vec::new();
    let read = std::io::BufReader::new(file).read_until(b'\n', &mut first);
    read.is_ok() && is_event_log(&first)
}

impl EventLog {
    /// Reads an event log from its bytes: every line decoded, its seq and
    /// hash chain checked, and every entry applied.
    pub fn read(bytes: &[u8]) -> Result<EventLog, EventFileError> {
        let mut reader = LineReader::new(bytes);
        let mut log: Option<EventLog> = None;
        while let Some(line) = reader.next_line()? {
            let seq = log.as_ref().map_or(0, |l| l.entries.len() as u64);
            let last = log.as_ref().map(|l| l.last.as_slice());
            let envelope: Envelope<Entry> =
                decode_entry(&line, seq, last).map_err(EventFileError::Decode)?;
            let locate = |error| {
                EventFileError::Rule(Located {
                    line: line.number,
                    seq: Some(seq),
                    kind: Some(envelope.event.kind().to_owned()),
                    error,
                })
            };
            match &mut log {
                None => {
                    let state = EventState::created(&envelope.event).map_err(locate)?;
                    log = Some(EventLog {
                        entries: vec![envelope.event],
                        times: vec![envelope.at],
                        state,
                        last: line.bytes.to_vec(),
                    });
                }
                Some(log) => {
                    log.state.apply(&envelope.event).map_err(locate)?;
                    log.entries.push(envelope.event);
                    log.times.push(envelope.at);
                    log.last = line.bytes.to_vec();
                }
            }
        }
        log.ok_or(EventFileError::Empty)
    }

    /// Reads the event log at `path`.
    pub fn open(path: &Path) -> Result<EventLog, EventFileError> {
        EventLog::read(&std::fs::read(path)?)
    }

    /// When the event was played: the time its first round was seated, or
    /// it was created if no round is; none in a log written before event
    /// logs carried times.
    pub fn played(&self) -> Option<DateTime<FixedOffset>> {
        let seated = (self.entries.iter()).position(|e| matches!(e, Entry::Seated { .. }));
        self.times[seated.unwrap_or(0)]
    }

    /// The time to write on the next line at `now`: `now`, or the last
    /// line's time when the clock reads earlier (it was set back, or
    /// another machine wrote that line), so that a log's times never go
    /// backwards.
    fn stamp(&self, now: DateTime<FixedOffset>) -> DateTime<FixedOffset> {
        match self.times.iter().rev().find_map(|t| *t) {
            Some(last) if last > now => last.with_timezone(now.offset()),
            _ => now,
        }
    }

    /// The lines that append `entries` at `now`, each checked against the
    /// event as the ones before it leave it: the lines and the event after
    /// them.
    fn lines(
        &self,
        entries: &[Entry],
        now: DateTime<FixedOffset>,
    ) -> Result<(String, EventLog), EventError> {
        let mut after = self.clone();
        let mut text = String::new();
        let at = self.stamp(now);
        for entry in entries {
            after.state.apply(entry)?;
            let line = to_line(&Envelope {
                seq: after.entries.len() as u64,
                at: Some(at),
                prev: Some(crate::log::line_hash(&after.last)),
                by: None,
                event: entry.clone(),
            });
            after.last = line.trim_end().as_bytes().to_vec();
            after.entries.push(entry.clone());
            after.times.push(Some(at));
            text.push_str(&line);
        }
        Ok((text, after))
    }
}

/// Writes a new event log of `entries`, the first of them `created`,
/// stamped with the time `clock` reads, refusing to overwrite an existing
/// file unless `force`.
pub fn create(
    path: &Path,
    entries: &[Entry],
    force: bool,
    clock: &dyn Clock,
) -> Result<EventLog, EventFileError> {
    let now = clock.now();
    let (first, rest) = entries.split_first().ok_or(EventFileError::Empty)?;
    let state = EventState::created(first).map_err(EventFileError::Refused)?;
    let line = to_line(&Envelope {
        seq: 0,
        at: Some(now),
        prev: None,
        by: None,
        event: first.clone(),
    });
    let start = EventLog {
        entries: vec![first.clone()],
        times: vec![Some(now)],
        state,
        last: line.trim_end().as_bytes().to_vec(),
    };
    let (more, log) = start.lines(rest, now).map_err(EventFileError::Refused)?;
    crate::log::write_new(path, format!("{line}{more}").as_bytes(), force)?;
    Ok(log)
}

/// Appends the entries `decide` gives for the event as read under an
/// exclusive lock, stamped with the time `clock` reads once they are
/// decided: all of them with one write and a sync, or none. What
/// `decide` refuses, or an entry the event refuses, leaves the file as it
/// was. Gives the event after the entries, and what `decide` said besides.
pub fn append<T, E: From<EventFileError>>(
    path: &Path,
    clock: &dyn Clock,
    decide: impl FnOnce(&EventLog) -> Result<(Vec<Entry>, T), E>,
) -> Result<(EventLog, T), E> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(EventFileError::from)?;
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = lock.write().map_err(EventFileError::from)?;
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_end(&mut bytes))
        .map_err(EventFileError::from)?;
    let log = EventLog::read(&bytes)?;
    let (entries, said) = decide(&log)?;
    let (mut text, after) = (log.lines(&entries, clock.now())).map_err(EventFileError::Refused)?;
    // A last line complete but for its newline (cut there by a crash, or
    // saved so by an editor) is ended first, as a match log's is.
    if bytes.last().is_some_and(|&b| b != b'\n') {
        text.insert(0, '\n');
    }
    file.seek(SeekFrom::End(0))
        .and_then(|_| file.write_all(text.as_bytes()))
        .and_then(|_| file.sync_all())
        .map_err(EventFileError::from)?;
    Ok((after, said))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::entry::{EVENT_FORMAT, EventGame, Player};
    use std::sync::Mutex;

    /// A clock that reads each of its times in turn, as a machine's clock
    /// that is set back would.
    struct Readings(Mutex<Vec<&'static str>>);

    impl Clock for Readings {
        fn now(&self) -> DateTime<FixedOffset> {
            let at = self.0.lock().unwrap().remove(0);
            DateTime::parse_from_rfc3339(at).unwrap()
        }
    }

    fn player(id: &str) -> Entry {
        let (id, name) = (id.to_owned(), id.to_uppercase());
        Entry::Registered(Player { id, name })
    }

    #[test]
    fn each_line_carries_its_time_and_the_times_never_go_back() {
        // Given an event created at ten, whose clock is then set back.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("club.jsonl");
        let clock = Readings(Mutex::new(vec![
            "2026-06-14T10:00:00+02:00",
            "2026-06-14T09:00:00+02:00",
            "2026-06-14T11:30:00+02:00",
        ]));
        let created = Entry::Created {
            format: EVENT_FORMAT,
            game: EventGame::Soleils,
            table_size: 4,
            rounds: 1,
            points: vec![1, 0],
            seed: 1,
            tie_breaks: Vec::new(),
            leftover: Default::default(),
            template: None,
            options: None,
            deck: None,
        };
        create(&path, &[created, player("ann")], false, &clock).unwrap();
        // When a player arrives at nine by the clock, and one at half past
        // eleven.
        for id in ["bob", "cid"] {
            append(&path, &clock, |_: &EventLog| {
                Ok::<_, EventFileError>((vec![player(id)], ()))
            })
            .unwrap();
        }
        // Then the lines read ten, ten, ten (not nine) and half past eleven,
        // and the event, seated no round, was played when it was created.
        let log = EventLog::open(&path).unwrap();
        let times: Vec<String> = (log.times.iter())
            .map(|t| t.unwrap().to_rfc3339())
            .collect();
        assert_eq!(
            times,
            [
                "2026-06-14T10:00:00+02:00",
                "2026-06-14T10:00:00+02:00",
                "2026-06-14T10:00:00+02:00",
                "2026-06-14T11:30:00+02:00"
            ]
        );
        assert_eq!(log.played(), log.times[0]);
    }
}
