//! A person plays a whole game against a bot through the table's page
//! alone, in headless Chromium at a phone's width: 62 Soleils against
//! `greedy`, Summertime against `search:8`. Nobody holds the referee's
//! link: the server's dealer rolls the digital dice and turns the dealt
//! cards. Both logs must audit valid, every bot entry naming its bot, and
//! the review after the game shows the player's three costliest decisions.

use crate::common;

use common::driver::{Driver, screenshot};
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

/// Ann plays the game of `log` to its end on her phone against the bot
/// `bot` in Bob's seat, in more than `least_taps` taps; then the page names the bot beside its seat, and
/// "Review my game" shows her three costliest decisions as `/api/review`
/// gives them (the figures of `sunfold analyse`). Both screens are saved
/// as `target/table-screenshots/NAME-over.png` and `NAME-review.png`.
fn play_against(driver: &Driver, log: &str, bot: &str, name: &str, least_taps: usize) {
    let seat = format!("Bob={bot}");
    let served = common::serve(log, &["--bot", &seat, "--bot-pause", "100"]);
    let taps = play_to_the_end(driver, &served.link("Ann"));
    assert!(taps > least_taps, "{taps} taps");
    let players = driver.script("return document.getElementById('players').textContent;");
    let named = format!("Bob (bot: {bot})");
    assert!(players.as_str().unwrap().contains(&named), "{players}");
    screenshot(driver, "table-screenshots", &format!("{name}-over.png"));
    let expected = super::review_browser::review(&served, &served.token("Ann"));
    super::review_browser::taps_review_and_sees(driver, &expected);
    driver.script(
        "var r = document.getElementById('review'); window.scrollTo(0, r.getBoundingClientRect().top + window.scrollY - 70);",
    );
    screenshot(driver, "table-screenshots", &format!("{name}-review.png"));
    let console = driver.console();
    assert!(console.is_empty(), "console: {console:#?}");
    drop(served);
    let by = format!("bot:{bot}");
    let made = super::super::serve_bots::assert_each_by(log, &[("Ann", "Ann"), ("Bob", &by)]);
    assert!(made[1] > 5, "{made:?}");
}

#[test]
fn a_person_plays_a_whole_soleils_game_against_greedy_on_a_phone() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let log = common::new_soleils_table("bot-browser-soleils", "m.jsonl");
    play_against(&driver, &log, "greedy", "bot-soleils", 20);
}

#[test]
fn a_person_plays_a_whole_summertime_game_against_search_on_a_phone() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let log = common::fresh("bot-browser-summertime", "s.jsonl");
    let new = [
        "new",
        "summertime",
        &log,
        "--players",
        "Ann,Bob",
        "--seed",
        "3",
    ];
    common::run_ok(&new);
    play_against(&driver, &log, "search:8", "bot-summertime", 10);
}
