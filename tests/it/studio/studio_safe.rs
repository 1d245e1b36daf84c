//! No studio edit lost or misapplied: an edit made against a version that
//! no longer stands (a stale tab) is refused; a second studio on the same
//! file is refused, naming the first; a hand edit of the file while the
//! studio runs is kept, and the edit refused; a patch that changes nothing
//! is no edit; a reload comes back by the studio's cookie; the PDF keeps
//! the template's name.

use crate::common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use sunfold::studio::{Access, Start, Studio, StudioError, app_reporting};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8063";
const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// A studio in-process, and the lines it told the terminal.
pub(super) struct Served {
    pub(super) file: PathBuf,
    router: axum::Router,
    told: Arc<Mutex<Vec<String>>>,
}

pub(super) struct Reply {
    pub(super) status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Reply {
    pub(super) fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    pub(super) fn text(&self) -> String {
        String::from_utf8(self.body.clone()).unwrap()
    }

    fn header(&self, name: header::HeaderName) -> String {
        let value = self.headers.get(name).expect("the header");
        value.to_str().unwrap().to_owned()
    }

    /// The version in the reply's ETag.
    pub(super) fn version(&self) -> String {
        self.header(header::ETAG).trim_matches('"').to_owned()
    }
}

pub(super) fn bundled(name: &str) -> PathBuf {
    common::repo().join("sheet-templates").join(name)
}

/// A new file in the test's folder, made from the bundled `from`, served.
pub(super) fn served(test: &str, from: &str) -> Served {
    let file = PathBuf::from(common::fresh(test, "mine.json"));
    let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
    let (studio, _) = Studio::open(&file, &Start::From(bundled(from))).unwrap();
    let told = Arc::new(Mutex::new(Vec::new()));
    let lines = told.clone();
    let report = Arc::new(move |line: String| lines.lock().unwrap().push(line));
    let access = Access {
        listen: HOST.parse().unwrap(),
        token: TOKEN.to_owned(),
    };
    Served {
        file,
        router: app_reporting(studio, access, report),
        told,
    }
}

pub(super) fn request(method: &str, uri: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
}

impl Served {
    pub(super) async fn send(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            headers,
            body: body.to_vec(),
        }
    }

    pub(super) async fn get(&self, uri: &str) -> Reply {
        self.send(request("GET", uri).body(Body::empty()).unwrap())
            .await
    }

    /// A patch made against `version`, when it names one.
    pub(super) async fn patch(&self, patch: Value, version: Option<&str>) -> Reply {
        let mut built =
            request("POST", "/api/patch").header(header::CONTENT_TYPE, "application/json");
        if let Some(version) = version {
            built = built.header(header::IF_MATCH, format!("\"{version}\""));
        }
        self.send(built.body(Body::from(patch.to_string())).unwrap())
            .await
    }

    pub(super) async fn step(&self, what: &str, version: &str) -> Reply {
        let built = request("POST", &format!("/api/{what}"))
            .header(header::IF_MATCH, format!("\"{version}\""));
        self.send(built.body(Body::empty()).unwrap()).await
    }

    pub(super) fn on_disk(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.file).unwrap()).unwrap()
    }

    pub(super) fn edits(&self) -> Vec<Value> {
        let text =
            std::fs::read_to_string(sunfold::studio::edit_log::path_for(&self.file)).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// `value` fits the schema `sunfold schema` gives for `kind`.
fn fits(kind: sunfold::schema::SchemaKind, value: &Value) {
    let schema: Value = serde_json::from_str(&sunfold::schema::schema_text(kind)).unwrap();
    assert_eq!(
        common::schema::breaks(&schema, &schema, value, kind.name()),
        None,
        "{value}"
    );
}

fn index_of(template: &Value, id: &str) -> usize {
    let boxes = template["boxes"].as_array().unwrap();
    boxes.iter().position(|b| b["id"] == id).unwrap()
}

fn box_named<'t>(template: &'t Value, id: &str) -> &'t Value {
    &template["boxes"][index_of(template, id)]
}

