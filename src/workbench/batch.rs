//! A batch of games spread over the threads of the current rayon pool, so
//! that its result is the same on any thread count: each game has its own
//! seed ([`game_seed`]), each worker tallies the games it plays, and the
//! tallies merge in game order ([`batches`]).

use rayon::prelude::*;
use std::ops::Range;

/// The seed of game `i` of a batch seeded with `seed`.
pub fn game_seed(seed: u64, i: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i)
}

/// Games played in a row by one worker before it looks for more work.
const STRIDE: u64 = 32;

/// Plays the games of `games` on the current pool's threads. Each worker
/// adds the games it plays to a tally of its own (`empty()` at first,
/// `play` adding game `i`), and the tallies are merged in game order by
/// `merge`: no thread waits on another to tally, and as tallies merge
/// exactly (or, for a list, in order), the result is the same on any
/// thread count. `played` hears of each run of games done, by its count.
pub fn batches<A: Send, E: Send>(
    games: Range<u64>,
    empty: impl Fn() -> A + Sync + Send,
    play: impl Fn(&mut A, u64) -> Result<(), E> + Sync + Send,
    merge: impl Fn(A, A) -> A + Sync + Send,
    played: impl Fn(u64) + Sync + Send,
) -> Result<A, E> {
    // Runs of STRIDE games are the unit of work: few enough tallies to
    // start and merge, many enough to keep every thread busy to the end.
    let runs = (games.end - games.start).div_ceil(STRIDE);
    (0..runs)
        .into_par_iter()
        .try_fold(&empty, |mut tally, run| {
            let from = games.start + run * STRIDE;
            for i in from..(from + STRIDE).min(games.end) {
                play(&mut tally, i)?;
            }
            played((from + STRIDE).min(games.end) - from);
            Ok::<A, E>(tally)
        })
        .try_reduce(&empty, |a, b| Ok(merge(a, b)))
}
