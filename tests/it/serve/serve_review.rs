//! "Review my game" (`GET /api/review`): once the game has ended, a
//! player's three costliest decisions, with the same figures and words as
//! `sunfold analyse` at the same seed and budget; never another player's
//! review, never before the end, and judged once. The router runs
//! in-process, as in tests/it/serve/serve_app.rs.

use crate::common;

use super::serve_answers::Table;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use std::time::Duration;
use tower::ServiceExt;

/// Long enough to mean that something waits that should not: it only
/// turns a hang into a failure.
const HANG: Duration = Duration::from_secs(900);

/// What this file asks of a table served in-process: JSON answers, and
/// reviews asked for until they are done.
trait Reviewed {
    fn token_of(&self, who: &str) -> String;
    async fn answered(&self, path: &str, who: &str) -> (StatusCode, Value);
    async fn reviewed(&self, path: &str, who: &str) -> (Vec<StatusCode>, Value);
}

impl Reviewed for Table {
    fn token_of(&self, who: &str) -> String {
        match who {
            "referee" => self.tokens.referee.clone(),
            player => self.tokens.players[player].clone(),
        }
    }

    /// The status and JSON body of `GET path` as `who`.
    async fn answered(&self, path: &str, who: &str) -> (StatusCode, Value) {
        let request = Request::get(path)
            .header(
                header::AUTHORIZATION,
                format!("Bearer {}", self.token_of(who)),
            )
            .body(Body::empty())
            .unwrap();
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// The review at `path` as `who` asks for it, asked again while the
    /// server answers 202: every status answered, then the review.
    async fn reviewed(&self, path: &str, who: &str) -> (Vec<StatusCode>, Value) {
        let started = std::time::Instant::now();
        let mut statuses = Vec::new();
        loop {
            let (status, body) = self.answered(path, who).await;
            statuses.push(status);
            match status {
                StatusCode::OK => return (statuses, body),
                StatusCode::ACCEPTED => {
                    assert_eq!(body["status"], 202, "{body}");
                }
                other => panic!("{path} as {who}: {other} {body}"),
            }
            assert!(started.elapsed() < HANG, "the review never ended");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// `sunfold analyse` of `log` run in its folder, so that it names the log
/// by its file name as the page does: its standard output.
fn analyse(log: &str, args: &[&str]) -> String {
    let log = std::path::Path::new(log);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .arg("analyse")
        .arg(log.file_name().unwrap())
        .args(args)
        .current_dir(log.parent().unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// The review of `player` at a finished `table` is `analyse --player` at
/// the review's seed and budget: the same three decisions, the same
/// figures (every field of analyse's JSON), the same lines of its text.
async fn matches_analyse(table: &Table, player: &str) -> Value {
    let (statuses, review) = table.reviewed("/api/review", player).await;
    assert_eq!(statuses[0], StatusCode::ACCEPTED, "judged when first asked");
    assert_eq!(review["player"], player);
    let seed = review["seed"].as_u64().unwrap().to_string();
    let bot = review["bot"].as_str().unwrap().to_owned();
    assert_eq!(
        review["command"],
        format!(
            "sunfold analyse match.jsonl --player {} --seed {seed} --bot {bot}",
            sunfold::present::command::quote(player)
        )
    );
    let args = ["--player", player, "--seed", &seed, "--bot", &bot];
    let json: Value = serde_json::from_str(&analyse(
        &table.log,
        &[&args[..], &["--format", "json"]].concat(),
    ))
    .unwrap();
    let summary = &json["players"][0];
    assert_eq!(json["players"].as_array().unwrap().len(), 1);
    assert_eq!(summary["player"], player);
    let costliest: Vec<u64> = serde_json::from_value(summary["costliest"].clone()).unwrap();
    let reviewed: Vec<&Value> = review["costliest"].as_array().unwrap().iter().collect();
    assert_eq!(reviewed.len(), costliest.len());
    assert_eq!(costliest.len(), 3, "three costly decisions: {review}");
    for (seq, r) in costliest.iter().zip(&reviewed) {
        let d = json["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["seq"] == *seq)
            .unwrap();
        assert_eq!(&r["decision"], d, "the same figures as analyse");
    }
    for field in ["decisions", "points_lost", "costly"] {
        assert_eq!(review[field], summary[field], "{field}");
    }
    // The same words: each line is one analyse prints.
    let text = analyse(&table.log, &args);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert_eq!(review["heading"], lines[0]);
    assert!(
        lines.contains(&review["summary"].as_str().unwrap()),
        "{text}"
    );
    for r in reviewed {
        for line in r["lines"].as_array().unwrap() {
            assert!(lines.contains(&line.as_str().unwrap()), "{line} in\n{text}");
        }
    }
    review
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_s_review_is_what_analyse_gives_at_the_same_seed() {
    let table = Table::new("review-soleils", "soleils-2p-round-limit.jsonl", None);
    let review = matches_analyse(&table, "Ann").await;
    assert_eq!(review["game"], "soleils");
    // The same log gives the same seed, and so the same review.
    let again = Table::new("review-soleils-again", "soleils-2p-round-limit.jsonl", None);
    let (_, same) = again.reviewed("/api/review", "Ann").await;
    assert_eq!(same, review);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_summertime_review_names_the_player_s_own_decisions_alone() {
    let table = Table::new(
        "review-summertime",
        "summertime-double-pass-ending.jsonl",
        None,
    );
    let review = matches_analyse(&table, "Chloé").await;
    assert_eq!(review["value"], "lead");
    for r in review["costliest"].as_array().unwrap() {
        assert_eq!(r["decision"]["player"], "Chloé");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_sees_only_their_own_review_and_never_before_the_end() {
    let mut text = String::new();
    let playing = Table::new("review-playing", "soleils-2p-round-limit.jsonl", Some(40));
    let over = Table::new("review-refused", "soleils-2p-round-limit.jsonl", None);
    for (table, path, who) in [
        (&playing, "/api/review", "Ann"),
        (&playing, "/api/review?player=Ann", "referee"),
        (&over, "/api/review?player=Bob", "Ann"),
        (&over, "/api/review", "referee"),
        (&over, "/api/review?player=Zoé", "referee"),
        (&over, "/api/review?seat=1", "Ann"),
    ] {
        let (status, body) = table.answered(path, who).await;
        text.push_str(&format!(
            "==== GET {path} as {who}\n{status}\n{}\n\n",
            serde_json::to_string_pretty(&body).unwrap()
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("serve_review__refusals", text));
    // The referee may read any player's.
    let (_, bob) = over.reviewed("/api/review?player=Bob", "referee").await;
    assert_eq!(bob["player"], "Bob");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_look_is_answered_at_once_from_what_was_kept() {
    // Each server keeps its own reviews, by the log's bytes.
    let table = Table::new("review-kept", "summertime-double-pass-ending.jsonl", None);
    let (statuses, first) = table.reviewed("/api/review", "Dmitri").await;
    assert_eq!(statuses[0], StatusCode::ACCEPTED);
    // A review judged again would be answered 202 first.
    for (path, who) in [
        ("/api/review", "Dmitri"),
        ("/api/review?player=Dmitri", "referee"),
    ] {
        let (status, again) = table.answered(path, who).await;
        assert_eq!(status, StatusCode::OK, "{path} as {who}");
        assert_eq!(again, first);
    }
}

/// Given a finished dealt Summertime game, when every state Chloé decided
/// in has what she could not see arranged otherwise (the other's hidden
/// hand and the stacks, each top among the cards of its back), then her
/// review is the same: it decides from what she knew, never from the
/// real arrangement.
#[test]
fn what_a_player_could_not_see_never_changes_their_review() {
    use sunfold::kit::rng::SeededRng;
    use sunfold::present::analysis::{decisions, player_report};
    use sunfold::summertime::Summertime;
    let text =
        std::fs::read_to_string(common::repo().join("replays/summertime-double-pass-ending.jsonl"))
            .unwrap();
    let folded = || {
        let opened = sunfold::log::open(text.as_bytes()).unwrap();
        decisions::<Summertime, _>(opened)
            .ok()
            .expect("the golden replay folds")
    };
    let mut other = folded();
    let seat = other.keep_player("Chloé").unwrap();
    let mut rng = SeededRng::new(57);
    let mut changed = 0;
    for r in &mut other.recorded {
        let before = crate::sim::search::rearranged(&r.decision.before, seat, &mut rng);
        changed += usize::from(before != r.decision.before);
        r.decision.before = before;
    }
    assert!(
        changed * 2 > other.recorded.len(),
        "{changed} of {} rearranged",
        other.recorded.len()
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let review = |d| player_report::<Summertime>("match.jsonl", d, "Chloé", 8, 1, &pool).unwrap();
    assert_eq!(review(folded()), review(other));
}

/// `analyse --player` judges one player's decisions, with the figures the
/// whole analysis gives them; a name not in the log is refused.
#[test]
fn analyse_for_one_player_gives_the_whole_analysis_s_figures() {
    let replay = "replays/soleils-2p-round-limit.jsonl";
    let json = |extra: &[&str]| -> Value {
        let args = [
            &["analyse", replay, "--bot", "search:2", "--format", "json"][..],
            extra,
        ]
        .concat();
        let (code, out, stderr) = common::sunfold(&args);
        assert_eq!(code, 0, "{stderr}");
        serde_json::from_str(&out).unwrap()
    };
    let whole = json(&[]);
    let bob = json(&["--player", "Bob"]);
    let bobs: Vec<&Value> = (whole["decisions"].as_array().unwrap().iter())
        .filter(|d| d["player"] == "Bob")
        .collect();
    assert!(!bobs.is_empty());
    assert_eq!(
        bob["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .collect::<Vec<_>>(),
        bobs
    );
    assert_eq!(bob["players"], serde_json::json!([whole["players"][1]]));
    let (code, out, stderr) =
        common::sunfold(&["analyse", replay, "--bot", "search:2", "--player", "Zoé"]);
    assert_eq!((code, out.as_str()), (2, ""), "{stderr}");
    common::snapshots()
        .bind(|| insta::assert_snapshot!("serve_review__analyse_unknown_player", stderr));
}
