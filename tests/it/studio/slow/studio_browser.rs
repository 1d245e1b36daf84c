//! The studio in a real browser: headless Chromium driven through
//! WebDriver builds a sheet from blank by clicks alone, drags a box, makes
//! the bundled sheet contradictory, changes a threshold and watches the
//! figures, adds a card to a deck, and is audited by axe-core. The studio
//! killed with SIGKILL in the middle of edits loses none it acknowledged.
//!
//! Without chromedriver the browser tests say so and pass, except under
//! `CI=true`, where they fail.

use crate::common;

use common::driver::{Driver, ENTER, TAB, agent, axe, screenshot};
use serde_json::{Value, json};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// `sunfold studio FILE ARGS --listen 127.0.0.1:0`, killed when dropped,
/// with the address it printed first.
pub(super) struct Studio {
    child: Child,
    /// Kept open: the studio writes more lines after its address.
    _out: std::io::BufReader<std::process::ChildStdout>,
    pub(super) url: String,
    pub(super) file: PathBuf,
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Studio {
    pub(super) fn start(file: &Path, args: &[&str]) -> Studio {
        Studio::start_at(file, args, "127.0.0.1:0")
    }

    /// [`Studio::start`] listening at `listen`.
    pub(super) fn start_at(file: &Path, args: &[&str], listen: &str) -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sunfold"))
            .arg("studio")
            .arg(file)
            .args(args)
            .args(["--listen", listen])
            .current_dir(common::repo())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the studio starts");
        let mut first = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().expect("piped"));
        out.read_line(&mut first)
            .expect("the studio prints its address");
        Studio {
            child,
            _out: out,
            url: first.trim().to_owned(),
            file: file.to_owned(),
        }
    }

    fn base(&self) -> &str {
        self.url.split("/?token=").next().unwrap()
    }

    fn token(&self) -> &str {
        self.url.split("/?token=").nth(1).expect("a token")
    }

    pub(super) fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let url = format!("{}{path}", self.base());
        let bearer = format!("Bearer {}", self.token());
        let mut response = match body {
            Some(body) => agent()
                .post(&url)
                .header("authorization", &bearer)
                .header("content-type", "application/json")
                .send(body.to_string()),
            None if method == "POST" => agent()
                .post(&url)
                .header("authorization", &bearer)
                .send_empty(),
            None => agent().get(&url).header("authorization", &bearer).call(),
        }
        .expect("the studio answers");
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().unwrap())
    }

    pub(super) fn on_disk(&self) -> Value {
        serde_json::from_str(&std::fs::read_to_string(&self.file).unwrap()).unwrap()
    }
}

/// A fresh path for a test's file.
pub(super) fn fresh(test: &str, name: &str) -> PathBuf {
    PathBuf::from(common::fresh(test, name))
}

pub(super) fn bundled(name: &str) -> String {
    common::repo()
        .join("sheet-templates")
        .join(name)
        .display()
        .to_string()
}

/// `template check FILE` passes.
pub(super) fn checks(file: &Path) {
    let (code, out, err) = common::sunfold(&["template", "check", &file.display().to_string()]);
    assert_eq!(code, 0, "template check: {out}{err}");
}

/// The preview as saved equals `render sheet FILE`'s SVG.
fn preview_is_the_render(studio: &Studio, test: &str) {
    let out = common::fresh(test, "rendered.svg");
    let file = studio.file.display().to_string();
    let (code, _, err) = common::sunfold(&["render", "sheet", &file, "-o", &out]);
    assert_eq!(code, 0, "{err}");
    let (status, preview) = studio.call("GET", "/preview.svg", None);
    assert_eq!(status, 200);
    assert!(
        preview == std::fs::read_to_string(out).unwrap(),
        "the preview differs from render sheet"
    );
}

/// Waits for the page to have drawn the template with `boxes` boxes.
pub(super) fn drawn(driver: &Driver, boxes: usize) {
    driver.eventually(
        "return document.querySelectorAll('#grid .cell.box').length;",
        &json!(boxes),
        &format!("{boxes} boxes on the grid"),
    );
}

/// Waits for the studio's message line to read `text`.
pub(super) fn said(driver: &Driver, text: &str) {
    driver.eventually(
        "return document.getElementById('said').textContent;",
        &json!(text),
        &format!("the message {text:?}"),
    );
}

