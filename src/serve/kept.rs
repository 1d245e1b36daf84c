//! Each table log's fold, kept in memory between requests; the log stays
//! the truth. Every request still takes the log's lock and reads its
//! bytes, but folds them only when they are not the bytes it last folded
//! (a longer log, or one whose content changed at the same length): a
//! comparison of bytes costs far less than a fold. An entry this server
//! appends extends the kept fold by its one event.
//!
//! The lock is held only to read or append the log: a reader gets a
//! [`Snapshot`], an `Arc` of the fold, and draws from it after the lock is
//! released. The room's board reads its tables' folds from the same
//! [`Kept`], so a poll folds no table whose log did not change.

use crate::kit::game::Game;
use crate::log::{Fold, Session};
use crate::table::{TableError, with_session};
use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The folds of the table logs one server has read, by path.
#[derive(Default)]
pub struct Kept {
    logs: Mutex<HashMap<PathBuf, Arc<Folded>>>,
    /// The reviews of finished games, kept by their log's hash.
    pub reviews: Arc<super::review::Reviews>,
}

/// A log's bytes and their fold.
struct Folded {
    bytes: Vec<u8>,
    /// An `Arc<Fold<G>>` of the log's game `G`.
    fold: Arc<dyn Any + Send + Sync>,
    generation: u64,
}

/// A table's fold as its log stood when it was read, and what tells that
/// fold from every other this process made.
pub struct Snapshot<G: Game> {
    pub fold: Arc<Fold<G>>,
    /// Unique to this fold of these bytes in this process: a drawing of
    /// the whole fold (the Summertime table) is kept under it.
    pub generation: u64,
}

/// The next generation: every fold kept gets its own.
fn next_generation() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Kept {
    pub fn new() -> Arc<Kept> {
        Arc::new(Kept::default())
    }

    fn get(&self, path: &Path) -> Option<Arc<Folded>> {
        let logs = self.logs.lock().expect("the kept folds are never poisoned");
        logs.get(path).cloned()
    }

    fn put(&self, path: &Path, bytes: &[u8], fold: Arc<dyn Any + Send + Sync>) -> u64 {
        let generation = next_generation();
        let folded = Arc::new(Folded {
            bytes: bytes.to_vec(),
            fold,
            generation,
        });
        let mut logs = self.logs.lock().expect("the kept folds are never poisoned");
        logs.insert(path.to_owned(), folded);
        generation
    }

    /// The fold of the log of `session`, at `path`: the one kept when its
    /// bytes are those read under the lock, else a new fold of them, kept.
    fn fold_of<G, E>(&self, path: &Path, session: &Session<'_>) -> Result<Snapshot<G>, E>
    where
        G: Game + 'static,
        Fold<G>: Send + Sync,
        E: From<TableError<G>>,
    {
        if let Some(folded) = self.get(path)
            && folded.bytes == session.bytes()
            && let Ok(fold) = folded.fold.clone().downcast::<Fold<G>>()
        {
            return Ok(Snapshot {
                fold,
                generation: folded.generation,
            });
        }
        let fold = Arc::new(crate::table::fold::<G, E>(path, session)?);
        let generation = self.put(path, session.bytes(), fold.clone());
        Ok(Snapshot { fold, generation })
    }

    /// The fold of the log at `path` as it stands, read under the log's
    /// lock, which is released when this returns.
    pub fn read<G, E>(&self, path: &Path) -> Result<Snapshot<G>, E>
    where
        G: Game + 'static,
        Fold<G>: Send + Sync,
        E: From<TableError<G>>,
    {
        with_session::<G, _, E>(path, |session| self.fold_of::<G, E>(path, session))
    }

    /// Runs `work` on the session and a fold of the log at `path` under the
    /// log's lock, as [`crate::table::with_table`] does; what `work`
    /// appends extends the fold kept.
    pub fn write<G, T, E>(
        &self,
        path: &Path,
        work: impl FnOnce(&mut Session<'_>, &mut Fold<G>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        G: Game + 'static,
        Fold<G>: Send + Sync,
        E: From<TableError<G>>,
    {
        with_session::<G, _, E>(path, |session| {
            let kept = self.fold_of::<G, E>(path, session)?;
            let before = session.bytes().len();
            let mut fold = Fold::clone(&kept.fold);
            let done = work(session, &mut fold)?;
            if session.bytes().len() != before {
                self.put(path, session.bytes(), Arc::new(fold));
            }
            Ok(done)
        })
    }
}
