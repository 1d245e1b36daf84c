//! Fonts are an argument: documents laid out in different fonts on several
//! threads at once each embed the fonts their layout measured, at the
//! widths it measured them.
//!
//! A document keeps the fonts it was laid out in, and the backends write it
//! in those: no thread carries fonts for another to find. The user fonts
//! here are Liberation Sans Bold read as a font file (always at hand, and
//! wider than the built-in regular face), and DejaVu Sans and Noto Sans CJK
//! where this machine has them; under `CI=true`, where `.ci/run` installs
//! both, a missing one fails.

use crate::common;

use lopdf_printpdf::{Dictionary, Object};
use std::collections::BTreeSet;
use std::sync::{Arc, Barrier};
use sunfold::print::soleils::sheet;
use sunfold::render::paper::{Paper, impose};
use sunfold::render::scene::{
    Anchor, Canvas, Color, Document, Frame, Item, MM_PER_PT, Page, Scene, Weight,
};
use sunfold::render::text::Fonts;
use sunfold::render::{pdf, svg};
use sunfold::soleils::Template;

/// The width the probe text is fitted into, in millimetres: narrower than
/// it is in any of the fonts at its size, so that every layout shrinks it.
const PROBE_WIDTH: f32 = 60.0;
const PROBE_SIZE: f32 = 12.0;

/// One set of fonts, and a name it can print on a sheet.
struct Case {
    label: String,
    fonts: Arc<Fonts>,
    name: &'static str,
    probe: &'static str,
}

fn cases() -> Vec<Case> {
    let mut cases = vec![Case {
        label: "the built-in fonts".into(),
        fonts: Fonts::builtin().clone(),
        name: "Łukasz Żółć",
        probe: "Summertime in Saint-Malo, Σοφία",
    }];
    let bold = common::repo().join("assets/fonts/LiberationSans-Bold.ttf");
    cases.push(Case {
        label: "Liberation Sans Bold as a font file".into(),
        fonts: Fonts::load(&bold).unwrap(),
        name: "Дмитрий",
        probe: "Summertime in Saint-Malo, Σοφία",
    });
    let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    let noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
    for (path, name, probe) in [
        (dejavu, "Ann", "Summertime in Saint-Malo, Дмитрий"),
        (noto, "李雷", "Summertime 在海边 李雷 and 韩梅梅"),
    ] {
        if std::path::Path::new(path).exists() {
            cases.push(Case {
                label: path.to_owned(),
                fonts: Fonts::load(std::path::Path::new(path)).unwrap(),
                name,
                probe,
            });
        } else {
            common::skip(&format!("{path} is not on this machine, not tried"));
        }
    }
    cases
}

fn template() -> Template {
    let path = common::repo().join("sheet-templates/62-soleils-d-ete.json");
    let raw: sunfold::soleils::template::RawTemplate =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    Template::try_from(raw).unwrap()
}

/// A document laid out in the case's fonts: a page with the probe text
/// fitted into [`PROBE_WIDTH`], then a named sheet and a large-print one
/// (whose words wrap, and so paginate, by their widths).
fn document(case: &Case, template: &Template) -> Document {
    let fonts: &Fonts = &case.fonts;
    let mut items = Vec::new();
    Canvas {
        items: &mut items,
        frame: Frame::IDENTITY,
    }
    .fit_text(
        fonts,
        10.0,
        20.0,
        PROBE_SIZE,
        PROBE_WIDTH,
        case.probe,
        Anchor::Start,
        Weight::Regular,
        Color::BLACK,
    );
    let mut pages = vec![Page {
        width: 100.0,
        height: 40.0,
        items,
    }];
    let mut pieces = Vec::new();
    for large in [false, true] {
        let options = sheet::Options {
            name: Some(case.name),
            large,
        };
        pieces.extend(sheet::pages_in(fonts, template, options, None));
    }
    pages.extend(impose(Paper::A4, 1, (sheet::WIDTH, sheet::HEIGHT), pieces));
    let scene = Scene {
        title: format!("in {}", case.label),
        pages,
    };
    Document::new(scene, case.fonts.clone())
}

