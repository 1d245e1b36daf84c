//! The bundled sheets `petit-ete.json` and `62-soleils-d-ete.json`, each
//! rebuilt from `sunfold studio FILE --new soleils` through the page alone, in a real browser: clicks, keys
//! and fields typed, no call to the studio's interface for an edit. The
//! file it leaves equals the bundled one element by element, and the
//! actions it took are counted and printed.
//!
//! An action is one click (a tap, a Shift+click or a Ctrl+click, a choice
//! in a list, a drag from one cell to another), one key or key chord
//! pressed (`3`, `<`, Ctrl+Z), or one field typed and committed (its text
//! typed, then Enter or Tab). What the test reads of the page to wait for
//! it is not counted.

use super::studio_browser::{Studio, bundled, checks, drawn, fresh};
use crate::common;

use common::driver::{Driver, ELEMENT, ENTER, TAB, screenshot};
use serde_json::{Value, json};
use std::cell::Cell;

/// The most actions the rebuild of `petit-ete.json` may take.
const AT_MOST: u32 = 120;

/// The most actions the rebuild of `62-soleils-d-ete.json` may take.
const FULL_AT_MOST: u32 = 150;

/// WebDriver's Shift and Control keys.
const SHIFT: &str = "\u{E008}";
const CONTROL: &str = "\u{E009}";

/// The page, driven by the user's hands, each action counted.
struct Hands<'a> {
    driver: &'a Driver,
    actions: Cell<u32>,
}

impl Hands<'_> {
    fn count(&self) {
        self.actions.set(self.actions.get() + 1);
    }

    /// How many times the page has drawn the template.
    fn drawn(&self) -> i64 {
        self.driver
            .script("return Number(document.body.dataset.drawn || 0);")
            .as_i64()
            .unwrap()
    }

    /// Does `act`, an edit, and waits for the page to draw its result.
    fn edit(&self, what: &str, act: impl FnOnce()) {
        let before = self.drawn();
        act();
        self.driver.wait(
            &format!("return Number(document.body.dataset.drawn || 0) > {before};"),
            &format!("the page drawn again after {what}"),
        );
    }

    fn click(&self, css: &str) {
        self.count();
        self.edit(css, || self.driver.tap(css));
    }

    fn click_button(&self, label: &str) {
        self.click(&format!("button[aria-label=\"{label}\"]"));
    }

    fn click_text(&self, css: &str, text: &str) {
        self.count();
        self.edit(text, || self.driver.tap_text(css, text));
    }

    /// A click on the box at `column`, `row` that picks it (no edit),
    /// with a key held or not; then waits for `picked` boxes picked.
    fn pick(&self, column: u32, row: u32, held: Option<&str>, picked: usize) {
        self.count();
        let css = cell(column, row);
        match held {
            None => self.driver.tap(&css),
            Some(key) => {
                let element = self.driver.post(
                    "/execute/sync",
                    json!({"script": "var e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); return e;", "args": [css]}),
                );
                let origin = json!({ELEMENT: element[ELEMENT]});
                self.driver.post(
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
                let _ = self
                    .driver
                    .agent
                    .delete(format!("{}/actions", self.driver.base))
                    .call();
            }
        }
        self.driver.eventually(
            "return document.querySelectorAll('#grid .cell.selected').length;",
            &json!(picked),
            &format!("{picked} boxes picked"),
        );
    }

    /// For each cell, a click on it (a new box), then its keys.
    fn boxes(&self, cells: &[((u32, u32), &[&str])]) {
        for ((column, row), keys) in cells {
            self.add(*column, *row);
            for key in *keys {
                self.key(key);
            }
        }
    }

    /// A click on the empty cell at `column`, `row`: a new box.
    fn add(&self, column: u32, row: u32) {
        self.click(&cell(column, row));
    }

    /// A key, or a key chord, pressed on whatever has the focus: an edit.
    fn key(&self, key: &str) {
        self.count();
        self.edit(key, || self.driver.press(&[key]));
    }

    /// `value` typed into the field of key `key`, committed by `commit`.
    fn type_in(&self, key: &str, value: &str, commit: &str) {
        self.count();
        let css = format!("[data-key=\"{key}\"]");
        self.edit(key, || {
            self.driver.script(&format!(
                "var input = document.querySelector('{css}'); input.scrollIntoView({{block: 'center'}}); input.focus(); input.select(); return true;"
            ));
            let mut keys: Vec<String> = value.chars().map(String::from).collect();
            keys.push(commit.to_owned());
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            self.driver.press(&keys);
        });
    }

    /// A field of a box's panel, committed by Enter.
    fn name_box(&self, index: usize, id: &str) {
        self.type_in(&format!("boxes.{index}.id"), id, ENTER);
    }

    /// `value` chosen in the list of key `key`.
    fn choose(&self, key: &str, value: &str) {
        self.count();
        let css = format!("select[data-key=\"{key}\"] option[value=\"{value}\"]");
        self.edit(key, || self.driver.tap(&css));
    }

    /// The box at `from` dragged to the empty cell `to`.
    fn drag(&self, from: (u32, u32), to: (u32, u32)) {
        self.count();
        let element = |(column, row): (u32, u32)| {
            let found = self.driver.post(
                "/element",
                json!({"using": "css selector", "value": cell(column, row)}),
            );
            json!({ELEMENT: found[ELEMENT]})
        };
        let (from, to) = (element(from), element(to));
        self.edit("a drag", || {
            self.driver.post(
                "/actions",
                json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                    "actions": [
                        {"type": "pointerMove", "origin": from, "x": 0, "y": 0},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerMove", "origin": to, "x": 0, "y": 0, "duration": 200},
                        {"type": "pointerUp", "button": 0}
                    ]}]}),
            );
        });
    }
}

