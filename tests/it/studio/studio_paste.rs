//! Rows pasted from a spreadsheet into the studio (`POST /api/paste`), in
//! process: one edit, undone in one step, and the rows' problems refused
//! with their line and column, pinned.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use sunfold::studio::{Access, Opening, Start, Studio, app};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8064";
const TOKEN: &str = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

/// A studio opened in-process on a copy of the bundled `from`.
fn served(test: &str, from: &str) -> (PathBuf, axum::Router) {
    let file = PathBuf::from(common::fresh(test, "mine.json"));
    let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
    let bundled = common::repo().join("sheet-templates").join(from);
    let (studio, opening) = Studio::open(&file, &Start::From(bundled)).unwrap();
    assert!(matches!(opening, Opening::Fresh), "{opening:?}");
    let access = Access {
        listen: HOST.parse().unwrap(),
        token: TOKEN.to_owned(),
    };
    (file, app(studio, access))
}

async fn send(
    router: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn on_disk(file: &PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[tokio::test]
async fn pasted_cards_replace_those_of_their_id_and_add_the_others_as_one_edit() {
    let (file, router) = served("studio-paste-deck", "summertime.json");
    let before = on_disk(&file);
    // As a spreadsheet copies two rows with their header: tabs, CRLF.
    let text = "id\tname\tpicture\tpoints\tmultiplier\tneeds\tcost\r\n\
                beach-1\tBig beach\tbeach\t4\t\t\tcoconut coral coral\r\n\
                lagoon-1\tLagoon 3\tocean\t3\t\tbeach\tshell shell coral\r\n";
    let (status, standing) = send(&router, "POST", "/api/paste", Some(json!({"text": text}))).await;
    assert_eq!(status, StatusCode::OK, "{standing}");
    // One card more than the rulebook's count: the deck as it stands is
    // invalid, and the file keeps its last valid version.
    assert_eq!(
        (&standing["undo"], &standing["valid"]),
        (&json!(1), &json!(false))
    );
    assert_eq!(on_disk(&file), before);
    let (_, after) = send(&router, "GET", "/api/template", None).await;
    let cards = after["cards"].as_array().unwrap();
    assert_eq!(cards.len(), before["cards"].as_array().unwrap().len() + 1);
    assert_eq!(
        cards[0],
        json!({"id": "beach-1", "name": "Big beach", "picture": "beach", "points": 4, "needs": [], "cost": ["coconut", "coral", "coral"]})
    );
    assert_eq!(cards.last().unwrap()["id"], "lagoon-1");
    // One edit: one undo brings the deck back.
    let (status, _) = send(&router, "POST", "/api/undo", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(send(&router, "GET", "/api/template", None).await.1, before);
}

#[tokio::test]
async fn pasted_boxes_without_a_header_take_every_column_in_order() {
    let (file, router) = served("studio-paste-sheet", "petit-ete.json");
    let text = "K11\t2\t0 0\tkoinobori\tK1\tcrab\n";
    let (status, standing) = send(&router, "POST", "/api/paste", Some(json!({"text": text}))).await;
    assert_eq!(status, StatusCode::OK, "{standing}");
    assert_eq!(
        on_disk(&file)["boxes"][0],
        json!({"id": "K11", "pearl": 2, "cell": [0, 0], "zone": "koinobori", "group": "K1", "icons": ["crab"]})
    );
}

#[tokio::test]
async fn rows_with_problems_are_refused_with_every_line_and_column_and_change_nothing() {
    let (file, router) = served("studio-paste-refused", "petit-ete.json");
    let before = std::fs::read(&file).unwrap();
    let text = "id\tpearl\tcell\nK11\tsix\t0 0\nK12\t3\there\nK11\t1\t0 0\n";
    let (status, refused) = send(&router, "POST", "/api/paste", Some(json!({"text": text}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, not_rows) = send(&router, "POST", "/api/paste", Some(json!({"rows": text}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let shown = format!(
        "{}\n{}\n",
        serde_json::to_string_pretty(&refused).unwrap(),
        serde_json::to_string_pretty(&not_rows).unwrap()
    );
    common::snapshots().bind(|| insta::assert_snapshot!("studio__paste_refused", shown));
    assert_eq!(std::fs::read(&file).unwrap(), before);
    let (_, checked) = send(&router, "GET", "/api/check", None).await;
    assert_eq!(checked["undo"], 0, "nothing was recorded");
}
