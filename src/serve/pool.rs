//! The bounded pool of blocking work: every request that locks and reads a
//! log, folds or draws runs on tokio's blocking threads, but no more of
//! them at once than a few per core, so that a burst of requests queues
//! instead of growing hundreds of threads that share the same cores.
//!
//! A request takes its place in the pool before its work is started: a
//! request whose client has gone while it waited is dropped there, and its
//! work never starts.
//!
//! Appends have places of their own ([`appending`]): a post is short (a
//! lock, a check, a write and its fsync) and a player waits for it, while
//! the views a post sets off draw sheets; a post never queues behind them.

use super::ApiError;
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// How many pieces of blocking work run at once: two per core, so that
/// work waiting on a disk (an append's fsync) leaves the cores busy.
fn places() -> &'static Arc<Semaphore> {
    static PLACES: OnceLock<Arc<Semaphore>> = OnceLock::new();
    PLACES.get_or_init(new)
}

/// The places of appends, as many as [`places`], apart from them.
fn appends() -> &'static Arc<Semaphore> {
    static APPENDS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    APPENDS.get_or_init(new)
}

fn new() -> Arc<Semaphore> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    Arc::new(Semaphore::new((2 * cores).max(4)))
}

/// Runs `work` on the blocking pool once a place is free. The work keeps
/// its place until it ends, even if its request is dropped meanwhile.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run(places(), work).await
}

/// [`blocking`], for an append: its place is taken among the appends',
/// so that it never waits for the drawings of views.
pub async fn appending<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    run(appends(), work).await
}

async fn run<T: Send + 'static>(
    places: &Arc<Semaphore>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let place = places
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("the server is stopping".to_owned()))?;
    tokio::task::spawn_blocking(move || {
        let _place = place;
        work()
    })
    .await
    .map_err(|_| ApiError::Internal("the request failed".to_owned()))?
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Long enough to mean that something waits that should not: it only
    /// turns a hang into a failure.
    const HANG: Duration = Duration::from_secs(120);

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_append_never_waits_for_a_place_held_by_other_work() {
        // Given every place of the pool held by work that waits (views
        // drawing sheets)...
        let held = places().available_permits();
        let (release, released) = std::sync::mpsc::channel::<()>();
        let released = Arc::new(std::sync::Mutex::new(released));
        let (started, starts) = mpsc::channel();
        let mut views = Vec::new();
        for _ in 0..held {
            let (released, started) = (released.clone(), started.clone());
            views.push(tokio::spawn(blocking(move || {
                started.send(()).unwrap();
                let _ = released.lock().unwrap().recv_timeout(HANG);
                Ok(())
            })));
        }
        for _ in 0..held {
            starts.recv_timeout(HANG).expect("every place is taken");
        }
        assert_eq!(places().available_permits(), 0);
        // ...when a post's append asks for its place, then it runs now.
        let appended = tokio::time::timeout(HANG, appending(|| Ok(42))).await;
        assert_eq!(appended.expect("the append never waited").unwrap(), 42);
        for _ in 0..held {
            release.send(()).unwrap();
        }
        for view in views {
            view.await.unwrap().unwrap();
        }
    }
}
