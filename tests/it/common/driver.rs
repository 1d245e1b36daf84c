//! A WebDriver client for the browser tests: headless Chromium driven
//! through Debian's `chromedriver` (`.ci/run` installs it), with waits
//! that are patient on a loaded machine, taps as a finger gives them,
//! axe-core's audit and screenshots to look at.

use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn chromedriver() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromedriver"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        super::skip("no chromedriver on PATH (apt-get install chromium-driver)");
    }
    found
}

/// How long a lookup waits for its element or condition: long, so that a
/// page slowed by a loaded machine is waited for, not failed.
pub const PATIENCE: Duration = Duration::from_secs(60);
/// How often it looks again meanwhile.
pub const POLL: Duration = Duration::from_millis(100);
/// WebDriver's Tab key.
pub const TAB: &str = "\u{E004}";
/// WebDriver's Enter key.
pub const ENTER: &str = "\u{E007}";
/// WebDriver's left arrow key.
pub const ARROW_LEFT: &str = "\u{E012}";
/// The key of a WebDriver element reference.
pub const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

/// A WebDriver session.
pub struct Driver {
    pub agent: ureq::Agent,
    pub base: String,
    _process: Killed,
    /// A script returning what the page shows, for failures' messages.
    shown: Option<&'static str>,
}

impl Driver {
    /// The same driver, telling what its page shows by `script`.
    pub fn showing(mut self, script: &'static str) -> Driver {
        self.shown = Some(script);
        self
    }

