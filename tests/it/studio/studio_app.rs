//! The studio's scripted interface, in-process (tower's `oneshot`, as in
//! tests/it/serve/serve_app.rs): patches, undo and redo, what reaches the file and
//! the edit log, the preview against `sunfold render`, reopening, and the
//! refusals, pinned.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use sunfold::studio::{Access, Opening, Start, Studio, StudioError, app};
use tower::ServiceExt;

/// The address the studio under test listens on, as its Host.
const HOST: &str = "127.0.0.1:8063";
const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// A studio opened in-process on `file`.
struct Served {
    file: PathBuf,
    router: axum::Router,
}

fn bundled(name: &str) -> PathBuf {
    common::repo().join("sheet-templates").join(name)
}

/// A new file in the test's folder, made from the bundled `from`, served.
fn served(test: &str, from: &str) -> Served {
    let file = PathBuf::from(common::fresh(test, "mine.json"));
    let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
    let (studio, opening) = Studio::open(&file, &Start::From(bundled(from))).unwrap();
    assert!(matches!(opening, Opening::Fresh), "{opening:?}");
    reopen_router(file, studio)
}

fn reopen_router(file: PathBuf, studio: Studio) -> Served {
    let access = Access {
        listen: HOST.parse().unwrap(),
        token: TOKEN.to_owned(),
    };
    Served {
        file,
        router: app(studio, access),
    }
}

/// A reply's status and body.
struct Reply {
    status: StatusCode,
    body: Vec<u8>,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

impl Served {
    async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            body: body.to_vec(),
        }
    }

    fn request(method: &str, uri: &str) -> axum::http::request::Builder {
        Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, HOST)
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
    }

    async fn get(&self, uri: &str) -> Reply {
        self.send(Self::request("GET", uri).body(Body::empty()).unwrap())
            .await
    }

    /// A POST of `body`; null posts none (undo and redo take none).
    async fn post(&self, uri: &str, body: Value) -> Reply {
        let body = if body.is_null() {
            Body::empty()
        } else {
            Body::from(body.to_string())
        };
        self.send(
            Self::request("POST", uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(body)
                .unwrap(),
        )
        .await
    }

    async fn patch(&self, patch: Value) -> Reply {
        self.post("/api/patch", patch).await
    }

    fn on_disk(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.file).unwrap()).unwrap()
    }

    fn edits(&self) -> Vec<Value> {
        let text =
            std::fs::read_to_string(sunfold::studio::edit_log::path_for(&self.file)).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test]