/// Chooses `value` in the select matching `css`, as a click on its option.
fn choose(driver: &Driver, css: &str, value: &str) {
    driver.tap(&format!("{css} option[value=\"{value}\"]"));
}

#[test]
fn a_small_sheet_is_built_from_blank_by_clicks_alone() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-build", "mine.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);

    // A zone of beach cabins, with one group.
    driver.tap("#parts button[aria-label=\"add a zone of beach cabins\"]");
    said(&driver, "added zone cabins");
    driver.tap("#parts button[aria-label=\"add a group to zone Beach cabins\"]");
    said(&driver, "added group C1");
    // Four more boxes, one click each on an empty cell: six in all.
    for column in 2..6 {
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
        drawn(&driver, column + 1);
        // Each new box is picked; a click on it lets it go.
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
    }
    // Pearls, a crab and a constraint on the boxes.
    for (column, pearl) in [(2, "4"), (3, "6"), (4, "2"), (5, "5")] {
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
        let index = column;
        choose(
            &driver,
            &format!("select[data-key=\"boxes.{index}.pearl\"]"),
            pearl,
        );
        said(&driver, &format!("Pearl: {pearl}"));
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
    }
    // B5 and B6 go to the cabin, and so to its first group, named in its
    // pattern as they go.
    for (column, index, named) in [(4, 4, "C1a"), (5, 5, "C1b")] {
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
        choose(
            &driver,
            &format!("select[data-key=\"boxes.{index}.zone\"]"),
            "cabins",
        );
        said(
            &driver,
            &format!("box B{} in zone cabins, group C1, named {named}", index + 1),
        );
        driver.tap(&format!(
            "#grid .cell[data-column=\"{column}\"][data-row=\"0\"]"
        ));
    }
    driver.tap("#grid .cell[data-column=\"3\"][data-row=\"0\"]");
    driver.tap("input[data-key=\"boxes.3.icons.crab\"]");
    said(&driver, "a crab on box B4");
    choose(
        &driver,
        "select[aria-label=\"new constraint: kind\"]",
        "less",
    );
    choose(
        &driver,
        "select[aria-label=\"new constraint: the other box\"]",
        "C1b",
    );
    driver.tap_text("#selected button", "^Add the constraint$");
    said(&driver, "constraint less B4, C1b");
    driver.eventually(
        "return document.getElementById('verdict').textContent;",
        &json!("Valid: saved"),
        "a valid sheet",
    );
    screenshot(&driver, "studio-screenshots", "built-from-blank.png");

    let saved = studio.on_disk();
    assert_eq!(saved["boxes"].as_array().unwrap().len(), 6);
    assert_eq!(saved["boxes"][3]["icons"], json!(["crab"]));
    assert_eq!(saved["boxes"][3]["pearl"], json!(6));
    assert_eq!(saved["constraints"], json!([{"less": ["B4", "C1b"]}]));
    assert_eq!(saved["zones"][1]["kind"], json!("cabins"));
    assert_eq!(saved["boxes"][5]["group"], json!("C1"));
    checks(&studio.file);
    preview_is_the_render(&studio, "studio-browser-build");
    assert_eq!(driver.console(), Vec::<String>::new());
}

#[test]
fn a_dragged_box_moves_and_undo_puts_it_back() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-drag", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("62-soleils-d-ete.json")]);
    driver.open(&studio.url);
    let boxes = studio.on_disk()["boxes"].as_array().unwrap().len();
    drawn(&driver, boxes);
    let before = studio.on_disk();
    // K1a sits at column 0, row 1; row 4 is empty.
    assert_eq!(before["boxes"][0]["cell"], json!([0, 1]));
    let cell = |column: u32, row: u32| {
        let found = driver.post(
            "/element",
            json!({"using": "css selector",
                   "value": format!("#grid .cell[data-column=\"{column}\"][data-row=\"{row}\"]")}),
        );
        found[common::driver::ELEMENT].as_str().unwrap().to_owned()
    };
    let (from, to) = (cell(0, 1), cell(2, 4));
    let origin = |e: &str| json!({common::driver::ELEMENT: e});
    driver.post(
        "/actions",
        json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [
                {"type": "pointerMove", "origin": origin(&from), "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerMove", "origin": origin(&to), "x": 0, "y": 0, "duration": 200},
                {"type": "pointerUp", "button": 0}
            ]}]}),
    );
    said(&driver, "moved box K1a to column 3, row 5");
    assert_eq!(studio.on_disk()["boxes"][0]["cell"], json!([2, 4]));
    driver.tap("#undo");
    said(&driver, "undone");
    assert_eq!(studio.on_disk(), before);
}

