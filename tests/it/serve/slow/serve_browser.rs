//! The table server's page in a real browser: headless Chromium driven
//! through WebDriver (Debian's `chromium-driver`; `.ci/run` installs it)
//! plays a round of 62 Soleils by tapping, as players at a table would:
//! the referee taps the roll, each player taps a highlighted box, a value
//! and a sun entry on their phone. The log it leaves must replay.
//!
//! Without chromedriver these tests say so and pass, except under
//! `CI=true`, where they fail.

use crate::common;

use common::driver::{Driver, agent, axe, screenshot};

use serde_json::{Value, json};
use std::process::{Command, Stdio};

/// The table page's own view of a driver: what it shows, and its event.
trait Table {
    fn seq(&self) -> i64;
    fn at(&self, seq: i64);
}

/// What the table page shows, for a failure's message: its event, its
/// message line and its choices.
const SHOWN: &str = "return {seq: document.body.getAttribute('data-seq'), message: document.getElementById('message').textContent, actions: document.getElementById('actions').textContent, dock: document.getElementById('dock').textContent};";

impl Table for Driver {
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
}

/// A driver for the table's page, in a window of `window` pixels.
fn table_driver(window: &str) -> Option<Driver> {
    Driver::start(window).map(|d| d.showing(SHOWN))
}

#[test]
fn players_play_a_round_by_tapping_their_phones() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let log = common::new_soleils_table("serve-browser", "table.jsonl");
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
        driver.eventually(
            "return document.getElementById('who').textContent;",
            &json!(player),
            "the player's name",
        );
        // A greyed-out box says why it is closed, in the engine's words.
        driver.tap("[data-key].closed");
        driver.wait(
            "var r = document.querySelector('#picker .reason'); return !!r && r.textContent.length > 10;",
            "the reason a box is closed",
        );
        driver.tap("#picker-close");
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
            driver.tap_text(".actions button", "^No copy$");
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
    // The page and its answers came compressed, and it worked.
    let (sizes, plain) = common::driver::wire_sizes(&driver);
    assert!(sizes.len() >= 2 && plain.is_empty(), "{sizes:?}");
    // The turn is over: the log replays, and waits for the next roll.
    let (code, stdout, stderr) = common::sunfold(&["status", &log, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let status: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(status["pending"], json!(["the roll for turn 2"]));
    assert_eq!(status["events"].as_u64().unwrap() as i64, seq + 1);
    let (code, _, stderr) = common::sunfold(&["replay", &log]);
    assert_eq!(code, 0, "{stderr}");

    // Screenshots to look at: round 2 rolled, Ann's phone and the
    // referee's laptop.
    driver.open(links["referee"].as_str().unwrap());
    driver.at(seq);
    driver.tap(".actions button");
    driver.at(seq + 1);
    let (sizes, plain) = common::driver::wire_sizes(&driver);
    assert!(sizes.len() >= 2 && plain.is_empty(), "referee: {sizes:?}");
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
        common::skip("no zbarimg on PATH (apt-get install zbar-tools)");
        return;
    };
    let log = common::fresh("serve-links", "links.jsonl");
    let pdf = common::fresh("serve-links", "links.pdf");
    let (code, _, stderr) =
        common::sunfold(&["new", "soleils", &log, "--players", "Ann,Bob,Chloé"]);
    assert_eq!(code, 0, "{stderr}");
    let served = common::serve(&log, &["--links", &pdf]);
    let links = served.links.clone();
    drop(served);
    let dir = common::temp_dir("serve-links");
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "150", &pdf])
        .arg(dir.join("page"))
        .status()
        .unwrap();
    assert!(status.success());
    // One slip per page: the name beside exactly one code, the player's
    // own; then the referee's page.
    let scan = |page: usize| -> Vec<String> {
        let output = Command::new(&zbar)
            .args(["-q", "--raw"])
            .arg(dir.join(format!("page-{page}.png")))
            .output()
            .unwrap();
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let text = |page: usize| -> String {
        let output = Command::new("pdftotext")
            .args(["-f", &page.to_string(), "-l", &page.to_string(), &pdf, "-"])
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    for (page, who) in [(1, "Ann"), (2, "Bob"), (3, "Chloé"), (4, "Referee")] {
        let codes = scan(page);
        let link = if who == "Referee" {
            links["referee"].as_str().unwrap()
        } else {
            links["players"][who].as_str().unwrap()
        };
        assert_eq!(codes, [link], "page {page} holds {who}'s code alone");
        let words = text(page);
        let lines: Vec<&str> = (words.lines().map(str::trim))
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(
            lines[..2],
            ["62 Soleils d'été · links", who],
            "page {page} is headed by the game, the table and {who}'s name: {words}"
        );
        // The short code of the link, and where to type it.
        let token = link.split("#token=").nth(1).unwrap();
        let tokens: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{log}.tokens")).unwrap())
                .unwrap();
        let code = (tokens["codes"].as_object().unwrap().iter())
            .find(|(_, t)| t.as_str() == Some(token))
            .map(|(code, _)| format!("{}-{}", &code[..5], &code[5..]))
            .unwrap();
        assert!(words.contains(&code), "page {page} shows {code}: {words}");
        let join = format!(
            "{}join",
            links["players"]["Ann"]
                .as_str()
                .unwrap()
                .split('#')
                .next()
                .unwrap()
        );
        assert!(words.contains(&join), "page {page} shows {join}: {words}");
        for other in ["Ann", "Bob", "Chloé"].iter().filter(|o| **o != who) {
            assert!(!words.contains(other), "page {page} names {other}: {words}");
        }
        assert!(!words.contains("token="), "no address in print: {words}");
    }
    assert!(!dir.join("page-5.png").exists(), "four pages: {dir:?}");
    // Readable by its owner alone, as the tokens file.
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&pdf).unwrap().permissions().mode() & 0o777,
        0o600
    );

    // Two slips to a page: each code still scans, the referee's alone.
    let two = common::fresh("serve-links", "two.pdf");
    let served = common::serve(&log, &["--links", &two, "--slips-per-page", "2"]);
    let links = served.links.clone();
    drop(served);
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "150", &two])
        .arg(dir.join("two"))
        .status()
        .unwrap();
    assert!(status.success());
    let mut scanned = Vec::new();
    for page in 1..=3 {
        let output = Command::new(&zbar)
            .args(["-q", "--raw"])
            .arg(dir.join(format!("two-{page}.png")))
            .output()
            .unwrap();
        let codes: Vec<String> = String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert_eq!(codes.len(), [2, 1, 1][page - 1], "page {page}: {codes:?}");
        scanned.extend(codes);
    }
    assert_eq!(scanned.last().unwrap(), links["referee"].as_str().unwrap());
    scanned.sort();
    let mut expected: Vec<String> = ["Ann", "Bob", "Chloé"]
        .iter()
        .map(|p| links["players"][p].as_str().unwrap().to_owned())
        .chain([links["referee"].as_str().unwrap().to_owned()])
        .collect();
    expected.sort();
    assert_eq!(scanned, expected);
}

