//! A deck's cards and a sheet's boxes as a spreadsheet's rows, safe in any
//! spreadsheet and any locale: a name that a spreadsheet would run as a
//! formula is written as text and read back as it was, for any name; every
//! problem of the rows is given at once, on its own line (CRLF or not) and
//! in the designer's words; and the export is laid out for the program
//! that opens it (`--delimiter`, `--bom`).

use crate::common;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use sunfold::kit::rng::SeededRng;
use sunfold::template::rows::{self, Delimiter, Layout};

fn bundled(name: &str) -> PathBuf {
    common::repo().join("sheet-templates").join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// `sunfold ARGS` with the test's folder left out of every path it prints.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr) = common::sunfold(args);
    let shown = format!("{}/", dir.display());
    (code, stdout.replace(&shown, ""), stderr.replace(&shown, ""))
}

/// The bundled deck's text with its first cards' names replaced, in
/// order, by `names`, written as the import writes them.
fn deck_named(names: &[String]) -> String {
    let text = std::fs::read_to_string(bundled("summertime.json")).unwrap();
    let mut names = names.iter();
    let mut in_cards = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            if line.starts_with("  \"cards\": [") {
                in_cards = true;
            } else if line.starts_with("  ]") {
                in_cards = false;
            }
            if !in_cards || !line.contains("\"id\"") {
                return line.to_owned();
            }
            let Some(name) = names.next() else {
                return line.to_owned();
            };
            let start = line.find("\"name\": ").unwrap() + "\"name\": ".len();
            let end = start + line[start..].find(", \"picture\"").unwrap();
            let name = serde_json::to_string(name).unwrap();
            format!("{}{name}{}", &line[..start], &line[end..])
        })
        .collect();
    lines.join("\n")
}

#[test]
fn a_name_a_spreadsheet_would_run_as_a_formula_is_written_after_an_apostrophe_and_read_back_as_it_was()
 {
    let dir = common::scratch("rows-formula");
    let names = [
        "=HYPERLINK(\"http://x\",\"y\")",
        "+1+2",
        "-2+3",
        "@SUM(A1)",
        "\tTabbed",
        "\rReturned",
        "'Quoted",
        "Beach;=1+1",
        "Beach -2",
    ]
    .map(str::to_owned);
    let deck = dir.join("deck.json");
    let text = deck_named(&names);
    std::fs::write(&deck, &text).unwrap();
    let rows = common::run_ok(&["template", "export", s(&deck), "--csv", "-"]);
    // The first cards' rows, as a spreadsheet opens them: each name a
    // text; the points, numbers, as they were.
    let first: String = rows
        .split_inclusive('\n')
        .take(names.len() + 2)
        .collect::<String>();
    common::snapshots().bind(|| insta::assert_snapshot!("rows__formula_names", first));
    let csv = dir.join("cards.csv");
    std::fs::write(&csv, &rows).unwrap();
    common::run_ok(&["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!(std::fs::read_to_string(&deck).unwrap(), text);
}

/// A name of up to 8 characters, most of them those a spreadsheet or a
/// CSV reader treats apart.
fn any_name(rng: &mut SeededRng) -> String {
    const CHARS: &[char] = &[
        '=', '+', '-', '@', '\t', '\r', '\n', '\'', '"', ',', ';', ' ', '\\', '(', 'a', 'Z', '1',
        'é', 'Ω', '日', '😀',
    ];
    let length = rng.below(9);
    (0..length)
        .map(|_| CHARS[usize::try_from(rng.below(CHARS.len() as u64)).unwrap()])
        .collect()
}

#[test]
fn export_then_import_is_the_same_file_for_any_names_in_any_layout() {
    let mut rng = SeededRng::new(56);
    let layouts = [
        Layout::default(),
        Layout {
            delimiter: Delimiter::Semicolon,
            bom: true,
        },
        Layout {
            delimiter: Delimiter::Tab,
            bom: false,
        },
    ];
    for round in 0..60 {
        let names: Vec<String> = (0..34).map(|_| any_name(&mut rng)).collect();
        let text = deck_named(&names);
        let layout = layouts[round % layouts.len()];
        let (_, count, rows) = rows::export(text.as_bytes(), layout)
            .unwrap_or_else(|problems| panic!("{names:?}: {problems:?}"));
        assert_eq!(count, 34);
        // Read as a spreadsheet reads it: no name's cell starts a formula.
        let written = rows.strip_prefix('\u{feff}').unwrap_or(&rows);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(if layout.delimiter == Delimiter::Comma {
                b','
            } else if layout.delimiter == Delimiter::Semicolon {
                b';'
            } else {
                b'\t'
            })
            .from_reader(written.as_bytes());
        let cells: Vec<String> = reader
            .records()
            .map(|record| record.unwrap()[1].to_owned())
            .collect();
        assert_eq!(cells.len(), names.len(), "{rows}");
        for (cell, name) in cells.iter().zip(&names) {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "{name:?} is written {cell:?}"
            );
        }
        let imported = rows::import(text.as_bytes(), rows.as_bytes())
            .unwrap_or_else(|problems| panic!("{names:?} in {layout:?}: {problems:?}"));
        assert_eq!(imported.text, text, "{names:?} in {layout:?}");
    }
}

#[test]
fn a_pasted_name_loses_the_apostrophe_a_spreadsheet_keeps_and_a_number_stays_a_number() {
    let deck: Value =
        serde_json::from_str(&std::fs::read_to_string(bundled("summertime.json")).unwrap())
            .unwrap();
    let patch = rows::paste(&deck, "id\tname\tpoints\r\nbeach-1\t'=SUM(A1)\t5\r\n").unwrap();
    let patch = serde_json::to_value(&patch).unwrap();
    assert_eq!(patch[1]["value"]["name"], json!("=SUM(A1)"));
    assert_eq!(patch[1]["value"]["points"], json!(5));
    let refused = rows::paste(&deck, "id\tpoints\nbeach-1\t'5\nbeach-2\t-1\n").unwrap_err();
    let shown: Vec<String> = refused.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "line 2: column \"points\": expected a whole number, but found \"'5\"",
            "line 3: column \"points\": expected a whole number, but found \"-1\"",
        ]
    );
}

