//! The studio's page in a real browser: the print and the figures beside
//! the editor (one tap away on a phone), renames and deletes carried
//! through every reference, several boxes picked and made a set, undo and
//! redo by keys, a problem's message at its element, a photo traced under
//! the grid, and axe-core's audit of the bundled sheet and deck at a
//! desktop's width and a phone's.

use super::studio_browser::{Studio, bundled, drawn, fresh, said};
use crate::common;

use common::driver::{Driver, ELEMENT, ENTER, TAB, axe, screenshot};
use serde_json::{Value, json};

/// WebDriver's Shift and Control keys.
const SHIFT: &str = "\u{E008}";
const CONTROL: &str = "\u{E009}";

fn cell(column: u32, row: u32) -> String {
    format!("#grid .cell[data-column=\"{column}\"][data-row=\"{row}\"]")
}

/// The on-screen box of the element matching `css`: left, top, right,
/// bottom, in CSS pixels of the window.
fn rect(driver: &Driver, css: &str) -> Vec<f64> {
    let found = driver.post(
        "/execute/sync",
        json!({"script": "var e = document.querySelector(arguments[0]); if (!e) return null; var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", "args": [css]}),
    );
    serde_json::from_value(found.clone()).unwrap_or_else(|_| panic!("no {css}: {found}"))
}

/// The window's width and height.
fn window(driver: &Driver) -> (f64, f64) {
    let size = driver.script("return [window.innerWidth, window.innerHeight];");
    (size[0].as_f64().unwrap(), size[1].as_f64().unwrap())
}

/// `text` typed into the field of key `key`, committed by `commit`.
fn type_in(driver: &Driver, key: &str, text: &str, commit: &str) {
    driver.script(&format!(
        "var input = document.querySelector('[data-key=\"{key}\"]'); input.scrollIntoView({{block: 'center'}}); input.focus(); input.select(); return true;"
    ));
    let mut keys: Vec<String> = text.chars().map(String::from).collect();
    keys.push(commit.to_owned());
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    driver.press(&keys);
}

/// A click on `css` with `key` held.
fn click_holding(driver: &Driver, key: &str, css: &str) {
    let element = driver.post(
        "/execute/sync",
        json!({"script": "var e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); return e;", "args": [css]}),
    );
    let origin = json!({ELEMENT: element[ELEMENT]});
    driver.post(
        "/actions",
        json!({"actions": [
            {"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "pause"}, {"type": "pause"},
                {"type": "pause"}, {"type": "keyUp", "value": key}]},
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pause"}, {"type": "pointerMove", "origin": origin, "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                {"type": "pause"}]}
        ]}),
    );
    let _ = driver
        .agent
        .delete(format!("{}/actions", driver.base))
        .call();
}

/// A key chord: `held` down, `key` pressed, `held` up again.
fn chord(driver: &Driver, held: &[&str], key: &str) {
    let mut actions: Vec<Value> = held
        .iter()
        .map(|k| json!({"type": "keyDown", "value": k}))
        .collect();
    actions.push(json!({"type": "keyDown", "value": key}));
    actions.push(json!({"type": "keyUp", "value": key}));
    actions.extend(held.iter().map(|k| json!({"type": "keyUp", "value": k})));
    driver.post(
        "/actions",
        json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}),
    );
    let _ = driver
        .agent
        .delete(format!("{}/actions", driver.base))
        .call();
}

