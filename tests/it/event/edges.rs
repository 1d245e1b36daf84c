//! The organiser's edges, through the built binary: names in any script
//! on every event paper (in the machine's installed fonts, or the fonts
//! given), text standings aligned by display width, one definition of the
//! draw, arrivals and byes refused in the organiser's words, a result
//! attached from a copy, and what each command's exit codes mean.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};

const CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("edges-{name}"))
}

use super::organiser::{refusal, s};
use common::run_ok as run;

/// The standings of `event` as JSON.
fn standings_json(event: &Path) -> Value {
    let json = run(&["event", "standings", s(event), "--format", "json"]);
    serde_json::from_str(&json).unwrap()
}

/// A new event of 62 Soleils for the players `names` (one a line) in
/// `dir`, with `extra` arguments: its path.
fn new_event(dir: &Path, names: &str, extra: &[&str]) -> PathBuf {
    let players = dir.join("players.txt");
    std::fs::write(&players, names).unwrap();
    let event = dir.join("e.jsonl");
    let mut args = vec!["event", "new", s(&event), "--game", "soleils", "--force"];
    args.extend(["--players-file", s(&players), "--seed", "1"]);
    args.extend(extra);
    run(&args);
    event
}

/// Names in five scripts, one with an emoji.
const WORLD: &str = "Ann\n李雷\nBob\nשָׂרָה\nMia 😀\nZoë\n";

/// An event of the `WORLD` players, its one round seated and played.
fn played_world(dir: &Path) -> PathBuf {
    let event = new_event(dir, WORLD, &["--rounds", "1", "--table-size", "3"]);
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event)]);
    event
}

fn poppler(tool: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(tool).args(args).output();
    match out {
        Ok(out) => String::from_utf8_lossy(&out.stdout).into_owned(),
        Err(e) => {
            common::skip(&format!("{tool}: {e}"));
            String::new()
        }
    }
}

#[test]
fn names_in_any_script_print_on_every_event_paper_in_the_installed_fonts() {
    if !Path::new(CJK).exists() {
        return common::skip("fonts-noto-cjk is not installed");
    }
    // Given an event whose players' names are in Latin, Chinese, Hebrew
    // and an emoji,
    let dir = scratch("world");
    let event = played_world(&dir);
    // when its standings and its round's papers are drawn without a font
    // given, as PDF and as SVG,
    for (verb, out) in [
        ("standings", "standings.pdf"),
        ("standings", "standings.svg"),
        ("print", "round.pdf"),
        ("print", "round.svg"),
    ] {
        let out = dir.join(out);
        let (code, _, err) = common::sunfold(&["event", verb, s(&event), "-o", s(&out)]);
        // then each is written, from the machine's fonts,
        assert_eq!(code, 0, "event {verb}: {err}");
    }
    // and the PDFs hold every name, with each font that draws one
    // embedded and subset, and no other.
    for pdf in ["standings.pdf", "round.pdf"] {
        let pdf = dir.join(pdf);
        let text = poppler("pdftotext", &[s(&pdf), "-"]);
        for name in ["Ann", "李雷", "שָׂרָה", "Zoë"] {
            assert!(text.contains(name), "{name} in {pdf:?}: {text}");
        }
        let fonts = poppler("pdffonts", &[s(&pdf)]);
        assert!(fonts.contains("NotoSansCJK"), "{fonts}");
        assert!(fonts.contains("LiberationSans"), "{fonts}");
        assert!(!fonts.contains("Serif"), "{fonts}");
    }
    // Without the installed fonts, a name the built-in font lacks is
    // refused, naming the flag that adds one; with that flag, it prints.
    let out = dir.join("alone.pdf");
    let alone = ["event", "standings", s(&event), "-o", s(&out)];
    let refused = refusal(&[&alone[..], &["--no-system-fonts"][..]].concat(), &dir);
    assert!(!out.exists(), "nothing is written");
    let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    run(&[
        &alone[..],
        &["--no-system-fonts", "--font", CJK, "--font", dejavu][..],
    ]
    .concat());
    // A character no font has, given or installed, is refused by name.
    let odd = dir.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    let event = new_event(&odd, "Ann\nBob \u{10FFFD}\n", &["--rounds", "1"]);
    run(&["event", "seat", s(&event)]);
    let nowhere = refusal(&["event", "print", s(&event), "-o", s(&out)], &odd);
    common::snapshots().bind(|| {
        insta::assert_snapshot!(
            "edges__missing_glyph",
            format!("without the installed fonts: {refused}in no font: {nowhere}")
        );
    });
}

