//! Cards for a print shop: crop marks long enough to cut by, outside the
//! cards, the artwork at least 5 mm from the paper's edge on every paper,
//! and a TrimBox and a BleedBox on every page, as a PDF reader sees them.

mod common;

use sunfold::print::summertime::cards;
use sunfold::render::paper::Paper;
use sunfold::render::scene::{Item, Shape};
use sunfold::render::text::Fonts;

fn deck() -> sunfold::summertime::Deck {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    sunfold::summertime::Deck::try_from(raw).unwrap()
}

/// Every shape of `items`, with whether it is a top-level line (a mark).
fn shapes<'a>(items: &'a [Item], top: bool, out: &mut Vec<(&'a Shape, bool)>) {
    for item in items {
        match item {
            Item::Shape { shape, .. } => out.push((shape, top)),
            Item::Group { items, .. } => shapes(items, false, out),
            Item::Text { .. } => {}
        }
    }
}

#[test]
fn crop_marks_are_usable_and_artwork_keeps_5_mm_on_every_paper() {
    let deck = deck();
    for paper in [Paper::A4, Paper::Letter, Paper::A5] {
        for bleed in [0.0, 3.0, 5.0] {
            let (document, boxes) = cards::print(Fonts::builtin(), &deck, paper, bleed);
            assert_eq!(boxes.len(), document.scene.pages.len());
            for (n, (page, print)) in document.scene.pages.iter().zip(&boxes).enumerate() {
                let at = format!("{paper:?}, bleed {bleed}, page {}", n + 1);
                let (tx, ty, tw, th) = print.trim;
                let mut all = Vec::new();
                shapes(&page.items, true, &mut all);
                let mut marks = 0;
                for (shape, top) in all {
                    match shape {
                        Shape::Path { points, .. } if top && points.len() == 2 => {
                            marks += 1;
                            let (a, b) = (points[0], points[1]);
                            let long = ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt();
                            assert!(long >= 3.0 - 1e-3, "{at}: a mark {long} mm long");
                            // Off the cards: not inside the trimmed area's
                            // cards, so at least partly outside the grid,
                            // or in a gap between cards.
                            for p in [a, b] {
                                assert!(
                                    p.x >= 0.0
                                        && p.y >= 0.0
                                        && p.x <= page.width
                                        && p.y <= page.height,
                                    "{at}: a mark off the paper"
                                );
                            }
                            if bleed > 0.0 {
                                let outside = |x: f32, y: f32| {
                                    x < tx - bleed
                                        || x > tx + tw + bleed
                                        || y < ty - bleed
                                        || y > ty + th + bleed
                                };
                                assert!(
                                    outside(a.x, a.y) && outside(b.x, b.y),
                                    "{at}: a mark inside the bleed"
                                );
                            }
                        }
                        Shape::Rect { x, y, w, h, .. } if top => {
                            // A bled background: the artwork's edge.
                            let edge = x.min(*y).min(page.width - x - w).min(page.height - y - h);
                            assert!(edge >= 5.0 - 1e-3, "{at}: artwork {edge} mm from the edge");
                        }
                        _ => {}
                    }
                }
                assert!(marks >= 8, "{at}: {marks} marks");
            }
        }
    }
}

fn run(tool: &str, args: &[&str]) -> String {
    let output = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert!(output.status.success(), "{tool} {args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_card_page_has_a_trim_box_and_a_bleed_box() {
    let dir = std::env::temp_dir().join(format!("sunfold-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (paper, bleed) in [("letter", "3"), ("a4", "3"), ("a4", "0")] {
        let file = dir
            .join(format!("{paper}-{bleed}.pdf"))
            .display()
            .to_string();
        let (code, _, stderr) = common::sunfold(&[
            "render",
            "cards",
            "sheet-templates/summertime.json",
            "--paper",
            paper,
            "--bleed",
            bleed,
            "-o",
            &file,
        ]);
        assert_eq!(code, 0, "{stderr}");
        run("qpdf", &["--check", &file]);
        let info = run("pdfinfo", &["-box", "-f", "1", "-l", "999", &file]);
        let boxes = |name: &str| -> Vec<[f32; 4]> {
            info.lines()
                .filter(|l| l.contains(&format!(" {name}:")))
                .map(|l| {
                    let v: Vec<f32> = l
                        .split_whitespace()
                        .rev()
                        .take(4)
                        .map(|n| n.parse().unwrap())
                        .collect();
                    [v[3], v[2], v[1], v[0]]
                })
                .collect()
        };
        let (media, trim, bled) = (boxes("MediaBox"), boxes("TrimBox"), boxes("BleedBox"));
        assert!(!media.is_empty());
        assert_eq!(trim.len(), media.len(), "{paper} {bleed}: {info}");
        assert_eq!(bled.len(), media.len(), "{paper} {bleed}: {info}");
        let grow: f32 = bleed.parse::<f32>().unwrap() * 72.0 / 25.4;
        for ((m, t), b) in media.iter().zip(&trim).zip(&bled) {
            // The trim box lies inside the page, smaller than it; the
            // bleed box is the trim grown by the bleed.
            assert!(
                t[0] > m[0] && t[1] > m[1] && t[2] < m[2] && t[3] < m[3],
                "{t:?}"
            );
            for i in 0..4 {
                let sign = if i < 2 { -1.0 } else { 1.0 };
                assert!((b[i] - (t[i] + sign * grow)).abs() < 0.05, "{b:?} {t:?}");
            }
        }
    }
}
