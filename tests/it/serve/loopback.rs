//! `sunfold serve` over real HTTP on loopback: whole golden games played
//! through it by one client per player, 12 players posting at the same
//! instant, a kill and a restart mid-game, the tokens, the live stream and
//! the page's headers. Every refusal and its status is tested in-process,
//! in tests/it/serve/serve_app.rs.
//!
//! Each test starts the binary as a child process on `127.0.0.1:0`, reads
//! the links from its one JSON line, and kills it when done.

use crate::common;

use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Barrier, mpsc};
use std::time::Duration;

/// A running `sunfold serve`, killed when dropped.
struct Server {
    child: Child,
    /// Kept open so that the server never writes to a closed pipe.
    _stdout: BufReader<ChildStdout>,
    /// The JSON line it printed.
    links: Value,
    /// `http://127.0.0.1:PORT`.
    base: String,
    /// Each player's token.
    players: BTreeMap<String, String>,
    referee: String,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The token of a join link, after `#token=`.
fn token_of(link: &Value) -> String {
    let link = link.as_str().expect("a link is a string");
    link.rsplit_once("#token=")
        .unwrap_or_else(|| panic!("expected #token= in {link}"))
        .1
        .to_owned()
}

impl Server {
    fn start(log: &Path, extra: &[&str]) -> Server {
        Server::start_on(log, "127.0.0.1:0", extra)
    }

