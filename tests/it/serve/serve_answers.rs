//! The table server's answers, pinned byte for byte: the page (its HTML
//! with the script and style inline, and its headers), `/api/state` and
//! `/api/view`, for a 62 Soleils game and a Summertime game, under way
//! and over, as each seat (every player and the referee) is answered. The
//! router runs in-process, as in tests/it/serve/serve_app.rs.
//!
//! Nothing here is random once two things are taken out: the log's path,
//! which is a temporary folder's, and the tokens, which are fresh random
//! secrets on every run. Each is replaced in the answers by a fixed name
//! (`[log]`, `[token of Ann]`) before they are compared, so a token that
//! leaked into an answer would show in the snapshot instead of failing
//! at random.
//!
//! The drawings of `/api/view` (each panel's `svg` and its `phone`
//! layout, tens of kilobytes) are pinned by their length and their
//! SHA-256: a drawing that changes by one byte changes the snapshot. A
//! panel's `hash` is keyed with a secret of the server's run, so it is
//! checked to be 16 hex digits and replaced by a word.

use crate::common;

use axum::body::Body;
use axum::http::{Request, header};
use http_body_util::BodyExt;
use serde_json::Value;
use sunfold::log::GameKind;
use sunfold::serve::{Tokens, app};
use tower::ServiceExt;

/// The golden replays served: 62 Soleils for Ann and Bob, and a dealt
/// Summertime game for Chloé and Dmitri.
const SOLEILS: &str = "soleils-2p-round-limit.jsonl";
const SUMMERTIME: &str = "summertime-double-pass-ending.jsonl";

/// A table served in-process on the first `lines` lines of a golden
/// replay (all of them with `None`).
pub(super) struct Table {
    pub(super) log: String,
    pub(super) tokens: Tokens,
    names: Vec<String>,
    pub(super) router: axum::Router,
}

impl Table {
    pub(super) fn new(test: &str, golden: &str, lines: Option<usize>) -> Table {
        let text = std::fs::read_to_string(common::repo().join("replays").join(golden)).unwrap();
        let kept: Vec<&str> = text.lines().take(lines.unwrap_or(usize::MAX)).collect();
        let log = common::fresh(test, "match.jsonl");
        std::fs::write(&log, format!("{}\n", kept.join("\n"))).unwrap();
        let start: Value = serde_json::from_str(kept[0]).unwrap();
        let names: Vec<String> = start["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        let game = match start["game"].as_str() {
            Some("summertime") => GameKind::Summertime,
            _ => GameKind::Soleils,
        };
        let tokens = Tokens::new(&names).unwrap();
        let router = app(log.clone().into(), game, tokens.clone());
        Table {
            log,
            tokens,
            names,
            router,
        }
    }

    /// Every seat's name (`referee` last) and token.
    fn seats(&self) -> Vec<(String, String)> {
        let mut seats: Vec<(String, String)> = self
            .names
            .iter()
            .map(|n| (n.clone(), self.tokens.players[n].clone()))
            .collect();
        seats.push(("referee".to_owned(), self.tokens.referee.clone()));
        seats
    }

    /// `text` with the log's path and every token replaced by fixed names.
    fn redact(&self, text: &str) -> String {
        let mut text = text.replace(&self.log, "[log]");
        for (who, token) in self.seats() {
            text = text.replace(&token, &format!("[token of {who}]"));
        }
        text
    }

