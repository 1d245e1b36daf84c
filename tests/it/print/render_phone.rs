//! The phone's layout of a 62 Soleils sheet and of the Summertime table,
//! as the table server sends them: every word at the phone's smallest size
//! or more, inside the page, and clear of every other word.

use crate::common;

use common::layout::{Bounds, texts};
use sunfold::log::fold_log;
use sunfold::render::scene::{Page, smallest_text};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

/// Every text of `page` lies inside it, at `smallest` millimetres or more,
/// and overlaps no other from its cap height to its baseline (a descender
/// may come within 0.21 of its size of the next line: the sun slots' total
/// and entry, digits without descenders, stand that close).
fn assert_legible(page: &Page, smallest: f32, what: &str) {
    let (size, text) = smallest_text(&page.items).expect("texts");
    assert!(size >= smallest, "{what}: {text:?} at {size} mm");
    let mut all: Vec<(Bounds, String)> = Vec::new();
    texts(&page.items, &mut all);
    for ((l, t, r, b), s) in &all {
        let inside = *l >= -0.01 && *t >= -0.01 && *r <= page.width + 0.01 && *b <= page.height;
        assert!(inside, "{what}: {s:?} leaves the page");
    }
    for (i, (a, ta)) in all.iter().enumerate() {
        for (b, tb) in &all[i + 1..] {
            let (a3, b3) = (
                a.3 - 0.21 / 0.93 * (a.3 - a.1),
                b.3 - 0.21 / 0.93 * (b.3 - b.1),
            );
            let overlap =
                a.0 < b.2 - 0.05 && b.0 < a.2 - 0.05 && a.1 < b3 - 0.05 && b.1 < a3 - 0.05;
            assert!(!overlap, "{what}: {ta:?} {a:?} overlaps {tb:?} {b:?}");
        }
    }
}

#[test]
fn a_finished_sheet_on_a_phone_keeps_every_word_legible_and_apart() {
    use sunfold::print::soleils::replay::phone_sheet;
    let log = std::fs::read(common::repo().join("replays/soleils-4p-sun-limit.jsonl")).unwrap();
    let state =
        fold_log::<Soleils, _>(log.as_slice(), None).unwrap_or_else(|_| panic!("the replay folds"));
    // A box's "bonus" note beside its id is the tightest pair.
    let mut notes = 0;
    for player in 0..state.players().len() {
        let page = phone_sheet(&state, player);
        assert_legible(&page, 3.6, &format!("sheet {player}"));
        let mut all = Vec::new();
        texts(&page.items, &mut all);
        notes += all.iter().filter(|(_, t)| t == "bonus").count();
    }
    assert!(notes > 0, "the replay writes a bonus digit");
}

#[test]
fn a_finished_table_on_a_phone_keeps_every_word_legible_and_apart() {
    use sunfold::print::summertime::table::{phone_page, window};
    let log =
        std::fs::read(common::repo().join("replays/summertime-rulebook-examples.jsonl")).unwrap();
    let state = fold_log::<Summertime, _>(log.as_slice(), None)
        .unwrap_or_else(|_| panic!("the replay folds"));
    let cells = window(state.grid().keys());
    for seat in [None, Some(0), Some(1)] {
        let page = phone_page(&state, cells, seat);
        assert_legible(&page, 3.4, &format!("the table for {seat:?}"));
    }
}
