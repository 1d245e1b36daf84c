//! A run spread over machines: `--shard K/N` writes a partial report, and
//! `sunfold merge` gives back the report of the run with no shards, byte
//! for byte, for every kind of report, in text, JSON and drawn. Worker
//! threads tally their own games, so the output is the same on any number
//! of them. Parts that do not belong together are refused with exit 2.

use crate::common;

use common::schema::breaks;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use sunfold::schema::{SchemaKind, schema_text};

/// Runs sunfold with extra environment; (exit code, stdout bytes, stderr).
fn sunfold_env(args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<u8>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(common::repo())
        .output()
        .expect("the binary runs");
    (
        output.status.code().unwrap_or(-1),
        output.stdout,
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn ok(args: &[&str]) -> Vec<u8> {
    let (code, out, err) = sunfold_env(args, &[]);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn with(args: &[&str], more: &[&str]) -> Vec<String> {
    args.iter().chain(more).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Writes the N parts of a run into `dir`, shard N first, and returns them.
fn shards(args: &[&str], n: u64, dir: &Path) -> Vec<String> {
    let mut parts = Vec::new();
    for k in (1..=n).rev() {
        let shard = format!("{k}/{n}");
        let out = ok(&strs(&with(args, &["--shard", &shard])));
        let path = dir.join(format!("part-{k}-of-{n}.json"));
        std::fs::write(&path, out).unwrap();
        parts.push(path.display().to_string());
    }
    parts
}

/// Every report kind, both games where they apply.
fn runs() -> Vec<(&'static str, Vec<&'static str>, bool)> {
    vec![
        // More games than fix the width of the score distribution (512).
        (
            "simulate-soleils",
            vec!["simulate", "soleils", "--games", "530", "--seed", "5"],
            false,
        ),
        (
            "simulate-summertime",
            vec![
                "simulate",
                "summertime",
                "--games",
                "90",
                "--seed",
                "6",
                "--bot",
                "random,greedy",
            ],
            false,
        ),
        (
            "compare-soleils",
            vec![
                "compare",
                "soleils",
                "--games",
                "70",
                "--seed",
                "7",
                "--players",
                "3",
                "--b-option",
                "sun_bonus=exact",
            ],
            true,
        ),
        (
            "compare-summertime",
            vec![
                "compare",
                "summertime",
                "--games",
                "60",
                "--b-deck",
                "tests/templates/valid/deck-mild-penalty.json",
            ],
            true,
        ),
        (
            "ladder-soleils",
            vec![
                "ladder",
                "soleils",
                "--bots",
                "random,greedy",
                "--games",
                "40",
                "--seed",
                "8",
            ],
            true,
        ),
        (
            "sweep-soleils",
            vec![
                "sweep",
                "soleils",
                "--set",
                "sun.thresholds[4].at=44,52,60",
                "--set",
                "sun_bonus=reach_or_pass,exact",
                "--games",
                "40",
                "--seed",
                "9",
                "--figure",
                "mean_score,rounds,sun_won.52,score_share.10",
            ],
            true,
        ),
        (
            "sweep-summertime",
            vec![
                "sweep",
                "summertime",
                "--set",
                "rules.hand_penalty=2..6:2",
                "--games",
                "30",
            ],
            true,
        ),
        (
            "ladder-summertime",
            vec![
                "ladder",
                "summertime",
                "--bots",
                "greedy,random",
                "--games",
                "30",
            ],
            true,
        ),
    ]
}

#[test]
fn merged_shards_give_the_report_of_the_run_with_no_shards_byte_for_byte() {
    let dir = common::temp_dir("shards-merge");
    for (name, args, draws) in runs() {
        let text = ok(&args);
        let json = ok(&strs(&with(&args, &["--format", "json"])));
        let drawn = dir.join(format!("{name}-whole.svg"));
        if draws {
            ok(&strs(&with(&args, &["-o", &drawn.display().to_string()])));
        }
        for n in [1, 3, 7] {
            let parts = shards(&args, n, &dir);
            let mut merge = vec!["merge".to_owned()];
            merge.extend(parts.iter().cloned());
            assert!(
                ok(&strs(&merge)) == text,
                "{name}, {n} shards: the text differs"
            );
            assert!(
                ok(&strs(&with(&strs(&merge), &["--format", "json"]))) == json,
                "{name}, {n} shards: the JSON differs"
            );
            if draws {
                let merged = dir.join(format!("{name}-{n}.svg"));
                ok(&strs(&with(
                    &strs(&merge),
                    &["-o", &merged.display().to_string()],
                )));
                assert!(
                    common::written(&merged) == common::written(&drawn),
                    "{name}, {n} shards: the drawing differs"
                );
            }
        }
    }
}

#[test]
fn parts_gathered_in_one_file_merge_too() {
    let dir = common::temp_dir("shards-one-file");
    let args = ["simulate", "soleils", "--games", "40", "--seed", "3"];
    let mut all = Vec::new();
    for k in 1..=4 {
        all.extend(ok(&strs(&with(&args, &["--shard", &format!("{k}/4")]))));
    }
    let file = dir.join("parts.jsonl");
    std::fs::write(&file, all).unwrap();
    assert!(ok(&["merge", &file.display().to_string()]) == ok(&args));
}

#[test]
fn the_report_is_the_same_on_any_thread_count() {
    for args in [
        &["simulate", "soleils", "--games", "600", "--seed", "12"][..],
        &["simulate", "summertime", "--games", "300", "--seed", "12"][..],
        &[
            "compare",
            "soleils",
            "--games",
            "300",
            "--b-option",
            "sun_bonus=exact",
        ][..],
        &[
            "ladder",
            "soleils",
            "--bots",
            "random,greedy",
            "--games",
            "60",
        ][..],
        &[
            "sweep",
            "soleils",
            "--set",
            "sun.thresholds[4].at=44..60:8",
            "--games",
            "200",
        ][..],
    ] {
        let args = with(args, &["--format", "json"]);
        let run = |threads: &str| {
            let (code, out, err) = sunfold_env(&strs(&args), &[("RAYON_NUM_THREADS", threads)]);
            assert_eq!(code, 0, "{err}");
            assert!(
                err.contains(&format!("on {threads} threads")),
                "{args:?}: {err}"
            );
            out
        };
        let one = run("1");
        assert!(one == run("2"), "{args:?}: 1 and 2 threads differ");
        assert!(one == run("3"), "{args:?}: 1 and 3 threads differ");
    }
}

fn schema(kind: SchemaKind) -> Value {
    serde_json::from_str(&schema_text(kind)).unwrap()
}

#[test]
fn partial_and_merged_reports_validate_against_their_schemas() {
    let committed =
        std::fs::read_to_string(common::repo().join("docs/schema/partial-report.schema.json"))
            .unwrap();
    assert!(
        committed == schema_text(SchemaKind::PartialReport),
        "docs/schema/partial-report.schema.json is stale: regenerate it with `sunfold schema partial-report`"
    );
    let partial = schema(SchemaKind::PartialReport);
    let dir = common::temp_dir("shards-schema");
    for (name, args, _) in runs() {
        let out = ok(&strs(&with(&args, &["--shard", "2/3"])));
        let part: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(part["partial"], "sunfold partial report");
        assert_eq!(part["format"], 3);
        assert_eq!(part["shard"]["index"], 2);
        assert_eq!(part["shard"]["of"], 3);
        assert_eq!(breaks(&partial, &partial, &part, name), None);
    }
    whole_reports_validate(&dir);
}

/// The merged reports, of one shard of one, against their schemas.
fn whole_reports_validate(dir: &Path) {
    for (name, args, _) in runs() {
        let out = ok(&strs(&with(&args, &["--shard", "1/1"])));
        let path = dir.join(format!("{name}-whole.json"));
        std::fs::write(&path, out).unwrap();
        let merged: Value = serde_json::from_slice(&ok(&[
            "merge",
            &path.display().to_string(),
            "--format",
            "json",
        ]))
        .unwrap();
        let kind = match args[0] {
            "simulate" => SchemaKind::SimulateReport,
            "compare" => SchemaKind::CompareReport,
            "sweep" => SchemaKind::SweepReport,
            _ => SchemaKind::LadderReport,
        };
        let schema = schema(kind);
        assert_eq!(breaks(&schema, &schema, &merged, name), None);
    }
}

/// The parts of a run of soleils, 3 shards, written once.
fn three_parts(dir: &Path, seed: &str) -> Vec<PathBuf> {
    (1..=3)
        .map(|k| {
            let out = ok(&[
                "simulate",
                "soleils",
                "--games",
                "12",
                "--seed",
                seed,
                "--shard",
                &format!("{k}/3"),
            ]);
            let path = dir.join(format!("seed-{seed}-{k}.json"));
            std::fs::write(&path, out).unwrap();
            path
        })
        .collect()
}

#[test]
fn parts_that_do_not_belong_together_are_refused_with_exit_2() {
    let dir = common::temp_dir("shards-refused");
    let p = three_parts(&dir, "1");
    let other = three_parts(&dir, "2");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let malformed = write(
        "malformed.json",
        "{\"partial\": \"sunfold partial report\",",
    );
    let empty = write("empty.json", "");
    let report = write(
        "report.json",
        &String::from_utf8(ok(&[
            "simulate", "soleils", "--games", "3", "--format", "json",
        ]))
        .unwrap(),
    );
    let mut future: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p[0]).unwrap()).unwrap();
    future["format"] = 4.into();
    let future = write("future.json", &future.to_string());
    let mut broken: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&p[0]).unwrap()).unwrap();
    broken["run"]["games"] = "twelve".into();
    let broken = write("broken.json", &broken.to_string());
    let compare = write(
        "compare.json",
        &String::from_utf8(ok(&[
            "compare",
            "soleils",
            "--games",
            "12",
            "--shard",
            "2/3",
            "--b-option",
            "sun_bonus=exact",
        ]))
        .unwrap(),
    );
    // The whole of a comparison in one part, its B made A: compare refuses
    // the same rules before any game, and so does the merge of its parts.
    let mut same: serde_json::Value = serde_json::from_slice(&ok(&[
        "compare",
        "soleils",
        "--games",
        "2",
        "--shard",
        "1/1",
        "--b-option",
        "sun_bonus=exact",
    ]))
    .unwrap();
    same["run"]["variants"][1] = same["run"]["variants"][0].clone();
    let same = write("same.json", &same.to_string());
    let name = |path: &PathBuf| path.strip_prefix(&dir).unwrap().display().to_string();
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "another seed",
            vec![name(&p[0]), name(&other[1]), name(&p[2])],
        ),
        (
            "another kind",
            vec![name(&p[0]), name(&compare), name(&p[2])],
        ),
        ("a shard missing", vec![name(&p[0]), name(&p[2])]),
        (
            "a shard twice",
            vec![name(&p[0]), name(&p[1]), name(&p[1]), name(&p[2])],
        ),
        ("malformed JSON", vec![name(&p[0]), name(&malformed)]),
        ("a comparison of the same rules", vec![name(&same)]),
        ("an empty file", vec![name(&empty)]),
        ("a report, not a part", vec![name(&report)]),
        ("a later format", vec![name(&future)]),
        ("a field of the wrong type", vec![name(&broken)]),
        (
            "-o with simulate",
            vec![name(&p[0]), "-o".into(), "out.svg".into()],
        ),
    ];
    let mut messages = String::new();
    for (what, args) in cases {
        let mut all = vec!["merge".to_owned()];
        all.extend(args);
        let output = Command::new(env!("CARGO_BIN_EXE_sunfold"))
            .args(&all)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{what}");
        assert!(output.stdout.is_empty(), "{what}");
        messages.push_str(&format!(
            "{what}:\n{}\n",
            String::from_utf8(output.stderr).unwrap()
        ));
    }
    for (what, args) in [
        ("shard 0", vec!["simulate", "soleils", "--shard", "0/3"]),
        (
            "shard past N",
            vec![
                "ladder",
                "soleils",
                "--bots",
                "random,greedy",
                "--shard",
                "4/3",
            ],
        ),
        ("no N", vec!["compare", "soleils", "--shard", "2"]),
        (
            "-o with --shard",
            vec!["compare", "soleils", "--shard", "1/2", "-o", "x.svg"],
        ),
    ] {
        let (code, out, err) = sunfold_env(&args, &[]);
        assert_eq!(code, 2, "{what}");
        assert!(out.is_empty(), "{what}");
        messages.push_str(&format!("{what}:\n{err}\n"));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("shards__refusals", messages));
}