/// `GET path` on the table as the holder of `token`, answered 200.
fn api_get(served: &common::Served, path: &str, token: &str) -> Value {
    let mut response = agent()
        .get(format!("{}{path}", served.base()))
        .header("authorization", format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(response.status(), 200);
    serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap()
}

/// Posts `event` to the table as the holder of `token`, accepted.
fn api_post(served: &common::Served, token: &str, event: &Value) {
    let mut response = agent()
        .post(format!("{}/api/events", served.base()))
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .send(event.to_string())
        .unwrap();
    let body = response.body_mut().read_to_string().unwrap();
    assert_eq!(response.status(), 200, "{body}");
}

/// A table of Ann and Bob at 62 Soleils, round 1 rolled.
fn rolled_table(test: &str) -> (String, common::Served) {
    let log = common::new_soleils_table(test, "table.jsonl");
    let served = common::serve(&log, &[]);
    let referee = served.token("referee");
    let view: Value = api_get(&served, "/api/view", &referee);
    let roll = common::first_choice(&view, "roll");
    api_post(&served, &referee, &roll);
    (log, served)
}

#[test]
fn on_a_phone_every_box_opens_its_values_in_view() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (_log, served) = rolled_table("serve-phone-boxes");
    driver.open(&served.link("Ann"));
    driver.at(1);
    // The lowest box of each zone, tapped as a finger would (WebDriver
    // scrolls it into view): the picker opens inside the screen.
    let lowest = driver.script(
        "var zones = {};
         document.querySelectorAll('[data-key][tabindex]').forEach(function (g) {
           var zone = g.getAttribute('data-key').replace(/^box:/, '').replace(/[0-9].*$/, '');
           var bottom = g.getBoundingClientRect().bottom + window.scrollY;
           if (!zones[zone] || zones[zone].bottom < bottom) zones[zone] = {key: g.getAttribute('data-key'), bottom: bottom};
         });
         return Object.keys(zones).map(function (z) { return zones[z].key; });",
    );
    let lowest: Vec<String> = serde_json::from_value(lowest).unwrap();
    assert!(lowest.len() >= 5, "zones: {lowest:?}");
    let in_view = "var p = document.getElementById('picker');
        if (p.hidden) return false;
        var r = p.getBoundingClientRect();
        var b = p.querySelector('button').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight + 1 && b.top >= 0 && b.bottom <= window.innerHeight;";
    for key in &lowest {
        driver.tap(&format!("[data-key=\"{key}\"]"));
        driver.wait(in_view, &format!("the picker of {key} in view"));
        driver.tap("#picker-close");
        driver.wait(
            "return document.getElementById('picker').hidden;",
            "the picker closed",
        );
    }
    // And every other box, from wherever the page is scrolled.
    let failures = driver.script(&format!(
        "var bad = [];
         var boxes = document.querySelectorAll('[data-key][tabindex]');
         for (var i = 0; i < boxes.length; i++) {{
           var g = document.querySelectorAll('[data-key][tabindex]')[i];
           g.scrollIntoView({{block: i % 2 ? 'end' : 'start'}});
           g.dispatchEvent(new MouseEvent('click', {{bubbles: true}}));
           var ok = (function () {{ {in_view} }})();
           if (!ok) bad.push(g.getAttribute('data-key'));
           document.getElementById('picker-close').click();
         }}
         return bad;"
    ));
    assert_eq!(failures, json!([]), "boxes whose values open out of view");
    let violations = axe(&driver);
    assert!(violations.is_empty(), "axe on Ann's page: {violations:#?}");
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
}