/// The bundled deck copied into `dir`, and its path.
fn deck_copy(dir: &Path) -> PathBuf {
    let deck = dir.join("deck.json");
    std::fs::copy(bundled("summertime.json"), &deck).unwrap();
    deck
}

#[test]
fn a_header_problem_does_not_hide_the_problems_of_the_rows() {
    let dir = common::scratch("rows-every-problem");
    let deck = deck_copy(&dir);
    let original = std::fs::read(&deck).unwrap();
    let csv = dir.join("cards.csv");
    std::fs::write(
        &csv,
        "id,name,picture,points,multiplier,needs,cost,Colour\n\
         beach-1,Beach 2,beach,2,,,coconut coral coral,red\n\
         beach-2,Beach 2,beach,x,,,coconut flower flower,blue\n\
         beach-3,Beach 3,beach,3,,,,green\n\
         beach-4,Beach 3,lagoon,3,,,coconut coconut shell,\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        std::fs::read(&deck).unwrap(),
        original,
        "the deck is untouched"
    );
    // A header without a required column: each row's own problems still.
    std::fs::write(
        &csv,
        "id,name,points,cost,cost\nbeach-1,Beach 2,two,coconut,coral\n",
    )
    .unwrap();
    let (code, _, missing) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!(code, 1, "{missing}");
    assert_eq!(
        std::fs::read(&deck).unwrap(),
        original,
        "the deck is untouched"
    );
    let shown = format!("{stderr}\n{missing}");
    common::snapshots().bind(|| insta::assert_snapshot!("rows__header_and_rows", shown));
}