#[test]
fn a_contradiction_shows_on_both_boxes_and_the_file_stays_valid() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-contradiction", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("62-soleils-d-ete.json")]);
    driver.open(&studio.url);
    let before = studio.on_disk();
    drawn(&driver, before["boxes"].as_array().unwrap().len());
    // K1a < K1b already; K1a > K1b too can never be met.
    driver.tap("#grid .cell[data-column=\"0\"][data-row=\"1\"]");
    choose(
        &driver,
        "select[aria-label=\"new constraint: kind\"]",
        "greater",
    );
    choose(
        &driver,
        "select[aria-label=\"new constraint: the other box\"]",
        "K1b",
    );
    driver.tap_text("#selected button", "^Add the constraint$");
    driver.eventually(
        "return document.getElementById('verdict').textContent;",
        &json!("Not valid: the file keeps its last valid version"),
        "the contradiction found",
    );
    // Shown on both boxes at once, and on the new constraint's fields.
    driver.eventually(
        "return Array.from(document.querySelectorAll('#grid .cell.faulty')).map(function (c) { return c.textContent.split(' ')[0]; }).sort();",
        &json!(["K1a", "K1b"]),
        "the problem shown on both boxes",
    );
    driver.wait(
        "return document.querySelectorAll('#parts .faulty').length > 0;",
        "the problem shown at the constraint's fields",
    );
    driver.tap_text("#problems button", "constraints\\[");
    driver.eventually(
        "return Array.from(document.querySelectorAll('#grid .cell.marked')).map(function (c) { return c.textContent.split(' ')[0]; }).sort();",
        &json!(["K1a", "K1b"]),
        "the problem marked on both boxes",
    );
    screenshot(&driver, "studio-screenshots", "contradiction.png");
    assert_eq!(studio.on_disk(), before, "the file keeps its valid version");
}

#[test]
fn a_threshold_changed_updates_the_figures_with_the_change() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-figures", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("62-soleils-d-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, studio.on_disk()["boxes"].as_array().unwrap().len());
    driver.wait(
        "var row = document.querySelector('#figures-table tr[data-figure=\"rounds\"]'); return !!row && row.children[1].textContent.indexOf('[') > 0;",
        "the figures of the file as opened",
    );
    // The fifth threshold, from 52 to 44: typed, then Tab.
    driver.script(
        "var input = document.querySelector('input[data-key=\"sun.thresholds.4.at\"]'); input.focus(); input.select(); return true;",
    );
    driver.press(&["4", "4", TAB]);
    said(&driver, "At: 44");
    assert_eq!(studio.on_disk()["sun"]["thresholds"][4]["at"], json!(44));
    // The mean score moves with it: this edit's figure and the one since
    // opening both have an interval.
    driver.wait(
        "var row = document.querySelector('#figures-table tr[data-figure=\"mean_score\"]'); return !!row && /\\[/.test(row.children[3].textContent) && /\\[/.test(row.children[2].textContent);",
        "a figure for this edit and since opening",
    );
    driver.wait(
        "return document.getElementById('figures-progress').value >= 16;",
        "games played",
    );
    driver.script("document.getElementById('figures').scrollIntoView(); return true;");
    screenshot(&driver, "studio-screenshots", "figures.png");
    let (_, figures) = studio.call("GET", "/api/figures", None);
    let figures: Value = serde_json::from_str(&figures).unwrap();
    assert_eq!(figures["changed_since_opened"], json!(true));
    assert_eq!(figures["edit_compared"], json!(true));
}

