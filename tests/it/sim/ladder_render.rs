//! The drawn ladder of `sunfold ladder -o`: built from a few hand-made
//! games (fast and deterministic), drawn as SVG and PDF, read back for
//! every bot's name and rating, checked for legible text inside the
//! printable margin with no text over another, and for the same bytes on
//! a second run.

use crate::common;

use common::layout::assert_laid_out;

use sunfold::bots::{Bot, VariantInfo};
use sunfold::render::paper::Paper;
use sunfold::render::{pdf, svg};
use sunfold::report::ladder::report;
use sunfold::workbench::{Ladder, LadderGame, ladder};

/// A ladder of `bots` over two-player games: game i seats bots a and b
/// in turn, and the stronger one (later in the list) usually wins.
fn hand_made(bots: &[Bot]) -> Ladder {
    let k = bots.len();
    let mut games = Vec::new();
    for i in 0..24 {
        let (a, b) = (i % k, (i / k + 1 + i) % k);
        let b = if a == b { (b + 1) % k } else { b };
        // Every fifth game the weaker bot wins; some are ties.
        let (sa, sb) = ((a * 10 + i % 7) as i64, (b * 10 + i % 5) as i64);
        let (sa, sb) = if i % 5 == 0 { (sb, sa) } else { (sa, sb) };
        let totals = if i % 11 == 3 {
            vec![sa, sa]
        } else {
            vec![sa, sb]
        };
        games.push(LadderGame {
            seats: if i % 2 == 0 { vec![a, b] } else { vec![b, a] },
            totals: if i % 2 == 0 {
                totals
            } else {
                totals.into_iter().rev().collect()
            },
        });
    }
    let variant = VariantInfo {
        source: "bundled".to_owned(),
        name: "Summertime".to_owned(),
        kind: "deck",
        options: Vec::new(),
    };
    ladder("summertime", "Summertime", 2, 7, variant, bots, &games)
}

fn three() -> Ladder {
    hand_made(&[Bot::Random, Bot::Greedy, Bot::Search(16)])
}

fn eight() -> Ladder {
    let mut bots = vec![Bot::Random, Bot::Greedy];
    bots.extend([2, 4, 8, 16, 24, 32].map(Bot::Search));
    hand_made(&bots)
}

/// A rating as the drawing writes it.
fn rating(value: f64) -> String {
    let r = value.round();
    if r == 0.0 {
        "0".to_owned()
    } else {
        format!("{r:+.0}")
    }
}

