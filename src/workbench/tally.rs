//! Adding up a batch game by game, in memory that stays flat however many
//! games are played, and building the [`Report`] at the end. A comparison
//! adds the games of A and B in pairs.
//!
//! Every sum is exact ([`Sums`]), so that tallies of any runs of games
//! merge ([`Tally::merge`]) into the bits one tally of them all gives:
//! worker threads tally their own games, and shards on other machines
//! write their tallies to be merged ([`crate::workbench::partial`]).

use crate::bots::run::{Bot, GameResult};
use crate::bots::variant::VariantInfo;
use crate::stats::metric::{Estimate, Metric, Section, Unit, both_labels};
use crate::stats::sums::{Fixed, Sums, paired_shares, paired_shares_p_value};
use crate::workbench::distribution::Distribution;
use crate::workbench::figures::{BotWins, Report, Row, SeatRange};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A share gets the Wilson score interval ([`Sums::share`]); any other
/// mean the normal approximation's.
fn estimate(unit: Unit, m: &Sums) -> Estimate {
    match unit {
        Unit::Share => m.share(),
        // A count is never below 0, nor is its interval.
        Unit::Count => {
            let e = m.estimate();
            Estimate {
                estimate: e.estimate,
                ci95: [e.ci95[0].max(0.0), e.ci95[1]],
            }
        }
        Unit::Points => m.estimate(),
    }
}

/// The figures the driver computes from the scores alone, for any game.
fn score_metrics(players: usize) -> Vec<Metric> {
    let mut m = vec![Metric::new(
        "mean_score",
        Section::Score,
        "all seats",
        Unit::Points,
    )];
    for p in 1..=players {
        m.push(Metric::new(
            format!("mean_score.seat_{p}"),
            Section::Score,
            format!("seat {p}"),
            Unit::Points,
        ));
    }
    for p in 1..=players {
        m.push(Metric::new(
            format!("win_rate.seat_{p}"),
            Section::Win,
            format!("seat {p}"),
            Unit::Share,
        ));
    }
    if players > 1 {
        m.push(Metric::new(
            "win_margin",
            Section::Win,
            "winning margin (first minus second)",
            Unit::Points,
        ));
        m.push(Metric::new(
            "tie",
            Section::Win,
            "games tied for first",
            Unit::Share,
        ));
    }
    m
}

/// The quantiles of the game length a report gives: id suffix, label and
/// quantile.
const QUANTILES: [(&str, &str, f64); 3] = [
    ("p10", "10th percentile", 0.1),
    ("median", "median", 0.5),
    ("p90", "90th percentile", 0.9),
];

/// The value at rank `rank` (from 1) of the sorted lengths `counts`.
fn at_rank(counts: &BTreeMap<u64, u64>, rank: u64) -> f64 {
    let mut seen = 0;
    for (&length, &games) in counts {
        seen += games;
        if seen >= rank {
            return length as f64;
        }
    }
    counts.keys().next_back().map_or(0.0, |&l| l as f64)
}

/// The `q` quantile of `counts` (nearest rank), with the distribution-free
/// 95% interval of order statistics: ranks `nq ± 1.96·√(nq(1−q))`, so the
/// interval holds whatever the shape of the lengths.
fn quantile(counts: &BTreeMap<u64, u64>, q: f64) -> Estimate {
    let n: u64 = counts.values().sum();
    if n == 0 {
        return Estimate {
            estimate: 0.0,
            ci95: [0.0, 0.0],
        };
    }
    let nf = n as f64;
    let half = crate::stats::metric::Z95 * (nf * q * (1.0 - q)).sqrt();
    let rank = |r: f64| (r.max(1.0).min(nf)) as u64;
    Estimate {
        estimate: at_rank(counts, rank((nf * q).ceil())),
        ci95: [
            at_rank(counts, rank((nf * q - half).floor())),
            at_rank(counts, rank((nf * q + half).ceil() + 1.0)),
        ],
    }
}