fn cell(column: u32, row: u32) -> String {
    format!("#grid .cell[data-column=\"{column}\"][data-row=\"{row}\"]")
}

/// Every element where `got` differs from `want`, by its path.
fn differences(got: &Value, want: &Value, path: &str, out: &mut Vec<String>) {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            for key in w.keys().chain(g.keys().filter(|k| !w.contains_key(*k))) {
                let at = format!("{path}.{key}");
                match (g.get(key), w.get(key)) {
                    (Some(a), Some(b)) => differences(a, b, &at, out),
                    (a, b) => out.push(format!("{at}: {a:?} where {b:?} is wanted")),
                }
            }
        }
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => {
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                differences(a, b, &format!("{path}[{i}]"), out);
            }
        }
        _ if got != want => out.push(format!("{path}: {got} where {want} is wanted")),
        _ => {}
    }
}

#[test]
fn petit_ete_is_rebuilt_from_blank_through_the_page_in_120_actions_at_most() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(bundled("petit-ete.json")).unwrap()).unwrap();
    let file = fresh("studio-rebuild", "petit.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);
    let hands = Hands {
        driver: &driver,
        actions: Cell::new(0),
    };

    // The sheet's name and notes.
    hands.type_in("name", want["name"].as_str().unwrap(), TAB);
    hands.type_in("notes", want["notes"].as_str().unwrap(), TAB);

    // The zones: the blank's bottles stay, the others are added by kind,
    // each with the name, flag and groups the printed sheet gives it.
    hands.click_button("add a zone of koinobori");
    hands.click_button("move up Zone Koinobori");
    hands.type_in("zones.0.flag.count", "4", TAB);
    hands.click_button("add a group to zone Koinobori");
    hands.click_button("add a group to zone Koinobori");
    hands.click_button("add a zone of beach cabins");
    hands.click_button("move up Zone Beach cabins");
    hands.type_in("zones.1.flag.count", "3", TAB);
    hands.click_button("add a group to zone Beach cabins");
    hands.click_button("add a group to zone Beach cabins");
    hands.click_button("add a zone of sailboats");
    hands.type_in("zones.3.name", "Sailboat", TAB);
    hands.type_in("zones.3.flag.count", "3", TAB);
    hands.click_button("add a group to zone Sailboat");
    hands.type_in("zones.3.groups.0.id", "V", TAB);
    hands.type_in("zones.3.groups.0.name", "Sailboat", TAB);
    hands.click_button("add a zone of seagulls");
    hands.type_in("zones.4.flag.count", "3", TAB);

    // The sun track: each threshold ten past the last, with its reward.
    hands.click_text("#parts button", "^Add a threshold$");
    hands.choose("sun.thresholds.1.reward", "bonus_digit");
    hands.click_text("#parts button", "^Add a threshold$");
    hands.choose("sun.thresholds.2.reward", "starfish");
    hands.type_in("sun.thresholds.2.reward.count", "3", TAB);
    hands.click_text("#parts button", "^Add a threshold$");
    hands.type_in("sun.thresholds.3.reward.count", "4", TAB);

    // The boxes, in the file's order: the blank's two first, then each
    // new one a click on its cell, like the one before, and its pearl.
    hands.pick(0, 0, None, 1);
    hands.name_box(0, "K11");
    hands.choose("boxes.0.zone", "koinobori");
    hands.drag((1, 0), (0, 1));
    hands.name_box(1, "K12");
    hands.choose("boxes.1.zone", "koinobori");
    hands.key("3");
    hands.add(0, 2);
    hands.key("5");
    hands.add(0, 3);
    hands.key("2");
    hands.key("c");
    // Off K1's column, the click starts the next group: K21.
    hands.add(1, 0);
    hands.key("6");
    hands.add(1, 1);
    hands.key("4");
    hands.key("f");
    hands.add(1, 2);
    hands.key("2");
    hands.add(1, 3);
    hands.key("5");
    // K25 moved to the cabins is named after their first group: C11.
    hands.add(2, 0);
    hands.choose("boxes.8.zone", "cabins");
    hands.key("3");
    hands.add(2, 1);
    hands.key("6");
    hands.add(3, 0);
    hands.add(3, 1);
    hands.key("4");
    hands.key("c");
    hands.add(4, 0);
    hands.choose("boxes.12.zone", "bottles");
    hands.key("2");
    hands.add(5, 0);
    hands.key("5");
    hands.add(5, 1);
    hands.key("6");
    hands.key("f");
    hands.add(2, 3);
    hands.choose("boxes.15.zone", "sailboats");
    hands.key("4");
    hands.add(3, 3);
    hands.add(4, 3);
    hands.key("3");
    hands.add(2, 2);
    hands.choose("boxes.18.zone", "seagulls");
    hands.key("2");
    hands.add(3, 2);
    hands.key("5");
    hands.add(4, 2);
    hands.key("6");
    hands.add(5, 2);
    hands.key("c");

    // The constraints: a box picked, Shift+click to the last of its line
    // (or Ctrl+click one more), and the constraint's key.
    for (from, to, more, key) in [
        ((0, 0), (0, 3), None, "<"),
        ((1, 0), (1, 3), None, ">"),
        ((2, 0), (2, 1), None, "="),
        ((3, 0), (3, 1), None, "="),
        ((4, 0), (5, 0), Some((5, 1)), "="),
        ((2, 3), (3, 3), None, "<"),
        ((3, 3), (4, 3), None, "!"),
        ((2, 2), (5, 2), None, "*"),
    ] {
        hands.pick(from.0, from.1, None, 1);
        let line = (from.0.abs_diff(to.0) + from.1.abs_diff(to.1)) as usize + 1;
        hands.pick(to.0, to.1, Some(SHIFT), line);
        if let Some((column, row)) = more {
            hands.pick(column, row, Some(CONTROL), line + 1);
        }
        hands.key(key);
    }
    rebuilt(&hands, &studio, &want, "petit-ete.json", AT_MOST);
}

