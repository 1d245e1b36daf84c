//! Cards for a print shop: crop marks long enough to cut by, outside the
//! cards, the artwork at least 5 mm from the paper's edge on every paper,
//! and a TrimBox and a BleedBox on every page, as a PDF reader sees them;
//! no ink on a cut; and a page a piece for a card printer.

use crate::common;

use sunfold::print::summertime::cards;
use sunfold::print::summertime::layout::{Layout, SAFE};
use sunfold::render::paper::Paper;
use sunfold::render::scene::{Color, Item, Shape};
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
            let (document, boxes) =
                cards::print(Fonts::builtin(), &deck, paper, bleed, Layout::Sheets);
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

/// The box around every shape of `items` (with half its stroke) and every
/// text, in page millimetres.
fn ink(items: &[Item], out: &mut Vec<(common::layout::Bounds, String)>) {
    common::layout::texts(items, out);
    for item in items {
        match item {
            Item::Shape { shape, stroke, .. } => {
                let half = stroke.as_ref().map_or(0.0, |s| s.width / 2.0);
                let (l, t, r, b) = match shape {
                    Shape::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
                    Shape::Circle { cx, cy, r } => (cx - r, cy - r, cx + r, cy + r),
                    Shape::Path { points, .. } => points.iter().fold(
                        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                        |(l, t, r, b), p| (l.min(p.x), t.min(p.y), r.max(p.x), b.max(p.y)),
                    ),
                };
                out.push((
                    (l - half, t - half, r + half, b + half),
                    format!("{shape:?}"),
                ));
            }
            Item::Group { items, .. } => ink(items, out),
            Item::Text { .. } => {}
        }
    }
}

/// Given the bundled deck, when it is laid out for a card printer, then
/// every page is one piece at its trim size plus the bleed, with that trim
/// as its box; its ground, in colour, covers the page; and every other
/// line and word keeps the safe area, 3 mm inside the cut.
#[test]
fn per_card_pages_are_one_piece_at_trim_plus_bleed_with_ink_off_the_cut() {
    let deck = deck();
    let pieces = deck.cards().len()
        + deck.closing_cards().len()
        + 2 * deck.items() * usize::from(deck.tiles_per_item());
    for bleed in [0.0, 3.0, 5.0] {
        let (document, boxes) =
            cards::print(Fonts::builtin(), &deck, Paper::A4, bleed, Layout::PerCard);
        let pages = &document.scene.pages;
        assert_eq!(pages.len(), 2 * pieces, "a front and a back a piece");
        assert_eq!(boxes.len(), pages.len());
        for (n, (page, print)) in pages.iter().zip(&boxes).enumerate() {
            let at = format!("bleed {bleed}, page {}", n + 1);
            let (tx, ty, tw, th) = print.trim;
            assert_eq!(print.bleed, bleed, "{at}");
            assert_eq!((tx, ty), (bleed, bleed), "{at}");
            assert!((page.width - tw - 2.0 * bleed).abs() < 1e-3, "{at}");
            assert!((page.height - th - 2.0 * bleed).abs() < 1e-3, "{at}");
            assert!(
                [(cards::CARD_W, cards::CARD_H), (cards::TILE, cards::TILE)].contains(&(tw, th)),
                "{at}: trimmed to {tw} × {th}"
            );
            let Some(Item::Shape {
                shape: Shape::Rect { x, y, w, h, .. },
                fill: Some(ground),
                stroke: None,
            }) = page.items.first()
            else {
                panic!("{at}: no ground first");
            };
            assert_eq!(
                (*x, *y, *w, *h),
                (0.0, 0.0, page.width, page.height),
                "{at}"
            );
            assert_ne!(*ground, Color::WHITE, "{at}: a white ground bleeds nothing");
            let mut all = Vec::new();
            ink(&page.items[1..], &mut all);
            assert!(all.len() >= 2, "{at}: the piece is drawn");
            for ((l, t, r, b), what) in all {
                let safe = (tx + SAFE - 1e-3, ty + SAFE - 1e-3);
                let inside = l >= safe.0
                    && t >= safe.1
                    && r <= tx + tw - SAFE + 1e-3
                    && b <= ty + th - SAFE + 1e-3;
                assert!(
                    inside,
                    "{at}: {what} at ({l}, {t})–({r}, {b}) leaves the safe area"
                );
            }
        }
    }
}