/// Each seat's share of the win: 1 / (number of winners) for the winners.
fn win_shares(totals: &[i64]) -> impl Iterator<Item = f64> + '_ {
    let best = totals.iter().copied().max().unwrap_or(0);
    let winners = totals.iter().filter(|&&t| t == best).count() as f64;
    totals
        .iter()
        .map(move |&t| if t == best { 1.0 / winners } else { 0.0 })
}

fn score_values(totals: &[i64], out: &mut Vec<f64>) {
    let n = totals.len().max(1) as f64;
    out.push(totals.iter().sum::<i64>() as f64 / n);
    out.extend(totals.iter().map(|&t| t as f64));
    out.extend(win_shares(totals));
    if totals.len() > 1 {
        let mut sorted = totals.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        out.push((sorted[0] - sorted[1]) as f64);
        out.push(f64::from(sorted[0] == sorted[1]));
    }
}

/// The figures that set bots against each other, when a batch has more
/// than one kind: per bot, its win rate and mean score; the skill figures,
/// the strongest bot against the weakest; and each seat's win rate when
/// the strongest bot holds it. A figure a game cannot measure (a bot not at
/// its table) is left out of that game's mean.
fn bot_metrics(kinds: &[Bot], players: usize) -> Vec<Metric> {
    if kinds.len() < 2 {
        return Vec::new();
    }
    let mut m = Vec::new();
    for bot in kinds {
        let name = bot.name();
        m.push(Metric::new(
            format!("bot.{name}.win_rate"),
            Section::Bots,
            format!("{name}: win rate per seat"),
            Unit::Share,
        ));
        m.push(Metric::new(
            format!("bot.{name}.mean_score"),
            Section::Bots,
            format!("{name}: mean score"),
            Unit::Points,
        ));
    }
    let (strong, weak) = (kinds[kinds.len() - 1].name(), kinds[0].name());
    m.push(Metric::new(
        "skill.win_share",
        Section::Skill,
        format!("{strong} beats {weak} (seat against seat, ties half)"),
        Unit::Share,
    ));
    m.push(Metric::new(
        "skill.score_gap",
        Section::Skill,
        format!("{strong} minus {weak}, mean score"),
        Unit::Points,
    ));
    for p in 1..=players {
        m.push(Metric::new(
            format!("fairness.seat_{p}"),
            Section::Fairness,
            format!("seat {p} as {strong}"),
            Unit::Share,
        ));
    }
    m
}