/// Tab B selects K14; tab A deletes K11, which moves every later box one
/// index down; tab B types 1. Made against the version tab B saw, the
/// edit is refused, and K21 (where K14's index now points) is untouched.
#[tokio::test]
async fn an_edit_from_a_stale_tab_is_refused_and_touches_no_other_box() {
    let studio = served("studio-stale-tab", "petit-ete.json");
    let tab_a = studio.get("/api/template").await;
    let tab_b = studio.get("/api/template").await;
    assert_eq!(tab_a.status, StatusCode::OK);
    let seen = tab_b.json();
    let k14 = index_of(&seen, "K14");
    let k21_before = box_named(&seen, "K21").clone();
    let k14_before = box_named(&seen, "K14").clone();

    let k11 = index_of(&tab_a.json(), "K11");
    let deleted = studio
        .patch(
            json!([{"op": "remove", "path": format!("/boxes/{k11}")}]),
            Some(&tab_a.version()),
        )
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text());
    let answer = deleted.json();
    assert_eq!(answer["version"], json!(deleted.version()));
    assert_ne!(deleted.version(), tab_b.version());
    assert_eq!(answer["changed"], true);

    let stale = studio
        .patch(
            json!([{"op": "replace", "path": format!("/boxes/{k14}/pearl"), "value": 1}]),
            Some(&tab_b.version()),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    let message = stale.json()["error"]
        .as_str()
        .unwrap()
        .replace(&tab_b.version(), "[seen]")
        .replace(&deleted.version(), "[current]");
    common::snapshots().bind(|| insta::assert_snapshot!("studio__stale_tab", message));
    // Removing K11 leaves constraints naming it: the file keeps its last
    // valid version, and the template as it stands is what counts.
    let same = studio.get("/api/template").await;
    let now = same.json();
    assert_eq!(box_named(&now, "K21"), &k21_before, "K21 untouched");
    assert_eq!(box_named(&now, "K14"), &k14_before, "K14 untouched too");
    assert_eq!(same.version(), deleted.version());
    assert_eq!(
        studio.edits().len(),
        2,
        "the refused edit is logged nowhere"
    );
    use sunfold::schema::SchemaKind;
    fits(SchemaKind::StudioStanding, &answer);
    fits(
        SchemaKind::StudioStanding,
        &studio.get("/api/check").await.json(),
    );
    fits(SchemaKind::ApiRefusal, &stale.json());
    fits(
        SchemaKind::StudioFigures,
        &studio.get("/api/figures").await.json(),
    );

    // Undo and redo from the stale tab are refused alike; from the tab
    // that stands, they go through.
    let refused = studio.step("undo", &tab_b.version()).await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let undone = studio.step("undo", &deleted.version()).await;
    assert_eq!(undone.status, StatusCode::OK);
    assert_eq!(undone.json()["version"], json!(tab_b.version()));
    // No If-Match, as scripts send: taken against whatever stands.
    let scripted = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "Mine"}]),
            None,
        )
        .await;
    assert_eq!(scripted.status, StatusCode::OK);
}

#[tokio::test]
async fn a_patch_that_changes_nothing_is_not_an_edit() {
    let studio = served("studio-no-change", "petit-ete.json");
    let before = studio.get("/api/check").await.json();
    for patch in [
        json!([]),
        json!([{"op": "replace", "path": "/name", "value": "Petit été"}]),
        json!([{"op": "test", "path": "/name", "value": "Petit été"}]),
    ] {
        let reply = studio
            .patch(patch.clone(), Some(before["version"].as_str().unwrap()))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{patch}");
        let answer = reply.json();
        assert_eq!(answer["changed"], false, "{patch}");
        assert_eq!(answer["undo"], 0, "no undo step: {patch}");
        assert_eq!(answer["version"], before["version"]);
        assert_eq!(studio.edits().len(), 1, "not logged: {patch}");
    }
    let refused = studio.get("/api/check").await;
    assert_eq!(refused.json()["undo"], 0);
}