/// Given a deck printed on sheets with a bleed, when a print shop cuts it,
/// then no stroke lies on a cut line: each piece's frame keeps the safe area.
#[test]
fn bled_sheets_keep_every_frame_off_the_cut() {
    let deck = deck();
    let (document, boxes) = cards::print(Fonts::builtin(), &deck, Paper::A4, 3.0, Layout::Sheets);
    for (n, (page, print)) in document.scene.pages.iter().zip(&boxes).enumerate() {
        let (tx, ty, tw, th) = print.trim;
        let mut all = Vec::new();
        let pieces: Vec<Item> = page
            .items
            .iter()
            .filter(|i| matches!(i, Item::Group { .. }))
            .cloned()
            .collect();
        ink(&pieces, &mut all);
        // The cut lines of the first row and column: the trim's edges.
        for ((l, t, r, b), what) in all {
            for cut in [tx, tx + tw] {
                assert!(
                    l > cut + 1.0 || r < cut - 1.0,
                    "page {}: {what} on the cut x = {cut}",
                    n + 1
                );
            }
            for cut in [ty, ty + th] {
                assert!(
                    t > cut + 1.0 || b < cut - 1.0,
                    "page {}: {what} on the cut y = {cut}",
                    n + 1
                );
            }
        }
    }
}

#[test]
fn the_per_card_pdf_has_a_page_a_piece_with_its_trim_box() {
    let dir = common::temp_dir("per-card");
    let file = dir.join("cards.pdf").display().to_string();
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "--layout",
        "per-card",
        "-o",
        &file,
    ]);
    assert_eq!(code, 0, "{stderr}");
    run("qpdf", &["--check", &file]);
    let info = run("pdfinfo", &["-box", "-f", "1", "-l", "999", &file]);
    let mm = |pt: f32| pt * 25.4 / 72.0;
    let sizes: Vec<(String, [f32; 4])> = info
        .lines()
        .filter(|l| l.contains("Box:"))
        .map(|l| {
            let v: Vec<f32> = l
                .split_whitespace()
                .rev()
                .take(4)
                .map(|n| mm(n.parse().unwrap()))
                .collect();
            (
                l.split_whitespace().nth(2).unwrap().to_owned(),
                [v[3], v[2], v[1], v[0]],
            )
        })
        .collect();
    let of = |name: &str| -> Vec<[f32; 4]> {
        sizes
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, b)| *b)
            .collect()
    };
    let (media, trim, bled) = (of("MediaBox:"), of("TrimBox:"), of("BleedBox:"));
    assert_eq!(media.len(), 134, "{info}");
    assert_eq!((trim.len(), bled.len()), (134, 134));
    // A card at 60 × 84 mm with 3 mm of bleed each way: 66 × 90 mm.
    let near = |a: f32, b: f32| (a - b).abs() < 0.05;
    assert!(
        near(media[0][2] - media[0][0], 66.0) && near(media[0][3] - media[0][1], 90.0),
        "{:?}",
        media[0]
    );
    for ((m, t), b) in media.iter().zip(&trim).zip(&bled) {
        for i in 0..4 {
            let sign = if i < 2 { 1.0 } else { -1.0 };
            assert!(near(t[i], m[i] + sign * 3.0), "{t:?} in {m:?}");
            assert!(near(b[i], m[i]), "{b:?} is the page {m:?}");
        }
    }
}

#[test]
fn print_shop_usage_messages_are_pinned() {
    let out = common::temp_dir("print-usage")
        .join("x.pdf")
        .display()
        .to_string();
    let deck = "sheet-templates/summertime.json";
    let cases: [&[&str]; 4] = [
        &["render", "cards", deck, "-o", &out, "--layout", "per-sheet"],
        &["render", "cards", deck, "-o", &out, "--bleed", "9"],
        &[
            "render", "cards", deck, "-o", &out, "--layout", "per-card", "--paper", "letter",
        ],
        &["render", "cards", deck, "-o", "-", "--layout", "per-card"],
    ];
    let mut lines = Vec::new();
    for args in cases {
        let (code, _, stderr) = common::sunfold(args);
        lines.push(format!(
            "$ sunfold {}",
            args.join(" ").replace(&out, "x.pdf")
        ));
        lines.push(format!("exit {code}: {}", stderr.trim_end()));
    }
    let text = lines.join("\n");
    common::snapshots().bind(|| insta::assert_snapshot!("render_print__usage_messages", text));
}

/// Given a drawing of several SVG pages under a name, when a drawing of
/// fewer pages is written under the same name, then the pages it does not
/// write are removed and said, so none reads as part of the new drawing.
#[test]
fn a_shorter_svg_drawing_removes_the_pages_an_earlier_one_left() {
    let dir = common::temp_dir("stale-svg-pages");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("st.svg");
    let shown = out.display().to_string();
    let deck = "sheet-templates/summertime.json";
    let (code, _, stderr) = common::sunfold(&["render", "cards", deck, "-o", &shown]);
    assert_eq!(code, 0, "{stderr}");
    let pages = (1..)
        .take_while(|i| dir.join(format!("st-{i}.svg")).is_file())
        .count();
    assert!(pages > 1, "{stderr}");
    let sheet = "sheet-templates/petit-ete.json";
    let (code, _, stderr) = common::sunfold(&["render", "sheet", sheet, "-o", &shown]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.is_file());
    for i in 1..=pages {
        let page = dir.join(format!("st-{i}.svg"));
        assert!(!page.exists(), "{} was left", page.display());
        assert!(
            stderr.contains(&format!("removed {}", page.display())),
            "{stderr}"
        );
    }
}
