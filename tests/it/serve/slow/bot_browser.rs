//! A person plays a whole game against a bot through the table's page
//! alone, in headless Chromium at a phone's width: 62 Soleils against
//! `greedy`, Summertime against `search:8`. Nobody holds the referee's
//! link: the server's dealer rolls the digital dice and turns the dealt
//! cards. Both logs must audit valid, every bot entry naming its bot.

use crate::common;

use common::driver::{Driver, screenshot};
use serde_json::Value;
use std::time::{Duration, Instant};

/// What to do next on the player's page: `["over"]`, `["wait"]`, or
/// `["tap", CSS, TEXT]` (TEXT a regular expression, or null).
const NEXT: &str = "
    var out = document.getElementById('outcome');
    if (out && !out.hidden && out.textContent.trim()) return ['over'];
    function esc(t) { return '^' + t.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&') + '$'; }
    var picker = document.getElementById('picker');
    if (picker && !picker.hidden) {
      if (picker.querySelector('.group button')) return ['tap', '#picker .group button', null];
      return ['tap', '#picker-close', null];
    }
    if (document.querySelector('[data-key^=\"cell:\"].open')) return ['tap', '[data-key^=\"cell:\"].open', null];
    var card = document.querySelector('#dock button.card');
    if (card && !document.querySelector('#dock button.card[aria-pressed=\"true\"]')) return ['tap', '#dock button.card', null];
    if (document.querySelector('[data-key^=\"box:\"].open')) return ['tap', '[data-key^=\"box:\"].open', null];
    var buttons = Array.prototype.filter.call(document.querySelectorAll('.actions button'), function (b) {
      return !b.disabled && !/^Take back/.test(b.textContent);
    });
    if (buttons.length) return ['tap', '.actions button', esc(buttons[0].textContent)];
    return ['wait'];";

/// Plays the page at `link` to the end of its game by tapping: the taps
/// made.
fn play_to_the_end(driver: &Driver, link: &str) -> usize {
    driver.open(link);
    let started = Instant::now();
    let mut taps = 0;
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(900),
            "the game did not end after {taps} taps; the page shows event {} and says {}",
            driver.script("return document.body.getAttribute('data-seq');"),
            driver.script("return document.getElementById('progress').textContent;"),
        );
        let next = driver.script(NEXT);
        match next[0].as_str() {
            Some("over") => {
                eprintln!("played to the end in {taps} taps, {:?}", started.elapsed());
                return taps;
            }
            Some("tap") => {
                let css = next[1].as_str().unwrap();
                driver.tap_where(css, next[2].as_str());
                taps += 1;
                std::thread::sleep(Duration::from_millis(150));
            }
            _ => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

fn assert_authors(log: &str, person: &str, bot: &str) {
    let (code, stdout, stderr) = common::sunfold(&["audit", log]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let text = std::fs::read_to_string(log).unwrap();
    let mut bots = 0;
    for line in text.lines().skip(1) {
        let line: Value = serde_json::from_str(line).unwrap();
        let expected = match line["player"].as_str() {
            Some(p) if p == person => person.to_owned(),
            Some(_) => format!("bot:{bot}"),
            None => "dealer".to_owned(),
        };
        bots += usize::from(line["by"] == format!("bot:{bot}").as_str());
        assert_eq!(line["by"], expected.as_str(), "{line}");
    }
    assert!(bots > 5, "{bots} decisions of the bot");
}

#[test]
fn a_person_plays_a_whole_soleils_game_against_greedy_on_a_phone() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let log = common::fresh("bot-browser-soleils", "m.jsonl");
    common::run_ok(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Rob",
        "--dice-seed",
        "11",
    ]);
    let served = common::serve(&log, &["--bot", "Rob=greedy", "--bot-pause", "100"]);
    let taps = play_to_the_end(&driver, &served.link("Ann"));
    assert!(taps > 20, "{taps} taps");
    // The page names the bot beside its seat.
    let players = driver.script("return document.getElementById('players').textContent;");
    assert!(
        players.as_str().unwrap().contains("Rob (bot: greedy)"),
        "{players}"
    );
    screenshot(&driver, "table-screenshots", "bot-soleils-over.png");
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
    drop(served);
    assert_authors(&log, "Ann", "greedy");
}

#[test]
fn a_person_plays_a_whole_summertime_game_against_search_on_a_phone() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let log = common::fresh("bot-browser-summertime", "s.jsonl");
    common::run_ok(&[
        "new",
        "summertime",
        &log,
        "--players",
        "Ann,Rob",
        "--seed",
        "3",
    ]);
    let served = common::serve(&log, &["--bot", "Rob=search:8", "--bot-pause", "100"]);
    let taps = play_to_the_end(&driver, &served.link("Ann"));
    assert!(taps > 10, "{taps} taps");
    screenshot(&driver, "table-screenshots", "bot-summertime-over.png");
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
    drop(served);
    assert_authors(&log, "Ann", "search:8");
}
