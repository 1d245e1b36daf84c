//! Printable output: SVG snapshots, PDF structure read back with lopdf,
//! byte-reproducible files, accessibility, and refused characters.

use crate::common;

use lopdf_printpdf::Document;
use sunfold::print::soleils::sheet;
use sunfold::print::summertime::cards;
use sunfold::render::scene::{Canvas, Frame, Item, Page, Scene};
use sunfold::render::svg;
use sunfold::render::text::Fonts;

fn out(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sunfold-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
}

/// Runs `args` and reads what `-o` wrote: an SVG of several pages is the
/// files of its pages, one after the other.
fn render(args: &[&str]) -> Vec<u8> {
    let (code, _, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    let path = args[args.iter().position(|&a| a == "-o").unwrap() + 1];
    common::written(std::path::Path::new(path))
}

/// `render sheet` of the bundled sheet to `file`, with more options.
fn sheet<'a>(file: &'a str, options: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        file,
    ];
    args.extend_from_slice(options);
    args
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
            let n = |o: &lopdf_printpdf::Object| {
                o.as_float().unwrap_or_else(|_| o.as_i64().unwrap() as f32)
            };
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
    let doc = pdf(&render(&sheet(&file, &[])));
    assert_eq!(page_sizes(&doc), [(210.0, 297.0)]);
    let text = doc.extract_text(&[1]).unwrap();
    assert!(text.contains("62 Soleils d'été"), "extracted: {text}");
    assert!(text.contains("Sun track") && text.contains("Score"));
}

#[test]
fn letter_paper_gives_letter_pages() {
    let file = out("letter.pdf");
    let doc = pdf(&render(&sheet(&file, &["--paper", "letter"])));
    assert_eq!(page_sizes(&doc), [(215.9, 279.4)]);
}

#[test]
fn copies_and_names_set_the_page_count() {
    let cases: [(&[&str], usize); 2] = [
        (&["--copies", "3"], 3),
        (&["--names", "Ann,Bob,Chloé", "--copies", "2"], 6),
    ];
    for (i, (options, pages)) in cases.iter().enumerate() {
        let file = out(&format!("n-up-{i}.pdf"));
        let args = sheet(&file, options);
        let doc = pdf(&render(&args));
        assert_eq!(doc.get_pages().len(), *pages, "{options:?}");
    }
}

#[test]
fn layouts_that_would_print_text_below_6_pt_or_make_no_sense_are_refused() {
    // Given the bundled sheet, which turns compact two to a page or on
    // A5, when it is asked four to a page, where even the compact sheet
    // would print below 6 pt, then nothing is written and the message
    // names the size.
    let file = out("refused.pdf");
    let mut lines = Vec::new();
    let cases: [&[&str]; 8] = [
        &["--per-page", "4"],
        &["--per-page", "4", "--paper", "a5"],
        &["--per-page", "4", "--paper", "letter"],
        &["--large-print", "--per-page", "2"],
        &["--large-print", "--paper", "a5"],
        &["--names", "Ann,,Bob"],
        &[
            "--names",
            "Maximilian Alexander Bartholomew von Hohenzollern-Sigmaringen the Younger",
        ],
        &["--copies", "0"],
    ];
    for options in cases {
        let _ = std::fs::remove_file(&file);
        let args = sheet(&file, options);
        let (code, _, stderr) = common::sunfold(&args);
        assert_ne!(code, 0, "{options:?}");
        assert!(!std::path::Path::new(&file).exists(), "{options:?} wrote");
        let first = stderr.lines().next().unwrap_or_default().to_owned();
        lines.push(format!("{options:?} exit {code}: {first}"));
    }
    common::snapshots()
        .bind(|| insta::assert_snapshot!("render__refused_layouts", lines.join("\n")));
}

