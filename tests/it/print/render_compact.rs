//! The compact sheet: two bundled sheets to a landscape A4 or Letter page,
//! or one on A5, chosen on its own when the standard sheet would print
//! below 6 pt; every text stays clear of the others and of the paper's
//! edge and the cut line, and a PDF reader reads both players' names back.
//! (Every text at 6 pt or more is checked with the other bundled outputs
//! in `render_floor.rs`.)

use crate::common;

use sunfold::print::soleils::sheet::{self, Size};
use sunfold::render::paper::{Paper, impose, layout};
use sunfold::render::scene::{Anchor, Item, MM_PER_PT, Page, Shape};
use sunfold::render::text::Fonts;
use sunfold::soleils::template::Template;

const TEMPLATES: [&str; 2] = [
    "sheet-templates/62-soleils-d-ete.json",
    "sheet-templates/petit-ete.json",
];

fn template(path: &str) -> Template {
    let text = std::fs::read_to_string(common::repo().join(path)).unwrap();
    let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
    Template::try_from(raw).unwrap()
}

/// A rectangle `(x0, y0, x1, y1)` in millimetres.
type Bounds = (f32, f32, f32, f32);

/// The size the sheet is drawn at for `per_page` sheets on `paper`.
fn size_for(paper: Paper, per_page: u8) -> Size {
    let slot = layout(paper, per_page).slots[0];
    Size::for_slot(false, (slot.2, slot.3), 6.0 * MM_PER_PT)
}

/// The pages of sheets for Ann and Bob, `per_page` to a page, as `render
/// sheet` lays them out.
fn imposed(template: &Template, paper: Paper, per_page: u8) -> Vec<Page> {
    let size = size_for(paper, per_page);
    let mut pieces = Vec::new();
    for name in ["Ann", "Bob"] {
        pieces.extend(sheet::pages_sized(
            Fonts::builtin(),
            template,
            Some(name),
            size,
            None,
        ));
    }
    impose(paper, per_page, size.natural(), pieces)
}

/// Every text's box `(x0, y0, x1, y1)` in millimetres, with its words, and
/// every shape's box.
fn boxes(items: &[Item], texts: &mut Vec<(Bounds, String)>, shapes: &mut Vec<Bounds>) {
    for item in items {
        match item {
            Item::Text {
                x,
                y,
                size,
                text,
                anchor,
                weight,
                ..
            } if !text.trim().is_empty() => {
                let w = Fonts::builtin().width(text, *size, *weight);
                let x0 = match anchor {
                    Anchor::Start => *x,
                    Anchor::Middle => x - w / 2.0,
                    Anchor::End => x - w,
                };
                // Cap height above the baseline, descenders below.
                texts.push(((x0, y - 0.72 * size, x0 + w, y + 0.2 * size), text.clone()));
            }
            Item::Text { .. } => {}
            Item::Shape { shape, .. } => shapes.push(match shape {
                Shape::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
                Shape::Circle { cx, cy, r } => (cx - r, cy - r, cx + r, cy + r),
                Shape::Path { points, .. } => points.iter().fold(
                    (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                    |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
                ),
            }),
            Item::Group { items, .. } => boxes(items, texts, shapes),
        }
    }
}

fn overlap(a: Bounds, b: Bounds) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

#[test]
fn the_compact_sheet_is_chosen_only_where_the_standard_one_would_print_below_6_pt() {
    assert_eq!(size_for(Paper::A4, 1), Size::Standard);
    assert_eq!(size_for(Paper::Letter, 1), Size::Standard);
    assert_eq!(size_for(Paper::A5, 1), Size::Compact);
    for paper in [Paper::A4, Paper::Letter, Paper::A5] {
        assert_eq!(size_for(paper, 2), Size::Compact, "{paper:?}");
        assert_eq!(size_for(paper, 4), Size::Compact, "{paper:?}");
    }
}

#[test]
fn compact_sheets_keep_clear_of_the_edges_the_cut_and_each_other() {
    for path in TEMPLATES {
        let template = template(path);
        for (paper, per_page) in [(Paper::A4, 2), (Paper::Letter, 2), (Paper::A5, 1)] {
            let at = format!("{path} on {paper:?}, {per_page} to a page");
            let pages = imposed(&template, paper, per_page);
            assert_eq!(pages.len(), 2 / usize::from(per_page), "{at}");
            for page in &pages {
                let (mut texts, mut shapes) = (Vec::new(), Vec::new());
                boxes(&page.items, &mut texts, &mut shapes);
                let cut = page.width / 2.0;
                // The dashed cut line itself runs edge to edge.
                let is_cut = |b: &Bounds| b.0 == cut && b.2 == cut;
                for (b, what) in texts.iter().map(|(b, t)| (*b, t.as_str())).chain(
                    shapes
                        .iter()
                        .filter(|b| !is_cut(b))
                        .map(|b| (*b, "a shape")),
                ) {
                    let edge = b.0.min(b.1).min(page.width - b.2).min(page.height - b.3);
                    assert!(edge >= 5.0, "{at}: {what:?} {edge:.1} mm from the edge");
                    let crosses = b.0 < cut + 5.0 && b.2 > cut - 5.0;
                    assert!(
                        per_page == 1 || !crosses,
                        "{at}: {what:?} within 5 mm of the cut"
                    );
                }
                for (i, (a, ta)) in texts.iter().enumerate() {
                    for (b, tb) in &texts[i + 1..] {
                        assert!(!overlap(*a, *b), "{at}: {ta:?} overlaps {tb:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn two_named_sheets_print_on_one_landscape_page_that_a_pdf_reader_reads_back() {
    let dir = common::temp_dir("render-compact");
    for path in TEMPLATES {
        for (options, pages) in [
            (&["--per-page", "2"][..], 1),
            (&["--per-page", "2", "--paper", "letter"][..], 1),
            (&["--paper", "a5"][..], 2),
        ] {
            let file = dir.join("two.pdf").display().to_string();
            let _ = std::fs::remove_file(&file);
            let mut args = vec!["render", "sheet", path, "--names", "Ann,Bob", "-o", &file];
            args.extend_from_slice(options);
            let (code, _, stderr) = common::sunfold(&args);
            assert_eq!(code, 0, "{args:?}: {stderr}");
            let check = std::process::Command::new("qpdf")
                .args(["--check", &file])
                .output()
                .unwrap();
            assert!(check.status.success(), "{args:?}: qpdf --check failed");
            let info = std::process::Command::new("pdfinfo")
                .arg(&file)
                .output()
                .unwrap();
            let info = String::from_utf8_lossy(&info.stdout).into_owned();
            assert!(
                info.lines()
                    .any(|l| l.starts_with("Pages:") && l.ends_with(&format!(" {pages}"))),
                "{args:?}: {info}"
            );
            let text = std::process::Command::new("pdftotext")
                .args([&file, "-"])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&text.stdout).into_owned();
            let title = if path.contains("petit") {
                "Petit été"
            } else {
                "62 Soleils d'été"
            };
            for words in ["Ann", "Bob", title, "Sun track", "Score"] {
                assert!(text.contains(words), "{args:?}: no {words:?} in {text}");
            }
            if pages == 1 {
                assert!(
                    info.contains("841.89 x 595.276") || info.contains("792 x 612"),
                    "{args:?}: not landscape: {info}"
                );
            }
        }
    }
}