#[test]
fn a_keyboard_alone_places_a_value_and_a_live_update_keeps_focus() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (log, served) = rolled_table("serve-keyboard");
    driver.open(&served.link("Ann"));
    driver.at(1);
    let keys = |keys: &[&str]| driver.press(keys);
    use common::driver::{ENTER, TAB};
    let focused = || {
        driver
            .script("var a = document.activeElement; return a ? (a.getAttribute('data-key') || a.id || a.textContent) : null;")
    };
    // Tab until a box that takes a value has focus.
    let mut presses = 0;
    while driver.script(
        "return !!document.activeElement && document.activeElement.classList.contains('open');",
    ) != json!(true)
    {
        keys(&[TAB]);
        presses += 1;
        assert!(presses < 300, "no open box reached by Tab");
    }
    let key = focused().as_str().unwrap().to_owned();
    // The box's accessible name starts with what it shows.
    let label = driver.script("var a = document.activeElement; return [a.getAttribute('aria-label'), Array.prototype.map.call(a.querySelectorAll('text'), function (t) { return t.textContent.trim(); }).filter(Boolean).join(' ')];");
    let (name, shown) = (label[0].as_str().unwrap(), label[1].as_str().unwrap());
    assert!(name.starts_with(shown), "{name:?} starts with {shown:?}");
    // Enter opens it, with focus on its first value, announced.
    keys(&[ENTER]);
    driver.wait(
        "var a = document.activeElement; return !!a && a.classList.contains('value') && !!a.closest('#picker');",
        "focus on the first value",
    );
    let announced = driver.script("return document.getElementById('announce').textContent;");
    assert!(
        announced
            .as_str()
            .unwrap()
            .starts_with(&format!("Box {}", key.trim_start_matches("box:"))),
        "{announced}"
    );
    // Escape closes it, and focus goes back to the box.
    keys(&["\u{E00C}"]);
    driver.wait(
        "return document.getElementById('picker').hidden;",
        "the picker closed",
    );
    assert_eq!(focused(), json!(key));
    // Enter, Enter: the value is written, and focus is on a box again.
    keys(&[ENTER]);
    driver.wait(
        "var a = document.activeElement; return !!a && a.classList.contains('value');",
        "focus on the first value",
    );
    keys(&[ENTER]);
    driver.at(2);
    // No box takes a value now: focus moves on to the sun entry.
    driver.wait(
        "var a = document.activeElement; return !!a && (a.hasAttribute('data-key') || !!a.closest('#actions'));",
        "focus on the sheet or the next decision",
    );
    let (code, stdout, _) = common::sunfold(&["status", &log, "--format", "json"]);
    assert_eq!(code, 0);
    let status: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(status["events"], 3, "the start, the roll and Ann's value");
    // A live update (Bob writes a value) leaves Ann's focus where it is.
    let before = focused();
    let bob = served.token("Bob");
    let view: Value = api_get(&served, "/api/view", &bob);
    let place = common::first_choice(&view, "place");
    api_post(&served, &bob, &place);
    driver.at(3);
    assert_eq!(focused(), before, "the update moved focus");
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
}

