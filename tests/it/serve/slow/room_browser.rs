//! `sunfold serve --event` in a real browser: the referee's board is open
//! in headless Chromium while two tables of the round are played at once
//! through their own paths on the one server; the board shows each
//! table's result and the standings as the room attaches them by itself.
//! A table's own page is served under its path, and works there.
//!
//! Without chromedriver these tests say so and pass, except under
//! `CI=true`, where they fail.

use crate::common;

use common::driver::{Driver, agent, axe, screenshot};
use serde_json::{Value, json};
use std::io::BufRead;

/// What the board shows, for a failure's message.
const SHOWN: &str = "return {progress: document.getElementById('progress').textContent, message: document.getElementById('message').textContent};";

/// A server of the whole room, killed when dropped.
struct Room {
    child: std::process::Child,
    listing: Value,
}

impl Drop for Room {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Room {
    fn base(&self) -> String {
        format!("http://{}", self.listing["listen"].as_str().unwrap())
    }

    fn get(&self, path: &str, token: &str) -> Value {
        let mut response = agent()
            .get(format!("{}{path}", self.base()))
            .header("authorization", format!("Bearer {token}"))
            .call()
            .unwrap();
        assert_eq!(response.status(), 200);
        serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap()
    }

    fn post(&self, path: &str, token: &str, body: &Value) {
        let mut response = agent()
            .post(format!("{}{path}", self.base()))
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json")
            .send(body.to_string())
            .unwrap();
        let text = response.body_mut().read_to_string().unwrap();
        assert_eq!(response.status(), 200, "{text}");
    }

