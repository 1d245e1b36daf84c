//! `sunfold event simulate` end to end: whole events played by a field of
//! bots, the same on any thread count and when cut into shards and merged,
//! and its refusals pinned.

use crate::common;

use serde_json::Value;
use sunfold::schema::{SchemaKind, schema_text};

use common::run_ok as run;

#[test]
fn a_format_study_plays_whole_events_the_same_on_any_thread_count() {
    let study = |jobs: &str, extra: &[&str]| -> String {
        let mut args = vec![
            "event",
            "simulate",
            "--game",
            "soleils",
            "--field",
            "greedy=1,random=7",
            "--rounds",
            "3",
            "--events",
            "40",
            "--seed",
            "5",
            "--jobs",
            jobs,
        ];
        args.extend(extra);
        run(&args)
    };
    let one = study("1", &["--format", "json"]);
    assert_eq!(
        one,
        study("2", &["--format", "json"]),
        "the same on 1 or 2 threads"
    );
    let report: Value = serde_json::from_str(&one).unwrap();
    let schema: Value = serde_json::from_str(&schema_text(SchemaKind::EventStudy)).unwrap();
    assert_eq!(
        common::schema::breaks(&schema, &schema, &report, "study"),
        None
    );
    assert_eq!(report["events"], 40);
    assert_eq!(report["players"], 8);
    assert_eq!(report["strongest"], "greedy");
    let field = report["field"].as_array().unwrap();
    let firsts: u64 = field.iter().map(|r| r["first"].as_u64().unwrap()).sum();
    assert_eq!(firsts, 40, "every event has one winner");
    // Given one greedy player among seven random ones, then the greedy one
    // wins far more often than its one eighth, and its interval is real.
    let share = &report["strongest_first"];
    let [low, high] = [
        share["ci95"][0].as_f64().unwrap(),
        share["ci95"][1].as_f64().unwrap(),
    ];
    assert!(low > 0.125 && low < high, "{share}");
    assert!(
        field[0]["mean_rank"]["estimate"].as_f64().unwrap()
            < field[1]["mean_rank"]["estimate"].as_f64().unwrap()
    );
    let text = study("2", &[]);
    assert!(
        text.contains("the strongest, greedy (1 player), finishes first in"),
        "{text}"
    );

    // A Summertime Swiss of five players, with a bye each round.
    let swiss = run(&[
        "event",
        "simulate",
        "--game",
        "summertime",
        "--field",
        "search:4=1,random=4",
        "--events",
        "10",
        "--format",
        "json",
    ]);
    let swiss: Value = serde_json::from_str(&swiss).unwrap();
    assert_eq!(swiss["strongest"], "search:4");
    assert_eq!(swiss["table_size"], 2);

    let (code, _, added) = common::sunfold(&[
        "event",
        "simulate",
        "--game",
        "soleils",
        "--field",
        "greedy=1,random=7",
        "--players",
        "9",
    ]);
    assert_eq!(code, 2);
    let (code, _, none) = common::sunfold(&[
        "event",
        "simulate",
        "--game",
        "soleils",
        "--field",
        "greedy=0,random=7",
    ]);
    assert_eq!(code, 2);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("event_study__players_do_not_add_up", added);
        insta::assert_snapshot!("event_study__bot_without_players", none);
    });
}

