//! `serve --event`'s room, tested in-process: the board, two tables of a
//! round played at once through their own paths, the results attached by
//! the room itself as each game ends, the standings updated, the next
//! round seated from the board, and the slips printed.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use sunfold::event::EventGame;
use sunfold::serve::Tokens;
use sunfold::serve::room;
use tower::ServiceExt;

struct Room {
    event: PathBuf,
    board: String,
    /// The board's tokens, with its short code.
    tokens: Tokens,
    router: axum::Router,
    said: Arc<Mutex<Vec<String>>>,
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    bytes: Vec<u8>,
    json: Value,
}

impl Room {
    async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec();
        let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            headers,
            bytes,
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

    async fn post(&self, path: &str, token: &str, body: String) -> Answer {
        let request = Request::post(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::from(body))
            .unwrap();
        self.send(request).await
    }

    async fn board(&self) -> Value {
        let answer = self.get("/api/room", Some(&self.board)).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.json);
        answer.json
    }

    /// Plays one decision at `table` (a board's table) as its referee:
    /// the first legal one. False once its game is over.
    async fn step(&self, table: &Value) -> bool {
        let path = table["path"].as_str().unwrap();
        let referee = table["referee"].as_str().unwrap();
        let state = self.get(&format!("{path}/api/state"), Some(referee)).await;
        assert_eq!(state.status, StatusCode::OK, "{}", state.json);
        let Some(next) = state.json["legal_events"].as_array().unwrap().first() else {
            return false;
        };
        let posted = self
            .post(&format!("{path}/api/events"), referee, next.to_string())
            .await;
        assert_eq!(posted.status, StatusCode::OK, "{next}: {}", posted.json);
        true
    }
}

