//! The way in by a slip's short code, `/join`, tested in-process through
//! the table's router (as tests/it/serve/serve_app.rs does), with the peer's
//! address given as the edge gives it and the clock of the count of wrong
//! tries set by the test, so that no test waits a minute.

use crate::common;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sunfold::log::GameKind;
use sunfold::serve::join::{Guesses, Join, grouped};
use sunfold::serve::{Tokens, app_with};
use sunfold::table::SystemClock;
use tower::ServiceExt;

/// A table served in-process, its clock for the tries, and what it told.
struct Table {
    tokens: Tokens,
    router: axum::Router,
    offset: Arc<Mutex<Duration>>,
    said: Arc<Mutex<Vec<String>>>,
}

/// An answer: its status, headers and body.
struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Table {
    fn new(test: &str) -> Table {
        let log = PathBuf::from(common::fresh(test, "match.jsonl"));
        let replay = common::repo().join("replays/soleils-2p-round-limit.jsonl");
        let text = std::fs::read_to_string(replay).unwrap();
        std::fs::write(&log, format!("{}\n", text.lines().next().unwrap())).unwrap();
        let start: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let names: Vec<String> = (start["players"].as_array().unwrap().iter())
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        let tokens = Tokens::new(&names).unwrap();
        let begun = Instant::now();
        let offset = Arc::new(Mutex::new(Duration::ZERO));
        let read = offset.clone();
        let said = Arc::new(Mutex::new(Vec::new()));
        let heard = said.clone();
        let join = Join {
            guesses: Arc::new(Guesses::with_clock(Arc::new(move || {
                begun + *read.lock().unwrap()
            }))),
            report: Arc::new(move |line: String| heard.lock().unwrap().push(line)),
        };
        let clock = Arc::new(SystemClock);
        let router = app_with(log, GameKind::Soleils, tokens.clone(), clock, join, None);
        Table {
            tokens,
            router,
            offset,
            said,
        }
    }

    fn code(&self, who: &str) -> String {
        let token = match who {
            "referee" => &self.tokens.referee,
            player => &self.tokens.players[player],
        };
        self.tokens.code_of(token).unwrap().to_owned()
    }

    fn at(&self, seconds: u64) {
        *self.offset.lock().unwrap() = Duration::from_secs(seconds);
    }

    async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// `POST /join` of the form body `form` from `peer`.
    async fn join(&self, peer: &str, form: &str) -> Answer {
        let mut request = Request::post("/join")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form.to_owned()))
            .unwrap();
        let peer: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(peer));
        self.send(request).await
    }
}

const PHONE: &str = "192.168.1.31:50123";

