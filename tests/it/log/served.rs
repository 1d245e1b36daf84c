//! A log as the table's server shows it to players: named without the
//! folder where the server keeps it, and its hash chain the server's own.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use std::path::Path;
use sunfold::log::GameKind;
use sunfold::serve::{Tokens, app};
use tower::ServiceExt;

/// A served 62 Soleils table of Ann and Bob whose log is at `log`.
fn served(log: &Path) -> (axum::Router, Tokens) {
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let (code, _, stderr) = common::sunfold(&[
        "new",
        "soleils",
        &log.display().to_string(),
        "--players",
        "Ann,Bob",
        "--force",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let tokens = Tokens::new(&["Ann".to_owned(), "Bob".to_owned()]).unwrap();
    (
        app(log.to_owned(), GameKind::Soleils, tokens.clone()),
        tokens,
    )
}

async fn send(router: &axum::Router, request: Request<Body>) -> (StatusCode, Value) {
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// Every string in `value`, at any depth.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[tokio::test]
async fn the_state_names_the_log_by_its_file_name_or_its_place_in_the_event() {
    let dir = common::scratch("served-names");
    for (log, named) in [
        (dir.join("club/m.jsonl"), "m.jsonl"),
        (
            dir.join("club/e.d/round-1/table-1.jsonl"),
            "e.d/round-1/table-1.jsonl",
        ),
    ] {
        let (router, tokens) = served(&log);
        for token in [&tokens.referee, &tokens.players["Ann"]] {
            let request = Request::get("/api/state")
                .header(header::AUTHORIZATION, bearer(token))
                .body(Body::empty())
                .unwrap();
            let (status, state) = send(&router, request).await;
            assert_eq!(status, StatusCode::OK, "{state}");
            assert_eq!(state["file"], named);
            let mut said = Vec::new();
            strings(&state, &mut said);
            let folder = dir.display().to_string();
            assert!(
                said.iter().all(|s| !s.contains(&folder)),
                "the server's folder is shown: {said:?}"
            );
            if *token == tokens.referee {
                let command = state["commands"][0]["commands"][0].as_str().unwrap();
                assert!(
                    command.starts_with(&format!("sunfold roll {named}")),
                    "{command}"
                );
            }
        }
        // The stream's state too, as each entry is appended.
        let request = Request::post("/api/events")
            .header(header::AUTHORIZATION, bearer(&tokens.referee))
            .body(Body::from(r#"{"type":"rolled","dice":[4,5,2]}"#))
            .unwrap();
        let (status, answer) = send(&router, request).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let mut said = Vec::new();
        strings(&answer, &mut said);
        assert!(
            said.iter().all(|s| !s.contains(&dir.display().to_string())),
            "{said:?}"
        );
    }
}

#[tokio::test]
async fn a_posted_prev_is_refused_as_the_servers_to_fill() {
    let dir = common::scratch("served-prev");
    let log = dir.join("m.jsonl");
    let (router, tokens) = served(&log);
    let before = std::fs::read(&log).unwrap();
    let body = r#"{"type":"rolled","dice":[4,5,2],"prev":"00"}"#;
    let request = Request::post("/api/events")
        .header(header::AUTHORIZATION, bearer(&tokens.referee))
        .body(Body::from(body))
        .unwrap();
    let (status, answer) = send(&router, request).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let error = answer["error"].as_str().unwrap();
    common::snapshots().bind(|| insta::assert_snapshot!("damage__posted-prev", error));
    assert!(error.contains("the server fills it"), "{error}");
    assert_eq!(std::fs::read(&log).unwrap(), before);
}