/// The rebuild's end: the sheet valid, equal to `want` (the bundled
/// `name`), its actions printed and at most `at_most`.
fn rebuilt(hands: &Hands, studio: &Studio, want: &Value, name: &str, at_most: u32) {
    let driver = hands.driver;
    driver.eventually(
        "return document.getElementById('verdict').textContent;",
        &json!("Valid: saved"),
        "a valid sheet",
    );
    screenshot(
        driver,
        "studio-screenshots",
        &name.replace(".json", "-rebuilt.png"),
    );

    let actions = hands.actions.get();
    println!("{name} rebuilt from --new soleils in {actions} actions");
    let got = studio.on_disk();
    let mut found = Vec::new();
    differences(&got, want, "", &mut found);
    assert!(
        found.is_empty(),
        "the rebuilt sheet differs from {name}:\n{}",
        found.join("\n")
    );
    checks(&studio.file);
    assert!(
        actions <= at_most,
        "the rebuild took {actions} actions, more than {at_most}"
    );
    assert_eq!(driver.console(), Vec::<String>::new());
}

/// The full bundled sheet: 34 boxes, 17 constraints, 5 zones, 9 groups
/// and 6 sun thresholds. The blank's two boxes become K1a and K1b; each
/// other box is a click on its cell, its pearl and icons keys; a click off
/// a group's line starts the zone's next group with its first id, and a
/// box moved to a zone of its own is named after it; a constraint key with
/// one box picked binds it to the box picked before it.
#[test]
fn the_full_sheet_is_rebuilt_from_blank_through_the_page_in_150_actions_at_most() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(bundled("62-soleils-d-ete.json")).unwrap())
            .unwrap();
    let file = fresh("studio-rebuild-full", "full.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);
    let hands = Hands {
        driver: &driver,
        actions: Cell::new(0),
    };

    hands.type_in("name", want["name"].as_str().unwrap(), TAB);
    hands.type_in("notes", want["notes"].as_str().unwrap(), TAB);
    hands.type_in("grid.columns", "9", TAB);
    hands.type_in("grid.rows", "7", TAB);

    // The zones, in the file's order; the blank's bottles stay.
    hands.click_button("add a zone of koinobori");
    hands.click_button("move up Zone Koinobori");
    for _ in 0..3 {
        hands.click_button("add a group to zone Koinobori");
    }
    hands.click_button("add a zone of beach cabins");
    hands.click_button("move up Zone Beach cabins");
    for _ in 0..3 {
        hands.click_button("add a group to zone Beach cabins");
    }
    hands.type_in("zones.2.name", "Messages in a bottle", TAB);
    hands.type_in("zones.2.flag.count", "2", TAB);
    hands.click_button("add a zone of sailboats");
    for _ in 0..3 {
        hands.click_button("add a group to zone Sailboats");
    }
    hands.click_button("add a zone of seagulls");

    // The sun track and the end.
    hands.type_in("sun.slots", "20", TAB);
    hands.type_in("sun.thresholds.0.at", "12", TAB);
    let add_threshold = || hands.click_text("#parts button", "^Add a threshold$");
    add_threshold();
    hands.choose("sun.thresholds.1.reward", "starfish");
    hands.type_in("sun.thresholds.1.reward.count", "2", TAB);
    add_threshold();
    hands.choose("sun.thresholds.2.reward", "bonus_digit");
    add_threshold();
    hands.choose("sun.thresholds.3.reward", "seashells");
    add_threshold();
    hands.choose("sun.thresholds.4.reward", "starfish");
    hands.type_in("sun.thresholds.4.reward.count", "3", TAB);
    add_threshold();
    hands.type_in("sun.thresholds.5.reward.count", "5", TAB);
    hands.type_in("end.rounds", "20", TAB);
    hands.type_in("end.sun_limit", "62", TAB);

    // The koinobori: the blank's B1 and B2 dragged into row 2 and moved
    // to the koinobori, where they are named K1a and K1b; then a click a
    // box, off K1's row into K2, and off K2's into K3.
    hands.drag((0, 0), (0, 1));
    hands.choose("boxes.0.zone", "koinobori");
    hands.drag((1, 0), (1, 1));
    hands.choose("boxes.1.zone", "koinobori");
    hands.key("<");
    // The rest, box by box: its cell, then its keys (pearl, icons, and the
    // constraint with the box before it).
    hands.boxes(&[
        ((2, 1), &["3", "<"][..]),
        ((3, 1), &["4", "c", "<"]),
        ((0, 2), &["5"]),
        ((1, 2), &["6", "f", ">"]),
        ((2, 2), &[">"]),
        ((3, 2), &["2", ">"]),
        ((0, 3), &["3", "c"]),
        ((1, 3), &["4", "<"]),
        ((2, 3), &["5", ">"]),
        ((3, 3), &["6", "<"]),
    ]);
    // The cabins: K3e moved there is C1a.
    hands.add(4, 1);
    hands.choose("boxes.12.zone", "cabins");
    hands.key("2");
    hands.boxes(&[
        ((4, 2), &["5", "="][..]),
        ((5, 1), &["3"]),
        ((5, 2), &["6", "c", "="]),
        ((6, 1), &["f"]),
        ((6, 2), &["4", "="]),
    ]);
    // The bottles: C3c moved there is B1.
    hands.add(8, 1);
    hands.choose("boxes.18.zone", "bottles");
    for key in ["2", "c"] {
        hands.key(key);
    }
    hands.boxes(&[
        ((8, 2), &["3"][..]),
        ((8, 3), &["5"]),
        ((7, 3), &["6", "f"]),
    ]);
    hands.pick(8, 1, None, 1);
    hands.pick(8, 3, Some(SHIFT), 3);
    hands.pick(7, 3, Some(CONTROL), 4);
    hands.key("=");
    // The sailboats: B5 moved there is V1a; V1c moved to group V2 is V2a;
    // V2 as large as V1, the next box starts V3.
    hands.add(0, 5);
    hands.choose("boxes.22.zone", "sailboats");
    hands.key("4");
    hands.add(1, 5);
    hands.key("!");
    hands.add(2, 5);
    hands.choose("boxes.24.group", "V2");
    for key in ["6", "c"] {
        hands.key(key);
    }
    hands.boxes(&[
        ((3, 5), &["3", "<"][..]),
        ((4, 5), &["2"]),
        ((5, 5), &["5", ">"]),
    ]);
    // The seagulls: V3c moved there is G1.
    hands.add(0, 6);
    hands.choose("boxes.28.zone", "seagulls");
    hands.key("4");
    hands.boxes(&[
        ((1, 6), &["f"][..]),
        ((2, 6), &["6"]),
        ((3, 6), &["3"]),
        ((4, 6), &["5"]),
        ((5, 6), &["2", "c"]),
    ]);
    hands.pick(0, 6, None, 1);
    hands.pick(5, 6, Some(SHIFT), 6);
    hands.key("*");

    rebuilt(
        &hands,
        &studio,
        &want,
        "62-soleils-d-ete.json",
        FULL_AT_MOST,
    );
}
