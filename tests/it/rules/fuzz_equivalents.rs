//! The fuzz targets' entry points, driven by a seeded mutator in `cargo
//! test`: the same code `cargo fuzz` runs (see fuzz/), kept compiling and
//! exercised in CI. Nothing may panic, whatever the bytes.

use crate::common;

use sunfold::kit::rng::SeededRng;

fn mutated(seed: &[u8], rng: &mut SeededRng) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for _ in 0..1 + rng.below(6) {
        if bytes.is_empty() {
            bytes.push(b'{');
        }
        let at = rng.below(bytes.len() as u64) as usize;
        match rng.below(5) {
            0 => bytes[at] = rng.below(256) as u8,
            1 => {
                let end = (at + 1 + rng.below(40) as usize).min(bytes.len());
                bytes.drain(at..end);
            }
            2 => {
                let piece: &[u8] = [
                    &b"9"[..],
                    b"\"",
                    b"{",
                    b"}",
                    b",",
                    b"\n",
                    b"-1",
                    b"99999999999999999999",
                    b"null",
                    b"[]",
                    b"\xff",
                ][rng.below(11) as usize];
                bytes.splice(at..at, piece.iter().copied());
            }
            3 => bytes.truncate(at),
            _ => {
                // Duplicate a line-sized piece elsewhere.
                let end = (at + rng.below(120) as usize).min(bytes.len());
                let piece = bytes[at..end].to_vec();
                let to = rng.below(bytes.len() as u64 + 1) as usize;
                bytes.splice(to..to, piece);
            }
        }
    }
    bytes
}

fn drive(dir: &str, extension: &str, runs: u64, target: fn(&[u8])) {
    let seeds: Vec<Vec<u8>> = common::files(&common::repo().join(dir), extension)
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert!(!seeds.is_empty());
    let mut rng = SeededRng::new(2026);
    for _ in 0..runs {
        let seed = &seeds[rng.below(seeds.len() as u64) as usize];
        target(&mutated(seed, &mut rng));
    }
}

#[test]
fn the_log_target_never_panics_on_mutated_logs() {
    drive("replays", "jsonl", 1500, sunfold::fuzz::log);
    drive("tests/bad", "jsonl", 1500, sunfold::fuzz::log);
}

#[test]
fn the_template_target_never_panics_on_mutated_templates() {
    drive("sheet-templates", "json", 1500, sunfold::fuzz::template);
    drive("tests/templates", "json", 1500, sunfold::fuzz::template);
}