/// Wraps the page's `fetch` and its stream's reads so that the test
/// decides when each view (a whole one, or the changes an event of the
/// stream tells) reaches the page: views that come before a post is sent
/// are held until the post's answer has been read by the page, then given
/// (`__stale`); views that come after it wait for `__release()`
/// (`__fresh`). `__answered` counts the views the server has answered,
/// `__seen` those the page has read, once its own handling of each has
/// run.
const HOLD_VIEWS: &str = "
    var real = window.fetch;
    window.__stale = []; window.__fresh = []; window.__posted = false;
    window.__answered = 0; window.__seen = 0;
    function watched(r) {
      var json = r.json.bind(r);
      r.json = function () {
        return json().then(function (body) {
          setTimeout(function () { window.__seen += 1; }, 0);
          return body;
        });
      };
      return r;
    }
    window.__release = function () {
      window.fetch = real;
      window.__holding = false;
      window.__fresh.splice(0).forEach(function (give) { give(); });
    };
    // The stream's events: the text of a chunk that tells an entry is
    // held (the page reads nothing of it), and given to the page by its
    // next read, once its queue is released.
    window.__holding = true;
    var held = [];
    var given = new WeakSet();
    var decoding = TextDecoder.prototype.decode;
    TextDecoder.prototype.decode = function (value) {
      var text = decoding.apply(this, arguments);
      if (!window.__holding || (value && given.has(value)) || !/event: appended/.test(text)) return text;
      window.__answered += 1;
      held.push({ text: text, queue: window.__posted ? window.__fresh : window.__stale });
      return '';
    };
    var reading = ReadableStreamDefaultReader.prototype.read;
    ReadableStreamDefaultReader.prototype.read = function () {
      if (!held.length) return reading.apply(this, arguments);
      var one = held.shift();
      return new Promise(function (resolve) {
        one.queue.push(function () {
          var value = new TextEncoder().encode(one.text);
          given.add(value);
          resolve({ done: false, value: value });
          setTimeout(function () { window.__seen += 1; }, 0);
        });
      });
    };
    window.fetch = function (url, init) {
      var method = (init && init.method) || 'GET';
      if (method === 'POST') {
        window.__posted = true;
        return real.apply(this, arguments).then(function (r) {
          var json = r.json.bind(r);
          r.json = function () {
            return json().then(function (body) {
              // After the page's own handling of the post's answer.
              setTimeout(function () {
                window.__stale.splice(0).forEach(function (give) { give(); });
              }, 0);
              return body;
            });
          };
          return r;
        });
      }
      var answer = real.apply(this, arguments);
      if (!/\\/api\\/view/.test(url)) return answer;
      answer.then(function () { window.__answered += 1; }, function () {});
      var queue = window.__posted ? window.__fresh : window.__stale;
      return new Promise(function (resolve) {
        queue.push(function () { resolve(answer.then(watched)); });
      });
    };
    return true;";

#[test]
fn a_phone_never_offers_again_a_decision_it_has_posted() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (log, served) = rolled_table("serve-stale-view");
    driver.open(&served.link("Ann"));
    driver.at(1);
    driver.script(HOLD_VIEWS);
    // Bob writes a value: Ann's page asks for its view again, and is
    // answered from the log before Ann's post (it still offers her
    // choices), but the answer reaches the page only after her post's.
    let bob = served.token("Bob");
    let view: Value = api_get(&served, "/api/view", &bob);
    api_post(&served, &bob, &common::first_choice(&view, "place"));
    driver.wait(
        "return window.__stale.length === 1 && window.__answered === 1;",
        "Ann's page's view after Bob's value, answered",
    );
    // Ann taps a highlighted box and a value.
    let key = driver.script(
        "return document.querySelector('#panels [data-key].open').getAttribute('data-key');",
    );
    let key = key.as_str().unwrap().to_owned();
    driver.tap(&format!("[data-key=\"{key}\"].open"));
    driver.wait(
        "return !document.getElementById('picker').hidden && !!document.querySelector('#picker button.value');",
        "the values of the box",
    );
    driver.tap("#picker button.value");
    // The view from before her post has been read by the page: it is not
    // shown, and the box she wrote in is not offered, nor opens.
    driver.wait("return window.__seen === 1;", "the older view read");
    let offered = format!(
        "return {{seq: document.body.getAttribute('data-seq'),
                  open: !!document.querySelector('#panels [data-key=\"{key}\"].open'),
                  picker: !document.getElementById('picker').hidden,
                  enabled: Array.prototype.filter.call(document.querySelectorAll('#actions button, #picker button'), function (b) {{ return !b.disabled; }}).length,
                  error: document.getElementById('message').classList.contains('error')}};"
    );
    assert_eq!(
        driver.script(&offered),
        json!({"seq": "1", "open": false, "picker": false, "enabled": 0, "error": false}),
        "the page while its post's own view is on its way"
    );
    driver.script(&format!(
        "document.querySelector('#panels [data-key=\"{key}\"]').dispatchEvent(new MouseEvent('click', {{bubbles: true}})); return true;"
    ));
    assert_eq!(
        driver.script("return document.getElementById('picker').hidden;"),
        json!(true),
        "a tap on the box written in opens nothing"
    );
    // The view asked for after the post: Ann's value is in, and the box is
    // no longer offered.
    driver.script("window.__release(); return true;");
    driver.at(3);
    let shown = driver.script(&offered);
    assert_eq!(shown["open"], json!(false), "{shown}");
    assert_eq!(shown["error"], json!(false), "{shown}");
    let (code, stdout, _) = common::sunfold(&["status", &log, "--format", "json"]);
    assert_eq!(code, 0);
    let status: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        status["events"], 4,
        "the start, the roll, Bob's value and Ann's"
    );
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
}

