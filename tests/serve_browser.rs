//! The table server's page in a real browser: headless Chromium driven
//! through WebDriver (Debian's `chromium-driver`; `.ci/run` installs it)
//! plays a round of 62 Soleils by tapping, as players at a table would:
//! the referee taps the roll, each player taps a highlighted box, a value
//! and a sun entry on their phone. The log it leaves must replay.
//!
//! Without chromedriver these tests say so and pass, except under
//! `CI=true`, where they fail.

mod common;

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn chromedriver() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromedriver"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs chromedriver for the table's browser test: apt-get install chromium-driver"
        );
        eprintln!("skipped: no chromedriver on PATH (apt-get install chromium-driver)");
    }
    found
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// A WebDriver session.
struct Driver {
    agent: ureq::Agent,
    base: String,
    _process: Killed,
}

impl Driver {
    fn start(window: &str) -> Option<Driver> {
        let exe = chromedriver()?;
        let port = free_port();
        let process = Killed(
            Command::new(exe)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let agent = agent();
        let root = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while agent.get(format!("{root}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                format!("--window-size={window}")
            ]}
        }}});
        let mut response = agent
            .post(format!("{root}/session"))
            .header("content-type", "application/json")
            .send(capabilities.to_string())
            .unwrap();
        let session: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        let id = session["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {session}"))
            .to_owned();
        Some(Driver {
            agent,
            base: format!("{root}/session/{id}"),
            _process: process,
        })
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let mut response = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body.to_string())
            .unwrap();
        let text = response.body_mut().read_to_string().unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["value"].clone()
    }

    fn open(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    fn script(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": []}))
    }

    /// Waits until `script` returns true.
    fn wait(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.script(script) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Taps the first element matching `css`, as a pointer would.
    fn tap(&self, css: &str) {
        let found = self.post("/element", json!({"using": "css selector", "value": css}));
        let element = found["element-6066-11e4-a52e-4f735466cecf"]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_owned();
        let clicked = self.post(&format!("/element/{element}/click"), json!({}));
        assert!(clicked.is_null(), "tapping {css}: {clicked}");
    }

    fn seq(&self) -> i64 {
        self.script("return +(document.body.getAttribute('data-seq') || -1);")
            .as_i64()
            .unwrap()
    }

    /// Waits for the page to show event `seq`.
    fn at(&self, seq: i64) {
        self.wait(
            &format!("return document.body.getAttribute('data-seq') === '{seq}';"),
            &format!("event {seq}"),
        );
    }

    /// The browser's console messages: errors fail the test.
    fn console(&self) -> Vec<String> {
        let logs = self.post("/se/log", json!({"type": "browser"}));
        logs.as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == "SEVERE" || e["level"] == "WARNING")
                    .map(|e| e["message"].to_string())
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.agent.delete(&self.base).call();
    }
}

