//! What verifying the hash chain costs: `cargo run --release --example bench_chain`.
//!
//! Builds one long 62 Soleils log in memory (12 players, 10,000 rounds, so
//! 130,001 lines), once with `prev` hashes and once without, and folds each
//! with the log reader, 5 times, side by side. Prints the medians and the
//! ratio chained / unchained.

use std::time::Instant;
use sunfold::log::{Envelope, Fold, LineReader, line_hash, to_line};
use sunfold::soleils::{Die, Event, Options, Rolled, Soleils, Start, SunEntered};

fn log(chained: bool) -> Vec<u8> {
    let mut template: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("sheet-templates/62-soleils-d-ete.json").unwrap(),
    )
    .unwrap();
    template["end"] = serde_json::json!({"rounds": 10000, "sun_limit": 65000});
    template["sun"] = serde_json::json!({"slots": 10000, "thresholds": []});
    let players: Vec<String> = (1..=12).map(|i| format!("P{i}")).collect();
    let start = Event::Started(Start {
        format: sunfold::log::LOG_FORMAT,
        game: "soleils".into(),
        players: players.clone(),
        options: Options::default(),
        template: serde_json::from_value(template).unwrap(),
        dice_seed: None,
    });
    let one = Die::new(1).unwrap();
    let mut events = vec![start];
    for _ in 0..10000 {
        events.push(Event::Rolled(Rolled { dice: [one; 3] }));
        for p in &players {
            events.push(Event::SunEntered(SunEntered {
                player: p.clone(),
                value: one,
            }));
        }
    }
    let mut out = String::new();
    let mut prev: Option<String> = None;
    for (seq, event) in events.into_iter().enumerate() {
        let line = to_line(&Envelope {
            seq: seq as u64,
            at: None,
            by: None,
            prev: prev.clone().filter(|_| chained),
            event,
        });
        prev = Some(line_hash(line.trim_end().as_bytes()));
        out.push_str(&line);
    }
    out.into_bytes()
}

fn fold(bytes: &[u8]) -> u64 {
    let mut lines = LineReader::new(bytes);
    let first = lines.next_line().unwrap().unwrap();
    let (mut fold, _) = Fold::<Soleils>::start(&first).unwrap();
    while let Some(line) = lines.next_line().unwrap() {
        fold.feed(&line).unwrap();
    }
    fold.events()
}

fn main() {
    let (chained, plain) = (log(true), log(false));
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..5 {
        for (i, bytes) in [&plain, &chained].iter().enumerate() {
            let start = Instant::now();
            assert_eq!(fold(bytes), 130_001);
            times[i].push(start.elapsed().as_secs_f64());
        }
    }
    for t in &mut times {
        t.sort_by(f64::total_cmp);
    }
    let (plain_t, chained_t) = (times[0][2], times[1][2]);
    println!("folding 130,001 lines, medians of 5 runs side by side");
    println!(
        "  unchained  {:>6.1} MB  {:>7.1} ms  {:>9.0} lines/s",
        plain.len() as f64 / 1e6,
        plain_t * 1e3,
        130_001.0 / plain_t
    );
    println!(
        "  chained    {:>6.1} MB  {:>7.1} ms  {:>9.0} lines/s",
        chained.len() as f64 / 1e6,
        chained_t * 1e3,
        130_001.0 / chained_t
    );
    println!("  ratio chained / unchained: {:.2}x", chained_t / plain_t);
}