/// What a table page shows, to compare two pages: its event, drawings,
/// choices, players and message.
const PAGE_SHOWN: &str = "return {seq: document.body.getAttribute('data-seq'),
    panels: document.getElementById('panels').innerHTML,
    actions: document.getElementById('actions').textContent,
    players: document.getElementById('players').textContent,
    progress: document.getElementById('progress').textContent};";

#[test]
fn a_phone_whose_stream_drops_catches_up_to_what_a_fresh_load_shows() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (_log, served) = rolled_table("serve-catch-up");
    driver.open(&served.link("Ann"));
    driver.at(1);
    // The stream drops after the next event the page reads.
    driver.script(
        "var reading = ReadableStreamDefaultReader.prototype.read;
         var told = 0;
         ReadableStreamDefaultReader.prototype.read = function () {
           if (told++ === 0) {
             ReadableStreamDefaultReader.prototype.read = reading;
             return Promise.reject(new Error('dropped'));
           }
           return reading.apply(this, arguments);
         };
         return true;",
    );
    let bob = served.token("Bob");
    let referee = served.token("referee");
    let view: Value = api_get(&served, "/api/view", &bob);
    api_post(&served, &bob, &common::first_choice(&view, "place"));
    driver.at(2);
    // While it is down, Bob takes his value back and writes another.
    api_post(&served, &referee, &json!({"type": "undone", "undoes": 2}));
    let view: Value = api_get(&served, "/api/view", &bob);
    api_post(&served, &bob, &common::first_choice(&view, "place"));
    // It reconnects with the last id it saw, and catches up.
    driver.at(4);
    let caught = driver.script(PAGE_SHOWN);
    driver.script("location.reload(); return true;");
    driver.at(4);
    assert_eq!(
        driver.script(PAGE_SHOWN),
        caught,
        "the page caught up, and a fresh load"
    );
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
}

