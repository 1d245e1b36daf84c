//! What `template check` accepts, `render sheet` prints: a zone's name
//! long enough to print below 6 pt on its label (the plain name over its
//! boxes) or its flag (the "name: reward" form) is refused by `check`,
//! naming the zone and a length that fits; a name of that length passes
//! `check` and prints on A4 and Letter; and `render` blames the zone at
//! fault, never a neighbour.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;

/// The bundled sheet with zone `zone`'s name set to `name`, written to a
/// file of its own.
fn renamed(zone: usize, name: &str) -> PathBuf {
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/62-soleils-d-ete.json"))
            .unwrap();
    let mut template: Value = serde_json::from_str(&text).unwrap();
    template["zones"][zone]["name"] = Value::from(name);
    let file = common::fresh("zone-names", &format!("zone{zone}-{}.json", name.len()));
    std::fs::write(&file, serde_json::to_string_pretty(&template).unwrap()).unwrap();
    PathBuf::from(file)
}

/// A name of `n` characters, words of five letters.
fn long_name(n: usize) -> String {
    let words = "Sandy dunes under the pines along the quiet shore where gulls call and the tide runs out far";
    let mut name: String = words.chars().cycle().take(n).collect();
    if name.ends_with(' ') {
        name.pop();
        name.push('s');
    }
    name
}

/// `render sheet` of `template` on `paper`: the exit code and standard error.
fn render(template: &std::path::Path, paper: &str) -> (i32, String) {
    let out = common::fresh("zone-names", &format!("{paper}.pdf"));
    let args = [
        "render",
        "sheet",
        template.to_str().unwrap(),
        "--paper",
        paper,
        "-o",
        &out,
    ];
    let (code, _, stderr) = common::sunfold(&args);
    (code, stderr)
}

/// The most characters `check` says fit, from its message.
fn most(message: &str) -> usize {
    let at = message.find("at most ").expect("a length that fits") + "at most ".len();
    message[at..].split(' ').next().unwrap().parse().unwrap()
}

/// Given an 80-character name on the first zone (whose label stands first
/// on its band) and on the third (whose label follows another), when the
/// template is checked, then it is refused, naming the zone and a length
/// that fits; a name of that length passes `check`, and `render sheet`
/// prints it on A4 and Letter; the long name itself, rendered anyway, is
/// refused naming its own zone, never "Beach cabins" or a negative size.
#[test]
fn a_zone_name_check_accepts_is_a_name_render_prints() {
    for zone in [0usize, 2] {
        let ids = ["koinobori", "cabins", "bottles"];
        let long = renamed(zone, &long_name(80));
        let (code, _, stderr) = common::sunfold(&["template", "check", long.to_str().unwrap()]);
        assert_eq!(code, 1, "zone {zone}: {stderr}");
        assert!(stderr.contains(&format!("zones[{zone}].name")), "{stderr}");
        assert!(
            stderr.contains(&format!("zone {:?}", ids[zone])),
            "{stderr}"
        );
        let fits = most(&stderr);
        assert!((10..80).contains(&fits), "{stderr}");
        for paper in ["a4", "letter"] {
            let (code, stderr) = render(&long, paper);
            assert_eq!(code, 2, "{stderr}");
            assert!(
                stderr.contains(&format!("zone {:?}", ids[zone])),
                "{stderr}"
            );
            assert!(!stderr.contains('−') && !stderr.contains("-5"), "{stderr}");
        }
        let json = common::sunfold(&[
            "template",
            "check",
            long.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(json.0, 1);
        let report: Value = serde_json::from_str(&json.1).unwrap();
        assert_eq!(report["valid"], false);

        let short = renamed(zone, &long_name(fits));
        let (code, _, stderr) = common::sunfold(&["template", "check", short.to_str().unwrap()]);
        assert_eq!(code, 0, "zone {zone}, {fits} characters: {stderr}");
        for paper in ["a4", "letter"] {
            let (code, stderr) = render(&short, paper);
            assert_eq!(
                code, 0,
                "zone {zone}, {fits} characters on {paper}: {stderr}"
            );
        }
        // "At most" is the most: one character more is refused.
        let over = renamed(zone, &long_name(fits + 1));
        let (code, _, stderr) = common::sunfold(&["template", "check", over.to_str().unwrap()]);
        assert_eq!(code, 1, "zone {zone}, {} characters: {stderr}", fits + 1);
    }
    let message = {
        let (_, _, stderr) = common::sunfold(&[
            "template",
            "check",
            renamed(0, &long_name(80)).to_str().unwrap(),
        ]);
        stderr
            .lines()
            .map(|l| l.split_once(": ").map_or(l, |(_, rest)| rest))
            .collect::<Vec<_>>()
            .join("\n")
    };
    common::snapshots().bind(|| insta::assert_snapshot!("zone_names__too_long", message));
}