fn pdftotext(pdf: &[u8], name: &str) -> String {
    let file = common::temp_dir("ladder-render").join(name);
    std::fs::write(&file, pdf).unwrap();
    let output = std::process::Command::new("pdftotext")
        .args([file.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext (poppler-utils) runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_bot_and_its_rating_is_drawn_in_svg_and_pdf() {
    for (which, ladder) in [("three", three()), ("eight", eight())] {
        assert!(ladder.rungs.len() >= 3);
        let scene = report(&ladder, Paper::A4);
        let svg = svg::to_svg(&scene).unwrap();
        let pdf = pdf::to_pdf(&scene).unwrap();
        let text = pdftotext(&pdf, &format!("{which}.pdf"));
        assert!(svg.contains("Summertime: ladder"));
        assert!(text.contains("Summertime: ladder"), "{text}");
        assert!(
            text.contains("rating: Bradley–Terry, Elo scale, random = 0, 95% bootstrap interval")
        );
        for rung in &ladder.rungs {
            let value = rung.rating.map_or("—".to_owned(), |e| rating(e.estimate));
            for (format, drawn) in [("svg", &svg), ("pdf", &text)] {
                assert!(drawn.contains(&rung.bot), "{which} {format}: {}", rung.bot);
                assert!(
                    drawn.contains(&format!(">{value}<")) || drawn.contains(&format!("{value}\n")),
                    "{which} {format}: {} rated {value}",
                    rung.bot
                );
            }
        }
        assert!(text.contains("Skill against luck"));
        let s = &ladder.skill;
        assert!(text.contains(&format!("{} against {}", s.strongest, s.weakest)));
    }
}

#[test]
fn the_ladder_fits_its_page_on_a4_letter_and_a5() {
    for (which, ladder) in [("three", three()), ("eight", eight())] {
        for paper in [Paper::A4, Paper::Letter, Paper::A5] {
            let scene = report(&ladder, paper);
            let what = format!("{which} bots on {paper:?}");
            assert_laid_out(&scene, &what);
            let (w, h) = paper.size();
            assert!(scene.pages.iter().all(|p| p.width == w && p.height == h));
            // Every ladder here, the gaps between neighbours included, on
            // one page of A4 and of Letter; three bots on one page of A5,
            // eight on two.
            let pages = if which == "eight" && paper == Paper::A5 {
                2
            } else {
                1
            };
            assert_eq!(scene.pages.len(), pages, "{what}");
        }
    }
}

#[test]
fn the_same_ladder_gives_the_same_bytes() {
    let (a, b) = (report(&three(), Paper::A4), report(&three(), Paper::A4));
    assert_eq!(a, b);
    assert_eq!(svg::to_svg(&a).unwrap(), svg::to_svg(&b).unwrap());
    // printpdf numbers the documents of one process into their /ID, so the
    // PDF is compared across two runs of the command, as it is used.
    let mut files = Vec::new();
    for run in ["a", "b"] {
        for ext in ["pdf", "svg"] {
            let file = common::fresh("ladder-render-twice", &format!("{run}.{ext}"));
            let args = [
                "ladder",
                "summertime",
                "--bots",
                "random,greedy",
                "--games",
                "10",
                "--jobs",
                if run == "a" { "1" } else { "2" },
                "-o",
                &file,
            ];
            let (code, _, stderr) = common::sunfold(&args);
            assert_eq!(code, 0, "{stderr}");
            files.push(std::fs::read(&file).unwrap());
        }
    }
    assert!(files[0] == files[2], "the PDF differs between two runs");
    assert!(files[1] == files[3], "the SVG differs between two runs");
}

#[test]
fn the_command_draws_the_ladder_it_prints() {
    for ext in ["pdf", "svg"] {
        let file = common::fresh("ladder-render-cli", &format!("ladder.{ext}"));
        let args = [
            "ladder",
            "summertime",
            "--bots",
            "random,greedy",
            "--games",
            "12",
            "--format",
            "json",
            "-o",
            &file,
        ];
        let (code, stdout, stderr) = common::sunfold(&args);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("wrote "), "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let drawn = match ext {
            "pdf" => pdftotext(&std::fs::read(&file).unwrap(), "cli.pdf"),
            _ => std::fs::read_to_string(&file).unwrap(),
        };
        for rung in json["rungs"].as_array().unwrap() {
            assert!(drawn.contains(rung["bot"].as_str().unwrap()), "{ext}");
            // A bot without a rating has its reason drawn instead.
            let value = match rung["rating"]["estimate"].as_f64() {
                Some(r) => rating(r),
                None => rung["record"].as_str().unwrap().replace('_', " "),
            };
            assert!(drawn.contains(&value), "{ext}: {value}");
        }
    }
}

#[test]
fn the_text_says_what_each_rating_rests_on() {
    // Three players: random never wins outright (a tie aside), greedy and
    // the search bot trade wins.
    let mut games = Vec::new();
    for i in 0..30 {
        let strong = if i % 3 == 0 { [9, 12] } else { [12, 9] };
        let weak = if i == 7 { 9 } else { 3 };
        games.push(LadderGame {
            seats: [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]][i % 3].clone(),
            totals: match i % 3 {
                0 => vec![weak, strong[0], strong[1]],
                1 => vec![strong[0], strong[1], weak],
                _ => vec![strong[1], weak, strong[0]],
            },
        });
    }
    let variant = VariantInfo {
        source: "bundled".to_owned(),
        name: "62 Soleils d'été".to_owned(),
        kind: "sheet",
        options: Vec::new(),
    };
    let bots = [Bot::Random, Bot::Greedy, Bot::Search(16)];
    let three = ladder("soleils", "62 Soleils d'été", 3, 7, variant, &bots, &games);
    assert_eq!(three.rungs[2].rating, None);
    assert_eq!(three.anchor.as_deref(), Some("greedy"));
    let mut text = sunfold::report::ladder::text::text(&three);
    // Two players: the win rate is the matches' share, printed once.
    text.push('\n');
    text.push_str(&sunfold::report::ladder::text::text(&hand_made(&bots[..2])));
    common::snapshots().bind(|| insta::assert_snapshot!("ladder__ratings_rest_on", text));
}

/// Two-player games of random against greedy in which random wins
/// `upsets` of `games`, seats alternating.
fn upsets(games: usize, upsets: usize) -> Ladder {
    let played: Vec<LadderGame> = (0..games)
        .map(|i| {
            let (random, greedy) = if i < upsets { (20, 10) } else { (10, 20) };
            if i % 2 == 0 {
                LadderGame {
                    seats: vec![0, 1],
                    totals: vec![random, greedy],
                }
            } else {
                LadderGame {
                    seats: vec![1, 0],
                    totals: vec![greedy, random],
                }
            }
        })
        .collect();
    let variant = VariantInfo {
        source: "bundled".to_owned(),
        name: "62 Soleils d'été".to_owned(),
        kind: "sheet",
        options: Vec::new(),
    };
    let bots = [Bot::Random, Bot::Greedy];
    ladder("soleils", "62 Soleils d'été", 2, 7, variant, &bots, &played)
}

#[test]
fn a_rating_on_few_wins_or_losses_says_so() {
    let rung = |l: &Ladder, bot: &str| l.rungs.iter().find(|r| r.bot == bot).unwrap().clone();
    // One loss in 300: rated, but on one loss.
    let one = upsets(300, 1);
    let greedy = rung(&one, "greedy");
    assert_eq!((greedy.wins, greedy.losses, greedy.few), (299, 1, true));
    assert!(greedy.rating.is_some());
    let random = rung(&one, "random");
    assert_eq!((random.wins, random.losses, random.few), (1, 299, true));
    assert_eq!(one.anchor.as_deref(), Some("random"));
    // Four of either is few, five is not.
    assert!(rung(&upsets(100, 4), "greedy").few);
    assert!(!rung(&upsets(100, 5), "greedy").few);
    // No upset at all: no rating, which is not "few".
    let none = upsets(100, 0);
    assert_eq!(rung(&none, "greedy").rating, None);
    assert!(!rung(&none, "greedy").few);
    let json: serde_json::Value =
        serde_json::from_str(&sunfold::report::ladder::text::json(&one)).unwrap();
    let first = &json["rungs"][0];
    assert_eq!(first["bot"], "greedy");
    assert_eq!(first["losses"], 1);
    assert_eq!(first["few"], true);
    let mut text = sunfold::report::ladder::text::text(&one);
    text.push('\n');
    text.push_str(&sunfold::report::ladder::text::text(&upsets(100, 5)));
    common::snapshots().bind(|| insta::assert_snapshot!("ladder__few_wins_or_losses", text));
}

/// Given a ladder of three bots, when it is reported, then each two
/// neighbouring rated bots get their rating gap, paired over the same
/// bootstrap refits: against the anchor (0 in every refit) it is the
/// other's rating with the very same interval, and between two others the
/// difference of their ratings, inside an interval narrower than the two
/// ratings' intervals laid end to end.
#[test]
fn neighbours_get_their_paired_rating_gap() {
    for l in [three(), eight()] {
        let rated: Vec<_> = l.rungs.iter().filter(|r| r.rating.is_some()).collect();
        assert_eq!(l.gaps.len(), rated.len() - 1);
        for (gap, pair) in l.gaps.iter().zip(rated.windows(2)) {
            assert_eq!(
                (gap.stronger.as_str(), gap.weaker.as_str()),
                (pair[0].bot.as_str(), pair[1].bot.as_str())
            );
            let (a, b) = (pair[0].rating.unwrap(), pair[1].rating.unwrap());
            let e = gap.rating_gap;
            assert_eq!(e.estimate, a.estimate - b.estimate);
            assert!(
                e.ci95[0] <= e.estimate && e.estimate <= e.ci95[1],
                "{gap:?}"
            );
            if l.anchor.as_deref() == Some(pair[1].bot.as_str()) {
                assert_eq!(e.ci95, a.ci95, "{gap:?}");
            } else {
                let apart = (a.ci95[1] - b.ci95[0]) - (a.ci95[0] - b.ci95[1]);
                assert!(e.ci95[1] - e.ci95[0] <= apart, "{gap:?}");
            }
        }
    }
}

/// Given games in which random scores 10 every time, when the ladder is
/// written as JSON and as text, then every figure with a zero-width
/// interval says why in words: the anchor's rating `"exact": "anchor"`,
/// random's mean score `"exact": "same_in_every_game"`; never a bare
/// zero-width `ci95`.
#[test]
fn a_figure_the_same_in_every_game_says_so_in_json_and_text() {
    let played: Vec<LadderGame> = (0..60)
        .map(|i| {
            let greedy = if i % 7 == 0 { 5 } else { 20 + i as i64 % 4 };
            if i % 2 == 0 {
                LadderGame {
                    seats: vec![0, 1],
                    totals: vec![10, greedy],
                }
            } else {
                LadderGame {
                    seats: vec![1, 0],
                    totals: vec![greedy, 10],
                }
            }
        })
        .collect();
    let variant = VariantInfo {
        source: "bundled".to_owned(),
        name: "62 Soleils d'été".to_owned(),
        kind: "sheet",
        options: Vec::new(),
    };
    let l = ladder(
        "soleils",
        "62 Soleils d'été",
        2,
        7,
        variant,
        &[Bot::Random, Bot::Greedy],
        &played,
    );
    let json: serde_json::Value =
        serde_json::from_str(&sunfold::report::ladder::text::json(&l)).unwrap();
    let random = &json["rungs"][1];
    assert_eq!(random["bot"], "random");
    assert_eq!(random["rating"]["exact"], "anchor", "{random}");
    assert_eq!(
        random["mean_score"]["exact"], "same_in_every_game",
        "{random}"
    );
    assert_eq!(json["gaps"][0]["stronger"], "greedy", "{json}");
    // No object anywhere has a zero-width interval without a word.
    fn bare(v: &serde_json::Value) -> Vec<String> {
        match v {
            serde_json::Value::Object(o) => {
                let mut found: Vec<String> = o.values().flat_map(bare).collect();
                if let Some(ci) = o.get("ci95").and_then(|c| c.as_array())
                    && ci[0] == ci[1]
                    && o.get("exact").is_none()
                {
                    found.push(v.to_string());
                }
                found
            }
            serde_json::Value::Array(a) => a.iter().flat_map(bare).collect(),
            _ => Vec::new(),
        }
    }
    assert_eq!(bare(&json), Vec::<String>::new());
    let text = sunfold::report::ladder::text::text(&l);
    let random = text
        .lines()
        .find(|l| l.trim_start().starts_with("random"))
        .unwrap();
    assert!(random.contains("0 (anchor"), "{text}");
    assert!(random.ends_with("10.00 the same in every game"), "{text}");
    assert!(text.contains("\ngaps between neighbours ("), "{text}");
    assert!(text.contains("\n  greedy − random: +"), "{text}");
}
