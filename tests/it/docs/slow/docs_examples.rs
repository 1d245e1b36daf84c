//! Every shell example of README.md and docs/*.md runs, as a newcomer would
//! type it after `cargo install --path .`.
//!
//! The convention, for whoever writes the docs:
//!
//! - A fenced block marked ```` ```sh ```` (or `bash`, `shell`) holds
//!   commands, one a line; a line ending in `\` continues on the next one,
//!   and `#` lines are comments.
//! - A fenced block marked ```` ```console ```` shows commands with their
//!   output: a line starting with `$ ` is a command; the lines after it, up
//!   to the next command, are what it prints. Every line shown must appear,
//!   in that order and next to each other, in what the command prints
//!   (standard output, then standard error; trailing spaces ignored). A line
//!   holding only `…` stands for any number of lines, and a line ending in
//!   `…` for any line that starts with the text before it: show in full only
//!   the lines that should not change (`appended event N (rolled)`, a dice
//!   line, the verdict of a replay) and elide the rest.
//! - A command must exit 0, unless it ends with a comment `# exits N`
//!   (`N` a number, then optionally `:` and why), when it must exit with N.
//! - A command ending with a comment `# not run: WHY` is skipped, and so are
//!   `cargo install`, `cargo build`, `cargo test`, `cargo fast`, `cargo bench` and
//!   `cargo run --example` (cargo builds, which CI does itself), and commands
//!   piped into `jq` where it is not installed (except under `CI=true`,
//!   where a missing `jq` fails: `.ci/run` installs it). Every skip is counted and
//!   printed with its reason (`cargo test --test it docs::slow::docs_examples --
//!   --nocapture` shows them).
//! - `cargo run --release --` and `cargo run --` before a command stand for
//!   `sunfold`.
//! - Any other fenced block (```` ```text ````, ```` ```json ````, a plain
//!   ```` ``` ````) is not run, and must not hold a line starting with
//!   `sunfold `, `$ ` or `cargo run`: a command there would escape this test.
//!
//! The commands of a page run in order, each in `bash -o pipefail`, in a
//! fresh folder of their own per page that holds copies of the checkout's
//! `sheet-templates/`, `replays/`, `tests/` and `docs/`, with `sunfold` (the
//! binary under test) first on the PATH. So relative paths work as they do in
//! a checkout, and a page may build on what its earlier commands wrote.
//!
//! docs/testing-a-rule-change.md has its own test
//! (tests/it/docs/slow/docs_testing_a_rule_change.rs), which follows the same convention
//! for its `sh` blocks and also runs its `cargo test`; it is left out here.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

/// The page that tests/it/docs/slow/docs_testing_a_rule_change.rs runs.
const RUN_ELSEWHERE: &str = "docs/testing-a-rule-change.md";

/// What a command's output must contain, and how it must exit.
#[derive(Debug, PartialEq)]
struct Example {
    /// 1-based line of the page where the command is written.
    line: usize,
    command: String,
    exit: i32,
    /// Groups of lines that must appear next to each other, in order.
    output: Vec<Vec<String>>,
    /// Why it is not run, if it is not.
    skip: Option<String>,
}

/// Lines of a page, each with its 1-based number.
type Lines = Vec<(usize, String)>;

#[derive(Debug, Default)]
struct Page {
    examples: Vec<Example>,
    /// Blocks that the test runs.
    blocks: usize,
    /// Commands written in blocks that are never run.
    escaped: Lines,
}

fn parse(page: &str) -> Page {
    let mut parsed = Page::default();
    // The open block's language and lines.
    let mut block: Option<(String, Lines)> = None;
    for (i, line) in page.lines().enumerate() {
        let number = i + 1;
        match &mut block {
            None => {
                if let Some(lang) = line.strip_prefix("```") {
                    block = Some((lang.trim().to_owned(), Vec::new()));
                }
            }
            Some((lang, lines)) => {
                if line.trim_end() == "```" {
                    let lang = std::mem::take(lang);
                    let lines = std::mem::take(lines);
                    block = None;
                    match lang.as_str() {
                        "sh" | "bash" | "shell" => {
                            parsed.blocks += 1;
                            parsed.examples.extend(shell_block(&lines));
                        }
                        "console" => {
                            parsed.blocks += 1;
                            parsed.examples.extend(console_block(&lines));
                        }
                        _ => parsed.escaped.extend(lines.into_iter().filter(|(_, l)| {
                            let l = l.trim_start();
                            ["sunfold ", "$ ", "cargo run"]
                                .iter()
                                .any(|p| l.starts_with(p))
                        })),
                    }
                } else {
                    lines.push((number, line.to_owned()));
                }
            }
        }
    }
    assert!(block.is_none(), "a fenced block is never closed");
    parsed
}