/// Nothing on the page is wider than the window, nor the cards' table
/// than its panel: neither scrolls sideways.
fn fits(driver: &Driver, what: &str) {
    let widths = driver.script(
        "var t = document.querySelector('table.cards'); var p = t.closest('section'); return [t.scrollWidth, t.clientWidth, p.scrollWidth, p.clientWidth, document.documentElement.scrollWidth, window.innerWidth];",
    );
    let w: Vec<i64> = serde_json::from_value(widths).unwrap();
    assert!(
        w[0] <= w[1],
        "{what}: the table is {} wide in {}",
        w[0],
        w[1]
    );
    assert!(
        w[2] <= w[3],
        "{what}: the cards' panel is {} wide in {}",
        w[2],
        w[3]
    );
    assert!(
        w[4] <= w[5],
        "{what}: the page is {} wide in {}",
        w[4],
        w[5]
    );
}

#[test]
fn a_card_added_to_a_deck_shows_its_face_at_once_and_the_deck_checks() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-deck", "deck.json");
    let studio = Studio::start(&file, &["--from", &bundled("summertime.json")]);
    driver.open(&studio.url);
    let cards = studio.on_disk()["cards"].as_array().unwrap().len();
    driver.wait(
        &format!(
            "var f = document.querySelectorAll('img.face'); return f.length === {cards} && Array.prototype.every.call(f, function (i) {{ return i.naturalWidth > 0; }});"
        ),
        "a face for each card, drawn",
    );
    fits(&driver, "the bundled deck");
    screenshot(&driver, "studio-screenshots", "deck-table.png");
    // A card added makes 35, one too many: its face shows all the same,
    // as it prints.
    driver.tap_text("#parts button", "^Add a card$");
    said(&driver, "added card card-1");
    let face = |n: usize| {
        format!(
            "var img = document.querySelector('img.face[data-card=\"{n}\"]'); return !!img && !img.hidden && img.src.indexOf('blob:') === 0 && img.naturalWidth > 0;"
        )
    };
    driver.wait(
        &face(cards),
        "the new card's face while the deck has a card too many",
    );
    assert_eq!(
        driver.script("return document.getElementById('verdict').className;"),
        json!("invalid")
    );
    // A picture it needs that the deck lacks: its row says why it is not
    // drawn, and the other cards still are.
    driver.script(&format!(
        "var input = document.querySelector('input[data-key=\"cards.{cards}.needs\"]'); input.focus(); input.select(); return true;"
    ));
    driver.press(&["m", "o", "o", "n", TAB]);
    said(&driver, "Needs: moon");
    driver.wait(
        &format!(
            "var why = document.querySelector('small.why[data-card=\"{cards}\"]'); var img = document.querySelector('img.face[data-card=\"{cards}\"]'); return !!why && !why.closest('tr').hidden && why.textContent.indexOf('cards[{cards}].needs[0]: expected the id of a picture, but found \"moon\"') > 0 && img.hidden;"
        ),
        "why the new card is not drawn",
    );
    driver.wait(&face(0), "the first card's face still");
    screenshot(&driver, "studio-screenshots", "deck-not-drawn.png");
    fits(&driver, "a card not drawn");
    driver.script(&format!(
        "var input = document.querySelector('input[data-key=\"cards.{cards}.needs\"]'); input.focus(); input.select(); return true;"
    ));
    driver.press(&["\u{E003}", TAB]);
    said(&driver, "Needs: ");
    driver.wait(&face(cards), "the new card's face again");
    driver.tap("#parts button[aria-label=\"remove card beach-1\"]");
    said(&driver, "removed card beach-1");
    let cards = cards - 1;
    driver.wait(&face(cards), "the new card's face as it prints");
    screenshot(&driver, "studio-screenshots", "deck.png");
    assert_eq!(studio.on_disk()["cards"][cards]["name"], json!("New card"));
    checks(&studio.file);
    let (status, face) = studio.call("GET", &format!("/card.svg?card={cards}"), None);
    assert_eq!(status, 200);
    assert!(face.contains("New card"), "the face names the card");
}

#[test]
fn a_new_deck_fits_the_window() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-new-deck", "deck.json");
    let studio = Studio::start(&file, &["--new", "summertime"]);
    driver.open(&studio.url);
    driver.wait(
        "var f = document.querySelectorAll('img.face'); return f.length > 0 && f[0].naturalWidth > 0;",
        "the new deck's faces",
    );
    fits(&driver, "a new deck");
    screenshot(&driver, "studio-screenshots", "new-deck.png");
}