#[test]
fn names_are_printed_on_the_name_line() {
    let file = out("names.pdf");
    let doc = pdf(&render(&sheet(&file, &["--names", "Zoé,Jürgen"])));
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
    let svg = common::svg_pages(
        "filled-replay-svg",
        &["render", "replay", "docs/examples/postcard.jsonl"],
    )
    .concat();
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
        Fonts::builtin(),
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
    // Each card prints its own name, not only its picture's.
    let all: String = (1..=8).map(|p| doc.extract_text(&[p]).unwrap()).collect();
    for name in [
        "Cocktail x2",
        "Surfer 5",
        "Deck chair x2",
        "Swimming pool 4",
    ] {
        assert!(all.contains(name), "no {name}");
    }
    // Letter paper holds 9 cards a page too.
    let letter = out("cards-letter.pdf");
    let doc = pdf(&render(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        &letter,
        "--paper",
        "letter",
    ]));
    assert_eq!(doc.get_pages().len(), 12);
}

/// The outlines a drawing is made of, without colours or text: its shape.
fn outline(items: &[Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Shape { shape, .. } => out.push(format!("{shape:?}")),
            Item::Group { items, .. } => outline(items, out),
            Item::Text { .. } => {}
        }
    }
}

#[test]
fn every_picture_kind_has_its_own_pictogram_shape() {
    use sunfold::print::summertime::pictogram;
    let mut seen = std::collections::HashMap::new();
    for &name in pictogram::PICTOGRAMS {
        let mut items = Vec::new();
        pictogram::draw(
            &mut Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            },
            name,
            "?",
            20.0,
            20.0,
            30.0,
        );
        let mut shape = Vec::new();
        outline(&items, &mut shape);
        assert!(shape.len() >= 2, "{name} is a blob");
        // Told apart by shape alone: no two share an outline.
        if let Some(other) = seen.insert(shape, name) {
            panic!("{name} and {other} have the same shape");
        }
    }
    assert_eq!(seen.len(), 14);
    // Every picture of the bundled deck has one.
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    for picture in &raw.pictures {
        assert!(
            pictogram::PICTOGRAMS.contains(&picture.id.as_str()),
            "{} has no pictogram",
            picture.id
        );
    }
}

#[test]
fn a_deck_names_a_built_in_pictogram_for_a_picture_it_adds() {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let mut deck: serde_json::Value = serde_json::from_str(&text).unwrap();
    deck["pictures"][8] =
        serde_json::json!({"id": "surfer", "name": "Windsurfer", "pictogram": "catamaran"});
    deck["pictures"][9]["pictogram"] = serde_json::json!("kite");
    deck["items"][0]["pictogram"] = serde_json::json!("fish");
    let file = out("pictograms.json");
    std::fs::write(&file, deck.to_string()).unwrap();
    let (code, _, stderr) = common::sunfold(&["template", "check", &file]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("pictures[9].pictogram: expected a built-in pictogram (beach, ocean"),
        "{stderr}"
    );
    assert!(
        stderr.contains("items[0].pictogram: expected no pictogram on an item"),
        "{stderr}"
    );
    deck["pictures"][9]
        .as_object_mut()
        .unwrap()
        .remove("pictogram");
    deck["items"][0]
        .as_object_mut()
        .unwrap()
        .remove("pictogram");
    std::fs::write(&file, deck.to_string()).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&deck.to_string()).unwrap();
    let deck = sunfold::summertime::Deck::try_from(raw).unwrap();
    assert_eq!(deck.pictogram(8), "catamaran");
    assert_eq!(deck.pictogram(9), "umbrella");
    // The surfer card's face draws the catamaran it names, not a surfer.
    let surfer = deck.card_index("surfer-1").unwrap();
    let drawn = |draw: &dyn Fn(&mut Canvas)| {
        let mut items = Vec::new();
        draw(&mut Canvas {
            items: &mut items,
            frame: Frame::IDENTITY,
        });
        let mut shape = Vec::new();
        outline(&items, &mut shape);
        shape
    };
    let face = drawn(&|c| cards::face(c, Fonts::builtin(), &deck, surfer));
    let boat = drawn(&|c| {
        sunfold::print::summertime::pictogram::draw(
            c,
            "catamaran",
            "W",
            cards::CARD_W / 2.0,
            37.5,
            28.0,
        )
    });
    let board = drawn(&|c| {
        sunfold::print::summertime::pictogram::draw(
            c,
            "surfer",
            "W",
            cards::CARD_W / 2.0,
            37.5,
            28.0,
        )
    });
    assert!(boat.iter().all(|s| face.contains(s)), "no catamaran drawn");
    assert!(!board.iter().all(|s| face.contains(s)), "a surfer drawn");
    // And the deck prints.
    render(&["render", "cards", &file, "-o", &out("windsurfer.pdf")]);
}

