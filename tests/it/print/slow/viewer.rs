//! The HTML replay viewer (`render replay FILE -o match.html`), opened in
//! headless Chromium: the state it shows at an event is the engine's state
//! at that seq, the current event is highlighted, a broken log opens at its
//! illegal line, the keyboard and buttons step through the match, nothing
//! is fetched and nothing is logged to the console.
//!
//! Chromium is Debian's `chromium` package; `.ci/run` installs it. Without
//! it these tests say so and pass, except under `CI=true`, where they fail.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Browser {
    exe: PathBuf,
}

/// Headless Chromium, if installed.
fn browser() -> Option<Browser> {
    let exe = std::env::var_os("SUNFOLD_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .find_map(|name| {
                    std::env::var_os("PATH").and_then(|paths| {
                        std::env::split_paths(&paths)
                            .map(|dir| dir.join(name))
                            .find(|p| p.is_file())
                    })
                })
        });
    if exe.is_none() {
        common::skip("no chromium on PATH (apt-get install chromium)");
    }
    exe.map(|exe| Browser { exe })
}

impl Browser {
    /// Runs Chromium headless on `url` with `args`, in a profile of its
    /// own; returns standard output, and the console lines it logged.
    fn run(&self, test: &str, args: &[&str], url: &str) -> (String, Vec<String>) {
        let profile = common::temp_dir(test).join(format!("profile-{}", args.len()));
        let output = Command::new(&self.exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--disable-extensions",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(args)
            .arg(url)
            .output()
            .expect("chromium runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let console = stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_owned)
            .collect();
        (
            String::from_utf8_lossy(&output.stdout).into_owned(),
            console,
        )
    }

    /// The DOM after the page's script ran, at `fragment`; fails on any
    /// console message (a script error, a blocked request).
    fn dom(&self, test: &str, file: &Path, fragment: &str) -> String {
        let url = format!("file://{}{fragment}", file.display());
        let (dom, console) = self.run(test, &["--dump-dom"], &url);
        assert!(console.is_empty(), "{url}: console: {console:#?}");
        let body = between(&dom, "<body class=\"", "\"");
        assert!(
            body.first()
                .is_some_and(|c| c.split(' ').any(|c| c == "ready")),
            "{url}: the script did not finish"
        );
        dom
    }

    /// A PNG of the page at `fragment`, in a window of `size`.
    fn screenshot(&self, test: &str, file: &Path, fragment: &str, size: &str, png: &Path) {
        let url = format!("file://{}{fragment}", file.display());
        let shot = format!("--screenshot={}", png.display());
        let window = format!("--window-size={size}");
        let (_, console) = self.run(test, &[&shot, &window], &url);
        assert!(console.is_empty(), "{url}: console: {console:#?}");
        let bytes = std::fs::read(png).expect("a screenshot");
        assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000);
    }
}

/// Renders `log` to an HTML file in the test's folder; returns its path
/// and the exit code.
fn render(test: &str, log: &str, extra: &[&str]) -> (PathBuf, i32, String) {
    let out = common::temp_dir(test).join(format!(
        "{}.html",
        Path::new(log).file_stem().unwrap().to_string_lossy()
    ));
    let out_text = out.display().to_string();
    let mut args = vec!["render", "replay", log, "-o", &out_text];
    args.extend_from_slice(extra);
    let (code, _, stderr) = common::sunfold(&args);
    (out, code, stderr)
}

/// The engine's own state after event `seq`, as `replay --format json`.
fn engine(log: &str, seq: u64) -> Value {
    let at = seq.to_string();
    let (code, stdout, stderr) = common::sunfold(&["replay", log, "--at", &at, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str::<Value>(&stdout).unwrap()["state"].clone()
}

/// The text between `start` and the next `end`, for every occurrence.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    text.split(start)
        .skip(1)
        .filter_map(|rest| rest.split(end).next())
        .collect()
}

/// The markup of panel `p` in a dumped DOM.
fn panel(dom: &str, p: usize) -> &str {
    let start = dom
        .find(&format!("<figure class=\"panel\" id=\"panel-{p}\""))
        .or_else(|| dom.find(&format!("id=\"panel-{p}\"")))
        .unwrap_or_else(|| panic!("no panel {p}"));
    let end = dom[start..].find("</figure>").unwrap() + start;
    &dom[start..end]
}

/// The boxes a sheet's SVG titles show written: `(id, value)`, sorted.
fn written_boxes(sheet: &str) -> Vec<(String, u64)> {
    let mut boxes: Vec<(String, u64)> = between(sheet, "<title>", "</title>")
        .into_iter()
        .filter(|t| t.contains(", pearl "))
        .filter_map(|t| {
            let id = between(t, "(", "), pearl").into_iter().next()?;
            let value = between(t, ", value ", ",")
                .into_iter()
                .next()
                .or_else(|| t.split(", value ").nth(1))?;
            Some((id.to_owned(), value.trim().parse().ok()?))
        })
        .collect();
    boxes.sort();
    boxes
}

/// The sun entries a sheet's SVG titles show, in order.
fn sun_entries(sheet: &str) -> Vec<u64> {
    between(sheet, "<title>Sun slot ", "</title>")
        .into_iter()
        .filter_map(|t| between(t, ": +", ",").into_iter().next())
        .map(|v| v.parse().unwrap())
        .collect()
}

/// The seq of the event the viewer highlights; exactly one is.
fn current_seq(dom: &str) -> u64 {
    let current = between(dom, "aria-current=\"step\"", "</li>");
    assert_eq!(current.len(), 1, "one current event");
    between(current[0], "<span class=\"seq\">", "</span>")[0]
        .parse()
        .unwrap()
}

/// Each player's total in the engine's score table.
fn engine_totals(state: &Value) -> Vec<i64> {
    state["score"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["total"].as_i64().unwrap())
        .collect()
}

/// The scores table: each player's score as shown.
fn shown_scores(dom: &str) -> Vec<i64> {
    between(dom, "<td class=\"score\">", "</td>")
        .into_iter()
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Checks that the viewer at `seq` shows every player's sheet as the
/// engine has it after `seq`.
fn assert_soleils_state(dom: &str, state: &Value, at: &str) {
    let players = state["players"].as_array().unwrap();
    for (p, player) in players.iter().enumerate() {
        let sheet = panel(dom, p);
        let mut expected: Vec<(String, u64)> = player["boxes"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(id, mark)| (id.clone(), mark["value"].as_u64().unwrap()))
            .collect();
        expected.sort();
        assert_eq!(
            written_boxes(sheet),
            expected,
            "{at}: {}'s boxes",
            player["name"]
        );
        let sun: Vec<u64> = player["sun"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(
            sun_entries(sheet),
            sun,
            "{at}: {}'s sun track",
            player["name"]
        );
    }
    let totals = engine_totals(state);
    assert_eq!(shown_scores(dom), totals, "{at}: the scores");
}

#[test]
fn the_viewer_is_one_file_that_asks_for_nothing_and_is_reproducible() {
    let (first, code, stderr) = render("viewer-file", "replays/soleils-12p.jsonl", &[]);
    assert_eq!(code, 0, "{stderr}");
    let bytes = std::fs::read(&first).unwrap();
    assert!(
        bytes.len() < 2_000_000,
        "the 12-player replay is {} bytes, over 2 MB",
        bytes.len()
    );
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-"
    ));
    // No address outside the file: the only URL is the SVG namespace.
    let urls = text.matches("://").count();
    let namespaces = text.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(urls, namespaces, "an address other than the SVG namespace");
    for attribute in [
        " src=",
        "<link",
        "url(",
        "@import",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!text.contains(attribute), "found {attribute}");
    }
    // The same log gives the same bytes.
    let again = common::temp_dir("viewer-file-again").join("again.html");
    let again_text = again.display().to_string();
    let (code, _, _) = common::sunfold(&[
        "render",
        "replay",
        "replays/soleils-12p.jsonl",
        "-o",
        &again_text,
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        bytes,
        "not byte-reproducible"
    );
}

#[test]
fn every_box_and_card_has_an_accessible_name() {
    let (file, _, _) = render("viewer-names", "replays/soleils-4p-sun-limit.jsonl", &[]);
    let text = std::fs::read_to_string(file).unwrap();
    let sheet = panel(&text, 0);
    // Every box of the log's sheet, each titled with its id (and, once
    // written, its value).
    let log =
        std::fs::read_to_string(common::repo().join("replays/soleils-4p-sun-limit.jsonl")).unwrap();
    let start: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let boxes = between(sheet, "<title>", "</title>")
        .into_iter()
        .filter(|t| t.contains(", pearl "))
        .count();
    assert_eq!(boxes, start["template"]["boxes"].as_array().unwrap().len());
    let (file, _, _) = render(
        "viewer-names",
        "replays/summertime-last-card-bought.jsonl",
        &[],
    );
    let text = std::fs::read_to_string(file).unwrap();
    let titles = between(&text, "<title>", "</title>");
    assert!(
        titles
            .iter()
            .any(|t| t.starts_with("(0,0): ") && t.contains(" by "))
    );
    // Stacks are numbered as the log and the buy command number them.
    assert!(titles.iter().any(|t| t.starts_with("Stack 0: ")));
    assert!(!titles.iter().any(|t| t.starts_with("Stack 3")));
}

#[test]
fn the_viewer_shows_the_engines_state_at_each_event() {
    let Some(browser) = browser() else { return };
    let log = "replays/soleils-12p.jsonl";
    let (file, code, stderr) = render("viewer-state", log, &[]);
    assert_eq!(code, 0, "{stderr}");
    // Forward and back again: the page swaps items both ways.
    for seq in [0, 1, 57, 200, 374, 120] {
        let dom = browser.dom("viewer-state", &file, &format!("#seq={seq}"));
        assert_eq!(current_seq(&dom), seq);
        assert_soleils_state(&dom, &engine(log, seq), &format!("seq {seq}"));
    }
    // Without a fragment it opens at the end; with --at, there.
    let dom = browser.dom("viewer-state", &file, "");
    assert_eq!(current_seq(&dom), 374);
    let (file, _, _) = render("viewer-state-at", log, &["--at", "88"]);
    let dom = browser.dom("viewer-state", &file, "");
    assert_eq!(current_seq(&dom), 88);
    assert_soleils_state(&dom, &engine(log, 88), "--at 88");
}

#[test]
fn the_summertime_viewer_shows_the_grid_hands_and_display() {
    let Some(browser) = browser() else { return };
    let log = "replays/summertime-last-card-bought.jsonl";
    let (file, code, stderr) = render("viewer-summertime", log, &[]);
    assert_eq!(code, 0, "{stderr}");
    for seq in [0, 9, 60, 130] {
        let dom = browser.dom("viewer-summertime", &file, &format!("#seq={seq}"));
        assert_eq!(current_seq(&dom), seq);
        let state = engine(log, seq);
        let table = panel(&dom, 0);
        let mut shown: Vec<String> = between(table, "<title>(", "</title>")
            .into_iter()
            .filter(|t| !t.ends_with(": empty"))
            .map(|t| {
                let (cell, rest) = t.split_once("): ").unwrap();
                let by = between(rest, " by ", ",")[0];
                let points = between(rest, ", +", " in turn")[0];
                format!("{cell} {by} {points}")
            })
            .collect();
        shown.sort();
        let mut expected: Vec<String> = state["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                format!(
                    "{},{} {} {}",
                    c["cell"][0],
                    c["cell"][1],
                    c["by"].as_str().unwrap(),
                    c["points"]
                )
            })
            .collect();
        expected.sort();
        assert_eq!(shown, expected, "seq {seq}: the grid");
        for (p, player) in state["players"].as_array().unwrap().iter().enumerate() {
            let hand = player["hand"].as_array().unwrap();
            let title = format!(
                "<title>{}'s hand and tiles</title>",
                player["name"].as_str().unwrap()
            );
            let block = table
                .split(&title)
                .nth(1)
                .unwrap()
                .split("</g>")
                .next()
                .unwrap();
            for card in hand {
                let id = card.as_str().unwrap();
                assert!(
                    block.contains(&format!("({id})")),
                    "seq {seq}: player {p} holds {id}"
                );
            }
        }
        let totals = engine_totals(&state);
        assert_eq!(shown_scores(&dom), totals, "seq {seq}: the scores");
    }
}