    /// The status, the headers that are not the same on every answer
    /// (the date, a body's length) and the body of `GET path`, redacted.
    async fn get(&self, path: &str, token: Option<&str>) -> String {
        let mut request = Request::get(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let response = self
            .router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        let mut text = format!("{}\n", response.status());
        let mut headers: Vec<String> = response
            .headers()
            .iter()
            .filter(|(name, _)| *name != header::DATE && *name != header::CONTENT_LENGTH)
            .map(|(name, value)| format!("{name}: {}", value.to_str().unwrap()))
            .collect();
        headers.sort();
        for line in headers {
            text.push_str(&line);
            text.push('\n');
        }
        text.push('\n');
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let body = String::from_utf8(bytes.to_vec()).unwrap();
        // JSON is pinned pretty, one field a line, so that a change reads
        // as a short diff.
        match serde_json::from_str::<Value>(&body) {
            Ok(mut json) => {
                drawings_by_hash(&mut json);
                text.push_str(&serde_json::to_string_pretty(&json).unwrap());
            }
            Err(_) => text.push_str(&body),
        }
        self.redact(&text)
    }
}

/// Puts, in place of each panel's drawings, their lengths and the first
/// 16 hex digits of their SHA-256, and in place of its hash (keyed with
/// the server's secret of its run, so new on every run) a word, once it is
/// checked to be 16 hex digits.
fn drawings_by_hash(view: &mut Value) {
    use sha2::Digest;
    let Some(panels) = view.get_mut("panels").and_then(Value::as_array_mut) else {
        return;
    };
    for panel in panels {
        let hash = panel["hash"].as_str().unwrap_or_default();
        assert!(
            hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "a panel's hash is 16 hex digits: {hash}"
        );
        panel["hash"] = "[16 hex digits]".into();
        for layout in ["svg", "phone"] {
            let Some(drawing) = panel[layout].as_str().map(str::to_owned) else {
                continue;
            };
            let digest = sha2::Sha256::digest(drawing.as_bytes());
            let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            panel[layout] = format!("[{} bytes, SHA-256 {hash}]", drawing.len()).into();
        }
    }
}

/// `/api/state` and `/api/view` as every seat of `table` is answered,
/// one after the other.
async fn every_seat(table: &Table) -> String {
    let mut text = String::new();
    for (who, token) in table.seats() {
        for endpoint in ["state", "view"] {
            let answer = table.get(&format!("/api/{endpoint}"), Some(&token)).await;
            text.push_str(&format!("==== GET /api/{endpoint} as {who}\n{answer}\n\n"));
        }
    }
    text
}

#[tokio::test]
async fn the_page_of_each_game_is_pinned() {
    let soleils = Table::new("answers-page-soleils", SOLEILS, Some(1));
    let page = soleils.get("/", None).await;
    common::snapshots().bind(|| insta::assert_snapshot!("serve_answers__soleils_page", page));
    let summertime = Table::new("answers-page-summertime", SUMMERTIME, Some(1));
    let page = summertime.get("/", None).await;
    common::snapshots().bind(|| insta::assert_snapshot!("serve_answers__summertime_page", page));
}

#[tokio::test]
async fn a_soleils_game_halfway_is_answered_to_each_seat_as_pinned() {
    // A roll, then Ann's placement: Ann has a sun entry or a crab to
    // decide, Bob a placement.
    let table = Table::new("answers-soleils-half", SOLEILS, Some(50));
    let text = every_seat(&table).await;
    common::snapshots().bind(|| insta::assert_snapshot!("serve_answers__soleils_halfway", text));
}

#[tokio::test]
async fn a_soleils_game_over_is_answered_to_each_seat_as_pinned() {
    let table = Table::new("answers-soleils-over", SOLEILS, None);
    let text = every_seat(&table).await;
    common::snapshots().bind(|| insta::assert_snapshot!("serve_answers__soleils_over", text));
}

#[tokio::test]
async fn a_summertime_game_under_way_is_answered_to_each_seat_as_pinned() {
    // Dmitri has bought the bar and three cards are turned up: he plays
    // or ends his turn. The cards dealt to each player are hidden from
    // the other, not from the referee.
    let table = Table::new("answers-summertime-half", SUMMERTIME, Some(13));
    let text = every_seat(&table).await;
    common::snapshots()
        .bind(|| insta::assert_snapshot!("serve_answers__summertime_under_way", text));
}

#[tokio::test]
async fn a_summertime_game_over_is_answered_to_each_seat_as_pinned() {
    let table = Table::new("answers-summertime-over", SUMMERTIME, None);
    let text = every_seat(&table).await;
    common::snapshots().bind(|| insta::assert_snapshot!("serve_answers__summertime_over", text));
}