/// The values of [`bot_metrics`] for one game, `NaN` where the game does
/// not measure a figure.
fn bot_values(kinds: &[Bot], seats: &[Bot], totals: &[i64], out: &mut Vec<f64>) {
    if kinds.len() < 2 {
        return;
    }
    let shares: Vec<f64> = win_shares(totals).collect();
    let mean_over = |bot: Bot, of: &dyn Fn(usize) -> f64| {
        let (mut sum, mut n) = (0.0, 0.0);
        for (p, &b) in seats.iter().enumerate() {
            if b == bot {
                sum += of(p);
                n += 1.0;
            }
        }
        if n == 0.0 { f64::NAN } else { sum / n }
    };
    for &bot in kinds {
        out.push(mean_over(bot, &|p| shares[p]));
        out.push(mean_over(bot, &|p| totals[p] as f64));
    }
    let (strong, weak) = (kinds[kinds.len() - 1], kinds[0]);
    let (mut beats, mut pairs) = (0.0, 0.0);
    for (i, &a) in seats.iter().enumerate() {
        for (j, &b) in seats.iter().enumerate() {
            if a == strong && b == weak {
                pairs += 1.0;
                beats += match totals[i].cmp(&totals[j]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
    }
    out.push(if pairs == 0.0 {
        f64::NAN
    } else {
        beats / pairs
    });
    out.push(mean_over(strong, &|p| totals[p] as f64) - mean_over(weak, &|p| totals[p] as f64));
    for (p, &b) in seats.iter().enumerate() {
        out.push(if b == strong { shares[p] } else { f64::NAN });
    }
}

/// The distinct bots of a batch, weakest first.
pub fn kinds(bots: &[Bot]) -> Vec<Bot> {
    let mut kinds = bots.to_vec();
    kinds.sort_by_key(|b| b.strength());
    kinds.dedup();
    kinds
}

/// A kind of bot's wins: games won (ties share) and seats played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Won {
    won: Fixed,
    seated: u64,
}

/// One variant's batch so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Tally {
    info: VariantInfo,
    players: usize,
    bots: Vec<Bot>,
    /// The distinct bots, weakest first.
    kinds: Vec<Bot>,
    metrics: Vec<Metric>,
    /// Per metric, the sums of its per-game values.
    sums: Vec<Sums>,
    /// The score distribution; a comparison keeps its own, paired.
    distribution: Option<Distribution>,
    /// Per seat, the lowest and highest score.
    seats: Vec<(i64, i64)>,
    /// Per kind of bot, by name.
    bot_wins: BTreeMap<Bot, Won>,
    /// How many games lasted each length (rounds or turns): the first
    /// figure of the game-length section, for its quantiles.
    lengths: BTreeMap<u64, u64>,
    /// Reused per game.
    #[serde(skip)]
    values: Vec<f64>,
}

impl Tally {
    /// The sums of figure `id`'s per-game values, if the tally has it.
    pub fn sums_of(&self, id: &str) -> Option<&Sums> {
        let i = self.metrics.iter().position(|m| m.id == id)?;
        self.sums.get(i)
    }

    /// The value of figure `id` in the game added last, if the tally has
    /// that figure; `NaN` where that game does not measure it.
    pub fn last_value(&self, id: &str) -> Option<f64> {
        let i = self.metrics.iter().position(|m| m.id == id)?;
        self.values.get(i).copied()
    }

    /// A tally of `players`-player games with the game's own `metrics`.
    pub fn new(info: VariantInfo, players: usize, bots: &[Bot], metrics: Vec<Metric>) -> Self {
        let kinds = kinds(bots);
        let mut all = score_metrics(players);
        all.extend(bot_metrics(&kinds, players));
        all.extend(metrics);
        Tally {
            info,
            players,
            bots: bots.to_vec(),
            kinds,
            sums: vec![Sums::default(); all.len()],
            metrics: all,
            distribution: Some(Distribution::new(false)),
            seats: vec![(i64::MAX, i64::MIN); players],
            bot_wins: BTreeMap::new(),
            lengths: BTreeMap::new(),
            values: Vec::new(),
        }
    }

    /// The index of the game-length figure whose quantiles are reported.
    fn length(&self) -> Option<usize> {
        self.metrics
            .iter()
            .position(|m| m.section == Section::Length && m.unit == Unit::Count)
    }

    /// The rows of the length's 10th percentile, median and 90th
    /// percentile, each with its distribution-free interval.
    fn length_rows(&self) -> Vec<(Metric, Estimate)> {
        let Some(i) = self.length() else {
            return Vec::new();
        };
        let metric = &self.metrics[i];
        QUANTILES
            .iter()
            .map(|&(suffix, label, q)| {
                (
                    Metric::new(
                        format!("{}.{suffix}", metric.id),
                        Section::Length,
                        format!("{}: {label}", metric.label),
                        Unit::Count,
                    ),
                    quantile(&self.lengths, q),
                )
            })
            .collect()
    }

    /// The bot of seat `p` in the first game.
    fn bot(&self, p: usize) -> Bot {
        self.bots[p % self.bots.len()]
    }

    /// Whether the bots turn seats from game to game.
    fn rotated(&self) -> bool {
        self.kinds.len() > 1
    }

    /// What a seat's bot is called in a report: its bot, or `rotated`.
    fn seat_bot(&self, p: usize) -> String {
        if self.rotated() {
            "rotated".to_owned()
        } else {
            self.bot(p).name()
        }
    }

    /// Adds game `i`; its values are left in `self.values` for a pairing.
    pub fn add<G: crate::bots::Simulated>(&mut self, i: u64, game: &GameResult<G>) {
        self.values.clear();
        score_values(&game.totals, &mut self.values);
        bot_values(&self.kinds, &game.seats, &game.totals, &mut self.values);
        self.values.extend(&game.figures);
        assert_eq!(
            self.values.len(),
            self.metrics.len(),
            "a game measures every metric"
        );
        for (m, &x) in self.sums.iter_mut().zip(&self.values) {
            if !x.is_nan() {
                m.add(x);
            }
        }
        if let Some(d) = &mut self.distribution {
            d.add(i, &game.totals, None);
        }
        for (p, &t) in game.totals.iter().enumerate() {
            let s = &mut self.seats[p];
            *s = (s.0.min(t), s.1.max(t));
        }
        for (p, share) in win_shares(&game.totals).enumerate() {
            let entry = self.bot_wins.entry(game.seats[p]).or_default();
            entry.won.add(share);
            entry.seated += 1;
        }
        if let Some(l) = self.length() {
            *self.lengths.entry(self.values[l] as u64).or_default() += 1;
        }
    }

    /// Adds the games of `other`, a tally of the same figures; the result
    /// is the same, bit for bit, as adding them one by one.
    pub fn merge(&mut self, other: &Tally) {
        for (m, o) in self.sums.iter_mut().zip(&other.sums) {
            m.merge(o);
        }
        if let (Some(d), Some(o)) = (&mut self.distribution, &other.distribution) {
            d.merge(o);
        }
        for (s, o) in self.seats.iter_mut().zip(&other.seats) {
            *s = (s.0.min(o.0), s.1.max(o.1));
        }
        for (bot, o) in &other.bot_wins {
            let entry = self.bot_wins.entry(*bot).or_default();
            entry.won.merge(&o.won);
            entry.seated += o.seated;
        }
        for (&length, &games) in &other.lengths {
            *self.lengths.entry(length).or_default() += games;
        }
    }

    /// Whether `other` tallies the same figures of the same batch, so
    /// that the two can be merged.
    pub fn fits(&self, other: &Tally) -> bool {
        let whole = |t: &Tally| {
            t.sums.len() == t.metrics.len()
                && t.seats.len() == t.players
                && t.players > 0
                && !t.bots.is_empty()
        };
        whole(self)
            && whole(other)
            && self.info == other.info
            && self.players == other.players
            && self.bots == other.bots
            && self.kinds == other.kinds
            && self.metrics == other.metrics
            && match (&self.distribution, &other.distribution) {
                (Some(a), Some(b)) => a.fits(b),
                (None, None) => true,
                _ => false,
            }
    }

    /// The same tally with no games.
    pub fn empty(&self) -> Tally {
        Tally {
            sums: vec![Sums::default(); self.sums.len()],
            distribution: self.distribution.as_ref().map(|_| Distribution::new(false)),
            seats: vec![(i64::MAX, i64::MIN); self.players],
            bot_wins: BTreeMap::new(),
            lengths: BTreeMap::new(),
            values: Vec::new(),
            ..self.clone()
        }
    }

    pub fn games(&self) -> u64 {
        self.sums.first().map_or(0, Sums::count)
    }

    fn seat_ranges(&self) -> Vec<SeatRange> {
        self.seats
            .iter()
            .enumerate()
            .map(|(p, &(min, max))| SeatRange {
                seat: p + 1,
                bot: self.seat_bot(p),
                min: if self.games() == 0 { 0 } else { min },
                max: if self.games() == 0 { 0 } else { max },
            })
            .collect()
    }

    fn bot_wins(&self) -> Vec<BotWins> {
        let games = self.games().max(1) as f64;
        self.bot_wins
            .iter()
            .map(|(bot, w)| BotWins {
                bot: bot.name(),
                of_games: w.won.value() / games,
                // One definition with the by-bot figure: the mean, over
                // the games the bot played, of its win per seat it held.
                // With one bot, or a lineup where it holds the same number
                // of seats in every game, that is its wins per seat played.
                per_seat: self
                    .sums_of(&format!("bot.{}.win_rate", bot.name()))
                    .map_or(w.won.value() / (w.seated as f64).max(1.0), |s| {
                        s.estimate().estimate
                    }),
            })
            .collect()
    }

    /// The report of this variant alone.
    pub fn report(mut self, game: &'static str, title: &'static str, seed: u64) -> Report {
        let (buckets, histogram) = self
            .distribution
            .take()
            .expect("a tally of its own keeps its distribution")
            .finish(crate::workbench::distribution::width_for(self.info.kind));
        let mut rows: Vec<Row> = self
            .metrics
            .iter()
            .zip(&self.sums)
            .map(|(metric, m)| Row {
                metric: metric.clone(),
                a: Some(estimate(metric.unit, m)),
                b: None,
                difference: None,
                p_value: None,
                holm: false,
            })
            .collect();
        if let Some(l) = self.length() {
            let spread = self.length_rows().into_iter().map(|(metric, e)| Row {
                metric,
                a: Some(e),
                b: None,
                difference: None,
                p_value: None,
                holm: false,
            });
            rows.splice(l + 1..l + 1, spread);
        }
        // A game's figures come section by section, as a comparison's do.
        rows.sort_by_key(|row| row.metric.section);
        for bucket in buckets {
            rows.push(Row {
                a: Some(bucket.a),
                metric: bucket.metric,
                b: None,
                difference: None,
                p_value: None,
                holm: false,
            });
        }
        Report {
            head: crate::workbench::Head {
                game,
                title,
                players: self.players,
                games: self.games(),
                seed,
            },
            bots: (0..self.players).map(|p| self.bot(p).name()).collect(),
            rotated: self.rotated(),
            histogram,
            seats_a: self.seat_ranges(),
            seats_b: None,
            bot_wins: self.bot_wins(),
            a: self.info,
            b: None,
            changes: Vec::new(),
            rows,
        }
    }
}

/// Two variants' batches, game `i` of one beside game `i` of the other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Paired {
    a: Tally,
    b: Tally,
    /// For each metric of A or B: its index in A, in B, and the sums of
    /// the differences when both have it. Section order, A's order within.
    keys: Vec<(Option<usize>, Option<usize>)>,
    differences: Vec<Sums>,
    distribution: Distribution,
}

