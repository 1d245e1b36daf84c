//! The studio on a phone 390 px wide, in a real browser: the full sheet's
//! nine columns fit, and a grid wider still says it scrolls sideways;
//! "Pick several" picks boxes by taps alone; "Large print" stays on one
//! line with its box. Screenshots of the grid, the card table and the
//! print are left in target/studio-screenshots to look at.

use super::studio_browser::{Studio, bundled, drawn, fresh};
use crate::common;

use common::driver::{Driver, screenshot};
use serde_json::json;

fn cell(column: u32, row: u32) -> String {
    format!("#grid .cell[data-column=\"{column}\"][data-row=\"{row}\"]")
}

#[test]
fn on_a_phone_the_grid_fits_boxes_are_picked_by_taps_and_large_print_keeps_its_label() {
    let Some(driver) = Driver::start("390,844") else {
        return;
    };
    let file = fresh("studio-phone", "sheet.json");
    let studio = Studio::start(&file, &["--from", &bundled("62-soleils-d-ete.json")]);
    driver.open(&studio.url);
    drawn(&driver, 34);
    let fits = driver.script(
        "var g = document.getElementById('grid').getBoundingClientRect(); return [g.left >= 0, g.right <= window.innerWidth, document.documentElement.scrollWidth <= window.innerWidth, document.getElementById('grid-scrolls').hidden];",
    );
    assert_eq!(
        fits,
        json!([true, true, true, true]),
        "the nine columns fit"
    );
    driver.script("document.getElementById('grid').scrollIntoView(); return true;");
    screenshot(&driver, "studio-screenshots", "phone-grid.png");

    // Pick several: taps alone pick three boxes, and let one go.
    driver.tap("#pick-several");
    assert_eq!(
        driver
            .script("return document.getElementById('pick-several').getAttribute('aria-pressed');"),
        json!("true")
    );
    for column in 0..3 {
        driver.tap(&cell(column, 1));
    }
    driver.eventually(
        "return document.querySelectorAll('#grid .cell.selected').length;",
        &json!(3),
        "three boxes picked by taps",
    );
    driver.tap(&cell(1, 1));
    driver.eventually(
        "return document.querySelectorAll('#grid .cell.selected').length;",
        &json!(2),
        "one let go",
    );
    screenshot(&driver, "studio-screenshots", "phone-pick-several.png");
    driver.tap("#pick-several");

    // A grid wider than any phone says so, naming the columns out of view.
    let (status, _) = studio.call(
        "POST",
        "/api/patch",
        Some(&json!([{"op": "replace", "path": "/grid/columns", "value": 16}])),
    );
    assert_eq!(status, 200);
    driver.wait(
        "var n = document.getElementById('grid-scrolls'); return !n.hidden && /columns \\d+ to 16 are to the right/.test(n.textContent);",
        "the grid said to scroll sideways",
    );

    // The print: Large print on one line with its box.
    driver.tap("#show-side");
    driver.wait(
        "return document.getElementById('preview').naturalWidth > 0;",
        "the print",
    );
    let label = driver.script(
        "var box = document.getElementById('large-print'); var l = box.closest('label'); var r = l.getBoundingClientRect(); var b = box.getBoundingClientRect(); return [r.height < 2 * b.height + 4, Math.abs((b.top + b.bottom) / 2 - (r.top + r.bottom) / 2) < b.height];",
    );
    assert_eq!(label, json!([true, true]), "Large print stays with its box");
    screenshot(&driver, "studio-screenshots", "phone-print.png");

    // The deck's card table.
    let deck = fresh("studio-phone", "deck.json");
    let deck = Studio::start(&deck, &["--from", &bundled("summertime.json")]);
    driver.open(&deck.url);
    driver.wait(
        "return document.querySelectorAll('img.face').length > 30;",
        "the deck's table",
    );
    screenshot(&driver, "studio-screenshots", "phone-cards.png");
    assert_eq!(driver.console(), Vec::<String>::new());
}
