//! Inside every box of every 62 Soleils sheet sunfold prints (blank in
//! standard, compact and large print, and filled in every replay): the
//! crab and the frog stand inside the box, clear of its pearl, and no word
//! or written digit touches them; and the zones' labels on a band stand at
//! least 3 mm apart; and two signs between the same two boxes stand apart.
//! Read from the SVG, in millimetres.

use crate::common;

/// A rectangle `(x0, y0, x1, y1)`.
type Bounds = (f32, f32, f32, f32);

fn attr(tag: &str, name: &str) -> Option<f32> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[start..].split('"').next()?.parse().ok()
}

fn overlap(a: Bounds, b: Bounds) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// One box as drawn: its outline, its pearl `(cx, cy, r)`, its icons'
/// shapes and its texts, with the box's key.
struct Drawn {
    key: String,
    outline: Bounds,
    pearl: (f32, f32, f32),
    icons: Vec<Bounds>,
    texts: Vec<(Bounds, String)>,
}

/// Every box group of an SVG document.
fn boxes(svg: &str) -> Vec<Drawn> {
    let mut found = Vec::new();
    for chunk in svg.split("<g data-key=\"box:").skip(1) {
        let key = chunk.split('"').next().unwrap().to_owned();
        let body = chunk.split("</g>").next().unwrap();
        let mut outline = None;
        let mut pearl = None;
        let mut icons = Vec::new();
        let mut texts = Vec::new();
        for element in body.split('<').skip(1) {
            let tag = element.split('>').next().unwrap();
            let half = attr(tag, "stroke-width").unwrap_or(0.0) / 2.0;
            if tag.starts_with("rect ") {
                let (x, y) = (attr(tag, "x").unwrap(), attr(tag, "y").unwrap());
                let (w, h) = (attr(tag, "width").unwrap(), attr(tag, "height").unwrap());
                // The first is the box; a bottle's neck stands above it.
                outline.get_or_insert((x, y, x + w, y + h));
            } else if tag.starts_with("circle ") {
                let (cx, cy) = (attr(tag, "cx").unwrap(), attr(tag, "cy").unwrap());
                let r = attr(tag, "r").unwrap() + half;
                if pearl.is_none() {
                    pearl = Some((cx, cy, r));
                } else {
                    icons.push((cx - r, cy - r, cx + r, cy + r));
                }
            } else if tag.starts_with("path ") {
                let d = tag
                    .split(" d=\"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                let numbers: Vec<f32> = d
                    .split(|c: char| c.is_ascii_alphabetic() || c == ' ' || c == ',')
                    .filter_map(|n| n.parse().ok())
                    .collect();
                let xs = numbers.iter().step_by(2);
                let ys = numbers.iter().skip(1).step_by(2);
                icons.push((
                    xs.clone().fold(f32::MAX, |a, &b| a.min(b)) - half,
                    ys.clone().fold(f32::MAX, |a, &b| a.min(b)) - half,
                    xs.fold(f32::MIN, |a, &b| a.max(b)) + half,
                    ys.fold(f32::MIN, |a, &b| a.max(b)) + half,
                ));
            } else if tag.starts_with("text ") {
                let words = element.split('>').nth(1).unwrap().trim().to_owned();
                let (x, y) = (attr(tag, "x").unwrap(), attr(tag, "y").unwrap());
                let size = attr(tag, "font-size").unwrap();
                let w = attr(tag, "textLength").unwrap_or(0.0);
                let x0 = if tag.contains("text-anchor=\"middle\"") {
                    x - w / 2.0
                } else if tag.contains("text-anchor=\"end\"") {
                    x - w
                } else {
                    x
                };
                let below = if words.contains(['g', 'j', 'p', 'q', 'y']) {
                    0.2 * size
                } else {
                    0.0
                };
                texts.push(((x0, y - 0.72 * size, x0 + w, y + below), words));
            }
        }
        found.push(Drawn {
            key,
            outline: outline.unwrap(),
            pearl: pearl.unwrap(),
            icons,
            texts,
        });
    }
    found
}

/// A label: where it starts and ends, and its words.
type Label = (f32, f32, String);

/// The zones' labels (bold, 3.3 mm: a sheet at full size) of one page of
/// an SVG by their baseline, each band in order along it: where each
/// starts and ends, and its words.
fn labels(svg: &str) -> Vec<(String, Vec<Label>)> {
    let mut bands: std::collections::BTreeMap<String, Vec<Label>> = Default::default();
    for chunk in svg.split("<text ").skip(1) {
        let tag = chunk.split('>').next().unwrap();
        if !tag.contains("font-size=\"3.3\"") || !tag.contains("font-weight=\"bold\"") {
            continue;
        }
        let words = chunk.split('>').nth(1).unwrap().split('<').next().unwrap();
        let (x, w) = (attr(tag, "x").unwrap(), attr(tag, "textLength").unwrap());
        let y = tag
            .split(" y=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        bands
            .entry(y.to_owned())
            .or_default()
            .push((x, x + w, words.trim().to_owned()));
    }
    bands
        .into_iter()
        .map(|(y, mut labels)| {
            labels.sort_by(|a, b| a.0.total_cmp(&b.0));
            (y, labels)
        })
        .collect()
}

/// What is wrong in the boxes of `svg`.
fn faults(what: &str, svg: &str) -> Vec<String> {
    let mut faults = Vec::new();
    let drawn = boxes(svg);
    assert!(drawn.len() >= 20, "{what}: only {} boxes", drawn.len());
    for b in drawn {
        let (x0, y0, x1, y1) = b.outline;
        for icon in &b.icons {
            if icon.0 < x0 || icon.1 < y0 || icon.2 > x1 || icon.3 > y1 {
                faults.push(format!(
                    "{what}: {}: an icon {icon:?} leaves the box",
                    b.key
                ));
            }
            let (cx, cy, r) = b.pearl;
            let nx = cx.clamp(icon.0, icon.2);
            let ny = cy.clamp(icon.1, icon.3);
            if (nx - cx).powi(2) + (ny - cy).powi(2) < r * r {
                faults.push(format!("{what}: {}: an icon touches the pearl", b.key));
            }
            for (text, words) in &b.texts {
                if overlap(*icon, *text) {
                    faults.push(format!("{what}: {}: {words:?} touches an icon", b.key));
                }
            }
        }
    }
    faults
}

#[test]
fn crabs_and_frogs_stand_inside_their_boxes_clear_of_pearls_words_and_digits() {
    let mut outputs: Vec<Vec<String>> = Vec::new();
    let owned = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for template in [
        "sheet-templates/62-soleils-d-ete.json",
        "sheet-templates/petit-ete.json",
    ] {
        for options in [&[][..], &["--per-page", "2"], &["--large-print"]] {
            let mut args = owned(&["render", "sheet", template]);
            args.extend(owned(options));
            outputs.push(args);
        }
    }
    for log in common::files(&common::repo().join("replays"), "jsonl") {
        let log = format!("replays/{}", log.file_name().unwrap().to_str().unwrap());
        if log.contains("soleils") {
            outputs.push(owned(&["render", "replay", &log]));
        }
    }
    let mut all = Vec::new();
    let mut bands = 0;
    for args in outputs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let svg = common::svg_pages("render-boxes", &args).concat();
        let what = args.join(" ");
        all.extend(faults(&what, &svg));
        for (y, labels) in svg.split("<g id=\"page-").flat_map(labels) {
            bands += 1;
            for pair in labels.windows(2) {
                let ((_, end, a), (start, _, b)) = (&pair[0], &pair[1]);
                if start - end < 2.9 {
                    all.push(format!(
                        "{what}: {a:?} and {b:?} stand {:.1} mm apart at y {y}",
                        start - end
                    ));
                }
            }
        }
    }
    assert!(bands > 10, "only {bands} bands of labels");
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn every_large_print_page_names_its_player_and_its_number() {
    let dir = common::temp_dir("render-large-footer");
    let file = dir.join("large.pdf").display().to_string();
    for template in [
        "sheet-templates/62-soleils-d-ete.json",
        "sheet-templates/petit-ete.json",
    ] {
        let args = [
            "render",
            "sheet",
            template,
            "--large-print",
            "--names",
            "Łucja",
            "-o",
            &file,
        ];
        let (code, _, stderr) = common::sunfold(&args);
        assert_eq!(code, 0, "{stderr}");
        let text = std::process::Command::new("pdftotext")
            .args([&file, "-"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout).into_owned();
        let pages: Vec<&str> = text
            .split('\u{c}')
            .filter(|p| !p.trim().is_empty())
            .collect();
        assert!(pages.len() > 4, "{template}: {} pages", pages.len());
        for (n, page) in pages.iter().enumerate() {
            let number = format!("page {} of {}", n + 1, pages.len());
            assert!(
                page.contains(&number),
                "{template}: no {number:?} in {page}"
            );
            assert!(page.contains("Łucja"), "{template}: page {} unnamed", n + 1);
        }
    }
}

/// The paths of an SVG, each as its points and its stroke's half width.
fn paths(svg: &str) -> Vec<(Vec<(f32, f32)>, f32)> {
    let mut found = Vec::new();
    for chunk in svg.split("<path ").skip(1) {
        let tag = chunk.split('>').next().unwrap();
        let d = tag.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
        let numbers: Vec<f32> = d
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ' || c == ',')
            .filter_map(|n| n.parse().ok())
            .collect();
        let points = numbers.chunks(2).map(|p| (p[0], p[1])).collect();
        found.push((points, attr(tag, "stroke-width").unwrap_or(0.0) / 2.0));
    }
    found
}

/// The bounds of the paths, each widened by its stroke.
fn bounds(paths: &[&(Vec<(f32, f32)>, f32)]) -> Bounds {
    let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (points, half) in paths {
        for &(x, y) in points {
            b = (
                b.0.min(x - half),
                b.1.min(y - half),
                b.2.max(x + half),
                b.3.max(y + half),
            );
        }
    }
    b
}

#[test]
fn two_signs_between_the_same_two_boxes_do_not_overlap() {
    // B1 < B2 and B1 ≠ B2 across, B2 > B3 and B2 ≠ B3 down, each pair's
    // second sign naming its boxes the other way round.
    let template = r#"{
      "format": 1,
      "game": "soleils",
      "name": "Two signs a pair",
      "grid": {"columns": 3, "rows": 3},
      "zones": [
        {"id": "bottles", "name": "Bottles", "kind": "bottles", "flag": {"seashells": 1}}
      ],
      "boxes": [
        {"id": "B1", "pearl": 1, "cell": [0, 0], "zone": "bottles"},
        {"id": "B2", "pearl": 2, "cell": [1, 0], "zone": "bottles"},
        {"id": "B3", "pearl": 3, "cell": [1, 1], "zone": "bottles"}
      ],
      "constraints": [
        {"less": ["B1", "B2"]},
        {"different": ["B2", "B1"]},
        {"greater": ["B2", "B3"]},
        {"different": ["B3", "B2"]}
      ],
      "sun": {"slots": 12, "thresholds": [{"at": 10, "reward": {"seashells": 1}}]},
      "end": {"rounds": 12, "sun_limit": 40}
    }"#;
    let dir = common::temp_dir("render-two-signs");
    let file = dir.join("two-signs.json");
    std::fs::write(&file, template).unwrap();
    let file = file.display().to_string();
    for options in [&[][..], &["--per-page", "2"], &["--large-print"]] {
        let mut args = vec!["render", "sheet", &file];
        args.extend(options);
        let mut checked = 0;
        for page in common::svg_pages("render-two-signs", &args) {
            let drawn = boxes(&page);
            let outline = |id: &str| drawn.iter().find(|b| b.key == id).map(|b| b.outline);
            let (Some(b1), Some(b2), Some(b3)) = (outline("B1"), outline("B2"), outline("B3"))
            else {
                continue;
            };
            let paths = paths(&page);
            // The gap across, between B1 and B2, and the gap down, between
            // B2 and B3.
            for (what, gap) in [
                ("across", (b1.2, b1.1, b2.0, b1.3)),
                ("down", (b2.0, b2.3, b2.2, b3.1)),
            ] {
                let inside: Vec<_> = paths
                    .iter()
                    .filter(|(points, _)| {
                        points
                            .iter()
                            .all(|&(x, y)| x >= gap.0 && x <= gap.2 && y >= gap.1 && y <= gap.3)
                    })
                    .collect();
                // `<` and `>` are one path of three points; `≠` three lines.
                let order: Vec<_> = inside.iter().copied().filter(|p| p.0.len() == 3).collect();
                let differ: Vec<_> = inside.iter().copied().filter(|p| p.0.len() == 2).collect();
                let what = format!("{args:?} {what}");
                assert_eq!((order.len(), differ.len()), (1, 3), "{what}: {inside:?}");
                let (a, b) = (bounds(&order), bounds(&differ));
                assert!(!overlap(a, b), "{what}: the signs overlap: {a:?} and {b:?}");
                for sign in [a, b] {
                    assert!(
                        sign.0 >= gap.0 && sign.1 >= gap.1 && sign.2 <= gap.2 && sign.3 <= gap.3,
                        "{what}: {sign:?} leaves the gap {gap:?}"
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 0, "{args:?}: no page holds the three boxes");
    }
}