#[test]
fn the_print_stays_beside_the_editor_and_one_tap_away_on_a_phone() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-page-side", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);
    driver.wait(
        "var p = document.getElementById('preview'); return p.naturalWidth > 0 && document.getElementById('figures-table').rows.length > 1;",
        "the preview and the figures",
    );
    // Editing the sun track, far down the editor: the printed page is in
    // the window, to the right of the field.
    type_in(&driver, "sun.thresholds.3.at", "38", TAB);
    said(&driver, "At: 38");
    driver.script(
        "var f = document.querySelector('[data-key=\"sun.thresholds.3.at\"]'); f.scrollIntoView({block: 'center'}); f.focus(); return true;",
    );
    screenshot(&driver, "studio-screenshots", "side-panel-sun.png");
    let (width, height) = window(&driver);
    let field = rect(&driver, "[data-key=\"sun.thresholds.3.at\"]");
    let preview = rect(&driver, "#preview");
    assert!(
        field[1] >= 0.0 && field[3] <= height,
        "the field is in view: {field:?}"
    );
    assert!(
        preview[1] < height && preview[3] > 0.0 && preview[1] < height / 2.0,
        "the printed page is in view while the sun track is edited: {preview:?} in {width}x{height}"
    );
    assert!(
        preview[0] > field[2],
        "the printed page is beside the editor: {preview:?}, the field {field:?}"
    );
    let figures = rect(&driver, "#figures");
    assert!(
        figures[1] < height,
        "the figures start in view: {figures:?} in {width}x{height}"
    );

    // A sheet made invalid: the print is its last valid version, and says so.
    type_in(&driver, "end.rounds", "0", TAB);
    said(&driver, "Last round: 0");
    driver.eventually(
        "return document.getElementById('print-said').textContent;",
        &json!("The sheet is not valid now: this is its last valid version, as the file keeps it."),
        "the print said to be the last valid version",
    );
    assert_eq!(studio.on_disk()["end"]["rounds"], json!(12));

    // On a phone, the print and the figures are one tap away.
    let Some(phone) = Driver::start("390,844") else {
        return;
    };
    phone.open(&studio.url);
    drawn(&phone, 22);
    assert_eq!(
        phone.script("return document.getElementById('preview').getClientRects().length;"),
        json!(0),
        "the print is behind its tab"
    );
    phone.tap("#show-side");
    phone.wait(
        "var p = document.getElementById('preview'); var r = p.getBoundingClientRect(); return p.naturalWidth > 0 && r.top < window.innerHeight && r.width > 300;",
        "the print in view after one tap",
    );
    screenshot(&phone, "studio-screenshots", "phone-side.png");
    phone.tap("#show-edit");
    phone.wait(
        "return document.getElementById('grid').getClientRects().length > 0;",
        "the grid again",
    );
}