#[test]
fn bleed_runs_the_backgrounds_past_the_cut_lines() {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    let deck = sunfold::summertime::Deck::try_from(raw).unwrap();
    let a4 = sunfold::render::paper::Paper::A4;
    let plain = cards::scene(Fonts::builtin(), &deck, a4, 0.0).scene;
    let bled = cards::scene(Fonts::builtin(), &deck, a4, 3.0).scene;
    assert_eq!(plain.pages.len(), bled.pages.len(), "still 9 cards a page");
    // A back page: each card's background is a rectangle 3 mm wider each way.
    let backs = &bled.pages[1].items;
    let wide = backs
        .iter()
        .filter(|item| {
            matches!(item, Item::Shape { shape, .. }
                if format!("{shape:?}").contains(&format!("w: {:?}", cards::CARD_W + 6.0)))
        })
        .count();
    assert_eq!(wide, 9, "nine bled backgrounds");
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        &out("x.pdf"),
        "--bleed",
        "9",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("expected a bleed of 0 to 5 mm"), "{stderr}");
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
        // The machine's installed fonts left out, as on a machine without
        // a Chinese font.
        let args = ["--names", "Ann,李雷", "--no-system-fonts"];
        let (code, stdout, stderr) = common::sunfold(&sheet(&file, &args));
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

fn texts(items: &[Item], out: &mut Vec<String>) {
    for item in items {
        match item {
            Item::Text { text, .. } => out.push(text.clone()),
            Item::Group { items, .. } => texts(items, out),
            _ => {}
        }
    }
}

/// The text of each page of a large-print sheet.
fn large_pages(
    template: &str,
    name: Option<&str>,
) -> (sunfold::soleils::Template, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(common::repo().join(template)).unwrap();
    let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
    let template = sunfold::soleils::Template::try_from(raw).unwrap();
    let pages = sheet::pages(&template, sheet::Options { name, large: true }, None)
        .iter()
        .map(|page| {
            let mut items = Vec::new();
            page(&mut Canvas {
                items: &mut items,
                frame: Frame::IDENTITY,
            });
            let mut out = Vec::new();
            texts(&items, &mut out);
            out
        })
        .collect();
    (template, pages)
}