/// The ```sh block of docs/scale-out.md after the line naming this test.
fn parallel_recipe() -> String {
    let page = std::fs::read_to_string(common::repo().join("docs/scale-out.md")).unwrap();
    let start = page
        .find("<!-- tests/it/sim/shards.rs runs the next block -->")
        .expect("the recipe is marked");
    let block = &page[start..];
    let open = block.find("```sh\n").unwrap() + "```sh\n".len();
    let close = block[open..].find("```").unwrap();
    block[open..open + close]
        .lines()
        .map(|line| match line.find("  # not run") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_gnu_parallel_recipe_gives_the_bytes_of_one_machine() {
    let has_parallel = Command::new("bash")
        .args(["-c", "command -v parallel"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_parallel {
        common::skip("GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let dir = common::temp_dir("shards-parallel");
    let path = common::path_with_sunfold(&dir.join("bin"));
    let script = format!("set -euo pipefail\n{}\n", parallel_recipe());
    let output = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .env("PATH", path)
        .env("HOME", &dir)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the recipe fails:\n{script}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let merged = std::fs::read(dir.join("study.txt")).unwrap();
    let one = std::fs::read(dir.join("one-machine.txt")).unwrap();
    assert!(!merged.is_empty());
    assert!(
        merged == one,
        "the merged report differs from one machine's"
    );
    let parts = std::fs::read_to_string(dir.join("parts.jsonl")).unwrap();
    assert_eq!(parts.lines().count(), 4);
}

/// Every message of a refused merge or shard, pinned; the exhaustive match
/// makes a new variant a compile error here until it is pinned too.
#[test]
fn every_merge_error_message_is_pinned() {
    use sunfold::workbench::merge::MergeError;
    use sunfold::workbench::partial::ShardError;
    let s = |t: &str| t.to_owned();
    let errors = vec![
        MergeError::Json {
            part: s("a.json"),
            line: 1,
            column: 40,
            reason: s("expected a value, but found the end of the file"),
        },
        MergeError::Empty { part: s("a.json") },
        MergeError::Field {
            part: s("a.json"),
            path: s("run.games"),
            reason: s("invalid type: string \"twelve\", expected u64"),
        },
        MergeError::NotPartial {
            part: s("a.json"),
            mark: sunfold::workbench::partial::PARTIAL_MARK,
        },
        MergeError::Format {
            part: s("a.json"),
            expected: sunfold::workbench::partial::PARTIAL_FORMAT,
            found: s("4"),
        },
        MergeError::OtherRun {
            part: s("b.json"),
            first: s("a.json"),
            path: s("run.seed"),
            expected: s("1"),
            found: s("2"),
        },
        MergeError::Missing { index: 2, of: 3 },
        MergeError::Duplicate {
            index: 2,
            of: 3,
            first: s("a.json"),
            second: s("b.json"),
        },
        MergeError::Range {
            part: s("a.json"),
            index: 2,
            of: 3,
            from: 4,
            to: 8,
            found_from: 0,
            found_to: 4,
        },
        MergeError::Tally {
            part: s("a.json"),
            games: 4,
        },
        MergeError::Game {
            part: s("a.json"),
            found: s("chess"),
        },
        MergeError::SameRules {
            part: s("a.json"),
            same: sunfold::bots::SameRules {
                a: s("bundled"),
                b: s("bundled"),
            },
        },
    ];
    let mut text = String::new();
    for e in &errors {
        match e {
            MergeError::Json { .. }
            | MergeError::Empty { .. }
            | MergeError::Field { .. }
            | MergeError::NotPartial { .. }
            | MergeError::Format { .. }
            | MergeError::OtherRun { .. }
            | MergeError::Missing { .. }
            | MergeError::Duplicate { .. }
            | MergeError::Range { .. }
            | MergeError::Tally { .. }
            | MergeError::Game { .. }
            | MergeError::SameRules { .. } => {}
        }
        text.push_str(&format!("{e}\n"));
    }
    let shard = ShardError::Malformed { found: s("0/3") };
    match &shard {
        ShardError::Malformed { .. } => {}
    }
    text.push_str(&format!("{shard}\n"));
    for line in text.lines() {
        let message = line.split_once(": ").map_or(line, |(_, m)| m);
        assert!(
            message.starts_with("expected")
                || message.starts_with("line ")
                || message.starts_with("at "),
            "{line}"
        );
    }
    common::snapshots().bind(|| insta::assert_snapshot!("shards__merge_errors", text));
}
