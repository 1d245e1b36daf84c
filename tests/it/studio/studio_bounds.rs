//! Nothing a request carries breaks the studio: a patch whose result would
//! nest past the body's own bound is refused, and the studio answers on;
//! a body sent to undo or redo is refused; names the print cannot draw
//! are refused saying why; a symbolic link to a file shares its lock and
//! is written through, the link kept; a tab asking whether the template
//! changed is told "not modified" while it has not.

use super::studio_safe::{Served, bundled, request, served};
use crate::common;

use axum::body::Body;
use axum::http::{StatusCode, header};
use serde_json::{Value, json};
use std::path::PathBuf;
use sunfold::studio::{Start, Studio, StudioError};

/// An array `depth` deep.
fn nested(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 1..depth {
        value = json!([value]);
    }
    value
}

/// A 51 KB patch: `/notes` added 100 deep, then copied 8 times into its
/// own deepest array, which doubles its depth each time: 25,600 deep if
/// nothing stopped it.
fn doubling_patch() -> Value {
    let mut ops = vec![json!({"op": "add", "path": "/notes", "value": nested(100)})];
    let mut depth = 100;
    for _ in 0..8 {
        let deepest = format!("/notes{}/-", "/0".repeat(depth - 1));
        ops.push(json!({"op": "copy", "from": "/notes", "path": deepest}));
        depth *= 2;
    }
    Value::Array(ops)
}

#[tokio::test]
async fn a_patch_that_doubles_its_depth_is_refused_and_the_studio_answers_on() {
    let studio = served("studio-deep-patch", "petit-ete.json");
    let before = studio.get("/api/template").await;
    let patch = doubling_patch();
    assert!(
        (50_000..53_000).contains(&patch.to_string().len()),
        "{} bytes",
        patch.to_string().len()
    );
    let refused = studio.patch(patch, Some(&before.version())).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = refused.json()["error"].as_str().unwrap().to_owned();
    let deepest = format!("/notes{}/-", "/0".repeat(99));
    let message = message.replace(&deepest, "/notes/0/…(99 times)/-");
    common::snapshots().bind(|| insta::assert_snapshot!("studio__patch_too_deep", message));
    assert_eq!(studio.edits().len(), 1, "nothing logged");
    // The studio lives, as it was.
    let after = studio.get("/api/template").await;
    assert_eq!(after.status, StatusCode::OK);
    assert_eq!(after.version(), before.version());
    let renamed = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "Mine"}]),
            Some(&after.version()),
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text());
}

