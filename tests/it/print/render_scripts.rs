//! Names in every script, or a refusal: right-to-left
//! names come back from the PDF in logical order, Arabic is joined, names
//! are NFC, fonts added with `--font` fill in what the built-in one lacks,
//! and what cannot be printed, or would print too small, is refused with
//! its cause.
//!
//! The PDFs are read back with poppler's pdftotext and pdffonts and
//! checked with `qpdf --check` (`.ci/run` installs them, and the Noto
//! fonts). A test that needs a Noto font skips, saying so, where the file
//! is absent, except under `CI=true`, where it fails.

use crate::common;

use std::path::Path;
use sunfold::render::scene::Weight;
use sunfold::render::text::Fonts;

const ARABIC: &str = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf";
const CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
/// A font file always at hand: the bundled bold face, read as a user's.
const BOLD: &str = "assets/fonts/LiberationSans-Bold.ttf";

fn out(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sunfold-scripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).display().to_string()
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

fn render(args: &[&str]) {
    let (code, _, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
}

/// Runs a tool on `args`, which must succeed, and returns its output.
fn run(tool: &str, args: &[&str]) -> String {
    let output = std::process::Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool} runs (poppler-utils, qpdf): {e}"));
    assert!(
        output.status.success(),
        "{tool} {args:?} failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// The text of the PDF, as pdftotext reads it back.
fn text_of(file: &str) -> String {
    run("pdftotext", &[file, "-"])
}

/// The fonts of the PDF as pdffonts lists them, each (name, emb, sub),
/// after checking the file with qpdf.
fn checked_fonts(file: &str) -> Vec<(String, String, String)> {
    run("qpdf", &["--check", file]);
    run("pdffonts", &[file])
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

fn has_font(path: &str) -> bool {
    let present = Path::new(path).exists();
    if !present {
        common::skip(&format!(
            "{path} is not on this machine (apt-get install fonts-noto-core fonts-noto-cjk)"
        ));
    }
    present
}

#[test]
fn hebrew_names_come_back_from_the_pdf_in_logical_order() {
    let file = out("hebrew.pdf");
    render(&sheet(&file, &["--names", "שרה,דוד כהן"]));
    let text = text_of(&file);
    for name in ["שרה", "דוד כהן"] {
        assert!(text.contains(name), "{name} not in {text:?}");
    }
    assert!(!text.contains("הרש"), "backwards: {text:?}");
    // Liberation Sans has Hebrew: it is the one font, embedded and subset.
    for (name, emb, sub) in checked_fonts(&file) {
        assert!(name.contains("LiberationSans"), "{name}");
        assert_eq!((emb.as_str(), sub.as_str()), ("yes", "yes"), "{name}");
    }
    // The SVG keeps the text in logical order, for the viewer to lay out.
    let svg = out("hebrew.svg");
    render(&sheet(&svg, &["--names", "שרה"]));
    let svg = String::from_utf8(common::written(std::path::Path::new(&svg))).unwrap();
    assert!(svg.lines().any(|l| l == "שרה"), "{svg}");
}

#[test]
fn right_to_left_text_is_drawn_in_visual_order() {
    // The glyphs of "שרה" go left to right as ה ר ש, and a number in it
    // stays left to right.
    let fonts = Fonts::builtin();
    let line = fonts.line("שרה", Weight::Regular);
    let drawn: String = line
        .runs
        .iter()
        .flat_map(|run| run.glyphs.iter().map(|g| g.text.clone()))
        .collect();
    assert_eq!(drawn, "הרש");
    let line = fonts.line("דוד 12", Weight::Regular);
    let drawn: String = line
        .runs
        .iter()
        .flat_map(|run| run.glyphs.iter().map(|g| g.text.clone()))
        .collect();
    assert_eq!(drawn, "12 דוד");
    // The width is that of the glyphs drawn.
    let width = fonts.width("שרה", 10.0, Weight::Regular);
    let glyphs: f32 = fonts.line("שרה", Weight::Regular).runs[0]
        .glyphs
        .iter()
        .map(|g| g.advance * 10.0)
        .sum();
    assert!(
        width > 0.0 && (width - glyphs).abs() < 1e-4,
        "{width} {glyphs}"
    );
}

#[test]
fn a_decomposed_name_prints_as_one_glyph_per_letter() {
    let decomposed = "Zoe\u{0308}";
    let line = Fonts::builtin().line(decomposed, Weight::Oblique);
    let glyphs: usize = line.runs.iter().map(|run| run.glyphs.len()).sum();
    assert_eq!(glyphs, 3, "{line:?}");
    assert_eq!(
        Fonts::builtin().width(decomposed, 10.0, Weight::Oblique),
        Fonts::builtin().width("Zoë", 10.0, Weight::Oblique)
    );
    let file = out("zoe.pdf");
    render(&sheet(&file, &["--names", decomposed]));
    let text = text_of(&file);
    assert!(text.contains("Zo\u{00EB}"), "{text:?}");
    assert!(!text.contains('\u{0308}'), "{text:?}");
    let svg = out("zoe.svg");
    render(&sheet(&svg, &["--names", decomposed]));
    let svg = String::from_utf8(common::written(std::path::Path::new(&svg))).unwrap();
    assert!(svg.lines().any(|l| l == "Zo\u{00EB}"), "{svg}");
}

#[test]
fn latin_and_chinese_names_print_in_one_run_with_a_font_added() {
    if !has_font(CJK) {
        return;
    }
    let file = out("mixed.pdf");
    render(&sheet(&file, &["--names", "Łukasz,李雷", "--font", CJK]));
    let text = text_of(&file);
    for name in ["Łukasz", "李雷"] {
        assert!(text.contains(name), "{name} not in {text:?}");
    }
    let fonts = checked_fonts(&file);
    assert!(
        fonts
            .iter()
            .any(|(name, ..)| name.contains("LiberationSans")),
        "{fonts:?}"
    );
    assert!(
        fonts.iter().any(|(name, ..)| name.contains("NotoSansCJK")),
        "{fonts:?}"
    );
    for (name, emb, sub) in &fonts {
        assert_eq!((emb.as_str(), sub.as_str()), ("yes", "yes"), "{name}");
    }
}

#[test]
fn arabic_is_shaped_and_joined_with_an_arabic_font() {
    if !has_font(ARABIC) {
        return;
    }
    let fonts = Fonts::with_fallbacks(&[ARABIC]).unwrap();
    let name = "سارة";
    let line = fonts.line(name, Weight::Oblique);
    assert!(line.shaped);
    // Joined: the letters are drawn in their contextual forms, not the
    // isolated forms the character map gives.
    let arabic = &fonts.chain(Weight::Oblique)[1];
    let isolated: Vec<u16> = name.chars().filter_map(|c| arabic.glyph(c)).collect();
    let drawn: Vec<u16> = line.runs[0].glyphs.iter().map(|g| g.id).collect();
    assert_eq!(line.runs.len(), 1);
    assert_eq!(line.runs[0].face, 1, "from the added font");
    assert_ne!(
        drawn.iter().rev().copied().collect::<Vec<_>>(),
        isolated,
        "unjoined"
    );
    let file = out("arabic.pdf");
    render(&sheet(&file, &["--names", "سارة,Ann", "--font", ARABIC]));
    let text = text_of(&file);
    assert!(text.contains(name), "{name} not in {text:?}");
    let fonts = checked_fonts(&file);
    assert!(
        fonts
            .iter()
            .any(|(name, ..)| name.contains("NotoSansArabic")),
        "{fonts:?}"
    );
}

#[test]
fn names_come_from_a_file_one_per_line() {
    let list = out("names.txt");
    std::fs::write(&list, "\u{FEFF}Smith, Ann\n\n  Bob  \nZoe\u{0308}\n").unwrap();
    let file = out("from-file.pdf");
    render(&sheet(&file, &["--names-file", &list]));
    let text = text_of(&file);
    for name in ["Smith, Ann", "Bob", "Zoë"] {
        assert!(text.contains(name), "{name} not in {text:?}");
    }
    let pages = run("pdfinfo", &[&file]);
    assert!(
        pages
            .lines()
            .any(|l| l.starts_with("Pages:") && l.ends_with(" 3")),
        "{pages}"
    );
}

/// The first line of standard error, and the exit code, of a run that
/// must write nothing.
fn refused(file: &str, args: &[&str]) -> String {
    let _ = std::fs::remove_file(file);
    let (code, _, stderr) = common::sunfold(args);
    assert_ne!(code, 0, "{args:?}");
    assert!(!Path::new(file).exists(), "{args:?} wrote {file}");
    let dir = Path::new(&out("x")).parent().unwrap().display().to_string();
    let first = stderr
        .lines()
        .next()
        .unwrap_or_default()
        .replace(&dir, "$DIR");
    format!("exit {code}: {first}")
}

#[test]
fn what_cannot_print_is_refused_with_its_cause() {
    let file = out("refused.pdf");
    let svg = out("refused.svg");
    let missing = out("no-such-names.txt");
    let empty = out("empty-names.txt");
    std::fs::write(&empty, "\n  \n").unwrap();
    let long = "Maximilian Alexander Bartholomew von Hohenzollern-Sigmaringen the Younger";
    // Long enough to shrink below 6 pt in the missing glyph's width.
    let chinese = "李雷".repeat(30);
    let mut lines = Vec::new();
    // The machine's installed fonts left out, as on a machine without
    // Arabic or Chinese fonts.
    let alone = "--no-system-fonts";
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("arabic, pdf", sheet(&file, &["--names", "سارة", alone])),
        ("arabic, svg", sheet(&svg, &["--names", "Ann,سارة", alone])),
        ("a long name", sheet(&file, &["--names", long])),
        (
            "long chinese without a font",
            sheet(&file, &["--names", &chinese, alone]),
        ),
        (
            "a font file that lacks it too",
            sheet(&file, &["--names", "李雷", "--font", BOLD, alone]),
        ),
        (
            "two font files that lack it too",
            sheet(
                &file,
                &["--names", "李雷", "--font", BOLD, "--font", BOLD, alone],
            ),
        ),
        (
            "names file missing",
            sheet(&file, &["--names-file", &missing]),
        ),
        ("names file empty", sheet(&file, &["--names-file", &empty])),
    ];
    for (label, args) in &cases {
        let target = if label.contains("svg") { &svg } else { &file };
        lines.push(format!("{label}: {}", refused(target, args)));
    }
    // Both --names and --names-file: clap refuses the pair.
    let both = refused(
        &file,
        &sheet(&file, &["--names", "Ann", "--names-file", &empty]),
    );
    assert!(both.starts_with("exit 2: error: the argument"), "{both}");
    common::snapshots()
        .bind(|| insta::assert_snapshot!("render_scripts__refusals", lines.join("\n")));
}

#[test]
fn a_long_name_in_an_added_font_names_that_font() {
    if !has_font(CJK) {
        return;
    }
    let file = out("long-cjk.pdf");
    // The shortest run of Chinese that the name line cannot hold at 6 pt.
    for n in (10..80).step_by(2) {
        let name = "李".repeat(n);
        let (code, _, stderr) = common::sunfold(&sheet(&file, &["--names", &name, "--font", CJK]));
        if code == 0 {
            continue;
        }
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("name too long: at most"), "{stderr}");
        assert!(stderr.contains("Noto Sans CJK"), "{stderr}");
        return;
    }
    panic!("no name was too long");
}

#[test]
fn text_shrunk_by_an_added_fonts_widths_names_that_font_not_the_paper() {
    if !has_font(CJK) {
        return;
    }
    // A sheet whose title, in Chinese, fits its place only below 6 pt in
    // Noto Sans CJK's full-width glyphs.
    let mut template: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::repo().join("sheet-templates/62-soleils-d-ete.json"))
            .unwrap(),
    )
    .unwrap();
    template["name"] = "夏天的太阳".repeat(12).into();
    let path = out("chinese-title.json");
    std::fs::write(&path, template.to_string()).unwrap();
    let file = out("chinese-title.pdf");
    let message = refused(
        &file,
        &["render", "sheet", &path, "-o", &file, "--font", CJK],
    );
    common::snapshots()
        .bind(|| insta::assert_snapshot!("render_scripts__shrunk_by_a_font", message));
}

