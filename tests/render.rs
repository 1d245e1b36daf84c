//! Printable output: SVG snapshots, PDF structure read back with lopdf,
//! byte-reproducible files, accessibility, and refused characters.

mod common;

use lopdf::Document;
use sunfold::render::scene::{Canvas, Frame, Item, Page, Scene};
use sunfold::render::{cards, sheet, svg};

fn out(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sunfold-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

fn render(args: &[&str]) -> Vec<u8> {
    let (code, _, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    let path = args[args.iter().position(|&a| a == "-o").unwrap() + 1];
    std::fs::read(path).unwrap()
}

fn pdf(bytes: &[u8]) -> Document {
    Document::load_mem(bytes).expect("a readable PDF")
}

/// Each page's media box width and height in millimetres.
fn page_sizes(doc: &Document) -> Vec<(f32, f32)> {
    doc.get_pages()
        .values()
        .map(|&id| {
            let page = doc.get_dictionary(id).unwrap();
            let media = page.get(b"MediaBox").unwrap().as_array().unwrap();
            let n = |o: &lopdf::Object| o.as_float().unwrap_or_else(|_| o.as_i64().unwrap() as f32);
            let mm = |pt: f32| (pt * 25.4 / 72.0 * 10.0).round() / 10.0;
            (
                mm(n(&media[2]) - n(&media[0])),
                mm(n(&media[3]) - n(&media[1])),
            )
        })
        .collect()
}

#[test]
fn a_blank_a4_sheet_is_one_a4_page_with_the_title_and_accents_intact() {
    let file = out("sheet.pdf");
    let doc = pdf(&render(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        &file,
    ]));
    assert_eq!(page_sizes(&doc), [(210.0, 297.0)]);
    let text = doc.extract_text(&[1]).unwrap();
    assert!(text.contains("62 Soleils d'été"), "extracted: {text}");
    assert!(text.contains("Sun track") && text.contains("Score"));
}

#[test]
fn letter_paper_gives_letter_pages() {
    let file = out("letter.pdf");
    let doc = pdf(&render(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        &file,
        "--paper",
        "letter",
    ]));
    assert_eq!(page_sizes(&doc), [(215.9, 279.4)]);
}

#[test]
fn copies_and_sheets_per_page_set_the_page_count() {
    let cases: [(&[&str], usize); 5] = [
        (&["--copies", "3"], 3),
        (&["--copies", "3", "--per-page", "2"], 2),
        (&["--copies", "4", "--per-page", "4"], 1),
        (&["--copies", "5", "--per-page", "4"], 2),
        (
            &[
                "--names",
                "Ann,Bob,Chloé",
                "--copies",
                "2",
                "--per-page",
                "2",
            ],
            3,
        ),
    ];
    for (i, (options, pages)) in cases.iter().enumerate() {
        let file = out(&format!("n-up-{i}.pdf"));
        let mut args = vec![
            "render",
            "sheet",
            "sheet-templates/62-soleils-d-ete.json",
            "-o",
            &file,
        ];
        args.extend_from_slice(options);
        let doc = pdf(&render(&args));
        assert_eq!(doc.get_pages().len(), *pages, "{options:?}");
    }
    let file = out("two-up.pdf");
    let doc = pdf(&render(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        &file,
        "--per-page",
        "2",
    ]));
    assert_eq!(
        page_sizes(&doc),
        [(297.0, 210.0)],
        "two to a page is landscape"
    );
}

#[test]
fn names_are_printed_on_the_name_line() {
    let file = out("names.pdf");
    let doc = pdf(&render(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        &file,
        "--names",
        "Zoé,Jürgen",
    ]));
    assert_eq!(doc.get_pages().len(), 2);
    assert!(doc.extract_text(&[1]).unwrap().contains("Zoé"));
    assert!(doc.extract_text(&[2]).unwrap().contains("Jürgen"));
}

#[test]
fn output_is_byte_reproducible() {
    for extension in ["pdf", "svg"] {
        let (a, b) = (
            out(&format!("a.{extension}")),
            out(&format!("b.{extension}")),
        );
        let first = render(&[
            "render",
            "replay",
            "replays/soleils-2p-round-limit.jsonl",
            "-o",
            &a,
        ]);
        let second = render(&[
            "render",
            "replay",
            "replays/soleils-2p-round-limit.jsonl",
            "-o",
            &b,
        ]);
        assert!(first == second, "{extension} differs between two runs");
    }
}

#[test]
fn a_custom_template_renders_with_its_own_grid() {
    let file = out("petit.pdf");
    let doc = pdf(&render(&[
        "render",
        "sheet",
        "sheet-templates/petit-ete.json",
        "-o",
        &file,
    ]));
    assert_eq!(doc.get_pages().len(), 1);
    let text = doc.extract_text(&[1]).unwrap();
    assert!(text.contains("Petit été") && text.contains("K24"), "{text}");
    let (code, svg, _) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/petit-ete.json",
        "-o",
        "-",
    ]);
    assert_eq!(code, 0);
    common::snapshots().bind(|| insta::assert_snapshot!("render__custom_sheet_svg", svg));
}

#[test]
fn the_blank_default_sheet_svg() {
    let (code, svg, stderr) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        "-",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        svg.contains("<title>Koinobori 2, box 3 (K2c), pearl 1</title>"),
        "boxes have titles"
    );
    assert!(svg.contains("<title>Koinobori 1, box 4 (K1d), pearl 4, crab</title>"));
    common::snapshots().bind(|| insta::assert_snapshot!("render__default_sheet_svg", svg));
}