#[test]
fn large_print_keeps_each_zone_whole_on_one_page_in_reading_order() {
    for file in [
        "sheet-templates/62-soleils-d-ete.json",
        "sheet-templates/petit-ete.json",
    ] {
        let (template, pages) = large_pages(file, Some("Łucja"));
        // Page 1: the name line, the sun track and its thresholds.
        let first = &pages[0];
        assert!(first.iter().any(|t| t == "Name"), "{file}: {first:?}");
        assert!(first.iter().any(|t| t == "Sun track"), "{file}");
        for t in template.thresholds() {
            assert!(
                first.contains(&t.at.to_string()),
                "{file}: threshold {}",
                t.at
            );
        }
        // Every zone: all its box ids on one page, with its name and rule.
        let mut last_page = 0;
        for zone in template.zones() {
            let ids: Vec<&str> = zone
                .boxes
                .iter()
                .map(|&b| template.boxes()[b].id.as_str())
                .collect();
            let on: Vec<usize> = (0..pages.len())
                .filter(|&p| ids.iter().any(|id| pages[p].iter().any(|t| t == id)))
                .collect();
            assert_eq!(on.len(), 1, "{file}: zone {} spans pages {on:?}", zone.id);
            let page = &pages[on[0]];
            for id in &ids {
                assert!(page.iter().any(|t| t == id), "{file}: {id}");
            }
            assert!(page.contains(&zone.name), "{file}: {} unnamed", zone.name);
            assert!(
                page.iter().any(|t| t.starts_with("Rule")),
                "{file}: {} has no rule in words",
                zone.name
            );
            // Each crab box says where it copies to.
            for &b in &zone.boxes {
                let sheet_box = &template.boxes()[b];
                if sheet_box.crab {
                    let said = format!("Crab in {}: copies to", sheet_box.id);
                    assert!(page.iter().any(|t| t.starts_with(&said)), "{file}: {said}");
                }
            }
            last_page = last_page.max(on[0]);
        }
        assert!(last_page > 0, "{file}: zones after page 1");
        // No caption of the old column tiles.
        assert!(
            !pages
                .iter()
                .flatten()
                .any(|t| t.starts_with("Grid: columns"))
        );
    }
}

#[test]
fn large_print_pdf_pages_hold_each_zone_whole() {
    // The same, read back from the PDF itself, page by page.
    let file = out("large.pdf");
    let doc = pdf(&render(&sheet(&file, &["--large-print"])));
    let (template, _) = large_pages("sheet-templates/62-soleils-d-ete.json", None);
    let pages = doc.get_pages().len() as u32;
    let text: Vec<String> = (1..=pages)
        .map(|p| doc.extract_text(&[p]).unwrap())
        .collect();
    assert!(text[0].contains("Name") && text[0].contains("Sun track"));
    for zone in template.zones() {
        let holding: Vec<usize> = (0..text.len())
            .filter(|&p| {
                zone.boxes
                    .iter()
                    .all(|&b| text[p].contains(&template.boxes()[b].id))
            })
            .collect();
        assert!(!holding.is_empty(), "zone {} is split", zone.id);
    }
}

/// Runs a poppler tool (poppler-utils, installed by `.ci/run`).
fn poppler(tool: &str, args: &[&str]) -> String {
    let output = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} (poppler-utils) runs: {e}"));
    assert!(output.status.success(), "{tool} {args:?} failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The embedded fonts as `pdffonts` lists them: (name, emb, sub).
fn fonts_of(file: &str) -> Vec<(String, String, String)> {
    poppler("pdffonts", &[file])
        .lines()
        .skip(2)
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let n = words.len();
            (
                words[0].to_owned(),
                words[n - 5].to_owned(),
                words[n - 4].to_owned(),
            )
        })
        .collect()
}

const NAMES: [&str; 3] = ["Łukasz", "Σοφία", "Дмитрий"];

#[test]
fn names_in_polish_greek_and_cyrillic_print_on_sheets_in_an_embedded_subset_font() {
    let file = out("alphabets.pdf");
    render(&sheet(&file, &["--names", &NAMES.join(",")]));
    for (page, name) in NAMES.iter().enumerate() {
        let page = (page + 1).to_string();
        let text = poppler("pdftotext", &["-f", &page, "-l", &page, &file, "-"]);
        assert!(text.contains(name), "page {page} has {name}: {text}");
    }
    let fonts = fonts_of(&file);
    assert_eq!(fonts.len(), 3, "regular, bold and italic: {fonts:?}");
    for (name, emb, sub) in &fonts {
        assert!(name.contains("+LiberationSans"), "{name}");
        assert_eq!((emb.as_str(), sub.as_str()), ("yes", "yes"), "{name}");
    }
    let info = poppler("pdfinfo", &[&file]);
    assert!(!info.contains("PDF/X"), "no PDF/X claim: {info}");
    assert!(!info.contains("PDF subtype"), "no standard claimed: {info}");
}

