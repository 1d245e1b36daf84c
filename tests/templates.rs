//! `sunfold template check`: the default template passes; broken ones list
//! every problem with its JSON path.

mod common;

use sunfold::soleils::template::Template;

#[test]
fn the_default_template_is_valid() {
    let (code, stdout, stderr) =
        common::sunfold(&["template", "check", "sheet-templates/62-soleils-d-ete.json"]);
    assert_eq!(code, 0, "{stderr}");
    common::snapshots().bind(|| insta::assert_snapshot!("template__default", stdout));
}

#[test]
fn every_bundled_template_is_valid() {
    for path in common::files(&common::repo().join("sheet-templates"), "json") {
        let text = std::fs::read_to_string(&path).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        if value["game"] != "soleils" {
            continue;
        }
        let raw: sunfold::soleils::template::RawTemplate = serde_json::from_value(value).unwrap();
        Template::try_from(raw).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}

#[test]
fn every_broken_template_reports_all_its_problems() {
    let broken = common::files(&common::repo().join("tests/templates"), "json");
    assert!(broken.len() >= 3);
    for path in broken {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let relative = format!("tests/templates/{name}.json");
        let (code, stdout, stderr) = common::sunfold(&["template", "check", &relative]);
        assert_eq!(code, 1, "{relative}: {stdout}{stderr}");
        common::snapshots().bind(|| insta::assert_snapshot!(format!("template__{name}"), stderr));
    }
}

#[test]
fn the_many_problems_template_reports_each_problem_once() {
    let (_, _, stderr) =
        common::sunfold(&["template", "check", "tests/templates/many-problems.json"]);
    let problems = stderr.lines().count() - 1;
    assert!(
        problems >= 12,
        "only {problems} problems reported:\n{stderr}"
    );
}

#[test]
fn a_missing_template_is_an_io_error() {
    let (code, _, stderr) = common::sunfold(&["template", "check", "nope.json"]);
    assert_eq!(code, 2);
    assert_eq!(stderr, "sunfold: nope.json: no such file\n");
}
