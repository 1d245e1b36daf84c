//! Simulation and audit throughput: `cargo run --release --example bench_batch`.
//!
//! 1. Simulation: random bots, one thread, games per second per core, for
//!    4-player 62 Soleils and for Summertime.
//! 2. Audit: a corpus of simulated 62 Soleils games (over 1 million events,
//!    chained logs) written to a temporary folder; then, side by side on
//!    one thread: serde_json parsing every line to a Value (parse only),
//!    sunfold's full audit (decode, chain, rules), and Python's json.loads
//!    of the same lines. Ratios are against the baselines of the same run.

use std::time::Instant;
use sunfold::bots::{Bot, SoleilsVariant, SummertimeVariant, play};
use sunfold::log::{Fold, LineReader, chained_log};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

fn main() {
    let soleils = SoleilsVariant::bundled();
    let summertime = SummertimeVariant::bundled();
    let n = 3000;
    let start = Instant::now();
    for seed in 0..n {
        play::<Soleils>(&soleils, 4, &[Bot::Random], seed);
    }
    let soleils_rate = n as f64 / start.elapsed().as_secs_f64();
    let start = Instant::now();
    for seed in 0..n {
        play::<Summertime>(&summertime, 2, &[Bot::Random], seed);
    }
    let summertime_rate = n as f64 / start.elapsed().as_secs_f64();
    println!("simulation, random bots, one thread:");
    println!("  62 Soleils, 4 players: {soleils_rate:>8.0} games/s per core (target 50,000)");
    println!("  Summertime:            {summertime_rate:>8.0} games/s per core");

    let dir = std::env::temp_dir().join("sunfold-bench-corpus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut events = 0usize;
    let mut seed = 0;
    let mut all = Vec::new();
    while events < 1_000_000 {
        let log = chained_log(
            &play::<Soleils>(&soleils, 4, &[Bot::Random], 1_000_000 + seed).events(&soleils),
        );
        events += log.lines().count();
        std::fs::write(dir.join(format!("game-{seed:06}.jsonl")), &log).unwrap();
        all.extend_from_slice(log.as_bytes());
        seed += 1;
    }
    let lines: Vec<&[u8]> = all
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    println!(
        "\naudit corpus: {seed} games, {events} events, {:.1} MB",
        all.len() as f64 / 1e6
    );

    let mut parse = Vec::new();
    let mut ignored = Vec::new();
    let mut audit = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        for line in &lines {
            let v: serde::de::IgnoredAny = serde_json::from_slice(line).unwrap();
            std::hint::black_box(v);
        }
        ignored.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for line in &lines {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            std::hint::black_box(v);
        }
        parse.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut folded = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let mut reader = LineReader::new(&bytes[..]);
            let first = reader.next_line().unwrap().unwrap();
            let (mut fold, _) = Fold::<Soleils>::start(&first).unwrap();
            while let Some(line) = reader.next_line().unwrap() {
                fold.feed(&line).unwrap();
            }
            folded += fold.events();
        }
        assert_eq!(folded as usize, events);
        audit.push(t.elapsed().as_secs_f64());
    }
    parse.sort_by(f64::total_cmp);
    ignored.sort_by(f64::total_cmp);
    audit.sort_by(f64::total_cmp);
    let (parse, ignored, audit) = (parse[1], ignored[1], audit[1]);
    println!(
        "  serde_json into IgnoredAny {:>7.0} ms  {:>9.0} events/s",
        ignored * 1e3,
        events as f64 / ignored
    );
    println!(
        "  serde_json into Value   {:>7.0} ms  {:>9.0} events/s",
        parse * 1e3,
        events as f64 / parse
    );
    println!(
        "  sunfold full audit      {:>7.0} ms  {:>9.0} events/s  = {:.2}x IgnoredAny, {:.2}x Value (target <= 1.5x)",
        audit * 1e3,
        events as f64 / audit,
        audit / ignored,
        audit / parse
    );
    let joined = dir.with_extension("all.jsonl");
    std::fs::write(&joined, &all).unwrap();
    let script = "import json,sys,time\nlines=open(sys.argv[1],'rb').read().splitlines()\nt=time.perf_counter()\nfor l in lines:\n    json.loads(l)\nprint(time.perf_counter()-t)";
    match std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&joined)
        .output()
    {
        Ok(out) if out.status.success() => {
            let python: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
            println!(
                "  python3 json.loads      {:>7.0} ms  {:>9.0} events/s; sunfold's audit takes {:.2}x its time (target < 0.5x)",
                python * 1e3,
                events as f64 / python,
                audit / python
            );
        }
        _ => println!("  python3 not available: no Python baseline"),
    }
    println!(
        "\ncorpus left in {} for `sunfold audit` runs",
        dir.display()
    );
}
