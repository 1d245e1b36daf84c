//! `sunfold event` end to end, through the built binary: a 62 Soleils event
//! of 23 players seated in groups and played by bots, a Summertime Swiss of
//! 9 with byes, a drop and a late arrival, and every refusal pinned.

use crate::common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use sunfold::schema::{SchemaKind, schema_text};

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("events-{name}"))
}

use common::run_ok as run;

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The entries of an event log of this `type`.
fn entries(event: &Path, kind: &str) -> Vec<Value> {
    std::fs::read_to_string(event)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == kind)
        .collect()
}

/// How often each pair of ids sat at one table, over the seated rounds.
fn meetings(event: &Path) -> BTreeMap<(String, String), u32> {
    let mut met = BTreeMap::new();
    for seated in entries(event, "seated") {
        for table in seated["tables"].as_array().unwrap() {
            let ids: Vec<String> = (table["players"].as_array().unwrap().iter())
                .map(|v| v.as_str().unwrap().to_owned())
                .collect();
            for (i, a) in ids.iter().enumerate() {
                for b in &ids[i + 1..] {
                    let pair = if a < b {
                        (a.clone(), b.clone())
                    } else {
                        (b.clone(), a.clone())
                    };
                    *met.entry(pair).or_insert(0) += 1;
                }
            }
        }
    }
    met
}

fn repeats(met: &BTreeMap<(String, String), u32>) -> u32 {
    met.values().map(|m| m - 1).sum()
}

/// The mean repeats of `trials` random seatings of `n` players at tables
/// of `sizes` over `rounds` rounds, from a fixed seed.
fn random_baseline(n: usize, sizes: &[usize], rounds: usize, trials: u32) -> f64 {
    let mut state: u64 = 0x5eed;
    let mut next = |bound: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % bound as u64) as usize
    };
    let mut total = 0;
    for _ in 0..trials {
        let mut met = vec![vec![0u32; n]; n];
        for _ in 0..rounds {
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, next(i + 1));
            }
            let mut rest = &order[..];
            for &size in sizes {
                let (table, after) = rest.split_at(size);
                for (i, &a) in table.iter().enumerate() {
                    for &b in &table[i + 1..] {
                        // A pair is a pair in either seat order.
                        met[a.min(b)][a.max(b)] += 1;
                    }
                }
                rest = after;
            }
        }
        total += met
            .iter()
            .flatten()
            .map(|m| m.saturating_sub(1))
            .sum::<u32>();
    }
    f64::from(total) / f64::from(trials)
}

/// A refusal's message with the scratch folder written as DIR.
fn refusal(args: &[&str], dir: &Path) -> String {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 1, "sunfold {args:?} should refuse: {stdout}{stderr}");
    stderr.replace(s(dir), "DIR")
}