#[test]
fn a_study_cut_into_shards_merges_into_the_report_of_the_whole() {
    let dir = std::env::temp_dir().join(format!("sunfold-event-study-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let study_of = |rounds: &str, extra: &[&str]| -> String {
        let mut args = vec![
            "event",
            "simulate",
            "--game",
            "summertime",
            "--field",
            "greedy=2,random=5",
            "--rounds",
            rounds,
            "--events",
            "23",
            "--seed",
            "9",
            "--tie-breaks",
            "buchholz-cut1",
        ];
        args.extend(extra);
        run(&args)
    };
    let study = |extra: &[&str]| study_of("3", extra);
    let whole = study(&["--format", "json"]);
    let mut parts = Vec::new();
    for k in ["3/3", "1/3", "2/3"] {
        let part = study(&["--shard", k]);
        let value: Value = serde_json::from_str(&part).unwrap();
        let schema: Value = serde_json::from_str(&schema_text(SchemaKind::EventStudyPart)).unwrap();
        assert_eq!(
            common::schema::breaks(&schema, &schema, &value, "part"),
            None
        );
        let path = dir.join(format!("part-{}.json", &k[..1]));
        std::fs::write(&path, part).unwrap();
        parts.push(path.to_str().unwrap().to_owned());
    }
    // Given the three shards in any order, when they are merged, then the
    // report is the whole study's, byte for byte, in JSON and in text.
    let mut merge: Vec<&str> = vec!["merge"];
    merge.extend(parts.iter().map(String::as_str));
    let json = [merge.clone(), vec!["--format", "json"]].concat();
    assert_eq!(run(&json), whole);
    assert_eq!(run(&merge), study(&[]));

    // A shard missing, or one of another study, is refused by name.
    let (code, _, missing) = common::sunfold(&["merge", &parts[0], &parts[1]]);
    assert_eq!(code, 2);
    assert!(missing.contains("expected shard 2 of 3"), "{missing}");
    let other = study_of("4", &["--shard", "2/3"]);
    let other_path = dir.join("other.json");
    std::fs::write(&other_path, other).unwrap();
    let (code, _, mixed) =
        common::sunfold(&["merge", &parts[0], &parts[1], other_path.to_str().unwrap()]);
    assert_eq!(code, 2);
    let mixed = mixed.replace(dir.to_str().unwrap(), "DIR");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("event_study__part_of_another_study", mixed);
    });
}

/// A study plays the sheet and the rule options the organiser's event
/// would, whole or in shards, and its parts say which.
#[test]
fn a_study_plays_the_events_sheet_and_options() {
    let dir = common::scratch("event-study-sheet");
    let petit = common::repo().join("sheet-templates/petit-ete.json");
    let study = |extra: &[&str]| -> String {
        let mut args = vec!["event", "simulate", "--game", "soleils"];
        args.extend(["--field", "greedy=1,random=8", "--table-size", "3"]);
        args.extend(["--rounds", "2", "--events", "8", "--seed", "4"]);
        args.extend(extra);
        run(&args)
    };
    let sheet = ["--template", petit.to_str().unwrap()];
    let exact = [&sheet[..], &["--option", "sun_bonus=exact"]].concat();
    // Given the small sheet under the exact sun bonus, the report says so,
    // and a study of the bundled sheet names none.
    let json = study(&[&exact[..], &["--format", "json"]].concat());
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["tables"]["name"], "Petit été");
    assert_eq!(report["tables"]["options"]["sun_bonus"], "exact");
    let schema: Value = serde_json::from_str(&schema_text(SchemaKind::EventStudy)).unwrap();
    assert_eq!(
        common::schema::breaks(&schema, &schema, &report, "study"),
        None
    );
    let bundled: Value = serde_json::from_str(&study(&["--format", "json"])).unwrap();
    assert_eq!(
        bundled.get("tables"),
        None,
        "the bundled sheet is not named"
    );
    assert!(study(&exact).contains("every table plays \"Petit été\" under sun_bonus=exact"));
    // When it is cut in two shards, they merge into the same report; a
    // part on another sheet is refused.
    let mut parts = Vec::new();
    for k in ["1/2", "2/2"] {
        let path = dir.join(format!("part-{}.json", &k[..1]));
        std::fs::write(&path, study(&[&exact[..], &["--shard", k]].concat())).unwrap();
        parts.push(path.to_str().unwrap().to_owned());
    }
    let merged = run(&["merge", &parts[0], &parts[1], "--format", "json"]);
    assert_eq!(merged, json);
    let other = dir.join("other.json");
    std::fs::write(&other, study(&[&sheet[..], &["--shard", "2/2"]].concat())).unwrap();
    let (code, _, refused) = common::sunfold(&["merge", &parts[0], other.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(refused.contains("study.options"), "{refused}");
}
