//! The dependency rule of docs/architecture.md, checked by reading the
//! source: every `crate::PART` a file names (in a `use` line or inline),
//! against the parts that file may never depend on. Also: no hidden state in the library, and no file
//! in `src/` over 800 lines.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The top-level part a file of `src/` belongs to: its first folder, or its
/// file stem for a file at the top (`game.rs` is `game`).
fn part_of(path: &Path) -> String {
    let relative = path.strip_prefix(common::repo().join("src")).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    let first = first.to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source of a file without its comments, so that a doc comment that
/// names `crate::cli` is no dependency.
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every part `text` names as `crate::PART`.
fn named_parts(text: &str) -> BTreeSet<String> {
    let mut parts = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            parts.insert(name);
        }
    }
    parts
}

/// What each part must never name, and why (docs/architecture.md).
const FORBIDDEN: &[(&str, &[&str], &str)] = &[
    (
        "soleils",
        &[
            "cli",
            "log",
            "render",
            "print",
            "report",
            "schema",
            "serve",
            "show",
            "table",
            "present",
            "sim",
            "rng",
            "summertime",
        ],
        "the rules know nothing of files, drawing, HTTP or the other game",
    ),
    (
        "summertime",
        &[
            "cli", "log", "render", "print", "report", "schema", "serve", "show", "table",
            "present", "sim", "rng", "soleils",
        ],
        "the rules know nothing of files, drawing, HTTP or the other game",
    ),
    (
        "log",
        &[
            "cli", "render", "print", "report", "schema", "serve", "show", "table", "present",
            "sim",
        ],
        "the log reads and writes lines; it shows nothing",
    ),
    (
        "sim",
        &[
            "cli", "render", "print", "report", "schema", "serve", "show", "table", "present",
        ],
        "bots and tallies work on the rules alone",
    ),
    (
        "present",
        &[
            "cli", "serve", "show", "table", "render", "print", "report", "schema",
        ],
        "a game in words knows no terminal, HTTP or drawing",
    ),
    (
        "report",
        &[
            "cli", "serve", "show", "table", "present", "print", "log", "schema",
        ],
        "the workbench's reports take the bots' results and draw with the engine",
    ),
    (
        "table",
        &[
            "cli", "serve", "show", "render", "print", "report", "schema",
        ],
        "the table service is beneath both front ends",
    ),
    (
        "render",
        &[
            "cli",
            "serve",
            "show",
            "table",
            "present",
            "print",
            "report",
            "schema",
            "sim",
            "log",
            "game",
            "soleils",
            "summertime",
        ],
        "the engine takes a scene and a target, nothing else",
    ),
    (
        "print",
        &[
            "cli", "serve", "show", "table", "present", "report", "schema", "sim", "log",
        ],
        "the game pictures take a game's state and draw with the engine",
    ),
    (
        "show",
        &["cli", "serve", "table", "report", "schema"],
        "a game shown in words and on paper is beneath the front ends",
    ),
    (
        "schema",
        &["cli", "serve", "show", "table"],
        "the schemas describe the formats and reports, beneath the front ends",
    ),
    (
        "serve",
        &["cli"],
        "argv, exit codes and terminals belong to the CLI alone",
    ),
];

/// Breaks of the rule not yet mended, each a file and the part it names.
/// Each must still be real (a mended one is taken off the list), and the
/// list only shrinks. It is empty: a new entry needs a reason beside it.
const KNOWN: &[(&str, &str)] = &[];

fn known(file: &Path, name: &str) -> bool {
    KNOWN.iter().any(|(f, n)| *n == name && file.ends_with(f))
}

#[test]
fn the_known_breaks_are_still_real() {
    for (file, name) in KNOWN {
        let text = code(&std::fs::read_to_string(common::repo().join(file)).unwrap());
        assert!(
            named_parts(&text).contains(*name),
            "{file} no longer names crate::{name}: take it off KNOWN"
        );
    }
}

#[test]
fn dependencies_point_one_way() {
    let mut files = Vec::new();
    rust_files(&common::repo().join("src"), &mut files);
    files.sort();
    let mut broken = Vec::new();
    for file in &files {
        let part = part_of(file);
        let text = code(&std::fs::read_to_string(file).unwrap());
        let named = named_parts(&text);
        // Nothing but main.rs and cli/ itself names the CLI.
        if part != "cli" && part != "main" && part != "lib" && named.contains("cli") {
            broken.push(format!("{}: names crate::cli", file.display()));
        }
        for (owner, never, why) in FORBIDDEN {
            if part != *owner {
                continue;
            }
            for name in named.intersection(&never.iter().map(|s| s.to_string()).collect()) {
                if known(file, name) {
                    continue;
                }
                broken.push(format!(
                    "{}: {owner} names crate::{name}, but {why}",
                    file.display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_rules_cores_do_no_io_and_parse_no_arguments() {
    let mut files = Vec::new();
    for game in ["soleils", "summertime"] {
        rust_files(&common::repo().join("src").join(game), &mut files);
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for banned in [
            "std::fs",
            "serde_json",
            "clap",
            "std::time",
            "chrono::Local",
            "rand_core",
            "rand_chacha",
            "getrandom",
        ] {
            if text.contains(banned) {
                broken.push(format!("{}: names {banned}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Hidden state and long files not yet mended; each must stay real, and
/// the lists only shrink. Both are empty: the fonts are passed in, and the
/// sheet layout and the template checks are split. A new entry needs a
/// reason beside it.
const KNOWN_STATE: &[(&str, &str)] = &[];
const KNOWN_LONG: &[&str] = &[];

#[test]
fn the_known_hidden_state_and_long_files_are_still_real() {
    for (file, what) in KNOWN_STATE {
        let text = code(&std::fs::read_to_string(common::repo().join(file)).unwrap());
        assert!(
            text.contains(what),
            "{file} no longer has {what}: take it off KNOWN_STATE"
        );
    }
    for file in KNOWN_LONG {
        let lines = std::fs::read_to_string(common::repo().join(file))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines > 800,
            "{file} is {lines} lines now: take it off KNOWN_LONG"
        );
    }
}

#[test]
fn the_library_keeps_no_hidden_state() {
    let mut files = Vec::new();
    rust_files(&common::repo().join("src"), &mut files);
    let mut broken = Vec::new();
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for banned in ["thread_local!", "Box::leak", "static mut"] {
            let known = KNOWN_STATE
                .iter()
                .any(|(f, b)| b == &banned && file.ends_with(f));
            if text.contains(banned) && !known {
                broken.push(format!("{}: {banned}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn no_file_in_src_is_over_800_lines() {
    let mut files = Vec::new();
    rust_files(&common::repo().join("src"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            let known = KNOWN_LONG.iter().any(|f| file.ends_with(f));
            (lines > 800 && !known).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_checks_see_what_they_look_for() {
    // The reader finds a part named inline, and not one in a comment.
    let text = code("use crate::log::Fold; // crate::cli\nlet x = crate::render::svg::to_svg(s);");
    assert_eq!(
        named_parts(&text),
        ["log", "render"].map(String::from).into_iter().collect()
    );
    assert_eq!(
        part_of(&common::repo().join("src/soleils/apply.rs")),
        "soleils"
    );
    assert_eq!(part_of(&common::repo().join("src/game.rs")), "game");
}
