//! The bundled sheet `petit-ete.json` rebuilt from `sunfold studio FILE
//! --new soleils` through the page alone, in a real browser: clicks, keys
//! and fields typed, no call to the studio's interface for an edit. The
//! file it leaves equals `petit-ete.json` element by element, and the
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

/// The most actions the rebuild may take.
const AT_MOST: u32 = 120;

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
    hands.add(1, 0);
    hands.name_box(4, "K21");
    hands.choose("boxes.4.group", "K2");
    hands.key("6");
    hands.add(1, 1);
    hands.key("4");
    hands.key("f");
    hands.add(1, 2);
    hands.key("2");
    hands.add(1, 3);
    hands.key("5");
    hands.add(2, 0);
    hands.name_box(8, "C11");
    hands.choose("boxes.8.zone", "cabins");
    hands.key("3");
    hands.add(2, 1);
    hands.key("6");
    hands.add(3, 0);
    hands.name_box(10, "C21");
    hands.choose("boxes.10.group", "C2");
    hands.add(3, 1);
    hands.key("4");
    hands.key("c");
    hands.add(4, 0);
    hands.name_box(12, "B1");
    hands.choose("boxes.12.zone", "bottles");
    hands.key("2");
    hands.add(5, 0);
    hands.key("5");
    hands.add(5, 1);
    hands.key("6");
    hands.key("f");
    hands.add(2, 3);
    hands.name_box(15, "V1");
    hands.choose("boxes.15.zone", "sailboats");
    hands.key("4");
    hands.add(3, 3);
    hands.add(4, 3);
    hands.key("3");
    hands.add(2, 2);
    hands.name_box(18, "G1");
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
    driver.eventually(
        "return document.getElementById('verdict').textContent;",
        &json!("Valid: saved"),
        "a valid sheet",
    );
    screenshot(&driver, "studio-screenshots", "rebuilt.png");

    let actions = hands.actions.get();
    println!("petit-ete.json rebuilt from --new soleils in {actions} actions");
    let got = studio.on_disk();
    let mut found = Vec::new();
    differences(&got, &want, "", &mut found);
    assert!(
        found.is_empty(),
        "the rebuilt sheet differs from petit-ete.json:\n{}",
        found.join("\n")
    );
    checks(&studio.file);
    assert!(
        actions <= AT_MOST,
        "the rebuild took {actions} actions, more than {AT_MOST}"
    );
    assert_eq!(driver.console(), Vec::<String>::new());
}