#[test]
fn vowelled_and_conjunct_names_copy_back_from_the_pdf_as_typed() {
    // Given names whose glyphs are not their characters one for one:
    // Hebrew with niqqud, vowelled Arabic, and Devanagari with a conjunct
    // and a vowel sign drawn before its consonant,
    const DEVANAGARI: &str = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf";
    if !has_font(ARABIC) || !has_font(DEVANAGARI) {
        return;
    }
    let names = ["שָׂרָה", "سَارَة", "क्षिति", "दीप्ति"];
    let file = out("copy-back.pdf");
    let all = names.join(",");
    // when they are printed,
    render(&sheet(
        &file,
        &["--names", &all, "--font", ARABIC, "--font", DEVANAGARI],
    ));
    // then the text copied out of the PDF is each name as typed.
    let text = text_of(&file);
    for name in names {
        assert!(text.contains(name), "{name} not in {text:?}");
    }
}

/// `text` without the invisible direction marks a reader adds around
/// right-to-left text it copies (U+202A–U+202C) or a PDF gives it to
/// read by (U+200E, U+200F).
fn without_direction_marks(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202C}'))
        .collect()
}

#[test]
fn names_mixing_directions_copy_back_from_the_pdf_as_typed() {
    // Given names with right-to-left letters beside a number, brackets,
    // Latin letters and a final combining mark,
    let names = ["שָׂרָה 2", "Ann (שָׂרָה)", "דוד כהן 12", "Bob שרה Ann", "שָׂרָהּ"];
    let file = out("mixed-directions.pdf");
    // when they are printed, one name a page,
    render(&sheet(&file, &["--names", &names.join(",")]));
    // then each page's text, read back, holds its name as typed.
    for (page, name) in names.iter().enumerate() {
        let page = (page + 1).to_string();
        let text = run("pdftotext", &["-f", &page, "-l", &page, &file, "-"]);
        let text = without_direction_marks(&text);
        assert!(
            text.lines().any(|line| line == *name),
            "{name} not a line of page {page}: {text:?}"
        );
    }
}

