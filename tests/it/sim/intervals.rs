//! The intervals the workbench prints, checked against plain readings of
//! their papers and on simulated data: a share's Wilson score interval and
//! Newcombe's paired interval of a difference of shares (his method 10,
//! Statistics in Medicine 17, 1998, with the continuity-corrected
//! correlation). The plain versions work from the counts of a 2×2 table,
//! as the papers write them; the library works from running sums.

use sunfold::kit::rng::SeededRng;
use sunfold::stats::sums::{paired_shares, paired_shares_p_value};
use sunfold::stats::{Sums, share_of};

const Z: f64 = 1.959_963_984_540_054;

/// Wilson's interval of `k` in `n`, as the textbook writes it.
fn plain_wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let root = Z * (Z * Z + 4.0 * n * p * (1.0 - p)).sqrt();
    let lower = (2.0 * n * p + Z * Z - root) / (2.0 * (n + Z * Z));
    let upper = (2.0 * n * p + Z * Z + root) / (2.0 * (n + Z * Z));
    (lower.max(0.0), upper.min(1.0))
}

/// A 2×2 table of pairs: `both` games where A and B both hold, `only_a`,
/// `only_b`, `neither`.
#[derive(Clone, Copy, Debug)]
struct Table {
    both: u64,
    only_a: u64,
    only_b: u64,
    neither: u64,
}

impl Table {
    fn n(&self) -> u64 {
        self.both + self.only_a + self.only_b + self.neither
    }
}

/// Newcombe's method 10 for p_B − p_A, from the table.
fn plain_newcombe(t: Table) -> (f64, f64, f64) {
    let n = t.n();
    let (ka, kb) = (t.both + t.only_a, t.both + t.only_b);
    let (pa, pb) = (ka as f64 / n as f64, kb as f64 / n as f64);
    let (la, ua) = plain_wilson(ka, n);
    let (lb, ub) = plain_wilson(kb, n);
    // φ with the continuity correction: AD − BC moved N/2 towards 0.
    let ad_bc = t.both as f64 * t.neither as f64 - t.only_a as f64 * t.only_b as f64;
    let half = n as f64 / 2.0;
    let corrected = if ad_bc > half {
        ad_bc - half
    } else if ad_bc < -half {
        ad_bc + half
    } else {
        0.0
    };
    let margins = (ka * (n - ka)) as f64 * (kb * (n - kb)) as f64;
    let phi = if margins == 0.0 {
        0.0
    } else {
        corrected / margins.sqrt()
    };
    let d = pb - pa;
    let lower =
        d - ((pb - lb).powi(2) - 2.0 * phi * (pb - lb) * (ua - pa) + (ua - pa).powi(2)).sqrt();
    let upper =
        d + ((ub - pb).powi(2) - 2.0 * phi * (ub - pb) * (pa - la) + (pa - la).powi(2)).sqrt();
    (d, lower, upper)
}

/// The library's interval of the same pairs, through the sums a report
/// keeps.
fn library(t: Table) -> (f64, f64, f64) {
    let (mut a, mut b, mut d) = (Sums::default(), Sums::default(), Sums::default());
    let mut add = |x: f64, y: f64, count: u64| {
        for _ in 0..count {
            a.add(x);
            b.add(y);
            d.add(y - x);
        }
    };
    add(1.0, 1.0, t.both);
    add(1.0, 0.0, t.only_a);
    add(0.0, 1.0, t.only_b);
    add(0.0, 0.0, t.neither);
    let e = paired_shares(&a, &b, &d);
    // Significant at 5% exactly when the 95% interval leaves out 0 (up to
    // the last bits, where a bound touches 0).
    let p = paired_shares_p_value(&a, &b, &d);
    let excludes = e.ci95[0] > 1e-9 || e.ci95[1] < -1e-9;
    let includes = e.ci95[0] < -1e-9 && e.ci95[1] > 1e-9;
    assert!(
        !((excludes && p >= 0.05) || (includes && p < 0.05)),
        "{t:?}: {e:?}, p {p}"
    );
    (e.estimate, e.ci95[0], e.ci95[1])
}

/// A number of pairs from 1 to 10,000, small ones as often as large.
fn pairs(rng: &mut SeededRng) -> u64 {
    let decade = rng.below(5) as u32;
    (1 + rng.below(10u64.pow(decade))).min(10_000)
}

fn random_table(rng: &mut SeededRng) -> Table {
    let n = pairs(rng);
    match rng.below(6) {
        // All zero, all one, and one-sided extremes.
        0 => Table {
            both: 0,
            only_a: 0,
            only_b: 0,
            neither: n,
        },
        1 => Table {
            both: n,
            only_a: 0,
            only_b: 0,
            neither: 0,
        },
        2 => Table {
            both: 0,
            only_a: 0,
            only_b: n,
            neither: 0,
        },
        _ => {
            let mut cells = [0u64; 4];
            let weights = [rng.below(100), rng.below(20), rng.below(20), rng.below(100)];
            let total: u64 = weights.iter().sum::<u64>().max(1);
            for _ in 0..n {
                let mut draw = rng.below(total);
                let mut cell = 3;
                for (i, w) in weights.iter().enumerate() {
                    if draw < *w {
                        cell = i;
                        break;
                    }
                    draw -= w;
                }
                cells[cell] += 1;
            }
            Table {
                both: cells[0],
                only_a: cells[1],
                only_b: cells[2],
                neither: cells[3],
            }
        }
    }
}