#[test]
fn a_second_studio_on_the_same_file_is_refused_naming_the_first() {
    let file = PathBuf::from(common::fresh("studio-two", "mine.json"));
    let _ = std::fs::remove_file(sunfold::studio::edit_log::path_for(&file));
    let (mut first, _) = Studio::open(&file, &Start::From(bundled("petit-ete.json"))).unwrap();
    let refused = Studio::open(&file, &Start::Open);
    assert!(
        matches!(&refused, Err(StudioError::Busy { address: None, .. })),
        "before the first listens: {:?}",
        refused.err()
    );
    first.announce("http://127.0.0.1:8063/").unwrap();
    let Err(error) = Studio::open(&file, &Start::Open) else {
        panic!("a second studio opened the file");
    };
    let message = error
        .to_string()
        .replace(&file.display().to_string(), "[file]");
    common::snapshots().bind(|| insta::assert_snapshot!("studio__second_studio", message));
    drop(first);
    let (again, _) = Studio::open(&file, &Start::Open).unwrap();
    drop(again);
}

#[test]
fn a_second_sunfold_studio_on_the_same_file_exits_non_zero_naming_the_first() {
    use std::io::BufRead;
    let file = PathBuf::from(common::fresh("studio-two-cli", "mine.json"));
    let shown = file.display().to_string();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args([
            "studio",
            &shown,
            "--new",
            "soleils",
            "--listen",
            "127.0.0.1:0",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = common::driver::Killed(child);
    let mut out = std::io::BufReader::new(first.0.stdout.take().unwrap());
    let mut url = String::new();
    out.read_line(&mut url).unwrap();
    let address = url.trim().split("?token=").next().unwrap().to_owned();
    let (code, stdout, stderr) = common::sunfold(&["studio", &shown, "--listen", "127.0.0.1:0"]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    let lock = sunfold::studio::lock_path(&file).display().to_string();
    assert_eq!(
        stderr
            .replace(&lock, "[lock]")
            .replace(&shown, "[file]")
            .replace(&address, "[address]"),
        "sunfold: [file]: expected a file no other studio is editing, but found one editing it at [address] (it holds [lock]); use that studio, or stop it first\n"
    );
    assert!(!stderr.contains(url.trim()), "never the token");
    // Nor does template import rewrite the file under the studio.
    let rows = file.with_file_name("boxes.csv").display().to_string();
    let (code, _, stderr) = common::sunfold(&["template", "export", &shown, "--csv", &rows]);
    assert_eq!(code, 0, "{stderr}");
    let before = std::fs::read(&file).unwrap();
    let (code, _, stderr) = common::sunfold(&["template", "import", &rows, "--into", &shown]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("expected a file no other studio is editing"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

/// The file's text as a person would save it.
fn write_by_hand(file: &Path, value: &Value) {
    std::fs::write(file, serde_json::to_string(value).unwrap()).unwrap();
}

#[tokio::test]
async fn a_hand_edit_while_the_studio_runs_is_kept_and_the_edit_refused() {
    let studio = served("studio-hand-edit", "petit-ete.json");
    let first = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "Studio"}]),
            None,
        )
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let mut by_hand = studio.on_disk();
    by_hand["name"] = json!("By hand");
    write_by_hand(&studio.file, &by_hand);

    let refused = studio
        .patch(
            json!([{"op": "replace", "path": "/boxes/0/pearl", "value": 2}]),
            Some(&first.version()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let shown = studio.file.display().to_string();
    let aside = studio.file.with_file_name("mine.json.edits.1.jsonl");
    let message = refused.json()["error"]
        .as_str()
        .unwrap()
        .replace(&aside.display().to_string(), "[aside]")
        .replace(&shown, "[file]");
    common::snapshots().bind(|| insta::assert_snapshot!("studio__hand_edit", message));
    assert_eq!(studio.on_disk(), by_hand, "the hand edit kept");
    let told = studio.told.lock().unwrap().clone();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].starts_with(&shown), "{told:?}");

    // The studio now edits the file as it is, under a new edit log; the
    // old one is kept aside whole.
    let standing = studio.get("/api/template").await;
    assert_eq!(standing.json(), by_hand);
    let old: Vec<Value> = std::fs::read_to_string(&aside)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(old.len(), 2);
    let edits = studio.edits();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["template"], by_hand);
    let next = studio
        .patch(
            json!([{"op": "replace", "path": "/boxes/0/pearl", "value": 2}]),
            Some(&standing.version()),
        )
        .await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text());
    assert_eq!(next.json()["undo"], 1, "the hand edit is where undo stops");
    let seqs: Vec<Value> = studio.edits().iter().map(|l| l["seq"].clone()).collect();
    assert_eq!(seqs, [Value::Null, json!(1)]);
    assert_eq!(studio.on_disk()["name"], "By hand");

    // A file made into something the studio cannot edit is left alone,
    // and every edit refused until it holds a template again.
    std::fs::write(&studio.file, "{ half a file").unwrap();
    let refused = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "X"}]),
            None,
        )
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    let message = refused.json()["error"]
        .as_str()
        .unwrap()
        .replace(&shown, "[file]");
    common::snapshots().bind(|| insta::assert_snapshot!("studio__hand_edit_unreadable", message));
    assert_eq!(
        std::fs::read_to_string(&studio.file).unwrap(),
        "{ half a file"
    );
    write_by_hand(&studio.file, &by_hand);
    let refused = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "X"}]),
            None,
        )
        .await;
    assert_eq!(
        refused.status,
        StatusCode::CONFLICT,
        "adopted, and this edit not applied"
    );
    let applied = studio
        .patch(
            json!([{"op": "replace", "path": "/name", "value": "X"}]),
            None,
        )
        .await;
    assert_eq!(applied.status, StatusCode::OK);
    assert_eq!(studio.on_disk()["name"], "X");
    assert_eq!(studio.told.lock().unwrap().len(), 3);
}