#[test]
fn take_back_asks_first_and_the_end_shows_the_standings() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (log, served) = rolled_table("serve-take-back");
    driver.open(&served.link("Ann"));
    driver.at(1);
    // A decision waits: the title says so.
    let title = driver.script("return document.title;");
    assert!(
        title.as_str().unwrap().starts_with("\u{25B6} Your move"),
        "{title}"
    );
    driver.tap("[data-key].open");
    driver.wait(
        "return !!document.querySelector('#picker button.value');",
        "values",
    );
    driver.tap("#picker button.value");
    driver.at(2);
    let undo = "^Undo|^Take back";
    driver.tap_text(".actions button", undo);
    driver.wait(
        "return !!document.getElementById('confirm-yes');",
        "the question",
    );
    // No: nothing is written.
    driver.tap("#confirm-no");
    let lines = || std::fs::read_to_string(&log).unwrap().lines().count();
    assert_eq!(lines(), 3);
    driver.tap_text(".actions button", undo);
    driver.wait(
        "return !!document.getElementById('confirm-yes');",
        "the question",
    );
    driver.tap("#confirm-yes");
    driver.at(3);
    assert_eq!(lines(), 4, "the undo is written");

    // Bob has no phone: the referee records as Bob, with Bob's taps.
    driver.open(&served.link("referee"));
    driver.at(3);
    driver.tap_text(".actions button", "^Record as Bob\u{2026}$");
    driver.wait(
        "return document.getElementById('who').textContent === 'Referee, recording as Bob';",
        "Bob's page",
    );
    driver.tap("[data-key].open");
    driver.wait(
        "return !!document.querySelector('#picker button.value');",
        "values",
    );
    driver.tap("#picker button.value");
    driver.at(4);
    let last: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (&last["type"], &last["player"]),
        (&json!("placed"), &json!("Bob"))
    );
    driver.tap("#record-back");
    driver.wait(
        "return document.getElementById('who').textContent === 'Referee';",
        "the referee's page again",
    );
    drop(served);

    // A finished game: everyone sees the winner and the standings, best
    // first.
    let done = common::fresh("serve-take-back", "done.jsonl");
    std::fs::copy(
        common::repo().join("replays/soleils-4p-sun-limit.jsonl"),
        &done,
    )
    .unwrap();
    let served = common::serve(&done, &[]);
    for who in ["referee", "Ann"] {
        let link = if who == "referee" {
            served.link("referee")
        } else {
            let first = served.links["players"]
                .as_object()
                .unwrap()
                .keys()
                .next()
                .unwrap()
                .clone();
            served.link(&first)
        };
        driver.open(&link);
        driver.wait(
            "return !document.getElementById('outcome').hidden;",
            "the outcome",
        );
        let ranks = driver.script(
            "return Array.prototype.map.call(document.querySelectorAll('#outcome li'), function (li) { return +li.textContent.split('.')[0]; });",
        );
        let ranks: Vec<u32> = serde_json::from_value(ranks).unwrap();
        assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
        assert_eq!(ranks.first(), Some(&1));
        let winner =
            driver.script("return document.querySelector('#outcome .winner').textContent;");
        assert!(winner.as_str().unwrap().contains("points"), "{winner}");
    }
    let violations = axe(&driver);
    assert!(
        violations.is_empty(),
        "axe on a finished page: {violations:#?}"
    );
}