/// The probe as laid out: its size, after fitting.
fn probe_size(document: &Document) -> f32 {
    match &document.scene.pages[0].items[..] {
        [Item::Text { size, .. }] => *size,
        other => panic!("expected the probe alone on page 1, found {other:?}"),
    }
}

fn resolve<'a>(doc: &'a lopdf_printpdf::Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).map(|(_, o)| o).unwrap_or(object)
}

fn dictionary<'a>(doc: &'a lopdf_printpdf::Document, object: &'a Object) -> &'a Dictionary {
    resolve(doc, object).as_dict().expect("a dictionary")
}

fn number(object: &Object) -> f32 {
    object
        .as_float()
        .unwrap_or_else(|_| object.as_i64().expect("a number") as f32)
}

/// The names of the fonts the PDF embeds, without their subset tags.
fn embedded_fonts(doc: &lopdf_printpdf::Document) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for object in doc.objects.values() {
        let Ok(dict) = object.as_dict() else { continue };
        if dict.get(b"Type").and_then(Object::as_name).ok() != Some(b"Font")
            || dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type0")
        {
            continue;
        }
        let name = String::from_utf8_lossy(dict.get(b"BaseFont").unwrap().as_name().unwrap());
        let (tag, base) = name.split_once('+').expect("a subset tag");
        assert!(
            tag.len() == 6 && tag.chars().all(|c| c.is_ascii_uppercase()),
            "{name}"
        );
        names.insert(base.to_owned());
    }
    names
}

/// The width, in points, that the PDF's own font gives the only text on
/// page 1: the advances of its glyphs in the font's /W array, at the size
/// its Tf sets.
fn probe_width_in_pdf(doc: &lopdf_printpdf::Document) -> f32 {
    let page = *doc.get_pages().get(&1).unwrap();
    let content = lopdf_printpdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
    let fonts = doc.get_page_fonts(page).unwrap();
    let mut font: Option<(&Dictionary, f32)> = None;
    let mut shown = Vec::new();
    for op in &content.operations {
        match op.operator.as_str() {
            "Tf" => {
                let name = op.operands[0].as_name().unwrap();
                font = Some((fonts[name], number(&op.operands[1])));
            }
            "Tj" => shown.push((font.unwrap(), op.operands[0].as_str().unwrap().to_vec())),
            "TJ" => {
                for part in op.operands[0].as_array().unwrap() {
                    if let Ok(bytes) = part.as_str() {
                        shown.push((font.unwrap(), bytes.to_vec()));
                    }
                }
            }
            _ => {}
        }
    }
    assert!(!shown.is_empty(), "no text shown on page 1");
    let mut width = 0.0;
    for ((type0, size), codes) in shown {
        let descendants = resolve(doc, type0.get(b"DescendantFonts").unwrap())
            .as_array()
            .unwrap();
        let cid_font = dictionary(doc, &descendants[0]);
        let default = cid_font.get(b"DW").map_or(1000.0, number);
        let widths = resolve(doc, cid_font.get(b"W").unwrap())
            .as_array()
            .unwrap();
        let advance = |cid: u16| -> f32 {
            let mut i = 0;
            while i < widths.len() {
                let first = number(&widths[i]) as u16;
                match resolve(doc, &widths[i + 1]) {
                    Object::Array(list) => {
                        if cid >= first && usize::from(cid - first) < list.len() {
                            return number(&list[usize::from(cid - first)]);
                        }
                        i += 2;
                    }
                    last => {
                        if (first..=number(last) as u16).contains(&cid) {
                            return number(&widths[i + 2]);
                        }
                        i += 3;
                    }
                }
            }
            default
        };
        for pair in codes.chunks(2) {
            width += advance(u16::from_be_bytes([pair[0], pair[1]])) / 1000.0 * size;
        }
    }
    width
}

