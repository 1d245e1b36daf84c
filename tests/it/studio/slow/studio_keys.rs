//! Every keystroke lands, and no edit is lost to another tab or a restart,
//! in a real browser: keys sent with no delay between them (two keys, a
//! click and a key at once, a held key) all apply, in order, and none is
//! blamed on another tab; an edit refused because another tab changed the
//! template says in words what changed and is kept to apply again; a tab
//! learns of another's edit as it is made; a studio started again lets
//! the tab back in once its address is opened, and the edit kept is sent.

use super::studio_browser::{Studio, bundled, drawn, fresh, said};
use crate::common;

use common::driver::{Driver, ELEMENT, TAB, screenshot};
use serde_json::{Value, json};

fn cell(column: u32, row: u32) -> String {
    format!("#grid .cell[data-column=\"{column}\"][data-row=\"{row}\"]")
}

/// Keeps every message the page says, to read after.
fn record_messages(driver: &Driver) {
    driver.script(
        "window.saidAll = []; new MutationObserver(function () { window.saidAll.push(document.getElementById('said').textContent); }).observe(document.getElementById('said'), {childList: true, characterData: true, subtree: true}); return true;",
    );
}

fn messages(driver: &Driver) -> Vec<String> {
    serde_json::from_value(driver.script("return window.saidAll;")).unwrap()
}

/// The template as the page shows it, `path` a JavaScript expression on it.
fn shown(driver: &Driver, path: &str) -> Value {
    driver.script(&format!(
        "return JSON.parse(JSON.stringify({path} === undefined ? null : {path}));"
    ))
}

/// Keys pressed one after another with no pause between them.
fn keys_at_once(driver: &Driver, keys: &[&str]) {
    driver.press(keys);
}

/// A click on `css` and the key `key` pressed at the same moment.
fn click_and_key(driver: &Driver, css: &str, key: &str) {
    let element = driver.post(
        "/execute/sync",
        json!({"script": "var e = document.querySelector(arguments[0]); e.scrollIntoView({block: 'center'}); return e;", "args": [css]}),
    );
    let origin = json!({ELEMENT: element[ELEMENT]});
    driver.post(
        "/actions",
        json!({"actions": [
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
                {"type": "pointerMove", "origin": origin, "x": 0, "y": 0},
                {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                {"type": "pause"}]},
            {"type": "key", "id": "keyboard", "actions": [
                {"type": "pause"}, {"type": "pause"}, {"type": "keyDown", "value": key},
                {"type": "keyUp", "value": key}]}
        ]}),
    );
    let _ = driver
        .agent
        .delete(format!("{}/actions", driver.base))
        .call();
}

/// A key held down: the browser repeats its keydown, here `times` times
/// in one go, as auto-repeat sends them.
fn held(driver: &Driver, key: &str, times: u32) {
    driver.script(&format!(
        "var t = document.activeElement || document.body; for (var i = 0; i < {times}; i++) {{ t.dispatchEvent(new KeyboardEvent('keydown', {{key: '{key}', bubbles: true, cancelable: true, repeat: i > 0}})); }} return true;"
    ));
}

/// The page stops asking whether the template changed elsewhere: a tab
/// that has not asked yet when it edits.
pub(super) fn quiet(driver: &Driver) {
    driver.script("window.watchingWas = window.watchingWas || watchVersion; window.watchVersion = function () { return Promise.resolve(); }; return true;");
}

/// The page asks again.
fn watching(driver: &Driver) {
    driver.script("window.watchVersion = window.watchingWas; return true;");
}

