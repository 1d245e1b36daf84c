//! Events per second that `sunfold serve` accepts through HTTP, against
//! `sunfold append` run once per event from a shell loop, on the same
//! events: the 12-player golden game (replays/soleils-12p.jsonl).
//!
//! ```text
//! cargo run --release --example serve_load [-- --runs N]
//! ```
//!
//! Three ways to record the game, each from its start line into a fresh log:
//! - HTTP, 12 clients: each round the referee's client posts the golden
//!   roll, then 12 threads (one client and token per player) post that
//!   player's decisions of the round, all starting at once;
//! - HTTP, 1 client: every event in the golden order, one at a time;
//! - shell loop: `while read -r e; do sunfold append LOG "$e"; done`, a
//!   process per event.
//!
//! Then the bytes the 13 pages (12 players and the referee) fetch after
//! each event: their whole views, as before, against their views with the
//! panels they hold left out (`?have=`), as the page asks now.
//!
//! Every append locks, re-reads and folds the whole log and fsyncs, so the
//! figures depend on the disk as much as on the server. Each run's log must
//! replay. The median of the runs is printed, with the ratio.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Barrier;
use std::time::{Duration, Instant};

const GOLDEN: &str = "replays/soleils-12p.jsonl";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sunfold binary: `$SUNFOLD_BIN` when set, else the one beside this
/// example, built first under `--release` (cargo run does not build it).
fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("SUNFOLD_BIN") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("the example's path");
    // target/PROFILE/examples/serve_load
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("an example lives in target/PROFILE/examples");
    let release = profile_dir.file_name().is_some_and(|n| n == "release");
    // target/debug is shared by the dev and test profiles: use what is
    // there rather than rebuild it under another profile.
    if !release && profile_dir.join("sunfold").exists() {
        return profile_dir.join("sunfold");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut build = Command::new(cargo);
    build
        .args(["build", "--quiet", "--bin", "sunfold", "--manifest-path"])
        .arg(repo().join("Cargo.toml"));
    if release {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "cargo build --bin sunfold failed");
    let path = profile_dir.join("sunfold");
    assert!(path.exists(), "{} is missing", path.display());
    path
}