#[test]
fn axe_finds_nothing_and_a_box_is_made_by_keyboard_alone() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-axe", "mine.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);
    driver.wait(
        "return document.getElementById('figures-table').rows.length > 1;",
        "the figures",
    );
    assert_eq!(axe(&driver), Vec::<String>::new(), "on the sheet");

    // Tab to the first empty cell, and press Enter.
    let mut tabs = 0;
    while driver.script(
        "var e = document.activeElement; return !!e && e.classList.contains('cell') && !e.classList.contains('box');",
    ) != json!(true)
    {
        driver.press(&[TAB]);
        tabs += 1;
        assert!(tabs < 60, "no empty cell within 60 tabs");
    }
    driver.press(&[ENTER]);
    drawn(&driver, 3);
    driver.press(&["4"]);
    said(&driver, "pearl 4 on box B3");
    assert_eq!(studio.on_disk()["boxes"][2]["pearl"], json!(4));

    let deck = fresh("studio-browser-axe", "deck.json");
    let deck = Studio::start(&deck, &["--new", "summertime"]);
    driver.open(&deck.url);
    driver.wait(
        "return document.querySelectorAll('img.face').length > 0 && document.getElementById('figures-table').rows.length > 1;",
        "the deck's table",
    );
    assert_eq!(axe(&driver), Vec::<String>::new(), "on the deck");
}

#[test]
fn a_studio_killed_mid_edit_keeps_every_acknowledged_edit() {
    let file = fresh("studio-kill", "mine.json");
    let mut studio = Studio::start(&file, &["--from", &bundled("62-soleils-d-ete.json")]);
    // Edits posted one after another from a thread, the studio killed
    // with SIGKILL while they go on.
    let (base, token) = (studio.base().to_owned(), studio.token().to_owned());
    let poster = std::thread::spawn(move || {
        let mut acknowledged = Vec::new();
        for round in 1..=400u32 {
            let patch =
                json!([{"op": "replace", "path": "/name", "value": format!("edit {round}")}]);
            let sent = agent()
                .post(format!("{base}/api/patch"))
                .header("authorization", &format!("Bearer {token}"))
                .header("content-type", "application/json")
                .send(patch.to_string());
            match sent {
                Ok(response) if response.status() == 200 => acknowledged.push(round),
                _ => break,
            }
        }
        acknowledged
    });
    std::thread::sleep(std::time::Duration::from_millis(400));
    let _ = Command::new("kill")
        .args(["-9", &studio.child.id().to_string()])
        .status();
    let _ = studio.child.wait();
    let acknowledged = poster.join().unwrap();
    assert!(
        !acknowledged.is_empty() && acknowledged.len() < 400,
        "the kill came in the middle of the edits: {} acknowledged",
        acknowledged.len()
    );
    let last = *acknowledged.last().unwrap();
    // The file holds the last acknowledged edit or one after it (sent,
    // logged, not yet answered), never an earlier one.
    let reopened = Studio::start(&file, &[]);
    let (_, now) = reopened.call("GET", "/api/template", None);
    let now: Value = serde_json::from_str(&now).unwrap();
    let name = now["name"].as_str().unwrap();
    let round: u32 = name.strip_prefix("edit ").unwrap().parse().unwrap();
    assert!(
        round == last || round == last + 1,
        "reopened at {name:?}, the last acknowledged being edit {last}"
    );
    // Undo walks back through every acknowledged edit.
    for back in (1..round).rev() {
        let (status, _) = reopened.call("POST", "/api/undo", None);
        assert_eq!(status, 200);
        let (_, now) = reopened.call("GET", "/api/template", None);
        let now: Value = serde_json::from_str(&now).unwrap();
        assert_eq!(now["name"], json!(format!("edit {back}")));
    }
}

#[test]
fn the_studio_takes_serves_limits_on_connections() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    let file = fresh("studio-limits", "mine.json");
    let studio = Studio::start(&file, &["--new", "soleils", "--max-per-address", "2"]);
    let addr = studio.base().strip_prefix("http://").unwrap().to_owned();
    let request = format!(
        "GET /api/check HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\nConnection: close\r\n\r\n",
        studio.token()
    );
    let ask = |stream: &mut TcpStream| {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    };
    // Two connections held open from this address use its share: a third
    // is closed unanswered, where the default share (32) would serve it.
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(&addr).unwrap()).collect();
    let third = ask(&mut TcpStream::connect(&addr).unwrap());
    assert!(third.is_empty(), "a third connection was answered: {third}");
    drop(held);
    // Once they close, the address is served again.
    let mut answered = String::new();
    for _ in 0..600 {
        answered = ask(&mut TcpStream::connect(&addr).unwrap());
        if !answered.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
}