fn shell_block(lines: &[(usize, String)]) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in lines {
        let (start, text) = match pending.take() {
            Some((start, before)) => (start, format!("{before}\n{line}")),
            None => {
                let trimmed = line.trim();
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    continue;
                }
                (*number, line.clone())
            }
        };
        if text.ends_with('\\') {
            pending = Some((start, text));
        } else {
            examples.push(example(start, &text));
        }
    }
    assert!(
        pending.is_none(),
        "line {}: a `\\` continues nothing",
        lines[0].0
    );
    examples
}

fn console_block(lines: &[(usize, String)]) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    for (number, line) in lines {
        if let Some(command) = line.strip_prefix("$ ") {
            examples.push(example(*number, command));
            examples.last_mut().unwrap().output.push(Vec::new());
            continue;
        }
        let Some(last) = examples.last_mut() else {
            panic!("line {number}: console output before any `$ ` command");
        };
        let line = line.trim_end();
        if line == "…" || line == "..." {
            last.output.push(Vec::new());
        } else {
            last.output.last_mut().unwrap().push(line.to_owned());
        }
    }
    for example in &mut examples {
        example.output.retain(|group| !group.is_empty());
    }
    examples
}

/// One command with its markers read and its `cargo run` prefix replaced.
fn example(line: usize, text: &str) -> Example {
    let mut command = text.trim().to_owned();
    let mut exit = 0;
    let mut skip = None;
    if let Some((before, marker)) = command.rsplit_once("# exits ") {
        let code = marker.split(':').next().unwrap().trim();
        exit = code
            .parse()
            .unwrap_or_else(|_| panic!("line {line}: `# exits {code}` is not an exit code"));
        command = before.trim_end().to_owned();
    } else if let Some((before, why)) = command.rsplit_once("# not run: ") {
        skip = Some(why.trim().to_owned());
        command = before.trim_end().to_owned();
    }
    for prefix in ["cargo run --release -- ", "cargo run -- "] {
        if let Some(rest) = command.strip_prefix(prefix) {
            command = format!("sunfold {rest}");
        }
    }
    let cargo_build = [
        "cargo install",
        "cargo test",
        "cargo fast",
        "cargo bench",
        "cargo build",
    ]
    .iter()
    .any(|p| command.starts_with(p))
        || (command.starts_with("cargo run") && command.contains("--example"));
    if skip.is_none() && cargo_build {
        skip = Some("a cargo build, which CI runs itself".to_owned());
    }
    Example {
        line,
        command,
        exit,
        output: Vec::new(),
        skip,
    }
}

/// Where `group` starts in `lines` at or after `from`, next to each other.
fn find(lines: &[&str], group: &[String], from: usize) -> Option<usize> {
    let last = lines.len().checked_sub(group.len())?;
    (from..=last).find(|&start| {
        group
            .iter()
            .zip(&lines[start..])
            .all(|(want, got)| matches(want, got))
    })
}

/// Whether a shown line stands for a printed line: the same text, or its
/// start if the shown line ends in `…`.
fn matches(want: &str, got: &str) -> bool {
    match want.strip_suffix('…') {
        Some(start) => got.starts_with(start),
        None => want == got.trim_end(),
    }
}