#[test]
fn names_in_polish_greek_and_cyrillic_print_in_replays() {
    let log = out("alphabets.jsonl");
    let _ = std::fs::remove_file(&log);
    let (code, _, stderr) =
        common::sunfold(&["new", "soleils", &log, "--players", &NAMES.join(",")]);
    assert_eq!(code, 0, "{stderr}");
    let file = out("alphabets-replay.pdf");
    render(&["render", "replay", &log, "-o", &file]);
    let text = poppler("pdftotext", &[&file, "-"]);
    for name in NAMES {
        assert!(text.contains(name), "{name} in {text}");
    }
    let svg = out("alphabets-replay.svg");
    let svg = String::from_utf8(render(&["render", "replay", &log, "-o", &svg])).unwrap();
    assert!(svg.contains("font-family=\"&apos;Liberation Sans&apos;, Arial"));
    for name in NAMES {
        assert!(svg.contains(name), "{name} in the SVG");
    }
}

#[test]
fn a_blank_sheet_pdf_stays_small() {
    let file = out("small.pdf");
    let bytes = render(&sheet(&file, &[]));
    assert!(bytes.len() < 60_000, "{} bytes", bytes.len());
}

/// A Chinese font of this machine, if it has one.
fn chinese_font() -> Option<String> {
    let output = std::process::Command::new("fc-list")
        .args([":lang=zh", "file"])
        .output()
        .ok()?;
    let mut files: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.trim().trim_end_matches(':').to_owned())
        .filter(|f| !f.is_empty())
        .collect();
    files.sort();
    files.into_iter().next()
}

#[test]
fn a_users_font_prints_what_the_builtin_one_cannot() {
    let Some(font) = chinese_font() else {
        common::skip(
            "no Chinese font on this machine, fc-list :lang=zh is empty (apt-get install fonts-noto-cjk)",
        );
        return;
    };
    let file = out("chinese.pdf");
    render(&sheet(&file, &["--names", "李雷", "--font", &font]));
    assert!(
        poppler("pdftotext", &[&file, "-"]).contains("李雷"),
        "{font}"
    );
    // The added font draws the name; the built-in one the rest.
    let fonts = fonts_of(&file);
    assert!(
        fonts.iter().any(|f| f.0.contains("LiberationSans")),
        "{fonts:?}"
    );
    assert!(
        fonts.iter().any(|f| !f.0.contains("LiberationSans")),
        "{fonts:?}"
    );
    for (name, emb, sub) in &fonts {
        assert_eq!((emb.as_str(), sub.as_str()), ("yes", "yes"), "{name}");
    }
}

#[test]
fn a_font_file_that_is_no_font_is_a_usage_error() {
    let file = out("nofont.pdf");
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        &file,
        "--font",
        "sheet-templates/summertime.json",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("sheet-templates/summertime.json: expected a TrueType or OpenType font"),
        "{stderr}"
    );
    assert!(!std::path::Path::new(&file).exists());
}

#[test]
fn a_font_file_only_draws_what_the_builtin_font_lacks() {
    // The bundled Liberation Sans Bold, read as a user's font: it comes
    // after the built-in fonts, which have every character of these
    // replays, so it draws nothing and the files are the same.
    let font = "assets/fonts/LiberationSans-Bold.ttf";
    for log in [
        "replays/soleils-2p-round-limit.jsonl",
        "replays/summertime-rulebook-examples.jsonl",
    ] {
        let name = log.trim_start_matches("replays/").replace(".jsonl", "");
        let own = out(&format!("{name}-font.pdf"));
        let builtin = out(&format!("{name}-builtin.pdf"));
        render(&["render", "replay", log, "-o", &own, "--font", font]);
        render(&["render", "replay", log, "-o", &builtin]);
        let fonts = fonts_of(&own);
        assert!(
            fonts.iter().all(|f| f.0.contains("+LiberationSans")),
            "{log}: {fonts:?}"
        );
        assert_eq!(
            std::fs::read(&own).unwrap(),
            std::fs::read(&builtin).unwrap(),
            "{log}"
        );
    }
}