/// The text of the message line, at once.
fn saying(driver: &Driver) -> String {
    let said = driver.script("return document.getElementById('said').textContent;");
    said.as_str().unwrap_or_default().to_owned()
}

#[test]
fn a_cost_tile_picked_replaces_the_tile_it_shows() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-cost", "deck.json");
    let studio = Studio::start(&file, &["--from", &bundled("summertime.json")]);
    driver.open(&studio.url);
    let before = studio.on_disk();
    assert_eq!(
        before["cards"][0]["cost"],
        json!(["coconut", "coral", "coral"])
    );
    driver.wait(
        "return !!document.querySelector('select[data-key=\"cards.0.cost.0\"]');",
        "the first card's cost tiles",
    );
    choose(&driver, "select[data-key=\"cards.0.cost.0\"]", "shell");
    said(&driver, "Tile 1: shell");
    assert_eq!(
        studio.on_disk()["cards"][0]["cost"],
        json!(["shell", "coral", "coral"])
    );
    let closing = before["closing_cards"][0]["sides"][1][2].as_str().unwrap();
    let other = if closing == "flower" {
        "coconut"
    } else {
        "flower"
    };
    choose(
        &driver,
        "select[data-key=\"closing_cards.0.sides.1.2\"]",
        other,
    );
    said(&driver, &format!("Side 2, tile 3: {other}"));
    let mut sides = before["closing_cards"][0]["sides"].clone();
    sides[1][2] = json!(other);
    assert_eq!(studio.on_disk()["closing_cards"][0]["sides"], sides);
    assert_eq!(driver.console(), Vec::<String>::new());
}

/// Tab B (the page) has K14 selected; tab A (a script) deletes K11, which
/// moves every later box one index down; tab B types 1. The edit is
/// refused, the page shows the template as it stands and says why, and
/// K21, where K14's old index now points, is untouched. An arrow key at
/// the edge of the grid moves nothing; a reload without the token in the
/// address comes back by the studio's cookie.
#[test]
fn a_stale_tab_is_refused_and_shown_the_template_as_it_stands() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-stale", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);
    // This tab does not ask, before it edits, whether another changed it.
    super::studio_keys::quiet(&driver);
    let before = studio.on_disk();
    // K14 sits at column 0, row 3: at the left edge.
    driver.tap("#grid .cell[data-column=\"0\"][data-row=\"3\"]");
    driver.wait(
        "return !!document.querySelector('#grid .cell.selected');",
        "K14 selected",
    );
    driver.press(&[common::driver::ARROW_LEFT]);
    driver.wait(
        "return document.getElementById('said').textContent.indexOf('edge of the grid') >= 0;",
        "the move at the edge refused",
    );
    assert_eq!(studio.on_disk(), before, "nothing moved");

    let (status, _) = studio.call(
        "POST",
        "/api/patch",
        Some(&json!([{"op": "remove", "path": "/boxes/0"}])),
    );
    assert_eq!(status, 200);
    let k21 = before["boxes"][4].clone();
    assert_eq!(k21["id"], "K21");
    driver.press(&["1"]);
    driver.wait(
        "return document.getElementById('said').textContent.indexOf('not applied') >= 0;",
        "the stale edit refused",
    );
    assert!(
        saying(&driver).contains("another tab"),
        "{}",
        saying(&driver)
    );
    drawn(&driver, 21);
    // Without K11 its constraints name no box: the file keeps its last
    // valid version, and the template as it stands is what counts.
    let standing =
        || -> Value { serde_json::from_str(&studio.call("GET", "/api/template", None).1).unwrap() };
    let after = standing();
    assert_eq!(after["boxes"][3], k21, "K21 untouched");
    assert_eq!(after["boxes"][2], before["boxes"][3], "K14 untouched");
    // K14 is still the box selected, wherever its index went; made
    // against the template as it stands, the edit goes through.
    driver.press(&["4"]);
    said(&driver, "pearl 4 on box K14");
    assert_eq!(standing()["boxes"][2]["pearl"], 4);

    // A reload, the tab's own copy of the token gone: the cookie lets it in.
    driver.script("sessionStorage.clear(); location.replace(location.pathname); return true;");
    drawn(&driver, 21);
    assert_eq!(
        driver.script("return location.search;"),
        json!(""),
        "no token in the address"
    );
    driver.tap("#grid .cell[data-column=\"0\"][data-row=\"3\"]");
    driver.press(&["5"]);
    said(&driver, "pearl 5 on box K14");
    assert_eq!(standing()["boxes"][2]["pearl"], 5);
}