#[test]
fn a_23_player_soleils_event_meets_new_opponents_and_replays() {
    let dir = scratch("soleils");
    let players = dir.join("players.txt");
    let mut names: Vec<String> = (1..=21).map(|i| format!("Player {i}")).collect();
    names.extend(["Ann".to_owned(), "Ann".to_owned()]);
    std::fs::write(&players, names.join("\n") + "\n").unwrap();
    let event = dir.join("event.jsonl");
    let new = [
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--table-size",
        "5",
        "--rounds",
        "4",
        "--seed",
        "11",
    ];
    assert!(run(&new).contains("a soleils event of 23 players"));
    let registered = entries(&event, "registered");
    assert_eq!(
        registered[22]["name"], "Ann (2)",
        "two Anns are two players"
    );
    for _ in 0..4 {
        run(&["event", "seat", s(&event)]);
        run(&["event", "play", s(&event), "--bot", "random"]);
    }
    for seated in entries(&event, "seated") {
        let mut sizes: Vec<usize> = (seated["tables"].as_array().unwrap().iter())
            .map(|t| t["players"].as_array().unwrap().len())
            .collect();
        sizes.sort();
        assert_eq!(sizes, [4, 4, 5, 5, 5]);
    }
    let met = meetings(&event);
    let ours = repeats(&met);
    let baseline = random_baseline(23, &[5, 5, 5, 4, 4], 4, 2000);
    assert!(
        f64::from(ours) <= baseline / 2.0,
        "the seating repeats {ours} meetings over 4 rounds; random seating repeats {baseline:.1} on average, and half of that is the most allowed"
    );
    // The counting bound: 4 rounds of tables of 5, 5, 5, 4, 4 hold 168
    // meetings, fewer than the 253 pairs, and each player meets at most 16
    // of the 22 others, so no repeat is forced; no seating does better.
    let pairs = |s: u32| s * (s - 1) / 2;
    let held = 4 * [5, 5, 5, 4, 4].map(pairs).iter().sum::<u32>();
    let bound = held.saturating_sub(pairs(23));
    assert_eq!((held, bound), (168, 0));
    eprintln!("repeat meetings: {ours}; random seating {baseline:.1} on average; bound {bound}");
    // The seating reports the repeats as the plain count above does.
    let seating: Value =
        serde_json::from_str(&run(&["event", "seating", s(&event), "--format", "json"])).unwrap();
    assert_eq!(seating["repeats_so_far"], ours);
    assert_eq!(entries(&event, "result").len(), 20);

    // The standings replay byte for byte, from the event log alone.
    let standings = run(&["event", "standings", s(&event), "--format", "json"]);
    let alone = dir.join("alone.jsonl");
    std::fs::copy(&event, &alone).unwrap();
    assert_eq!(
        run(&["event", "standings", s(&alone), "--format", "json"]),
        standings
    );
    assert_eq!(
        run(&["event", "standings", s(&event), "--format", "json"]),
        standings
    );
    let report: Value = serde_json::from_str(&standings).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 23);
    for key in [
        "rank", "points", "score", "buchholz", "margin", "draw", "played", "byes",
    ] {
        assert!(
            rows.iter().all(|r| !r[key].is_null()),
            "every row shows {key}"
        );
    }
    assert!(run(&["event", "standings", s(&event)]).contains("buchholz"));

    // Refusals leave the event as it was, and say why.
    let before = std::fs::read(&event).unwrap();
    let table = |t: u32| dir.join(format!("event.d/round-4/table-{t}.jsonl"));
    let again = refusal(
        &["event", "result", s(&event), "--table", "1", s(&table(1))],
        &dir,
    );
    let bad = dir.join("bad.jsonl");
    let mut lines: Vec<String> = (std::fs::read_to_string(table(1)).unwrap().lines())
        .map(str::to_owned)
        .collect();
    lines[5] = lines[5].replace("\"seq\":5", "\"seq\":6");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let correct = ["--correct", "--reason", "a rehearsal"];
    let args = |log: &Path| {
        let mut args = vec!["event", "result", s(&event), "--table", "1"];
        args.push(s(log));
        args.extend(correct);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let illegal = refusal(
        &args(&bad).iter().map(String::as_str).collect::<Vec<_>>(),
        &dir,
    );
    let wrong = refusal(
        &args(&table(2))
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        &dir,
    );
    let fifth = refusal(&["event", "seat", s(&event)], &dir);
    assert_eq!(
        std::fs::read(&event).unwrap(),
        before,
        "a refusal changes nothing"
    );
    assert!(illegal.contains(":6: "), "the line is named: {illegal}");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__result_exists", again);
        insta::assert_snapshot!("events__illegal_line", illegal);
        insta::assert_snapshot!("events__wrong_players", wrong);
        insta::assert_snapshot!("events__too_many_rounds", fifth);
    });

    // A correction with a reason is taken.
    run(&[
        "event",
        "result",
        s(&event),
        "--table",
        "1",
        s(&table(1)),
        "--correct",
        "--reason",
        "a rehearsal",
    ]);
    assert_eq!(entries(&event, "corrected").len(), 1);
}