/// A running `sunfold serve`, killed when dropped.
struct Server {
    child: Child,
    _stdout: BufReader<ChildStdout>,
    base: String,
    players: BTreeMap<String, String>,
    referee: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn token_of(link: &Value) -> String {
    let link = link.as_str().expect("a link");
    link.rsplit_once("#token=").expect("a token").1.to_owned()
}

impl Server {
    fn start(sunfold: &Path, log: &Path) -> Server {
        let mut child = Command::new(sunfold)
            .arg("serve")
            .arg(log)
            .args(["--listen", "127.0.0.1:0", "--format", "json", "--new-links"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sunfold serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the links line");
        let links: Value = match serde_json::from_str(&line) {
            Ok(links) => links,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("sunfold serve printed no links ({e}): {line:?}");
            }
        };
        Server {
            child,
            _stdout: stdout,
            base: format!("http://{}", links["listen"].as_str().expect("listen")),
            players: links["players"]
                .as_object()
                .expect("players")
                .iter()
                .map(|(name, link)| (name.clone(), token_of(link)))
                .collect(),
            referee: token_of(&links["referee"]),
        }
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// Posts one entry; panics unless it is accepted.
fn post(agent: &ureq::Agent, url: &str, token: &str, entry: &str) {
    let mut response = agent
        .post(url)
        .header("Authorization", format!("Bearer {token}"))
        .send(entry)
        .expect("the server answers");
    let status = response.status().as_u16();
    let body = response.body_mut().read_to_string().unwrap_or_default();
    assert_eq!(status, 200, "posting {entry}: {body}");
}

/// The entry a client posts for a log line: without seq, at and prev.
fn wire(line: &Value) -> Value {
    let mut object = line.as_object().expect("an object").clone();
    for key in ["seq", "at", "prev"] {
        object.remove(key);
    }
    Value::Object(object)
}

/// A fresh log holding only the golden start line.
fn fresh_log(dir: &Path, name: &str, start: &str) -> PathBuf {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, format!("{start}\n")).expect("the log is written");
    path
}

fn check(sunfold: &Path, log: &Path, lines: usize) {
    let text = std::fs::read_to_string(log).expect("the log reads");
    assert_eq!(text.lines().count(), lines, "{}", log.display());
    let status = Command::new(sunfold)
        .arg("replay")
        .arg(log)
        .stdout(Stdio::null())
        .status()
        .expect("sunfold replay runs");
    assert!(status.success(), "{} does not replay", log.display());
}

/// Each round: the roll, then every decision until the next roll.
fn rounds(events: &[Value]) -> Vec<Vec<Value>> {
    let mut rounds: Vec<Vec<Value>> = Vec::new();
    for line in events {
        if line["type"] == "rolled" || rounds.is_empty() {
            rounds.push(Vec::new());
        }
        rounds.last_mut().expect("a round").push(line.clone());
    }
    rounds
}

/// Seconds to post `events` with one client per player, round by round.
fn http_twelve(sunfold: &Path, log: &Path, events: &[Value]) -> f64 {
    let server = Server::start(sunfold, log);
    let url = format!("{}/api/events", server.base);
    let names: Vec<&String> = server.players.keys().collect();
    let clients: Vec<ureq::Agent> = names.iter().map(|_| agent()).collect();
    let referee = agent();
    let began = Instant::now();
    for round in rounds(events) {
        post(
            &referee,
            &url,
            &server.referee,
            &wire(&round[0]).to_string(),
        );
        let barrier = Barrier::new(names.len());
        std::thread::scope(|scope| {
            for (name, client) in names.iter().zip(&clients) {
                let mine: Vec<String> = round[1..]
                    .iter()
                    .filter(|l| l["player"] == name.as_str())
                    .map(|l| wire(l).to_string())
                    .collect();
                let token = &server.players[*name];
                let (barrier, url) = (&barrier, &url);
                scope.spawn(move || {
                    barrier.wait();
                    for entry in &mine {
                        post(client, url, token, entry);
                    }
                });
            }
        });
    }
    began.elapsed().as_secs_f64()
}

/// Seconds to post `events` one at a time from a single client.
fn http_one(sunfold: &Path, log: &Path, events: &[Value]) -> f64 {
    let server = Server::start(sunfold, log);
    let url = format!("{}/api/events", server.base);
    let client = agent();
    let entries: Vec<(String, &String)> = events
        .iter()
        .map(|l| {
            let token = match l["player"].as_str() {
                Some(p) => &server.players[p],
                None => &server.referee,
            };
            (wire(l).to_string(), token)
        })
        .collect();
    let began = Instant::now();
    for (entry, token) in &entries {
        post(&client, &url, token, entry);
    }
    began.elapsed().as_secs_f64()
}

/// `GET /api/view` as the holder of `token`: the body's length in bytes,
/// and the hashes of its panels.
fn view(agent: &ureq::Agent, base: &str, token: &str, have: &[String]) -> (usize, Vec<String>) {
    let url = if have.is_empty() {
        format!("{base}/api/view")
    } else {
        format!("{base}/api/view?have={}", have.join(","))
    };
    let mut response = agent
        .get(&url)
        .header("authorization", format!("Bearer {token}"))
        .call()
        .expect("the view is answered");
    let body = response.body_mut().read_to_string().expect("a body");
    let view: Value = serde_json::from_str(&body).expect("a JSON view");
    let hashes = view["panels"]
        .as_array()
        .expect("panels")
        .iter()
        .map(|p| p["hash"].as_str().expect("a hash").to_owned())
        .collect();
    (body.len(), hashes)
}

/// The bytes every page fetches per event, as the pages do after each
/// event the stream announces: 12 players' pages and the referee's, each
/// fetching its whole view, against each naming the panels it holds
/// (`?have=`) so that only the changed ones are sent. Played on the first
/// `count` events.
fn update_bytes(sunfold: &Path, log: &Path, events: &[Value], count: usize) -> (f64, f64) {
    let server = Server::start(sunfold, log);
    let base = server.base.clone();
    let url = format!("{base}/api/events");
    let client = agent();
    let mut pages: Vec<&String> = server.players.values().collect();
    pages.push(&server.referee);
    let mut held: Vec<Vec<String>> = pages
        .iter()
        .map(|token| view(&client, &base, token, &[]).1)
        .collect();
    let (mut whole, mut changed) = (0usize, 0usize);
    for event in events.iter().take(count) {
        let token = match event["player"].as_str() {
            Some(p) => &server.players[p],
            None => &server.referee,
        };
        post(&client, &url, token, &wire(event).to_string());
        for (page, have) in pages.iter().zip(held.iter_mut()) {
            whole += view(&client, &base, page, &[]).0;
            let (bytes, hashes) = view(&client, &base, page, have);
            changed += bytes;
            *have = hashes;
        }
    }
    (whole as f64 / count as f64, changed as f64 / count as f64)
}

/// Seconds for a shell loop running `sunfold append` once per event.
fn shell_loop(sunfold: &Path, log: &Path, events: &[Value]) -> f64 {
    let list = log.with_extension("events");
    let text: String = events.iter().map(|l| format!("{}\n", wire(l))).collect();
    std::fs::write(&list, text).expect("the events are written");
    let script = r#"while IFS= read -r e; do "$SUNFOLD" append "$LOG" "$e" >/dev/null || exit 1; done < "$EVENTS""#;
    let began = Instant::now();
    let status = Command::new("sh")
        .args(["-c", script])
        .env("SUNFOLD", sunfold)
        .env("LOG", log)
        .env("EVENTS", &list)
        .status()
        .expect("sh runs");
    let seconds = began.elapsed().as_secs_f64();
    assert!(status.success(), "the shell loop failed");
    seconds
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn main() {
    let mut runs = 3usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .expect("--runs N, N at least 1");
            }
            other => panic!("unknown argument {other}; expected --runs N"),
        }
    }
    let sunfold = binary();
    let text = std::fs::read_to_string(repo().join(GOLDEN)).expect("the golden replay");
    let start = text.lines().next().expect("a start line");
    let events: Vec<Value> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let n = events.len() as f64;
    let dir = std::env::temp_dir().join(format!("sunfold-serve-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    println!(
        "{} events of {GOLDEN} ({} rounds), {runs} run(s), binary {}",
        events.len(),
        rounds(&events).len(),
        sunfold.display()
    );

    let mut twelve = Vec::new();
    let mut one = Vec::new();
    let mut shell = Vec::new();
    for run in 1..=runs {
        let log = fresh_log(&dir, "http12.jsonl", start);
        let s = http_twelve(&sunfold, &log, &events);
        check(&sunfold, &log, events.len() + 1);
        twelve.push(n / s);

        let log = fresh_log(&dir, "http1.jsonl", start);
        let s = http_one(&sunfold, &log, &events);
        check(&sunfold, &log, events.len() + 1);
        one.push(n / s);

        let log = fresh_log(&dir, "shell.jsonl", start);
        let s = shell_loop(&sunfold, &log, &events);
        check(&sunfold, &log, events.len() + 1);
        shell.push(n / s);

        println!(
            "run {run}: HTTP 12 clients {:7.1} events/s   HTTP 1 client {:7.1} events/s   shell loop {:7.1} events/s",
            twelve[run - 1],
            one[run - 1],
            shell[run - 1]
        );
    }
    let (twelve, one, shell) = (median(twelve), median(one), median(shell));
    println!("median: HTTP 12 clients {twelve:.1} events/s");
    println!("median: HTTP 1 client   {one:.1} events/s");
    println!("median: shell loop      {shell:.1} events/s (sunfold append, a process per event)");
    println!(
        "ratio: HTTP 12 clients / shell loop = {:.2}x; HTTP 1 client / shell loop = {:.2}x",
        twelve / shell,
        one / shell
    );
    let count = events.len().min(120);
    let log = fresh_log(&dir, "bytes.jsonl", start);
    let (whole, changed) = update_bytes(&sunfold, &log, &events, count);
    println!(
        "bytes fetched per event by the 13 pages (first {count} events): whole views {:.0} KB, changed panels only {:.0} KB = {:.1}% of whole",
        whole / 1000.0,
        changed / 1000.0,
        100.0 * changed / whole
    );
    let _ = std::fs::remove_dir_all(&dir);
}
