//! A bot in a seat of a served table (`sunfold serve FILE --bot NAME=BOT`),
//! over real HTTP on loopback: a person plays a whole game against it
//! through the API alone, the seat has no link, an undo by the referee
//! never leaves the bot's turn unplayed, a server killed at any moment of
//! a game of bots plays on from its log, and every refusal of `--bot` is
//! pinned.

use crate::common::{self, Served};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Long enough to mean that the bot never played: it only turns a hang
/// into a failure.
const HANG: Duration = Duration::from_secs(300);

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// `GET` or `POST` (with `body`) to the server with `token`: the status
/// and the JSON answered.
fn call(served: &Served, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
    let url = format!("{}{path}", served.base());
    let bearer = format!("Bearer {token}");
    let answer = match body {
        None => agent().get(&url).header("Authorization", &bearer).call(),
        Some(body) => (agent().post(&url))
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

/// Plays `who`'s seat to the end of the game through the API: at each
/// view, the first decision offered, until the game is over. The posts
/// made.
fn play_to_the_end(served: &Served, who: &str) -> usize {
    let token = served.token(who);
    let started = Instant::now();
    let mut posts = 0;
    loop {
        assert!(started.elapsed() < HANG, "the game did not end");
        let (status, view) = call(served, "/api/view", &token, None);
        assert_eq!(status, 200, "{view}");
        if view["over"] == true {
            return posts;
        }
        let offered = (view["choices"].as_array().unwrap().iter())
            .find(|c| c["group"] != "undo")
            .cloned();
        match offered {
            Some(choice) => {
                let (status, said) = call(served, "/api/events", &token, Some(&choice["event"]));
                // The bot or the dealer may have moved the table on since
                // the view: only a stale page's 409 or 422 is allowed.
                assert!([200, 409, 422].contains(&status), "{status}: {said}");
                posts += usize::from(status == 200);
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// The authors of a log's entries after the start, each with the entry's
/// player, if any.
fn authors(log: &str) -> Vec<(String, Option<String>)> {
    (lines(log).into_iter().skip(1))
        .map(|line| {
            let by = line["by"].as_str().unwrap_or("").to_owned();
            let player = line["player"].as_str().map(str::to_owned);
            (by, player)
        })
        .collect()
}

fn assert_audits_valid(log: &str) -> String {
    let (code, stdout, stderr) = common::sunfold(&["audit", log]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    stdout
}

#[test]
fn a_person_plays_a_whole_soleils_game_against_greedy_with_no_referee() {
    // Given a new two-player game whose dice are digital, served with
    // Rob's seat given to the greedy bot...
    let log = common::fresh("bot-soleils", "m.jsonl");
    common::run_ok(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Rob",
        "--dice-seed",
        "7",
    ]);
    let served = common::serve(&log, &["--bot", "Rob=greedy", "--bot-pause", "0"]);
    // ...whose seat has no link,
    assert!(
        served.links["players"].get("Rob").is_none(),
        "{}",
        served.links
    );
    // when Ann plays her seat through the page's API alone,
    let posts = play_to_the_end(&served, "Ann");
    drop(served);
    // then the game ends, the log audits valid, and each entry names who
    // made it: Ann her own, the greedy bot Rob's, the dealer the rolls.
    assert!(posts > 10, "Ann posted {posts} decisions");
    let said = assert_audits_valid(&log);
    assert!(said.contains("by the bot greedy"), "{said}");
    assert!(said.contains("by the dealer"), "{said}");
    for (line, (by, player)) in authors(&log).into_iter().enumerate() {
        let expected = match player.as_deref() {
            Some("Ann") => "Ann",
            Some("Rob") => "bot:greedy",
            _ => "dealer",
        };
        assert_eq!(by, expected, "line {}", line + 2);
    }
}

#[test]
fn a_person_plays_a_whole_summertime_game_against_search() {
    // Given a dealt Summertime game served with Rob's seat given to the
    // search bot...
    let log = common::fresh("bot-summertime", "s.jsonl");
    common::run_ok(&[
        "new",
        "summertime",
        &log,
        "--players",
        "Ann,Rob",
        "--seed",
        "5",
    ]);
    let served = common::serve(&log, &["--bot", "Rob=search:8", "--bot-pause", "0"]);
    // when Ann plays hers to the end through the API,
    play_to_the_end(&served, "Ann");
    drop(served);
    // then the log audits valid, every decision of Rob's is the bot's, and
    // every reveal and discard the dealer's.
    assert_audits_valid(&log);
    let authors = authors(&log);
    assert!(authors.iter().any(|(by, _)| by == "bot:search:8"));
    for (by, player) in authors {
        match player.as_deref() {
            Some("Ann") => assert_eq!(by, "Ann"),
            Some("Rob") => assert_eq!(by, "bot:search:8"),
            _ => assert_eq!(by, "dealer"),
        }
    }
}

#[test]
fn the_old_link_of_a_seat_a_bot_plays_is_refused() {
    // Given a table first served with two people, whose links were printed,
    let log = common::fresh("bot-old-link", "m.jsonl");
    common::run_ok(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Rob",
        "--dice-seed",
        "7",
    ]);
    let before = common::serve(&log, &[]);
    let rob = before.token("Rob");
    drop(before);
    // when it is served again with Rob's seat given to a bot,
    let served = common::serve(&log, &["--bot", "Rob=greedy", "--bot-pause", "60000"]);
    // then Rob's old link is refused, with why.
    let (status, said) = call(&served, "/api/view", &rob, None);
    assert_eq!(status, 403);
    let error = said["error"].as_str().unwrap().to_owned();
    common::snapshots().bind(|| insta::assert_snapshot!("serve__bot_old_link", error));
}

/// The entries of the log after the start, waiting until it holds at least
/// `count`.
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
    let log = common::fresh("bot-undo", "m.jsonl");
    common::run_ok(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Rob",
        "--dice-seed",
        "7",
    ]);
    let served = common::serve(&log, &["--bot", "Rob=greedy", "--bot-pause", "0"]);
    let lines = wait_for_entries(&log, 2);
    assert_eq!(lines[1]["by"], "dealer");
    assert_eq!(lines[2]["by"], "bot:greedy");
    // when the referee takes the bot's last decision back, as the
    // referee's page offers it,
    let referee = served.token("referee");
    let (status, view) = call(&served, "/api/view", &referee, None);
    assert_eq!(status, 200, "{view}");
    let undo = common::first_choice(&view, "undo");
    let (status, said) = call(&served, "/api/events", &referee, Some(&undo));
    assert_eq!(status, 200, "{said}");
    let undone = said["seq"].as_u64().unwrap() as usize;
    // then the bot decides again, after the undo.
    let lines = wait_for_entries(&log, undone + 1);
    assert_eq!(lines[undone]["type"], "undone");
    assert_eq!(
        lines[undone + 1]["by"],
        "bot:greedy",
        "{}",
        lines[undone + 1]
    );
    assert_eq!(lines[undone + 1]["player"], "Rob");
    drop(served);
    assert_audits_valid(&log);
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
    let log = common::fresh("bot-kill", "s.jsonl");
    common::run_ok(&[
        "new",
        "summertime",
        &log,
        "--players",
        "Ann,Rob",
        "--seed",
        "9",
    ]);
    let args = [
        "--bot",
        "Ann=greedy",
        "--bot",
        "Rob=search:4",
        "--bot-pause",
        "0",
    ];
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
        // then after each restart, the log replays: nothing was torn or
        // doubled,
        assert_audits_valid(&log);
    }
    // and the game reaches its end, every entry made once by a bot or the
    // dealer, each seq once.
    assert!(kills > 1, "the server was killed {kills} times");
    let lines = lines(&log);
    for (seq, line) in lines.iter().enumerate() {
        assert_eq!(line["seq"], seq as u64);
    }
    for (by, player) in authors(&log) {
        match player.as_deref() {
            Some("Ann") => assert_eq!(by, "bot:greedy"),
            Some("Rob") => assert_eq!(by, "bot:search:4"),
            _ => assert_eq!(by, "dealer"),
        }
    }
}

#[test]
fn every_refusal_of_bot_is_pinned() {
    let log = common::fresh("bot-refused", "m.jsonl");
    common::run_ok(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Rob",
        "--dice-seed",
        "7",
    ]);
    let physical = common::fresh("bot-refused", "p.jsonl");
    common::run_ok(&[
        "new",
        "summertime",
        &physical,
        "--players",
        "Ann,Rob",
        "--physical",
    ]);
    // A log of format 4, before bot authors.
    let old = common::fresh("bot-refused", "old.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&old, text.replace("\"format\":5", "\"format\":4")).unwrap();
    let dir = std::path::Path::new(&log)
        .parent()
        .unwrap()
        .display()
        .to_string();
    let cases: [(&str, &[&str]); 6] = [
        ("no equals sign", &["serve", &log, "--bot", "Rob"]),
        ("no such player", &["serve", &log, "--bot", "Bob=greedy"]),
        ("no such bot", &["serve", &log, "--bot", "Rob=gready"]),
        (
            "a seat twice",
            &["serve", &log, "--bot", "Rob=greedy", "--bot", "Rob=random"],
        ),
        ("a log before bots", &["serve", &old, "--bot", "Rob=greedy"]),
        (
            "a physical deal",
            &["serve", &physical, "--bot", "Rob=greedy"],
        ),
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
    common::run_ok(&[
        "event",
        "new",
        &event,
        "--game",
        "summertime",
        "--players-file",
        &players,
        "--rounds",
        "1",
        "--seed",
        "1",
    ]);
    let seated = common::run_ok(&["event", "seat", &event, "--bot", "greedy"]);
    assert!(seated.contains("Bot (greedy)"), "{seated}");
    // ...served as a room,
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
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut first,
    )
    .unwrap();
    let served = Served {
        child,
        links: serde_json::from_str(&first).unwrap(),
    };
    let seat = (served.links["seats"].as_array().unwrap().iter())
        .find(|s| s["name"] == "Ann")
        .unwrap()
        .clone();
    let link = seat["link"].as_str().unwrap();
    let (prefix, token) = link.split_once("#token=").unwrap();
    let prefix = prefix.trim_end_matches('/').to_owned();
    // when Ann plays her table to its end through its page's API,
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < HANG, "the game did not end");
        let view: Value = serde_json::from_str(
            &(agent().get(format!("{prefix}/api/view")))
                .header("Authorization", format!("Bearer {token}"))
                .call()
                .unwrap()
                .body_mut()
                .read_to_string()
                .unwrap(),
        )
        .unwrap();
        if view["over"] == true {
            break;
        }
        match (view["choices"].as_array().unwrap().iter()).find(|c| c["group"] != "undo") {
            Some(choice) => {
                let _ = (agent().post(format!("{prefix}/api/events")))
                    .header("Authorization", format!("Bearer {token}"))
                    .send(choice["event"].to_string().as_bytes());
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    drop(served);
    // then its log audits valid, the bot's seat played by its bot.
    let table = format!(
        "{}/e.d/round-1/table-{}.jsonl",
        dir.display(),
        seat["table"]
    );
    assert_audits_valid(&table);
    let by_bot = (authors(&table).into_iter())
        .filter(|(by, player)| by == "bot:greedy" && player.as_deref() == Some("Bot (greedy)"))
        .count();
    assert!(by_bot > 5, "{by_bot} decisions by the bot");
}