#[test]
fn a_9_player_summertime_swiss_gives_byes_and_handles_a_drop_and_a_late_arrival() {
    let dir = scratch("summertime");
    let players = dir.join("players.txt");
    let names: Vec<String> = (1..=9).map(|i| format!("Player {i}\tid{i}")).collect();
    std::fs::write(&players, names.join("\n") + "\n").unwrap();
    let event = dir.join("event.jsonl");
    let new = [
        "event",
        "new",
        s(&event),
        "--game",
        "summertime",
        "--players-file",
        s(&players),
        "--rounds",
        "4",
        "--seed",
        "3",
    ];
    run(&new);
    run(&["event", "seat", s(&event)]);
    let open = refusal(&["event", "seat", s(&event)], &dir);
    run(&["event", "play", s(&event), "--bot", "greedy"]);
    run(&["event", "drop", s(&event), "id4"]);
    assert!(run(&["event", "arrive", s(&event), "Late Comer", "--id", "late"]).contains("late"));
    let dropped_again = refusal(&["event", "drop", s(&event), "id4"], &dir);
    for _ in 2..=4 {
        run(&["event", "seat", s(&event)]);
        run(&["event", "play", s(&event), "--bot", "greedy"]);
    }
    let seated = entries(&event, "seated");
    let byes: Vec<String> = (seated.iter())
        .flat_map(|r| r["bye"].as_array().unwrap().clone())
        .map(|v| v.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(byes.len(), 4, "one bye a round: {byes:?}");
    let mut distinct = byes.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 4, "4 byes to 4 different players: {byes:?}");
    let met = meetings(&event);
    assert!(met.values().all(|&m| m == 1), "no rematch: {met:?}");
    for (i, round) in seated.iter().enumerate() {
        let ids: Vec<&str> = (round["tables"].as_array().unwrap().iter())
            .flat_map(|t| t["players"].as_array().unwrap())
            .chain(round["bye"].as_array().unwrap())
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(ids.len(), 9);
        assert_eq!(
            ids.contains(&"id4"),
            i == 0,
            "the dropped player only in round 1"
        );
        assert_eq!(
            ids.contains(&"late"),
            i > 0,
            "the late arrival from round 2"
        );
    }
    let json = run(&[
        "event",
        "seating",
        s(&event),
        "--round",
        "2",
        "--format",
        "json",
    ]);
    let seating: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(seating["round"], 2);
    assert_eq!(seating["tables"][0]["table"], 1);
    assert_eq!(seating["tables"][0]["players"][0]["seat"], 1);
    assert_eq!(seating["bye"].as_array().unwrap().len(), 1);
    let standings: Value =
        serde_json::from_str(&run(&["event", "standings", s(&event), "--format", "json"])).unwrap();
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.iter().filter(|r| r["byes"] == 1).count(), 4);
    run(&["event", "close", s(&event)]);
    let closed = refusal(&["event", "arrive", s(&event), "Too Late"], &dir);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__round_open", open);
        insta::assert_snapshot!("events__dropped_again", dropped_again);
        insta::assert_snapshot!("events__closed", closed);
    });
}

#[test]
fn a_damaged_event_log_is_refused_with_its_line() {
    let dir = scratch("damaged");
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\n").unwrap();
    let event = dir.join("event.jsonl");
    run(&[
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--seed",
        "1",
    ]);
    let text = std::fs::read_to_string(&event).unwrap();
    std::fs::write(&event, text.replace("\"Bob\"", "\"Bib\"")).unwrap();
    let broken = refusal(&["event", "standings", s(&event)], &dir);
    // Who posted an entry belongs to a table's log, never to an event's.
    assert!(text.contains("{\"seq\":1,"), "{text}");
    let posted = text.replacen("{\"seq\":1,", "{\"seq\":1,\"by\":\"referee\",", 1);
    std::fs::write(&event, posted).unwrap();
    let by = refusal(&["event", "standings", s(&event)], &dir);
    std::fs::write(&players, "Ann\tx\nBob\tx\n").unwrap();
    let (code, _, stderr) = common::sunfold(&[
        "event",
        "new",
        s(&dir.join("other.jsonl")),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
    ]);
    assert_eq!(code, 1);
    let twice = stderr.replace(s(&dir), "DIR");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__chain_broken", broken);
        insta::assert_snapshot!("events__by_in_an_event_log", by);
        insta::assert_snapshot!("events__players_file", twice);
    });
}