    /// One decision at `table` (the board's), the first legal, posted as
    /// its referee; false once its game is over.
    fn step(&self, table: &Value) -> bool {
        let path = table["path"].as_str().unwrap();
        let referee = table["referee"].as_str().unwrap();
        let state = self.get(&format!("{path}/api/state"), referee);
        let Some(next) = state["legal_events"].as_array().unwrap().first() else {
            return false;
        };
        self.post(&format!("{path}/api/events"), referee, next);
        true
    }
}

#[test]
fn the_board_shows_two_tables_played_at_once_and_the_standings_update() {
    let Some(driver) = Driver::start("1280,900").map(|d| d.showing(SHOWN)) else {
        return;
    };
    let event = common::fresh("room-browser", "cup.jsonl");
    let players = std::path::Path::new(&event).with_file_name("players.txt");
    std::fs::write(&players, "Ann\nBob\nCid\nDee\nEve\nFay\n").unwrap();
    let new = [
        "event",
        "new",
        &event,
        "--game",
        "soleils",
        "--players-file",
        players.to_str().unwrap(),
        "--table-size",
        "3",
        "--rounds",
        "2",
        "--seed",
        "9",
    ];
    let (code, _, stderr) = common::sunfold(&new);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = common::sunfold(&["event", "seat", &event]);
    assert_eq!(code, 0, "{stderr}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args([
            "serve",
            "--event",
            &event,
            "--listen",
            "127.0.0.1:0",
            "--format",
            "json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let room = Room {
        child,
        listing: serde_json::from_str(&first).expect("one JSON line of links"),
    };
    assert_eq!(room.listing["round"], 1);
    assert_eq!(room.listing["seats"].as_array().unwrap().len(), 6);
    let board_link = room.listing["board"].as_str().unwrap().to_owned();
    let token = board_link.split("#token=").nth(1).unwrap().to_owned();

    driver.open(&board_link);
    driver.eventually(
        "return document.getElementById('progress').textContent;",
        &json!("0 of 2 tables done; 0 rounds complete"),
        "the board of round 1",
    );
    // "Round" is the event's alone on the board: each table's game counts
    // turns.
    assert_eq!(
        driver.script("return document.getElementById('title').textContent;"),
        json!("Event cup \u{b7} round 1 of 2")
    );
    assert_eq!(
        driver.script("return document.title;"),
        json!("Event cup \u{b7} round 1 \u{b7} sunfold room")
    );
    driver.eventually(
        "return document.querySelector('.table .pending').textContent;",
        &json!("Waiting for the roll for turn 1"),
        "a table's game in turns",
    );

    // A seat's page, under its table's path, loads its own table.
    let seat = &room.listing["seats"][0];
    driver.open(seat["link"].as_str().unwrap());
    driver.eventually(
        "return document.getElementById('who').textContent;",
        &json!(seat["name"]),
        "the seat's own page",
    );
    // Its header names the event, its round and the table; the game's
    // progress is in turns, and no count of the log's lines.
    let table = seat["table"].as_u64().unwrap();
    let place = format!("Event cup \u{b7} round 1 \u{b7} table {table}");
    assert_eq!(
        driver.script("return document.getElementById('place').textContent;"),
        json!(place)
    );
    assert_eq!(
        driver.script("return document.getElementById('progress').textContent;"),
        json!("turn 0 of 20")
    );
    assert_eq!(
        driver.script("return document.title;"),
        json!(format!("{} \u{b7} {place}", seat["name"].as_str().unwrap()))
    );
    assert!(driver.console().is_empty(), "{:?}", driver.console());

    // The two tables are played at once, while the board is open.
    driver.open(&board_link);
    let tables = room.get("/api/room", &token)["tables"].clone();
    let (mut one, mut two) = (true, true);
    while one || two {
        if one {
            one = room.step(&tables[0]);
        }
        if two {
            two = room.step(&tables[1]);
        }
    }
    driver.eventually(
        "return document.getElementById('progress').textContent;",
        &json!("2 of 2 tables done; 1 round complete"),
        "both results attached",
    );
    // Every player's row of the standings shows one table played.
    driver.eventually(
        "return Array.prototype.map.call(document.querySelectorAll('#standings tbody tr'), function (r) { return r.cells[6].textContent; }).join(',');",
        &json!("1,1,1,1,1,1"),
        "the standings updated",
    );
    // The board prints the points and the opponents' points as every
    // other output does.
    let log = sunfold::event::EventLog::open(std::path::Path::new(&event)).unwrap();
    let printed: Vec<String> = (sunfold::event::standings(&log.state).rows.iter())
        .map(|r| format!("{}|{}", r.points, r.buchholz))
        .collect();
    driver.eventually(
        "return Array.prototype.map.call(document.querySelectorAll('#standings tbody tr'), function (r) { return r.cells[2].textContent + '|' + r.cells[4].textContent; }).join(',');",
        &json!(printed.join(",")),
        "the points printed as the text prints them",
    );
    driver.wait(
        "var b = document.getElementById('seat'); return !b.hidden && b.textContent === 'Seat round 2';",
        "the next round offered",
    );
    let violations = axe(&driver);
    assert!(violations.is_empty(), "{violations:#?}");
    // The board's page came compressed; an unchanged board is answered
    // 304, its few bytes, and the board stays drawn.
    let (sizes, plain) = common::driver::wire_sizes(&driver);
    assert!(!sizes.is_empty() && plain.is_empty(), "{sizes:?}");
    driver.wait(
        "return performance.getEntriesByType('resource').some(function (e) { return /[/]api[/]room([?]since=[0-9a-f]+)?$/.test(e.name) && e.responseStatus === 304 && e.encodedBodySize === 0; });",
        "an unchanged board answered 304",
    );
    driver.eventually(
        "return document.getElementById('progress').textContent;",
        &json!("2 of 2 tables done; 1 round complete"),
        "the board still drawn after a 304",
    );
    screenshot(&driver, "room-screenshots", "board-laptop.png");

    // Round 2 seated from the board.
    driver.tap("#seat");
    driver.eventually(
        "return document.getElementById('progress').textContent;",
        &json!("0 of 2 tables done; 1 round complete"),
        "round 2 seated",
    );
    assert!(driver.console().is_empty(), "{:?}", driver.console());
    let (code, stdout, stderr) = common::sunfold(&["event", "seating", &event, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let seating: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(seating["round"], 2);
}