#[tokio::test]
async fn a_reload_comes_back_by_the_studios_cookie_and_a_bare_address_says_what_to_open() {
    let studio = served("studio-cookie", "petit-ete.json");
    let first = studio
        .send(
            Request::get(format!("/?token={TOKEN}"))
                .header(header::HOST, HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let cookie = first.header(header::SET_COOKIE);
    assert_eq!(
        cookie,
        format!("sunfold-studio-8063={TOKEN}; HttpOnly; SameSite=Strict; Path=/")
    );
    let sent = cookie.split(';').next().unwrap().to_owned();
    // The reload: the address without its token, with the cookie.
    for path in ["/", "/api/template", "/api/check", "/preview.svg"] {
        let again = studio
            .send(
                Request::get(path)
                    .header(header::HOST, HOST)
                    .header(header::COOKIE, format!("other=1; {sent}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(again.status, StatusCode::OK, "{path}");
    }
    // Another port's cookie, or another token, lets nothing in.
    for cookie in [
        format!("sunfold-studio-8064={TOKEN}"),
        "sunfold-studio-8063=guess".to_owned(),
    ] {
        let refused = studio
            .send(
                Request::get("/api/template")
                    .header(header::HOST, HOST)
                    .header(header::COOKIE, cookie.clone())
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{cookie}");
    }
    let bare = studio
        .send(
            Request::get("/")
                .header(header::HOST, HOST)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(bare.status, StatusCode::UNAUTHORIZED);
    assert!(bare.header(header::CONTENT_TYPE).starts_with("text/html"));
    assert!(
        bare.text().contains("Open the address the studio printed"),
        "{}",
        bare.text()
    );
    assert!(bare.headers.get(header::SET_COOKIE).is_none());
}

#[tokio::test]
async fn the_pdf_is_saved_under_the_templates_name() {
    let studio = served("studio-pdf-name", "petit-ete.json");
    let reply = studio.get("/print.pdf").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.header(header::CONTENT_DISPOSITION),
        "attachment; filename=\"Petit ete.pdf\"; filename*=UTF-8''Petit%20%C3%A9t%C3%A9.pdf"
    );
}

/// The bundled sheets' notes give their number of boxes right.
#[test]
fn the_bundled_sheets_notes_count_their_boxes() {
    for file in common::files(&common::repo().join("sheet-templates"), "json") {
        let template: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let Some(notes) = template["notes"].as_str() else {
            continue;
        };
        let words: Vec<&str> = notes.split_whitespace().collect();
        for pair in words.windows(2) {
            if pair[1].trim_end_matches([',', '.', ';']) == "boxes"
                && let Ok(count) = pair[0].parse::<usize>()
            {
                let boxes = template["boxes"].as_array().map_or(0, Vec::len);
                assert_eq!(count, boxes, "{}: {notes}", file.display());
            }
        }
    }
}
