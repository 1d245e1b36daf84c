//! The 6 pt floor of everything sunfold prints: every text item of every
//! bundled output (both sheet templates in standard and large print, and
//! compact two to a page and on A5; the cards with and without bleed;
//! every replay in replays/), on A4 and Letter, is 6 pt or more; and what
//! cannot print at 6 pt is refused with its cause.

use crate::common;

/// 6 pt in millimetres, the SVG's unit (with the rounding of its numbers).
const FLOOR_MM: f32 = 6.0 * 25.4 / 72.0 - 0.005;

/// Every text of an SVG document: its size in millimetres and its words.
fn texts(svg: &str) -> Vec<(f32, String)> {
    svg.split("<text ")
        .skip(1)
        .filter_map(|chunk| {
            let (tag, rest) = chunk.split_once('>')?;
            let size = tag.split_once("font-size=\"")?.1.split_once('"')?.0;
            let words = rest.split_once("</text>")?.0.trim().to_owned();
            Some((size.parse().ok()?, words))
        })
        .filter(|(_, words)| !words.is_empty())
        .collect()
}

/// Renders `args` as SVG, every page's file one after the other.
fn svg(args: &[&str]) -> String {
    common::svg_pages("render-floor", args).concat()
}

/// Every bundled output, as the arguments that render it.
fn bundled() -> Vec<Vec<String>> {
    let mut outputs: Vec<Vec<String>> = Vec::new();
    let owned = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for template in [
        "sheet-templates/62-soleils-d-ete.json",
        "sheet-templates/petit-ete.json",
    ] {
        // The compact sheet, alone on A5.
        outputs.push(owned(&["render", "sheet", template, "--paper", "a5"]));
    }
    for paper in ["a4", "letter"] {
        for template in [
            "sheet-templates/62-soleils-d-ete.json",
            "sheet-templates/petit-ete.json",
        ] {
            outputs.push(owned(&["render", "sheet", template, "--paper", paper]));
            outputs.push(owned(&[
                "render",
                "sheet",
                template,
                "--paper",
                paper,
                "--large-print",
            ]));
            // The compact sheet, two to a page.
            outputs.push(owned(&[
                "render",
                "sheet",
                template,
                "--paper",
                paper,
                "--per-page",
                "2",
                "--names",
                "Ann,Bob",
            ]));
        }
        for bleed in ["0", "3"] {
            outputs.push(owned(&[
                "render",
                "cards",
                "sheet-templates/summertime.json",
                "--paper",
                paper,
                "--bleed",
                bleed,
            ]));
        }
        for log in common::files(&common::repo().join("replays"), "jsonl") {
            let log = format!("replays/{}", log.file_name().unwrap().to_str().unwrap());
            outputs.push(owned(&["render", "replay", &log, "--paper", paper]));
        }
    }
    outputs
}

#[test]
fn every_text_of_every_bundled_output_is_at_least_6_pt() {
    let mut below = Vec::new();
    let mut counted = 0;
    for args in bundled() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let texts = texts(&svg(&args));
        assert!(!texts.is_empty(), "{args:?} prints no text");
        counted += texts.len();
        for (size, words) in texts {
            if size < FLOOR_MM {
                below.push(format!(
                    "{args:?}: {words:?} at {:.1} pt",
                    size * 72.0 / 25.4
                ));
            }
        }
    }
    assert!(counted > 10_000, "only {counted} texts read");
    assert!(below.is_empty(), "below 6 pt:\n{}", below.join("\n"));
}

#[test]
fn what_cannot_print_at_6_pt_is_refused_with_its_cause() {
    let dir = std::env::temp_dir().join(format!("sunfold-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("out.pdf").display().to_string();
    // A deck whose picture has a name too long for its chip in the stripe.
    let text =
        std::fs::read_to_string(common::repo().join("sheet-templates/summertime.json")).unwrap();
    let mut deck: serde_json::Value = serde_json::from_str(&text).unwrap();
    deck["pictures"][1]["name"] =
        serde_json::json!("Ocean as far as the eye can see, beyond the reef and the lagoon");
    let long = dir.join("long-names.json");
    std::fs::write(&long, deck.to_string()).unwrap();
    let long = long.display().to_string();
    let mut lines = Vec::new();
    let cases: [&[&str]; 4] = [
        &[
            "replay",
            "replays/soleils-2p-round-limit.jsonl",
            "--paper",
            "a5",
        ],
        &["replay", "replays/soleils-12p.jsonl", "--paper", "a5"],
        &[
            "replay",
            "replays/summertime-rulebook-examples.jsonl",
            "--paper",
            "a5",
        ],
        &["cards", &long],
    ];
    for options in cases {
        let _ = std::fs::remove_file(&file);
        let mut args = vec!["render"];
        args.extend_from_slice(options);
        args.extend(["-o", &file]);
        let (code, _, stderr) = common::sunfold(&args);
        assert_eq!(code, 2, "{options:?}: {stderr}");
        assert!(!std::path::Path::new(&file).exists(), "{options:?} wrote");
        let first = stderr
            .lines()
            .next()
            .unwrap_or_default()
            .replace(&long, "DECK");
        let shown: Vec<&str> = options
            .iter()
            .map(|o| if *o == long { "DECK" } else { o })
            .collect();
        lines.push(format!("{shown:?} exit {code}: {first}"));
    }
    common::snapshots()
        .bind(|| insta::assert_snapshot!("render_floor__refusals", lines.join("\n")));
}
