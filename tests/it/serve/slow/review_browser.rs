//! "Review my game" in a real browser, at a phone's width: a finished
//! game's page offers it, a tap shows the player's three costliest
//! decisions as `/api/review` gives them (the figures and words of
//! `sunfold analyse`), and the command that gives them again; nothing
//! wider than the screen. The screenshot is saved in
//! `target/table-screenshots/review-phone.png`, to look at
//! (docs/images/table-review-phone.png is one).
//!
//! Without chromedriver this test says so and passes, except under
//! `CI=true`, where it fails.

use crate::common;

use common::driver::{Driver, agent, axe, screenshot};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Long enough to mean that something waits that should not: it only
/// turns a hang into a failure.
const HANG: Duration = Duration::from_secs(900);

/// The review as `token` gets it once judged: asked again while the
/// server answers 202.
pub(super) fn review(served: &common::Served, token: &str) -> Value {
    let started = Instant::now();
    loop {
        let mut response = agent()
            .get(format!("{}/api/review", served.base()))
            .header("authorization", format!("Bearer {token}"))
            .call()
            .unwrap();
        let status = response.status();
        let body: Value =
            serde_json::from_str(&response.body_mut().read_to_string().unwrap()).unwrap();
        if status == 200 {
            return body;
        }
        assert_eq!(status, 202, "{body}");
        assert!(started.elapsed() < HANG, "the review never ended");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_finished_game_s_page_reviews_the_player_s_game_on_a_phone() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let done = common::fresh("review-browser", "table.jsonl");
    std::fs::copy(
        common::repo().join("replays/soleils-2p-round-limit.jsonl"),
        &done,
    )
    .unwrap();
    let served = common::serve(&done, &[]);
    // The review is judged first, so that the page's wait is short.
    let expected = review(&served, &served.token("Ann"));

    driver.open(&served.link("Ann"));
    driver.wait(
        "return !document.getElementById('outcome').hidden && !!document.getElementById('review-button');",
        "the offer of a review",
    );
    assert_eq!(driver.script("return window.innerWidth;"), json!(390));
    let label = driver.script("return document.getElementById('review-button').textContent;");
    assert_eq!(label, json!("Review my game"));
    taps_review_and_sees(&driver, &expected);
    let summary = driver.script("return document.querySelector('#review .summary').textContent;");
    assert_eq!(summary, expected["summary"]);
    let command = driver.script("return document.querySelector('#review code').textContent;");
    assert_eq!(command, expected["command"]);
    assert!(
        command
            .as_str()
            .unwrap()
            .starts_with("sunfold analyse table.jsonl --player Ann --seed "),
        "{command}"
    );
    // Nothing wider than the phone, nothing overlapping.
    let widths = driver.script("return [document.documentElement.scrollWidth, window.innerWidth];");
    assert!(widths[0].as_i64() <= widths[1].as_i64(), "{widths}");
    let overlapping = driver.script(
        "var ps = Array.prototype.slice.call(document.querySelectorAll('#review p, #review h2, #review li'));
         var boxes = ps.filter(function (p) { return !p.querySelector('p'); }).map(function (p) { return p.getBoundingClientRect(); });
         var n = 0;
         for (var i = 0; i < boxes.length; i++) for (var j = i + 1; j < boxes.length; j++) {
           var a = boxes[i], b = boxes[j];
           if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) n++;
         }
         return n;",
    );
    assert_eq!(overlapping, json!(0));
    driver.script(
        "var r = document.getElementById('review'); window.scrollTo(0, r.getBoundingClientRect().top + window.scrollY - 70);",
    );
    screenshot(&driver, "table-screenshots", "review-phone.png");
    let violations = axe(&driver);
    assert!(
        violations.is_empty(),
        "axe on a page with its review: {violations:#?}"
    );
}

/// Taps "Review my game" on the page `driver` shows, and checks that it
/// lists the three costliest decisions of `expected` (the review the
/// server answers), each in the same lines.
pub(super) fn taps_review_and_sees(driver: &Driver, expected: &Value) {
    driver.tap("#review-button");
    driver.wait(
        "return document.querySelectorAll('#review .costly li').length === 3;",
        "three decisions",
    );
    let shown = driver.script(
        "return Array.prototype.map.call(document.querySelectorAll('#review .costly li'), function (li) {
           return Array.prototype.map.call(li.querySelectorAll('p'), function (p) { return p.textContent; });
         });",
    );
    let lines: Vec<Value> = (expected["costliest"].as_array().unwrap().iter())
        .map(|c| c["lines"].clone())
        .collect();
    assert_eq!(shown, json!(lines));
}
