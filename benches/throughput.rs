//! `cargo bench`: the throughput of the rules, side by side with baselines
//! in one process, so that a ratio survives a noisy machine.
//!
//! - `games`: random and greedy bots, one thread, 4-player 62 Soleils and
//!   Summertime; criterion reports games per second.
//! - `audit`: the same lines of simulated 62 Soleils logs decoded by
//!   serde_json into `IgnoredAny` (a parse-only pass, the baseline) and
//!   audited by sunfold (decode, hash chain, rules); criterion reports
//!   events per second for both, and their ratio is the figure that counts.
//!
//! docs/performance.md records the figures and what they are measured
//! against.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde::de::IgnoredAny;
use std::hint::black_box;
use sunfold::log::{Fold, LineReader, chained_log};
use sunfold::sim::{Bot, SoleilsVariant, SummertimeVariant, play};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

fn games(c: &mut Criterion) {
    let soleils = SoleilsVariant::bundled();
    let summertime = SummertimeVariant::bundled();
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(1));
    for bot in [Bot::Random, Bot::Greedy] {
        let mut seed = 0;
        group.bench_function(BenchmarkId::new("soleils-4p", bot.name()), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play::<Soleils>(&soleils, 4, &[bot], seed).totals)
            })
        });
        let mut seed = 0;
        group.bench_function(BenchmarkId::new("summertime", bot.name()), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play::<Summertime>(&summertime, 2, &[bot], seed).totals)
            })
        });
    }
    group.finish();
}

fn audit(c: &mut Criterion) {
    let soleils = SoleilsVariant::bundled();
    let logs: Vec<String> = (0..200)
        .map(|seed| {
            chained_log(&play::<Soleils>(&soleils, 4, &[Bot::Random], seed).events(&soleils))
        })
        .collect();
    let events: u64 = logs.iter().map(|l| l.lines().count() as u64).sum();
    let mut group = c.benchmark_group("audit");
    group.throughput(Throughput::Elements(events));
    group.bench_function("serde_json parse only", |b| {
        b.iter(|| {
            for log in &logs {
                for line in log.lines() {
                    let parsed: IgnoredAny = serde_json::from_str(line).unwrap();
                    black_box(parsed);
                }
            }
        })
    });
    group.bench_function("sunfold audit", |b| {
        b.iter(|| {
            let mut folded = 0;
            for log in &logs {
                let mut lines = LineReader::new(log.as_bytes());
                let first = lines.next_line().unwrap().unwrap();
                let (mut fold, _) = Fold::<Soleils>::start(&first).unwrap();
                while let Some(line) = lines.next_line().unwrap() {
                    fold.feed(&line).unwrap();
                }
                folded += fold.events();
            }
            assert_eq!(folded, events);
        })
    });
    group.finish();
}

criterion_group!(benches, games, audit);
criterion_main!(benches);