/// The words of a PDF, as pdftotext gives them back.
fn pdf_text(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .args([s(pdf), "-"])
        .output()
        .expect("pdftotext (poppler-utils) is installed");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_round_s_papers_and_the_standings_print_with_every_name() {
    let dir = scratch("print");
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\nEve\nFay\nGil\nAnn\tann-b\n").unwrap();
    let event = dir.join("cup.jsonl");
    run(&[
        "event",
        "new",
        s(&event),
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--table-size",
        "3",
        "--seed",
        "4",
    ]);
    // Before a round is seated there are no papers to print.
    let early = refusal(
        &["event", "print", s(&event), "-o", s(&dir.join("none.pdf"))],
        &dir,
    );
    assert!(!dir.join("none.pdf").exists());
    run(&["event", "seat", s(&event)]);
    let seating: Value =
        serde_json::from_str(&run(&["event", "seating", s(&event), "--format", "json"])).unwrap();
    let round = dir.join("round.pdf");
    run(&["event", "print", s(&event), "-o", s(&round)]);
    let text = pdf_text(&round);
    for part in [
        "cup: round 1 of 3",
        "Seating by table",
        "Seating by name",
        "Result slip: table 1",
    ] {
        assert!(text.contains(part), "{part} missing from:\n{text}");
    }
    let tables = seating["tables"].as_array().unwrap();
    for table in tables {
        assert!(text.contains(&format!("Table {}", table["table"])));
        for p in table["players"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap();
            // On the seating by table, by name, the table slip and the
            // result slip.
            assert!(text.matches(name).count() >= 4, "{name}:\n{text}");
        }
    }
    assert!(
        text.contains("Ann (2)"),
        "the second Ann keeps her own name"
    );
    // The SVG is the same drawing.
    run(&["event", "print", s(&event), "-o", s(&dir.join("round.svg"))]);
    let svg = String::from_utf8(common::written(&dir.join("round.svg"))).unwrap();
    assert!(svg.contains("Seating by name"));

    run(&["event", "play", s(&event), "--bot", "greedy"]);
    let standings = dir.join("standings.pdf");
    run(&["event", "standings", s(&event), "-o", s(&standings)]);
    let text = pdf_text(&standings);
    let json: Value =
        serde_json::from_str(&run(&["event", "standings", s(&event), "--format", "json"])).unwrap();
    assert!(text.contains("cup: standings"));
    assert!(text.contains("ties broken by score, then opponents' points, then margin, then draw"));
    for row in json["rows"].as_array().unwrap() {
        assert!(text.contains(row["name"].as_str().unwrap()), "{row}");
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__print_before_a_round", early);
    });
}

#[test]
fn the_tie_breaks_are_declared_in_advance_and_each_row_carries_them() {
    let dir = scratch("tie-breaks");
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\nEve\nFay\n").unwrap();
    let event = dir.join("cup.jsonl");
    let new = |file: &Path, tie_breaks: &str| {
        vec![
            "event".to_owned(),
            "new".to_owned(),
            s(file).to_owned(),
            "--game".to_owned(),
            "soleils".to_owned(),
            "--players-file".to_owned(),
            s(&players).to_owned(),
            "--table-size".to_owned(),
            "3".to_owned(),
            "--seed".to_owned(),
            "3".to_owned(),
            "--tie-breaks".to_owned(),
            tie_breaks.to_owned(),
        ]
    };
    let args = new(&event, "head-to-head,buchholz-cut1");
    run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let created = &entries(&event, "created")[0];
    assert_eq!(
        created["tie_breaks"],
        serde_json::json!(["head_to_head", "buchholz_cut1", "draw"]),
        "the draw comes last when left out"
    );
    for _ in 0..2 {
        run(&["event", "seat", s(&event)]);
        run(&["event", "play", s(&event), "--bot", "random"]);
    }
    let json: Value =
        serde_json::from_str(&run(&["event", "standings", s(&event), "--format", "json"])).unwrap();
    let rows = json["rows"].as_array().unwrap();
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let f = |r: &Value, k: &str| r[k].as_f64().unwrap();
        // Ordered by points, then, among the players tied on points, by
        // head to head, then by Buchholz without the lowest, then the draw.
        assert!(f(a, "points") >= f(b, "points"), "{a} {b}");
        if f(a, "points") == f(b, "points") && f(a, "head_to_head") == f(b, "head_to_head") {
            assert!(f(a, "buchholz_cut1") >= f(b, "buchholz_cut1"), "{a} {b}");
        }
        assert!(f(a, "buchholz_cut1") <= f(a, "buchholz"));
    }
    let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(
        ranks,
        (1..=6).collect::<Vec<u64>>(),
        "the draw decides every tie"
    );
    let text = run(&["event", "standings", s(&event)]);
    assert!(text.contains("ties broken by head-to-head, then buchholz-cut1, then draw"));
    assert!(text.contains("cut1") && text.contains("h2h") && !text.contains("-0 "));

    let twice = new(&dir.join("twice.jsonl"), "score,margin,score");
    let twice = refusal(&twice.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    let early = new(&dir.join("early.jsonl"), "draw,score");
    let early = refusal(&early.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert!(!dir.join("twice.jsonl").exists() && !dir.join("early.jsonl").exists());
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__tie_break_twice", twice);
        insta::assert_snapshot!("events__draw_not_last", early);
    });
}