#[test]
fn no_render_source_file_is_over_800_lines() {
    fn walk(dir: &std::path::Path, long: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, long);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                if lines > 800 {
                    long.push(format!("{} ({lines} lines)", path.display()));
                }
            }
        }
    }
    let mut long = Vec::new();
    walk(&common::repo().join("src/render"), &mut long);
    assert!(long.is_empty(), "split these by concern: {long:?}");
}

/// Given the bundled deck's items, when their tiles are drawn, then each
/// kind has a pictogram of its own shape: no two items differ by colour
/// alone (coconut and shell, coral and flower are told apart in grey).
#[test]
fn no_two_item_kinds_differ_by_colour_alone() {
    use sunfold::print::summertime::item_pictogram;
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    let items: Vec<(&str, &str)> = raw
        .items
        .iter()
        .map(|i| (i.id.as_str(), i.name.as_str()))
        .collect();
    let mut seen = std::collections::HashMap::new();
    for mark in item_pictogram::marks(&items) {
        assert!(
            item_pictogram::ITEM_PICTOGRAMS.contains(&mark.id.as_str()),
            "{} has no pictogram",
            mark.id
        );
        let mut drawn = Vec::new();
        item_pictogram::draw(
            &mut Canvas {
                items: &mut drawn,
                frame: Frame::IDENTITY,
            },
            &mark,
            20.0,
            20.0,
            30.0,
        );
        let mut shape = Vec::new();
        outline(&drawn, &mut shape);
        assert!(shape.len() >= 2, "{} is a blob", mark.id);
        if let Some(other) = seen.insert(shape, mark.id.clone()) {
            panic!("{} and {other} have the same shape", mark.id);
        }
    }
    assert_eq!(seen.len(), raw.items.len());
    // Items a deck adds, without a pictogram, get letters no other item
    // shares, even where their names start alike.
    let added = item_pictogram::marks(&[
        ("conch", "Conch"),
        ("coral_red", "Coral"),
        ("pearl", "Pearl"),
    ]);
    let letters: Vec<&str> = added.iter().map(|m| m.letters.as_str()).collect();
    assert_eq!(letters, ["Con", "Cor", "P"]);
}

#[test]
fn an_svg_holds_one_page_and_several_pages_are_a_file_each() {
    // Given cards that print on several pages,
    let dir = common::temp_dir("svg-per-page");
    let out = dir.join("cards.svg");
    let _ = std::fs::remove_file(&out);
    // when they are written as SVG,
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    // then each page is a file of its own, the size of one A4 page.
    assert!(!out.exists(), "the name given is kept for one page only");
    let pages: Vec<String> = (1..)
        .map(|i| dir.join(format!("cards-{i}.svg")))
        .take_while(|p| p.exists())
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(pages.len() > 2, "{} pages", pages.len());
    for page in &pages {
        assert!(
            page.contains("height=\"297mm\" viewBox=\"0 0 210 297\" width=\"210mm\""),
            "{page:.300}"
        );
        assert_eq!(page.matches("<g id=\"page-").count(), 1);
    }
    let last = dir.join(format!("cards-{}.svg", pages.len()));
    assert!(
        stderr.starts_with(&format!(
            "wrote {} to {} ({} pages, ",
            dir.join("cards-1.svg").display(),
            last.display(),
            pages.len()
        )),
        "{stderr}"
    );

    // Given a sheet of one page, its file keeps the name given.
    let one = dir.join("sheet.svg");
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/petit-ete.json",
        "-o",
        &one.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(one.exists() && !dir.join("sheet-1.svg").exists());

    // Standard output takes one page, and refuses several, saying what to do.
    let (code, stdout, stderr) = common::sunfold(&[
        "render",
        "cards",
        "sheet-templates/summertime.json",
        "-o",
        "-",
    ]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    common::snapshots().bind(|| insta::assert_snapshot!("render__several_pages_on_stdout", stderr));
}
