//! The event log's fold, kept between requests. The room reads its event
//! on every post (is the table's result attached?), every poll of the
//! board and every second (which tables are over): it reads the file's
//! bytes each time, under no lock, and folds them again only when they
//! differ from the bytes last folded. A result attached by `sunfold event
//! result` in another process changes the bytes, so it is seen at once.

use super::open_event_error;
use crate::event::EventLog;
use crate::serve::ApiError;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The fold of the event log at one path, with the bytes it was folded
/// from.
pub struct EventFold {
    path: PathBuf,
    kept: Mutex<Option<(Vec<u8>, Arc<EventLog>)>>,
    /// How many times the log was folded.
    #[cfg(test)]
    folds: std::sync::atomic::AtomicU64,
}

impl EventFold {
    pub fn new(path: PathBuf) -> EventFold {
        EventFold {
            path,
            kept: Mutex::new(None),
            #[cfg(test)]
            folds: Default::default(),
        }
    }

    /// The event as its log stands now, or why it cannot be read, as
    /// [`super::open_event`] says it.
    pub fn read(&self) -> Result<Arc<EventLog>, ApiError> {
        let bytes = std::fs::read(&self.path)
            .map_err(|error| open_event_error(&self.path, error.into()))?;
        let mut kept = self
            .kept
            .lock()
            .expect("the event's fold is never poisoned");
        if let Some((folded, log)) = &*kept
            && *folded == bytes
        {
            return Ok(log.clone());
        }
        #[cfg(test)]
        self.folds.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let log =
            Arc::new(EventLog::read(&bytes).map_err(|error| open_event_error(&self.path, error))?);
        *kept = Some((bytes, log.clone()));
        Ok(log)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn the_event_is_folded_again_only_when_its_bytes_change() {
        // Given an event log, read once.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("autumn.jsonl");
        let log = include_str!("../../../tests/older-formats/events/autumn.jsonl");
        std::fs::write(&path, log).unwrap();
        let fold = EventFold::new(path.clone());
        let before = fold.read();
        // When it is read again unchanged, then again after a change.
        let again = fold.read();
        std::fs::write(&path, format!("{log}{{\"torn")).unwrap();
        let changed = fold.read();
        // Then the unchanged log was not folded again, the changed one was,
        // and its problem is told as opening it tells it.
        let (before, again) = (before.unwrap(), again.unwrap());
        assert!(Arc::ptr_eq(&before, &again));
        assert_eq!(fold.folds.load(Ordering::SeqCst), 2);
        let error = changed.expect_err("a torn line is refused").into_text();
        assert!(error.contains("sunfold repair"), "{error}");
    }
}
