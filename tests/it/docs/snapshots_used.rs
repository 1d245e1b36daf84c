//! Every snapshot in `snapshots/` is still used: a `.snap` file that no
//! test can produce any more fails `cargo test`, as `cargo insta test
//! --unreferenced=reject` does.
//!
//! How it knows, without running the other tests: it reads their source.
//! Every insta assertion (`assert_snapshot!`, `assert_json_snapshot!`, …)
//! in `tests/` must name its snapshot either with a string literal, which
//! is the name, or with one of the `format!` strings of [`FAMILIES`]: a
//! family of snapshots named after the files of one folder (one per bad
//! log in `tests/bad/`, one per golden replay), whose names this check
//! lists from that folder as the test does. An assertion named any other
//! way fails this check until it is added to [`FAMILIES`]; a family whose
//! `format!` string or folder listing is no longer in its test file fails
//! too, so the list cannot drift from the tests. The names so read must be
//! exactly the `.snap` files of `snapshots/`: one more is stale, one fewer
//! is a snapshot not yet accepted (or a misread name).
//!
//! Because it reads the source and runs nothing else, it needs no other
//! test to have run: it runs in `cargo test` (every test file) and in
//! `cargo test --test it docs::snapshots_used`, and a run of one other file
//! (`cargo test --test it log::replays`) neither runs it nor is failed by it.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

/// The snapshot families: the test file, the `format!` string that names
/// each snapshot after a file's stem (`{name}`), and the folder and
/// extension the test lists with `common::files`.
const FAMILIES: &[(&str, &str, &str, &str)] = &[
    ("it/log/bad_replays.rs", "bad__{name}", "tests/bad", "jsonl"),
    ("it/log/replays.rs", "replay__{name}", "replays", "jsonl"),
    (
        "it/log/replays.rs",
        "older_format__{name}",
        "tests/older-formats",
        "jsonl",
    ),
    (
        "it/rules/templates.rs",
        "template__{name}",
        "tests/templates",
        "json",
    ),
    (
        "it/rules/templates.rs",
        "template__tolerant_{name}",
        "tests/templates/tolerant",
        "json",
    ),
];

/// The insta macros that write a snapshot file.
const MACROS: &[&str] = &[
    "assert_snapshot!(",
    "assert_json_snapshot!(",
    "assert_compact_json_snapshot!(",
    "assert_debug_snapshot!(",
    "assert_compact_debug_snapshot!(",
    "assert_yaml_snapshot!(",
    "assert_ron_snapshot!(",
    "assert_toml_snapshot!(",
    "assert_csv_snapshot!(",
    "assert_binary_snapshot!(",
];

/// How an assertion names its snapshot.
#[derive(Debug, PartialEq)]
enum Named {
    /// `assert_snapshot!("render__default_sheet_svg", svg)`
    Literal(String),
    /// `assert_snapshot!(format!("bad__{name}"), stderr)`
    Format(String),
    /// Anything else, as written (an unnamed snapshot, a variable).
    Other(String),
}

/// How each insta assertion in the Rust source `text` names its snapshot.
fn assertions(text: &str) -> Vec<Named> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for &name in MACROS {
            // Each assertion of this macro on the line, and what follows it
            // up to the end of the source, for a name on the next line.
            let mut rest = code;
            while let Some(i) = rest.find(name) {
                let start = offset(text, rest) + i + name.len();
                found.push(first_argument(&text[start..]));
                rest = &rest[i + name.len()..];
            }
        }
    }
    found
}