#[test]
fn a_broken_log_opens_at_its_illegal_line_with_the_state_before_it() {
    let Some(browser) = browser() else { return };
    let log = "tests/bad/box-filled.jsonl";
    let (file, code, stderr) = render("viewer-broken", log, &[]);
    // The viewer is written, and the command fails as replay does.
    assert_eq!(code, 1);
    assert!(stderr.contains("wrote "), "{stderr}");
    assert!(
        stderr.contains(
            "box-filled.jsonl:9: event 8 (placed): expected an empty box, but K1d already holds 5"
        ),
        "{stderr}"
    );
    let dom = browser.dom("viewer-broken", &file, "");
    let current = between(&dom, "aria-current=\"step\"", "</li>");
    assert_eq!(current.len(), 1);
    assert!(
        dom.contains("<li class=\"illegal current\" data-i=\"8\" aria-current=\"step\">"),
        "the illegal line is the current event"
    );
    assert!(current[0].contains("line 9"));
    assert!(current[0].contains("expected an empty box, but K1d already holds 5"));
    let failure = between(&dom, "<section class=\"failure\"", "</section>")[0];
    assert!(failure.contains("The log breaks a rule at line 9"));
    assert!(
        failure.contains("<li>Ann placed 4 in K3b</li>"),
        "{failure}"
    );
    // The sheets show the state before the line: after event 7.
    assert_soleils_state(&dom, &engine(log, 7), "before line 9");
    // Ann's decision was refused: her sheet is the one outlined.
    assert!(dom.contains("<figure class=\"panel actor\" id=\"panel-0\""));
    // Its address names its line, since its seq may repeat an earlier one;
    // --at its seq opens there too.
    assert!(current[0].contains("href=\"#line=9\""));
    let (file, code, _) = render("viewer-broken-at", log, &["--at", "8"]);
    assert_eq!(code, 1);
    let dom = browser.dom("viewer-broken", &file, "");
    assert!(dom.contains("<li class=\"illegal current\""));
    let dom = browser.dom("viewer-broken", &file, "#seq=3");
    assert_eq!(current_seq(&dom), 3);
    let dom = browser.dom("viewer-broken", &file, "#line=9");
    assert!(dom.contains("<li class=\"illegal current\""));
}