#[test]
fn players_play_a_round_by_tapping_their_phones() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let log = common::fresh("serve-browser", "table.jsonl");
    let (code, _, stderr) = common::sunfold(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Bob",
        "--dice-seed",
        "62",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let served = common::serve(&log, &[]);
    let links = served.links.clone();

    // The referee taps the digital roll.
    driver.open(links["referee"].as_str().unwrap());
    driver.at(0);
    driver.tap(".actions button");
    driver.at(1);
    let mut seq = 1;
    for player in ["Ann", "Bob"] {
        driver.open(links["players"][player].as_str().unwrap());
        driver.at(seq);
        assert_eq!(
            driver.script("return document.getElementById('who').textContent;"),
            json!(player)
        );
        // A greyed-out box says why it is closed, in the engine's words.
        driver.tap("[data-key].closed");
        driver.wait(
            "var r = document.querySelector('#picker .reason'); return !!r && r.textContent.length > 10;",
            "the reason a box is closed",
        );
        // Tap a highlighted box, then a value.
        driver.tap("[data-key].open");
        driver.wait(
            "return !document.getElementById('picker').hidden && !!document.querySelector('#picker button.value');",
            "the values of the box",
        );
        driver.tap("#picker button.value");
        seq += 1;
        driver.at(seq);
        // A crab box asks where to copy: decline it.
        let crab = driver.script(
            "return Array.prototype.some.call(document.querySelectorAll('.actions button'), function (b) { return b.textContent === 'No copy'; });",
        );
        if crab == json!(true) {
            driver.script(
                "Array.prototype.filter.call(document.querySelectorAll('.actions button'), function (b) { return b.textContent === 'No copy'; })[0].setAttribute('id', 'decline');",
            );
            driver.tap("#decline");
            seq += 1;
            driver.at(seq);
        }
        // The sun entry.
        driver.tap(".actions button.value");
        seq += 1;
        driver.at(seq);
        assert_eq!(driver.seq(), seq);
        let console = driver.console();
        assert!(console.is_empty(), "console: {console:#?}");
    }
    // The round is over: the log replays, and waits for the next roll.
    let (code, stdout, stderr) = common::sunfold(&["status", &log, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let status: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(status["pending"], json!(["the roll for round 2"]));
    assert_eq!(status["events"].as_u64().unwrap() as i64, seq + 1);
    let (code, _, stderr) = common::sunfold(&["replay", &log]);
    assert_eq!(code, 0, "{stderr}");

    // Screenshots to look at: round 2 rolled, Ann's phone and the
    // referee's laptop.
    driver.open(links["referee"].as_str().unwrap());
    driver.at(seq);
    driver.tap(".actions button");
    driver.at(seq + 1);
    let dir = common::repo().join("target/table-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    for (who, window, name) in [
        (&links["players"]["Ann"], "390,844", "player-phone.png"),
        (&links["referee"], "1366,900", "referee-laptop.png"),
    ] {
        let png = dir.join(name);
        let profile = common::temp_dir("serve-browser").join(format!("profile-{name}"));
        let status = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--virtual-time-budget=5000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={window}"))
            .arg(format!("--screenshot={}", png.display()))
            .arg(who.as_str().unwrap())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        assert!(std::fs::metadata(&png).unwrap().len() > 10_000);
    }
}

#[test]
fn the_links_page_holds_each_link_as_a_qr_code_that_scans() {
    let zbar = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("zbarimg"))
            .find(|p| p.is_file())
    });
    let Some(zbar) = zbar else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs zbarimg: apt-get install zbar-tools"
        );
        eprintln!("skipped: no zbarimg on PATH (apt-get install zbar-tools)");
        return;
    };
    let log = common::fresh("serve-links", "links.jsonl");
    let pdf = common::fresh("serve-links", "links.pdf");
    let (code, _, stderr) =
        common::sunfold(&["new", "soleils", &log, "--players", "Ann,Bob,Chloé"]);
    assert_eq!(code, 0, "{stderr}");
    let served = common::serve(&log, &["--links", &pdf]);
    let links = served.links.clone();
    let dir = common::temp_dir("serve-links");
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "150", &pdf])
        .arg(dir.join("page"))
        .status()
        .unwrap();
    assert!(status.success());
    // The players' codes on the first page, the referee's on its own.
    let mut scanned = Vec::new();
    for page in ["page-1.png", "page-2.png"] {
        let output = Command::new(&zbar)
            .args(["-q", "--raw"])
            .arg(dir.join(page))
            .output()
            .unwrap();
        scanned.extend(
            String::from_utf8(output.stdout)
                .unwrap()
                .lines()
                .map(str::to_owned),
        );
    }
    assert_eq!(
        scanned.last().map(String::as_str),
        links["referee"].as_str(),
        "the referee's code stands alone on the last page"
    );
    // Readable by its owner alone, as the tokens file.
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&pdf).unwrap().permissions().mode() & 0o777,
        0o600
    );
    scanned.sort();
    let mut expected: Vec<String> = ["Ann", "Bob", "Chloé"]
        .iter()
        .map(|p| links["players"][p].as_str().unwrap().to_owned())
        .chain([links["referee"].as_str().unwrap().to_owned()])
        .collect();
    expected.sort();
    assert_eq!(scanned, expected);
}