#[test]
fn renames_and_deletes_carry_through_every_reference_and_keys_undo_them() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-page-carry", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);

    // K12 renamed: both its constraints follow. Enter gives the focus
    // back to the grid, where 4 sets the pearl.
    driver.tap(&cell(0, 1));
    type_in(&driver, "boxes.1.id", "K12x", ENTER);
    said(&driver, "box K12 renamed K12x, in 2 constraints");
    let saved = studio.on_disk();
    assert_eq!(saved["constraints"][0], json!({"less": ["K11", "K12x"]}));
    assert_eq!(saved["constraints"][1], json!({"less": ["K12x", "K13"]}));
    driver.wait(
        "return document.activeElement.classList.contains('selected');",
        "the focus on the box again",
    );
    driver.press(&["4"]);
    said(&driver, "pearl 4 on box K12x");

    // A zone and a group renamed: every box in them follows.
    type_in(&driver, "zones.1.id", "huts", TAB);
    said(&driver, "zone cabins renamed huts, in 4 boxes");
    type_in(&driver, "zones.1.groups.0.id", "H1", TAB);
    said(&driver, "group C1 renamed H1, in 2 boxes");
    let saved = studio.on_disk();
    assert_eq!(saved["boxes"][8]["zone"], json!("huts"));
    assert_eq!(saved["boxes"][8]["group"], json!("H1"));
    assert_eq!(saved["boxes"][11]["group"], json!("C2"));
    common::sunfold(&["template", "check", &file.display().to_string()]);

    // A box of a set of three deleted: the set keeps the other two. A box
    // in two pairs deleted: both pairs go.
    driver.tap(&cell(5, 0));
    driver.press(&["\u{E017}"]);
    said(&driver, "removed box B2, and it from 1 set");
    assert_eq!(
        studio.on_disk()["constraints"][8],
        json!({"same": ["B1", "B3"]})
    );
    driver.tap(&cell(3, 3));
    driver.press(&["\u{E017}"]);
    said(&driver, "removed box V2, 2 constraints that named it");
    let saved = studio.on_disk();
    let named: Vec<&Value> = saved["constraints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.to_string().contains("\"V2\""))
        .collect();
    assert!(named.is_empty(), "constraints still name V2: {named:?}");

    // Ctrl+Z puts V2 back with its constraints; Ctrl+Y and Ctrl+Shift+Z
    // redo.
    let before = saved.clone();
    chord(&driver, &[CONTROL], "z");
    said(&driver, "undone");
    let back = studio.on_disk();
    assert_eq!(back["boxes"].as_array().unwrap().len(), 21);
    assert!(back["constraints"].to_string().contains("\"V2\""));
    chord(&driver, &[CONTROL], "y");
    said(&driver, "redone");
    assert_eq!(studio.on_disk(), before);
    chord(&driver, &[CONTROL], "z");
    said(&driver, "undone");
    chord(&driver, &[CONTROL, SHIFT], "z");
    said(&driver, "redone");
    assert_eq!(studio.on_disk(), before);

    // Several boxes picked become a set: G1, Shift+click G3 picks G1 to G3.
    driver.tap(&cell(2, 2));
    click_holding(&driver, SHIFT, &cell(4, 2));
    driver.eventually(
        "return document.querySelectorAll('#grid .cell.selected').length;",
        &json!(3),
        "three boxes picked",
    );
    driver.tap_text("#selected button", "^= all the same$");
    said(&driver, "constraint same G1, G2, G3");
    // A contradiction with the set of all distinct: its message is shown
    // under the grid and in the picked box's panel, not just a border.
    driver.eventually(
        "return document.getElementById('verdict').className;",
        &json!("invalid"),
        "the contradiction found",
    );
    driver.wait(
        "var l = document.querySelectorAll('#grid-problems li'); return l.length > 0 && /G1/.test(l[0].textContent) && /expected/.test(l[0].textContent);",
        "the problem's message at the boxes",
    );
    click_holding(&driver, CONTROL, &cell(3, 2));
    click_holding(&driver, CONTROL, &cell(4, 2));
    driver.eventually(
        "return document.querySelectorAll('#grid .cell.selected').length;",
        &json!(1),
        "one box picked again",
    );
    driver.wait(
        "var p = document.querySelector('#selected .said-here'); return !!p && /expected/.test(p.textContent);",
        "the problem's message in the box's panel",
    );
    screenshot(&driver, "studio-screenshots", "problem-at-box.png");
    chord(&driver, &[CONTROL], "z");
    said(&driver, "undone");

    // D copies the picked box into the next empty cell; a click on an
    // empty cell adds a box like the one picked.
    driver.tap(&cell(4, 0));
    driver.press(&["d"]);
    // B2, removed above, is the next free id after B1; B2's cell is
    // empty again.
    said(&driver, "added box B2, a copy of B1");
    let saved = studio.on_disk();
    let copy = saved["boxes"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        copy,
        json!({"id": "B2", "pearl": 2, "cell": [5, 0], "zone": "bottles"})
    );
    driver.tap(&cell(5, 3));
    said(&driver, "added box B4");
    let saved = studio.on_disk();
    let added = saved["boxes"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        added,
        json!({"id": "B4", "pearl": 1, "cell": [5, 3], "zone": "bottles"})
    );

    // A zone deleted takes its boxes and their constraints with it.
    driver.tap("#parts button[aria-label=\"remove Zone Seagulls\"]");
    said(
        &driver,
        "removed zone seagulls and its 4 boxes G1, G2, G3, G4, 1 constraint that named them",
    );
    let saved = studio.on_disk();
    assert!(!saved.to_string().contains("seagulls"));
    assert!(!saved["constraints"].to_string().contains("\"G1\""));
    assert_eq!(driver.console(), Vec::<String>::new());
}

#[test]
fn a_photo_traced_under_the_grid_stays_in_the_tab() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    // The "photo": the bundled sheet as it prints, in SVG.
    let photo = common::fresh("studio-page-trace", "photo.svg");
    let (code, _, err) =
        common::sunfold(&["render", "sheet", &bundled("petit-ete.json"), "-o", &photo]);
    assert_eq!(code, 0, "{err}");
    let file = fresh("studio-page-trace", "mine.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);
    driver.tap("#trace summary");
    let input = driver.post(
        "/element",
        json!({"using": "css selector", "value": "#trace-file"}),
    );
    let input = input[ELEMENT].as_str().unwrap().to_owned();
    driver.post(
        &format!("/element/{input}/value"),
        json!({"text": std::fs::canonicalize(&photo).unwrap().display().to_string()}),
    );
    driver.wait(
        "var p = document.getElementById('trace-photo'); return !p.hidden && p.naturalWidth > 0 && p.src.indexOf('blob:') === 0;",
        "the photo under the grid",
    );
    said(
        &driver,
        "the photo photo.svg is under the grid, in this tab alone",
    );
    // Scaled and shifted to the grid, by the controls.
    driver.script(
        "function set(id, v) { var e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input')); }
         set('trace-scale', 59); set('trace-x', -74); set('trace-y', -216); set('trace-opacity', 45); return true;",
    );
    assert_eq!(
        driver.script("return document.getElementById('trace-photo').style.transform;"),
        json!("translate(-74px, -216px) scale(0.59)")
    );
    // A box clicked where the photo shows one.
    driver.tap(&cell(0, 2));
    said(&driver, "added box B3");
    driver.tap(&cell(0, 2));
    screenshot(&driver, "studio-screenshots", "trace.png");
    // Nothing of the photo reached the studio.
    let saved = std::fs::read_to_string(&file).unwrap();
    let log = std::fs::read_to_string(format!("{}.edits.jsonl", file.display())).unwrap();
    for text in [&saved, &log] {
        assert!(!text.contains("blob:") && !text.contains("photo"), "{text}");
    }
    driver.tap("#trace-clear");
    driver.wait(
        "return document.getElementById('trace-photo').hidden;",
        "the photo taken away",
    );
}