#[test]
fn a_line_that_cannot_be_read_lists_what_was_allowed_there() {
    let Some(browser) = browser() else { return };
    let (file, code, _) = render("viewer-unreadable", "tests/bad/malformed-json.jsonl", &[]);
    assert_eq!(code, 1);
    let dom = browser.dom("viewer-unreadable", &file, "");
    let failure = between(&dom, "<section class=\"failure\"", "</section>")[0];
    assert!(failure.contains("Line 2 cannot be read"), "{failure}");
    assert!(
        failure.contains("What the rules allowed at this point"),
        "{failure}"
    );
    assert!(!failure.contains("breaks a rule"));
}

/// A copy of the viewer at `file` with `script` run after its own, allowed
/// by its hash in the page's CSP, which otherwise stays as it is.
fn with_script(file: &Path, script: &str, copy: &Path) {
    let page = std::fs::read_to_string(file).unwrap();
    let page = page
        .replacen(
            "script-src ",
            &format!(
                "script-src {} ",
                sunfold::show::viewer::page::csp_hash(script)
            ),
            1,
        )
        .replacen("</body>", &format!("<script>{script}</script>\n</body>"), 1);
    std::fs::write(copy, page).unwrap();
}

/// Drives the page as a keyboard and a pointer would, recording the seq
/// shown and the address after each step.
const DRIVE: &str = r#"(function () {
  var trace = [];
  function seq() { return document.querySelector('[aria-current="step"] .seq').textContent; }
  function key(name) {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
    trace.push(name + '=' + seq() + location.hash);
  }
  function click(id) {
    document.getElementById(id).click();
    trace.push(id + '=' + seq() + location.hash);
  }
  key('Home'); key('ArrowRight'); key('ArrowRight'); key('ArrowRight'); key('ArrowLeft');
  key('PageDown'); key('PageDown'); key('PageUp'); key('PageUp'); key('PageUp'); key('End'); key('ArrowRight');
  click('first'); click('next'); click('next-section'); click('prev-section'); click('prev'); click('last');
  var slider = document.getElementById('slider');
  slider.value = '10';
  slider.dispatchEvent(new Event('input', { bubbles: true }));
  trace.push('slider=' + seq() + location.hash);
  document.querySelectorAll('#events li a')[5].click();
  trace.push('list=' + seq() + location.hash);
  var enlarge = document.querySelectorAll('.enlarge')[1];
  enlarge.click();
  trace.push('large=' + enlarge.getAttribute('aria-pressed') + ' ' + enlarge.closest('figure').classList.contains('large'));
  var out = document.createElement('pre');
  out.id = 'trace';
  out.textContent = trace.join('\n');
  document.body.appendChild(out);
})();"#;

