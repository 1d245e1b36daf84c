//! docs/testing-a-rule-change.md cannot drift: every command in its `sh`
//! and `console` blocks is run here, in order, in a copy of the
//! repository, with `sunfold` on the PATH. A command ending in `# exits N`
//! must exit with N; one ending in `# not run: WHY` is skipped; every other
//! command must succeed. A `console` block shows, after each `$ ` command,
//! lines of what it prints, which must appear as tests/it/docs/slow/docs_examples.rs
//! says: next to each other and in order, a line of `…` alone standing for
//! any lines, and a line ending in `…` for any line that starts with the
//! text before it. So every figure the page quotes beside a command is
//! what that command prints today.
//!
//! The page's table of bots is checked the same way by its own test: each
//! cell is run as the command the page writes beside the table, and must
//! read as that command's mean score per seat.
//!
//! The page's `cargo test --test it log::replays` runs in the copy as this
//! very test binary, which is what cargo would build there: the copy's
//! sources are this checkout's, and the page changes only data (a replay,
//! snapshots). So no second build is needed. The binary runs with
//! `common::repo()` pointed at the copy, without `CI` set, as on a
//! designer's machine, and its filter must select the golden replays'
//! tests and nothing else.

use crate::common;

use std::process::Command;

/// A command of the page: its line, the command, how it must exit, and
/// the groups of lines it must print (a `console` block's).
#[derive(Debug, PartialEq)]
struct Example {
    line: usize,
    command: String,
    exit: i32,
    output: Vec<Vec<String>>,
}

/// `text` without its comment `# exits N`, and N (0 without one).
fn exit_of(text: &str) -> (String, i32) {
    match text.split_once("  # exits ") {
        Some((command, rest)) => {
            let code = rest.split(':').next().unwrap().trim().parse().unwrap();
            (command.to_owned(), code)
        }
        None => (text.to_owned(), 0),
    }
}

/// Every command of the page's `sh` and `console` blocks, in order.
fn commands(page: &str) -> Vec<Example> {
    let mut commands: Vec<Example> = Vec::new();
    let mut block: Option<&str> = None;
    for (i, line) in page.lines().enumerate() {
        if line.starts_with("```") {
            block = match (block, line) {
                (None, "```sh") => Some("sh"),
                (None, "```console") => Some("console"),
                (None, _) => Some("other"),
                (Some(_), _) => None,
            };
            continue;
        }
        // `# not run: WHY` marks a command too long to run here, as in
        // tests/it/docs/slow/docs_examples.rs.
        if line.trim().is_empty() || line.contains("  # not run: ") {
            continue;
        }
        match block {
            Some("sh") => {
                let (command, exit) = exit_of(line);
                commands.push(Example {
                    line: i + 1,
                    command,
                    exit,
                    output: Vec::new(),
                });
            }
            Some("console") => match line.strip_prefix("$ ") {
                Some(command) => {
                    let (command, exit) = exit_of(command);
                    commands.push(Example {
                        line: i + 1,
                        command,
                        exit,
                        output: vec![Vec::new()],
                    });
                }
                None => {
                    let output = &mut commands.last_mut().expect("a command first").output;
                    if line == "…" {
                        output.push(Vec::new());
                    } else {
                        output.last_mut().unwrap().push(line.trim_end().to_owned());
                    }
                }
            },
            _ => {}
        }
    }
    for example in &mut commands {
        example.output.retain(|group| !group.is_empty());
    }
    commands
}

