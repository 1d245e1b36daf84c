//! `sunfold template export --csv` and `template import`: a deck's cards and
//! a sheet's boxes as a spreadsheet's rows, out and back in, exactly; and
//! every problem of the rows at once, with its line and column, the file
//! left as it was.

use crate::common;

use std::path::{Path, PathBuf};

const BUNDLED: &[&str] = &["summertime.json", "62-soleils-d-ete.json", "petit-ete.json"];

fn bundled(name: &str) -> PathBuf {
    common::repo().join("sheet-templates").join(name)
}

/// `sunfold ARGS` with the test's folder left out of every path it prints.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let (code, stdout, stderr) = common::sunfold(args);
    let shown = format!("{}/", dir.display());
    (code, stdout.replace(&shown, ""), stderr.replace(&shown, ""))
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn every_bundled_file_exported_and_imported_into_a_copy_is_the_same_file_byte_for_byte() {
    let dir = common::scratch("rows-round-trip");
    for name in BUNDLED {
        let original = std::fs::read(bundled(name)).unwrap();
        let csv = dir.join(format!("{name}.csv"));
        let copy = dir.join(name);
        common::run_ok(&["template", "export", s(&bundled(name)), "--csv", s(&csv)]);
        // The copy's rows emptied, so that the import brings them all back
        // from the CSV alone.
        let field = if name.starts_with("summertime") {
            "cards"
        } else {
            "boxes"
        };
        let value: serde_json::Value = serde_json::from_slice(&original).unwrap();
        let count = value[field].as_array().unwrap().len();
        let text = String::from_utf8(original.clone()).unwrap();
        let start = text.find(&format!("\"{field}\": [")).unwrap() + field.len() + 5;
        let end = start + text[start..].find("\n  ]").unwrap() + 4;
        let emptied = format!("{}]{}", &text[..start], &text[end..]);
        assert!(emptied.contains(&format!("\"{field}\": [],")), "{emptied}");
        std::fs::write(&copy, emptied).unwrap();
        common::run_ok(&["template", "import", s(&csv), "--into", s(&copy)]);
        assert_eq!(
            String::from_utf8(std::fs::read(&copy).unwrap()).unwrap(),
            String::from_utf8(original).unwrap(),
            "{name}: the round trip changed the file"
        );
        let rows = std::fs::read_to_string(&csv).unwrap();
        assert_eq!(
            rows.lines().count(),
            count + 1,
            "{name}: a header and a row each"
        );
    }
}

#[test]
fn a_semicolon_export_with_a_byte_order_mark_and_crlf_imports_as_the_same_file() {
    let dir = common::scratch("rows-european");
    let csv = dir.join("boxes.csv");
    let copy = dir.join("petit-ete.json");
    let original = std::fs::read(bundled("petit-ete.json")).unwrap();
    std::fs::write(&copy, &original).unwrap();
    let rows = common::run_ok(&["template", "export", s(&copy), "--csv", "-"]);
    // As a spreadsheet set to a European locale saves it.
    let european = format!("\u{feff}{}", rows.replace(',', ";").replace('\n', "\r\n"));
    std::fs::write(&csv, european).unwrap();
    let tabbed = dir.join("boxes.tsv");
    std::fs::write(&tabbed, rows.replace(',', "\t")).unwrap();
    for rows in [&csv, &tabbed] {
        common::run_ok(&["template", "import", s(rows), "--into", s(&copy)]);
        assert_eq!(
            std::fs::read(&copy).unwrap(),
            original,
            "{}",
            rows.display()
        );
    }
}

#[test]
fn columns_in_any_order_and_case_import_and_a_spreadsheet_s_trailing_empty_cells_are_ignored() {
    let dir = common::scratch("rows-order");
    let copy = dir.join("petit-ete.json");
    let original = std::fs::read(bundled("petit-ete.json")).unwrap();
    std::fs::write(&copy, &original).unwrap();
    let rows = common::run_ok(&["template", "export", s(&copy), "--csv", "-"]);
    let mut lines = rows.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut reordered = vec![
        header
            .iter()
            .rev()
            .map(|h| h.to_uppercase())
            .collect::<Vec<_>>()
            .join(",")
            + ",,",
    ];
    for line in lines {
        let mut reader = csv_cells(line);
        reader.reverse();
        reordered.push(reader.join(",") + ",,");
    }
    reordered.push(",,,,,,,".to_owned());
    let csv = dir.join("reordered.csv");
    std::fs::write(&csv, reordered.join("\n")).unwrap();
    common::run_ok(&["template", "import", s(&csv), "--into", s(&copy)]);
    assert_eq!(std::fs::read(&copy).unwrap(), original);
}

/// The cells of a line of the export, none of which holds a comma or quote.
fn csv_cells(line: &str) -> Vec<String> {
    assert!(!line.contains('"'), "{line}");
    line.split(',').map(str::to_owned).collect()
}

