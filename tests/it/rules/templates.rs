//! `sunfold template check`: the default template passes; broken ones list
//! every problem with its JSON path.

use crate::common;

use sunfold::soleils::template::Template;

#[test]
fn the_default_template_is_valid() {
    let (code, stdout, stderr) =
        common::sunfold(&["template", "check", "sheet-templates/62-soleils-d-ete.json"]);
    assert_eq!(code, 0, "{stderr}");
    common::snapshots().bind(|| insta::assert_snapshot!("template__default", stdout));
}

#[test]
fn every_bundled_template_and_deck_is_valid() {
    let mut checked = 0;
    for path in common::files(&common::repo().join("sheet-templates"), "json") {
        let text = std::fs::read_to_string(&path).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        if value["game"] == "soleils" {
            let raw: sunfold::soleils::template::RawTemplate =
                serde_json::from_value(value).unwrap();
            Template::try_from(raw).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            let raw: sunfold::summertime::deck::RawDeck = serde_json::from_value(value).unwrap();
            sunfold::summertime::Deck::try_from(raw)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn the_default_deck_is_valid_and_holds_the_rulebook_cards() {
    let (code, stdout, stderr) =
        common::sunfold(&["template", "check", "sheet-templates/summertime.json"]);
    assert_eq!(code, 0, "{stderr}");
    common::snapshots().bind(|| insta::assert_snapshot!("template__summertime_deck", stdout));
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let raw: sunfold::summertime::deck::RawDeck = serde_json::from_str(&text).unwrap();
    let has = |picture: &str, points: Option<u8>, multiplier: Option<u8>, needs: &[&str]| {
        raw.cards.iter().any(|c| {
            c.picture == picture
                && c.points == points
                && c.multiplier == multiplier
                && c.needs == needs
        })
    };
    assert!(has("beach", Some(2), None, &[]), "beach 2");
    assert!(
        has("beach", Some(3), None, &[]),
        "beach 3 (the umbrella example)"
    );
    assert!(has("umbrella", None, Some(2), &["beach"]), "umbrella ×2");
    assert!(has("ocean", Some(4), None, &[]), "ocean 4");
    assert!(has("ocean", Some(3), None, &[]), "ocean 3");
    assert!(has("catamaran", None, Some(2), &["ocean"]), "catamaran ×2");
    assert!(has("fish", Some(4), None, &["ocean"]), "fish 4");
    assert!(has("palm_tree", Some(2), None, &["ocean"]), "palm tree 2");
    assert!(
        has("couple", None, Some(2), &["fish", "palm_tree"]),
        "couple ×2"
    );
    for picture in ["swimming_pool", "bar", "cocktail", "deck_chair", "hammock"] {
        assert!(raw.cards.iter().any(|c| c.picture == picture), "{picture}");
    }
    let items: Vec<&str> = raw.items.iter().map(|i| i.id.as_str()).collect();
    assert!(items.contains(&"coconut") && items.contains(&"breadfruit") && items.len() == 5);
    assert!(raw.cards.iter().any(|c| c.picture == "swimming_pool"));
    let pool_price = ["coconut", "coconut", "breadfruit"].map(String::from);
    assert!(
        raw.cards.iter().any(|c| c.cost == pool_price),
        "the pool example's price exists"
    );
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

/// The problems `sunfold::template::file::load` finds in a file, one a line.
fn problems_of(relative: &str) -> String {
    let path = common::repo().join(relative);
    match sunfold::template::file::load(&path) {
        Err(sunfold::template::file::LoadFailure::Problems(problems)) => problems
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => panic!("{relative}: {e:?}"),
        Ok(_) => panic!("{relative}: accepted"),
    }
}

#[test]
fn structural_and_semantic_problems_are_reported_together() {
    // given files with unknown enum values or unknown fields beside problems
    // of their content, when they are checked, then every problem is listed:
    // the unknown values are read as known ones and the checks go on.
    let broken = common::files(&common::repo().join("tests/templates/tolerant"), "json");
    assert!(broken.len() >= 3);
    for path in broken {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let text = problems_of(&format!("tests/templates/tolerant/{name}.json"));
        common::snapshots()
            .bind(|| insta::assert_snapshot!(format!("template__tolerant_{name}"), text));
    }
    let sheet = problems_of("tests/templates/tolerant/sheet-unknown-values.json");
    assert!(sheet.lines().count() > 21, "{sheet}");
    assert!(sheet.contains("zones[1].kind: expected "), "{sheet}");
}

#[test]
fn the_tolerant_check_finds_everything_the_typed_one_did() {
    // Every problem `template check` reports today is among those the
    // tolerant check finds, so that the CLI can switch to it.
    for path in common::files(&common::repo().join("tests/templates"), "json") {
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let relative = format!("tests/templates/{name}.json");
        let (_, _, stderr) = common::sunfold(&["template", "check", &relative]);
        let now = problems_of(&relative);
        let prefix = format!("{relative}: ");
        for line in stderr.lines() {
            let line = line.strip_prefix(&prefix).unwrap();
            if line.ends_with(" problems") || line.ends_with(" problem") {
                continue;
            }
            assert!(now.lines().any(|l| l == line), "{relative}: {line}\n{now}");
        }
    }
    for bundled in common::files(&common::repo().join("sheet-templates"), "json") {
        sunfold::template::file::load(&bundled)
            .unwrap_or_else(|e| panic!("{}: {e:?}", bundled.display()));
    }
}

#[test]
fn a_contradictory_sheet_fails_the_check_but_a_log_on_it_still_loads() {
    // template check refuses it (every_broken_template_reports_all_its_problems
    // pins the messages); a start event embedding it is checked without
    // the contradictions, so a log recorded on it replays as before.
    for name in ["order-cycle", "same-and-apart", "no-value-left"] {
        let text = std::fs::read_to_string(format!("tests/templates/{name}.json")).unwrap();
        let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
        let template = Template::try_from(raw).expect(name);
        assert!(!template.contradictions().is_empty(), "{name}");
    }
    let bundled = Template::try_from(common::default_template()).unwrap();
    assert!(bundled.contradictions().is_empty());
    assert!(bundled.unreachable().is_empty());
}

/// Given a sheet whose zone no values can fill all at once, though each of
/// its boxes alone has values left, or whose zone has more boxes than a
/// game writes, when it is checked, then the flag is the problem, at its
/// JSON path; a log recorded on it still loads.
#[test]
fn a_flag_no_game_can_win_fails_the_check_but_a_log_on_it_still_loads() {
    for (name, path) in [
        ("never-completed", "zones[0].flag"),
        ("zone-too-large", "zones[0].flag"),
    ] {
        let text = std::fs::read_to_string(format!("tests/templates/{name}.json")).unwrap();
        let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
        let template = Template::try_from(raw).expect(name);
        assert!(template.contradictions().is_empty(), "{name}");
        let unreachable = template.unreachable();
        assert_eq!(unreachable.len(), 1, "{name}: {unreachable:?}");
        assert_eq!(unreachable[0].path.to_string(), path);
    }
}

/// Given the bundled sheets, when they are checked, then they are sound
/// and warn of nothing: a writing that follows each zone's rules completes
/// their koinobori often enough. Given a zone that only 1, 2, 3, 4, 5, 6
/// in a row fills, when it is checked, then it is a warning, in the text
/// after "ok" and in the JSON report beside no problems.
#[test]
fn an_improbable_zone_is_a_warning_and_the_sheet_stays_valid() {
    for sheet in ["62-soleils-d-ete.json", "petit-ete.json"] {
        let file = format!("sheet-templates/{sheet}");
        let (code, stdout, stderr) = common::sunfold(&["template", "check", &file]);
        assert_eq!(code, 0, "{stderr}");
        assert!(!stdout.contains("warning"), "{stdout}");
    }
    let file = "tests/templates/improbable/six-in-a-row.json";
    let (code, stdout, stderr) = common::sunfold(&["template", "check", file]);
    assert_eq!(code, 0, "{stderr}");
    let warnings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(": warning: "))
        .collect();
    assert_eq!(warnings.len(), 1, "{stdout}");
    common::snapshots().bind(|| insta::assert_snapshot!("template__improbable_zone", stdout));
    let (code, stdout, _) = common::sunfold(&["template", "check", file, "--format", "json"]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["valid"], true);
    assert_eq!(report["problems"].as_array().unwrap().len(), 0);
    assert_eq!(report["warnings"][0]["path"], "zones[0].flag");
}