#[tokio::test]
async fn a_patch_that_copies_a_deck_over_and_over_is_refused_before_it_is_built() {
    let studio = served("studio-wide-patch", "petit-ete.json");
    let ops: Vec<Value> = (0..600)
        .map(|k| json!({"op": "copy", "from": "", "path": format!("/copy{k}")}))
        .collect();
    let refused = studio.patch(Value::Array(ops), None).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    let message = refused.json()["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("studio__patch_too_large", message));
    assert_eq!(studio.edits().len(), 1, "nothing logged");
}

impl Served {
    async fn step_with(&self, what: &str, body: Vec<u8>) -> super::studio_safe::Reply {
        let built = request("POST", &format!("/api/{what}"));
        self.send(built.body(Body::from(body)).unwrap()).await
    }
}

#[tokio::test]
async fn a_body_sent_to_undo_or_redo_is_refused_and_nothing_steps() {
    let studio = served("studio-undo-body", "petit-ete.json");
    let renamed = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "Mine"}]),
            None,
        )
        .await;
    assert_eq!(renamed.status, StatusCode::OK);
    let small = studio.step_with("undo", b"{\"steps\": 3}".to_vec()).await;
    assert_eq!(small.status, StatusCode::BAD_REQUEST);
    let message = small.json()["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("studio__undo_body", message));
    let large = studio.step_with("redo", vec![b' '; 10 << 20]).await;
    assert_eq!(large.status, StatusCode::PAYLOAD_TOO_LARGE);
    let message = large.json()["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("studio__redo_body_too_large", message));
    let large = studio.step_with("undo", vec![b' '; 10 << 20]).await;
    assert_eq!(large.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(studio.edits().len(), 2, "no undo logged");
    assert_eq!(studio.on_disk()["name"], "Mine", "nothing undone");
    let check = studio.get("/api/check").await.json();
    assert_eq!(
        (check["undo"].clone(), check["redo"].clone()),
        (json!(1), json!(0))
    );
    // With no body, as ever.
    let undone = studio.step_with("undo", Vec::new()).await;
    assert_eq!(undone.status, StatusCode::OK);
}

#[tokio::test]
async fn names_the_print_cannot_draw_are_refused_saying_why() {
    let studio = served("studio-names-script", "petit-ete.json");
    let drawn = studio
        .get("/preview.svg?names=Ana%C3%AFs,%CE%91%CE%BB%CE%BA%CE%B7%CF%82")
        .await;
    assert_eq!(drawn.status, StatusCode::OK, "Latin and Greek draw");
    let refused = studio.get("/preview.svg?names=%E6%97%A5%E6%9C%AC").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let message = refused.json()["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("studio__names_undrawable", message));
    let pdf = studio.get("/print.pdf?names=Ann,%E6%97%A5%E6%9C%AC").await;
    assert_eq!(pdf.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_tab_asking_whether_the_template_changed_is_told_not_modified_until_it_has() {
    let studio = served("studio-not-modified", "petit-ete.json");
    let seen = studio.get("/api/template").await;
    let ask = |version: String| {
        request("GET", "/api/template")
            .header(header::IF_NONE_MATCH, format!("\"{version}\""))
            .body(Body::empty())
            .unwrap()
    };
    let same = studio.send(ask(seen.version())).await;
    assert_eq!(same.status, StatusCode::NOT_MODIFIED);
    assert_eq!(same.version(), seen.version());
    let renamed = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "Mine"}]),
            None,
        )
        .await;
    let changed = studio.send(ask(seen.version())).await;
    assert_eq!(changed.status, StatusCode::OK);
    assert_eq!(changed.version(), renamed.version());
    assert_eq!(changed.json()["name"], "Mine");
}

/// `two.json` and `link.json`, a link to it.
#[cfg(unix)]
fn linked(test: &str) -> (PathBuf, PathBuf) {
    let file = PathBuf::from(common::fresh(test, "two.json"));
    let link = file.with_file_name("link.json");
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
    std::fs::copy(bundled("petit-ete.json"), &file).unwrap();
    std::os::unix::fs::symlink("two.json", &link).unwrap();
    (file, link)
}

#[cfg(unix)]
#[test]
fn a_link_to_a_file_a_studio_edits_is_refused_and_a_studio_on_a_link_writes_through_it() {
    let (file, link) = linked("studio-link");
    let (first, _) = Studio::open(&file, &Start::Open).unwrap();
    let refused = Studio::open(&link, &Start::Open);
    assert!(
        matches!(&refused, Err(StudioError::Busy { .. })),
        "{:?}",
        refused.err()
    );
    drop(first);

    // A studio on the link edits the file it points to, and the link stays.
    let (mut studio, _) = Studio::open(&link, &Start::Open).unwrap();
    assert!(
        sunfold::studio::edit_log::path_for(&file).exists(),
        "the edit log is the file's"
    );
    let refused = Studio::open(&file, &Start::Open);
    assert!(matches!(&refused, Err(StudioError::Busy { .. })));
    let patch =
        serde_json::from_value(json!([{"op": "replace", "path": "/name", "value": "Mine"}]))
            .unwrap();
    studio.patch(patch, None).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let on_disk: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(on_disk["name"], "Mine");
    drop(studio);
}

#[cfg(unix)]
#[test]
fn template_import_into_a_link_honours_its_files_studio_and_keeps_the_link() {
    let (file, link) = linked("studio-link-import");
    let shown = link.display().to_string();
    let rows = file.with_file_name("boxes.csv").display().to_string();
    let (code, _, stderr) = common::sunfold(&["template", "export", &shown, "--csv", &rows]);
    assert_eq!(code, 0, "{stderr}");
    let (studio, _) = Studio::open(&file, &Start::Open).unwrap();
    let before = std::fs::read(&file).unwrap();
    let (code, _, stderr) = common::sunfold(&["template", "import", &rows, "--into", &shown]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("expected a file no other studio is editing"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    drop(studio);
    let (code, _, stderr) = common::sunfold(&["template", "import", &rows, "--into", &shown]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        std::fs::symlink_metadata(&link).unwrap().is_symlink(),
        "the link stays"
    );
}