/// Given a number before a right-to-left name, as a join slip writes a
/// seat ("3. שָׂרָה"), when it is shaped and printed, then it is set as a
/// browser sets it: in a left-to-right line, the number's run on the left
/// and the name's letters shaped and placed right to left after it; the
/// PDF reads back as typed and the SVG holds the text in logical order.
#[test]
fn a_number_before_a_right_to_left_name_stays_on_its_left() {
    let name = "3. שָׂרָה";
    let line = Fonts::builtin().line(name, Weight::Regular);
    assert!(line.shaped);
    assert_eq!(line.runs[0].text, "3. ", "{line:?}");
    let hebrew = &line.runs[1];
    assert!(hebrew.text.starts_with('ש'), "{line:?}");
    // Right to left: the glyph drawn leftmost is the last letter's, the
    // first letter's (ש) is drawn last.
    let clusters: Vec<usize> = hebrew.glyphs.iter().map(|g| g.cluster).collect();
    assert!(clusters.windows(2).all(|w| w[0] >= w[1]), "{clusters:?}");
    assert_eq!(clusters.last(), Some(&0));

    let file = out("number-before-hebrew.pdf");
    render(&sheet(&file, &["--names", name]));
    let text = without_direction_marks(&run("pdftotext", &[&file, "-"]));
    assert!(
        text.lines().any(|l| l == name),
        "{name} not a line: {text:?}"
    );
    let svg = out("number-before-hebrew.svg");
    render(&sheet(&svg, &["--names", name]));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    let nfc = sunfold::render::text::shape::nfc(name);
    assert!(drawn.contains(&*nfc), "{nfc} not in the SVG");
}