#[tokio::test]
async fn the_join_page_is_a_form_without_script_under_a_strict_policy() {
    let table = Table::new("join-page");
    let answer = table
        .send(Request::get("/join").body(Body::empty()).unwrap())
        .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer
            .text
            .contains(r#"<form method="post" action="join">"#)
    );
    assert!(answer.text.contains(r#"name="code""#));
    assert!(!answer.text.contains("<script"));
    let csp = answer.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(
        csp.starts_with("default-src 'none'; style-src 'sha256-"),
        "{csp}"
    );
    assert!(csp.contains("form-action 'self'"), "{csp}");
    assert!(!csp.contains("script-src"), "{csp}");
    assert_eq!(answer.headers[header::X_FRAME_OPTIONS], "DENY");
    assert_eq!(answer.headers[header::CACHE_CONTROL], "no-store");
    assert_eq!(answer.headers[header::REFERRER_POLICY], "no-referrer");
}

#[tokio::test]
async fn a_right_code_leads_to_its_seat_s_link_however_it_is_typed() {
    let table = Table::new("join-right");
    assert_eq!(table.tokens.players.len(), 2);
    for who in ["Ann", "Bob", "referee"] {
        let token = match who {
            "referee" => table.tokens.referee.clone(),
            player => table.tokens.players[player].clone(),
        };
        let code = table.code(who);
        let typed = format!("code={}", grouped(&code).to_lowercase().replace('-', "+-+"));
        let answer = table.join(PHONE, &typed).await;
        assert_eq!(
            answer.status,
            StatusCode::SEE_OTHER,
            "{who}: {}",
            answer.text
        );
        assert_eq!(
            answer.headers[header::LOCATION],
            format!("./#token={token}").as_str()
        );
        assert_eq!(answer.headers[header::CACHE_CONTROL], "no-store");
    }
    assert!(table.said.lock().unwrap().is_empty());
}

#[tokio::test]
async fn ten_wrong_codes_then_even_a_right_one_waits_until_the_minute_is_over() {
    let table = Table::new("join-limit");
    let name = table.tokens.players.keys().next().unwrap().clone();
    let right = format!("code={}", grouped(&table.code(&name)));
    let wrong = if table.code(&name) == "0000000000" {
        "code=00000-00001"
    } else {
        "code=00000-00000"
    };
    let mut messages = String::new();
    for (what, form) in [
        ("a wrong code", wrong),
        ("a code too short", "code=7KQ4"),
        ("no code", "other=1"),
    ] {
        let answer = table.join(PHONE, form).await;
        assert_eq!(
            answer.headers[header::CONTENT_TYPE],
            "text/plain; charset=utf-8"
        );
        messages.push_str(&format!(
            "{what}: {} {}",
            answer.status.as_u16(),
            answer.text
        ));
    }
    for _ in 3..10 {
        let answer = table.join(PHONE, wrong).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN);
    }
    table.at(15);
    // The eleventh try within the minute: refused, right as it is.
    let answer = table.join(PHONE, &right).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(answer.headers[header::RETRY_AFTER], "45");
    messages.push_str(&format!(
        "the eleventh try: {} {}",
        answer.status.as_u16(),
        answer.text
    ));
    let answer = table.join(PHONE, wrong).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    // Another phone is not held up.
    let other = table.join("192.168.1.32:40000", &right).await;
    assert_eq!(other.status, StatusCode::SEE_OTHER);
    // Told once on the server's report.
    let said = table.said.lock().unwrap().clone();
    assert_eq!(said.len(), 1, "{said:?}");
    messages.push_str(&format!("the server's report: {}\n", said[0]));
    table.at(59);
    let answer = table.join(PHONE, &right).await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(answer.headers[header::RETRY_AFTER], "1");
    // A minute after the first wrong try, one more try may be made.
    table.at(60);
    let answer = table.join(PHONE, &right).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text);
    common::snapshots().bind(|| insta::assert_snapshot!("serve_join_messages", messages));
}

/// The binary over a real socket: the edge gives each request its peer's
/// address, so that the count and the server's report name it.
#[test]
fn the_served_table_counts_wrong_codes_by_the_connection_s_address() {
    use std::io::BufRead;
    let log = common::fresh("join-served", "table.jsonl");
    let (code, _, err) = common::sunfold(&["new", "soleils", &log, "--players", "Ann,Bob"]);
    assert_eq!(code, 0, "{err}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(["serve", &log, "--listen", "127.0.0.1:0", "--format", "json"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let links: serde_json::Value = serde_json::from_str(&first).unwrap();
    let base = format!("http://{}", links["listen"].as_str().unwrap());
    let tokens: Tokens =
        serde_json::from_str(&std::fs::read_to_string(format!("{log}.tokens")).unwrap()).unwrap();
    let right = grouped(tokens.code_of(&tokens.players["Ann"]).unwrap());
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into();
    let post = |code: &str| {
        let response = agent
            .post(format!("{base}/join"))
            .header("content-type", "application/x-www-form-urlencoded")
            .send(format!("code={code}"))
            .unwrap();
        let location = response.headers().get("location").cloned();
        (response.status().as_u16(), location)
    };
    let (status, location) = post(&right);
    assert_eq!(status, 303);
    let token = &tokens.players["Ann"];
    assert_eq!(location.unwrap(), format!("./#token={token}").as_str());
    for _ in 0..10 {
        assert_eq!(post("00000-00000").0, 403);
    }
    assert_eq!(post(&right).0, 429);
    let _ = child.kill();
    let _ = child.wait();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.contains("refused codes from 127.0.0.1: 10 wrong join codes within 60 s"),
        "{stderr}"
    );
}