#[test]
fn keys_sent_with_no_delay_all_land_in_order_and_none_is_blamed_on_another_tab() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-keys", "mine.json");
    let studio = Studio::start(&file, &["--new", "soleils"]);
    driver.open(&studio.url);
    drawn(&driver, 2);
    record_messages(&driver);

    // C then F on a picked box, with no delay: a crab and a frog.
    driver.tap(&cell(0, 0));
    keys_at_once(&driver, &["c", "f"]);
    driver.eventually(
        "return JSON.stringify(template.boxes[0].icons || []);",
        &json!("[\"crab\",\"frog\"]"),
        "a crab and a frog on B1",
    );
    // A click on an empty cell and 4 at once: a box, with pearl 4.
    click_and_key(&driver, &cell(2, 0), "4");
    driver.eventually(
        "return template.boxes.length === 3 ? template.boxes[2].pearl : null;",
        &json!(4),
        "the new box with pearl 4",
    );
    assert_eq!(shown(&driver, "template.boxes[2].id"), json!("B3"));
    // A held arrow: the box moves a cell for each repeat, to the edge.
    held(&driver, "ArrowDown", 3);
    driver.eventually(
        "return JSON.stringify(template.boxes[2].cell);",
        &json!("[2,3]"),
        "B3 moved three cells down",
    );
    // Two pearls in a row: both sent, the last stands.
    keys_at_once(&driver, &["5", "6"]);
    driver.eventually("return template.boxes[2].pearl;", &json!(6), "pearl 6");
    driver.wait("return pending === 0;", "every edit answered");
    let on_disk = studio.on_disk();
    assert_eq!(on_disk["boxes"][0]["icons"], json!(["crab", "frog"]));
    assert_eq!(on_disk["boxes"][2]["cell"], json!([2, 3]));
    assert_eq!(on_disk["boxes"][2]["pearl"], 6);
    let log = std::fs::read_to_string(sunfold::studio::edit_log::path_for(&file)).unwrap();
    let pearls: Vec<Value> = log
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["patch"][0]["path"] == "/boxes/2/pearl")
        .map(|l| l["patch"][0]["value"].clone())
        .collect();
    assert_eq!(
        pearls,
        [json!(4), json!(5), json!(6)],
        "every pearl sent, in order"
    );
    let said = messages(&driver);
    assert!(
        said.iter()
            .all(|m| !m.contains("not applied") && !m.contains("another tab")),
        "{said:?}"
    );

    // The grid emptied, the first box is named after its zone.
    for column in [0, 1, 2] {
        let row = if column == 2 { 3 } else { 0 };
        driver.tap(&cell(column, row));
        driver.press(&["\u{E017}"]);
        driver.wait(
            &format!(
                "return !document.querySelector('{}.box');",
                cell(column, row).replace('\'', "\\'")
            ),
            "the box removed",
        );
    }
    drawn(&driver, 0);
    driver.tap(&cell(4, 1));
    drawn(&driver, 1);
    assert_eq!(shown(&driver, "template.boxes[0].id"), json!("B1"));
    assert_eq!(driver.console(), Vec::<String>::new());
}