    fn start_on(log: &Path, listen: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sunfold"))
            .arg("serve")
            .arg(log)
            .args(["--listen", listen, "--format", "json"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        let mut line = String::new();
        let read = stdout.read_line(&mut line);
        if read.is_err() || line.trim().is_empty() {
            let _ = child.kill();
            let status = child.wait();
            panic!("sunfold serve printed no links ({read:?}), and ended with {status:?}");
        }
        let links: Value = serde_json::from_str(&line).expect("the links line is JSON");
        let listen = links["listen"].as_str().expect("listen").to_owned();
        let players = links["players"]
            .as_object()
            .expect("players")
            .iter()
            .map(|(name, link)| (name.clone(), token_of(link)))
            .collect();
        let referee = token_of(&links["referee"]);
        Server {
            child,
            _stdout: stdout,
            base: format!("http://{listen}"),
            links,
            players,
            referee,
            log: log.to_owned(),
        }
    }

    /// The token that may post `line`: its player's, or else the referee's.
    fn token_for(&self, line: &Value) -> &str {
        match line.get("player").and_then(Value::as_str) {
            Some(player) => &self.players[player],
            None => &self.referee,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// A client that reads 4xx and 5xx answers instead of failing on them.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// An answer: its status, headers and body.
struct Answer {
    status: u16,
    headers: ureq::http::HeaderMap,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("expected a JSON body ({e}), but found {:?}", self.body))
    }
}

fn answer(result: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    let mut response = result.expect("the request gets an answer");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .expect("the body reads");
    Answer {
        status,
        headers,
        body,
    }
}

fn get(agent: &ureq::Agent, url: &str, token: Option<&str>) -> Answer {
    let mut request = agent.get(url);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    answer(request.call())
}

fn post(agent: &ureq::Agent, url: &str, token: Option<&str>, body: &[u8]) -> Answer {
    let mut request = agent.post(url);
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    answer(request.send(body))
}

/// The lines of a golden replay, parsed.
fn golden(name: &str) -> Vec<Value> {
    read_lines(&common::repo().join("replays").join(name))
}

fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a log line is JSON"))
        .collect()
}

/// A line without the fields `keys`.
fn without(line: &Value, keys: &[&str]) -> Value {
    let mut object: Map<String, Value> = line.as_object().expect("an object").clone();
    for key in keys {
        object.remove(*key);
    }
    Value::Object(object)
}

/// What a client posts for a log line: the entry without seq, at and prev.
fn wire(line: &Value) -> Value {
    without(line, &["seq", "at", "prev"])
}

/// A fresh log in the test's folder holding the golden replay's first line.
fn fresh_log(test: &str, golden_name: &str) -> PathBuf {
    let path = PathBuf::from(common::fresh(test, "match.jsonl"));
    let _ = std::fs::remove_file(tokens_path(&path));
    let text = std::fs::read_to_string(common::repo().join("replays").join(golden_name)).unwrap();
    let first = text.lines().next().expect("a start line");
    std::fs::write(&path, format!("{first}\n")).unwrap();
    path
}

fn tokens_path(log: &Path) -> PathBuf {
    let mut name = log.file_name().unwrap().to_owned();
    name.push(".tokens");
    log.with_file_name(name)
}

/// One client per token, as the table has one phone per player.
struct Clients(BTreeMap<String, ureq::Agent>);

impl Clients {
    fn new() -> Clients {
        Clients(BTreeMap::new())
    }

    fn of(&mut self, token: &str) -> &ureq::Agent {
        self.0.entry(token.to_owned()).or_insert_with(agent)
    }
}

/// Posts each of `lines` with its actor's token, expecting each accepted at
/// its own seq.
fn play(server: &Server, clients: &mut Clients, lines: &[Value]) {
    let url = server.url("/api/events");
    for line in lines {
        let token = server.token_for(line).to_owned();
        let body = wire(line).to_string();
        let answer = post(clients.of(&token), &url, Some(&token), body.as_bytes());
        assert_eq!(
            answer.status, 200,
            "posting {body} (golden seq {}): {}",
            line["seq"], answer.body
        );
        let accepted = answer.json();
        assert_eq!(accepted["seq"], line["seq"], "{}", answer.body);
        assert_eq!(accepted["kind"], line["type"], "{}", answer.body);
    }
}

/// The log at `path` equals the golden lines, ignoring `at` and `prev`.
fn assert_same_as_golden(path: &Path, golden: &[Value]) {
    let played = read_lines(path);
    assert_eq!(played.len(), golden.len(), "{}", path.display());
    for (i, (p, g)) in played.iter().zip(golden).enumerate() {
        assert_eq!(
            without(p, &["at", "prev"]),
            without(g, &["at", "prev"]),
            "line {} of {}",
            i + 1,
            path.display()
        );
    }
}

fn assert_replays(path: &Path) {
    let path = path.display().to_string();
    let (code, out, err) = common::sunfold(&["replay", &path]);
    assert_eq!(code, 0, "sunfold replay {path}:\n{out}\n{err}");
}

/// Every line after the start line carries a `prev`: the server's log is
/// chained from its first append.
fn assert_chained(path: &Path) {
    for (i, line) in read_lines(path).iter().enumerate().skip(1) {
        let prev = line["prev"].as_str().unwrap_or_default();
        assert_eq!(prev.len(), 64, "line {} has no prev hash: {line}", i + 1);
    }
}

fn play_golden(test: &str, name: &str) {
    let golden = golden(name);
    let log = fresh_log(test, name);
    let server = Server::start(&log, &[]);
    let mut clients = Clients::new();
    play(&server, &mut clients, &golden[1..]);
    drop(server);
    assert_same_as_golden(&log, &golden);
    assert_chained(&log);
    assert_replays(&log);
}

#[test]
fn a_four_player_game_played_through_http_equals_the_golden_one() {
    play_golden("serve-golden-4p", "soleils-4p-sun-limit.jsonl");
}

#[test]
fn a_twelve_player_game_played_through_http_equals_the_golden_one() {
    play_golden("serve-golden-12p", "soleils-12p.jsonl");
}

#[test]
fn a_two_player_game_played_through_http_equals_the_golden_one() {
    play_golden("serve-golden-2p", "soleils-2p-round-limit.jsonl");
}

#[test]
fn summertime_games_played_through_http_equal_the_golden_ones() {
    for name in [
        "summertime-double-pass-ending.jsonl",
        "summertime-last-card-bought.jsonl",
        "summertime-rulebook-examples.jsonl",
    ] {
        play_golden(&format!("serve-golden-{name}"), name);
    }
}

/// Posts `body` and expects `status`, with the log's bytes unchanged.
fn refused_bare(
    server: &Server,
    token: Option<&str>,
    body: &[u8],
    status: u16,
    what: &str,
) -> Answer {
    let before = std::fs::read(&server.log).unwrap();
    let answer = post(&agent(), &server.url("/api/events"), token, body);
    assert_eq!(answer.status, status, "{what}: {}", answer.body);
    assert_eq!(
        std::fs::read(&server.log).unwrap(),
        before,
        "{what}: the log changed"
    );
    answer
}

/// As [`refused_bare`], and the answer says why, as JSON with its status.
fn refused(server: &Server, token: Option<&str>, body: &[u8], status: u16, what: &str) -> Answer {
    let answer = refused_bare(server, token, body, status, what);
    let json = answer.json();
    assert_eq!(json["status"], status, "{what}: {}", answer.body);
    assert!(
        json["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{what}: {}",
        answer.body
    );
    answer
}

/// The golden lines after the start line, one round each: its roll, then
/// every decision until the next roll.
fn rounds(golden: &[Value]) -> Vec<Vec<Value>> {
    let mut rounds: Vec<Vec<Value>> = Vec::new();
    for line in &golden[1..] {
        if line["type"] == "rolled" || rounds.is_empty() {
            rounds.push(Vec::new());
        }
        rounds.last_mut().unwrap().push(line.clone());
    }
    rounds
}

#[test]
fn twelve_players_posting_at_the_same_instant_each_append_once() {
    let golden = golden("soleils-12p.jsonl");
    let log = fresh_log("serve-twelve", "soleils-12p.jsonl");
    let server = Arc::new(Server::start(&log, &[]));
    let names: Vec<String> = golden[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names.len(), 12);
    let referee = agent();
    for round in rounds(&golden) {
        // The referee rolls the golden roll.
        let roll = &round[0];
        assert_eq!(roll["type"], "rolled");
        let before = read_lines(&log).len() as u64;
        let rolled = post(
            &referee,
            &server.url("/api/events"),
            Some(&server.referee),
            wire(roll).to_string().as_bytes(),
        );
        assert_eq!(rolled.status, 200, "{}", rolled.body);
        assert_eq!(rolled.json()["seq"], before);

        // Then each player's decisions of the round, from 12 clients at once.
        let barrier = Arc::new(Barrier::new(names.len()));
        let threads: Vec<_> = names
            .iter()
            .map(|name| {
                let mine: Vec<Value> = round[1..]
                    .iter()
                    .filter(|l| l["player"] == name.as_str())
                    .map(wire)
                    .collect();
                let server = server.clone();
                let barrier = barrier.clone();
                let token = server.players[name].clone();
                std::thread::spawn(move || {
                    let client = agent();
                    let url = server.url("/api/events");
                    barrier.wait();
                    mine.into_iter()
                        .map(|entry| {
                            let answer =
                                post(&client, &url, Some(&token), entry.to_string().as_bytes());
                            (entry, answer.status, answer.body)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut seqs = Vec::new();
        let mut posted = Vec::new();
        for thread in threads {
            for (entry, status, body) in thread.join().expect("a client thread") {
                assert_eq!(status, 200, "{entry}: {body}");
                let answer: Value = serde_json::from_str(&body).unwrap();
                seqs.push(answer["seq"].as_u64().unwrap());
                posted.push(entry);
            }
        }
        // Each once, at the seqs right after the roll.
        seqs.sort_unstable();
        let expected: Vec<u64> = (before + 1..before + round.len() as u64).collect();
        assert_eq!(seqs, expected, "the seqs answered in round {}", roll["seq"]);
        let lines = read_lines(&log);
        assert_eq!(lines.len() as u64, before + round.len() as u64);
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line["seq"], i as u64, "{line}");
        }
        let mut written: Vec<String> = lines[before as usize + 1..]
            .iter()
            .map(|l| wire(l).to_string())
            .collect();
        let mut posted: Vec<String> = posted.iter().map(Value::to_string).collect();
        written.sort();
        posted.sort();
        assert_eq!(written, posted, "round {}", roll["seq"]);
        // Each player's decisions stay in the order they made them.
        for name in &names {
            let theirs = |lines: &[Value]| -> Vec<Value> {
                lines
                    .iter()
                    .filter(|l| l["player"] == name.as_str())
                    .map(wire)
                    .collect()
            };
            assert_eq!(
                theirs(&lines[before as usize + 1..]),
                theirs(&round[1..]),
                "{name}"
            );
        }
    }
    drop(server);
    assert_chained(&log);
    assert_replays(&log);
    // The same game, in another order within each round: the same scores.
    let totals = |path: &Path| {
        let path = path.display().to_string();
        let (code, out, err) = common::sunfold(&["status", &path, "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        let status: Value = serde_json::from_str(&out).unwrap();
        (status["events"].clone(), status["progress"].clone())
    };
    assert_eq!(
        totals(&log),
        totals(&common::repo().join("replays/soleils-12p.jsonl"))
    );
}

#[test]
fn a_server_killed_mid_game_starts_again_with_the_same_links() {
    let name = "soleils-4p-sun-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-restart", name);
    let mut clients = Clients::new();
    let half = golden.len() / 2;

    let server = Server::start(&log, &[]);
    let links = server.links.clone();
    let listen = links["listen"].as_str().unwrap().to_owned();
    play(&server, &mut clients, &golden[1..half]);
    // Killed, as by a power cut or a closed laptop: no graceful shutdown.
    drop(server);
    assert_replays(&log);

    // On the same port the links are the same, byte for byte.
    let server = Server::start_on(&log, &listen, &[]);
    assert_eq!(server.links, links);
    // The old clients keep their connections' tokens and play on.
    play(&server, &mut clients, &golden[half..half + 10]);
    drop(server);

    // On another port, the same tokens.
    let server = Server::start(&log, &[]);
    let tokens: Vec<String> = links["players"]
        .as_object()
        .unwrap()
        .values()
        .map(token_of)
        .collect();
    assert_eq!(server.players.values().cloned().collect::<Vec<_>>(), tokens);
    assert_eq!(server.referee, token_of(&links["referee"]));
    play(&server, &mut clients, &golden[half + 10..]);
    drop(server);
    assert_same_as_golden(&log, &golden);
    assert_replays(&log);
}

#[test]
fn tokens_stay_secret_and_new_links_replace_them_all() {
    use std::os::unix::fs::PermissionsExt;
    let name = "soleils-2p-round-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-tokens", name);
    let server = Server::start(&log, &[]);
    let mut clients = Clients::new();
    play(&server, &mut clients, &golden[1..8]);

    // The file beside the log holds exactly the links' tokens, for its
    // owner's eyes only.
    let file = tokens_path(&log);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{}: mode {mode:o}", file.display());
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(stored["referee"], server.referee.as_str());
    for (name, token) in &server.players {
        assert_eq!(stored["players"][name], token.as_str());
    }
    let old: Vec<String> = server
        .players
        .values()
        .cloned()
        .chain([server.referee.clone()])
        .collect();
    for token in &old {
        assert_eq!(token.len(), 64);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    }

    // No token in the log, the state or any page.
    let leaks = |text: &str, what: &str| {
        for token in &old {
            assert!(!text.contains(token.as_str()), "{what} holds a token");
        }
    };
    leaks(&std::fs::read_to_string(&log).unwrap(), "the log");
    let client = agent();
    for token in &old {
        let state = get(&client, &server.url("/api/state"), Some(token));
        assert_eq!(state.status, 200, "{}", state.body);
        leaks(&state.body, "/api/state");
        let view = get(&client, &server.url("/api/view"), Some(token));
        assert_eq!(view.status, 200);
        leaks(&view.body, "/api/view");
    }
    // A player's page shows their own sheet only.
    for (name, token) in &server.players {
        let view = get(&client, &server.url("/api/view"), Some(token)).json();
        assert_eq!(view["role"], "player");
        assert_eq!(view["name"], name.as_str());
        let panels: Vec<&Value> = view["panels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| &p["name"])
            .collect();
        assert_eq!(panels, [name.as_str()], "{name}'s panels");
    }
    let view = get(&client, &server.url("/api/view"), Some(&server.referee)).json();
    assert_eq!(view["role"], "referee");
    assert_eq!(view["panels"].as_array().unwrap().len(), 2);
    drop(server);

    // --new-links: every token changes, the old ones stop working.
    let server = Server::start(&log, &["--new-links"]);
    let new: Vec<String> = server
        .players
        .values()
        .cloned()
        .chain([server.referee.clone()])
        .collect();
    assert_eq!(new.len(), old.len());
    for token in &new {
        assert!(!old.contains(token), "a token survived --new-links");
    }
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "after --new-links: mode {mode:o}");
    for token in &old {
        assert_eq!(
            get(&client, &server.url("/api/state"), Some(token)).status,
            401
        );
        assert_eq!(
            get(&client, &server.url("/api/view"), Some(token)).status,
            401
        );
    }
    let next = &golden[8];
    let before = std::fs::read(&log).unwrap();
    let old_token = if next.get("player").is_some() {
        &old[0]
    } else {
        old.last().unwrap()
    };
    let answer = post(
        &client,
        &server.url("/api/events"),
        Some(old_token),
        wire(next).to_string().as_bytes(),
    );
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert_eq!(std::fs::read(&log).unwrap(), before);
    // The new ones work, and stay across a restart without --new-links.
    play(&server, &mut clients, &golden[8..9]);
    drop(server);
    let server = Server::start(&log, &[]);
    assert_eq!(
        server
            .players
            .values()
            .cloned()
            .chain([server.referee.clone()])
            .collect::<Vec<_>>(),
        new
    );
    leaks(&std::fs::read_to_string(&log).unwrap(), "the log");
    drop(server);
    assert_replays(&log);
}

/// Reads server-sent events from `/api/stream` on a thread, sending each
/// `(event, data)` down the channel.
fn listen(server: &Server, token: &str) -> mpsc::Receiver<(String, String)> {
    let client: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let response = client
        .get(server.url("/api/stream"))
        .header("Authorization", format!("Bearer {token}"))
        .call()
        .expect("the stream opens");
    assert_eq!(response.status().as_u16(), 200);
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let (send, receive) = mpsc::channel();
    let reader = BufReader::new(response.into_body().into_reader());
    std::thread::spawn(move || {
        let mut event = String::new();
        let mut data = String::new();
        for line in reader.lines() {
            let Ok(line) = line else { return };
            if let Some(e) = line.strip_prefix("event:") {
                event = e.trim().to_owned();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.strip_prefix(' ').unwrap_or(d));
            } else if line.is_empty() && !data.is_empty() {
                // The test that listens has ended: so does this reader.
                let message = (std::mem::take(&mut event), std::mem::take(&mut data));
                if send.send(message).is_err() {
                    return;
                }
            }
        }
    });
    receive
}

#[test]
fn the_stream_tells_every_listener_of_each_append() {
    let name = "soleils-4p-sun-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-stream", name);
    let server = Server::start(&log, &[]);
    let mut clients = Clients::new();
    let fanny = listen(&server, &server.players["Fanny"].clone());
    let referee = listen(&server, &server.referee.clone());
    play(&server, &mut clients, &golden[1..6]);
    for receive in [fanny, referee] {
        for line in &golden[1..6] {
            let (event, data) = receive
                .recv_timeout(Duration::from_secs(120))
                .expect("an event within 2 minutes");
            assert_eq!(event, "appended");
            let data: Value = serde_json::from_str(&data).unwrap();
            assert_eq!(data["seq"], line["seq"]);
            assert_eq!(data["kind"], line["type"]);
            assert!(data["said"].is_string(), "{data}");
            assert_eq!(data["state"]["events"], line["seq"].as_u64().unwrap() + 1);
            assert!(data["state"]["legal"].is_array(), "{data}");
            for token in server.players.values().chain([&server.referee]) {
                assert!(!data.to_string().contains(token.as_str()));
            }
        }
    }
    // A refusal is not an event.
    let quiet = listen(&server, &server.players["Théo"].clone());
    let answer = post(
        &agent(),
        &server.url("/api/events"),
        Some(&server.referee),
        br#"{"type":"rolled","dice":[1,1,1]}"#,
    );
    assert_eq!(answer.status, 422, "{}", answer.body);
    play(&server, &mut clients, &golden[6..7]);
    let (event, data) = quiet.recv_timeout(Duration::from_secs(120)).unwrap();
    assert_eq!(event, "appended");
    assert_eq!(serde_json::from_str::<Value>(&data).unwrap()["seq"], 6);
}

#[test]
fn the_page_has_a_strict_content_security_policy() {
    let log = fresh_log("serve-page", "soleils-2p-round-limit.jsonl");
    let server = Server::start(&log, &[]);
    let page = get(&agent(), &server.url("/"), None);
    assert_eq!(page.status, 200);
    let header = |name: &str| {
        page.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert!(header("content-type").starts_with("text/html"));
    let csp = header("content-security-policy");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(csp.contains("connect-src 'self'"), "{csp}");
    assert!(page.body.contains("<html") || page.body.contains("<!DOCTYPE"));
    // The page holds no token: it reads its own from the link's fragment.
    for token in server.players.values().chain([&server.referee]) {
        assert!(!page.body.contains(token.as_str()));
    }
}

#[test]
fn state_is_the_status_report_and_the_view_offers_the_choices() {
    let name = "soleils-2p-round-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-state", name);
    let server = Server::start(&log, &[]);
    let mut clients = Clients::new();
    play(&server, &mut clients, &golden[1..2]);
    let client = agent();
    // The referee's state is status --format json, run where the log is:
    // the server names the log by its file name, never by its folder.
    let state = get(&client, &server.url("/api/state"), Some(&server.referee)).json();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .arg("status")
        .arg(log.file_name().unwrap())
        .args(["--format", "json"])
        .current_dir(log.parent().unwrap())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let status = serde_json::from_slice::<Value>(&out.stdout).unwrap();
    assert_eq!(state, status);
    assert_eq!(state["events"], 2);
    // A player's is the same with only their own legal decisions: the
    // table's (a Summertime reveal names the next card) are not theirs.
    let bobs = get(
        &client,
        &server.url("/api/state"),
        Some(&server.players["Bob"]),
    )
    .json();
    let mut expected = status.clone();
    for list in ["legal", "legal_events"] {
        let own: Vec<Value> = status[list]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["player"] == "Bob" || e.as_str().is_some_and(|t| t.starts_with("Bob ")))
            .cloned()
            .collect();
        expected[list] = Value::Array(own);
    }
    let own: Vec<Value> = status["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["decision"].as_str().unwrap().starts_with("Bob: "))
        .cloned()
        .collect();
    expected["commands"] = Value::Array(own);
    assert_eq!(bobs, expected);

    // Ann's page offers her placements of the rolled dice, each an event
    // that the server accepts as it is.
    let view = get(
        &client,
        &server.url("/api/view"),
        Some(&server.players["Ann"]),
    )
    .json();
    assert_eq!(view["seq"], 1);
    let choices = view["choices"].as_array().unwrap();
    assert!(!choices.is_empty(), "{view}");
    let golden_place = wire(&golden[2]);
    let choice = choices
        .iter()
        .find(|c| c["event"] == golden_place)
        .unwrap_or_else(|| panic!("Ann is offered {golden_place}"));
    assert!(
        choices
            .iter()
            .all(|c| c["event"]["player"] == "Ann" || c["group"] == "undo")
    );
    let ann = server.players["Ann"].clone();
    let answer = post(
        clients.of(&ann),
        &server.url("/api/events"),
        Some(&ann),
        choice["event"].to_string().as_bytes(),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    // The referee's page has the dice form only when a roll is due.
    let view = get(&client, &server.url("/api/view"), Some(&server.referee)).json();
    assert_eq!(view["dice_form"], false);
    assert_eq!(json!(view["role"]), "referee");
}

#[test]
fn summertime_players_may_not_reveal_or_discard() {
    let name = "summertime-double-pass-ending.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-summertime-refusals", name);
    let server = Server::start(&log, &[]);
    let chloe = server.players["Chloé"].clone();
    let dmitri = server.players["Dmitri"].clone();
    // The referee's first reveal, posted by a player.
    let reveal = wire(&golden[1]).to_string();
    assert!(reveal.contains("revealed"));
    refused(
        &server,
        Some(&chloe),
        reveal.as_bytes(),
        403,
        "Chloé revealing",
    );
    let mut clients = Clients::new();
    play(&server, &mut clients, &golden[1..4]);
    // Dmitri starts: Chloé may not buy for him, nor may he discard.
    let buy = wire(&golden[4]);
    assert_eq!(buy["player"], "Dmitri");
    refused(
        &server,
        Some(&chloe),
        buy.to_string().as_bytes(),
        403,
        "Chloé buying for Dmitri",
    );
    let discard = golden
        .iter()
        .find(|l| l["type"] == "discarded")
        .map(wire)
        .expect("the golden game discards");
    refused(
        &server,
        Some(&dmitri),
        discard.to_string().as_bytes(),
        403,
        "Dmitri discarding",
    );
    play(&server, &mut clients, &golden[4..]);
    drop(server);
    assert_same_as_golden(&log, &golden);
}

#[test]
fn a_log_that_does_not_replay_is_not_served() {
    let log = fresh_log("serve-broken", "soleils-2p-round-limit.jsonl");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("{\"seq\":1,\"type\":\"rolled\",\"dice\":[7,7,7]}\n");
    std::fs::write(&log, &text).unwrap();
    let path = log.display().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args([
            "serve",
            &path,
            "--listen",
            "127.0.0.1:0",
            "--format",
            "json",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_ne!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty(), "it printed links");
    assert!(!tokens_path(&log).exists(), "it wrote tokens");
    let missing = common::fresh("serve-broken", "missing.jsonl");
    let (code, out, _) = common::sunfold(&["serve", &missing, "--listen", "127.0.0.1:0"]);
    assert_ne!(code, 0);
    assert!(out.is_empty());
}

#[test]
fn appends_made_beside_the_server_show_in_its_state() {
    let name = "soleils-2p-round-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-beside", name);
    let server = Server::start(&log, &[]);
    let path = log.display().to_string();
    let roll = wire(&golden[1]).to_string();
    let (code, _, err) = common::sunfold(&["append", &path, &roll]);
    assert_eq!(code, 0, "{err}");
    let state = get(&agent(), &server.url("/api/state"), Some(&server.referee)).json();
    assert_eq!(state["events"], 2);
    // And the server appends after it, on the same chain.
    let mut clients = Clients::new();
    play(&server, &mut clients, &golden[2..5]);
    drop(server);
    assert_chained(&log);
    assert_replays(&log);
}

#[test]
fn appends_made_beside_the_server_are_streamed() {
    let name = "soleils-2p-round-limit.jsonl";
    let golden = golden(name);
    let log = fresh_log("serve-beside-stream", name);
    let server = Server::start(&log, &[]);
    let events = listen(&server, &server.players["Ann"].clone());
    let path = log.display().to_string();
    let (code, _, err) = common::sunfold(&["append", &path, &wire(&golden[1]).to_string()]);
    assert_eq!(code, 0, "{err}");
    let (event, data) = events
        .recv_timeout(Duration::from_secs(120))
        .expect("an event for the roll appended beside the server");
    assert_eq!(event, "appended");
    assert_eq!(serde_json::from_str::<Value>(&data).unwrap()["seq"], 1);
}

#[test]
fn a_summertime_player_sees_neither_the_next_card_nor_the_others_dealt_cards() {
    let name = "summertime-last-card-bought.jsonl";
    let log = fresh_log("serve-conceal", name);
    let server = Server::start(&log, &[]);
    let client = agent();
    // The game opens with the table's reveals: the referee's state names
    // the card that comes up, a player's does not.
    let referee = get(&client, &server.url("/api/state"), Some(&server.referee)).json();
    let reveals = |state: &Value| {
        state["legal_events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "revealed")
            .count()
    };
    assert!(reveals(&referee) > 0);
    let chloe = get(
        &client,
        &server.url("/api/state"),
        Some(&server.players["Chloé"]),
    )
    .json();
    assert_eq!(reveals(&chloe), 0);
    // Chloé sees her own two dealt cards, and only the count of Dmitri's.
    let hands = |state: &Value, who: &str| {
        state["state"]["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == who)
            .map(|p| {
                (
                    p["hand"].as_array().unwrap().len(),
                    p["unseen_in_hand"].clone(),
                )
            })
            .unwrap()
    };
    assert_eq!(hands(&chloe, "Chloé"), (2, json!(0)));
    assert_eq!(hands(&chloe, "Dmitri"), (0, json!(2)));
    assert_eq!(hands(&referee, "Dmitri"), (2, json!(0)));
    // Her page draws Dmitri's hand face down too.
    let view = get(
        &client,
        &server.url("/api/view"),
        Some(&server.players["Chloé"]),
    )
    .json();
    let svg = view["panels"][0]["svg"].as_str().unwrap();
    assert!(
        svg.contains("2 dealt face down"),
        "Dmitri's hand is not named"
    );
}

#[test]
fn new_links_take_the_dead_codes_off_the_table() {
    let log = common::fresh("serve-new-links", "m.jsonl");
    let old = common::fresh("serve-new-links", "old.pdf");
    let kept = common::fresh("serve-new-links", "kept.svg");
    let (code, _, stderr) = common::sunfold(&["new", "soleils", &log, "--players", "Ann,Bob"]);
    assert_eq!(code, 0, "{stderr}");
    // Given two links files printed with the same tokens,
    let first = common::serve(&log, &["--links", &old]);
    let before = first.links.clone();
    drop(first);
    drop(common::serve(&log, &["--links", &kept]));
    assert!(std::path::Path::new(&old).exists());
    // when new links are made and printed over one of them,
    let again = common::serve(&log, &["--new-links", "--links", &kept]);
    assert_ne!(again.links["players"]["Ann"], before["players"]["Ann"]);
    drop(again);
    // then the other is gone, and the rewritten one holds the new codes.
    assert!(
        !std::path::Path::new(&old).exists(),
        "{old} still lies on the table"
    );
    let svg = String::from_utf8(common::written(std::path::Path::new(&kept))).unwrap();
    assert!(svg.contains("Ann"));
    // New links with no file named: every file printed before is removed.
    drop(common::serve(&log, &["--new-links"]));
    assert!(
        !std::path::Path::new(&kept).exists(),
        "{kept} still lies on the table"
    );
}
