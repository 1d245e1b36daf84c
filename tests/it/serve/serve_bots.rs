//! A bot in a seat of a served table (`sunfold serve FILE --bot NAME=BOT`),
//! over real HTTP on loopback: a person plays a whole game against it
//! through the API alone, the seat has no link, an undo by the referee
//! never leaves the bot's turn unplayed, a server killed at any moment of
//! a game of bots plays on from its log, every refusal of `--bot` is
//! pinned, and a bot that `event seat --bot` seated plays in the room.

use crate::common;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Long enough to mean that the bot never played: it only turns a hang
/// into a failure.
const HANG: Duration = Duration::from_secs(300);

/// `GET` or `POST` (with `body`) to `base` (a table's address) with
/// `token`: the status and the JSON answered.
fn call(base: &str, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
    let agent = common::driver::agent();
    let url = format!("{base}{path}");
    let bearer = format!("Bearer {token}");
    let answer = match body {
        None => agent.get(&url).header("Authorization", &bearer).call(),
        Some(body) => (agent.post(&url))
            .header("Authorization", &bearer)
            .send(body.to_string().as_bytes()),
    };
    let mut answer = answer.expect("the server answers");
    let status = answer.status().as_u16();
    let text = answer.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn lines(log: &str) -> Vec<Value> {
    (std::fs::read_to_string(log).unwrap().lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A new dealt Summertime log of Ann and Bob in the test's own folder,
/// with `extra` arguments (`--seed N`, `--physical`).
fn new_summertime(test: &str, extra: &[&str]) -> String {
    let log = common::fresh(test, "summertime.jsonl");
    let new = ["new", "summertime", &log, "--players", "Ann,Bob"];
    common::run_ok(&[&new[..], extra].concat());
    log
}

/// Plays the seat of `token` at the table at `base` to the end of the
/// game through the API: at each view, the first decision offered, until
/// the game is over. The posts made.
fn play_to_the_end(base: &str, token: &str) -> usize {
    let started = Instant::now();
    let mut posts = 0;
    loop {
        assert!(started.elapsed() < HANG, "the game did not end");
        let (status, view) = call(base, "/api/view", token, None);
        assert_eq!(status, 200, "{view}");
        if view["over"] == true {
            return posts;
        }
        let offered = (view["choices"].as_array().unwrap().iter())
            .find(|c| c["group"] != "undo")
            .cloned();
        match offered {
            Some(choice) => {
                let (status, said) = call(base, "/api/events", token, Some(&choice["event"]));
                // The bot or the dealer may have moved the table on since
                // the view: only a stale page's 409 or 422 is allowed.
                assert!([200, 409, 422].contains(&status), "{status}: {said}");
                posts += usize::from(status == 200);
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// Checks that the log at `log` audits valid and that each of its entries
/// after the start names who made it: a decision of a player of
/// `authors` that player's author (the player, or `bot:BOT`), any other
/// entry (a roll, a reveal, a discard) the dealer. How many entries each
/// of `authors` made, in their order.
pub(super) fn assert_each_by(log: &str, authors: &[(&str, &str)]) -> Vec<usize> {
    let (code, stdout, stderr) = common::sunfold(&["audit", log]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let mut made = vec![0; authors.len()];
    for (seq, line) in lines(log).iter().enumerate().skip(1) {
        let player = line["player"].as_str();
        let at = authors.iter().position(|(p, _)| Some(*p) == player);
        let expected = at.map_or("dealer", |i| authors[i].1);
        assert_eq!(line["by"], expected, "line {}: {line}", seq + 1);
        if let Some(i) = at {
            made[i] += 1;
        }
    }
    made
}

#[test]
fn a_person_plays_a_whole_soleils_game_against_greedy_with_no_referee() {
    // Given a new two-player game whose dice are digital, served with
    // Bob's seat given to the greedy bot...
    let log = common::new_soleils_table("bot-soleils", "m.jsonl");
    let served = common::serve(&log, &["--bot", "Bob=greedy", "--bot-pause", "0"]);
    // ...whose seat has no link,
    assert!(
        served.links["players"].get("Bob").is_none(),
        "{}",
        served.links
    );
    // when Ann plays her seat through the page's API alone,
    let posts = play_to_the_end(&served.base(), &served.token("Ann"));
    drop(served);
    // then the game ends, the log audits valid, and each entry names who
    // made it: Ann her own, the greedy bot Bob's, the dealer the rolls,
    assert!(posts > 10, "Ann posted {posts} decisions");
    let made = assert_each_by(&log, &[("Ann", "Ann"), ("Bob", "bot:greedy")]);
    assert!(made[1] > 10, "{made:?}");
    // as the audit says.
    let (_, said, _) = common::sunfold(&["audit", &log]);
    assert!(said.contains("by the bot greedy"), "{said}");
    assert!(said.contains("by the dealer"), "{said}");
}

#[test]
fn a_person_plays_a_whole_summertime_game_against_search() {
    // Given a dealt Summertime game served with Bob's seat given to the
    // search bot...
    let log = new_summertime("bot-summertime", &["--seed", "5"]);
    let served = common::serve(&log, &["--bot", "Bob=search:8", "--bot-pause", "0"]);
    // when Ann plays hers to the end through the API,
    play_to_the_end(&served.base(), &served.token("Ann"));
    drop(served);
    // then the log audits valid, every decision of Bob's is the bot's, and
    // every reveal and discard the dealer's.
    let made = assert_each_by(&log, &[("Ann", "Ann"), ("Bob", "bot:search:8")]);
    assert!(made[1] > 5, "{made:?}");
}

#[test]
fn the_old_link_of_a_seat_a_bot_plays_is_refused() {
    // Given a table first served with two people, whose links were printed,
    let log = common::new_soleils_table("bot-old-link", "m.jsonl");
    let before = common::serve(&log, &[]);
    let bob = before.token("Bob");
    drop(before);
    // when it is served again with Bob's seat given to a bot,
    let served = common::serve(&log, &["--bot", "Bob=greedy", "--bot-pause", "60000"]);
    // then Bob's old link is refused, with why.
    let (status, said) = call(&served.base(), "/api/view", &bob, None);
    assert_eq!(status, 403);
    let error = said["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("serve__bot_old_link", error));
}

/// The entries of the log, waiting until it holds more than `count`
/// after the start.
fn wait_for_entries(log: &str, count: usize) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let lines = lines(log);
        if lines.len() > count {
            return lines;
        }
        assert!(
            started.elapsed() < HANG,
            "the log stayed at {} lines",
            lines.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_undo_by_the_referee_never_leaves_the_bots_turn_unplayed() {
    // Given a table where the dealer rolled and the bot placed its die...
    let log = common::new_soleils_table("bot-undo", "m.jsonl");
    let served = common::serve(&log, &["--bot", "Bob=greedy", "--bot-pause", "0"]);
    let logged = wait_for_entries(&log, 2);
    assert_eq!(logged[1]["by"], "dealer");
    assert_eq!(logged[2]["by"], "bot:greedy");
    // when the referee takes the bot's last decision back, as the
    // referee's page offers it,
    let (base, referee) = (served.base(), served.token("referee"));
    let (status, view) = call(&base, "/api/view", &referee, None);
    assert_eq!(status, 200, "{view}");
    let undo = common::first_choice(&view, "undo");
    let (status, said) = call(&base, "/api/events", &referee, Some(&undo));
    assert_eq!(status, 200, "{said}");
    let undone = said["seq"].as_u64().unwrap() as usize;
    // then the bot decides again, after the undo.
    let logged = wait_for_entries(&log, undone + 1);
    assert_eq!(logged[undone]["type"], "undone");
    let next = &logged[undone + 1];
    assert_eq!(next["by"], "bot:greedy", "{next}");
    assert_eq!(next["player"], "Bob", "{next}");
    drop(served);
    // The log audits valid, every decision of Bob's the bot's.
    let (code, stdout, stderr) = common::sunfold(&["audit", &log]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    for line in lines(&log).iter().filter(|l| l["player"] == "Bob") {
        assert_eq!(line["by"], "bot:greedy", "{line}");
    }
}

/// Whether the game of `log` is over, as `sunfold status` says.
fn over(log: &str) -> bool {
    let (_, stdout, _) = common::sunfold(&["status", log, "--format", "json"]);
    let status: Value = serde_json::from_str(&stdout).expect("status is JSON");
    !status["state"]["ended"].is_null()
}

#[test]
fn a_game_of_bots_killed_at_any_moment_plays_on_from_its_log() {
    // Given a Summertime game whose two seats are bots...
    let log = new_summertime("bot-kill", &["--seed", "9"]);
    let args = ["--bot", "Ann=greedy", "--bot", "Bob=search:4"];
    let args = [&args[..], &["--bot-pause", "0"]].concat();
    let started = Instant::now();
    let mut kills = 0u64;
    // when the server is killed with SIGKILL again and again, each time
    // after a different short while, and started again,
    while !over(&log) {
        assert!(started.elapsed() < HANG, "the game did not end");
        let served = common::serve(&log, &args);
        std::thread::sleep(Duration::from_millis(30 + (kills * 37) % 200));
        drop(served); // Child::kill is SIGKILL.
        kills += 1;
        // then after each restart, the log audits valid: nothing was torn
        // or doubled,
        let (code, stdout, stderr) = common::sunfold(&["audit", &log]);
        assert_eq!(code, 0, "{stdout}{stderr}");
    }
    // and the game reaches its end, each seq once, every entry made by
    // its bot or the dealer.
    assert!(kills > 1, "the server was killed {kills} times");
    for (seq, line) in lines(&log).iter().enumerate() {
        assert_eq!(line["seq"], seq as u64);
    }
    assert_each_by(&log, &[("Ann", "bot:greedy"), ("Bob", "bot:search:4")]);
}

#[test]
fn every_refusal_of_bot_is_pinned() {
    let log = common::new_soleils_table("bot-refused", "m.jsonl");
    let physical = new_summertime("bot-refused", &["--physical"]);
    // A log of format 4, before bot authors.
    let old = common::fresh("bot-refused", "old.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let four = text.replace("\"format\":5", "\"format\":4");
    assert_ne!(four, text, "the log names its format 5");
    std::fs::write(&old, four).unwrap();
    let dir = std::path::Path::new(&log).parent().unwrap();
    let dir = dir.display().to_string();
    let cases: [(&str, &[&str]); 7] = [
        ("no equals sign", &["serve", &log, "--bot", "Bob"]),
        ("no such player", &["serve", &log, "--bot", "Rob=greedy"]),
        ("no such bot", &["serve", &log, "--bot", "Bob=gready"]),
        (
            "a seat twice",
            &["serve", &log, "--bot", "Bob=greedy", "--bot", "Bob=random"],
        ),
        ("a log before bots", &["serve", &old, "--bot", "Bob=greedy"]),
        (
            "a physical deal",
            &["serve", &physical, "--bot", "Bob=greedy"],
        ),
        ("a pause and no bot", &["serve", &log, "--bot-pause", "0"]),
    ];
    let mut said = String::new();
    for (case, args) in cases {
        let (code, _, stderr) = common::sunfold_or_hang(args);
        assert_eq!(code, 2, "{case}: {stderr}");
        said.push_str(&format!("{case}:\n{}\n", stderr.replace(&dir, "DIR")));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("serve__bot_refusals", said));
}

#[test]
fn a_bot_seated_by_event_seat_plays_its_table_in_the_room() {
    // Given a Summertime event of three, whose odd player meets a bot
    // instead of a bye...
    let dir = common::scratch("bot-room");
    let players = dir.join("p.txt");
    std::fs::write(&players, "Ann\nBob\nCid\n").unwrap();
    let event = dir.join("e.jsonl").display().to_string();
    let players = players.display().to_string();
    let new = ["event", "new", &event, "--game", "summertime"];
    let setup = ["--players-file", &players, "--rounds", "1", "--seed", "1"];
    common::run_ok(&[&new[..], &setup].concat());
    let seated = common::run_ok(&["event", "seat", &event, "--bot", "greedy"]);
    assert!(seated.contains("Bot (greedy)"), "{seated}");
    // ...served as a room,
    let served = common::serve_with(&["--event", &event, "--bot-pause", "0"]);
    let seat = (served.links["seats"].as_array().unwrap().iter())
        .find(|s| s["name"] == "Ann")
        .unwrap()
        .clone();
    let (table, token) = seat["link"]
        .as_str()
        .unwrap()
        .split_once("#token=")
        .unwrap();
    // when Ann plays her table to its end through its page's API,
    play_to_the_end(table.trim_end_matches('/'), token);
    drop(served);
    // then its log audits valid, the bot's seat played by its bot.
    let table = format!(
        "{}/e.d/round-1/table-{}.jsonl",
        dir.display(),
        seat["table"]
    );
    let made = assert_each_by(&table, &[("Ann", "Ann"), ("Bot (greedy)", "bot:greedy")]);
    assert!(made[1] > 5, "{made:?}");
}