#[test]
fn a_room_starts_with_its_slips_in_any_script_and_the_board_names_a_missing_glyph() {
    use std::io::BufRead;
    if !Path::new(CJK).exists() {
        return common::skip("fonts-noto-cjk is not installed");
    }
    let dir = scratch("room");
    let event = new_event(&dir, WORLD, &["--rounds", "1", "--table-size", "3"]);
    run(&["event", "seat", s(&event)]);
    // Given a seated round of names in several scripts, the room starts
    // and writes the join slips.
    let slips = dir.join("slips.pdf");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(["serve", "--event", s(&event), "--listen", "127.0.0.1:0"])
        .args(["--format", "json", "--links", s(&slips)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(first.starts_with('{'), "the room started: {first}{err}");
    let text = poppler("pdftotext", &[s(&slips), "-"]);
    assert!(text.contains("李雷"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boards_join_slips_name_a_glyph_no_font_has_and_never_answer_500() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use http_body_util::BodyExt;
    use sunfold::render::text::installed::FontSource;
    use tower::ServiceExt;
    let dir = scratch("board");
    let event = new_event(&dir, "Ann\nBob \u{10FFFD}\nCid\n", &["--rounds", "1"]);
    run(&["event", "seat", s(&event)]);
    let tokens = sunfold::serve::tokens::Tokens::new(&[]).unwrap();
    let board = tokens.referee.clone();
    let fonts = FontSource::with_installed(
        sunfold::render::text::Fonts::builtin().clone(),
        fontdb::Database::new,
    );
    let hosting = sunfold::serve::room::Hosting {
        fonts,
        ..Default::default()
    };
    let router = sunfold::serve::room::app_with(
        event.clone(),
        sunfold::event::EventGame::Soleils,
        tokens,
        "http://10.0.0.1:8062/".to_owned(),
        hosting,
        std::sync::Arc::new(|_: String| {}),
    );
    let request = Request::get("/api/slips.pdf")
        .header(header::AUTHORIZATION, format!("Bearer {board}"))
        .body(Body::empty())
        .unwrap();
    let answer = router.oneshot(request).await.unwrap();
    let status = answer.status();
    let body = answer.into_body().collect().await.unwrap().to_bytes();
    let body = String::from_utf8_lossy(&body).replace(s(&dir), "DIR");
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    common::snapshots().bind(|| insta::assert_snapshot!("edges__slips_refused", body));
}

#[test]
fn text_standings_line_up_names_in_any_script() {
    let dir = scratch("aligned");
    let event = played_world(&dir);
    let text = run(&["event", "standings", s(&event)]);
    // Every column after the name is right-aligned to a fixed width, so
    // the rows line up on a terminal when each row, the heading's too,
    // is as wide as the others there: the names padded by display width
    // (Chinese and emoji two columns a character, marks none), not by
    // code points.
    let widths: Vec<usize> = (text.lines().skip(1))
        .map(|row| unicode_width::UnicodeWidthStr::width(row.trim_end()))
        .collect();
    assert!(
        widths.windows(2).all(|w| w[0] == w[1]),
        "{widths:?}\n{text}"
    );
}

#[test]
fn the_drawn_standings_show_the_draw_that_the_text_and_the_json_show() {
    let dir = scratch("draw");
    let event = played_world(&dir);
    let json = standings_json(&event);
    let text = run(&["event", "standings", s(&event)]);
    let log = sunfold::event::EventLog::open(&event).unwrap();
    let standings = sunfold::event::standings(&log.state);
    let fonts = sunfold::render::text::Fonts::builtin();
    let drawn = sunfold::handout::standings::standings(fonts, &standings, "e");
    let mut texts = Vec::new();
    for page in &drawn.scene.pages {
        common::layout::texts(&page.items, &mut texts);
    }
    let texts: Vec<String> = texts.into_iter().map(|(_, t)| t).collect();
    for row in json["rows"].as_array().unwrap() {
        let draw = row["draw"].as_u64().unwrap().to_string();
        assert!(texts.contains(&draw), "the drawing shows {draw}: {texts:?}");
        assert!(text.contains(&draw), "the text shows {draw}: {text}");
    }
    common::layout::assert_laid_out(&drawn.scene, "the standings");
}

#[test]
fn an_arrival_with_no_round_left_and_a_bye_for_a_dropped_player_are_refused_in_words() {
    let dir = scratch("late");
    let event = new_event(&dir, "Ann\nBob\nCid\nDee\nLeo\n", &["--rounds", "2"]);
    run(&["event", "drop", s(&event), "Leo"]);
    // Given Leo dropped, a seating by hand that gives him a bye is refused
    // as his drop, not as a seating that misses a player.
    let bye = refusal(
        &[
            "event",
            "seat",
            s(&event),
            "--tables",
            "Ann,Bob;Cid,Dee",
            "--bye",
            "Leo",
        ],
        &dir,
    );
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event)]);
    run(&["event", "seat", s(&event)]);
    // Once the last round is seated, an arrival has no round to play.
    let before = std::fs::read(&event).unwrap();
    let late = refusal(&["event", "arrive", s(&event), "Zed"], &dir);
    assert_eq!(std::fs::read(&event).unwrap(), before, "nothing written");
    common::snapshots().bind(|| {
        insta::assert_snapshot!("edges__late", format!("bye: {bye}arrive: {late}"));
    });
}

#[test]
fn a_62_soleils_bye_is_worth_a_win_as_the_docs_say() {
    let dir = scratch("bye");
    let event = new_event(&dir, "Ann\nBob\nCid\nDee\nEve\n", &["--rounds", "1"]);
    run(&[
        "event",
        "seat",
        s(&event),
        "--tables",
        "Ann,Bob;Cid,Dee",
        "--bye",
        "Eve",
    ]);
    run(&["event", "play", s(&event)]);
    let json = standings_json(&event);
    let eve = (json["rows"].as_array().unwrap().iter())
        .find(|r| r["name"] == "Eve")
        .unwrap();
    assert_eq!(
        (
            eve["points"].as_f64(),
            eve["score"].as_i64(),
            eve["played"].as_u64()
        ),
        (Some(6.0), Some(0), Some(0))
    );
    let docs = std::fs::read_to_string(common::repo().join("docs/events.md")).unwrap();
    let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(docs.contains("so 6 in a 62 Soleils event at the default 6,5,3,1,0"));
    let table = std::fs::read_to_string(common::repo().join("docs/table.md")).unwrap();
    assert!(
        table.contains("| `GET /api/room`"),
        "the board's API is documented"
    );
}

#[test]
fn a_result_attached_from_a_copy_is_copied_to_its_table_and_verifies() {
    let dir = scratch("copy");
    let event = new_event(&dir, "Ann\nBob\nCid\n", &["--rounds", "1"]);
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event)]);
    let table = dir.join("e.d/round-1/table-1.jsonl");
    let played = std::fs::read(&table).unwrap();
    // Given the table's log copied elsewhere (the referee's copy), and the
    // file at the table's path left with its start line alone,
    let copy = dir.join("elsewhere.jsonl");
    std::fs::write(&copy, &played).unwrap();
    let text = String::from_utf8(played.clone()).unwrap();
    let start = format!("{}\n", text.lines().next().unwrap());
    std::fs::write(&table, &start).unwrap();
    // when it is attached as a correction,
    let said = run(&[
        "event",
        "result",
        s(&event),
        "--table",
        "1",
        s(&copy),
        "--correct",
        "--reason",
        "the referee's copy",
    ]);
    // then it is copied to the table's path, the log it held kept beside
    // it, and the event verifies.
    assert_eq!(std::fs::read(&table).unwrap(), played);
    let kept = dir.join("e.d/round-1/table-1.jsonl.replaced-1");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), start);
    run(&["event", "verify", s(&event)]);
    let (code, _, warned) = common::sunfold(&["event", "standings", s(&event)]);
    assert_eq!((code, warned.as_str()), (0, ""));
    common::snapshots().bind(|| {
        insta::assert_snapshot!("edges__copied", said.replace(s(&dir), "DIR"));
    });
}