/// The studio unreachable: the page says so in a banner and keeps the
/// edit, sends it when the studio answers again, and drops it when asked.
#[test]
fn an_edit_made_while_the_studio_is_down_is_kept_until_sent_or_discarded() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-down", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);
    let before = studio.on_disk();
    // The network goes: every request fails as a stopped studio's does.
    let down = "window.realFetch = window.realFetch || window.fetch; window.fetch = function () { return Promise.reject(new TypeError('Failed to fetch')); }; return true;";
    let up = "window.fetch = window.realFetch; return true;";
    driver.script(down);
    driver.tap("#grid .cell[data-column=\"0\"][data-row=\"0\"]");
    driver.press(&["6"]);
    driver.wait(
        "var b = document.getElementById('down'); return !!b && !b.hidden && b.textContent.indexOf('not answering') >= 0 && b.textContent.indexOf('pearl 6 on box K11') >= 0;",
        "the banner, with the edit kept",
    );
    // Another edit waits for the first.
    driver.press(&["5"]);
    driver.wait(
        "return document.getElementById('said').textContent.indexOf('send or discard') >= 0;",
        "a second edit held back",
    );
    assert_eq!(studio.on_disk(), before);
    screenshot(&driver, "studio-screenshots", "studio-down.png");
    driver.script(up);
    // Sent by itself once the studio answers.
    driver.wait(
        "var b = document.getElementById('down'); return !!b && b.hidden;",
        "the banner gone",
    );
    said(&driver, "pearl 6 on box K11");
    assert_eq!(studio.on_disk()["boxes"][0]["pearl"], 6);

    // Discarded: nothing sent, ever.
    driver.script(down);
    driver.tap("#grid .cell[data-column=\"1\"][data-row=\"0\"]");
    driver.press(&["2"]);
    driver.wait(
        "var b = document.getElementById('down'); return !!b && !b.hidden;",
        "the banner again",
    );
    driver.tap_text("#down button", "^Discard$");
    said(&driver, "discarded: pearl 2 on box K21");
    driver.script(up);
    driver.press(&["3"]);
    said(&driver, "pearl 3 on box K21");
    assert_eq!(studio.on_disk()["boxes"][4]["pearl"], 3);
    let log = std::fs::read_to_string(sunfold::studio::edit_log::path_for(&file)).unwrap();
    let sent: Vec<Value> = log
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["patch"][0]["value"].clone())
        .collect();
    assert_eq!(
        sent,
        [json!(6), json!(3)],
        "the edit discarded was never sent"
    );
}

/// A box off the grid (a file edited by hand) has its problem shown at a
/// button of its own, which selects it; an arrow key brings it back.
#[test]
fn a_box_off_the_grid_shows_its_problem_and_comes_back_by_an_arrow_key() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-browser-off-grid", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    let (status, _) = studio.call(
        "POST",
        "/api/patch",
        Some(&json!([{"op": "replace", "path": "/boxes/0/cell", "value": [6, 3]}])),
    );
    assert_eq!(status, 200);
    driver.open(&studio.url);
    drawn(&driver, 22);
    driver.wait(
        "var b = document.querySelector('#grid .cell.off-grid.faulty[data-box=\"0\"]'); return !!b && b.title.indexOf('boxes[0].cell: ') === 0;",
        "the problem shown at the box off the grid",
    );
    driver.tap("#grid .cell.off-grid");
    driver.press(&[common::driver::ARROW_LEFT]);
    said(&driver, "moved box K11 to column 6, row 4");
    assert_eq!(studio.on_disk()["boxes"][0]["cell"], json!([5, 3]));
    driver.eventually(
        "return document.getElementById('verdict').textContent;",
        &json!("Valid: saved"),
        "valid again",
    );
}