/// Axe-core on the bundled sheet, a box with icons picked, and on the
/// bundled deck, at `size`; on a phone, on the print's tab too. On a
/// phone, the deck's cards are usable: each field has room, its name
/// shown.
fn audit(size: &str) {
    let Some(driver) = Driver::start(size) else {
        return;
    };
    let phone = size.starts_with("390");
    let test = format!("studio-page-axe-{}", size.replace(',', "x"));
    let file = fresh(&test, "sheet.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);
    driver.wait(
        "return document.getElementById('figures-table').rows.length > 1 && document.getElementById('preview').naturalWidth > 0;",
        "the figures and the print",
    );
    // K22, pearl 4, with a frog, picked.
    driver.tap(&cell(1, 1));
    driver.wait(
        "return !!document.querySelector('#selected h3');",
        "the box's panel",
    );
    assert_eq!(
        driver.script(
            "var c = document.querySelector('#grid .cell[data-column=\"1\"][data-row=\"1\"]'); return [c.textContent, c.getAttribute('aria-label').indexOf(c.textContent)];"
        ),
        json!(["K22 4 frog", 0]),
        "the box's name starts with the text it shows"
    );
    assert_eq!(axe(&driver), Vec::<String>::new(), "on the sheet at {size}");
    if phone {
        driver.tap("#show-side");
        assert_eq!(
            axe(&driver),
            Vec::<String>::new(),
            "on the print's tab at {size}"
        );
    }

    let deck = fresh(&test, "deck.json");
    let deck = Studio::start(&deck, &["--from", &bundled("summertime.json")]);
    driver.open(&deck.url);
    driver.wait(
        "var f = document.querySelectorAll('img.face'); return f.length > 30 && Array.prototype.every.call(f, function (i) { return i.naturalWidth > 0; }) && document.getElementById('figures-table').rows.length > 1;",
        "the deck's table",
    );
    assert_eq!(axe(&driver), Vec::<String>::new(), "on the deck at {size}");
    // The cards' fields have room, and their names do not overlap.
    let found = driver.script(
        "var n = document.querySelector('input[data-key=\"cards.0.name\"]'); var r = n.getBoundingClientRect();
         var labels = Array.from(document.querySelectorAll('table.cards tr:nth-child(2) .field')).map(function (f) { return f.getBoundingClientRect(); });
         var overlaps = 0;
         labels.forEach(function (a, i) { labels.forEach(function (b, j) { if (i < j && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps++; }); });
         return [r.width, overlaps, document.documentElement.scrollWidth, window.innerWidth];",
    );
    let found: Vec<f64> = serde_json::from_value(found).unwrap();
    assert!(
        found[0] >= 80.0,
        "the name field is {} px wide at {size}",
        found[0]
    );
    assert_eq!(found[1], 0.0, "fields overlap at {size}");
    assert!(
        found[2] <= found[3],
        "the page is {} wide in {} at {size}",
        found[2],
        found[3]
    );
    screenshot(
        &driver,
        "studio-screenshots",
        &format!("deck-{}.png", size.replace(',', "x")),
    );
}

#[test]
fn axe_finds_nothing_on_the_bundled_sheet_and_deck_on_a_desktop() {
    audit("1280,800");
}

#[test]
fn axe_finds_nothing_on_the_bundled_sheet_and_deck_on_a_phone() {
    audit("390,844");
}