#[test]
fn every_problem_of_the_rows_is_listed_with_its_line_and_column_and_the_deck_is_untouched() {
    let dir = common::scratch("rows-problems");
    let deck = dir.join("deck.json");
    let original = std::fs::read(bundled("summertime.json")).unwrap();
    std::fs::write(&deck, &original).unwrap();
    let csv = dir.join("cards.csv");
    std::fs::write(
        &csv,
        "id,name,picture,points,multiplier,needs,cost\n\
         beach-1,Beach 2,beach,2,,,coconut coral coral\n\
         beach-2,Beach 2,beach,x,,,coconut flower flower\n\
         beach-3,\"Beach, the third\",beach,3,,,coconut coconut\n\
         ocean-1,Ocean 4,ocean,4,\n\
         ocean-2,Ocean 3,lagoon,3,,ocean,breadfruit shell coral\n\
         ocean-3,Ocean 2,ocean,2,,,breadfruit breadfruit pearl\n\
         ocean-4,Ocean 4,ocean,1000,,,shell shell flower\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert_eq!(
        std::fs::read(&deck).unwrap(),
        original,
        "the deck is untouched"
    );
    common::snapshots().bind(|| insta::assert_snapshot!("rows__import_problems", stderr));

    // Once the rows read, the deck they make is checked as `template check` does.
    std::fs::write(
        &csv,
        "id,name,picture,points,multiplier,needs,cost\n\
         beach-1,Beach 2,beach,2,,,coconut coral coral\n\
         beach-2,Beach 2,lagoon,2,,,coconut flower flower\n\
         beach-3,Beach 3,beach,3,,,coconut coconut pearl\n\
         beach-1,Beach 3,beach,,,,coconut coconut shell\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&deck)]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        std::fs::read(&deck).unwrap(),
        original,
        "the deck is untouched"
    );
    common::snapshots().bind(|| insta::assert_snapshot!("rows__import_checked", stderr));
}

#[test]
fn a_header_that_names_no_column_of_the_table_is_refused_with_the_known_ones() {
    let dir = common::scratch("rows-header");
    let sheet = dir.join("sheet.json");
    let original = std::fs::read(bundled("petit-ete.json")).unwrap();
    std::fs::write(&sheet, &original).unwrap();
    let csv = dir.join("boxes.csv");
    std::fs::write(
        &csv,
        "id;pearl;cell;zone;colour;pearl\nK11;1;0 0;koinobori;red;1\n",
    )
    .unwrap();
    let (code, _, stderr) = run(&dir, &["template", "import", s(&csv), "--into", s(&sheet)]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(std::fs::read(&sheet).unwrap(), original);
    std::fs::write(&csv, "").unwrap();
    let (code, _, empty) = run(&dir, &["template", "import", s(&csv), "--into", s(&sheet)]);
    assert_eq!(code, 1, "{empty}");
    std::fs::write(&csv, b"id,pearl,cell,zone\nK\xff1,1,0 0,koinobori\n").unwrap();
    let (code, _, bytes) = run(&dir, &["template", "import", s(&csv), "--into", s(&sheet)]);
    assert_eq!(code, 1, "{bytes}");
    assert_eq!(std::fs::read(&sheet).unwrap(), original);
    let text = format!("{stderr}\n{empty}\n{bytes}");
    common::snapshots().bind(|| insta::assert_snapshot!("rows__header_problems", text));
}

#[test]
fn a_file_that_is_not_a_template_is_neither_exported_nor_imported_into() {
    let dir = common::scratch("rows-not-a-template");
    let file = dir.join("notes.json");
    std::fs::write(&file, "{\"game\": \"chess\"}\n").unwrap();
    let csv = dir.join("out.csv");
    let (code, _, export) = run(&dir, &["template", "export", s(&file), "--csv", s(&csv)]);
    assert_eq!(code, 1, "{export}");
    assert!(!csv.exists(), "nothing is written");
    std::fs::write(&csv, "id\nA\n").unwrap();
    let (code, _, import) = run(&dir, &["template", "import", s(&csv), "--into", s(&file)]);
    assert_eq!(code, 1, "{import}");
    let (code, _, missing) = run(
        &dir,
        &["template", "import", "nowhere.csv", "--into", s(&file)],
    );
    assert_eq!(code, 2, "{missing}");
    let text = format!("{export}\n{import}\n{missing}");
    common::snapshots().bind(|| insta::assert_snapshot!("rows__not_a_template", text));
}

#[test]
fn the_docs_examples_are_the_exports_of_the_bundled_deck_and_sheet() {
    for (example, name) in [
        ("cards.csv", "summertime.json"),
        ("boxes.csv", "petit-ete.json"),
    ] {
        let exported = common::run_ok(&["template", "export", s(&bundled(name)), "--csv", "-"]);
        let shown =
            std::fs::read_to_string(common::repo().join("docs/examples").join(example)).unwrap();
        assert!(
            exported == shown,
            "docs/examples/{example} is not the export of {name}: run sunfold template export sheet-templates/{name} --csv docs/examples/{example}"
        );
    }
}
