//! The drawn report of `sunfold compare -o`: SVG and PDF written through
//! the binary, read back and checked for what a reader needs (the variants,
//! every section, every significant figure), for numbers that are all
//! finite, and for as many PDF pages as SVG pages.

use crate::common;

use ::svg::node::element::tag::Type;
use ::svg::parser::Event;
use lopdf_printpdf::Document;
use serde_json::Value;
use std::path::PathBuf;
use sunfold::bots::{Bot, SoleilsVariant, play};
use sunfold::render::paper::Paper;
use sunfold::render::svg as svg_backend;
use sunfold::report::compare;
use sunfold::stats::Section;
use sunfold::workbench::Tally;

fn out(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sunfold-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `compare` with `args`, written to `file`, with the JSON report on
/// standard output; returns the JSON and the file's bytes.
fn compare(args: &[&str], file: &std::path::Path) -> (Value, Vec<u8>) {
    let file_arg = file.display().to_string();
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    all.extend(["--format", "json", "-o", &file_arg]);
    let (code, stdout, stderr) = common::sunfold(&all);
    assert_eq!(code, 0, "{all:?}: {stderr}");
    assert!(stderr.contains("wrote "), "{stderr}");
    let json = serde_json::from_str(&stdout).expect("the JSON report");
    (json, common::written(file))
}

/// A box on a page: left, top, right, bottom, in millimetres.
type Bounds = (f32, f32, f32, f32);

/// One page of an SVG, read back.
#[derive(Default)]
struct PageDrawn {
    width: f32,
    height: f32,
    /// Each text's box, with the text.
    texts: Vec<(Bounds, String)>,
    /// Each shape's box (but the page's own rectangle).
    shapes: Vec<Bounds>,
}

/// What an SVG says, read back with a parser.
struct Drawn {
    pages: Vec<PageDrawn>,
    /// Every text, and whether it is bold.
    texts: Vec<(String, bool)>,
}

impl Drawn {
    fn has(&self, text: &str) -> bool {
        self.texts.iter().any(|(t, _)| t.contains(text))
    }

    fn has_bold(&self, text: &str) -> bool {
        self.texts.iter().any(|(t, bold)| *bold && t == text)
    }

    fn all_text(&self) -> String {
        let texts: Vec<&str> = self.texts.iter().map(|(t, _)| t.as_str()).collect();
        texts.join("\n")
    }
}

/// Every number of an attribute that holds numbers.
fn numbers(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(['M', 'L', 'C', 'Z', ' ', ','])
        .filter(|s| !s.is_empty())
        .map(|n| n.strip_suffix("mm").unwrap_or(n))
}

/// The attributes that hold numbers.
const NUMERIC: [&str; 13] = [
    "x",
    "y",
    "width",
    "height",
    "cx",
    "cy",
    "r",
    "rx",
    "font-size",
    "textLength",
    "stroke-width",
    "stroke-dasharray",
    "d",
];

/// The box of a text, from its position, size, anchor and (the font's)
/// width: capitals reach 0.72 of the size, descenders 0.21 below.
fn text_bounds(number: impl Fn(&str) -> f32, anchor: Option<&str>) -> Bounds {
    let (x, y, size) = (number("x"), number("y"), number("font-size"));
    let width = number("textLength");
    let left = match anchor {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    (left, y - 0.72 * size, left + width, y + 0.21 * size)
}

/// The box of a rectangle, circle or path.
fn shape_bounds(name: &str, number: impl Fn(&str) -> f32, d: Option<&str>) -> Option<Bounds> {
    match name {
        "rect" => {
            let (x, y) = (number("x"), number("y"));
            Some((x, y, x + number("width"), y + number("height")))
        }
        "circle" => {
            let (x, y, r) = (number("cx"), number("cy"), number("r"));
            Some((x - r, y - r, x + r, y + r))
        }
        "path" => {
            let values: Vec<f32> = numbers(d?).map(|n| n.parse().unwrap()).collect();
            let (mut b, mut points) = ((f32::MAX, f32::MAX, f32::MIN, f32::MIN), 0);
            for point in values.chunks(2) {
                b = (
                    b.0.min(point[0]),
                    b.1.min(point[1]),
                    b.2.max(point[0]),
                    b.3.max(point[1]),
                );
                points += 1;
            }
            (points > 0).then_some(b)
        }
        _ => None,
    }
}

/// Parses the SVG as XML, checks that its tags balance and that every
/// coordinate is a finite number, and collects its pages and texts.
fn read_svg(svg: &str) -> Drawn {
    let mut stack: Vec<String> = Vec::new();
    let mut drawn = Drawn {
        pages: Vec::new(),
        texts: Vec::new(),
    };
    let mut bold = false;
    for event in ::svg::read(svg).unwrap() {
        match event {
            Event::Error(e) => panic!("the SVG does not parse: {e}"),
            Event::Tag(name, kind, attributes) => {
                for (key, value) in &attributes {
                    if !NUMERIC.contains(&key.as_str()) {
                        continue;
                    }
                    for n in numbers(value) {
                        let parsed: f64 = n.parse().unwrap_or_else(|_| {
                            panic!("{name} {key}={:?}: {n:?} is not a number", &**value)
                        });
                        assert!(parsed.is_finite(), "{name} {key}={:?}", &**value);
                    }
                }
                let number =
                    |key: &str| -> f32 { attributes.get(key).map_or(0.0, |v| v.parse().unwrap()) };
                let page = drawn.pages.last_mut();
                match (kind, page) {
                    (Type::Start, _) if name == "g" => {
                        let id = attributes.get("id");
                        if id.is_some_and(|id| id.starts_with("page-")) {
                            drawn.pages.push(PageDrawn::default());
                        }
                        stack.push(name.to_owned());
                    }
                    (Type::Start, page) => {
                        if name == "text" {
                            let weight = attributes.get("font-weight");
                            bold = weight.is_some_and(|w| &**w == "bold");
                            let anchor = attributes.get("text-anchor").map(|a| &**a);
                            let bounds = text_bounds(number, anchor);
                            page.expect("texts on pages")
                                .texts
                                .push((bounds, String::new()));
                        }
                        stack.push(name.to_owned());
                    }
                    (Type::End, _) => {
                        assert_eq!(stack.pop().as_deref(), Some(name), "unbalanced tags")
                    }
                    // The page's own rectangle comes first and gives its size.
                    (Type::Empty, Some(page)) if page.width == 0.0 => {
                        assert_eq!(name, "rect");
                        (page.width, page.height) = (number("width"), number("height"));
                    }
                    (Type::Empty, Some(page)) => {
                        let d = attributes.get("d").map(|d| &**d);
                        page.shapes.extend(shape_bounds(name, number, d));
                    }
                    (Type::Empty, None) => {}
                }
            }
            Event::Text(text) if stack.last().is_some_and(|t| t == "text") => {
                let text = text
                    .trim()
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&");
                let page = drawn.pages.last_mut().expect("texts on pages");
                page.texts.last_mut().expect("a text element").1 = text.clone();
                drawn.texts.push((text, bold));
            }
            _ => {}
        }
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
    drawn
}

/// Every text and shape lies inside the printable margin, and no text
/// overlaps another.
fn assert_laid_out(name: &str, drawn: &Drawn) {
    const MARGIN: f32 = 10.0;
    for (number, page) in drawn.pages.iter().enumerate() {
        let number = number + 1;
        assert!(page.width > 0.0 && page.height > 0.0);
        let inside = |(left, top, right, bottom): Bounds| {
            left >= MARGIN - 0.01
                && right <= page.width - MARGIN + 0.01
                && top >= MARGIN - 0.01
                && bottom <= page.height - MARGIN + 0.01
        };
        for (bounds, text) in &page.texts {
            assert!(
                inside(*bounds),
                "{name}, page {number}: {text:?} at {bounds:?} leaves the margin"
            );
        }
        for bounds in &page.shapes {
            assert!(
                inside(*bounds),
                "{name}, page {number}: a shape at {bounds:?} leaves the margin"
            );
        }
        for (i, (a, text_a)) in page.texts.iter().enumerate() {
            for (b, text_b) in &page.texts[i + 1..] {
                let overlap =
                    a.0 < b.2 - 0.05 && b.0 < a.2 - 0.05 && a.1 < b.3 - 0.05 && b.1 < a.3 - 0.05;
                assert!(
                    !overlap,
                    "{name}, page {number}: {text_a:?} {a:?} overlaps {text_b:?} {b:?}"
                );
            }
        }
    }
}

fn pdf_pages(bytes: &[u8]) -> usize {
    let doc = Document::load_mem(bytes).expect("a readable PDF");
    for (_, id) in doc.get_pages() {
        let content = doc.get_page_content(id);
        assert!(!content.is_empty(), "a page with content");
        let content = String::from_utf8_lossy(&content);
        assert!(!content.contains("NaN"));
        assert_finite(&content);
    }
    doc.get_pages().len()
}

/// Every word that reads as a number ("inf" and "NaN" do) is finite.
fn assert_finite(text: &str) {
    for word in text.split(|c: char| c.is_whitespace() || "()[],%".contains(c)) {
        if let Ok(value) = word.parse::<f64>() {
            assert!(value.is_finite(), "{word:?} in {text:?}");
        }
    }
}

/// The labels of the figures whose difference is significant after Holm's
/// correction.
fn significant_labels(json: &Value) -> Vec<String> {
    let figures = json["figures"].as_array().expect("figures");
    figures
        .iter()
        .filter(|f| json["difference"][f["id"].as_str().unwrap()]["significant"] == true)
        .map(|f| f["label"].as_str().unwrap().to_owned())
        .collect()
}

fn section_titles(json: &Value) -> Vec<&'static str> {
    let all = [
        Section::Score,
        Section::Win,
        Section::Length,
        Section::End,
        Section::Completion,
        Section::Sun,
        Section::Cards,
        Section::Distribution,
    ];
    let present: Vec<String> = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["section"].as_str().unwrap().to_owned())
        .collect();
    all.into_iter()
        .filter(|s| {
            let key = serde_json::to_value(s).unwrap();
            present.iter().any(|p| p == key.as_str().unwrap())
        })
        .map(Section::title)
        .collect()
}

/// Checks one comparison drawn both ways; returns the SVG read back.
fn both_ways(name: &str, args: &[&str]) -> (Value, Drawn) {
    let (json, svg) = compare(args, &out(&format!("{name}.svg")));
    let svg = String::from_utf8(svg).unwrap();
    assert!(!svg.contains("NaN"), "{name}");
    let drawn = read_svg(&svg);
    assert_finite(&drawn.all_text());
    assert_laid_out(name, &drawn);
    let (json_pdf, pdf) = compare(args, &out(&format!("{name}.pdf")));
    assert_eq!(json, json_pdf, "the same seed gives the same report");
    assert!(pdf.starts_with(b"%PDF"));
    assert_eq!(
        pdf_pages(&pdf),
        drawn.pages.len(),
        "{name}: PDF and SVG pages"
    );
    let text = drawn.all_text().to_lowercase();
    for title in section_titles(&json) {
        assert!(text.contains(title), "{name}: section {title:?} missing");
    }
    for label in significant_labels(&json) {
        assert!(
            drawn.has_bold(&label),
            "{name}: the significant {label:?} is not drawn in bold"
        );
    }
    (json, drawn)
}

#[test]
fn a_comparison_of_options_draws_variants_sections_and_significant_rows() {
    let (json, drawn) = both_ways(
        "exact",
        &[
            "soleils",
            "--games",
            "200",
            "--seed",
            "3",
            "--b-option",
            "sun_bonus=exact",
        ],
    );
    assert!(drawn.pages.len() >= 2, "{} pages", drawn.pages.len());
    assert!(drawn.has("62 Soleils d'été: comparison"));
    assert!(drawn.has("sun_bonus=reach_or_pass") && drawn.has("sun_bonus=exact"));
    assert!(drawn.has("B plays sun_bonus=exact instead of reach_or_pass"));
    assert!(drawn.has("Significant differences") && drawn.has("Other differences"));
    // Exact sun bonuses are won far less often: that is significant.
    assert!(!significant_labels(&json).is_empty());
    assert!(drawn.has("200 paired games of 4 players, seed 3"));
}

#[test]
fn a_different_sheet_lists_the_figures_only_one_variant_has() {
    let (json, drawn) = both_ways(
        "sheet",
        &[
            "soleils",
            "--games",
            "200",
            "--b-template",
            "sheet-templates/petit-ete.json",
        ],
    );
    assert!(drawn.has("Petit été") && drawn.has("sheet-templates/petit-ete.json"));
    assert!(drawn.has("Figures only one variant has"));
    assert!(drawn.has("only in A") && drawn.has("only in B"));
    // Every figure only one sheet has is named.
    let figures = json["figures"].as_array().unwrap();
    let single: Vec<&str> = figures
        .iter()
        .filter(|f| json["difference"][f["id"].as_str().unwrap()].is_null())
        .map(|f| f["label"].as_str().unwrap())
        .collect();
    assert!(!single.is_empty());
    for label in single {
        assert!(drawn.has(label), "{label:?}");
    }
}

#[test]
fn each_variant_is_drawn_with_its_own_end_limits() {
    let (_, drawn) = both_ways(
        "ends",
        &[
            "soleils",
            "--games",
            "50",
            "--b-template",
            "tests/templates/valid/ends-sooner.json",
        ],
    );
    assert!(drawn.has("by the sun limit (A 62, B 60)"));
    assert!(drawn.has("by the round limit (A 20, B 18)"));
    assert!(!drawn.has("by the sun limit (62)") && !drawn.has("by the round limit (20)"));
}

#[test]
fn a_variant_against_itself_is_refused_and_nothing_is_drawn() {
    let file = out("self.svg");
    let file_arg = file.display().to_string();
    let (code, stdout, stderr) =
        common::sunfold(&["compare", "soleils", "--games", "200", "-o", &file_arg]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("the same rules"), "{stderr}");
    assert!(
        !file.exists(),
        "no drawing of a comparison that measures nothing"
    );
}

#[test]
fn summertime_and_other_papers() {
    let mild = "tests/templates/valid/deck-mild-penalty.json";
    let (_, drawn) = both_ways(
        "summertime",
        &["summertime", "--games", "200", "--b-deck", mild],
    );
    assert!(drawn.has("Summertime: comparison") && drawn.has("deck \"Summertime\" (bundled)"));
    for paper in ["letter", "a5"] {
        let (_, drawn) = both_ways(
            &format!("exact-{paper}"),
            &[
                "soleils",
                "--games",
                "200",
                "--b-option",
                "sun_bonus=exact",
                "--paper",
                paper,
            ],
        );
        assert!(drawn.pages.len() >= 2);
    }
}

#[test]
fn every_page_number_is_printed() {
    let (_, drawn) = both_ways(
        "numbers",
        &["soleils", "--games", "200", "--b-option", "sun_bonus=exact"],
    );
    for page in 1..=drawn.pages.len() {
        assert!(
            drawn.has(&format!("page {page} of {}", drawn.pages.len())),
            "page {page}"
        );
    }
}

#[test]
fn an_unsupported_output_is_refused_before_any_game() {
    // Played, these games would take many minutes: a command that plays
    // them is killed as hung.
    let (code, stdout, stderr) = common::sunfold_or_hang(&[
        "compare",
        "soleils",
        "--games",
        "500000",
        "-o",
        "report.txt",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("report.txt: expected an output ending in .pdf or .svg"),
        "{stderr}"
    );
    assert!(!common::repo().join("report.txt").exists());
}

#[test]
fn a_report_of_one_variant_draws_its_estimates() {
    // What `simulate` would draw: no B, so no differences.
    let variant = SoleilsVariant::bundled();
    let bots = [Bot::Random];
    let metrics = <sunfold::soleils::Soleils as sunfold::bots::Simulated>::metrics(&variant, 3);
    let mut tally = Tally::new(variant.info(), 3, &bots, metrics);
    for seed in 0..40 {
        tally.add(
            seed,
            &play::<sunfold::soleils::Soleils>(&variant, 3, &bots, seed),
        );
    }
    let report = tally.report("soleils", "62 Soleils d'été", 9);
    assert!(report.b.is_none());
    for paper in [Paper::A4, Paper::A5] {
        let scene = compare::report(&report, paper);
        let svg = svg_backend::to_svg(&scene).expect("printable text");
        let drawn = read_svg(&svg);
        assert_laid_out("one variant", &drawn);
        assert_eq!(drawn.pages.len(), scene.pages.len());
        assert!(drawn.has("62 Soleils d'été: simulation"));
        assert!(drawn.has("Every figure"));
        assert!(!drawn.has("B – A") && !drawn.has("variant B"));
        for row in &report.rows {
            assert!(drawn.has(&row.metric.label), "{}", row.metric.label);
        }
        if paper == Paper::A4 {
            std::fs::write(out("one-variant.svg"), &svg).unwrap();
        }
    }
}

#[test]
fn one_game_and_many_players_still_lay_out() {
    // One game: every interval is the estimate alone.
    both_ways(
        "one-game",
        &["soleils", "--games", "1", "--b-option", "sun_bonus=exact"],
    );
    both_ways(
        "one-summertime",
        &[
            "summertime",
            "--games",
            "1",
            "--b-deck",
            "tests/templates/valid/deck-mild-penalty.json",
        ],
    );
    both_ways(
        "six",
        &[
            "soleils",
            "--games",
            "40",
            "--players",
            "6",
            "--bot",
            "greedy,random",
            "--b-template",
            "sheet-templates/petit-ete.json",
            "--paper",
            "a5",
        ],
    );
}