#[test]
fn an_edit_refused_for_another_tabs_says_what_changed_and_is_kept_to_apply_again() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-stale-words", "mine.json");
    let studio = Studio::start(&file, &["--from", &bundled("petit-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 22);
    quiet(&driver);
    // Notes typed in this tab while another renames the sheet and
    // changes K11's pearl.
    driver.script(
        "var t = document.querySelector('[data-key=\"notes\"]'); t.scrollIntoView({block: 'center'}); t.focus(); t.select(); return true;",
    );
    let typed = "A paragraph typed in the stale tab.";
    let keys: Vec<String> = typed.chars().map(String::from).collect();
    driver.press(&keys.iter().map(String::as_str).collect::<Vec<_>>());
    let (status, _) = studio.call(
        "POST",
        "/api/patch",
        Some(&json!([
            {"op": "replace", "path": "/name", "value": "Other"},
            {"op": "replace", "path": "/boxes/0/pearl", "value": 6}
        ])),
    );
    assert_eq!(status, 200);
    driver.press(&[TAB]);
    driver.wait(
        "var b = document.getElementById('stale'); return !!b && !b.hidden;",
        "the refusal's banner",
    );
    let banner = driver
        .script("return document.getElementById('stale').textContent;")
        .as_str()
        .unwrap()
        .to_owned();
    let saying = driver
        .script("return document.getElementById('said').textContent;")
        .as_str()
        .unwrap()
        .to_owned();
    screenshot(&driver, "studio-screenshots", "studio-stale.png");
    for text in [&banner, &saying] {
        assert!(text.contains("name changed to “Other”"), "{text}");
        assert!(text.contains("box K11: pearl"), "{text}");
        assert!(
            !text
                .split(|c: char| !c.is_ascii_hexdigit())
                .any(|w| w.len() >= 64),
            "no hash: {text}"
        );
    }
    assert!(banner.contains(typed), "what was typed is kept: {banner}");
    assert_ne!(studio.on_disk()["notes"], typed, "not applied yet");
    driver.tap_text("#stale button", "^Apply again$");
    driver.eventually(
        "return template.notes;",
        &json!(typed),
        "the notes applied again",
    );
    let on_disk = studio.on_disk();
    assert_eq!(on_disk["notes"], typed);
    assert_eq!(on_disk["name"], "Other", "the other tab's edit stays");
    assert_eq!(on_disk["boxes"][0]["pearl"], 6);

    // Another tab's edit shows here as it is made, said in words.
    watching(&driver);
    let (status, _) = studio.call(
        "POST",
        "/api/patch",
        Some(&json!([{"op": "replace", "path": "/name", "value": "Third"}])),
    );
    assert_eq!(status, 200);
    driver.wait(
        "return document.getElementById('said').textContent.indexOf('name changed to “Third”') >= 0;",
        "the other tab's edit shown",
    );
    assert_eq!(shown(&driver, "template.name"), json!("Third"));
    driver.tap(&cell(1, 0));
    driver.press(&["3"]);
    said(&driver, "pearl 3 on box K21");
    // The browser logs the refusal's status, and nothing else.
    let logged: Vec<String> = driver
        .console()
        .into_iter()
        .filter(|line| !line.contains("409 (Conflict)"))
        .collect();
    assert_eq!(logged, Vec::<String>::new());
}

#[test]
fn a_studio_started_again_lets_the_tab_back_in_and_sends_the_edit_it_kept() {
    let Some(driver) = Driver::start("1280,800") else {
        return;
    };
    let file = fresh("studio-restart", "mine.json");
    let listen = format!("127.0.0.1:{}", common::driver::free_port());
    let first = Studio::start_at(&file, &["--from", &bundled("petit-ete.json")], &listen);
    driver.open(&first.url);
    drawn(&driver, 22);
    quiet(&driver);
    drop(first);
    let second = Studio::start_at(&file, &[], &listen);
    driver.tap(&cell(0, 0));
    driver.press(&["6"]);
    driver.wait(
        "var b = document.getElementById('down'); return !!b && !b.hidden;",
        "the banner",
    );
    let banner = driver
        .script("return document.getElementById('down').textContent;")
        .as_str()
        .unwrap()
        .to_owned();
    screenshot(&driver, "studio-screenshots", "studio-restarted.png");
    assert!(banner.contains("started again"), "{banner}");
    assert!(banner.contains("Open the address it printed"), "{banner}");
    assert!(banner.contains("“pearl 6 on box K11” is kept"), "{banner}");
    assert!(!banner.contains("another Your"), "{banner}");
    assert_ne!(second.on_disk()["boxes"][0]["pearl"], 6);
    // The address opened in another tab: its cookie lets this tab in, and
    // the edit kept is sent (the template has not changed since).
    let status = driver.script(&format!(
        "return fetch('{}').then(function (r) {{ return r.status; }});",
        second.url
    ));
    assert_eq!(status, json!(200));
    driver.wait(
        "var b = document.getElementById('down'); return !!b && b.hidden;",
        "the banner gone",
    );
    said(&driver, "pearl 6 on box K11");
    assert_eq!(second.on_disk()["boxes"][0]["pearl"], 6);
}