#[test]
fn each_commands_help_says_what_its_exit_codes_mean_for_it() {
    let mut said = Vec::new();
    for command in [
        &["simulate"][..],
        &["ladder"][..],
        &["serve"][..],
        &["event", "verify"][..],
        &["event", "print"][..],
        &["render", "sheet"][..],
        &["template", "import"][..],
        &["repair"][..],
        &["replay"][..],
    ] {
        let help = run(&[command, &["--help"][..]].concat());
        let codes = help.split("Exit codes:").nth(1).unwrap_or_default();
        assert!(!codes.is_empty(), "{command:?} says its exit codes");
        let reads_logs = matches!(command[0], "replay" | "repair");
        if !reads_logs {
            assert!(
                !codes.contains("the log or template is valid"),
                "{command:?}: {codes}"
            );
        }
        said.push(format!("{}:{}", command.join(" "), codes.trim_end()));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("edges__exit_codes", said.join("\n")));
}

/// Given an event with one round of one table played, when its standings
/// are drawn and its log audited, then a count of one takes the singular:
/// "1 round complete", "1 result".
#[test]
fn a_count_of_one_is_said_in_the_singular() {
    let dir = scratch("singular");
    let event = new_event(
        &dir,
        "Ann\nBob\nCid\n",
        &["--rounds", "2", "--table-size", "3"],
    );
    run(&["event", "seat", s(&event)]);
    run(&["event", "play", s(&event)]);
    let pdf = dir.join("s.pdf");
    run(&["event", "standings", s(&event), "-o", s(&pdf)]);
    let text = poppler("pdftotext", &[s(&pdf), "-"]);
    if !text.is_empty() {
        assert!(
            text.contains("summertime: 1 round complete;")
                || text.contains("soleils: 1 round complete;"),
            "{text}"
        );
    }
    let audit = run(&["audit", s(&event)]);
    assert!(audit.contains(", 1 result"), "{audit}");
    assert!(!audit.contains("1 results"), "{audit}");
}
