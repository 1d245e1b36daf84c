//! Recording matches from the command line: whole games through the verbs,
//! refused entries that change nothing, crash safety, concurrent writers,
//! tamper evidence, undo and claims.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    common::temp_dir("record")
}

fn fresh(name: &str) -> String {
    common::fresh("record", name)
}

fn ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?} failed: {stderr}");
    stdout
}

fn sha(path: &str) -> String {
    sunfold::log::line_hash(&std::fs::read(path).unwrap())
}

/// The verb that records one golden event.
fn verb(event: &Value) -> Vec<String> {
    let s = |k: &str| event[k].as_str().unwrap().to_owned();
    let n = |k: &str| event[k].as_i64().unwrap().to_string();
    match event["type"].as_str().unwrap() {
        "rolled" => {
            let d: Vec<String> = event["dice"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.to_string())
                .collect();
            vec!["roll".into(), "--dice".into(), d.join(",")]
        }
        "placed" => vec!["place".into(), s("player"), s("box"), n("value")],
        "crab_copied" => vec!["crab".into(), s("player"), s("to")],
        "crab_declined" => vec!["crab".into(), s("player"), "--decline".into()],
        "sun_entered" => vec!["sun".into(), s("player"), n("value")],
        "bonus_placed" => vec!["bonus".into(), s("player"), s("box"), n("value")],
        "bonus_declined" => vec!["bonus".into(), s("player"), "--decline".into()],
        "revealed" => vec!["reveal".into()],
        "bought" => vec!["buy".into(), s("player"), s("card")],
        "played" => {
            let c = event["cell"].as_array().unwrap();
            vec![
                "play".into(),
                s("player"),
                s("card"),
                format!("{},{}", c[0], c[1]),
            ]
        }
        "turn_ended" => vec!["end-turn".into(), s("player")],
        "tiles_flipped" => vec!["flip".into(), s("player")],
        "passed" => vec!["pass".into(), s("player")],
        "discarded" => vec!["discard".into()],
        other => panic!("no verb for {other}"),
    }
}

