//! The table server's router, tested in-process as axum's testing example
//! does: each request goes to `sunfold::serve::app` through
//! `tower::ServiceExt::oneshot`, with no socket and no child process. The
//! statuses, the bodies and who may see and post what live here;
//! tests/it/serve/loopback.rs keeps the tests that prove the binary over real HTTP.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use sunfold::log::GameKind;
use sunfold::serve::{Tokens, app};
use tower::ServiceExt;

/// A table served in-process: its log, its tokens and its router.
struct Table {
    log: PathBuf,
    tokens: Tokens,
    router: axum::Router,
}

/// An answer: its status, headers and body as JSON (or `null`).
struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    json: Value,
}

impl Table {
    /// The table of a fresh log holding `start`, a start line, at
    /// `test`'s folder.
    fn new(test: &str, game: GameKind, start: &str) -> Table {
        let log = PathBuf::from(common::fresh(test, "match.jsonl"));
        std::fs::write(&log, format!("{start}\n")).unwrap();
        let names: Vec<String> = serde_json::from_str::<Value>(start).unwrap()["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_owned())
            .collect();
        let tokens = Tokens::new(&names).unwrap();
        let router = app(log.clone(), game, tokens.clone());
        Table {
            log,
            tokens,
            router,
        }
    }

    /// The table of a golden replay's first line.
    fn golden(test: &str, name: &str) -> Table {
        let text = std::fs::read_to_string(common::repo().join("replays").join(name)).unwrap();
        let game = if name.starts_with("summertime") {
            GameKind::Summertime
        } else {
            GameKind::Soleils
        };
        Table::new(test, game, text.lines().next().unwrap())
    }

    fn player(&self, name: &str) -> String {
        self.tokens.players[name].clone()
    }

    async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            json,
        }
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut request = Request::get(path);
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        self.send(request.body(Body::empty()).unwrap()).await
    }

    async fn post(&self, token: Option<&str>, body: impl Into<Vec<u8>>) -> Answer {
        let mut request = Request::post("/api/events");
        if let Some(token) = token {
            request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        self.send(request.body(Body::from(body.into())).unwrap())
            .await
    }

    /// Posts `body` and expects `status`, a JSON body that says why, and
    /// the log's bytes unchanged.
    async fn refused(&self, token: Option<&str>, body: &[u8], status: u16, what: &str) -> Answer {
        let before = std::fs::read(&self.log).unwrap();
        let answer = self.post(token, body.to_vec()).await;
        assert_eq!(answer.status.as_u16(), status, "{what}: {}", answer.json);
        assert_eq!(
            std::fs::read(&self.log).unwrap(),
            before,
            "{what}: the log changed"
        );
        assert_eq!(answer.json["status"], status, "{what}: {}", answer.json);
        assert!(
            answer.json["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: {}",
            answer.json
        );
        answer
    }

    async fn accepted(&self, token: &str, body: &str) -> Value {
        let answer = self.post(Some(token), body).await;
        assert_eq!(answer.status, StatusCode::OK, "{body}: {}", answer.json);
        answer.json
    }
}

fn assert_replays(path: &Path) {
    let (code, _, err) = common::sunfold(&["replay", &path.display().to_string()]);
    assert_eq!(code, 0, "{err}");
}

#[tokio::test]
async fn every_refusal_has_its_status_and_leaves_the_log_unchanged() {
    // Ann and Bob; the golden game's first roll is 5, 6, 2.
    let table = Table::golden("app-refusals", "soleils-2p-round-limit.jsonl");
    let ann = table.player("Ann");
    let bob = table.player("Bob");
    let referee = table.tokens.referee.clone();
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[5,6,2]}"#)
        .await;

    // 400: not JSON, not an object, not an event.
    for (body, what) in [
        (&b"{\"type\":"[..], "malformed JSON"),
        (b"not json at all", "text"),
        (
            br#"[{"type":"placed","player":"Ann","box":"C2b","value":5}]"#,
            "a JSON array",
        ),
        (b"42", "a number"),
        (
            br#"{"type":"teleported","player":"Ann"}"#,
            "an unknown type",
        ),
        (
            br#"{"type":"placed","player":"Ann","box":"C2b","value":"five"}"#,
            "a value of the wrong type",
        ),
        (b"{\"type\":\"placed\xff\"}", "not UTF-8"),
    ] {
        table.refused(Some(&ann), body, 400, what).await;
    }
    let text = table.refused(Some(&ann), b"[1]", 400, "an array").await;
    assert_eq!(
        text.json["error"],
        "the entry to append: expected a JSON object, but found an array"
    );

    // 401: no token, or one this table does not know.
    let place = br#"{"type":"placed","player":"Ann","box":"C2b","value":5}"#;
    let none = table.refused(None, place, 401, "no header").await;
    assert_eq!(
        none.json["error"],
        "expected the header Authorization: Bearer TOKEN, with the token of a join link, but found none"
    );
    table
        .refused(Some(&"0".repeat(64)), place, 401, "an unknown token")
        .await;
    table.refused(Some(""), place, 401, "an empty token").await;
    table
        .refused(Some(&ann[..63]), place, 401, "a token cut short")
        .await;

    // 403: a player deciding for another, or for the referee.
    let for_bob = table
        .refused(
            Some(&ann),
            br#"{"type":"placed","player":"Bob","box":"B3","value":6}"#,
            403,
            "Ann placing for Bob",
        )
        .await;
    assert_eq!(
        for_bob.json["error"],
        "expected a decision of Ann's, but found one of Bob's: Bob placed 6 in B3"
    );
    table
        .refused(
            Some(&ann),
            br#"{"type":"rolled","dice":[1,2,3]}"#,
            403,
            "Ann rolling",
        )
        .await;
    table
        .refused(
            Some(&ann),
            br#"{"type":"claimed","scores":{"Ann":100,"Bob":0}}"#,
            403,
            "Ann claiming",
        )
        .await;

    // 413: a body over 16 KiB, even from the referee; without a token, the
    // token is refused first.
    let big = format!(
        r#"{{"type":"placed","player":"Ann","box":"C2b","value":5,"pad":"{}"}}"#,
        "x".repeat(20 * 1024)
    );
    let too_large = table
        .refused(Some(&referee), big.as_bytes(), 413, "a 20 KB body")
        .await;
    assert_eq!(
        too_large.json["error"],
        "expected one entry of at most 16384 bytes, but found a longer body"
    );
    table
        .refused(None, big.as_bytes(), 401, "a 20 KB body, no token")
        .await;
    let under = format!(
        r#"{{"type":"placed","player":"Ann","box":"C2b","value":5,"pad":"{}"}}"#,
        "x".repeat(15 * 1024)
    );
    table
        .refused(Some(&ann), under.as_bytes(), 400, "an unknown field")
        .await;

    // 422: the rules refuse it, with the located reason and what is legal.
    let illegal = table
        .refused(
            Some(&ann),
            br#"{"type":"placed","player":"Ann","box":"C2b","value":4}"#,
            422,
            "a placement of a value not rolled",
        )
        .await;
    let error = illegal.json["error"].as_str().unwrap();
    // The line and the rule; never where the server keeps the log.
    let folder = table.log.parent().unwrap().display().to_string();
    assert!(
        error.starts_with("line ") && error.contains("event 2 (placed)"),
        "{error}"
    );
    assert!(
        !illegal.json.to_string().contains(&folder),
        "{}",
        illegal.json
    );
    assert!(
        illegal.json["alternatives"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
    assert!(
        illegal.json["commands"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );

    // 409: an explicit seq that is not the next one, up to the largest.
    for seq in [1, 3, 99, u64::MAX] {
        table
            .refused(
                Some(&ann),
                format!(r#"{{"seq":{seq},"type":"placed","player":"Ann","box":"C2b","value":5}}"#)
                    .as_bytes(),
                409,
                &format!("seq {seq} where 2 is next"),
            )
            .await;
    }

    // The same placement with the right seq is accepted; then Bob may not
    // take it back, but Ann may; the referee may decide for a player.
    let placed = table
        .accepted(
            &ann,
            r#"{"seq":2,"type":"placed","player":"Ann","box":"C2b","value":5}"#,
        )
        .await;
    assert_eq!(placed["seq"], 2);
    table
        .refused(
            Some(&bob),
            br#"{"type":"undone","undoes":2}"#,
            403,
            "Bob undoing Ann's placement",
        )
        .await;
    let undone = table
        .accepted(&ann, r#"{"type":"undone","undoes":2}"#)
        .await;
    assert_eq!(undone["kind"], "undone");
    let for_ann = table
        .accepted(
            &referee,
            r#"{"type":"placed","player":"Ann","box":"C2b","value":5}"#,
        )
        .await;
    assert_eq!(for_ann["seq"], 4);

    // Reading needs a token too.
    for path in ["/api/state", "/api/view", "/api/stream"] {
        assert_eq!(table.get(path, None).await.status, 401, "{path}");
        let unknown = table.get(path, Some(&"f".repeat(64))).await;
        assert_eq!(unknown.status, 401, "{path}");
    }
    assert_replays(&table.log);
}

/// A 62 Soleils start line for `players`, with digital dice.
fn soleils_start(players: &[&str]) -> String {
    let golden = std::fs::read_to_string(
        common::repo()
            .join("replays")
            .join("soleils-2p-round-limit.jsonl"),
    )
    .unwrap();
    let mut start: Value = serde_json::from_str(golden.lines().next().unwrap()).unwrap();
    start["players"] = json!(players);
    start["dice_seed"] = json!(7);
    start.to_string()
}

#[tokio::test]
async fn a_name_that_begins_like_another_shows_neither_player_the_others_decisions() {
    // "Ann: B" begins with "Ann: ", as a decision of Ann's is written.
    let table = Table::new(
        "app-seats",
        GameKind::Soleils,
        &soleils_start(&["Ann", "Ann: B"]),
    );
    let ann = table.player("Ann");
    let ann_b = table.player("Ann: B");
    let roll = table.get("/api/view", Some(&table.tokens.referee)).await;
    let dice = common::first_choice(&roll.json, "roll").to_string();
    table.accepted(&table.tokens.referee, &dice).await;

    for (token, me, other) in [(&ann, "Ann", "Ann: B"), (&ann_b, "Ann: B", "Ann")] {
        let state = table.get("/api/state", Some(token)).await.json;
        for event in state["legal_events"].as_array().unwrap() {
            assert_eq!(event["player"], me, "{me} is offered {event}");
        }
        // Exactly their own two decisions, by seat: "Ann: B: a placement"
        // begins with "Ann: ", and is still not Ann's.
        let decisions: Vec<&str> = state["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["decision"].as_str().unwrap())
            .collect();
        assert_eq!(
            decisions,
            [format!("{me}: a placement"), format!("{me}: a sun entry")],
            "{me} is shown {decisions:?}"
        );
        let view = table.get("/api/view", Some(token)).await.json;
        assert_eq!(view["name"], me);
        // A table served alone is in no event: its view names none.
        assert_eq!(view.get("room"), None);
        let progress = view["progress"].as_str().unwrap();
        assert!(progress.starts_with("turn 1 of 20, dice "), "{progress}");
        assert_eq!(view["panels"].as_array().unwrap().len(), 1);
        assert_eq!(view["panels"][0]["name"], me);
        for choice in view["choices"].as_array().unwrap() {
            assert_eq!(choice["event"]["player"], me, "{me} may choose {choice}");
        }
        // Each posts their own, and not the other's.
        let mine = &view["choices"][0]["event"];
        let mut theirs = mine.clone();
        theirs["player"] = json!(other);
        table
            .refused(
                Some(token),
                theirs.to_string().as_bytes(),
                403,
                &format!("{me} deciding for {other}"),
            )
            .await;
        table.accepted(token, &mine.to_string()).await;
    }
    // The progress list names each one's own pending decision.
    let view = table.get("/api/view", Some(&ann)).await.json;
    let lines = view["players"].as_array().unwrap();
    assert_eq!(lines[0]["name"], "Ann");
    assert_eq!(lines[1]["name"], "Ann: B");
    assert_replays(&table.log);
}

#[tokio::test]
async fn the_page_and_every_answer_carry_the_security_headers() {
    let table = Table::golden("app-headers", "soleils-2p-round-limit.jsonl");
    let page = table.get("/", None).await;
    assert_eq!(page.status, StatusCode::OK);
    let csp = page.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(
        csp.starts_with("default-src 'none'; script-src 'sha256-"),
        "{csp}"
    );
    for answer in [page, table.get("/api/state", None).await] {
        assert_eq!(answer.headers[header::CACHE_CONTROL], "no-store");
        assert_eq!(answer.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(answer.headers[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(answer.headers[header::X_FRAME_OPTIONS], "DENY");
    }
    assert_eq!(table.get("/favicon.ico", None).await.status, 204);
    assert_eq!(table.get("/nothing-here", None).await.status, 404);
}

#[tokio::test]
async fn a_log_that_no_longer_replays_is_a_server_error_that_says_so() {
    let table = Table::golden("app-broken", "soleils-2p-round-limit.jsonl");
    let referee = table.tokens.referee.clone();
    // Another program breaks the log under the running server.
    let mut text = std::fs::read_to_string(&table.log).unwrap();
    text.push_str("{\"seq\":1,\"type\":\"rolled\",\"dice\":[9,9,9]}\n");
    std::fs::write(&table.log, text).unwrap();
    let answer = table.get("/api/state", Some(&referee)).await;
    assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
    // The line and the rule it breaks, then what to run.
    let error = answer.json["error"].as_str().unwrap();
    let shown = error.replace(&table.log.display().to_string(), "LOG");
    assert!(
        shown.starts_with("LOG:") && shown.contains(": event ") && shown.contains("expected"),
        "{error}"
    );
    assert!(
        shown.ends_with("; the log no longer replays; run sunfold replay on it"),
        "{error}"
    );
}

/// Reads server-sent events from `body` until `count` have come (keep-alive
/// comments aside): each one's event, id and data. Fails after 2 minutes,
/// a limit that only stops a hang.
async fn sse(body: &mut Body, count: usize) -> Vec<(String, String, Value)> {
    let mut text = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    while events.len() < count {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .unwrap_or_else(|_| panic!("expected {count} events, but found {events:?}"))
            .expect("the stream stays open")
            .unwrap();
        let Ok(data) = frame.into_data() else {
            continue;
        };
        text.push_str(std::str::from_utf8(&data).unwrap());
        while let Some((block, rest)) = text.split_once("\n\n") {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("{name}:")))
                    .map(|v| v.trim().to_owned())
            };
            if let Some(event) = field("event") {
                let data = field("data").unwrap_or_default();
                events.push((
                    event,
                    field("id").unwrap_or_default(),
                    serde_json::from_str(&data).unwrap_or(Value::Null),
                ));
            }
            text = rest.to_owned();
        }
    }
    events
}

impl Table {
    /// Opens `/api/stream` as `token`, with `Last-Event-ID: last` if given.
    async fn stream(&self, token: &str, last: Option<&str>) -> (StatusCode, Body) {
        self.stream_at("/api/stream", token, last).await
    }

    /// Opens the stream at `path` (`/api/stream?view=1`) as `token`, with
    /// `Last-Event-ID: last` if given.
    async fn stream_at(&self, path: &str, token: &str, last: Option<&str>) -> (StatusCode, Body) {
        let mut request =
            Request::get(path).header(header::AUTHORIZATION, format!("Bearer {token}"));
        if let Some(last) = last {
            request = request.header("last-event-id", last);
        }
        let response = self
            .router
            .clone()
            .oneshot(request.body(Body::empty()).unwrap())
            .await
            .unwrap();
        (response.status(), response.into_body())
    }

    /// The first legal choice `token`'s page offers, as an entry to post.
    async fn first_choice(&self, token: &str) -> String {
        let view = self.get("/api/view", Some(token)).await.json;
        view["choices"][0]["event"].to_string()
    }
}

#[tokio::test]
async fn a_stream_reconnected_with_last_event_id_misses_nothing() {
    let table = Table::golden("app-reconnect", "soleils-2p-round-limit.jsonl");
    let (ann, bob) = (table.player("Ann"), table.player("Bob"));
    let referee = table.tokens.referee.clone();
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[5,6,2]}"#)
        .await;
    // A phone listens, then sleeps after event 1; two entries are appended
    // while it sleeps.
    let (status, mut before) = table.stream(&bob, None).await;
    assert_eq!(status, StatusCode::OK);
    table
        .accepted(
            &ann,
            r#"{"type":"placed","player":"Ann","box":"C2b","value":5}"#,
        )
        .await;
    let first = sse(&mut before, 1).await;
    assert_eq!(first[0].1, "2", "each event's id is its seq: {first:?}");
    drop(before);
    table
        .accepted(&ann, r#"{"type":"undone","undoes":2}"#)
        .await;

    // It wakes and reconnects with the last id it saw: the entries after
    // it come first, from the log, in order, then the live ones, once.
    let (status, mut after) = table.stream(&bob, Some("1")).await;
    assert_eq!(status, StatusCode::OK);
    let missed = sse(&mut after, 2).await;
    let seen: Vec<(&str, &str, &str)> = missed
        .iter()
        .map(|(event, id, data)| (event.as_str(), id.as_str(), data["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [("appended", "2", "placed"), ("appended", "3", "undone")]
    );
    assert_eq!(missed[0].2["seq"], 2);
    assert_eq!(missed[0].2["said"], first[0].2["said"]);
    assert!(
        missed[1].2["said"]
            .as_str()
            .is_some_and(|s| s.starts_with("took back event 2")),
        "{:?}",
        missed[1]
    );
    assert!(missed[1].2["state"].is_object());
    let choice = table.first_choice(&bob).await;
    table.accepted(&bob, &choice).await;
    let live = sse(&mut after, 1).await;
    assert_eq!((live[0].1.as_str(), &live[0].2["seq"]), ("4", &json!(4)));

    // A phone that saw everything is sent nothing again; one that sends no
    // id gets the live events only, as before.
    let (_, mut current) = table.stream(&ann, Some("4")).await;
    let (_, mut fresh) = table.stream(&ann, None).await;
    let choice = table.first_choice(&ann).await;
    table.accepted(&ann, &choice).await;
    assert_eq!(sse(&mut current, 1).await[0].1, "5");
    assert_eq!(sse(&mut fresh, 1).await[0].1, "5");
    assert_replays(&table.log);
}

#[tokio::test]
async fn the_server_owns_the_clock() {
    // The start line's time is ahead of this machine's clock, as if the
    // clock had been set back since.
    let golden = std::fs::read_to_string(
        common::repo()
            .join("replays")
            .join("soleils-2p-round-limit.jsonl"),
    )
    .unwrap();
    let mut start: Value = serde_json::from_str(golden.lines().next().unwrap()).unwrap();
    start["at"] = json!("2999-01-01T00:00:00+00:00");
    let table = Table::new("app-clock", GameKind::Soleils, &start.to_string());
    let referee = table.tokens.referee.clone();

    // A client's time is refused, whoever sends it.
    for token in [&referee, &table.player("Ann")] {
        let refused = table
            .refused(
                Some(token),
                br#"{"type":"rolled","dice":[5,6,2],"at":"1999-01-01T00:00:00Z"}"#,
                400,
                "an entry with its own at",
            )
            .await;
        assert_eq!(
            refused.json["error"],
            r#"the entry to append: expected no "at", as the server writes the time of every entry from its own clock, but found "at": "1999-01-01T00:00:00Z""#
        );
    }

    // The server's time is not earlier than the line before.
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[5,6,2]}"#)
        .await;
    let text = std::fs::read_to_string(&table.log).unwrap();
    let at = |line: &str| {
        let value: Value = serde_json::from_str(line).unwrap();
        chrono::DateTime::parse_from_rfc3339(value["at"].as_str().unwrap()).unwrap()
    };
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(at(lines[1]) >= at(lines[0]), "{}", lines[1]);
    assert_replays(&table.log);
}

#[tokio::test]
async fn a_body_that_never_completes_is_answered_408() {
    let table = Table::golden("app-slow-body", "soleils-2p-round-limit.jsonl");
    let router = sunfold::serve::edge::with_body_deadline(
        table.router.clone(),
        std::time::Duration::from_millis(300),
    );
    let before = std::fs::read(&table.log).unwrap();
    // Half an entry, then nothing more, ever.
    let half = tokio_stream::StreamExt::chain(
        tokio_stream::iter([Ok::<_, std::io::Error>(axum::body::Bytes::from(
            r#"{"type":"rolled","#,
        ))]),
        tokio_stream::pending(),
    );
    let request = Request::post("/api/events")
        .header(
            header::AUTHORIZATION,
            format!("Bearer {}", table.tokens.referee),
        )
        .body(Body::from_stream(half))
        .unwrap();
    let response =
        tokio::time::timeout(std::time::Duration::from_secs(120), router.oneshot(request))
            .await
            .expect("the deadline ends the request")
            .unwrap();
    assert_eq!(response.status(), StatusCode::REQUEST_TIMEOUT);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let json: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(json["status"], 408);
    assert_eq!(
        json["error"],
        "expected the whole body within the server's time limit, but found it still incomplete"
    );
    assert_eq!(std::fs::read(&table.log).unwrap(), before);
}

#[tokio::test]
async fn the_edge_refusals_are_pinned() {
    let table = Table::golden("app-edge-messages", "soleils-2p-round-limit.jsonl");
    let ann = table.player("Ann");
    let mut text = String::new();
    let at = table
        .post(
            Some(&ann),
            r#"{"type":"placed","player":"Ann","box":"C2b","value":5,"at":"2026-07-01T12:00:00+02:00"}"#,
        )
        .await;
    text.push_str(&format!(
        "an entry with its own at: {} {}\n",
        at.status.as_u16(),
        at.json["error"].as_str().unwrap()
    ));
    for last in ["abc", "-1", "1.5"] {
        let answer = table
            .send(
                Request::get("/api/stream")
                    .header(header::AUTHORIZATION, format!("Bearer {ann}"))
                    .header("last-event-id", last)
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        text.push_str(&format!(
            "Last-Event-ID {last}: {} {}\n",
            answer.status.as_u16(),
            answer.json["error"].as_str().unwrap()
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("serve_app__edge_refusals", text));
}

#[tokio::test]
async fn the_referee_records_as_a_player_without_a_phone_with_the_same_checks() {
    let table = Table::new(
        "app-record-as",
        GameKind::Soleils,
        &soleils_start(&["Ann", "Bob"]),
    );
    let referee = table.tokens.referee.clone();
    let roll = table.get("/api/view", Some(&referee)).await.json;
    let dice = common::first_choice(&roll, "roll").to_string();
    table.accepted(&referee, &dice).await;

    // Given Bob's page, opened by the referee: Bob's sheet, Bob's choices.
    let bob = table.get("/api/view?as=Bob", Some(&referee)).await;
    assert_eq!(bob.status, StatusCode::OK, "{}", bob.json);
    assert_eq!(bob.json["recording_as"], "Bob");
    assert_eq!(bob.json["name"], "Bob");
    assert_eq!(bob.json["role"], "player");
    assert_eq!(bob.json["panels"].as_array().unwrap().len(), 1);
    let choices = bob.json["choices"].as_array().unwrap();
    assert!(!choices.is_empty());
    for choice in choices {
        assert_eq!(choice["event"]["player"], "Bob", "{choice}");
    }
    // When the referee posts one of them, it is written like any other
    // entry: Bob's decision, checked by the engine.
    let before = std::fs::read_to_string(&table.log).unwrap().lines().count();
    let placed = choices.iter().find(|c| c["group"] == "place").unwrap();
    table.accepted(&referee, &placed["event"].to_string()).await;
    let log = std::fs::read_to_string(&table.log).unwrap();
    assert_eq!(log.lines().count(), before + 1);
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["player"], "Bob");
    assert!(
        last.get("as").is_none() && last.get("by").is_none(),
        "{last}"
    );
    // The same placement again is illegal now, for the referee as for Bob.
    table
        .refused(
            Some(&referee),
            placed["event"].to_string().as_bytes(),
            422,
            "the same box twice",
        )
        .await;

    // Then: a player's link cannot open another's page, a name that sits
    // nowhere is refused, and both say why.
    let ann = table.player("Ann");
    let refused = table.get("/api/view?as=Bob", Some(&ann)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let nobody = table.get("/api/view?as=Zoe", Some(&referee)).await;
    assert_eq!(nobody.status, StatusCode::BAD_REQUEST);
    let odd = table.get("/api/view?seat=1", Some(&referee)).await;
    assert_eq!(odd.status, StatusCode::BAD_REQUEST);
    let text = format!(
        "{}\n{}\n{}",
        refused.json["error"].as_str().unwrap(),
        nobody.json["error"].as_str().unwrap(),
        odd.json["error"].as_str().unwrap()
    );
    common::snapshots().bind(|| insta::assert_snapshot!("serve_app__record_as_refusals", text));
    assert_replays(&table.log);
}

#[tokio::test]
async fn an_update_sends_only_the_panels_that_changed() {
    let table = Table::new(
        "app-have",
        GameKind::Soleils,
        &soleils_start(&["Ann", "Bob"]),
    );
    let referee = table.tokens.referee.clone();
    let hashes = |view: &Value| -> Vec<String> {
        view["panels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["hash"].as_str().unwrap().to_owned())
            .collect()
    };
    let whole = table.get("/api/view", Some(&referee)).await.json;
    let held = hashes(&whole);
    assert_eq!(held.len(), 2);
    assert!(
        whole["panels"][0]["svg"]
            .as_str()
            .unwrap()
            .starts_with("<svg")
    );
    // Given the page holds both sheets, when nothing changed, then no
    // drawing is sent again.
    let again = table
        .get(
            &format!("/api/view?have={}", held.join(",")),
            Some(&referee),
        )
        .await
        .json;
    assert_eq!(hashes(&again), held);
    assert!(
        again["panels"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p.get("svg").is_none())
    );
    // When Ann writes a value, only Ann's sheet is sent.
    let roll = common::first_choice(&whole, "roll").to_string();
    table.accepted(&referee, &roll).await;
    let ann = table.player("Ann");
    let choices = table.get("/api/view", Some(&ann)).await.json;
    let place = common::first_choice(&choices, "place").to_string();
    table.accepted(&ann, &place).await;
    let after = table
        .get(
            &format!("/api/view?have={}", held.join(",")),
            Some(&referee),
        )
        .await
        .json;
    assert!(after["panels"][0]["svg"].is_string(), "Ann's sheet changed");
    assert!(after["panels"][1].get("svg").is_none(), "Bob's did not");
    assert_ne!(after["panels"][0]["hash"], json!(held[0]));
    assert_eq!(after["panels"][1]["hash"], json!(held[1]));
}

/// The start line of a new 62 Soleils log, as `sunfold new` writes it in
/// the current format.
fn new_soleils_start(test: &str, players: &str) -> String {
    let log = common::fresh(test, "new.jsonl");
    let (code, _, stderr) = common::sunfold(&["new", "soleils", &log, "--players", players]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&log).unwrap();
    text.lines().next().unwrap().to_owned()
}

/// The `by` of each line of the log after the start.
fn authors(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).unwrap();
    (text.lines().skip(1))
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["by"].clone())
        .collect()
}

#[tokio::test]
async fn each_entry_posted_says_whose_link_posted_it() {
    // Given a table of the current log format,
    let start = new_soleils_start("app-by", "Ann,Bob");
    let table = Table::new("app-by", GameKind::Soleils, &start);
    let referee = table.tokens.referee.clone();
    // when the referee rolls, Ann places with her own link and the referee
    // places for Bob,
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[1,2,3]}"#)
        .await;
    let ann = table.player("Ann");
    table
        .accepted(
            &ann,
            r#"{"type":"placed","player":"Ann","box":"K1a","value":2}"#,
        )
        .await;
    table
        .accepted(
            &referee,
            r#"{"type":"placed","player":"Bob","box":"K1a","value":2}"#,
        )
        .await;
    // then each line says who posted it,
    assert_eq!(
        authors(&table.log),
        [json!("referee"), json!("Ann"), json!("referee")]
    );
    // and a client cannot say it for the server, whoever it is.
    for token in [&referee, &ann] {
        let refused = table
            .refused(
                Some(token),
                br#"{"type":"placed","player":"Ann","box":"K1b","value":1,"by":"Ann"}"#,
                400,
                "an entry with its own by",
            )
            .await;
        assert_eq!(
            refused.json["error"],
            r#"the entry to append: expected no "by", as the server writes who posted every entry from the link it came with, but found "by": "Ann""#
        );
    }
    // replay and audit say who posted what, and which of the players'
    // decisions the referee posted.
    let log = table.log.display().to_string();
    let (code, replay, stderr) = common::sunfold(&["replay", &log]);
    assert_eq!(code, 0, "{stderr}");
    let (code, audit, stderr) = common::sunfold(&["audit", &log]);
    assert_eq!(code, 0, "{stderr}");
    let said = "  posted: 1 by Ann, 2 by the referee\n  posted by the referee for a player: event 3 (placed, Bob)\n";
    assert!(replay.ends_with(said), "{replay}");
    assert!(audit.contains(said), "{audit}");
    let (_, json, _) = common::sunfold(&["audit", &log, "--format", "json"]);
    let json: Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(
        json["posted"],
        json!({
            "by": [{"who": "Ann", "entries": 1}, {"who": "referee", "entries": 2}],
            "unsigned": 0,
            "for_players": [{"line": 4, "seq": 3, "type": "placed", "player": "Bob"}],
        })
    );
    // The viewer shows it beside each step.
    let html = common::fresh("app-by", "viewer.html");
    let (code, _, stderr) = common::sunfold(&["render", "replay", &log, "-o", &html]);
    assert_eq!(code, 0, "{stderr}");
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("(posted by the referee)") && html.contains("(posted by Ann)"));
}

#[tokio::test]
async fn a_log_of_an_older_format_is_served_without_authors_and_replays_as_before() {
    // Given a table whose log is of a format before authors,
    let table = Table::golden("app-by-older", "soleils-2p-round-limit.jsonl");
    // when the referee and a player post,
    table
        .accepted(&table.tokens.referee, r#"{"type":"rolled","dice":[1,2,3]}"#)
        .await;
    table
        .accepted(
            &table.player("Ann"),
            r#"{"type":"placed","player":"Ann","box":"K1a","value":2}"#,
        )
        .await;
    // then its lines keep the format: no line says who posted it.
    assert_eq!(authors(&table.log), [Value::Null, Value::Null]);
    assert_replays(&table.log);
}

/// `/api/view` fits its schema (`sunfold schema table-view`) for the
/// referee and a player of both games, and a refusal fits `api-refusal`.
#[tokio::test]
async fn the_view_and_the_refusals_fit_their_schemas() {
    use sunfold::schema::{SchemaKind, schema_text};
    let view: Value = serde_json::from_str(&schema_text(SchemaKind::TableView)).unwrap();
    let refusal: Value = serde_json::from_str(&schema_text(SchemaKind::ApiRefusal)).unwrap();
    for name in [
        "soleils-2p-round-limit.jsonl",
        "summertime-rulebook-examples.jsonl",
    ] {
        let table = Table::golden("app-view-schema", name);
        let player = table.tokens.players.values().next().unwrap().clone();
        for token in [table.tokens.referee.clone(), player] {
            let answer = table.get("/api/view", Some(&token)).await;
            assert_eq!(answer.status, StatusCode::OK);
            assert_eq!(
                common::schema::breaks(&view, &view, &answer.json, "view"),
                None,
                "{name}"
            );
        }
        let refused = table.get("/api/view", None).await;
        assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            common::schema::breaks(&refusal, &refusal, &refused.json, "refusal"),
            None
        );
        let refused = table.post(Some(&table.tokens.referee), "{}").await;
        assert_eq!(
            common::schema::breaks(&refusal, &refusal, &refused.json, "refusal"),
            None,
            "{}",
            refused.json
        );
    }
}

/// A page as the stream tells it: each event's `view` merged into the
/// last.
fn merged(into: &mut serde_json::Map<String, Value>, event: &Value) {
    for (key, value) in event["view"].as_object().expect("each event has a view") {
        if value.is_null() {
            into.remove(key);
        } else {
            into.insert(key.clone(), value.clone());
        }
    }
}

/// The view of `/api/view` as the stream tells it: the panels by name
/// and hash, and a field that is null as absent (a null in the stream
/// takes a field away).
fn bare(view: &Value) -> Value {
    let mut view = view.clone();
    view.as_object_mut()
        .unwrap()
        .retain(|_, value| !value.is_null());
    for panel in view["panels"].as_array_mut().unwrap() {
        let panel = panel.as_object_mut().unwrap();
        panel.remove("svg");
        panel.remove("phone");
    }
    view
}

#[tokio::test]
async fn the_stream_tells_each_page_what_changed_and_its_drawings_come_by_hash() {
    let table = Table::golden("app-changes", "soleils-2p-round-limit.jsonl");
    let (ann, bob) = (table.player("Ann"), table.player("Bob"));
    let referee = table.tokens.referee.clone();
    let (status, mut stream) = table.stream_at("/api/stream?view=1", &ann, None).await;
    assert_eq!(status, StatusCode::OK);

    // Given a roll, the first event tells Ann's whole page, without the
    // state every player sees; her sheet is named by its hash.
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[5,6,2]}"#)
        .await;
    let rolled = sse(&mut stream, 1).await.remove(0).2;
    assert_eq!(
        (rolled["seq"].clone(), rolled["kind"].clone()),
        (json!(1), json!("rolled"))
    );
    assert!(rolled.get("state").is_none(), "{rolled}");
    let mut page = serde_json::Map::new();
    merged(&mut page, &rolled);
    let fresh = table.get("/api/view", Some(&ann)).await.json;
    assert_eq!(Value::Object(page.clone()), bare(&fresh));
    let hash = fresh["panels"][0]["hash"].as_str().unwrap().to_owned();

    // The drawing, at an address whose answer never changes.
    let path = format!("/api/panels/{hash}/phone");
    let drawing = table
        .send(
            Request::get(&path)
                .header(header::AUTHORIZATION, format!("Bearer {ann}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(drawing.status, StatusCode::OK);
    assert_eq!(drawing.headers[header::CONTENT_TYPE], "image/svg+xml");
    assert_eq!(
        drawing.headers[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        drawing.headers[header::ETAG],
        format!("\"{hash}\"").as_str()
    );
    let held = table
        .send(
            Request::get(&path)
                .header(header::AUTHORIZATION, format!("Bearer {ann}"))
                .header(header::IF_NONE_MATCH, format!("\"{hash}\""))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(held.status, StatusCode::NOT_MODIFIED);
    // Only to those who see it: Bob's page shows his own sheet alone.
    assert_eq!(
        table.get(&path, Some(&bob)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        table.get(&path, None).await.status,
        StatusCode::UNAUTHORIZED
    );
    let wide = format!("/api/panels/{hash}/wide");
    assert_eq!(
        table.get(&wide, Some(&referee)).await.status,
        StatusCode::OK
    );
    let odd = format!("/api/panels/{hash}/large");
    assert_eq!(
        table.get(&odd, Some(&ann)).await.status,
        StatusCode::BAD_REQUEST
    );

    // When Ann writes a box, the next event holds only what changed: her
    // sheet's new hash and her choices, not who she is.
    let place = common::first_choice(&fresh, "place").to_string();
    table.accepted(&ann, &place).await;
    let placed = sse(&mut stream, 1).await.remove(0).2;
    let view = placed["view"].as_object().unwrap();
    assert!(
        view.contains_key("panels") && view.contains_key("choices"),
        "{placed}"
    );
    assert!(
        !view.contains_key("role") && !view.contains_key("game"),
        "{placed}"
    );
    merged(&mut page, &placed);
    let fresh = table.get("/api/view", Some(&ann)).await.json;
    assert_eq!(Value::Object(page), bare(&fresh));
    assert_ne!(fresh["panels"][0]["hash"], json!(hash));

    // An old page's stream is as it was: the state, no view.
    let (_, mut old) = table.stream(&ann, Some("1")).await;
    let told = sse(&mut old, 1).await.remove(0).2;
    assert!(
        told["state"].is_object() && told.get("view").is_none(),
        "{told}"
    );
}

#[tokio::test]
async fn a_hash_is_no_way_around_what_a_seat_may_see() {
    let table = Table::golden("app-concealed", "summertime-rulebook-examples.jsonl");
    let (ann, ben) = (table.player("Ann"), table.player("Ben"));
    let referee = table.tokens.referee.clone();
    let hash = |view: Value| view["panels"][0]["hash"].as_str().unwrap().to_owned();
    let of_ann = hash(table.get("/api/view", Some(&ann)).await.json);
    let of_all = hash(table.get("/api/view", Some(&referee)).await.json);
    let at = |hash: &str| format!("/api/panels/{hash}/wide");
    // Ben may not see the table as Ann does, with her hand, nor as the
    // referee does; Ann and the referee may.
    assert_eq!(
        table.get(&at(&of_ann), Some(&ben)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        table.get(&at(&of_all), Some(&ben)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        table.get(&at(&of_all), Some(&ann)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        table.get(&at(&of_ann), Some(&ann)).await.status,
        StatusCode::OK
    );
    assert_eq!(
        table.get(&at(&of_ann), Some(&referee)).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_page_whose_stream_dropped_catches_up_to_a_fresh_view() {
    let table = Table::golden("app-catch-up", "soleils-2p-round-limit.jsonl");
    let (ann, bob) = (table.player("Ann"), table.player("Bob"));
    let referee = table.tokens.referee.clone();
    table
        .accepted(&referee, r#"{"type":"rolled","dice":[5,6,2]}"#)
        .await;
    // Bob's stream drops after the roll; Ann writes a box and the referee
    // takes it back meanwhile.
    let (_, mut before) = table.stream_at("/api/stream?view=1", &bob, None).await;
    let choice = table.first_choice(&ann).await;
    table.accepted(&ann, &choice).await;
    assert_eq!(sse(&mut before, 1).await[0].1, "2");
    drop(before);
    table
        .accepted(&referee, r#"{"type":"undone","undoes":2}"#)
        .await;

    // Reconnected with the last id it saw, its page is told whole, as a
    // fresh load shows it.
    let (_, mut after) = table.stream_at("/api/stream?view=1", &bob, Some("2")).await;
    let caught = sse(&mut after, 1).await.remove(0);
    assert_eq!(caught.1, "3");
    let mut page = serde_json::Map::new();
    merged(&mut page, &caught.2);
    let fresh = table.get("/api/view", Some(&bob)).await.json;
    assert_eq!(Value::Object(page), bare(&fresh));
}

#[tokio::test]
async fn the_refusals_of_drawings_and_of_the_stream_are_pinned() {
    let table = Table::golden("app-panel-refusals", "soleils-2p-round-limit.jsonl");
    let ann = table.player("Ann");
    let mut text = String::new();
    for (what, path) in [
        ("an unknown layout", "/api/panels/0123456789abcdef/large"),
        ("a hash no page shows", "/api/panels/0123456789abcdef/phone"),
        ("a stream's unknown query", "/api/stream?view=2"),
    ] {
        let answer = table.get(path, Some(&ann)).await;
        let error = answer.json["error"].as_str().unwrap_or_default().to_owned();
        text.push_str(&format!("{what}: {} {error}\n", answer.status.as_u16()));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("serve__panel_refusals", text));
}