/// Where `part`, a slice of `text`, starts in it.
fn offset(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// How the first argument of a macro call, at the start of `after`, names
/// a snapshot.
fn first_argument(after: &str) -> Named {
    let after = after.trim_start();
    if let Some(literal) = after.strip_prefix('"') {
        return Named::Literal(literal.split('"').next().unwrap_or_default().to_owned());
    }
    if let Some(format) = after.strip_prefix("format!(\"") {
        let string = format.split('"').next().unwrap_or_default();
        // The name is the format string alone: `format!("a{b}")`, not
        // `format!("a{}", b)`.
        if format[string.len()..].starts_with("\")") {
            return Named::Format(string.to_owned());
        }
    }
    Named::Other(after.lines().next().unwrap_or_default().to_owned())
}

/// Every snapshot name the tests can produce, or what keeps this check
/// from knowing them.
fn names_in_tests() -> Result<BTreeSet<String>, Vec<String>> {
    let tests = common::repo().join("tests");
    let mut names = BTreeSet::new();
    let mut problems = Vec::new();
    for file in common::rust_files(&tests) {
        let file_name = file
            .strip_prefix(&tests)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        // This file names the macros, and no snapshot.
        if file_name == "it/docs/snapshots_used.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for named in assertions(&text) {
            match named {
                Named::Literal(name) => {
                    names.insert(name);
                }
                Named::Format(format) => {
                    match FAMILIES
                        .iter()
                        .find(|(f, n, ..)| *f == file_name && *n == format)
                    {
                        Some((_, _, dir, extension)) => {
                            for path in common::files(&common::repo().join(dir), extension) {
                                let stem = path.file_stem().unwrap().to_string_lossy();
                                names.insert(format.replace("{name}", &stem));
                            }
                        }
                        None => problems.push(format!(
                            "tests/{file_name}: a snapshot named format!(\"{format}\"), which FAMILIES does not list: add it there, with the folder its names come from"
                        )),
                    }
                }
                Named::Other(what) => problems.push(format!(
                    "tests/{file_name}: a snapshot named by `{what}`: name it with a string literal, or with a format! string listed in FAMILIES"
                )),
            }
        }
    }
    // Each family is still named, and still listed, as its test does.
    for (file, format, dir, extension) in FAMILIES {
        let text = std::fs::read_to_string(tests.join(file)).unwrap_or_default();
        if !assertions(&text).contains(&Named::Format(format.to_string())) {
            problems.push(format!(
                "tests/{file} no longer names a snapshot format!(\"{format}\"): take it off FAMILIES"
            ));
        }
        let listing = format!("common::files(&common::repo().join(\"{dir}\"), \"{extension}\")");
        if !text.contains(&listing) {
            problems.push(format!(
                "tests/{file} no longer lists {listing}: FAMILIES must list its names as the test does"
            ));
        }
    }
    if problems.is_empty() {
        Ok(names)
    } else {
        Err(problems)
    }
}

/// The names of the `.snap` files in `dir`.
fn snapshot_files(dir: &Path) -> BTreeSet<String> {
    common::files(dir, "snap")
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// What is wrong between the names the tests produce and the files.
fn mismatches(used: &BTreeSet<String>, files: &BTreeSet<String>) -> Vec<String> {
    let stale = files
        .difference(used)
        .map(|n| format!("snapshots/{n}.snap: no test produces it any more: delete it"));
    let missing = used
        .difference(files)
        .map(|n| format!("snapshots/{n}.snap: a test names it, but there is no such file: run the test and review its .snap.new"));
    stale.chain(missing).collect()
}

#[test]
fn every_snapshot_file_is_produced_by_a_test() {
    let used = names_in_tests().unwrap_or_else(|problems| panic!("{}", problems.join("\n")));
    let files = snapshot_files(&common::repo().join("snapshots"));
    let wrong = mismatches(&used, &files);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_stray_snapshot_is_caught() {
    // A copy of snapshots/ with one file more, and one fewer.
    let dir = common::temp_dir("snapshots-used");
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_tree(&common::repo().join("snapshots"), &dir);
    std::fs::write(dir.join("replay__a-replay-since-removed.snap"), "stale").unwrap();
    std::fs::remove_file(dir.join("render__default_sheet_svg.snap")).unwrap();
    let used = names_in_tests().unwrap_or_else(|problems| panic!("{}", problems.join("\n")));
    let wrong = mismatches(&used, &snapshot_files(&dir));
    assert_eq!(
        wrong,
        [
            "snapshots/replay__a-replay-since-removed.snap: no test produces it any more: delete it",
            "snapshots/render__default_sheet_svg.snap: a test names it, but there is no such file: run the test and review its .snap.new",
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_reader_sees_how_each_assertion_names_its_snapshot() {
    let text = r#"
        common::snapshots().bind(|| insta::assert_snapshot!("a__literal", text));
        insta::assert_json_snapshot!(
            "a__json",
            value
        );
        // insta::assert_snapshot!("a__commented_out", text);
        insta::assert_snapshot!(format!("bad__{name}"), stderr);
        insta::assert_snapshot!(format!("bad__{}", name), stderr);
        insta::assert_snapshot!(stderr);
        insta::assert_debug_snapshot!(name.as_str(), value);
    "#;
    assert_eq!(
        assertions(text),
        [
            Named::Literal("a__literal".into()),
            Named::Literal("a__json".into()),
            Named::Format("bad__{name}".into()),
            Named::Other("format!(\"bad__{}\", name), stderr);".into()),
            Named::Other("stderr);".into()),
            Named::Other("name.as_str(), value);".into()),
        ]
    );
}