/// The page's `cargo test ARGS` as this test binary: ARGS must name this
/// binary (`--test it`) and a filter that selects the golden replays'
/// tests, all of them and nothing else, as cargo would run them.
fn this_binary(args: &str) -> Command {
    let words: Vec<&str> = args.split_whitespace().collect();
    let (["--test", "it"], filters) = words.split_at(2.min(words.len())) else {
        panic!("`cargo test {args}`: expected `--test it` first, the one test binary");
    };
    let exe = std::env::current_exe().unwrap();
    let listed = |filters: &[&str]| {
        let output = Command::new(&exe)
            .args(filters)
            .args(["--list", "--format", "terse"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let chosen = listed(filters);
    let every = listed(&[]);
    let goldens: Vec<&str> = every
        .lines()
        .filter(|line| line.starts_with("log::replays::"))
        .collect();
    assert!(
        !goldens.is_empty() && chosen.lines().eq(goldens.iter().copied()),
        "`cargo test {args}` runs:\n{chosen}\nnot the golden replays' tests:\n{}",
        goldens.join("\n")
    );
    let mut run = Command::new(exe);
    run.args(filters);
    run
}

/// Whether the line `got` is the line `want`, where a `want` ending in `…`
/// stands for any line that starts with the text before it.
fn matches(want: &str, got: &str) -> bool {
    match want.strip_suffix('…') {
        Some(start) => got.starts_with(start),
        None => want == got,
    }
}

/// The first group of lines that `want` does not find in `got`, each
/// group next to each other, the groups in order.
fn missing(want: &[Vec<String>], got: &str) -> Option<String> {
    let lines: Vec<&str> = got.lines().map(str::trim_end).collect();
    let mut from = 0;
    for group in want {
        let found = (from..=lines.len().saturating_sub(group.len())).find(|&i| {
            group.len() <= lines.len() - i
                && group.iter().zip(&lines[i..]).all(|(w, g)| matches(w, g))
        });
        match found {
            Some(i) => from = i + group.len(),
            None => return Some(group.join("\n")),
        }
    }
    None
}

#[test]
fn every_command_of_testing_a_rule_change_runs() {
    let repo = common::repo();
    let page = std::fs::read_to_string(repo.join("docs/testing-a-rule-change.md")).unwrap();
    let commands = commands(&page);
    assert!(commands.len() > 15, "the page's commands are found");

    let work = std::env::temp_dir().join(format!("sunfold-rule-change-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // Everything but the build output and the history: whatever Cargo.toml
    // names (benches, examples) must be there for cargo to start.
    for entry in std::fs::read_dir(&repo).unwrap() {
        let name = entry.unwrap().file_name();
        if name != "target" && name != ".git" {
            common::copy_tree(&repo.join(&name), &work.join(&name));
        }
    }
    let path = common::path_with_sunfold(&work.join("bin"));

    for Example {
        line,
        command,
        exit: expected,
        output: shown,
    } in &commands
    {
        let mut run = match command.strip_prefix("cargo test ") {
            Some(args) => this_binary(args),
            None => {
                let mut run = Command::new("bash");
                run.args(["-o", "pipefail", "-c", command]);
                run
            }
        };
        run.current_dir(&work)
            .env("PATH", &path)
            .env(common::REPO_VARIABLE, &work)
            .env_remove("CI")
            .env_remove("INSTA_UPDATE")
            .env_remove("INSTA_FORCE_PASS");
        let output = run.output().unwrap();
        let code = output.status.code().unwrap_or(-1);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert_eq!(
            code, *expected,
            "line {line}: `{command}` exited {code}, not {expected}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
        if let Some(group) = missing(shown, &format!("{stdout}{stderr}")) {
            panic!(
                "line {line}: `{command}` no longer prints what the page shows:\n{group}\n\nit prints:\n{stdout}{stderr}"
            );
        }
        // A `cargo test` meant to fail must fail on a snapshot, not on
        // something else, such as a build that cannot start.
        if command.starts_with("cargo test") && *expected != 0 {
            assert!(
                format!("{stdout}{stderr}")
                    .contains("snapshot assertion for 'replay__my-match' failed"),
                "`{command}` failed, but not on the new snapshot:\n{stdout}\n{stderr}"
            );
        }
    }
    // What the page promises came about.
    assert!(work.join("snapshots/replay__my-match.snap").exists());
    assert!(!work.join("snapshots/replay__my-match.snap.new").exists());
    assert!(std::fs::metadata(work.join("report.pdf")).unwrap().len() > 1000);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("report.json")).unwrap()).unwrap();
    assert!(report["difference"]["mean_score"]["ci95"].is_array());
    // A 62 Soleils sheet's score buckets are 5 points wide; a threshold
    // only one sheet has (30 in B, 32 in A) is in that variant alone.
    assert_eq!(report["histogram"]["width"], 5, "{}", report["histogram"]);
    assert!(report["a"]["sun_reached.32"].is_object());
    assert!(report["b"]["sun_reached.30"].is_object());
    assert!(report["a"].get("sun_reached.30").is_none());
    assert!(report["b"].get("sun_reached.32").is_none());
    for only in ["sun_reached.30", "sun_reached.32"] {
        assert!(report["difference"].get(only).is_none(), "{only}");
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// The cell of the page's table for the report `text` of `sunfold
/// compare`: its line `score: all seats`, B − A and its interval, with
/// the page's minus signs, and "(not significant)" where the report lists
/// it among the figures that are not significant after Holm's correction.
fn cell(text: &str) -> Option<String> {
    let at = text.find("\n  score: all seats ")?;
    let line = text[at + 1..].lines().next()?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = words.len();
    let figure = format!("{} {} {}", words[n - 3], words[n - 2], words[n - 1]).replace('-', "−");
    let not_significant = text
        .find("\nnot significant, or in one variant only:")
        .is_some_and(|i| i < at);
    Some(if not_significant {
        format!("{figure} (not significant)")
    } else {
        figure
    })
}

/// The cells between the pipes of a table's row.
fn cells(row: &str) -> Vec<String> {
    row.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().trim_matches('`').to_owned())
        .collect()
}

#[test]
fn the_table_of_bots_is_what_its_commands_print() {
    let page =
        std::fs::read_to_string(common::repo().join("docs/testing-a-rule-change.md")).unwrap();
    // The command beside the table, with BOT and B to fill in.
    let template = page
        .split('`')
        .find(|span| span.starts_with("sunfold compare ") && span.ends_with(" --bot BOT B"))
        .expect("the table's command, ending in --bot BOT B, beside it");
    let lines: Vec<&str> = page.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("| B |"))
        .expect("the table, headed | B |");
    let bots = cells(lines[head])[1..].to_vec();
    let rows: Vec<Vec<String>> = lines[head + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| cells(l))
        .collect();
    assert_eq!(
        (bots.len(), rows.len()),
        (3, 3),
        "three bots and three changes"
    );

    let mut wrong = Vec::new();
    let mut table = vec![lines[head].to_owned(), lines[head + 1].to_owned()];
    for row in &rows {
        let mut printed = vec![format!("`{}`", row[0])];
        for (bot, shown) in bots.iter().zip(&row[1..]) {
            let command = template
                .replace(" BOT B", &format!(" {bot} {}", row[0]))
                .replacen("sunfold ", "", 1);
            let args: Vec<&str> = command.split_whitespace().collect();
            let (code, stdout, stderr) = common::sunfold(&args);
            assert_eq!(code, 0, "`sunfold {command}`: {stderr}");
            let got = cell(&stdout).unwrap_or_else(|| panic!("`sunfold {command}`: {stdout}"));
            if got != *shown {
                wrong.push(format!(
                    "`sunfold {command}`: the page shows {shown}, it prints {got}"
                ));
            }
            printed.push(got);
        }
        table.push(format!("| {} |", printed.join(" | ")));
    }
    assert!(
        wrong.is_empty(),
        "{}\n\nthe table as the commands print it:\n{}",
        wrong.join("\n"),
        table.join("\n")
    );
}

#[test]
fn the_page_convention_reads_commands_and_what_they_print() {
    let page = "```sh\nsunfold a  # exits 2: why\nsunfold b  # not run: slow\n```\n\
                ```console\n$ sunfold c\n…\nline one\nline two\n…\nstarts…\n```\n```text\nsunfold d\n```\n";
    let commands = commands(page);
    assert_eq!(
        commands,
        [
            Example {
                line: 2,
                command: "sunfold a".into(),
                exit: 2,
                output: vec![],
            },
            Example {
                line: 6,
                command: "sunfold c".into(),
                exit: 0,
                output: vec![
                    vec!["line one".into(), "line two".into()],
                    vec!["starts…".into()]
                ],
            },
        ]
    );
    let want = &commands[1].output;
    assert_eq!(
        missing(want, "x\nline one\nline two  \ny\nstarts here\n"),
        None
    );
    assert!(missing(want, "line one\ny\nline two\nstarts here\n").is_some());
    assert!(missing(want, "starts here\nline one\nline two\n").is_some());
    let report = "a\n  score: all seats      13.90   14.01   +0.12  [-0.20, +0.43]\n";
    assert_eq!(cell(report).unwrap(), "+0.12 [−0.20, +0.43]");
    let later = format!("not significant, or in one variant only:{report}");
    assert_eq!(
        cell(&format!("x\n{later}")).unwrap(),
        "+0.12 [−0.20, +0.43] (not significant)"
    );
}