async fn a_patch_undone_and_redone_comes_back_to_the_json_opened_and_to_the_edit() {
    let studio = served("studio-round-trip", "petit-ete.json");
    let opened = read_json(&bundled("petit-ete.json"));
    assert_eq!(studio.on_disk(), opened);
    let reply = studio
        .patch(json!([{"op": "replace", "path": "/name", "value": "Mon été"}]))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let answer = reply.json();
    assert_eq!(
        (
            &answer["valid"],
            &answer["problems"],
            &answer["undo"],
            &answer["redo"]
        ),
        (&json!(true), &json!([]), &json!(1), &json!(0))
    );
    assert_eq!(studio.on_disk()["name"], "Mon été");
    let reply = studio.post("/api/undo", json!(null)).await;
    assert_eq!(reply.json()["undo"], 0);
    assert_eq!(
        studio.on_disk(),
        opened,
        "undone to the start: the JSON opened"
    );
    assert_eq!(studio.get("/api/template").await.json(), opened);
    let reply = studio.post("/api/redo", json!(null)).await;
    assert_eq!(reply.json()["redo"], 0);
    assert_eq!(studio.on_disk()["name"], "Mon été");
    let refused = studio.post("/api/redo", json!(null)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let types: Vec<Value> = studio.edits().iter().map(|l| l["type"].clone()).collect();
    assert_eq!(types, ["opened", "patched", "undone", "redone"]);
}

#[tokio::test]
async fn an_invalid_edit_is_logged_and_the_file_keeps_its_last_valid_version() {
    let studio = served("studio-invalid", "petit-ete.json");
    let before = std::fs::read(&studio.file).unwrap();
    let reply = studio
        .patch(json!([
            {"op": "replace", "path": "/boxes/0/pearl", "value": 9},
            {"op": "add", "path": "/constraints/-", "value": {"greater": ["K11", "K12"]}}
        ]))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let answer = serde_json::to_string_pretty(&reply.json()).unwrap();
    common::snapshots().bind(|| insta::assert_snapshot!("studio__invalid_edit", answer));
    assert_eq!(
        std::fs::read(&studio.file).unwrap(),
        before,
        "the file on disk stays"
    );
    let edits = studio.edits();
    assert_eq!(edits.len(), 2);
    assert_eq!(edits[1]["valid"], false);
    // The template as it stands is the invalid one; undo mends it.
    assert_eq!(
        studio.get("/api/template").await.json()["boxes"][0]["pearl"],
        9
    );
    let reply = studio.post("/api/undo", json!(null)).await;
    assert_eq!(reply.json()["valid"], true);
}

#[tokio::test]
async fn a_patch_that_cannot_apply_is_refused_and_recorded_nowhere() {
    let studio = served("studio-unappliable", "petit-ete.json");
    let file = std::fs::read(&studio.file).unwrap();
    let log = std::fs::read(sunfold::studio::edit_log::path_for(&studio.file)).unwrap();
    let reply = studio
        .patch(json!([
            {"op": "replace", "path": "/name", "value": "Applied first"},
            {"op": "remove", "path": "/boxes/99"}
        ]))
        .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let not_a_patch = studio.patch(json!({"op": "remove"})).await;
    assert_eq!(not_a_patch.status, StatusCode::BAD_REQUEST);
    let text = format!(
        "{}\n{}\n",
        serde_json::to_string_pretty(&reply.json()).unwrap(),
        serde_json::to_string_pretty(&not_a_patch.json()).unwrap()
    );
    common::snapshots().bind(|| insta::assert_snapshot!("studio__unappliable_patch", text));
    assert_eq!(std::fs::read(&studio.file).unwrap(), file);
    assert_eq!(
        std::fs::read(sunfold::studio::edit_log::path_for(&studio.file)).unwrap(),
        log
    );
    assert_eq!(studio.get("/api/check").await.json()["undo"], 0);
}

/// `sunfold render WHAT FILE -o OUT.svg`'s bytes.
fn rendered(what: &str, file: &Path, test: &str) -> Vec<u8> {
    let out = common::fresh(test, "rendered.svg");
    let (code, _, stderr) =
        common::sunfold(&["render", what, &file.display().to_string(), "-o", &out]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::read(out).unwrap()
}

#[tokio::test]
async fn the_preview_is_the_render_of_the_saved_file_byte_for_byte() {
    let sheet = served("studio-preview-sheet", "62-soleils-d-ete.json");
    sheet
        .patch(json!([{"op": "replace", "path": "/name", "value": "Preview"}]))
        .await;
    let preview = sheet.get("/preview.svg").await;
    assert_eq!(preview.status, StatusCode::OK);
    assert!(preview.body == rendered("sheet", &sheet.file, "studio-preview-sheet"));
    // An invalid edit leaves the saved file, and so the preview, as it was.
    sheet
        .patch(json!([{"op": "replace", "path": "/boxes/0/pearl", "value": 9}]))
        .await;
    assert!(sheet.get("/preview.svg").await.body == preview.body);
    let pdf = sheet.get("/print.pdf").await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert!(pdf.body.starts_with(b"%PDF-"));

    // Cards print on several pages, a file each: page N of the preview is
    // the render's `x-N.svg`, and the preview without a page stacks them
    // for the screen.
    let deck = served("studio-preview-deck", "summertime.json");
    let pages = common::svg_pages(
        "studio-preview-deck",
        &["render", "cards", &deck.file.display().to_string()],
    );
    assert!(pages.len() > 2, "{} pages", pages.len());
    for (i, printed) in pages.iter().enumerate() {
        let page = deck.get(&format!("/preview.svg?page={}", i + 1)).await;
        assert_eq!(page.status, StatusCode::OK);
        assert!(page.body == printed.as_bytes(), "page {}", i + 1);
    }
    let preview = String::from_utf8(deck.get("/preview.svg").await.body).unwrap();
    assert_eq!(preview.matches("<g id=\"page-").count(), pages.len());
    assert_eq!(
        deck.get("/preview.svg?page=99").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        deck.get("/preview.svg?page=0").await.status,
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test]
async fn requests_from_elsewhere_or_without_the_token_are_refused_as_pinned() {
    let studio = served("studio-refusals", "petit-ete.json");
    let get = |uri: &str| Request::builder().method("GET").uri(uri.to_owned());
    let bearer = format!("Bearer {TOKEN}");
    let cases: Vec<(&str, axum::http::request::Builder)> = vec![
        ("no token", get("/api/template").header(header::HOST, HOST)),
        (
            "another token",
            get("/api/template")
                .header(header::HOST, HOST)
                .header(header::AUTHORIZATION, "Bearer guess"),
        ),
        (
            "the token in the query of an API route",
            get(&format!("/api/template?token={TOKEN}")).header(header::HOST, HOST),
        ),
        (
            "a Host by another name (DNS rebinding)",
            get("/api/template")
                .header(header::HOST, "evil.example:8063")
                .header(header::AUTHORIZATION, &bearer),
        ),
        (
            "no Host",
            get("/api/template").header(header::AUTHORIZATION, &bearer),
        ),
        (
            "another port",
            get("/api/template")
                .header(header::HOST, "127.0.0.1:8064")
                .header(header::AUTHORIZATION, &bearer),
        ),
        (
            "an Origin of another site",
            get("/api/template")
                .header(header::HOST, HOST)
                .header(header::ORIGIN, "http://evil.example")
                .header(header::AUTHORIZATION, &bearer),
        ),
        (
            "an Origin of null",
            get("/api/template")
                .header(header::HOST, HOST)
                .header(header::ORIGIN, "null")
                .header(header::AUTHORIZATION, &bearer),
        ),
        (
            "the first page without its token",
            get("/").header(header::HOST, HOST),
        ),
    ];
    let mut text = String::new();
    for (what, request) in cases {
        let request = request.body(Body::empty()).unwrap();
        let reply = studio.send(request).await;
        let body = String::from_utf8(reply.body).unwrap();
        text.push_str(&format!("==== {what}\n{}\n{body}\n\n", reply.status));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("studio__refusals", text));
    // What is let in: the first page by its ?token=, and the studio's
    // own Origin, by name or address.
    let page = studio
        .send(
            get(&format!("/?token={TOKEN}"))
                .header(header::HOST, "localhost:8063")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let own = studio
        .send(
            Served::request("POST", "/api/undo")
                .header(header::ORIGIN, "http://127.0.0.1:8063")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(
        own.status,
        StatusCode::CONFLICT,
        "let in, with nothing to undo"
    );
}

#[tokio::test]
async fn a_studio_opened_again_resumes_exactly_where_its_edits_left_it() {
    let first = served("studio-reopen", "petit-ete.json");
    let file = first.file.clone();
    first
        .patch(json!([{"op": "replace", "path": "/name", "value": "One"}]))
        .await;
    first
        .patch(json!([{"op": "replace", "path": "/boxes/0/pearl", "value": 9}]))
        .await;
    first
        .patch(json!([{"op": "replace", "path": "/name", "value": "Three"}]))
        .await;
    first.post("/api/undo", json!(null)).await;
    let standing = first.get("/api/template").await.json();
    let checked = first.get("/api/check").await.json();
    drop(first);

    let (studio, opening) = Studio::open(&file, &Start::Open).unwrap();
    assert!(
        matches!(
            opening,
            Opening::Resumed {
                edits: 4,
                torn: 0,
                finished: false
            }
        ),
        "{opening:?}"
    );
    let again = reopen_router(file.clone(), studio);
    assert_eq!(again.get("/api/template").await.json(), standing);
    assert_eq!(again.get("/api/check").await.json(), checked);
    assert_eq!(again.post("/api/redo", json!(null)).await.json()["redo"], 0);
    for _ in 0..3 {
        again.post("/api/undo", json!(null)).await;
    }
    assert_eq!(again.on_disk(), read_json(&bundled("petit-ete.json")));
}

#[tokio::test]
async fn a_crash_between_the_edit_log_and_the_file_is_finished_and_a_torn_line_dropped() {
    let first = served("studio-crash", "petit-ete.json");
    let file = first.file.clone();
    let before = std::fs::read(&file).unwrap();
    first
        .patch(json!([{"op": "replace", "path": "/name", "value": "Logged"}]))
        .await;
    drop(first);
    // The edit was logged and synced; the file was not yet written.
    std::fs::write(&file, &before).unwrap();
    // And a line cut short.
    let log = sunfold::studio::edit_log::path_for(&file);
    let mut bytes = std::fs::read(&log).unwrap();
    let cut: &[u8] = b"{\"type\":\"undone\",\"se";
    bytes.extend_from_slice(cut);
    std::fs::write(&log, &bytes).unwrap();
    let (_, opening) = Studio::open(&file, &Start::Open).unwrap();
    assert!(
        matches!(opening, Opening::Resumed { edits: 1, torn, finished: true } if torn == cut.len()),
        "{opening:?}"
    );
    assert_eq!(read_json(&file)["name"], "Logged");
    assert!(std::fs::read(&log).unwrap().ends_with(b"}\n"));
}

#[tokio::test]
async fn a_file_changed_by_hand_sets_its_edit_log_aside_and_starts_anew() {
    let first = served("studio-by-hand", "petit-ete.json");
    let file = first.file.clone();
    first
        .patch(json!([{"op": "replace", "path": "/name", "value": "Edited"}]))
        .await;
    drop(first);
    let mut by_hand = read_json(&file);
    by_hand["name"] = json!("By hand");
    std::fs::write(&file, serde_json::to_string(&by_hand).unwrap()).unwrap();
    let (studio, opening) = Studio::open(&file, &Start::Open).unwrap();
    let Opening::SetAside { old, why } = &opening else {
        panic!("{opening:?}");
    };
    assert_eq!(old.file_name().unwrap(), "mine.json.edits.1.jsonl");
    assert_eq!(
        why,
        "the file was changed since its edit log was last written"
    );
    let first = std::fs::read_to_string(old).unwrap();
    let first: Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(first["template"]["name"], "Petit été");
    assert_eq!(studio.current(), &by_hand);
    let again = reopen_router(file, studio);
    let edits = again.edits();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["template"], by_hand);
    assert_eq!(again.get("/api/check").await.json()["undo"], 0);
}

#[test]
fn from_or_new_onto_a_file_that_exists_is_refused_naming_it() {
    let file = PathBuf::from(common::fresh("studio-exists", "there.json"));
    std::fs::write(&file, "{}").unwrap();
    let refused = Studio::open(&file, &Start::From(bundled("petit-ete.json")));
    let Err(error @ StudioError::Exists { .. }) = refused else {
        panic!("expected a refusal");
    };
    assert!(error.to_string().starts_with(&file.display().to_string()));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{}");
    let shown = file.display().to_string();
    let (code, stdout, stderr) = common::sunfold(&["studio", &shown, "--new", "soleils"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr.replace(&shown, "[file]"),
        "sunfold: [file]: expected a new file to create with --from or --new, but found one already there; open it without them, or choose another name\n"
    );
}

#[test]
fn a_new_sheet_and_a_new_deck_pass_template_check() {
    for (game, name) in [("soleils", "sheet.json"), ("summertime", "deck.json")] {
        let file = PathBuf::from(common::fresh("studio-new", name));
        let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
        let (studio, _) = Studio::open(
            &file,
            &Start::New(match game {
                "soleils" => sunfold::log::GameKind::Soleils,
                _ => sunfold::log::GameKind::Summertime,
            }),
        )
        .unwrap();
        assert!(studio.checked().valid, "{game}: {:?}", studio.checked());
        let (code, _, stderr) =
            common::sunfold(&["template", "check", &file.display().to_string()]);
        assert_eq!(code, 0, "{game}: {stderr}");
    }
}

#[tokio::test]
async fn the_preview_takes_renders_switches_and_gives_the_same_bytes() {
    let test = "studio-preview-switches";
    let sheet = served(test, "62-soleils-d-ete.json");
    let preview = sheet
        .get("/preview.svg?paper=letter&per_page=2&names=Ann,Bob%20Lee")
        .await;
    assert_eq!(preview.status, StatusCode::OK);
    let out = common::fresh(test, "rendered.svg");
    let file = sheet.file.display().to_string();
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "sheet",
        &file,
        "--paper",
        "letter",
        "--per-page",
        "2",
        "--names",
        "Ann,Bob Lee",
        "-o",
        &out,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(preview.body == std::fs::read(&out).unwrap());
    let large = sheet.get("/print.pdf?large_print=true").await;
    assert_eq!(large.status, StatusCode::OK);
    assert!(large.body.starts_with(b"%PDF-"));
}

#[tokio::test]
async fn print_switches_and_figures_settings_that_cannot_be_are_refused_as_pinned() {
    let sheet = served("studio-switch-refusals", "petit-ete.json");
    let deck = served("studio-switch-refusals-deck", "summertime.json");
    let mut text = String::new();
    for uri in [
        "/preview.svg?page=0",
        "/preview.svg?paper=a3",
        "/preview.svg?per_page=3",
        "/preview.svg?large_print=true&per_page=2",
        "/preview.svg?large_print=true&paper=a5",
        "/preview.svg?names=Ann,,Bob",
        "/preview.svg?colour=red",
        "/print.pdf?per_page=four",
        "/card.svg?card=0",
        "/card.svg",
    ] {
        let reply = sheet.get(uri).await;
        text.push_str(&format!(
            "==== sheet {uri}\n{}\n{}\n\n",
            reply.status,
            String::from_utf8(reply.body).unwrap()
        ));
    }
    for uri in ["/preview.svg?names=Ann", "/card.svg?card=34"] {
        let reply = deck.get(uri).await;
        text.push_str(&format!(
            "==== deck {uri}\n{}\n{}\n\n",
            reply.status,
            String::from_utf8(reply.body).unwrap()
        ));
    }
    for settings in [
        json!({"bot": "clever", "games": 300}),
        json!({"bot": "greedy", "games": 0}),
        json!({"bot": "greedy", "games": 100000}),
        json!({"bot": "greedy"}),
        json!({"bot": "greedy", "games": 10, "seed": 3}),
    ] {
        let reply = sheet.post("/api/figures", settings.clone()).await;
        text.push_str(&format!(
            "==== figures {settings}\n{}\n{}\n\n",
            reply.status,
            String::from_utf8(reply.body).unwrap()
        ));
    }
    common::snapshots()
        .bind(|| insta::assert_snapshot!("studio__print_and_figures_refusals", text));
}

#[tokio::test]
async fn the_figures_compare_an_edit_with_the_file_as_opened() {
    let sheet = served("studio-figures", "62-soleils-d-ete.json");
    sheet
        .patch(json!([{"op": "replace", "path": "/end/rounds", "value": 12}]))
        .await;
    let chosen = sheet
        .post("/api/figures", json!({"bot": "random", "games": 40}))
        .await;
    assert_eq!(chosen.status, StatusCode::OK);
    // Played on a thread of its own: looked at until done.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let figures = loop {
        let figures = sheet.get("/api/figures").await.json();
        if figures["running"] == json!(false) && figures["played"] == json!(40) {
            break figures;
        }
        assert!(std::time::Instant::now() < deadline, "{figures}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(figures["settings"], json!({"bot": "random", "games": 40}));
    assert_eq!(figures["changed_since_opened"], json!(true));
    let rounds = figures["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "rounds")
        .expect("the game's length")
        .clone();
    // At most 12 rounds now, against the bundled 20-round sheet's.
    assert!(rounds["now"]["estimate"].as_f64().unwrap() <= 12.0);
    let change = rounds["since_opened"]["difference"]["estimate"]
        .as_f64()
        .unwrap();
    assert!(change < 0.0, "{rounds}");
    assert_eq!(rounds["since_opened"], rounds["this_edit"]);
}

#[tokio::test]
async fn a_card_is_drawn_as_it_prints_while_its_deck_has_problems_or_says_why_not() {
    let deck = served("studio-card-alone", "summertime.json");
    let first = deck.get("/card.svg?card=0").await;
    assert_eq!(first.status, StatusCode::OK);
    // A 35th card: the deck counts one too many, and is not saved.
    let card = json!({"id": "new-1", "name": "New card", "picture": "ocean", "points": 3,
        "needs": ["beach"], "cost": ["shell", "shell", "flower"]});
    let reply = deck
        .patch(json!([{"op": "add", "path": "/cards/-", "value": card}]))
        .await;
    assert_eq!(reply.json()["valid"], false);
    let face = deck.get("/card.svg?card=34").await;
    assert_eq!(face.status, StatusCode::OK);
    let face = String::from_utf8(face.body).unwrap();
    assert!(
        face.contains("New card") && face.contains("next to beach"),
        "{face}"
    );
    // Every other card is drawn as before, byte for byte.
    assert_eq!(deck.get("/card.svg?card=0").await.body, first.body);
    // A card that cannot be drawn says why, at its place in the deck;
    // the others are still drawn.
    let reply = deck
        .patch(json!([
            {"op": "replace", "path": "/cards/34/picture", "value": "moon"},
            {"op": "replace", "path": "/cards/33/multiplier", "value": "many"}
        ]))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let mut text = String::new();
    for card in [34, 33, 35] {
        let reply = deck.get(&format!("/card.svg?card={card}")).await;
        text.push_str(&format!(
            "==== card {card}\n{}\n{}\n\n",
            reply.status,
            String::from_utf8(reply.body).unwrap()
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("studio__undrawable_cards", text));
    assert_eq!(deck.get("/card.svg?card=0").await.body, first.body);
}

impl Served {
    async fn put(&self, uri: &str, body: &str) -> Reply {
        self.send(
            Self::request("PUT", uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_owned()))
                .unwrap(),
        )
        .await
    }

    /// The figures once `games` games of the run are played.
    async fn played(&self, games: u64) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        loop {
            let figures = self.get("/api/figures").await.json();
            if figures["running"] == json!(false) && figures["played"] == json!(games) {
                return figures;
            }
            assert!(std::time::Instant::now() < deadline, "{figures}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test]
async fn rule_options_set_what_the_quick_simulation_plays_under() {
    let sheet = served("studio-options", "62-soleils-d-ete.json");
    let defaults = json!({"sun_bonus": "reach_or_pass", "skip_placement": "voluntary",
        "sailboats": "symbol", "solo": false});
    assert_eq!(sheet.get("/api/options").await.json(), defaults);
    sheet
        .post("/api/figures", json!({"bot": "greedy", "games": 40}))
        .await;
    let before = sheet.played(40).await;
    assert_eq!(before["options"], defaults);
    let run = before["run"].as_u64().unwrap();

    // Exact sun bonuses, for the file as opened and as edited alike: the
    // run starts again under them, and scores fewer thresholds.
    let exact = json!({"sun_bonus": "exact", "skip_placement": "voluntary",
        "sailboats": "symbol", "solo": false});
    let reply = sheet.put("/api/options", &exact.to_string()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json());
    assert_eq!(reply.json()["options"], exact);
    assert!(reply.json()["run"].as_u64().unwrap() > run);
    assert_eq!(sheet.get("/api/options").await.json(), exact);
    let after = sheet.played(40).await;
    assert_eq!(after["options"], exact);
    assert_eq!(after["settings"], json!({"bot": "greedy", "games": 40}));
    let sun = |figures: &Value| {
        figures["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == "source.sun")
            .unwrap_or_else(|| panic!("no sun figure in {figures}"))["now"]["estimate"]
            .as_f64()
            .unwrap()
    };
    assert!(
        sun(&after) < sun(&before),
        "{} then {}",
        sun(&before),
        sun(&after)
    );

    // An edit keeps the options chosen.
    sheet
        .patch(json!([{"op": "replace", "path": "/end/rounds", "value": 12}]))
        .await;
    let edited = sheet.played(40).await;
    assert_eq!(edited["options"], exact);
    assert_eq!(edited["edit_compared"], json!(true));

    // Malformed options, and options for a deck, are refused.
    let deck = served("studio-options-deck", "summertime.json");
    let mut text = String::new();
    for (who, body) in [
        ("sheet", r#"{"sun_bonus": "exact"}"#),
        (
            "sheet",
            r#"{"sun_bonus": "sometimes", "skip_placement": "voluntary", "sailboats": "symbol", "solo": false}"#,
        ),
        (
            "sheet",
            r#"{"sun_bonus": "exact", "skip_placement": "voluntary", "sailboats": "symbol", "solo": false, "dice": 3}"#,
        ),
        ("sheet", "exact"),
        ("deck", &defaults.to_string()),
    ] {
        let served = if who == "deck" { &deck } else { &sheet };
        let reply = served.put("/api/options", body).await;
        assert!(reply.status.is_client_error(), "{body}: {}", reply.status);
        text.push_str(&format!(
            "==== {who} {body}\n{}\n{}\n\n",
            reply.status,
            String::from_utf8(reply.body).unwrap()
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("studio__options_refusals", text));
    assert_eq!(sheet.get("/api/options").await.json(), exact);
}