#[test]
fn the_paired_interval_is_newcombes_has_width_and_stays_within_its_range() {
    let mut rng = SeededRng::new(46);
    for _ in 0..3_000 {
        let t = random_table(&mut rng);
        let (d, lower, upper) = library(t);
        let (plain_d, plain_lower, plain_upper) = plain_newcombe(t);
        let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
        assert!(
            close(d, plain_d) && close(lower, plain_lower) && close(upper, plain_upper),
            "{t:?}: library {d} [{lower}, {upper}], plain {plain_d} [{plain_lower}, {plain_upper}]"
        );
        assert!(upper > lower, "{t:?}: no width: [{lower}, {upper}]");
        assert!(
            (-1.0..=1.0).contains(&lower) && (-1.0..=1.0).contains(&upper),
            "{t:?}: [{lower}, {upper}] leaves [−1, 1]"
        );
        assert!(
            lower <= d && d <= upper,
            "{t:?}: {d} outside [{lower}, {upper}]"
        );
    }
}

#[test]
fn a_share_never_seen_or_always_seen_keeps_its_width_from_1_to_10000_games() {
    for n in [1, 2, 3, 10, 100, 1_000, 10_000] {
        for k in [0, n] {
            let e = share_of(k, n);
            let (lower, upper) = plain_wilson(k, n);
            assert!((e.ci95[0] - lower).abs() < 1e-12 && (e.ci95[1] - upper).abs() < 1e-12);
            assert!(e.ci95[1] > e.ci95[0], "{k} of {n}: {:?}", e.ci95);
            assert!(e.ci95[0] >= 0.0 && e.ci95[1] <= 1.0);
        }
    }
}

/// Pairs drawn with cell chances `p` (both, only A, only B, neither).
fn draw(rng: &mut SeededRng, n: u64, p: [u64; 4]) -> Table {
    let mut cells = [0u64; 4];
    for _ in 0..n {
        let mut x = rng.below(10_000);
        let mut cell = 3;
        for (i, w) in p.iter().enumerate() {
            if x < *w {
                cell = i;
                break;
            }
            x -= w;
        }
        cells[cell] += 1;
    }
    Table {
        both: cells[0],
        only_a: cells[1],
        only_b: cells[2],
        neither: cells[3],
    }
}

#[test]
fn the_paired_interval_covers_the_true_difference_about_95_times_in_100() {
    let mut rng = SeededRng::new(95);
    // Chances in 10,000 of: both, only A, only B, neither.
    let cases: [([u64; 4], u64); 4] = [
        ([2_500, 500, 1_000, 6_000], 200),
        ([0, 100, 200, 9_700], 400),
        ([4_000, 1_000, 1_000, 4_000], 100),
        ([9_000, 300, 100, 600], 300),
    ];
    for (p, n) in cases {
        let truth = (p[2] as f64 - p[1] as f64) / 10_000.0;
        let runs = 2_000;
        let covered = (0..runs)
            .filter(|_| {
                let (_, lower, upper) = library(draw(&mut rng, n, p));
                lower <= truth && truth <= upper
            })
            .count();
        let coverage = covered as f64 / runs as f64;
        assert!(
            (0.925..=0.99).contains(&coverage),
            "cells {p:?} at {n} pairs: coverage {coverage}"
        );
    }
}

#[test]
fn wilsons_interval_covers_the_true_share_about_95_times_in_100() {
    let mut rng = SeededRng::new(96);
    for (chance, n) in [(1_000, 100), (5_000, 50), (200, 1_000), (9_500, 200)] {
        let truth = chance as f64 / 10_000.0;
        let runs = 2_000;
        let covered = (0..runs)
            .filter(|_| {
                let k = (0..n).filter(|_| rng.below(10_000) < chance).count() as u64;
                let e = share_of(k, n);
                e.ci95[0] <= truth && truth <= e.ci95[1]
            })
            .count();
        let coverage = covered as f64 / runs as f64;
        assert!(
            (0.92..=0.985).contains(&coverage),
            "{truth} at {n}: coverage {coverage}"
        );
    }
}

/// Shares of a game's seats (k of 4 players), paired: every interval has
/// width unless the share is fixed by the setup, and stays within [−1, 1].
#[test]
fn a_paired_share_of_seats_keeps_its_width_and_its_range() {
    let mut rng = SeededRng::new(47);
    for case in 0..2_000 {
        let n = pairs(&mut rng);
        let (mut a, mut b, mut d) = (Sums::default(), Sums::default(), Sums::default());
        // Some cases the same in every game, in one variant or both.
        let (fixed_a, fixed_b) = (rng.below(4) == 0, rng.below(4) == 0);
        let (mut seen_a, mut seen_b) = (Vec::new(), Vec::new());
        let (base_a, base_b) = (rng.below(5), rng.below(5));
        for _ in 0..n {
            let x = if fixed_a { base_a } else { rng.below(5) } as f64 / 4.0;
            let y = if fixed_b {
                base_b as f64 / 4.0
            } else if rng.below(3) == 0 {
                x
            } else {
                rng.below(5) as f64 / 4.0
            };
            a.add(x);
            b.add(y);
            d.add(y - x);
            seen_a.push(x);
            seen_b.push(y);
        }
        let e = paired_shares(&a, &b, &d);
        let [lower, upper] = e.ci95;
        assert!(
            (-1.0..=1.0).contains(&lower) && (-1.0..=1.0).contains(&upper),
            "case {case}: [{lower}, {upper}] leaves [−1, 1]"
        );
        assert!(lower <= e.estimate && e.estimate <= upper, "case {case}");
        // The same value strictly between 0 and 1 in every one of two
        // games or more: fixed by the setup, the one case with no width.
        let fixed = |seen: &[f64]| {
            seen.len() > 1 && seen.iter().all(|&v| v == seen[0]) && seen[0] > 0.0 && seen[0] < 1.0
        };
        if !(fixed(&seen_a) && fixed(&seen_b)) {
            assert!(upper > lower, "case {case}: {n} games, no width: {e:?}");
        }
    }
}