#[test]
fn the_keyboard_buttons_slider_and_list_step_through_the_match() {
    let Some(browser) = browser() else { return };
    let log = "replays/soleils-4p-sun-limit.jsonl";
    let (file, _, _) = render("viewer-keys", log, &[]);
    let driven = common::temp_dir("viewer-keys").join("driven.html");
    with_script(&file, DRIVE, &driven);
    let dom = browser.dom("viewer-keys", &driven, "#seq=0");
    let trace = between(&dom, "<pre id=\"trace\">", "</pre>")[0];
    // The rolls start the rounds: Page Down goes to the next, Page Up to
    // the start of this one, then of the one before.
    let text = std::fs::read_to_string(common::repo().join(log)).unwrap();
    let rolls: Vec<u64> = text
        .lines()
        .filter(|l| l.contains("\"type\":\"rolled\""))
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    let last = text.lines().count() as u64 - 1;
    let (r1, r2) = (rolls[0], rolls[1]);
    let expected = [
        "Home=0#seq=0".to_owned(),
        "ArrowRight=1#seq=1".to_owned(),
        "ArrowRight=2#seq=2".to_owned(),
        "ArrowRight=3#seq=3".to_owned(),
        "ArrowLeft=2#seq=2".to_owned(),
        format!("PageDown={r2}#seq={r2}"),
        format!("PageDown={0}#seq={0}", rolls[2]),
        format!("PageUp={r2}#seq={r2}"),
        format!("PageUp={r1}#seq={r1}"),
        "PageUp=0#seq=0".to_owned(),
        format!("End={last}#seq={last}"),
        format!("ArrowRight={last}#seq={last}"),
        "first=0#seq=0".to_owned(),
        "next=1#seq=1".to_owned(),
        format!("next-section={r2}#seq={r2}"),
        format!("prev-section={r1}#seq={r1}"),
        format!("prev={0}#seq={0}", r1 - 1),
        format!("last={last}#seq={last}"),
        "slider=10#seq=10".to_owned(),
        "list=5#seq=5".to_owned(),
        "large=true true".to_owned(),
    ];
    assert_eq!(trace.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn undone_events_are_struck_and_claims_stand_beside_the_scores() {
    let Some(browser) = browser() else { return };
    let log = common::fresh("viewer-undo", "undo.jsonl");
    for args in [
        vec!["new", "soleils", &log, "--players", "Ann,Bob"],
        vec!["roll", &log, "--dice", "4,5,2"],
        vec!["place", &log, "Ann", "K1d", "5"],
        vec!["undo", &log],
        vec!["sun", &log, "Ann", "2"],
        vec!["sun", &log, "Bob", "2"],
        vec!["claim", &log, "--called", "Ann=0", "Bob=3"],
    ] {
        let (code, _, stderr) = common::sunfold(&args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
    let (file, code, stderr) = render("viewer-undo", &log, &[]);
    assert_eq!(code, 0, "{stderr}");
    let dom = browser.dom("viewer-undo", &file, "#seq=2");
    let placed = between(&dom, "<li class=\"undone", "</li>");
    assert_eq!(placed.len(), 1);
    assert!(
        placed[0].contains("<del title=\"taken back by event 3\">Ann placed 5 in K1d</del>"),
        "{}",
        placed[0]
    );
    // At the placement, Ann's sheet shows it; after the undo, it is gone.
    assert_eq!(written_boxes(panel(&dom, 0)), vec![("K1d".to_owned(), 5)]);
    let dom = browser.dom("viewer-undo", &file, "#seq=3");
    assert!(dom.contains("undid event 2: Ann placed 5 in K1d"));
    assert!(written_boxes(panel(&dom, 0)).is_empty());
    // Before the claim, no claim is shown; at it, each against the score.
    let claims = |dom: &str| -> Vec<String> {
        between(dom, "<td class=\"claim", "</td>")
            .into_iter()
            .map(|c| c.split_once('>').unwrap().1.to_owned())
            .collect()
    };
    assert_eq!(claims(&dom), ["", ""]);
    let dom = browser.dom("viewer-undo", &file, "");
    assert_eq!(current_seq(&dom), 6);
    assert_eq!(
        claims(&dom),
        ["0 (agrees)", "3 (computed 0, differs by -3)"]
    );
}

#[test]
fn screenshots_at_laptop_and_phone_widths() {
    let Some(browser) = browser() else { return };
    let dir = common::repo().join("target/viewer-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    for (log, seq) in [
        ("replays/soleils-12p.jsonl", "#seq=200"),
        ("replays/summertime-last-card-bought.jsonl", "#seq=60"),
        ("tests/bad/box-filled.jsonl", ""),
    ] {
        let (file, _, _) = render("viewer-shots", log, &[]);
        let stem = Path::new(log)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for (size, name) in [("1366,900", "laptop"), ("390,844", "phone")] {
            let png = dir.join(format!("{stem}-{name}.png"));
            browser.screenshot("viewer-shots", &file, seq, size, &png);
        }
    }
}

#[test]
fn the_viewers_messages_are_pinned() {
    let out = common::fresh("viewer-messages", "m.html");
    let mut text = String::new();
    for log in [
        "replays/soleils-2p-round-limit.jsonl --at 5000",
        "tests/bad/start-not-first.jsonl",
        "tests/bad/malformed-json.jsonl",
        "no/such/log.jsonl",
    ] {
        let mut args = vec!["render", "replay"];
        args.extend(log.split(' '));
        args.extend(["-o", &out]);
        let (code, _, stderr) = common::sunfold(&args);
        let written = std::path::Path::new(&out).exists();
        let _ = std::fs::remove_file(&out);
        // The size moves with every change to the page; the rest is pinned.
        let stderr: String = stderr
            .lines()
            .map(|l| match l.split_once(" (") {
                Some((wrote, rest)) if wrote.starts_with("wrote ") && rest.ends_with(" bytes)") => {
                    format!("{wrote} (N bytes)\n")
                }
                _ => format!("{l}\n"),
            })
            .collect();
        text.push_str(&format!(
            "$ sunfold render replay {log} -o m.html\nexit {code}, {}\n{}\n",
            if written {
                "written"
            } else {
                "nothing written"
            },
            stderr.replace(&out, "m.html")
        ));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("viewer__messages", text));
}

/// The decisions `sunfold analyse` says lost points: (seq, costly, the
/// better decision in words).
fn losses(log: &str, bot: &str) -> Vec<(u64, bool, String)> {
    let (code, stdout, stderr) =
        common::sunfold(&["analyse", log, "--bot", bot, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    report["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["points_lost"]["estimate"]
                .as_f64()
                .is_some_and(|x| x > 0.0)
        })
        .map(|d| {
            (
                d["seq"].as_u64().unwrap(),
                d["costly"].as_bool().unwrap(),
                d["best"]["said"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The list item of the event with this seq in a dumped DOM.
fn event_item(dom: &str, seq: u64) -> &str {
    let seq_span = format!("<span class=\"seq\">{seq}</span>");
    let at = dom
        .find(&seq_span)
        .unwrap_or_else(|| panic!("no event {seq}"));
    let start = dom[..at].rfind("<li").unwrap();
    let end = at + dom[at..].find("</li>").unwrap();
    &dom[start..end]
}

/// The line under the status, as shown.
fn better_line(dom: &str) -> String {
    between(dom, "id=\"better\"", "</p>")
        .first()
        .map(|b| b.split_once('>').unwrap().1.to_owned())
        .expect("a line for the better decision")
}

#[test]
fn an_analysed_viewer_marks_each_decision_that_lost_points() {
    let Some(browser) = browser() else { return };
    let log = "replays/soleils-4p-sun-limit.jsonl";
    let losses = losses(log, "search:8");
    let costly: Vec<&(u64, bool, String)> = losses.iter().filter(|l| l.1).collect();
    assert!(
        !costly.is_empty(),
        "the bundled replay has costly decisions"
    );
    let (file, code, stderr) = render("viewer-analyse", log, &["--analyse", "--bot", "search:8"]);
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&file).unwrap();
    // Two scripts and two styles, each allowed by its hash, and nothing else.
    let csp = between(&text, "Content-Security-Policy\" content=\"", "\"")[0];
    assert_eq!(csp.matches("'sha256-").count(), 4, "{csp}");
    let (first, second) = (costly[0].0, costly[costly.len() - 1].0);
    for seq in [first, second] {
        let dom = browser.dom("viewer-analyse", &file, &format!("#seq={seq}"));
        assert_eq!(current_seq(&dom), seq);
        // Every decision that lost points carries its mark, the costly
        // ones the stronger one; the others none.
        for (lost_seq, is_costly, _) in &losses {
            let item = event_item(&dom, *lost_seq);
            let class = if *is_costly {
                "<span class=\"lost costly\""
            } else {
                "<span class=\"lost\""
            };
            assert!(item.contains(class), "event {lost_seq}: {item}");
        }
        assert_eq!(
            between(&dom, "<ol id=\"events\"", "</ol>")[0]
                .matches("<span class=\"lost")
                .count(),
            losses.len(),
            "one mark per decision that lost points"
        );
        // The event shown says what was better.
        let best = &losses.iter().find(|l| l.0 == seq).unwrap().2;
        let line = better_line(&dom);
        assert!(
            line.starts_with(&format!("better: {best} (expected score ")),
            "seq {seq}: {line}"
        );
        assert!(
            line.contains("; lost ") && line.contains(" points"),
            "{line}"
        );
        assert!(line.ends_with(" points, costly)"), "{line}");
        assert!(dom.contains("<p id=\"better\" class=\"better costly\""));
    }
    // An event with no loss has no line.
    let quiet = (0..).find(|s| !losses.iter().any(|l| l.0 == *s)).unwrap();
    let dom = browser.dom("viewer-analyse", &file, &format!("#seq={quiet}"));
    assert_eq!(better_line(&dom), "");
    // Stepping onto a costly decision with the keyboard shows its line too.
    let driven = common::temp_dir("viewer-analyse").join("driven.html");
    let step = "(function () { document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true })); })();";
    with_script(&file, step, &driven);
    let dom = browser.dom("viewer-analyse", &driven, &format!("#seq={}", first - 1));
    assert_eq!(current_seq(&dom), first);
    assert!(better_line(&dom).starts_with("better: "));
    // Screenshots at a costly decision.
    let dir = common::repo().join("target/viewer-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    for (size, name) in [("1366,900", "laptop"), ("390,844", "phone")] {
        let png = dir.join(format!("soleils-4p-analysed-{name}.png"));
        browser.screenshot(
            "viewer-analyse",
            &file,
            &format!("#seq={first}"),
            size,
            &png,
        );
    }
}

#[test]
fn the_analysis_is_reproducible_and_absent_unless_asked_for() {
    let log = "replays/soleils-2p-round-limit.jsonl";
    let (plain, code, _) = render("viewer-analyse-plain", log, &[]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&plain).unwrap();
    assert!(!text.contains("id=\"better\"") && !text.contains("class=\"lost"));
    let csp = between(&text, "Content-Security-Policy\" content=\"", "\"")[0];
    assert_eq!(csp.matches("'sha256-").count(), 2, "{csp}");
    let args = ["--analyse", "--bot", "search:4", "--seed", "3"];
    let (a, code, stderr) = render("viewer-analyse-a", log, &args);
    assert_eq!(code, 0, "{stderr}");
    let (b, _, _) = render("viewer-analyse-b", log, &args);
    assert!(
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
        "not byte-reproducible"
    );
}

#[test]
fn analyse_takes_a_search_bot_and_an_html_viewer() {
    let out = common::fresh("viewer-analyse-args", "m.html");
    let log = "replays/soleils-2p-round-limit.jsonl";
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "replay",
        log,
        "-o",
        &out,
        "--analyse",
        "--bot",
        "greedy",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("expected a search bot (search or search:N), but found greedy"),
        "{stderr}"
    );
    assert!(!std::path::Path::new(&out).exists());
    // --bot and --seed mean nothing without --analyse.
    let (code, _, stderr) =
        common::sunfold(&["render", "replay", log, "-o", &out, "--bot", "search:4"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--analyse"), "{stderr}");
    let pdf = common::fresh("viewer-analyse-args", "m.pdf");
    let (code, _, stderr) = common::sunfold(&["render", "replay", log, "-o", &pdf, "--analyse"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("expected an output ending in .html with --analyse"),
        "{stderr}"
    );
}