/// A served Summertime table of Ann and Bob on a fixed deal: a deal
/// drawn at random can leave Ann, after her buy, with no card that may
/// open the grid, and so nothing to play.
fn summertime_table(test: &str) -> (String, common::Served) {
    let log = common::fresh(test, "summertime.jsonl");
    let (code, _, stderr) = common::sunfold(&[
        "new",
        "summertime",
        &log,
        "--players",
        "Ann,Bob",
        "--seed",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let served = common::serve(&log, &[]);
    (log, served)
}

#[test]
fn a_summertime_turn_is_played_by_taps_on_a_phone() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    let (log, served) = summertime_table("serve-summertime-phone");
    // The referee turns up the three face-up cards.
    let referee = served.token("referee");
    loop {
        let view = api_get(&served, "/api/view", &referee);
        let Some(reveal) = view["choices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["group"] == "reveal")
        else {
            break;
        };
        api_post(&served, &referee, &reveal["event"]);
    }
    let start = api_get(&served, "/api/view", &referee)["seq"]
        .as_i64()
        .unwrap();
    driver.open(&served.link("Ann"));
    driver.at(start);
    // The page fits the phone's width; the hand, tiles and score are in
    // view without scrolling sideways.
    driver.eventually(
        "var d = document.getElementById('dock').getBoundingClientRect();
         return [document.documentElement.scrollWidth <= window.innerWidth,
                 !document.getElementById('dock').hidden && d.left >= 0 && d.right <= window.innerWidth && d.top < window.innerHeight,
                 /Hand: .*Tiles face up: .*Score: /.test(document.getElementById('dock').textContent)];",
        &json!([true, true, true]),
        "the page to fit 390 px, the hand in view",
    );
    assert_eq!(driver.script("return window.innerWidth;"), json!(390));
    screenshot(&driver, "table-screenshots", "summertime-phone-start.png");
    // A turn begins with a buy, among the actions.
    driver.tap_text(".actions button", "^Buy ");
    driver.at(start + 1);
    let start = start + 1;
    // No cell is offered before a card is chosen; then its cells light up.
    assert_eq!(
        driver.script("return document.querySelectorAll('[data-key^=\"cell:\"].open').length;"),
        json!(0)
    );
    driver.wait(
        "return !!document.querySelector('#dock button.card');",
        "the cards in hand",
    );
    driver.tap("#dock button.card");
    driver.wait(
        "return document.querySelectorAll('[data-key^=\"cell:\"].open').length > 0;",
        "the cells the card may go to",
    );
    driver.eventually(
        "var c = document.querySelector('#dock button.card'); return c && c.getAttribute('aria-pressed');",
        &json!("true"),
        "the chosen card pressed",
    );
    screenshot(
        &driver,
        "table-screenshots",
        "summertime-phone-card-chosen.png",
    );
    driver.tap("[data-key^=\"cell:\"].open");
    driver.at(start + 1);
    let last: Value = serde_json::from_str(
        std::fs::read_to_string(&log)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(last["type"], "played", "{last}");
    assert_eq!(last["player"], "Ann", "{last}");
    // The turn ends with a button among the actions.
    driver.tap_text(".actions button", "^End my turn$");
    driver.at(start + 2);
    screenshot(
        &driver,
        "table-screenshots",
        "summertime-phone-turn-ended.png",
    );
    let violations = axe(&driver);
    assert!(
        violations.is_empty(),
        "axe on Ann's Summertime page: {violations:#?}"
    );
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
    let (code, _, stderr) = common::sunfold(&["replay", &log]);
    assert_eq!(code, 0, "{stderr}");
}

/// Every visible text of the page, at most one per element, with the
/// size it shows at in CSS pixels: an HTML text at its computed font size,
/// an SVG text at its font size times its drawing's scale on the screen.
/// Each is `[words, px]`, smallest first.
const TEXT_SIZES: &str = "var out = [];
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var seen = new Set();
    while (walker.nextNode()) {
      var node = walker.currentNode;
      var el = node.parentElement;
      if (!node.textContent.trim() || !el || seen.has(el)) continue;
      seen.add(el);
      if (el.closest('title, style, script, [hidden], .visually-hidden')) continue;
      var style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      var r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      var px = parseFloat(style.fontSize);
      var text = el.closest('text');
      if (text) {
        var m = text.getScreenCTM();
        px = parseFloat(getComputedStyle(text).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      }
      out.push([node.textContent.trim().slice(0, 60), Math.round(px * 100) / 100]);
    }
    out.sort(function (a, b) { return a[1] - b[1]; });
    return out;";

/// Whether the page fits the window's width: `[scrollWidth, innerWidth]`.
const WIDTHS: &str = "return [document.documentElement.scrollWidth, window.innerWidth];";

/// The page as `driver` shows it now fits the window's width, and shows
/// every word at 11 CSS pixels or more; the smallest text comes back.
fn fits_and_legible(driver: &Driver, page: &str) -> f64 {
    let widths = driver.script(WIDTHS);
    let (scroll, inner) = (widths[0].as_i64().unwrap(), widths[1].as_i64().unwrap());
    assert!(
        scroll <= inner,
        "{page}: {scroll} px wide in a {inner} px window"
    );
    let sizes = driver.script(TEXT_SIZES);
    let sizes = sizes.as_array().unwrap();
    assert!(sizes.len() > 20, "{page}: the texts {sizes:?}");
    let small: Vec<&Value> = sizes
        .iter()
        .filter(|s| s[1].as_f64().unwrap() < 11.0)
        .collect();
    assert!(small.is_empty(), "{page}: texts under 11 px: {small:?}");
    let smallest = sizes[0][1].as_f64().unwrap();
    eprintln!(
        "{page}: {scroll} px wide in {inner}, smallest text {smallest} px ({})",
        sizes[0][0]
    );
    smallest
}

/// Screenshots of the page from top to bottom, a screen at a time (at most
/// `most`), as `NAME-1.png`, `NAME-2.png`…
fn screens(driver: &Driver, name: &str, most: usize) {
    driver.script("window.scrollTo(0, 0);");
    for i in 1..=most {
        screenshot(driver, "table-screenshots", &format!("{name}-{i}.png"));
        let more = driver.script(
            "var before = window.scrollY; window.scrollBy(0, window.innerHeight - 120); return window.scrollY > before;",
        );
        if more != json!(true) {
            break;
        }
    }
    driver.script("window.scrollTo(0, 0);");
}

/// Waits for the page to show its drawings.
fn drawn(driver: &Driver) {
    driver.wait(
        "return !!document.querySelector('#panels svg text');",
        "the drawings",
    );
}

#[test]
fn on_a_phone_every_page_fits_the_screen_and_every_word_is_legible() {
    let Some(driver) = table_driver("390,844") else {
        return;
    };
    // 62 Soleils, round 1 rolled: Ann's page and the referee's.
    let (_log, served) = rolled_table("serve-phone-legible");
    driver.open(&served.link("Ann"));
    driver.at(1);
    drawn(&driver);
    assert_eq!(driver.script("return window.innerWidth;"), json!(390));
    let ann = fits_and_legible(&driver, "Ann's 62 Soleils page");
    // Her name is on her sheet's name line, within the screen.
    let name = driver.script(
        "var t = Array.prototype.filter.call(document.querySelectorAll('#panels svg text'), function (t) { return t.textContent.trim() === 'Ann'; })[0];
         if (!t) return null;
         var r = t.getBoundingClientRect();
         return [r.width > 0, r.left >= 0, r.right <= window.innerWidth];",
    );
    assert_eq!(name, json!([true, true, true]), "Ann's name on her sheet");
    // Every zone and the last sun slot are within the screen's width.
    let outside = driver.script(
        "return Array.prototype.filter.call(document.querySelectorAll('#panels [data-key], #panels g > title'), function (e) {
           var g = e.tagName === 'title' ? e.parentNode : e;
           var r = g.getBoundingClientRect();
           return r.width > 0 && (r.left < 0 || r.right > window.innerWidth);
         }).length;",
    );
    assert_eq!(outside, json!(0), "parts of the sheet off the screen");
    screens(&driver, "phone-soleils-player", 8);

    driver.open(&served.link("referee"));
    driver.at(1);
    drawn(&driver);
    let referee_px = fits_and_legible(&driver, "the referee's 62 Soleils page");
    // One sheet at a time, chosen in a list of the players.
    assert_eq!(
        driver.script("return document.querySelectorAll('#panels figure').length;"),
        json!(1)
    );
    assert_eq!(
        driver.script("return Array.prototype.map.call(document.querySelectorAll('#sheet-shown option'), function (o) { return o.textContent; });"),
        json!(["Ann", "Bob"])
    );
    screens(&driver, "phone-soleils-referee", 2);
    driver.script(
        "var s = document.getElementById('sheet-shown'); s.value = 'Bob'; s.dispatchEvent(new Event('change'));",
    );
    driver.eventually(
        "return document.querySelector('#panels figcaption').textContent;",
        &json!("Bob"),
        "Bob's sheet shown",
    );
    fits_and_legible(&driver, "the referee's page, Bob's sheet");
    screenshot(
        &driver,
        "table-screenshots",
        "phone-soleils-referee-bob.png",
    );
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
    // Away from the page before its server stops, lest its stream break.
    driver.open("about:blank");
    drop(served);

    // Summertime, a card played: Ann's page and the referee's.
    let (_, served) = summertime_table("serve-phone-legible");
    let referee = served.token("referee");
    let ann_token = served.token("Ann");
    // The referee reveals, Ann buys and plays: the grid holds a card.
    for (token, group) in [
        (&referee, "reveal"),
        (&referee, "reveal"),
        (&referee, "reveal"),
        (&ann_token, "buy"),
        (&ann_token, "play"),
    ] {
        let view = api_get(&served, "/api/view", token);
        api_post(&served, token, &common::first_choice(&view, group));
    }
    let seq = api_get(&served, "/api/view", &referee)["seq"]
        .as_i64()
        .unwrap();
    let mut smallest = vec![ann, referee_px];
    for who in ["Ann", "referee"] {
        driver.open(&served.link(who));
        driver.at(seq);
        drawn(&driver);
        smallest.push(fits_and_legible(
            &driver,
            &format!("{who}'s Summertime page"),
        ));
        screens(
            &driver,
            &format!("phone-summertime-{}", who.to_lowercase()),
            4,
        );
    }
    eprintln!("smallest texts: {smallest:?}");
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
}

#[test]
fn a_wide_screen_keeps_the_printed_sheets() {
    let Some(driver) = table_driver("1280,900") else {
        return;
    };
    let (_log, served) = rolled_table("serve-wide");
    driver.open(&served.link("referee"));
    driver.at(1);
    drawn(&driver);
    // Both sheets side by side, as printed, and no list to pick one.
    assert_eq!(
        driver.script("return [document.querySelectorAll('#panels figure').length, !!document.getElementById('sheet-shown'), document.querySelectorAll('#panels .scroll.phone').length];"),
        json!([2, false, 0])
    );
    let widths = driver.script(WIDTHS);
    assert!(widths[0].as_i64() <= widths[1].as_i64(), "{widths}");
    screenshot(&driver, "table-screenshots", "wide-soleils-referee.png");
    driver.open(&served.link("Ann"));
    driver.at(1);
    drawn(&driver);
    assert_eq!(
        driver.script("return document.querySelectorAll('#panels .scroll.phone').length;"),
        json!(0)
    );
    screenshot(&driver, "table-screenshots", "wide-soleils-player.png");
}