/// Records every event of a golden replay through the verbs.
/// Records a golden replay through the verbs; gives what each verb said
/// it did (the line after "appended event N"), with its command.
fn record_golden(golden: &str, file: &str, new: &[&str]) -> Vec<String> {
    ok(&[&["new"], new, &[file]].concat());
    let text = std::fs::read_to_string(common::repo().join(golden)).unwrap();
    let mut said = Vec::new();
    for line in text.lines().skip(1) {
        let event: Value = serde_json::from_str(line).unwrap();
        let mut args = verb(&event);
        let shown = args.join(" ");
        args.insert(1, file.to_owned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ok(&args);
        let mut lines = out.lines();
        assert!(lines.next().unwrap().contains(": appended event "), "{out}");
        said.push(format!(
            "{shown:<40} -> {}",
            lines.next().unwrap_or_default()
        ));
    }
    said
}

/// The replay report without its first line (file name and chain status).
fn report(file: &str) -> String {
    let out = ok(&["replay", file]);
    out.lines().skip(1).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_whole_soleils_game_recorded_through_the_verbs_replays_as_the_golden_one() {
    let file = fresh("soleils.jsonl");
    let said = record_golden(
        "replays/soleils-2p-round-limit.jsonl",
        &file,
        &["soleils", "--players", "Ann,Bob"],
    );
    // Each verb says what it did: a roll its round and dice, a sun entry
    // the new total.
    let transcript = said[..16].join("\n");
    common::snapshots().bind(|| insta::assert_snapshot!("record__soleils_said", transcript));
    let recorded = report(&file);
    assert_eq!(recorded, report("replays/soleils-2p-round-limit.jsonl"));
    let first = ok(&["replay", &file]).lines().next().unwrap().to_owned();
    assert!(
        first.ends_with("108 events, valid; chained: all 107 hashes verified"),
        "{first}"
    );
    common::snapshots().bind(|| insta::assert_snapshot!("record__soleils_game", recorded));
}

#[test]
fn a_whole_summertime_game_recorded_through_the_verbs_replays_as_the_golden_one() {
    let file = fresh("summertime.jsonl");
    let said = record_golden(
        "replays/summertime-last-card-bought.jsonl",
        &file,
        &[
            "summertime",
            "--players",
            "Chloé,Dmitri",
            "--first",
            "Dmitri",
            "--seed",
            "4",
        ],
    );
    // A reveal names the card and its new price, a buy what it paid, a
    // play what it earned.
    let transcript = said[..24].join("\n");
    common::snapshots().bind(|| insta::assert_snapshot!("record__summertime_said", transcript));
    let recorded = report(&file);
    assert_eq!(
        recorded,
        report("replays/summertime-last-card-bought.jsonl")
    );
    common::snapshots().bind(|| insta::assert_snapshot!("record__summertime_game", recorded));
}

#[test]
fn a_four_player_round_with_digital_dice_and_status() {
    let file = fresh("four.jsonl");
    ok(&[
        "new",
        "soleils",
        &file,
        "--players",
        "Fanny,Théo,Maxime,Hervine",
        "--dice-seed",
        "62",
    ]);
    ok(&["roll", &file]);
    let status: Value = serde_json::from_str(&ok(&["status", &file, "--format", "json"])).unwrap();
    assert_eq!(
        status["pending"].as_array().unwrap().len(),
        4,
        "every player has to decide"
    );
    let dice: Vec<u64> = status["state"]["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .collect();
    for name in ["Fanny", "Théo", "Maxime", "Hervine"] {
        ok(&["sun", &file, name, &dice[0].to_string()]);
    }
    let status = ok(&["status", &file]);
    assert!(
        status.contains("waiting for:\n  the roll for turn 2"),
        "{status}"
    );
    ok(&["roll", &file]);
    // The same seed draws the same dice forever.
    let again = fresh("four-again.jsonl");
    ok(&[
        "new",
        "soleils",
        &again,
        "--players",
        "Fanny,Théo,Maxime,Hervine",
        "--dice-seed",
        "62",
    ]);
    ok(&["roll", &again]);
    let lines = |f: &str| std::fs::read_to_string(f).unwrap();
    let dice_of = |text: String| -> Value {
        serde_json::from_str::<Value>(text.lines().nth(1).unwrap()).unwrap()["dice"].clone()
    };
    assert_eq!(dice_of(lines(&file)), dice_of(lines(&again)));
}

#[test]
fn refused_entries_leave_the_file_byte_for_byte_unchanged() {
    let file = fresh("refused.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    ok(&["roll", &file, "--dice", "4,5,2"]);
    let before = sha(&file);
    let refused: [&[&str]; 7] = [
        &["place", &file, "Ann", "K1a", "5"],
        &["place", &file, "Zoé", "K1d", "5"],
        &["roll", &file, "--dice", "1,2,3"],
        &["sun", &file, "Ann", "6"],
        &["undo", &file],
        &[
            "append",
            &file,
            r#"{"type":"placed","player":"Ann","box":"K1d","value":5,"colour":"red"}"#,
        ],
        &["buy", &file, "Ann", "ocean-1"],
    ];
    for args in refused {
        let (code, _, stderr) = common::sunfold(args);
        assert_ne!(code, 0, "{args:?} was accepted");
        assert!(!stderr.is_empty());
        assert_eq!(sha(&file), before, "{args:?} changed the file");
    }
    let (code, _, stderr) = common::sunfold(&["place", &file, "Ann", "K1a", "5"]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with(&format!("{file}:3: event 2 (placed): box K1a has pearl 1")),
        "{stderr}"
    );
    // The alternatives are commands to paste, grouped by decision.
    assert!(
        stderr.contains(
            "  legal instead:\n    Ann: a placement (34 choices, 6 shown; sunfold status "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("\n      sunfold place {file} Ann K1d 5\n")),
        "{stderr}"
    );
    // new refuses to overwrite.
    let (code, _, stderr) = common::sunfold(&["new", "soleils", &file, "--players", "Cy,Dee"]);
    assert_eq!((code, sha(&file) == before), (2, true), "{stderr}");
}

#[test]
fn a_writer_killed_mid_append_loses_no_acknowledged_event_and_repair_restores_the_log() {
    let file = fresh("crash.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    ok(&["roll", &file, "--dice", "4,5,2"]);
    ok(&["place", &file, "Ann", "K1d", "5"]);
    let acknowledged = std::fs::read_to_string(&file).unwrap();
    // A writer that stops half-way through its line, then is killed.
    let mut writer = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(["crab", &file, "Ann", "C1a"])
        .env("SUNFOLD_TEST_TORN_WRITE", "30")
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::read_to_string(&file).unwrap().len() == acknowledged.len() {
        assert!(
            std::time::Instant::now() < deadline,
            "the writer never wrote"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    writer.kill().unwrap();
    writer.wait().unwrap();
    let torn = std::fs::read_to_string(&file).unwrap();
    assert!(
        torn.starts_with(&acknowledged),
        "an acknowledged event was lost"
    );
    let (code, _, stderr) = common::sunfold(&["replay", &file]);
    assert_eq!(code, 1);
    assert!(stderr.contains(":4: expected a complete last line, but the file ends mid-event after 30 bytes (a torn write)"), "{stderr}");
    let (code, _, _) = common::sunfold(&["crab", &file, "Ann", "C1a"]);
    assert_eq!(code, 1, "no append after a torn line");
    let out = ok(&["repair", &file]);
    assert!(out.contains("removed the torn line 4 (30 bytes"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), acknowledged);
    assert_eq!(std::fs::read(format!("{file}.torn")).unwrap().len(), 30);
    ok(&["crab", &file, "Ann", "C1a"]);
    ok(&["replay", &file]);
    // Repair never touches other damage.
    let damaged = fresh("damaged.jsonl");
    let mut text = acknowledged.replace("\"K1d\"", "\"K9\"");
    text.push_str("{\"seq\":3,\"ty");
    std::fs::write(&damaged, &text).unwrap();
    let (code, _, stderr) = common::sunfold(&["repair", &damaged]);
    assert_eq!(code, 1);
    assert!(stderr.contains("damaged; nothing was changed"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&damaged).unwrap(), text);
}

#[test]
fn two_processes_appending_200_events_each_make_one_valid_log() {
    // A long game without sun rewards, so that rounds never wait for a bonus.
    let mut template: Value = serde_json::from_str(
        &std::fs::read_to_string(common::repo().join("sheet-templates/62-soleils-d-ete.json"))
            .unwrap(),
    )
    .unwrap();
    template["end"] = serde_json::json!({"rounds": 100, "sun_limit": 600});
    template["sun"] = serde_json::json!({"slots": 100, "thresholds": []});
    let template_path = dir().join("long.json");
    std::fs::write(&template_path, template.to_string()).unwrap();
    let file = fresh("concurrent.jsonl");
    ok(&[
        "new",
        "soleils",
        &file,
        "--players",
        "Ann,Bob,Cy",
        "--template",
        template_path.to_str().unwrap(),
    ]);
    let worker = |script: Vec<Vec<String>>| {
        std::thread::spawn(move || {
            for args in script {
                loop {
                    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
                        .args(&args)
                        .output()
                        .unwrap();
                    match out.status.code() {
                        Some(0) => break,
                        // Not legal yet: the other player has not caught up.
                        Some(1) => std::thread::sleep(std::time::Duration::from_millis(2)),
                        code => panic!(
                            "{args:?}: {code:?} {}",
                            String::from_utf8_lossy(&out.stderr)
                        ),
                    }
                }
            }
        })
    };
    let f = file.clone();
    let cmd = move |a: &[&str]| {
        a.iter()
            .map(|s| s.replace("FILE", &f))
            .collect::<Vec<String>>()
    };
    let a: Vec<Vec<String>> = (0..100)
        .flat_map(|_| {
            [
                cmd(&["roll", "FILE", "--dice", "1,1,1"]),
                cmd(&["sun", "FILE", "Ann", "1"]),
            ]
        })
        .collect();
    let b: Vec<Vec<String>> = (0..100)
        .flat_map(|_| {
            [
                cmd(&["sun", "FILE", "Bob", "1"]),
                cmd(&["sun", "FILE", "Cy", "1"]),
            ]
        })
        .collect();
    let (ta, tb) = (worker(a), worker(b));
    ta.join().unwrap();
    tb.join().unwrap();
    let out = ok(&["replay", &file]);
    assert!(
        out.starts_with(&format!(
            "{file}: 401 events, valid; chained: all 400 hashes verified"
        )),
        "{out}"
    );
    assert!(out.contains("game over: round 100 was the last"));
}

#[test]
fn tampering_with_an_early_line_is_detected_with_the_line_named() {
    let file = fresh("tamper.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    for args in [
        vec!["roll", &file, "--dice", "4,5,2"],
        vec!["sun", &file, "Ann", "4"],
        vec!["sun", &file, "Bob", "2"],
        vec!["roll", &file, "--dice", "1,1,1"],
        vec!["sun", &file, "Ann", "1"],
    ] {
        ok(&args);
    }
    let text = std::fs::read_to_string(&file).unwrap();
    // 1. One byte flipped inside line 3: Ann's sun entry 4 becomes 5, which
    // is still legal (5 is on a die), so only the chain can tell.
    let flipped = fresh("flipped.jsonl");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines[2].ends_with("\"value\":4}"));
    lines[2] = lines[2].replacen("\"value\":4}", "\"value\":5}", 1);
    std::fs::write(&flipped, lines.join("\n") + "\n").unwrap();
    let (code, _, stderr) = common::sunfold(&["replay", &flipped]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with(&format!(
            "{flipped}:4: event 3 (sun_entered): expected \"prev\" to be the hash of line 3"
        )),
        "{stderr}"
    );
    // 2. A number changed in line 2's JSON, re-serialised: the roll 4-5-2 becomes 4-5-4.
    let rewritten = fresh("rewritten.jsonl");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut event: Value = serde_json::from_str(&lines[1]).unwrap();
    event["dice"] = serde_json::json!([4, 5, 4]);
    lines[1] = event.to_string();
    std::fs::write(&rewritten, lines.join("\n") + "\n").unwrap();
    let (code, _, stderr) = common::sunfold(&["replay", &rewritten]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("line 2 was changed after this line was written"),
        "{stderr}"
    );
    // 3. A removed hash on a later line.
    let unhashed = fresh("unhashed.jsonl");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut event: Value = serde_json::from_str(&lines[4]).unwrap();
    event.as_object_mut().unwrap().remove("prev");
    lines[4] = event.to_string();
    std::fs::write(&unhashed, lines.join("\n") + "\n").unwrap();
    let (_, _, stderr) = common::sunfold(&["replay", &unhashed]);
    assert!(
        stderr.contains(":5: event 4 (rolled): expected a \"prev\" hash"),
        "{stderr}"
    );
    // Hand-written logs without hashes stay valid, and say so.
    let out = ok(&["replay", "replays/soleils-2p-round-limit.jsonl"]);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with("not chained: no hash chain, so no tamper evidence")
    );
}

#[test]
fn undo_takes_back_the_last_decision_but_never_a_roll() {
    let file = fresh("undo.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    let (code, _, stderr) = common::sunfold(&["undo", &file]);
    assert_eq!(code, 1, "nothing to undo before any decision");
    assert!(
        stderr.contains(
            "expected a decision to undo, but none was made since the last roll or reveal"
        ),
        "{stderr}"
    );
    ok(&["roll", &file, "--dice", "4,5,2"]);
    ok(&["place", &file, "Ann", "K1d", "5"]);
    ok(&["crab", &file, "Ann", "C1a"]);
    let said = ok(&["undo", &file]);
    assert!(
        said.contains("took back event 3: Ann copied K1d to C1a"),
        "undo says what it took back: {said}"
    );
    let said = ok(&["undo", &file]);
    assert!(
        said.contains("took back event 2: Ann placed 5 in K1d"),
        "{said}"
    );
    let status = ok(&["status", &file]);
    assert!(
        status.contains("Ann: a placement or a sun entry"),
        "both decisions taken back: {status}"
    );
    let (code, _, _) = common::sunfold(&["undo", &file]);
    assert_eq!(code, 1, "the roll cannot be undone");
    ok(&["place", &file, "Ann", "K1d", "2"]);
    let out = ok(&["replay", &file]);
    let struck: Vec<&str> = out.lines().filter(|l| l.starts_with("  undone:")).collect();
    assert_eq!(struck.len(), 2, "{out}");
    assert!(
        struck[0].contains("(event 3, taken back by event 4)"),
        "{out}"
    );
    assert!(
        struck[0].contains("C\u{336}1\u{336}a\u{336}"),
        "struck through: {out}"
    );
}

#[test]
fn claimed_scores_are_compared_with_the_recomputed_ones() {
    let file = fresh("claims.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    ok(&["roll", &file, "--dice", "6,6,6"]);
    ok(&["sun", &file, "Ann", "6"]);
    ok(&["sun", &file, "Bob", "6"]);
    // Given a game still going, claims are refused unless they call it.
    let (code, _, stderr) = common::sunfold(&["claim", &file, "Ann=5", "Bob=7"]);
    assert_eq!(code, 1, "{stderr}");
    ok(&["claim", &file, "--called", "Ann=5", "Bob=7"]);
    let out = ok(&["replay", &file]);
    // A called game is over: replay and status say so, and list nothing
    // left to enter.
    assert!(
        out.contains("called by the claims of event 4: it ends here"),
        "{out}"
    );
    let status = ok(&["status", &file]);
    assert!(
        status.contains("nothing pending: the game was called by the claims of event 4")
            && !status.contains("legal next entries"),
        "{status}"
    );
    let json: Value = serde_json::from_str(&ok(&["status", &file, "--format", "json"])).unwrap();
    assert_eq!(json["pending"], serde_json::json!([]));
    assert_eq!(json["legal"], serde_json::json!([]));
    assert!(
        out.contains("  Ann: claimed 5, recomputed 0: DIFFERS by -5"),
        "{out}"
    );
    assert!(
        out.contains("  Bob: claimed 7, recomputed 0: DIFFERS by -7"),
        "{out}"
    );
    // Given claims that differ, audit reports them and still calls the
    // file valid; with --strict-claims the file counts as bad.
    let (code, text, _) = common::sunfold(&["audit", &file]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("valid, 5 events; called by the claims of event 4; won by Ann and Bob;"),
        "{text}"
    );
    assert!(
        text.contains("  claims (event 4): Ann claimed 5, recomputed 0\n")
            && text.contains("  claims (event 4): Bob claimed 7, recomputed 0\n"),
        "{text}"
    );
    assert!(text.contains("1 files, 0 bad, 5 events; 1 with claims that differ"));
    let (code, json, _) = common::sunfold(&["audit", &file, "--strict-claims", "--format", "json"]);
    assert_eq!(code, 1, "{json}");
    let line: Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(line["valid"], false);
    assert_eq!(line["error"], Value::Null);
    assert_eq!(line["result"]["ended"], "called by the claims of event 4");
    assert_eq!(line["result"]["players"][1]["player"], "Bob");
    assert_eq!(line["claims"]["agree"], false);
    assert_eq!(line["claims"]["differ"][0]["claimed"], 5);
    assert_eq!(line["claims"]["differ"][0]["recomputed"], 0);
    let claims = dir().join("claims.json");
    std::fs::write(&claims, r#"{"Ann": 0, "Bob": 0}"#).unwrap();
    ok(&["claim", &file, "--from", claims.to_str().unwrap()]);
    let out = ok(&["replay", &file]);
    assert!(
        out.contains("  Ann: claimed 0, recomputed 0: agrees"),
        "{out}"
    );
    // The last claims agree: nothing to report, even when strict.
    let text = ok(&["audit", &file, "--strict-claims"]);
    assert!(!text.contains("claims (event"), "{text}");
    let (code, _, stderr) = common::sunfold(&["claim", &file, "Zed=4"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("expected claims for players of the game (Ann, Bob), but found \"Zed\""),
        "{stderr}"
    );
}

#[test]
fn a_physical_summertime_game_is_recorded_reveal_by_reveal() {
    let file = fresh("physical.jsonl");
    ok(&[
        "new",
        "summertime",
        &file,
        "--players",
        "Ann,Ben",
        "--physical",
        "--closing",
        "0,1,0",
    ]);
    let (code, _, stderr) = common::sunfold(&["reveal", &file]);
    assert_eq!(code, 2, "a physical reveal needs the card: {stderr}");
    ok(&[
        "reveal",
        &file,
        "0",
        "ocean-1",
        "--behind",
        "coconut,coconut,breadfruit",
    ]);
    ok(&[
        "reveal",
        &file,
        "1",
        "couple-1",
        "--behind",
        "breadfruit,shell,coral",
    ]);
    ok(&[
        "reveal",
        &file,
        "2",
        "catamaran-1",
        "--behind",
        "flower,flower,coral",
    ]);
    ok(&["buy", &file, "Ann", "0"]);
    let status = ok(&["status", &file]);
    assert!(
        status.contains("hand: Ocean 4 (ocean-1), 2 unseen dealt card(s)"),
        "{status}"
    );
    ok(&["play", &file, "Ann", "ocean-1", "0,0"]);
    ok(&["end-turn", &file, "Ann"]);
    ok(&["pass", &file, "Ben"]);
    let out = ok(&["replay", &file]);
    assert!(out.contains("Ocean 4 ·1 +4"), "{out}");
}

#[test]
fn recording_usage_messages_are_pinned() {
    let soleils = fresh("usage-soleils.jsonl");
    let summertime = fresh("usage-summertime.jsonl");
    let handmade = fresh("usage-handmade.jsonl");
    let finished = fresh("usage-finished.jsonl");
    std::fs::copy(
        common::repo().join("replays/summertime-last-card-bought.jsonl"),
        &finished,
    )
    .unwrap();
    ok(&["new", "soleils", &soleils, "--players", "Ann,Bob"]);
    ok(&[
        "new",
        "summertime",
        &summertime,
        "--players",
        "Ann,Bob",
        "--seed",
        "1",
    ]);
    std::fs::copy(
        common::repo().join("replays/soleils-2p-round-limit.jsonl"),
        &handmade,
    )
    .unwrap();
    let mut lines = Vec::new();
    let cases: [&[&str]; 11] = [
        &["buy", &soleils, "Ann", "0"],
        &["append", &soleils, "not json"],
        &["place", &soleils, "Ann", "K1a", "7"],
        &["reveal", &finished],
        &["roll", &summertime],
        &["roll", &soleils, "--dice", "1,2"],
        &["new", "soleils", &soleils, "--players", "Cy,Dee"],
        &[
            "new",
            "soleils",
            &fresh("x.jsonl"),
            "--players",
            "Cy",
            "--option",
            "sun_bonus=sometimes",
        ],
        &["append", &soleils, "[1, 2]"],
        &["play", &summertime, "Ann", "beach-1", "two,one"],
        &["discard", &handmade],
    ];
    for args in cases {
        let (code, _, stderr) = common::sunfold(args);
        let dir = dir().display().to_string();
        lines.push(format!(
            "exit {code}: {}",
            stderr.trim_end().replace(&dir, "DIR")
        ));
    }
    let text = lines.join("\n");
    common::snapshots().bind(|| insta::assert_snapshot!("record__usage_messages", text));
}

/// Given a game in progress, when a script reads `status --format json`,
/// then every entry of its `legal_events` is one that `append` accepts
/// unchanged, for both games.
#[test]
fn status_json_lists_the_legal_entries_that_append_takes() {
    let soleils = fresh("status-soleils.jsonl");
    ok(&["new", "soleils", &soleils, "--players", "Ann,Bob"]);
    ok(&["roll", &soleils, "--dice", "6,3,1"]);
    let summertime = fresh("status-summertime.jsonl");
    ok(&[
        "new",
        "summertime",
        &summertime,
        "--players",
        "Ann,Bob",
        "--seed",
        "3",
    ]);
    for file in [&soleils, &summertime] {
        for _ in 0..6 {
            let status: Value =
                serde_json::from_str(&ok(&["status", file, "--format", "json"])).unwrap();
            let events = status["legal_events"].as_array().unwrap();
            assert!(!events.is_empty(), "{status}");
            // Each one is accepted: try the first and the last on a copy.
            for event in [&events[0], &events[events.len() - 1]] {
                let copy = format!("{file}.try");
                std::fs::copy(file, &copy).unwrap();
                ok(&["append", &copy, &event.to_string()]);
            }
            ok(&["append", file, &events[events.len() / 2].to_string()]);
        }
    }
}

/// Given the same entries, when the recording verbs write them, when
/// `append` writes them (with the same times) and when the table server's
/// line is made of them (its clock reading the same times), then every
/// line is spelled the same, byte for byte.
#[test]
fn every_writer_spells_the_same_entry_the_same_way() {
    let by_verbs = fresh("spelled-verbs.jsonl");
    ok(&["new", "soleils", &by_verbs, "--players", "Ann,Bob"]);
    let by_append = fresh("spelled-append.jsonl");
    std::fs::copy(&by_verbs, &by_append).unwrap();
    ok(&["roll", &by_verbs, "--dice", "4,5,2"]);
    ok(&["place", &by_verbs, "Ann", "K1d", "5"]);
    ok(&["undo", &by_verbs]);
    ok(&["claim", &by_verbs, "Ann=0", "Bob=0", "--called"]);
    let written = std::fs::read_to_string(&by_verbs).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert_eq!(lines.len(), 5, "{written}");
    for (i, line) in lines.iter().enumerate().skip(1) {
        let mut entry: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        entry.remove("seq");
        entry.remove("prev");
        let at = entry["at"].as_str().unwrap().to_owned();
        // append keeps a time given with the entry.
        ok(&[
            "append",
            &by_append,
            &Value::Object(entry.clone()).to_string(),
        ]);
        // The server takes no time from the entry: its clock gives it.
        entry.remove("at");
        let served = sunfold::table::entry::served_line::<sunfold::soleils::Soleils>(
            &Value::Object(entry).to_string(),
            i as u64,
            Some(sunfold::log::line_hash(lines[i - 1].as_bytes())),
            chrono::DateTime::parse_from_rfc3339(&at).unwrap(),
            Some("referee"),
        )
        .unwrap();
        // The same line, with who posted it after the envelope.
        let by = line.replacen(",\"type\":", ",\"by\":\"referee\",\"type\":", 1);
        assert_eq!(served, format!("{by}\n"), "served");
    }
    assert_eq!(std::fs::read_to_string(&by_append).unwrap(), written);
}

/// Given a chained log whose lines are spelled as `append` once wrote them
/// (keys in alphabetical order, `+00:00`), when it is replayed and then
/// extended, then its chain holds over the bytes as written, and the new
/// line chains on to them.
#[test]
fn a_log_in_the_older_spelling_still_replays_and_extends() {
    let file = fresh("older-spelling.jsonl");
    ok(&["new", "soleils", &file, "--players", "Ann,Bob"]);
    let start = std::fs::read_to_string(&file).unwrap();
    let first = start.trim_end();
    let rolled = format!(
        "{{\"at\":\"2026-07-01T12:00:00+00:00\",\"dice\":[4,5,2],\"prev\":\"{}\",\"seq\":1,\"type\":\"rolled\"}}",
        sunfold::log::line_hash(first.as_bytes())
    );
    let placed = format!(
        "{{\"at\":\"2026-07-01T12:00:30+00:00\",\"box\":\"K1d\",\"player\":\"Ann\",\"prev\":\"{}\",\"seq\":2,\"type\":\"placed\",\"value\":5}}",
        sunfold::log::line_hash(rolled.as_bytes())
    );
    let older = format!("{first}\n{rolled}\n{placed}\n");
    std::fs::write(&file, &older).unwrap();
    let replayed = |file: &str| -> Value {
        serde_json::from_str(&ok(&["replay", file, "--format", "json"])).unwrap()
    };
    let report = replayed(&file);
    assert_eq!(
        (&report["valid"], &report["chained"]),
        (&json(true), &json(true))
    );
    ok(&["place", &file, "Bob", "K1d", "5"]);
    let now = std::fs::read_to_string(&file).unwrap();
    assert!(
        now.starts_with(&older),
        "the older lines are kept as written"
    );
    let report = replayed(&file);
    assert_eq!(
        (&report["valid"], &report["chained"]),
        (&json(true), &json(true))
    );
}

fn json(v: bool) -> Value {
    Value::Bool(v)
}
