//! A portable seeded generator: a seed means the same numbers forever.
//!
//! ChaCha8 (from `rand_chacha`, whose output stream is fixed by the ChaCha
//! specification) keyed by our own expansion of a `u64` seed, with our own
//! unbiased range reduction. Nothing here depends on `rand`'s distribution
//! code, which may change between versions.
//!
//! - key: four splitmix64 outputs from the seed, each little-endian;
//! - `below(n)`: draw `next_u64`, reject draws at or above the largest
//!   multiple of `n`, return the draw modulo `n`.
//!
//! The rules cores never use this: randomness lives at the edges (digital
//! dice, deck shuffles, bots), and its results are written into the log.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

pub struct SeededRng(ChaCha8Rng);

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SeededRng {
    pub fn new(seed: u64) -> Self {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        SeededRng(ChaCha8Rng::from_seed(key))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform number in `0..n`. `n` must not be 0.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value to return");
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let draw = self.next_u64();
            if draw < zone {
                return draw % n;
            }
        }
    }

    /// A die face, 1 to 6.
    pub fn die(&mut self) -> u8 {
        1 + self.below(6) as u8
    }

    /// `true` with probability `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pins the stream: if this changes, every seed in every log changes.
    #[test]
    fn a_seed_means_the_same_numbers_forever() {
        let mut rng = SeededRng::new(1);
        let dice: Vec<u8> = (0..12).map(|_| rng.die()).collect();
        assert_eq!(dice, [3, 2, 3, 1, 5, 5, 4, 6, 4, 5, 6, 2]);
    }
}
