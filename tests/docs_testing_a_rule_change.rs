//! docs/testing-a-rule-change.md cannot drift: every command in its `sh`
//! blocks is run here, in order, in a copy of the repository, with
//! `sunfold` on the PATH. A command ending in `# exits N` must exit with N;
//! one ending in `# not run: WHY` is skipped; every other command must
//! succeed.
//!
//! The page's `cargo test --test replays` runs for real in the copy, with
//! its own target folder under `target/` (kept between runs, so only the
//! first run builds the dependencies), offline, and without `CI` set, as on
//! a designer's machine.

mod common;

use std::path::PathBuf;
use std::process::Command;

/// Every command of the page's `sh` blocks, with its expected exit code.
fn commands(page: &str) -> Vec<(String, i32)> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in page.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line == "```sh";
            continue;
        }
        // `# not run: WHY` marks a command too long to run here, as in
        // tests/docs_examples.rs.
        if in_sh && !line.trim().is_empty() && !line.contains("  # not run: ") {
            let (command, exit) = match line.split_once("  # exits ") {
                Some((command, rest)) => {
                    let code = rest.split(':').next().unwrap().trim().parse().unwrap();
                    (command.to_owned(), code)
                }
                None => (line.to_owned(), 0),
            };
            commands.push((command, exit));
        }
    }
    commands
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
    let target: PathBuf = repo.join("target/docs-testing-a-rule-change");

    for (command, expected) in &commands {
        let mut run = Command::new("bash");
        run.args(["-o", "pipefail", "-c", command])
            .current_dir(&work)
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_NET_OFFLINE", "true")
            .env_remove("CI")
            .env_remove("INSTA_UPDATE")
            .env_remove("INSTA_FORCE_PASS");
        // What the outer `cargo test` set for this test must not leak into
        // the inner one.
        for (key, _) in std::env::vars() {
            if key.starts_with("CARGO_") && key != "CARGO_HOME" {
                run.env_remove(key);
            }
        }
        run.env("CARGO_TARGET_DIR", &target)
            .env("CARGO_NET_OFFLINE", "true");
        let output = run.output().unwrap();
        let code = output.status.code().unwrap_or(-1);
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert_eq!(
            code, *expected,
            "`{command}` exited {code}, not {expected}\nstdout:\n{stdout}\nstderr:\n{stderr}"
        );
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
    let _ = std::fs::remove_dir_all(&work);
}