/// The PDF with its trailer's /ID blanked: printpdf draws the ID from a
/// counter of the whole process, so two documents written by one process
/// differ there (and only there); a process's first document always gets
/// the same one.
fn without_id(mut bytes: Vec<u8>) -> Vec<u8> {
    let at = bytes
        .windows(5)
        .rposition(|w| w == b"/ID[(")
        .expect("a trailer /ID");
    let mut i = at + 5;
    while bytes[i] != b']' {
        if bytes[i] != b'(' && bytes[i] != b')' {
            bytes[i] = b'-';
        }
        i += 1;
    }
    bytes
}

/// What one thread saw of one case: the fonts it embedded, the probe's
/// width in the PDF's font, the size the layout fitted it to, the SVG's
/// font family and the PDF's bytes.
struct Rendered {
    embedded: BTreeSet<String>,
    pdf_width: f32,
    laid_out: f32,
    family: String,
    bytes: Vec<u8>,
}

fn render(case: &Case, template: &Template) -> Rendered {
    let document = document(case, template);
    let bytes = pdf::to_pdf(&document).unwrap();
    let doc = lopdf_printpdf::Document::load_mem(&bytes).unwrap();
    let svg = svg::to_svg(&document).unwrap();
    let family = svg
        .split("font-family=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .replace("&apos;", "'");
    Rendered {
        embedded: embedded_fonts(&doc),
        pdf_width: probe_width_in_pdf(&doc),
        laid_out: probe_size(&document),
        family,
        bytes: without_id(bytes),
    }
}

#[test]
fn documents_laid_out_in_different_fonts_on_many_threads_each_embed_their_own() {
    let cases = cases();
    let template = template();
    // Each case alone on this thread first: what every thread must match.
    let alone: Vec<Rendered> = cases.iter().map(|case| render(case, &template)).collect();
    // Then every case on two threads at once, three times each, all
    // starting together.
    const COPIES: usize = 2;
    let start = Barrier::new(cases.len() * COPIES);
    let together: Vec<(usize, Vec<Rendered>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..cases.len() * COPIES)
            .map(|n| {
                let which = n % cases.len();
                let (case, template, start) = (&cases[which], &template, &start);
                scope.spawn(move || {
                    start.wait();
                    let runs = (0..3).map(|_| render(case, template)).collect();
                    (which, runs)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (i, case) in cases.iter().enumerate() {
        let expected: BTreeSet<String> = case
            .fonts
            .faces()
            .iter()
            .map(|(_, face)| face.postscript_name.clone())
            .collect();
        let first = &alone[i];
        assert_eq!(first.embedded, expected, "{}", case.label);
        assert_eq!(first.family, case.fonts.css_family, "{}", case.label);
        // The probe was shrunk in the layout's fonts, to the width whose
        // glyph advances the PDF's embedded font gives it.
        assert!(first.laid_out < PROBE_SIZE, "{}: not shrunk", case.label);
        let expected_pt = PROBE_WIDTH / MM_PER_PT;
        assert!(
            (first.pdf_width - expected_pt).abs() < expected_pt * 0.005,
            "{}: the PDF's font sets the probe {} pt wide, the layout fitted it to {expected_pt} pt",
            case.label,
            first.pdf_width
        );
        let on_threads: Vec<&Rendered> = together
            .iter()
            .filter(|(c, _)| *c == i)
            .flat_map(|(_, runs)| runs)
            .collect();
        assert_eq!(on_threads.len(), COPIES * 3);
        for rendered in on_threads {
            assert_eq!(rendered.embedded, expected, "{}", case.label);
            assert_eq!(rendered.laid_out, first.laid_out, "{}", case.label);
            assert!(
                rendered.bytes == first.bytes,
                "{}: a thread wrote other bytes",
                case.label
            );
        }
    }
    // The fonts differ, and so do the layouts measured in them.
    let sizes: BTreeSet<u32> = alone.iter().map(|r| r.laid_out.to_bits()).collect();
    assert_eq!(
        sizes.len(),
        cases.len(),
        "each font fits the probe its own way"
    );
}

#[test]
fn a_bare_scene_is_in_the_builtin_fonts_and_a_document_in_its_own() {
    let template = template();
    let bold = Fonts::load(&common::repo().join("assets/fonts/LiberationSans-Bold.ttf")).unwrap();
    let pages = |fonts: &Fonts| {
        let options = sheet::Options {
            name: Some("Ann"),
            large: true,
        };
        impose(
            Paper::A4,
            1,
            (sheet::WIDTH, sheet::HEIGHT),
            sheet::pages_in(fonts, &template, options, None),
        )
    };
    let scene = |fonts: &Fonts| Scene {
        title: "large print".into(),
        pages: pages(fonts),
    };
    // The legacy entry points draw in the built-in fonts.
    let legacy = Scene {
        title: "large print".into(),
        pages: impose(
            Paper::A4,
            1,
            (sheet::WIDTH, sheet::HEIGHT),
            sheet::pages(
                &template,
                sheet::Options {
                    name: Some("Ann"),
                    large: true,
                },
                None,
            ),
        ),
    };
    assert_eq!(legacy, scene(Fonts::builtin()));
    assert!(
        without_id(pdf::to_pdf(&legacy).unwrap())
            == without_id(
                pdf::to_pdf(&Document::new(legacy.clone(), Fonts::builtin().clone())).unwrap()
            )
    );
    // In a wider font, large print wraps its words otherwise.
    let wide = Document::new(scene(&bold), bold.clone());
    assert_ne!(wide.scene, legacy);
    let bytes = pdf::to_pdf(&wide).unwrap();
    let doc = lopdf_printpdf::Document::load_mem(&bytes).unwrap();
    assert_eq!(
        embedded_fonts(&doc),
        BTreeSet::from(["LiberationSans-Bold".to_owned()])
    );
}

#[test]
fn a_colour_emoji_font_of_bitmaps_is_refused_by_name() {
    let font = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";
    if !std::path::Path::new(font).exists() {
        common::skip("Noto Color Emoji is not installed (fonts-noto-color-emoji)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("sunfold-emoji-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("emoji.pdf");
    // Given a font whose glyphs are colour bitmaps, when a sheet is printed
    // with it, then it is refused before anything is written, naming the
    // font and why: its text would print as nothing.
    let (code, _, stderr) = common::sunfold(&[
        "render",
        "sheet",
        "sheet-templates/62-soleils-d-ete.json",
        "-o",
        file.to_str().unwrap(),
        "--names",
        "Ann \u{1F31E}",
        "--font",
        font,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!file.exists());
    common::snapshots().bind(|| {
        insta::assert_snapshot!("render_fonts__colour_emoji_font", stderr);
    });
}

/// A text's width is measured without shaping its glyphs when it needs
/// no shaping; it is still the shaped line's advance, to the bit, so no
/// layout moves.
#[test]
fn a_width_is_the_advance_of_the_shaped_line_to_the_bit() {
    let fonts = sunfold::render::text::Fonts::builtin();
    for weight in [Weight::Regular, Weight::Bold, Weight::Oblique] {
        for text in [
            "",
            "Rule: every box holds the same number.",
            "62 Soleils d'été, Straße, 5 €",
            "Zoe\u{0308} and Łukasz, Σοφία, Дмитрий",
            "שָׁלוֹם and مرحبا",
            "李雷 with a glyph no face has",
        ] {
            let line = fonts.line(text, weight).advance();
            let width = fonts.width(text, 1.0, weight);
            assert_eq!(width.to_bits(), line.to_bits(), "{text:?} {weight:?}");
        }
    }
}