impl Paired {
    pub fn new(mut a: Tally, mut b: Tally) -> Self {
        a.distribution = None;
        b.distribution = None;
        let b_index: HashMap<&str, usize> = b
            .metrics
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id.as_str(), i))
            .collect();
        let a_ids: HashMap<&str, usize> = a
            .metrics
            .iter()
            .enumerate()
            .map(|(i, m)| (m.id.as_str(), i))
            .collect();
        let mut keys: Vec<(Section, usize, Option<usize>, Option<usize>)> = a
            .metrics
            .iter()
            .enumerate()
            .map(|(i, m)| (m.section, i, Some(i), b_index.get(m.id.as_str()).copied()))
            .collect();
        for (j, m) in b.metrics.iter().enumerate() {
            if !a_ids.contains_key(m.id.as_str()) {
                keys.push((m.section, a.metrics.len() + j, None, Some(j)));
            }
        }
        keys.sort_by_key(|&(section, order, _, _)| (section, order));
        let keys: Vec<_> = keys.into_iter().map(|(_, _, a, b)| (a, b)).collect();
        Paired {
            distribution: Distribution::new(true),
            differences: vec![Sums::default(); keys.len()],
            keys,
            a,
            b,
        }
    }

    /// Adds game `i` of A and game `i` of B, played from the same seed.
    pub fn add<G: crate::bots::Simulated>(&mut self, i: u64, a: &GameResult<G>, b: &GameResult<G>) {
        self.a.add(i, a);
        self.b.add(i, b);
        self.distribution.add(i, &a.totals, Some(&b.totals));
        for (d, &(ia, ib)) in self.differences.iter_mut().zip(&self.keys) {
            if let (Some(ia), Some(ib)) = (ia, ib) {
                let x = self.b.values[ib] - self.a.values[ia];
                if !x.is_nan() {
                    d.add(x);
                }
            }
        }
    }

    /// Adds the games of `other`, a pairing of the same figures.
    pub fn merge(&mut self, other: &Paired) {
        self.a.merge(&other.a);
        self.b.merge(&other.b);
        for (d, o) in self.differences.iter_mut().zip(&other.differences) {
            d.merge(o);
        }
        self.distribution.merge(&other.distribution);
    }

    /// Whether `other` pairs the same figures of the same batches.
    pub fn fits(&self, other: &Paired) -> bool {
        self.a.fits(&other.a)
            && self.b.fits(&other.b)
            && self.keys == other.keys
            && self.differences.len() == self.keys.len()
            && other.differences.len() == other.keys.len()
            && self.distribution.fits(&other.distribution)
    }

    /// The same pairing with no games.
    pub fn empty(&self) -> Paired {
        Paired {
            a: self.a.empty(),
            b: self.b.empty(),
            keys: self.keys.clone(),
            differences: vec![Sums::default(); self.keys.len()],
            distribution: Distribution::new(true),
        }
    }

    pub fn games(&self) -> u64 {
        self.a.games()
    }

    /// The comparison report: A, B and B − A for every figure.
    pub fn report(self, game: &'static str, title: &'static str, seed: u64) -> Report {
        let players = self.a.players;
        let mut rows: Vec<Row> = self
            .keys
            .iter()
            .zip(&self.differences)
            .map(|(&(ia, ib), d)| {
                let mut metric = ia
                    .map(|i| self.a.metrics[i].clone())
                    .or_else(|| ib.map(|i| self.b.metrics[i].clone()))
                    .expect("a metric of A or B");
                // A figure both have may carry each variant's own number.
                if let (Some(_), Some(ib)) = (ia, ib) {
                    metric.label = both_labels(&metric.label, &self.b.metrics[ib].label);
                }
                let unit = metric.unit;
                Row {
                    metric,
                    a: ia.map(|i| estimate(unit, &self.a.sums[i])),
                    b: ib.map(|i| estimate(unit, &self.b.sums[i])),
                    // A share's difference is Newcombe's, its p-value
                    // that interval's; any other is the mean of the games'
                    // differences.
                    difference: match (ia, ib) {
                        (Some(ia), Some(ib)) if unit == Unit::Share => {
                            Some(paired_shares(&self.a.sums[ia], &self.b.sums[ib], d))
                        }
                        (Some(_), Some(_)) => Some(d.estimate()),
                        _ => None,
                    },
                    p_value: match (ia, ib) {
                        (Some(ia), Some(ib)) if unit == Unit::Share => {
                            Some(paired_shares_p_value(&self.a.sums[ia], &self.b.sums[ib], d))
                        }
                        (Some(_), Some(_)) => Some(d.estimate().p_value()),
                        _ => None,
                    },
                    holm: false,
                }
            })
            .collect();
        // The length's quantiles are in `simulate`'s report only: a
        // quantile has no paired difference, and the mean length's is here.
        let width = crate::workbench::distribution::width_for(self.a.info.kind);
        let (buckets, histogram) = self.distribution.finish(width);
        for bucket in buckets {
            rows.push(Row {
                a: Some(bucket.a),
                b: bucket.b,
                difference: bucket.difference,
                p_value: bucket.p_value,
                holm: false,
                metric: bucket.metric,
            });
        }
        crate::workbench::figures::correct(&mut rows);
        Report {
            head: crate::workbench::Head {
                game,
                title,
                players,
                games: self.a.games(),
                seed,
            },
            bots: (0..players).map(|p| self.a.bot(p).name()).collect(),
            rotated: self.a.rotated(),
            histogram,
            seats_a: self.a.seat_ranges(),
            seats_b: Some(self.b.seat_ranges()),
            bot_wins: self.a.bot_wins(),
            a: self.a.info,
            b: Some(self.b.info),
            changes: Vec::new(),
            rows,
        }
    }
}
