//! The bounded pool of blocking work: every request that locks and reads a
//! log, folds or draws runs on tokio's blocking threads, but no more of
//! them at once than a few per core, so that a burst of requests queues
//! instead of growing hundreds of threads that share the same cores.
//!
//! A request takes its place in the pool before its work is started: a
//! request whose client has gone while it waited is dropped there, and its
//! work never starts.

use super::ApiError;
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// How many pieces of blocking work run at once: two per core, so that
/// work waiting on a disk (an append's fsync) leaves the cores busy.
fn places() -> &'static Arc<Semaphore> {
    static PLACES: OnceLock<Arc<Semaphore>> = OnceLock::new();
    PLACES.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(Semaphore::new((2 * cores).max(4)))
    })
}

/// Runs `work` on the blocking pool once a place is free. The work keeps
/// its place until it ends, even if its request is dropped meanwhile.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let place = places()
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