    pub fn start(window: &str) -> Option<Driver> {
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
        let deadline = Instant::now() + PATIENCE;
        while agent.get(format!("{root}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        // A phone's screen, emulated: desktop Chrome keeps a window at
        // least 500 px wide, wider than the 390 px the page must fit.
        let (width, height) = window.split_once(',').unwrap();
        let (width, height): (u32, u32) = (width.parse().unwrap(), height.parse().unwrap());
        let mut options = json!({"args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            format!("--window-size={window}")
        ]});
        if width < 500 {
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 2.0, "touch": true
            }});
        }
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": options
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
            shown: None,
        })
    }

    pub fn post(&self, path: &str, body: Value) -> Value {
        let mut response = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body.to_string())
            .unwrap();
        let text = response.body_mut().read_to_string().unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["value"].clone()
    }

    pub fn open(&self, url: &str) {
        self.post("/url", json!({ "url": url }));
    }

    pub fn script(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": []}))
    }

    /// Presses `keys` (characters, or WebDriver's keys such as [`TAB`])
    /// on whatever has the focus, one after another.
    pub fn press(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|k| {
                [
                    json!({"type": "keyDown", "value": k}),
                    json!({"type": "keyUp", "value": k}),
                ]
            })
            .collect();
        self.post(
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
        );
    }

    /// Waits until `script` returns true.
    pub fn wait(&self, script: &str, what: &str) {
        self.eventually(script, &json!(true), what);
    }

    /// Waits until `script` returns `expected`; on time out, fails with
    /// what it last returned.
    pub fn eventually(&self, script: &str, expected: &Value, what: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let got = self.script(script);
            if got == *expected {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: expected {expected}, last got {got}; the page shows {}",
                self.shown()
            );
            std::thread::sleep(POLL);
        }
    }

    /// Taps the first element matching `css`, as a finger would.
    pub fn tap(&self, css: &str) {
        self.tap_where(css, None);
    }

    /// Taps the first element matching `css` whose text matches the
    /// JavaScript regular expression `text`.
    pub fn tap_text(&self, css: &str, text: &str) {
        self.tap_where(css, Some(text));
    }

    /// Waits until an element matches `css` (and `text`), scrolls it to
    /// the middle of the screen, clear of the fixed bars, and taps it. The
    /// page redraws as the table changes: an element gone stale, or not
    /// yet tappable, is looked up again until the deadline.
    pub fn tap_where(&self, css: &str, text: Option<&str>) {
        const FIND: &str = "var css = arguments[0], text = arguments[1];
            var e = Array.prototype.filter.call(document.querySelectorAll(css), function (e) {
                return text === null || new RegExp(text).test(e.textContent);
            })[0];
            if (e) e.scrollIntoView({block: 'center'});
            return e || null;";
        let deadline = Instant::now() + PATIENCE;
        loop {
            let found = self.post(
                "/execute/sync",
                json!({"script": FIND, "args": [css, text]}),
            );
            let last = match found[ELEMENT].as_str() {
                Some(element) => {
                    let clicked = self.post(&format!("/element/{element}/click"), json!({}));
                    if clicked.is_null() {
                        return;
                    }
                    // Only an element that was surely not tapped is tried
                    // again: a tap that may have landed is not repeated.
                    let error = clicked["error"].as_str().unwrap_or_default();
                    assert!(
                        [
                            "stale element reference",
                            "element not interactable",
                            "element click intercepted",
                            "no such element"
                        ]
                        .contains(&error),
                        "tapping {css} {text:?}: {clicked}; the page shows {}",
                        self.shown()
                    );
                    clicked
                }
                None => found,
            };
            assert!(
                Instant::now() < deadline,
                "timed out tapping {css} {text:?}: {last}"
            );
            std::thread::sleep(POLL);
        }
    }

    /// What the page shows, for a failure's message: by the page's own
    /// script if one was given ([`Driver::showing`]), else its first
    /// words.
    fn shown(&self) -> Value {
        self.script(
            self.shown
                .unwrap_or("return document.body.innerText.slice(0, 600);"),
        )
    }

    /// The browser's console messages: errors fail the test.
    pub fn console(&self) -> Vec<String> {
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

/// The WCAG 2.1 A and AA violations axe-core finds on the page, one line
/// each: the rule, how many nodes, and the first few of them.
pub fn axe(driver: &Driver) -> Vec<String> {
    let source =
        std::fs::read_to_string(super::repo().join("tests/assets/axe-core/axe.min.js")).unwrap();
    driver.script(&source);
    let found = driver.post(
        "/execute/async",
        json!({"script": "var done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})
              .then(function (r) { done(r.violations.map(function (v) {
                return v.id + ': ' + v.nodes.length + ' nodes, such as ' +
                  v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); }).join(' | ');
              })); }, function (e) { done(['axe failed: ' + e]); });",
            "args": []}),
    );
    found
        .as_array()
        .unwrap_or_else(|| panic!("axe answered {found}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

/// Saves what the browser shows as a PNG in `target/FOLDER`, to look at.
pub fn screenshot(driver: &Driver, folder: &str, name: &str) {
    let mut response = driver
        .agent
        .get(format!("{}/screenshot", driver.base))
        .call()
        .unwrap();
    let text = response.body_mut().read_to_string().unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let png = decode_base64(value["value"].as_str().unwrap());
    let dir = super::repo().join("target").join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

pub fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
            let bytes = n.to_be_bytes();
            bytes[1..chunk.len()].to_vec()
        })
        .collect()
}

/// What the page in `driver` got from its own server, of at least 1 KiB
/// once decoded (images aside), each as `PATH ENCODED/DECODED` bytes; and
/// those of them that came uncompressed. Chromium asks for brotli or gzip
/// by itself.
pub fn wire_sizes(driver: &Driver) -> (Vec<String>, Vec<String>) {
    let found = driver.script(
        "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).filter(function (e) { return e.name.indexOf(location.origin) === 0 && e.decodedBodySize >= 1024 && e.initiatorType !== 'img'; }).map(function (e) { return [e.name.slice(location.origin.length).replace(/#.*/, ''), e.encodedBodySize, e.decodedBodySize]; });",
    );
    let (mut all, mut plain) = (Vec::new(), Vec::new());
    for entry in found.as_array().unwrap_or_else(|| panic!("{found}")) {
        let (path, encoded, decoded) = (&entry[0], entry[1].as_u64(), entry[2].as_u64());
        let said = format!(
            "{} {}/{}",
            path.as_str().unwrap(),
            encoded.unwrap(),
            decoded.unwrap()
        );
        if encoded >= decoded {
            plain.push(said.clone());
        }
        all.push(said);
    }
    (all, plain)
}