#[test]
fn a_problem_is_on_its_own_line_whether_lines_end_in_crlf_or_not_and_after_blank_lines() {
    let dir = common::scratch("rows-crlf");
    let deck = deck_copy(&dir);
    let lines = [
        "id,name,picture,points,multiplier,needs,cost",
        "beach-1,Beach 2,beach,2,,,coconut coral coral",
        "beach-2,Beach 2,beach,2,,,coconut flower flower",
        "beach-3,\"Beach,",
        "the third\",beach,3,,,coconut coconut breadfruit",
        "beach-4,Beach 4,beach,six,,,coconut coconut shell",
        "",
        "beach-5,Beach 5,beach,seven,,,coconut coconut shell",
    ];
    let mut shown = Vec::new();
    for end in ["\n", "\r\n", "\r"] {
        let csv = dir.join("cards.csv");
        std::fs::write(&csv, lines.join(end) + end).unwrap();
        let (code, _, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
        assert_eq!(code, 1, "{stderr}");
        let problems: Vec<&str> = stderr
            .lines()
            .filter(|line| line.contains("whole number"))
            .collect();
        assert_eq!(
            problems,
            [
                "cards.csv:6: column \"points\": expected a whole number, but found \"six\"",
                "cards.csv:8: column \"points\": expected a whole number, but found \"seven\"",
            ],
            "lines ending in {end:?}"
        );
        shown.push(stderr);
    }
    assert_eq!(shown[0], shown[1], "CRLF says the same as LF");
    // Rows pasted in the studio: the same lines.
    let deck: Value =
        serde_json::from_str(&std::fs::read_to_string(bundled("summertime.json")).unwrap())
            .unwrap();
    let pasted = "id\tpoints\r\nbeach-1\t1\r\n\r\nbeach-2\ttwo\r\n";
    let refused = rows::paste(&deck, pasted).unwrap_err();
    assert_eq!(
        refused.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["line 4: column \"points\": expected a whole number, but found \"two\""]
    );
}

#[test]
fn a_cost_of_the_wrong_length_is_said_in_the_designer_s_words_with_its_column() {
    let dir = common::scratch("rows-cost-words");
    let deck = deck_copy(&dir);
    let csv = dir.join("cards.csv");
    std::fs::write(
        &csv,
        "id;name;picture;points;multiplier;needs;cost\n\
         beach-1;Beach 2;beach;2;;;\n\
         beach-2;Beach 2;beach;2;;;coconut\n\
         beach-3;Beach 3;beach;3;;;coconut coconut\n\
         beach-4;Beach 4;beach;4;;;coconut coconut shell coral\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(
            "cards.csv:2: column \"cost\": expected 3 items in cost, but the cell is empty"
        ),
        "{stderr}"
    );
    common::snapshots().bind(|| insta::assert_snapshot!("rows__cost_in_words", stderr));
}

#[test]
fn an_export_for_a_european_excel_has_semicolons_and_a_byte_order_mark_and_imports_back() {
    let dir = common::scratch("rows-layout");
    let sheet = dir.join("sheet.json");
    let original = std::fs::read(bundled("62-soleils-d-ete.json")).unwrap();
    std::fs::write(&sheet, &original).unwrap();
    let csv = dir.join("boxes.csv");
    let comma = common::run_ok(&["template", "export", s(&sheet), "--csv", "-"]);
    for (args, delimiter, bom) in [
        (&["--delimiter", ";", "--bom"][..], ";", true),
        (&["--delimiter", "tab"][..], "\t", false),
        (&["--delimiter", "\t", "--bom"][..], "\t", true),
        (&["--delimiter", ","][..], ",", false),
    ] {
        let mut command = vec!["template", "export", s(&sheet), "--csv", s(&csv)];
        command.extend_from_slice(args);
        common::run_ok(&command);
        let written = std::fs::read_to_string(&csv).unwrap();
        let (marked, text) = match written.strip_prefix('\u{feff}') {
            Some(text) => (true, text),
            None => (false, written.as_str()),
        };
        assert_eq!(marked, bom, "{args:?}");
        assert_eq!(text, comma.replace(',', delimiter), "{args:?}");
        common::run_ok(&["template", "import", s(&csv), "--into", s(&sheet)]);
        assert_eq!(std::fs::read(&sheet).unwrap(), original, "{args:?}");
    }
    let (code, _, stderr) = run(
        &dir,
        &[
            "template",
            "export",
            s(&sheet),
            "--csv",
            s(&csv),
            "--delimiter",
            "|",
        ],
    );
    assert_eq!(code, 2, "{stderr}");
    common::snapshots().bind(|| insta::assert_snapshot!("rows__unknown_delimiter", stderr));
}