#[test]
fn a_filled_replay_sheet_svg() {
    let (code, svg, stderr) = common::sunfold(&[
        "render",
        "replay",
        "docs/examples/postcard.jsonl",
        "-o",
        "-",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        svg.contains("value 6, pearl coloured"),
        "coloured pearls are described"
    );
    assert!(svg.contains("crab copy") && svg.contains("bonus digit"));
    common::snapshots().bind(|| insta::assert_snapshot!("render__filled_replay_svg", svg));
}

#[test]
fn one_card_svg() {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    let deck = sunfold::summertime::Deck::try_from(raw).unwrap();
    let couple = deck.card_index("couple-1").unwrap();
    let mut items: Vec<Item> = Vec::new();
    cards::face(
        &mut Canvas {
            items: &mut items,
            frame: Frame::IDENTITY,
        },
        &deck,
        couple,
    );
    let scene = Scene {
        title: "one card".into(),
        pages: vec![Page {
            width: cards::CARD_W,
            height: cards::CARD_H,
            items,
        }],
    };
    let svg = svg::to_svg(&scene).unwrap();
    assert!(svg.contains("×2") && svg.contains("Couple"));
    common::snapshots().bind(|| insta::assert_snapshot!("render__one_card_svg", svg));
}

#[test]
fn cards_print_faces_with_mirrored_backs_closing_cards_and_tiles() {
    let file = out("cards.pdf");
    let doc = pdf(&render(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        &file,
    ]));
    // 34 cards at 9 a page: 4 front pages, each with a back page; one pair
    // for the closing cards; one pair for the 30 tiles.
    assert_eq!(doc.get_pages().len(), 12);
    let front = doc.extract_text(&[1]).unwrap();
    let back = doc.extract_text(&[2]).unwrap();
    assert!(front.contains("Beach"), "{front}");
    assert!(back.contains("the price of the card in front"), "{back}");
    assert!(doc.extract_text(&[10]).unwrap().contains("side B"));
}

#[test]
fn replays_of_both_games_render() {
    for (log, pages) in [
        ("replays/soleils-4p-sun-limit.jsonl", 5),
        ("replays/summertime-rulebook-examples.jsonl", 3),
    ] {
        let file = out("replay.pdf");
        let doc = pdf(&render(&["render", "replay", log, "-o", &file]));
        assert_eq!(doc.get_pages().len(), pages, "{log}");
    }
    let file = out("at.pdf");
    let doc = pdf(&render(&[
        "render",
        "replay",
        "replays/soleils-2p-round-limit.jsonl",
        "-o",
        &file,
        "--at",
        "9",
    ]));
    assert!(doc.extract_text(&[3]).unwrap().contains("after event 9"));
}

fn sizes_of_digits(items: &[Item], out: &mut Vec<f32>) {
    for item in items {
        match item {
            Item::Text { text, size, .. }
                if text.len() == 1 && text.chars().all(|c| c.is_ascii_digit()) =>
            {
                out.push(*size)
            }
            Item::Group { items, .. } => sizes_of_digits(items, out),
            _ => {}
        }
    }
}

#[test]
fn large_print_doubles_every_pearl_number_and_spreads_over_pages() {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/62-soleils-d-ete.json"))
            .unwrap();
    let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
    let template = sunfold::soleils::Template::try_from(raw).unwrap();
    let draw = |large| {
        let mut all = Vec::new();
        let pages = sheet::pages(&template, sheet::Options { name: None, large }, None);
        for page in &pages {
            let mut items = Vec::new();
            page(&mut Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            });
            sizes_of_digits(&items, &mut all);
        }
        (pages.len(), all)
    };
    let (normal_pages, normal) = draw(false);
    let (large_pages, large) = draw(true);
    assert_eq!(normal_pages, 1);
    assert!(large_pages > 1, "large print spreads over pages");
    // The same numbers are drawn in both: each at least twice as large.
    let (mut normal, mut large) = (normal, large);
    normal.sort_by(f32::total_cmp);
    large.sort_by(f32::total_cmp);
    assert_eq!(normal.len(), large.len());
    assert!(normal.len() > 34, "pearls and sun slots are counted");
    for (n, l) in normal.iter().zip(&large) {
        assert!(
            *l >= 2.0 * n - 0.01,
            "a number of {n} mm is only {l} mm in large print"
        );
    }
}

#[test]
fn a_character_without_a_glyph_is_refused_before_any_file_is_written() {
    // The built-in Liberation Sans has no Chinese: the error names the
    // character, its text and the font, and suggests --font.
    let mut report = String::new();
    for extension in ["pdf", "svg"] {
        let file = out(&format!("bad.{extension}"));
        let (code, stdout, stderr) = common::sunfold(&[
            "render",
            "sheet",
            "sheet-templates/62-soleils-d-ete.json",
            "-o",
            &file,
            "--names",
            "Ann,李雷",
        ]);
        assert!(!std::path::Path::new(&file).exists(), "nothing written");
        report += &format!("{extension}: exit {code}\nstdout: {stdout:?}\nstderr: {stderr}");
    }
    common::snapshots().bind(|| insta::assert_snapshot!("render__missing_glyph", report));
}

#[test]
fn a_wrong_extension_or_kind_of_file_is_a_usage_error() {
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        "x.png",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("expected an output ending in .pdf or .svg"));
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/summertime.json",
        "-o",
        "-",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("use render cards"), "{stderr}");
    let (code, _, _) = common::sunfold(&[
        "render",
        "replay",
        "tests/bad/violates-less.jsonl",
        "-o",
        "-",
    ]);
    assert_eq!(code, 1, "an illegal log is reported, not drawn");
}