#[test]
fn a_round_is_seated_by_standing_by_hand_or_as_a_final() {
    let dir = scratch("by-hand");
    let players = dir.join("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\nEve\nFay\nGil\n").unwrap();
    let event = dir.join("cup.jsonl");
    let file = s(&event);
    run(&[
        "event",
        "new",
        file,
        "--game",
        "soleils",
        "--players-file",
        s(&players),
        "--rounds",
        "4",
        "--seed",
        "3",
    ]);
    run(&["event", "seat", file]);
    run(&["event", "play", file, "--bot", "greedy"]);
    let seating = |event: &Path| -> Value {
        serde_json::from_str(&run(&["event", "seating", s(event), "--format", "json"])).unwrap()
    };
    let names = |players: &Value| -> Vec<String> {
        (players.as_array().unwrap().iter())
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let leaders = |event: &Path| -> Vec<String> {
        let json: Value =
            serde_json::from_str(&run(&["event", "standings", s(event), "--format", "json"]))
                .unwrap();
        names(&json["rows"])
    };

    // Given round 1 played, when the organiser seats round 2 by hand and
    // leaves a player out, names one who is not in the event, or seats one
    // twice, then each seating is refused, naming the player, and nothing
    // is written.
    let before = std::fs::read(&event).unwrap();
    let left_out = refusal(
        &["event", "seat", file, "--tables", "Ann,Bob,Cid;Dee,Eve,Fay"],
        &dir,
    );
    let unknown = refusal(
        &[
            "event",
            "seat",
            file,
            "--tables",
            "Ann,Bob,Cid;Dee,Eve,Fay,Zed",
        ],
        &dir,
    );
    let twice = refusal(
        &[
            "event",
            "seat",
            file,
            "--tables",
            "Ann,Bob,Cid,Gil;Dee,Eve,Ann",
        ],
        &dir,
    );
    assert!(left_out.contains("\"Gil\""), "{left_out}");
    assert!(
        twice.contains("\"Ann\"") && twice.contains("seated twice"),
        "{twice}"
    );
    assert_eq!(std::fs::read(&event).unwrap(), before);
    assert!(
        !dir.join("cup.d/round-2").exists(),
        "no table log is written"
    );

    // When the tables are given in full, then they are seated as written,
    // seat 1 first.
    run(&[
        "event",
        "seat",
        file,
        "--tables",
        "Gil, Fay ,Eve;Dee,Cid,Bob,p1",
    ]);
    let round = seating(&event);
    assert_eq!(names(&round["tables"][0]["players"]), ["Gil", "Fay", "Eve"]);
    assert_eq!(
        names(&round["tables"][1]["players"]),
        ["Dee", "Cid", "Bob", "Ann"]
    );
    run(&["event", "play", file, "--bot", "greedy"]);

    // When round 3 is seated by standing, then the first four of the
    // standings share table 1.
    let order = leaders(&event);
    run(&["event", "seat", file, "--by-standing"]);
    let round = seating(&event);
    let mut first = names(&round["tables"][0]["players"]);
    first.sort();
    let mut top = order[..4].to_vec();
    top.sort();
    assert_eq!(first, top);
    run(&["event", "play", file, "--bot", "greedy"]);

    // When round 4 is a final of the first four, then they are its one
    // table, the others do not play, and score nothing for it.
    let too_many = refusal(&["event", "seat", file, "--final", "13"], &dir);
    let order = leaders(&event);
    let before: Value =
        serde_json::from_str(&run(&["event", "standings", file, "--format", "json"])).unwrap();
    let text = run(&["event", "seat", file, "--final", "4"]);
    let round = seating(&event);
    let schema: Value = serde_json::from_str(&schema_text(SchemaKind::EventSeating)).unwrap();
    assert_eq!(
        common::schema::breaks(&schema, &schema, &round, "seating"),
        None
    );
    assert_eq!(round["tables"].as_array().unwrap().len(), 1);
    let mut finalists = names(&round["tables"][0]["players"]);
    finalists.sort();
    let mut top = order[..4].to_vec();
    top.sort();
    assert_eq!(finalists, top);
    assert_eq!(names(&round["out"]), order[4..]);
    assert!(round["bye"].as_array().unwrap().is_empty());
    assert!(
        text.contains(&format!("not playing: {}", order[4..].join(", "))),
        "{text}"
    );
    assert_eq!(
        entries(&event, "seated")[3]["out"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert!(
        entries(&event, "seated")[0].get("out").is_none(),
        "left out when empty"
    );
    run(&["event", "play", file, "--bot", "greedy"]);
    let after: Value =
        serde_json::from_str(&run(&["event", "standings", file, "--format", "json"])).unwrap();
    let row = |json: &Value, name: &str| -> Value {
        (json["rows"].as_array().unwrap().iter())
            .find(|r| r["name"] == name)
            .unwrap()
            .clone()
    };
    for name in &order[4..] {
        let (was, is) = (row(&before, name), row(&after, name));
        assert_eq!(was["points"], is["points"], "{name} scores nothing");
        assert_eq!(is["played"], 3);
        assert_eq!(is["byes"], 0);
    }
    for name in &order[..4] {
        assert_eq!(row(&after, name)["played"], 4);
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__hand_seating_left_out", left_out);
        insta::assert_snapshot!("events__hand_seating_unknown", unknown);
        insta::assert_snapshot!("events__final_too_large", too_many);
    });
}

/// An event log written before event logs carried times replays as it did:
/// its standings are what the binary of that day printed.
#[test]
fn an_event_log_with_no_times_replays_its_standings_as_before() {
    let old = common::repo().join("tests/older-formats/events/autumn.jsonl");
    let then = "\
rounds complete: 2; ties broken by score, then buchholz, then margin, then draw
rank  name  points   score  buchholz  margin        draw  played  byes
   1  Eve       12      44        37       8  2127150340       2     0
   2  Dee       11      36        17       5  1106730172       2     0
   3  Bob       10      36        41      -8   292581563       2     0
   4  Cid        9      35        33      -3  2897086373       2     0
   5  Ann        8      28        33     -14  4043309615       2     0
";
    assert_eq!(run(&["event", "standings", s(&old)]), then);
}

/// `args` as the `&str`s `run` takes.
fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The tables of an event play the sheet, the rule options or the deck the
/// event was made with, and the seats left over make larger tables when
/// the organiser says so.
#[test]
fn every_table_plays_the_events_sheet_and_options_at_the_sizes_chosen() {
    let dir = scratch("rules");
    let players = dir.join("players.txt");
    let names: Vec<String> = (1..=23).map(|i| format!("Player {i}")).collect();
    std::fs::write(&players, names.join("\n") + "\n").unwrap();
    let templates = common::repo().join("sheet-templates");
    let (petit, deck) = (
        templates.join("petit-ete.json"),
        templates.join("summertime.json"),
    );
    let new = |name: &str, extra: &[&str]| -> Vec<String> {
        let event = dir.join(name);
        let mut args = vec!["event", "new", s(&event), "--players-file", s(&players)];
        args.extend(["--seed", "3"]);
        args.extend(extra);
        args.into_iter().map(str::to_owned).collect()
    };
    // Given 23 players at tables of 5, the leftover seats made larger, on
    // the small sheet with the exact sun bonus.
    let made = new(
        "club.jsonl",
        &[
            "--game",
            "soleils",
            "--table-size",
            "5",
            "--leftover",
            "larger",
            "--template",
            s(&petit),
            "--option",
            "sun_bonus=exact",
        ],
    );
    run(&strs(&made));
    let event = dir.join("club.jsonl");
    // When a round is seated and played,
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event), "--bot", "greedy"]);
    // Then the tables seat 6, 6, 6 and 5, and each table's log starts on
    // that sheet under that option, and its result is attached.
    let seated = &entries(&event, "seated")[0];
    let sizes: Vec<usize> = (seated["tables"].as_array().unwrap().iter())
        .map(|t| t["players"].as_array().unwrap().len())
        .collect();
    assert_eq!(sizes, [6, 6, 6, 5]);
    for table in 1..=4 {
        let log = dir.join(format!("club.d/round-1/table-{table}.jsonl"));
        let text = std::fs::read_to_string(&log).unwrap();
        let start: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(start["template"]["name"], "Petit été");
        assert_eq!(start["options"]["sun_bonus"], "exact");
    }
    assert_eq!(entries(&event, "result").len(), 4);
    let created = &entries(&event, "created")[0];
    assert_eq!(created["leftover"], "larger");
    assert_eq!(created["template"]["name"], "Petit été");
    // A Summertime event plays the deck given, embedded in its first line.
    run(&strs(&new(
        "swiss.jsonl",
        &["--game", "summertime", "--deck", s(&deck)],
    )));
    let swiss = dir.join("swiss.jsonl");
    assert_eq!(entries(&swiss, "created")[0]["deck"]["name"], "Summertime");
    run(&["event", "seat", s(&swiss)]);
    run(&["event", "play", s(&swiss), "--bot", "greedy"]);
    assert_eq!(entries(&swiss, "result").len(), 11);
    // A table log played on another sheet, or under other options, is no
    // result of this event's table, and the event is left as it was.
    let club_log = dir.join("club.d/round-1/table-1.jsonl");
    let mut other = Vec::new();
    for (name, extra) in [("plain", &[][..]), ("petit", &["--template", s(&petit)])] {
        let mut args = vec!["--game", "soleils", "--table-size", "5"];
        args.extend(["--leftover", "larger"]);
        args.extend(extra);
        run(&strs(&new(&format!("{name}.jsonl"), &args)));
        let event = dir.join(format!("{name}.jsonl"));
        run(&["event", "seat", s(&event)]);
        let before = std::fs::read(&event).unwrap();
        let result = ["event", "result", s(&event), "--table", "1", s(&club_log)];
        other.push(refusal(&result, &dir));
        assert_eq!(std::fs::read(&event).unwrap(), before);
    }
    // What does not fit the game is refused, and no event is written.
    let refused: Vec<String> = [
        new("a.jsonl", &["--game", "soleils", "--deck", s(&deck)]),
        new("b.jsonl", &["--game", "soleils", "--option", "solo=true"]),
        new("c.jsonl", &["--game", "summertime", "--leftover", "larger"]),
        new(
            "d.jsonl",
            &["--game", "summertime", "--template", s(&petit)],
        ),
        new(
            "e.jsonl",
            &["--game", "summertime", "--option", "sun_bonus=exact"],
        ),
    ]
    .iter()
    .map(|args| refusal(&strs(args), &dir))
    .collect();
    for name in ["a", "b", "c", "d", "e"] {
        assert!(!dir.join(format!("{name}.jsonl")).exists(), "{name}.jsonl");
    }
    let refused = (refused.join("") + &other.join("")).replace(s(&templates), "TEMPLATES");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("events__table_rules_refused", refused);
    });
}
