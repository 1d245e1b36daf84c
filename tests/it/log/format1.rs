//! Log format 2 changed the 62 Soleils start event; every log of format 1
//! must replay as it did before. These tests fold every bundled log of
//! format 1 (the golden replays, the bad logs, the rescore fixtures, the
//! annotated example) and pin, file by file, how it ends: the scores, or the
//! first error. The pinned text was checked against the release before
//! format 2. They also write each log's format-2 form (its start line
//! upcast, every other line as it was, the hash chain renewed) and check
//! that it replays to the same state.

use crate::common;

use std::fmt::Write;
use std::path::{Path, PathBuf};
use sunfold::log::{GameKind, Line, LineReader, ReadError, detect, fold_log, line_hash, upcast};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

/// Every bundled log whose start line says format 1.
fn format1_logs() -> Vec<PathBuf> {
    let mut logs = Vec::new();
    for dir in ["replays", "tests/bad", "tests/rescore", "docs/examples"] {
        logs.extend(common::files(&common::repo().join(dir), "jsonl"));
    }
    logs.retain(|path| {
        let bytes = std::fs::read(path).unwrap();
        let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        serde_json::from_slice::<serde_json::Value>(first)
            .is_ok_and(|v| v["type"] == "started" && v["format"] == 1)
    });
    logs
}

fn shown(path: &Path) -> String {
    let path = path.strip_prefix(common::repo()).unwrap();
    path.display().to_string()
}

/// How a log ends: `scores: Ann 54 (1), …` or `error: LINE: …`.
fn outcome(bytes: &[u8]) -> String {
    let mut lines = LineReader::new(bytes);
    let Some(first) = lines.next_line().unwrap() else {
        return "empty".to_owned();
    };
    let game = match detect(&first) {
        Ok(game) => game,
        Err(e) => return format!("error: {e}"),
    };
    match game {
        GameKind::Soleils => match fold_log::<Soleils, _>(bytes, None) {
            Ok(state) => {
                let scores: Vec<String> = sunfold::soleils::score(&state)
                    .iter()
                    .map(|l| format!("{} {} ({})", l.player, l.total, l.rank))
                    .collect();
                let ended = state
                    .ended()
                    .map_or("not over".to_owned(), |r| r.to_string());
                format!(
                    "round {}, {ended}; scores: {}",
                    state.round(),
                    scores.join(", ")
                )
            }
            Err(ReadError::Log(e)) => format!("error: {e}"),
            Err(ReadError::Io(e)) => panic!("{e}"),
        },
        GameKind::Summertime => match fold_log::<Summertime, _>(bytes, None) {
            Ok(state) => {
                let scores: Vec<String> = sunfold::summertime::score(&state)
                    .iter()
                    .map(|l| format!("{} {} ({})", l.player, l.total, l.rank))
                    .collect();
                format!("scores: {}", scores.join(", "))
            }
            Err(ReadError::Log(e)) => format!("error: {e}"),
            Err(ReadError::Io(e)) => panic!("{e}"),
        },
    }
}

#[test]
fn every_bundled_format_1_log_ends_as_before() {
    let logs = format1_logs();
    assert!(logs.len() > 80, "only {} logs of format 1", logs.len());
    let mut report = String::new();
    for path in &logs {
        let bytes = std::fs::read(path).unwrap();
        writeln!(report, "{}: {}", shown(path), outcome(&bytes)).unwrap();
    }
    common::snapshots().bind(|| insta::assert_snapshot!("format1_outcomes", report));
}

/// The log with its start line upcast to format 2 and, if it is chained,
/// every `prev` renewed: what `sunfold upgrade` would write.
fn upgraded(text: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut line = if i == 0 {
            upcast::v1_to_v2(line).unwrap()
        } else {
            line.to_owned()
        };
        if let (Some(at), Some(previous)) = (line.find("\"prev\":\""), lines.last()) {
            let start = at + "\"prev\":\"".len();
            line.replace_range(start..start + 64, &line_hash(previous.as_bytes()));
        }
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

#[test]
fn a_format_1_log_and_its_format_2_form_replay_to_the_same_state() {
    let mut compared = 0;
    for path in format1_logs() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let first = text.lines().next().unwrap_or_default();
        let line = Line {
            number: 1,
            bytes: first.as_bytes(),
            terminated: true,
        };
        let Ok(game) = detect(&line) else { continue };
        let new = upgraded(&text);
        let start: serde_json::Value = serde_json::from_str(new.lines().next().unwrap()).unwrap();
        assert_eq!(start["format"], 2);
        let name = shown(&path);
        match game {
            GameKind::Soleils => {
                let old = fold_log::<Soleils, _>(text.as_bytes(), None);
                let Ok(old) = old else { continue };
                let new = fold_log::<Soleils, _>(new.as_bytes(), None);
                let new = new.unwrap_or_else(|_| panic!("{name}: the format-2 form replays"));
                assert_eq!(old, new, "{name}");
            }
            GameKind::Summertime => {
                let old = fold_log::<Summertime, _>(text.as_bytes(), None);
                let Ok(old) = old else { continue };
                let new = fold_log::<Summertime, _>(new.as_bytes(), None);
                let new = new.unwrap_or_else(|_| panic!("{name}: the format-2 form replays"));
                assert_eq!(old, new, "{name}");
            }
        }
        compared += 1;
    }
    assert!(compared >= 8, "only {compared} valid logs compared");
}

#[test]
fn a_format_1_log_of_one_player_is_solo_and_of_more_is_not() {
    let solo =
        common::repo().join("tests/rescore/soleils-exact-solo-passes-32-in-last-round.jsonl");
    let state = fold_log::<Soleils, _>(std::fs::read(solo).unwrap().as_slice(), None)
        .unwrap_or_else(|_| panic!("the solo log replays"));
    assert!(state.options().solo);
    assert_eq!(
        state.options().sailboats,
        sunfold::soleils::Sailboats::Symbol
    );
    let two = common::repo().join("replays/soleils-2p-round-limit.jsonl");
    let state = fold_log::<Soleils, _>(std::fs::read(two).unwrap().as_slice(), None)
        .unwrap_or_else(|_| panic!("the golden replays"));
    assert!(!state.options().solo);
}
