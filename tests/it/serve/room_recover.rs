//! The room keeps its results true, in-process and without a clock: a
//! table log copied over with a bad one, then with the good one of the
//! same size, is read again by its bytes; the board names the bad line and
//! the rule it breaks; and a table whose result is attached, by the room
//! or by `sunfold event result`, takes no more entries.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use sunfold::event::{EventGame, table_path};
use sunfold::serve::Tokens;
use sunfold::serve::room::{self, Room, attach};

struct Served {
    event: PathBuf,
    room: Arc<Room>,
    router: axum::Router,
    board: String,
    said: Arc<Mutex<Vec<String>>>,
}

impl Served {
    async fn send(&self, request: Request<Body>) -> (StatusCode, Value) {
        use tower::ServiceExt;
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        let request = Request::get(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        self.send(request).await
    }

    async fn post(&self, path: &str, token: &str, body: String) -> (StatusCode, Value) {
        let request = Request::post(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::from(body))
            .unwrap();
        self.send(request).await
    }

    async fn board(&self) -> Value {
        let (status, board) = self.get("/api/room", &self.board).await;
        assert_eq!(status, StatusCode::OK, "{board}");
        board
    }

    /// Plays the board's table `table` to its end as its referee, the
    /// first legal decision each time.
    async fn play(&self, table: &Value) {
        let path = table["path"].as_str().unwrap();
        let referee = table["referee"].as_str().unwrap();
        loop {
            let (status, state) = self.get(&format!("{path}/api/state"), referee).await;
            assert_eq!(status, StatusCode::OK, "{state}");
            let Some(next) = state["legal_events"].as_array().unwrap().first() else {
                return;
            };
            let events = format!("{path}/api/events");
            let (status, posted) = self.post(&events, referee, next.to_string()).await;
            assert_eq!(status, StatusCode::OK, "{next}: {posted}");
        }
    }

    /// One look of the room at its tables, as its watch takes once a
    /// second: what it said.
    async fn look(&self, seen: attach::Seen) -> (Vec<String>, attach::Seen) {
        let room = self.room.clone();
        tokio::task::spawn_blocking(move || {
            let mut seen = seen;
            let said = attach::look(&room, &mut seen);
            (said, seen)
        })
        .await
        .unwrap()
    }
}

/// A 62 Soleils event of four players at two tables of two, its first
/// round seated, and its room, which looks at its tables only when told.
fn served(test: &str) -> Served {
    let event = PathBuf::from(common::fresh(test, "cup.jsonl"));
    let file = event.with_file_name("players.txt");
    std::fs::write(&file, "Ann\nBob\nCid\nDee\n").unwrap();
    let path = event.to_str().unwrap();
    for args in [
        vec![
            "event",
            "new",
            path,
            "--game",
            "soleils",
            "--players-file",
            file.to_str().unwrap(),
            "--table-size",
            "2",
            "--rounds",
            "2",
            "--seed",
            "5",
        ],
        vec!["event", "seat", path],
    ] {
        let (code, _, err) = common::sunfold(&args);
        assert_eq!(code, 0, "{err}");
    }
    let tokens = Tokens::new(&[]).unwrap();
    let said = Arc::new(Mutex::new(Vec::new()));
    let heard = said.clone();
    let report = Arc::new(move |line: String| heard.lock().unwrap().push(line));
    let room = Room::new(
        event.clone(),
        EventGame::Soleils,
        tokens.clone(),
        "http://10.0.0.1:8062/".to_owned(),
        report,
        Arc::new(sunfold::table::SystemClock),
    );
    Served {
        event,
        router: room::router(room.clone()),
        room,
        board: tokens.referee,
        said,
    }
}

/// The log's lines with the last one naming `from` as its player made to
/// name `to` (a name of the same length), and the chain after it made
/// good again: a log of the same size that no longer replays there.
fn one_line_illegal(log: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = std::str::from_utf8(log).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let (want, put) = (
        format!("\"player\":\"{from}\""),
        format!("\"player\":\"{to}\""),
    );
    let at = lines.iter().rposition(|l| l.contains(&want)).unwrap();
    lines[at] = lines[at].replace(&want, &put);
    for i in at + 1..lines.len() {
        let start = lines[i].find("\"prev\":\"").unwrap() + 8;
        let hash = sunfold::log::line_hash(lines[i - 1].as_bytes());
        lines[i].replace_range(start..start + 64, &hash);
    }
    let bad = lines.join("\n") + "\n";
    assert_eq!(bad.len(), log.len());
    bad.into_bytes()
}

fn shown(text: &str, dir: &Path) -> String {
    text.replace(dir.to_str().unwrap(), "DIR")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_log_copied_back_at_the_same_size_is_read_again_and_the_board_names_the_bad_line() {
    let served = served("room-recover-copied");
    let dir = served.event.parent().unwrap().to_owned();
    let board = served.board().await;
    let table = board["tables"][0].clone();
    served.play(&table).await;
    let log = table_path(&served.event, 1, 1);
    let good = std::fs::read(&log).unwrap();
    let names: Vec<&str> = (table["players"].as_array().unwrap().iter())
        .map(|p| p["name"].as_str().unwrap())
        .collect();

    // A bad log copied over the table's before the room looks.
    std::fs::write(&log, one_line_illegal(&good, names[0], names[1])).unwrap();
    let (said, seen) = served.look(attach::Seen::new()).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("result not attached"), "{said:?}");
    let shown_bad = served.board().await["tables"][0].clone();
    assert_eq!(shown_bad["done"], false);
    let problem = shown(shown_bad["problem"].as_str().unwrap(), &dir);
    assert!(problem.contains("table-1.jsonl:"), "{problem}");

    // The good one copied back, of the same size: read again, attached.
    std::fs::write(&log, &good).unwrap();
    let (said, seen) = served.look(seen).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("result attached"), "{said:?}");
    let shown_good = served.board().await["tables"][0].clone();
    assert_eq!(shown_good["done"], true, "{shown_good}");
    assert!(shown_good["problem"].is_null(), "{shown_good}");
    // Nothing changed since: nothing is offered again.
    let (said, _) = served.look(seen).await;
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(
        served.said.lock().unwrap().len(),
        0,
        "look says, not reports"
    );
    common::snapshots().bind(|| {
        insta::assert_snapshot!("room__board_names_the_bad_line", problem);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_result_is_attached_refuses_further_entries() {
    let served = served("room-recover-attached");
    let dir = served.event.parent().unwrap().to_owned();
    let board = served.board().await;
    let tables = board["tables"].as_array().unwrap().clone();
    for table in &tables {
        served.play(table).await;
    }
    let claim = |table: &Value| {
        let scores: serde_json::Map<String, Value> = (table["players"].as_array().unwrap())
            .iter()
            .map(|p| (p["name"].as_str().unwrap().to_owned(), json!(1)))
            .collect();
        json!({"type": "claimed", "scores": scores}).to_string()
    };
    let post_claim = |i: usize| {
        let table = &tables[i];
        let path = format!("{}/api/events", table["path"].as_str().unwrap());
        let referee = table["referee"].as_str().unwrap().to_owned();
        let body = claim(table);
        let served = &served;
        async move { served.post(&path, &referee, body).await }
    };
    // Before its result is attached, a claim after the end is taken.
    let (status, taken) = post_claim(1).await;
    assert_eq!(status, StatusCode::OK, "{taken}");

    // Table 2 attached by `sunfold event result`, table 1 by the room.
    let two = table_path(&served.event, 1, 2);
    let (code, _, err) = common::sunfold(&[
        "event",
        "result",
        served.event.to_str().unwrap(),
        "--table",
        "2",
        two.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (said, _) = served.look(attach::Seen::new()).await;
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("table 1: result attached"), "{said:?}");

    let mut refused = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let log = table_path(&served.event, 1, i as u32 + 1);
        let before = std::fs::read(&log).unwrap();
        let (status, answer) = post_claim(i).await;
        assert_eq!(status, StatusCode::CONFLICT, "{table}: {answer}");
        assert_eq!(std::fs::read(&log).unwrap(), before, "nothing appended");
        refused.push(shown(answer["error"].as_str().unwrap(), &dir));
    }
    let (code, out, err) = common::sunfold(&["event", "verify", served.event.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("room__attached_table_refuses_entries", refused[0]);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_torn_event_log_is_named_on_the_board_with_its_repair_and_the_room_works_after_it() {
    let served = served("room-recover-torn");
    let dir = served.event.parent().unwrap().to_owned();
    let whole = std::fs::read(&served.event).unwrap();
    std::fs::write(&served.event, &whole[..whole.len() - 20]).unwrap();
    let (status, answer) = served.get("/api/room", &served.board).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{answer}");
    let torn = shown(answer["error"].as_str().unwrap(), &dir);
    let (code, _, err) = common::sunfold(&["repair", served.event.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The torn line was the seating's: its tables' logs are there, and
    // seating again from the board writes the same ones.
    let tables = [1, 2].map(|t| table_path(&served.event, 1, t));
    let written = tables.clone().map(|t| std::fs::read(t).unwrap());
    let board = served.board().await;
    assert_eq!(board["round"], 0, "{board}");
    assert_eq!(board["can_seat"], true, "{board}");
    let (status, seated) = served.post("/api/seat", &served.board, String::new()).await;
    assert_eq!(status, StatusCode::OK, "{seated}");
    assert_eq!(served.board().await["round"], 1);
    for (table, bytes) in tables.iter().zip(&written) {
        assert_eq!(&std::fs::read(table).unwrap(), bytes, "{}", table.display());
    }
    common::snapshots().bind(|| {
        insta::assert_snapshot!("room__torn_event_log_on_the_board", torn);
    });
}