fn start(test: &str, game: &str, players: &str, extra: &[&str]) -> Room {
    let event = PathBuf::from(common::fresh(test, "cup.jsonl"));
    let file = event.with_file_name("players.txt");
    std::fs::write(&file, players).unwrap();
    let mut args = vec![
        "event",
        "new",
        event.to_str().unwrap(),
        "--game",
        game,
        "--players-file",
        file.to_str().unwrap(),
        "--seed",
        "5",
    ];
    args.extend(extra);
    let (code, _, err) = common::sunfold(&args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = common::sunfold(&["event", "seat", event.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let tokens = Tokens::new(&[]).unwrap();
    let said = Arc::new(Mutex::new(Vec::new()));
    let heard = said.clone();
    let report = Arc::new(move |line: String| heard.lock().unwrap().push(line));
    let game = match game {
        "soleils" => EventGame::Soleils,
        _ => EventGame::Summertime,
    };
    let router = room::app(
        event.clone(),
        game,
        tokens.clone(),
        "http://10.0.0.1:8062/".to_owned(),
        report,
    );
    Room {
        event,
        board: tokens.referee.clone(),
        tokens,
        router,
        said,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tables_play_at_once_and_their_results_go_into_the_standings_by_themselves() {
    let room = start(
        "room-two-tables",
        "soleils",
        "Ann\nBob\nCid\nDee\nEve\nFay\n",
        &["--table-size", "3", "--rounds", "3"],
    );

    // The board answers to its own token alone.
    let none = room.get("/api/room", None).await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let stranger = room.get("/api/room", Some(&"0".repeat(64))).await;
    assert_eq!(stranger.status, StatusCode::UNAUTHORIZED);
    let board = room.board().await;
    assert_eq!(board["round"], 1);
    assert_eq!(board["can_seat"], false, "no table has its result yet");
    let tables = board["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 2);
    for table in &tables {
        assert_eq!(table["done"], false);
        assert_eq!(table["players"].as_array().unwrap().len(), 3);
        assert!(!table["pending"].as_array().unwrap().is_empty(), "{table}");
    }

    // A table's page and API are its own, under its path; a player's token
    // is good at their table only.
    let page = room.get("/r/1/t/1", None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&page.bytes).contains("sunfold table"));
    assert!(page.headers.contains_key(header::CONTENT_SECURITY_POLICY));
    let first = tables[0]["players"][0]["token"].as_str().unwrap();
    let own = room.get("/r/1/t/1/api/state", Some(first)).await;
    assert_eq!(own.status, StatusCode::OK);
    let other = room.get("/r/1/t/2/api/state", Some(first)).await;
    assert_eq!(other.status, StatusCode::UNAUTHORIZED, "{}", other.json);
    // Its page's view names the event, its round and the table, for the
    // header; the game's own progress counts turns, never rounds.
    for (t, table) in tables.iter().enumerate() {
        let path = table["path"].as_str().unwrap();
        for token in [
            table["referee"].as_str().unwrap(),
            table["players"][1]["token"].as_str().unwrap(),
        ] {
            let view = room.get(&format!("{path}/api/view"), Some(token)).await;
            assert_eq!(view.status, StatusCode::OK, "{}", view.json);
            assert_eq!(
                view.json["room"],
                json!({"event": "cup", "round": 1, "table": t + 1})
            );
            assert_eq!(view.json["progress"], "turn 0 of 20");
        }
        assert_eq!(table["progress"], "turn 0 of 20");
        assert_eq!(table["pending"], json!(["the roll for turn 1"]));
    }
    for (path, why) in [
        ("/r/3/t/1/api/state", "round 3"),
        ("/r/1/t/9/api/state", "table 9"),
        ("/r/x/t/1", "/r/x/t/1"),
    ] {
        let answer = room.get(path, Some(first)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            answer.json["error"].as_str().unwrap().contains(why),
            "{path}: {}",
            answer.json
        );
    }

    // Both tables play at once, a decision at each in turn.
    let (mut one, mut two) = (true, true);
    while one || two {
        if one {
            one = room.step(&tables[0]).await;
        }
        if two {
            two = room.step(&tables[1]).await;
        }
    }

    // The room attaches each result by itself, within a few seconds.
    let mut board = room.board().await;
    for _ in 0..50 {
        if board["tables"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["done"] == true)
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        board = room.board().await;
    }
    for table in board["tables"].as_array().unwrap() {
        assert_eq!(table["done"], true, "{table}");
        for seat in table["players"].as_array().unwrap() {
            assert!(seat["score"].is_i64() && seat["rank"].is_u64(), "{seat}");
        }
    }
    let said = room.said.lock().unwrap().clone();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said.iter().all(|s| s.contains("result attached")),
        "{said:?}"
    );
    let rows = board["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r["played"] == 1), "{rows:?}");
    assert_eq!(board["standings"]["rounds_complete"], 1);
    // The same standings as the command line gives from the event log.
    let (code, out, err) = common::sunfold(&[
        "event",
        "standings",
        room.event.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let printed: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(printed, board["standings"]);

    // The next round is seated from the board, and served at once.
    assert_eq!(board["can_seat"], true);
    let seated = room.post("/api/seat", &room.board, String::new()).await;
    assert_eq!(seated.status, StatusCode::OK, "{}", seated.json);
    assert_eq!(seated.json["round"], 2);
    let board = room.board().await;
    assert_eq!(board["round"], 2);
    let table = &board["tables"][0];
    let token = table["players"][0]["token"].as_str().unwrap();
    let state = room
        .get(
            &format!("{}/api/state", table["path"].as_str().unwrap()),
            Some(token),
        )
        .await;
    assert_eq!(state.status, StatusCode::OK, "{}", state.json);
    // Seating again before round 2 is done is refused, and says why.
    let again = room.post("/api/seat", &room.board, String::new()).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.json);
    assert!(
        again.json["error"]
            .as_str()
            .unwrap()
            .contains("every table of round 2 to have a result"),
        "{}",
        again.json
    );

    // The round's join slips, as a PDF.
    let slips = room.get("/api/slips.pdf", Some(&room.board)).await;
    assert_eq!(slips.status, StatusCode::OK);
    assert_eq!(slips.headers[header::CONTENT_TYPE], "application/pdf");
    assert!(slips.bytes.starts_with(b"%PDF"));
    let refused = room.get("/api/slips.pdf", Some(token)).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    // Every slip names the game, the event, the round, the table and the
    // seat, and where to type its short code, at
    // 6 pt or more however many share a page.
    let tokens = Tokens::new(&[]).unwrap();
    for per_page in [1, 4, 8] {
        let scene = room::board::slips(
            &sunfold::render::text::installed::FontSource::builtin(),
            &room.event,
            "http://10.0.0.1:8062/",
            &tokens,
            Some(1),
            per_page,
        )
        .unwrap()
        .scene;
        let mut texts = Vec::new();
        for page in &scene.pages {
            let (size, text) = sunfold::render::scene::smallest_text(&page.items).unwrap();
            assert!(
                size / sunfold::render::scene::MM_PER_PT >= 6.0,
                "{text} at {size} mm"
            );
            texts.extend(page_texts(&page.items));
        }
        for text in [
            "62 Soleils d'été · cup, round 1, table 2",
            "Seat 3. Scan with your phone to play; keep this slip to yourself.",
            "Cannot scan? Go to http://10.0.0.1:8062/join and type:",
        ] {
            assert!(texts.contains(&text.to_owned()), "{text}: {texts:?}");
        }
    }
}

fn page_texts(items: &[sunfold::render::scene::Item]) -> Vec<String> {
    use sunfold::render::scene::Item;
    let mut texts = Vec::new();
    for item in items {
        match item {
            Item::Text { text, .. } => texts.push(text.clone()),
            Item::Group { items, .. } => texts.extend(page_texts(items)),
            Item::Shape { .. } => {}
        }
    }
    texts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_log_no_longer_audits_is_shown_and_said_not_attached() {
    let room = start(
        "room-broken-table",
        "summertime",
        "Ann\nBob\n",
        &["--rounds", "1"],
    );
    let board = room.board().await;
    let path = board["tables"][0]["path"].as_str().unwrap().to_owned();
    let log = sunfold::event::table_path(&room.event, 1, 1);
    // Damaged by hand: its last line cut in two.
    let mut bytes = std::fs::read(&log).unwrap();
    bytes.extend_from_slice(b"{\"seq\":1,\"type\":");
    std::fs::write(&log, &bytes).unwrap();
    let mut shown = Value::Null;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        shown = room.board().await["tables"][0].clone();
        if !shown["problem"].is_null() {
            break;
        }
    }
    assert_eq!(shown["done"], false);
    assert!(!shown["problem"].is_null(), "{shown}");
    let referee = board["tables"][0]["referee"].as_str().unwrap();
    let state = room.get(&format!("{path}/api/state"), Some(referee)).await;
    assert_ne!(
        state.status,
        StatusCode::OK,
        "a damaged log is not served as if whole"
    );
}

/// `POST /join` of the form body `form`.
async fn join(room: &Room, path: &str, form: String) -> Answer {
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    room.send(request).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slip_s_short_code_at_the_room_s_join_leads_to_its_seat_or_the_board() {
    let room = start(
        "room-join",
        "soleils",
        "Ann\nBob\nCid\n",
        &["--rounds", "1"],
    );
    // A wrong code, typed by anyone without a token, makes and changes no
    // tokens file: before the tables' tokens are made, and after.
    let file = sunfold::serve::tokens::path_for(&sunfold::event::table_path(&room.event, 1, 1));
    let before = std::fs::read(&file).ok();
    let answer = join(&room, "/join", "code=ZZZZZZZZZZ".to_owned()).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(
        std::fs::read(&file).ok(),
        before,
        "a wrong code wrote tokens"
    );
    let board = room.board().await;
    let table = &board["tables"][0];
    let seat = &table["players"][1];
    let made = std::fs::read(&file).unwrap();
    let answer = join(&room, "/join", "code=ZZZZZZZZZZ".to_owned()).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        made,
        "a wrong code rewrote tokens"
    );
    let tokens: Tokens = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let token = seat["token"].as_str().unwrap();
    let code = tokens.code_of(token).unwrap();
    let answer = join(&room, "/join", format!("code={}", code.to_lowercase())).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(
        answer.headers[header::LOCATION],
        format!("./r/1/t/1/#token={token}").as_str()
    );
    let code = room.tokens.code_of(&room.board).unwrap();
    let answer = join(&room, "/join", format!("code={code}")).await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(
        answer.headers[header::LOCATION],
        format!("./#token={}", room.board).as_str()
    );
    // The table's own /join, under its path, counts with the room's.
    let answer = join(&room, "/r/1/t/1/join", format!("code={code}")).await;
    assert_eq!(
        answer.status,
        StatusCode::FORBIDDEN,
        "the board's code is not the table's"
    );
    // Two wrong codes above, the table's own one, then seven more: ten.
    for _ in 1..8 {
        let answer = join(&room, "/join", "code=0000000000".to_owned()).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN);
    }
    let answer = join(
        &room,
        "/r/1/t/1/join",
        format!("code={}", tokens.code_of(token).unwrap()),
    )
    .await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
    let said = room.said.lock().unwrap().clone();
    assert!(
        said.iter().any(|l| l.contains("wrong join codes")),
        "{said:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_board_is_answered_304_with_its_etag() {
    let room = start(
        "room-board-etag",
        "soleils",
        "Ann\nBob\nCid\n",
        &["--table-size", "3", "--rounds", "2"],
    );
    // Given the board as it stands, with its tag.
    let first = room.get("/api/room", Some(&room.board)).await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = first.headers[header::ETAG].to_str().unwrap().to_owned();
    assert!(tag.starts_with('"') && tag.ends_with('"'), "{tag}");
    let asked = |tag: &str| {
        Request::get("/api/room")
            .header(header::AUTHORIZATION, format!("Bearer {}", room.board))
            .header(header::IF_NONE_MATCH, tag)
            .body(Body::empty())
            .unwrap()
    };
    // When nothing changed, the board is answered 304: its tag, no body.
    let again = room.send(asked(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert_eq!(again.headers[header::ETAG], tag.as_str());
    assert!(again.bytes.is_empty());
    assert_eq!(again.headers[header::CACHE_CONTROL], "no-store");
    // A page without the tag (an old board page) gets the whole board.
    assert_eq!(
        room.get("/api/room", Some(&room.board)).await.bytes,
        first.bytes
    );
    // When a table moves on, the board changes, and so does its tag.
    let table = first.json["tables"][0].clone();
    assert!(room.step(&table).await);
    let moved = room.send(asked(&tag)).await;
    assert_eq!(moved.status, StatusCode::OK);
    assert_ne!(moved.headers[header::ETAG], tag.as_str());
    assert_ne!(moved.json["tables"][0]["pending"], table["pending"]);
    // The tag is the board's own: without the board's token, 401.
    let stranger = Request::get("/api/room")
        .header(header::IF_NONE_MATCH, tag.as_str())
        .body(Body::empty())
        .unwrap();
    assert_eq!(room.send(stranger).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_polled_since_its_tag_gets_only_the_table_that_moved() {
    let room = start(
        "room-board-since",
        "soleils",
        "Ann\nBob\nCid\nDee\nEve\nFay\n",
        &["--table-size", "3", "--rounds", "2"],
    );
    // Given the board of two tables, with its tag...
    let first = room.get("/api/room", Some(&room.board)).await;
    assert_eq!(first.status, StatusCode::OK);
    let tag = first.headers[header::ETAG].to_str().unwrap().to_owned();
    let hex = tag.trim_matches('"').to_owned();
    let tables = first.json["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 2);
    let since = |hex: &str| format!("/api/room?since={hex}");

    // ...when nothing moved, then a poll since it is a 304: no body.
    let still = room.get(&since(&hex), Some(&room.board)).await;
    assert_eq!(still.status, StatusCode::NOT_MODIFIED);
    assert_eq!(still.headers[header::ETAG], tag.as_str());
    assert!(still.bytes.is_empty());

    // When table 2 moves on, a poll since the tag carries table 2 alone,
    // whole, and no field that did not change.
    assert!(room.step(&tables[1]).await);
    let moved = room.get(&since(&hex), Some(&room.board)).await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.json);
    let whole = room.get("/api/room", Some(&room.board)).await;
    assert_eq!(moved.headers[header::ETAG], whole.headers[header::ETAG]);
    assert_ne!(moved.headers[header::ETAG], tag.as_str());
    assert_eq!(
        moved.json,
        json!({"since": hex, "tables": [whole.json["tables"][1].clone()], "gone": []})
    );
    assert_ne!(whole.json["tables"][1], tables[1]);
    assert!(
        moved.bytes.len() * 2 < whole.bytes.len(),
        "{} bytes of {}",
        moved.bytes.len(),
        first.bytes.len()
    );
    // The board merged with it is the whole board.
    let mut merged = first.json.clone();
    merged["tables"][1] = moved.json["tables"][0].clone();
    assert_eq!(merged, whole.json);

    // A tag the server no longer keeps (or never gave) gets the whole
    // board; a query it does not know is refused.
    let unknown = room
        .get(&since("0123456789abcdef01234567"), Some(&room.board))
        .await;
    assert_eq!(unknown.status, StatusCode::OK);
    assert_eq!(unknown.json, whole.json);
    let wrong = room.get("/api/room?after=3", Some(&room.board)).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST, "{}", wrong.json);
    let said = wrong.json["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("serve_room__board_query_refused", said));
}