/// Runs one page's examples in a fresh folder; returns what went wrong.
fn run_page(name: &str, examples: &[Example], skipped: &mut Vec<String>) -> Vec<String> {
    let repo = common::repo();
    let slug = name.replace(['/', '.'], "-");
    let work: PathBuf =
        std::env::temp_dir().join(format!("sunfold-docs-{}-{slug}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    for dir in ["sheet-templates", "replays", "tests", "docs"] {
        common::copy_tree(&repo.join(dir), &work.join(dir));
    }
    let path = common::path_with_sunfold(&work.join(".bin"));

    let jq = Command::new("bash")
        .args(["-c", "command -v jq"])
        .output()
        .is_ok_and(|o| o.status.success());
    let mut failures = Vec::new();
    for example in examples {
        let at = format!("{name}:{}: `{}`", example.line, example.command);
        if let Some(why) = &example.skip {
            skipped.push(format!("{at}: {why}"));
            continue;
        }
        if !jq && example.command.contains("| jq ") {
            common::skip(&format!("{at}: jq is not installed (apt-get install jq)"));
            skipped.push(format!("{at}: jq is not installed"));
            continue;
        }
        let output = Command::new("bash")
            .args(["-o", "pipefail", "-c", &example.command])
            .current_dir(&work)
            .env("PATH", &path)
            .output()
            .unwrap();
        let code = output.status.code().unwrap_or(-1);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let shown = format!("stdout:\n{stdout}\nstderr:\n{stderr}");
        if code != example.exit {
            failures.push(format!("{at} exited {code}, not {}\n{shown}", example.exit));
            continue;
        }
        let lines: Vec<&str> = stdout.lines().chain(stderr.lines()).collect();
        let mut from = 0;
        for group in &example.output {
            match find(&lines, group, from) {
                Some(start) => from = start + group.len(),
                None => {
                    failures.push(format!(
                        "{at} did not print, in this order and together:\n  {}\n{shown}",
                        group.join("\n  ")
                    ));
                    break;
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    failures
}

/// README.md, then docs/*.md in name order, without the page run elsewhere.
fn pages() -> Vec<String> {
    let repo = common::repo();
    let mut pages = vec!["README.md".to_owned()];
    for file in common::files(&repo.join("docs"), "md") {
        let name = format!("docs/{}", file.file_name().unwrap().to_string_lossy());
        if name != RUN_ELSEWHERE {
            pages.push(name);
        }
    }
    pages
}

#[test]
fn every_shell_example_of_the_docs_runs() {
    let repo = common::repo();
    let (mut blocks, mut written, mut skipped, mut failures) = (0, 0, Vec::new(), Vec::new());
    for name in pages() {
        let page = parse(&std::fs::read_to_string(repo.join(&name)).unwrap());
        for (line, command) in &page.escaped {
            failures.push(format!(
                "{name}:{line}: `{}` is in a block that is not run: mark the block ```sh or \
                 ```console",
                command.trim()
            ));
        }
        blocks += page.blocks;
        written += page.examples.len();
        failures.extend(run_page(&name, &page.examples, &mut skipped));
    }
    let run = written - skipped.len();
    println!(
        "{blocks} blocks: {run} commands run, {} skipped",
        skipped.len()
    );
    for skip in &skipped {
        println!("  skipped {skip}");
    }
    assert!(
        failures.is_empty(),
        "{} doc examples failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The convention still finds the examples: a renamed fence must not make
    // this test pass by running nothing.
    assert!(
        blocks >= 8 && run >= 25,
        "only {blocks} blocks, {run} commands"
    );
}

#[test]
fn the_convention_reads_commands_exits_outputs_and_skips() {
    let page = parse(
        "text\n\
         ```sh\n\
         # a comment\n\
         cargo run --release -- replay a.jsonl\n\
         sunfold replay bad.jsonl  # exits 1: it is bad\n\
         sunfold simulate soleils \\\n  --games 10\n\
         sunfold simulate soleils --games 1000000  # not run: too long\n\
         cargo install --path .\n\
         ```\n\
         ```console\n\
         $ sunfold roll m.jsonl --dice 1,2,3\n\
         m.jsonl: appended event 1 (rolled)\n\
         …\n\
         the end\n\
         $ sunfold place m.jsonl Ann K9 1  # exits 1\n\
         ```\n\
         ```text\n\
         sunfold replay escaped.jsonl\n\
         ```\n",
    );
    let got: Vec<(usize, &str, i32, usize, bool)> = page
        .examples
        .iter()
        .map(|e| {
            (
                e.line,
                e.command.as_str(),
                e.exit,
                e.output.len(),
                e.skip.is_some(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (4, "sunfold replay a.jsonl", 0, 0, false),
            (5, "sunfold replay bad.jsonl", 1, 0, false),
            (6, "sunfold simulate soleils \\\n  --games 10", 0, 0, false),
            (8, "sunfold simulate soleils --games 1000000", 0, 0, true),
            (9, "cargo install --path .", 0, 0, true),
            (12, "sunfold roll m.jsonl --dice 1,2,3", 0, 2, false),
            (16, "sunfold place m.jsonl Ann K9 1", 1, 0, false),
        ]
    );
    assert_eq!(page.blocks, 2);
    assert_eq!(
        page.escaped,
        [(19, "sunfold replay escaped.jsonl".to_owned())]
    );
    let output = &page.examples[5].output;
    assert_eq!(output[0], ["m.jsonl: appended event 1 (rolled)"]);
    assert_eq!(output[1], ["the end"]);
    assert!(matches("event 3 (placed): …", "event 3 (placed): box K9"));
    assert!(!matches("event 3 (placed): …", "event 3 (rolled): 1-2-3"));
    let lines = ["x", "m.jsonl: appended event 1 (rolled)", "y", "the end  "];
    assert_eq!(find(&lines, &output[0], 0), Some(1));
    assert_eq!(find(&lines, &output[1], 2), Some(3));
    assert_eq!(find(&lines, &output[0], 2), None);
    assert_eq!(find(&lines[..1], &["x".into(), "y".into()], 0), None);
}
