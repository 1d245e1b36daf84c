//! `sunfold sweep`: one variant played at every value of a place of its
//! rules on the same games. A real sweep of a sun threshold: the rows
//! differ where the rules do, the value the bundled sheet has gives
//! `simulate`'s figures exactly (the games are paired), and the reward is
//! won less often as its threshold rises. Bad specs are refused before any
//! game (exit 2, nothing printed), the JSON fits its schema, and the
//! drawing is legible.

use crate::common;

use common::layout::assert_laid_out;

use serde_json::Value;
use sunfold::bots::VariantInfo;
use sunfold::render::paper::Paper;
use sunfold::render::{pdf, svg};
use sunfold::report::sweep::report;
use sunfold::schema::{SchemaKind, schema_text};
use sunfold::stats::{Estimate, Metric, Section, Unit};
use sunfold::workbench::sweep::{Axis, Difference, SetValue, Sweep, SweepRow};

fn json(args: &[&str]) -> Value {
    let (code, out, err) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

const THRESHOLD: [&str; 8] = [
    "sweep",
    "soleils",
    "--set",
    "sun.thresholds[4].at=44,52,60",
    "--games",
    "200",
    "--seed",
    "4",
];

#[test]
fn a_threshold_sweep_plays_the_games_of_simulate_at_every_value() {
    let mut args = THRESHOLD.to_vec();
    args.extend([
        "--figure",
        "mean_score,rounds,sun_won.44,sun_won.52,sun_won.60",
        "--format",
        "json",
    ]);
    let sweep = json(&args);
    assert_eq!(sweep["axes"][0]["path"], "sun.thresholds[4].at");
    assert_eq!(sweep["axes"][0]["values"], serde_json::json!([44, 52, 60]));
    let rows = sweep["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let figure = |row: usize, f: usize| rows[row]["figures"][f].clone();
    // 52 is the bundled sheet's own threshold: its row is simulate's run,
    // game for game, so its figures are simulate's to the last bit.
    let simulated = json(&[
        "simulate", "soleils", "--games", "200", "--seed", "4", "--format", "json",
    ]);
    assert_eq!(rows[1]["values"], serde_json::json!([52]));
    assert_eq!(figure(1, 0), simulated["values"]["mean_score"]);
    assert_eq!(figure(1, 1), simulated["values"]["rounds"]);
    assert_eq!(figure(1, 3), simulated["values"]["sun_won.52"]);
    // The rows differ where the rules do: the mean score falls as the
    // starfish reward gets harder to reach.
    let mean = |row: usize| figure(row, 0)["estimate"].as_f64().unwrap();
    assert!(mean(0) > mean(1) && mean(1) > mean(2), "{rows:?}");
    // Each threshold's id names its own value: a row has only its own.
    let won = |row: usize| figure(row, 2 + row)["estimate"].as_f64().unwrap();
    assert!(won(0) > won(1) && won(1) > won(2), "{rows:?}");
    assert!(figure(0, 3).is_null() && figure(0, 4).is_null());
    assert!(figure(2, 2).is_null());
}

#[test]
fn linked_numbers_are_checked_together_and_move_together() {
    // The last threshold and the sun limit are valid only together: each
    // combination is checked as a whole.
    let together = json(&[
        "sweep",
        "soleils",
        "--set",
        "sun.thresholds[5].at=54",
        "--set",
        "end.sun_limit=54",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(together["rows"].as_array().unwrap().len(), 1);
    // One --set naming both paths plays them side by side, not crossed.
    let linked = json(&[
        "sweep",
        "soleils",
        "--set",
        "sun.thresholds[5].at,end.sun_limit=54:54,58:58,62:62",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    assert_eq!(linked["axes"][1]["path"], "end.sun_limit");
    assert_eq!(linked["axes"][1]["linked"], true);
    assert!(linked["axes"][0].get("linked").is_none());
    let rows = linked["rows"].as_array().unwrap();
    let values: Vec<&Value> = rows.iter().map(|r| &r["values"]).collect();
    assert_eq!(
        values,
        [
            &serde_json::json!([54, 54]),
            &serde_json::json!([58, 58]),
            &serde_json::json!([62, 62])
        ]
    );
    // Every row against the base row, game by game: the base row has no
    // difference, and an unchanged row would differ by exactly 0.
    let based = json(&[
        "sweep",
        "soleils",
        "--set",
        "sun.thresholds[5].at,end.sun_limit=54:54,58:58,62:62",
        "--games",
        "60",
        "--base",
        "62:62",
        "--figure",
        "mean_score,rounds",
        "--format",
        "json",
    ]);
    assert_eq!(based["base"], 2);
    assert_eq!(based["tests"], 4);
    let rows = based["rows"].as_array().unwrap();
    assert!(rows[2]["differences"][0].is_null());
    let rounds = &rows[0]["differences"][1];
    // A lower sun limit ends the game sooner, in every row of games.
    assert!(rounds["ci95"][1].as_f64().unwrap() < 0.0, "{rounds}");
    assert_eq!(rounds["significant"], true);
    let (code, text, err) = common::sunfold(&[
        "sweep",
        "soleils",
        "--set",
        "sun.thresholds[5].at,end.sun_limit=54:54,62:62",
        "--games",
        "10",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("differences from the base row (sun.thresholds[5].at=54, end.sun_limit=54)"),
        "{text}"
    );
    assert!(
        text.contains("sweep of sun.thresholds[5].at with end.sun_limit over 2 values"),
        "{text}"
    );
}

#[test]
fn the_default_figures_are_the_mean_score_the_length_and_every_seats_win_rate() {
    let sweep = json(&[
        "sweep",
        "soleils",
        "--set",
        "sun_bonus=reach_or_pass,exact",
        "--set",
        "end.sun_limit=58,62",
        "--players",
        "3",
        "--games",
        "20",
        "--format",
        "json",
    ]);
    let ids: Vec<&str> = sweep["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "mean_score",
            "rounds",
            "win_rate.seat_1",
            "win_rate.seat_2",
            "win_rate.seat_3"
        ]
    );
    // Every combination, the first --set outermost.
    let values: Vec<Value> = sweep["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["values"].clone())
        .collect();
    assert_eq!(
        values,
        [
            serde_json::json!(["reach_or_pass", 58]),
            serde_json::json!(["reach_or_pass", 62]),
            serde_json::json!(["exact", 58]),
            serde_json::json!(["exact", 62]),
        ]
    );
}

#[test]
fn summertime_sweeps_the_numbers_of_its_deck() {
    let sweep = json(&[
        "sweep",
        "summertime",
        "--set",
        "rules.hand_penalty=0..6:3",
        "--games",
        "40",
        "--format",
        "json",
    ]);
    let rows = sweep["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let mean = |r: usize| rows[r]["figures"][0]["estimate"].as_f64().unwrap();
    assert!(mean(0) > mean(2), "a bigger hand penalty lowers the scores");
}

#[test]
fn bad_sweeps_are_refused_before_any_game_with_exit_2() {
    let cases: &[&[&str]] = &[
        &["soleils", "--set", "sun.thresholds[9].at=30,32"],
        &["soleils", "--set", "sun.thresholds[2].att=30"],
        &["soleils", "--set", "sun.thresholds[2].at=26..38:0"],
        &["soleils", "--set", "sun.thresholds[2].at=38..26:2"],
        &["soleils", "--set", "sun.thresholds[2].at=26..x"],
        &["soleils", "--set", "sun.thresholds[2].at=26,,30"],
        &["soleils", "--set", "sun.thresholds[2].at=26,26"],
        &["soleils", "--set", "sun.thresholds[2].at=abc"],
        &["soleils", "--set", "sun.thresholds[2].at=26,50"],
        &["soleils", "--set", "sun.thresholds..at=1"],
        &["soleils", "--set", "sun.thresholds[2].at"],
        &[
            "soleils",
            "--set",
            "end.rounds=18,20",
            "--set",
            "end.rounds=19",
        ],
        &["soleils", "--set", "end.rounds=1..401"],
        &[
            "soleils",
            "--set",
            "end.sun_limit=40..62",
            "--set",
            "end.rounds=10..30",
        ],
        &["soleils", "--set", "sun_bonus=exact,nearly"],
        &[
            "soleils",
            "--set",
            "sun_bonus=exact",
            "--option",
            "sun_bonus=exact",
        ],
        &[
            "soleils",
            "--set",
            "end.rounds=18",
            "--figure",
            "mean_scores",
        ],
        &[
            "soleils",
            "--set",
            "end.rounds=18",
            "--figure",
            "rounds,rounds",
        ],
        &["soleils", "--set", "end.sun_limit=54"],
        &[
            "soleils",
            "--set",
            "sun.thresholds[5].at,end.sun_limit=54:54,58",
        ],
        &[
            "soleils",
            "--set",
            "sun.thresholds[5].at,end.sun_limit=54:54,54:54",
        ],
        &["soleils", "--set", "end.rounds=18,20", "--base", "19"],
        &["summertime", "--set", "rules.hand_penalty=-1"],
        &["summertime", "--set", "sun_bonus=exact"],
    ];
    let mut text = String::new();
    for case in cases {
        let mut args = vec!["sweep"];
        args.extend_from_slice(case);
        let (code, out, err) = common::sunfold(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(!err.contains("games in"), "{args:?} played: {err}");
        text.push_str(&format!("$ sunfold {}\n{err}\n", args.join(" ")));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("sweep__refusals", text));
}

#[test]
fn the_sweep_report_fits_its_committed_schema() {
    let committed =
        std::fs::read_to_string(common::repo().join("docs/schema/sweep-report.schema.json"))
            .unwrap();
    assert!(
        committed == schema_text(SchemaKind::SweepReport),
        "docs/schema/sweep-report.schema.json is stale: regenerate it with `sunfold schema sweep-report`"
    );
    let schema: Value = serde_json::from_str(&committed).unwrap();
    let required = |def: &str| -> Vec<String> {
        let node = if def.is_empty() {
            &schema
        } else {
            &schema["$defs"][def]
        };
        node["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    };
    let sweep = json(&[
        "sweep",
        "soleils",
        "--set",
        "sun_bonus=exact,reach_or_pass",
        "--set",
        "sun.thresholds[1].at=20,22",
        "--games",
        "10",
        "--format",
        "json",
    ]);
    // Every field the schema requires is there, and nothing it does not name.
    for (def, value) in [
        ("", &sweep),
        ("SweepRow", &sweep["rows"][0]),
        ("Axis", &sweep["axes"][0]),
    ] {
        let node = if def.is_empty() {
            &schema
        } else {
            &schema["$defs"][def]
        };
        let properties = node["properties"].as_object().unwrap();
        for key in required(def) {
            assert!(value.get(&key).is_some(), "{def}: {key} is missing");
        }
        for key in value.as_object().unwrap().keys() {
            assert!(
                properties.contains_key(key),
                "{def}: {key} is not in the schema"
            );
        }
    }
    assert_eq!(
        sweep["axes"][0]["values"],
        serde_json::json!(["exact", "reach_or_pass"])
    );
}

/// A hand-made sweep: `lines` combinations of a second axis, five values
/// of the first, one figure missing at one point.
fn hand_made(lines: usize) -> Sweep {
    let first = Axis {
        path: "sun.thresholds[2].at".to_owned(),
        values: (0..5).map(|k| SetValue::Integer(26 + 3 * k)).collect(),
        linked: false,
    };
    let mut axes = vec![first];
    if lines > 1 {
        axes.push(Axis {
            path: "skip_placement".to_owned(),
            values: (0..lines)
                .map(|k| SetValue::Text(format!("a_long_option_value_number_{k}")))
                .collect(),
            linked: false,
        });
    }
    let figures = vec![
        Metric::new("mean_score", Section::Score, "all seats", Unit::Points),
        Metric::new("rounds", Section::Length, "rounds played", Unit::Count),
        Metric::new("win_rate.seat_1", Section::Win, "seat 1", Unit::Share),
    ];
    let mut rows = Vec::new();
    for v in 0..5 {
        for l in 0..lines {
            let mut values = vec![SetValue::Integer(26 + 3 * v as i64)];
            if lines > 1 {
                values.push(SetValue::Text(format!("a_long_option_value_number_{l}")));
            }
            let at = |base: f64, spread: f64| Estimate {
                estimate: base,
                ci95: [base - spread, base + spread],
            };
            let x = v as f64 + l as f64 * 0.3;
            rows.push(SweepRow {
                values,
                figures: vec![
                    Some(at(14.0 - 0.2 * x, 0.3)),
                    (v != 2).then(|| at(16.5 + 0.05 * x, 0.2)),
                    Some(at(0.25 + 0.01 * x, 0.05)),
                ],
                // Against the first row; every third differs.
                differences: (0..3)
                    .map(|f| {
                        (v + l > 0).then(|| Difference {
                            difference: at(-0.2 * x, 0.1),
                            significant: (v + l + f) % 3 == 0,
                        })
                    })
                    .collect(),
            });
        }
    }
    Sweep {
        head: sunfold::workbench::Head {
            game: "soleils",
            title: "62 Soleils d'été",
            players: 4,
            games: 300,
            seed: 1,
        },
        bots: vec!["random".to_owned(); 4],
        rotated: false,
        variant: VariantInfo {
            source: "bundled".to_owned(),
            name: "62 Soleils d'été".to_owned(),
            kind: "sheet",
            options: vec![("sun_bonus".to_owned(), "reach_or_pass".to_owned())],
        },
        axes,
        figures,
        rows,
        base: 0,
        tests: 3 * (5 * lines - 1),
    }
}

#[test]
fn the_drawn_sweep_is_legible_on_every_paper() {
    for lines in [1, 2, 5] {
        let sweep = hand_made(lines);
        for paper in [Paper::A4, Paper::Letter, Paper::A5] {
            let scene = report(&sweep, paper);
            assert_laid_out(&scene, &format!("{lines} lines on {paper:?}"));
            let svg = svg::to_svg(&scene).unwrap();
            for figure in &sweep.figures {
                assert!(svg.contains(&figure.id), "{}", figure.id);
            }
            assert!(svg.contains("sun.thresholds[2].at"));
            pdf::to_pdf(&scene).unwrap();
        }
    }
}

#[test]
fn a_sweep_is_drawn_from_the_command_line() {
    let dir = common::temp_dir("sweep-draw");
    let out = dir.join("sweep.svg");
    let (code, _, err) = common::sunfold(&[
        "sweep",
        "soleils",
        "--set",
        "sun.thresholds[4].at=44,52",
        "--games",
        "10",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = String::from_utf8(common::written(&out)).unwrap();
    assert!(svg.contains(": sweep of sun.thresholds[4].at"), "no title");
    for id in ["mean_score", "rounds", "win_rate.seat_1", "win_rate.seat_4"] {
        assert!(svg.contains(id), "no panel {id}");
    }
}

#[test]
fn parts_of_two_different_sweeps_are_refused_naming_the_difference() {
    let dir = common::temp_dir("sweep-merge-refused");
    let part = |values: &str, k: u32| {
        let set = format!("sun.thresholds[4].at={values}");
        let shard = format!("{k}/2");
        let (code, out, err) = common::sunfold(&[
            "sweep", "soleils", "--set", &set, "--games", "6", "--shard", &shard,
        ]);
        assert_eq!(code, 0, "{err}");
        let path = dir.join(format!("{values}-{k}.json"));
        std::fs::write(&path, out).unwrap();
        path.display().to_string()
    };
    let a = part("44,52", 1);
    let b = part("44,56", 2);
    let (code, out, err) = common::sunfold(&["merge", &a, &b]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("run.sweep.axes[0].values[1] 56 where") && err.contains("has 52"),
        "{err}"
    );
}

#[test]
fn the_text_gives_each_rows_difference_from_the_base_row() {
    let text = sunfold::report::sweep::text::text(&hand_made(2));
    assert!(text.contains("differences from the base row"), "{text}");
    common::snapshots().bind(|| insta::assert_snapshot!("sweep__differences", text));
}
