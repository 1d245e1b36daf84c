//! `sunfold rescore`: recorded matches replayed under other rules.
//!
//! Every outcome pinned here was first worked out by hand from the logs, as
//! each test's comments say, and then checked against `sunfold replay` of a
//! copy of the log whose start line names the other option (the golden
//! replays carry no hash chain, so such a copy is still a valid log).
//!
//! The logs under tests/rescore/ were recorded with the CLI (`sunfold new`,
//! `roll --dice`, `place`, `sun`, `bonus --decline`, `undo`), so they carry
//! a hash chain and real `undone` entries:
//!
//! - soleils-exact-winner-changes.jsonl: Ann and Bob, `sun_bonus=exact`,
//!   every placement skipped, 20 rounds (rolls 1-5-6, round 6: 1-3-6). Ann
//!   enters 6 5 6 6 6 3 6 6 then twelve 1s: totals 6 11 17 23 29 32 38 44 …
//!   52 … 56. Bob enters 6 6 5 5 then sixteen 1s: 6 12 17 22 23 … 32 … 38.
//!   Both decline the bonus digit of 32, which both hit exactly.
//! - soleils-exact-solo-passes-32-in-last-round.jsonl: Sol alone,
//!   `sun_bonus=exact`, every roll 1-2-3, every placement skipped: eight 1s,
//!   eleven 2s (30 after round 19), then 3 in round 20: 33.
//! - soleils-undone-skip.jsonl: Ann and Bob, the default options, one round
//!   rolled 1-5-6: Ann enters 6 on the sun without a placement (line 3),
//!   takes it back (line 4, `undone`), places 5 in K1a (line 5) and enters 6
//!   (line 6); Bob enters 5 without a placement (line 7).
//! - deck-ocean-1-worth-7.json, deck-ocean-1-renamed.json: the bundled deck
//!   with one change each (line 35: ocean-1 scores 7 instead of 4; ocean-1
//!   is called ocean-9).

use crate::common;

use common::{snapshots, sunfold};

const GOLDENS: &str = "replays";
const MINE: &str = "tests/rescore";

/// Text and JSON output of one rescore, for a snapshot.
fn both(args: &[&str]) -> String {
    let (code, text, _) = sunfold(&[&["rescore"], args].concat());
    let (json_code, json, summary) = sunfold(&[&["rescore"], args, &["--format", "json"]].concat());
    assert_eq!(code, json_code);
    for line in json.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["file"].is_string() && value["outcome"].is_string());
    }
    // The JSON mode keeps the summary off standard output.
    assert_eq!(summary.trim_end(), text.lines().last().unwrap());
    let command = args.join(" ");
    format!(
        "$ sunfold rescore {command}\nexit {code}\n{text}\n$ sunfold rescore {command} --format json\n{json}"
    )
}

fn line_of<'a>(text: &'a str, file: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(&format!("{file}:")))
        .unwrap_or_else(|| panic!("no line for {file} in\n{text}"))
}

/// 62 Soleils d'été under the German reading of the sun track: a threshold
/// only counts when the total hits it exactly.
///
/// By hand (a script listed each sun entry's running total; the lines were
/// then read in the logs):
/// - soleils-12p: the first threshold passed without a hit that grants a
///   decision is Jonas's 28 + 5 = 33 (line 183, round 7), followed by his
///   `bonus_placed` B4 1 on line 185. Under `exact` he won no bonus, his
///   round is over at line 183, so line 185 is the first illegal line, with
///   the message pinned for tests/bad/bonus-not-won.jsonl. Earlier passes
///   (Dmitri 11 + 6 = 17 past 12 on line 90, 21 + 3 = 24 past 22 on line
///   157) only cost rewards, no decision.
/// - soleils-2p-round-limit: Ann 30 + 5 = 35 (line 92, round 17) passes 32,
///   and her `bonus_placed` K1a 1 on line 93 becomes illegal. Bob's 31 + 1
///   = 32 on line 103 hits it and keeps his `bonus_declined`.
/// - soleils-4p-sun-limit was recorded under `exact`: the same.
/// - the Summertime logs are skipped: `--option` is for 62 Soleils.
#[test]
fn goldens_under_sun_bonus_exact() {
    let (code, text, _) = sunfold(&["rescore", GOLDENS, "--option", "sun_bonus=exact"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        line_of(&text, "soleils-12p.jsonl"),
        "illegal        replays/soleils-12p.jsonl:185: event 184 (bonus_placed): expected a sun entry from Ann: Jonas has finished round 7, which waits on Ann, but found bonus_placed"
    );
    assert_eq!(
        line_of(&text, "soleils-2p-round-limit.jsonl"),
        "illegal        replays/soleils-2p-round-limit.jsonl:93: event 92 (bonus_placed): expected the next roll, as Ann has finished round 17, but found bonus_placed"
    );
    assert!(line_of(&text, "soleils-4p-sun-limit.jsonl").starts_with("same "));
    assert_eq!(
        text.lines().last().unwrap(),
        "of 6 matches, 1 same, 0 change scores, 0 change winner, 2 become illegal, 0 end unfinished, 0 invalid under their own rules, 3 skipped, 0 unreadable"
    );
    let output = both(&[GOLDENS, "--option", "sun_bonus=exact"]);
    snapshots().bind(|| insta::assert_snapshot!("rescore__goldens_sun_bonus_exact", output));
}

/// The English reading, reach or pass, on the one golden recorded under
/// `exact`: soleils-4p-sun-limit.
///
/// By hand, each sun entry that passes a threshold without hitting it:
/// Fanny 21 + 5 = 26 past 22 (line 47, 2 starfish), 38 + 6 = 44 past 42
/// (line 80, 1 seashell), 49 + 6 = 55 past 52 (line 95, 3 starfish), 61 + 5
/// = 66 past 62 (line 116, 5 starfish); Théo 19 + 5 = 24 and Hervine 20 + 5
/// = 25 past 22 (lines 102 and 106, 2 starfish each). Nobody passes 32
/// without hitting it (Fanny hits 32 on line 58 and places her bonus digit
/// under both readings), so no bonus digit is left pending and no decision
/// becomes illegal. Fanny 3 + 2 + 3 + 5 = 13, her 2 seashells stay below
/// Hervine's 3 (majority unchanged); Théo 7 + 2 = 9; Hervine 14 + 2 = 16;
/// Maxime hit 12 and 22 exactly and keeps 9. Hervine still wins: the scores
/// change, not the winner. The other two goldens were recorded under
/// `reach_or_pass`: the same.
#[test]
fn goldens_under_sun_bonus_reach_or_pass() {
    let (code, text, _) = sunfold(&["rescore", GOLDENS, "--option", "sun_bonus=reach_or_pass"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        line_of(&text, "soleils-4p-sun-limit.jsonl"),
        "scores changed replays/soleils-4p-sun-limit.jsonl: Fanny 3 → 13, Théo 7 → 9, Maxime 9, Hervine 14 → 16"
    );
    assert!(line_of(&text, "soleils-12p.jsonl").starts_with("same "));
    assert!(line_of(&text, "soleils-2p-round-limit.jsonl").starts_with("same "));
    let output = both(&[GOLDENS, "--option", "sun_bonus=reach_or_pass"]);
    snapshots()
        .bind(|| insta::assert_snapshot!("rescore__goldens_sun_bonus_reach_or_pass", output));
}

/// The English reading of skipping: only when no placement is possible.
///
/// By hand:
/// - soleils-12p: lines 2-13 are the roll 1-5-6 and placements, and sun
///   entries of players who had placed (Femi, Chloé, Kwame, Ann). Line 14 is
///   Dmitri's sun entry 5 with no placement, on an empty sheet: K1a has
///   pearl 1, so the 1 die as its pearl and 5 written there was possible.
/// - soleils-2p-round-limit: round 2 rolls 2-4-2 (line 8); line 9 is Ann's
///   sun entry 4 without a placement, while K1b (pearl 2, after K1a, which
///   is empty) could take a 2.
/// - soleils-4p-sun-limit was recorded under `only_when_blocked`: the same.
#[test]
fn goldens_under_skip_only_when_blocked() {
    let (code, text, _) = sunfold(&[
        "rescore",
        GOLDENS,
        "--option",
        "skip_placement=only_when_blocked",
    ]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        line_of(&text, "soleils-12p.jsonl"),
        "illegal        replays/soleils-12p.jsonl:14: event 13 (sun_entered): expected a placement, as skipping is allowed only when blocked and Dmitri could write 5 in K1a, but found a sun entry without one"
    );
    assert_eq!(
        line_of(&text, "soleils-2p-round-limit.jsonl"),
        "illegal        replays/soleils-2p-round-limit.jsonl:9: event 8 (sun_entered): expected a placement, as skipping is allowed only when blocked and Ann could write 2 in K1b, but found a sun entry without one"
    );
    assert!(line_of(&text, "soleils-4p-sun-limit.jsonl").starts_with("same "));
    let output = both(&[GOLDENS, "--option", "skip_placement=only_when_blocked"]);
    snapshots().bind(|| insta::assert_snapshot!("rescore__goldens_skip_only_when_blocked", output));
}

/// The German reading of skipping allows more than the English one: every
/// log recorded under either stays legal and scores the same.
#[test]
fn goldens_under_skip_voluntary() {
    let output = both(&[GOLDENS, "--option", "skip_placement=voluntary"]);
    for file in [
        "soleils-12p",
        "soleils-2p-round-limit",
        "soleils-4p-sun-limit",
    ] {
        let file = format!("{file}.jsonl");
        assert!(line_of(&output, &file).starts_with("same "), "{output}");
    }
    snapshots().bind(|| insta::assert_snapshot!("rescore__goldens_skip_voluntary", output));
}

/// Without a change, and with each log's own options spelled out, every
/// file gives back its own result.
#[test]
fn no_change_is_the_same() {
    let (code, text, _) = sunfold(&["rescore", GOLDENS, MINE]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    for line in &lines[..9] {
        assert!(line.starts_with("same "), "{line}");
    }
    assert_eq!(
        lines[9],
        "of 9 matches, 9 same, 0 change scores, 0 change winner, 0 become illegal, 0 end unfinished, 0 invalid under their own rules, 0 skipped, 0 unreadable"
    );
    // The options each log was recorded under.
    for (file, options) in [
        ("replays/soleils-12p.jsonl", ["reach_or_pass", "voluntary"]),
        (
            "replays/soleils-2p-round-limit.jsonl",
            ["reach_or_pass", "voluntary"],
        ),
        (
            "replays/soleils-4p-sun-limit.jsonl",
            ["exact", "only_when_blocked"],
        ),
        (
            "tests/rescore/soleils-exact-winner-changes.jsonl",
            ["exact", "voluntary"],
        ),
        (
            "tests/rescore/soleils-exact-solo-passes-32-in-last-round.jsonl",
            ["exact", "voluntary"],
        ),
        (
            "tests/rescore/soleils-undone-skip.jsonl",
            ["reach_or_pass", "voluntary"],
        ),
    ] {
        let sun = format!("sun_bonus={}", options[0]);
        let skip = format!("skip_placement={}", options[1]);
        let (code, text, _) = sunfold(&["rescore", file, "--option", &sun, "--option", &skip]);
        assert_eq!(code, 0);
        assert!(text.starts_with("same "), "{file}: {text}");
    }
    // The bundled deck is the goldens' own.
    let (_, text, _) = sunfold(&[
        "rescore",
        GOLDENS,
        "--deck",
        "sheet-templates/summertime.json",
    ]);
    assert_eq!(text.lines().filter(|l| l.starts_with("same ")).count(), 3);
}

/// The subtle cases of tests/rescore/, under reach or pass:
/// - winner changes: under `exact` Ann wins nothing but 52's 3 starfish
///   (she passes 12, 22 and 42), Bob hits 12 (a seashell: the majority, 5)
///   and 22 (2 starfish): Ann 3, Bob 7. Passing counts: Ann gains 12 and 42
///   (2 seashells, now the majority) and 22 (2 starfish): 5 + 5 = 10; Bob
///   keeps 2 starfish and loses the majority: 2. Bob → Ann. Both hit 32
///   exactly, so their `bonus_declined` stays legal.
/// - solo, 30 + 3 = 33 in round 20: under `exact` the game is over after
///   round 20 with 7 (12: a seashell, the solo majority 5; 22: 2 starfish);
///   passing 32 now grants a bonus digit that the log never places, so the
///   log ends with the match still waiting for Sol: `unfinished`, 7 so far.
/// - the undone skip: the same.
#[test]
fn subtle_cases_under_reach_or_pass() {
    let (code, text, _) = sunfold(&["rescore", MINE, "--option", "sun_bonus=reach_or_pass"]);
    assert_eq!(code, 0);
    assert_eq!(
        line_of(&text, "soleils-exact-winner-changes.jsonl"),
        "winner changed tests/rescore/soleils-exact-winner-changes.jsonl: Bob → Ann; Ann 3 → 10, Bob 7 → 2"
    );
    assert_eq!(
        line_of(&text, "soleils-exact-solo-passes-32-in-last-round.jsonl"),
        "unfinished     tests/rescore/soleils-exact-solo-passes-32-in-last-round.jsonl: the log ends, but under the new rules the match goes on, waiting for Sol: a bonus digit or a decline; so far Sol 7"
    );
    let output = both(&[MINE, "--option", "sun_bonus=reach_or_pass"]);
    snapshots().bind(|| insta::assert_snapshot!("rescore__subtle_reach_or_pass", output));
}

/// An `undone` decision is not replayed: Ann's skip on line 3, taken back on
/// line 4, would be illegal under `only_when_blocked`, but the first illegal
/// line is Bob's skip on line 7 (K1a, pearl 1, could take the 5 of 1-5-6).
/// The two other logs skip from round 1 on an empty sheet (line 3).
#[test]
fn undone_decisions_are_not_replayed() {
    let (code, text, _) = sunfold(&[
        "rescore",
        MINE,
        "--option",
        "skip_placement=only_when_blocked",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        line_of(&text, "soleils-undone-skip.jsonl"),
        "illegal        tests/rescore/soleils-undone-skip.jsonl:7: event 6 (sun_entered): expected a placement, as skipping is allowed only when blocked and Bob could write 5 in K1a, but found a sun entry without one"
    );
    let output = both(&[MINE, "--option", "skip_placement=only_when_blocked"]);
    snapshots().bind(|| insta::assert_snapshot!("rescore__subtle_only_when_blocked", output));
}

/// Another sheet: petit-ete.json is valid, but shares only B1-B3 and G1-G4
/// with the default sheet. Each golden fails on its first placement (line
/// 3): soleils-2p's C2b and soleils-4p's K2b are not on it (the message
/// pinned for tests/bad/unknown-box.jsonl); soleils-12p's G2 is, with pearl
/// 5, and the roll 1-5-6 has no second 5 to write.
#[test]
fn another_sheet() {
    let (code, text, _) = sunfold(&["template", "check", "sheet-templates/petit-ete.json"]);
    assert_eq!(code, 0, "{text}");
    let (code, text, _) = sunfold(&[
        "rescore",
        GOLDENS,
        "--template",
        "sheet-templates/petit-ete.json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        text,
        "\
illegal        replays/soleils-12p.jsonl:3: event 2 (placed): box G2: expected 5 on a die other than the pearl die 5, but the roll is 1-5-6
illegal        replays/soleils-2p-round-limit.jsonl:3: event 2 (placed): expected a box of the sheet, but found \"C2b\"
illegal        replays/soleils-4p-sun-limit.jsonl:3: event 2 (placed): expected a box of the sheet, but found \"K2b\"
skipped        replays/summertime-double-pass-ending.jsonl: --template changes soleils logs only
skipped        replays/summertime-last-card-bought.jsonl: --template changes soleils logs only
skipped        replays/summertime-rulebook-examples.jsonl: --template changes soleils logs only
of 6 matches, 0 same, 0 change scores, 0 change winner, 3 become illegal, 0 end unfinished, 0 invalid under their own rules, 3 skipped, 0 unreadable
"
    );
}

/// A soleils log and a summertime log in one run, under another deck.
///
/// By hand: in summertime-rulebook-examples, Ann plays beach-1 (2),
/// umbrella-1 beside it (×2: 4), ocean-1 (4) and catamaran-1 beside ocean-1
/// (×2: 8): 18, against Ben's 25. With ocean-1 worth 7: 2 + 4 + 7 + 14 =
/// 27, and Ann wins. In the two other Summertime goldens, ocean-1 is played
/// last among its neighbours (beach-2, beach-1 for Dmitri on line 89;
/// surfer-1, fish-2 for Chloé on line 101), which are point cards, so only
/// its own 3 more points count: Dmitri 79 → 82, Chloé 40 → 43, no new
/// winner. A deck without ocean-1 cannot set up any of them: line 1.
#[test]
fn soleils_and_summertime_in_one_run() {
    let files = [
        "replays/soleils-4p-sun-limit.jsonl",
        "replays/summertime-rulebook-examples.jsonl",
    ];
    let (code, text, _) = sunfold(&[&["rescore"], &files[..]].concat());
    assert_eq!(code, 0);
    assert_eq!(text.lines().filter(|l| l.starts_with("same ")).count(), 2);

    let (code, text, _) = sunfold(
        &[
            &["rescore"],
            &files[..],
            &["--deck", "tests/rescore/deck-ocean-1-worth-7.json"],
        ]
        .concat(),
    );
    assert_eq!(code, 0);
    assert_eq!(
        text,
        "\
skipped        replays/soleils-4p-sun-limit.jsonl: --deck changes summertime logs only
winner changed replays/summertime-rulebook-examples.jsonl: Ben → Ann; Ann 18 → 27, Ben 25
of 2 matches, 0 same, 0 change scores, 1 change winner, 0 become illegal, 0 end unfinished, 0 invalid under their own rules, 1 skipped, 0 unreadable
"
    );

    let (_, text, _) = sunfold(
        &[
            &["rescore"],
            &files[..],
            &["--option", "sun_bonus=reach_or_pass"],
        ]
        .concat(),
    );
    assert!(text.starts_with("scores changed replays/soleils-4p-sun-limit.jsonl"));
    assert!(text.contains(
        "skipped        replays/summertime-rulebook-examples.jsonl: --option changes soleils logs only\n"
    ));

    let output = both(&[GOLDENS, "--deck", "tests/rescore/deck-ocean-1-worth-7.json"]);
    assert!(output.contains("Dmitri 79 → 82") && output.contains("Chloé 40 → 43"));
    snapshots().bind(|| insta::assert_snapshot!("rescore__deck_ocean_1_worth_7", output));

    let (code, text, _) = sunfold(&[
        "rescore",
        "replays/summertime-rulebook-examples.jsonl",
        "--deck",
        "tests/rescore/deck-ocean-1-renamed.json",
    ]);
    assert_eq!(code, 0);
    assert!(text.starts_with(
        "illegal        replays/summertime-rulebook-examples.jsonl:1: event 0 (started): expected a card of the deck, but found \"ocean-1\"\n"
    ), "{text}");
}

/// Bad variants are refused as `new` refuses them, before any log is read:
/// the path given does not exist, and nothing says so.
#[test]
fn bad_variants_are_refused_first() {
    let target = common::repo().join("target/rescore-new.jsonl");
    let target = target.to_str().unwrap();
    let cases: [(&[&str], &[&str]); 4] = [
        (
            &["--option", "sun_bonus=sometimes"],
            &["--option", "sun_bonus=sometimes"],
        ),
        (
            &["--option", "skip_placement"],
            &["--option", "skip_placement"],
        ),
        (
            &["--template", "tests/templates/many-problems.json"],
            &["--template", "tests/templates/many-problems.json"],
        ),
        (
            &["--template", "tests/templates/no-such-template.json"],
            &["--template", "tests/templates/no-such-template.json"],
        ),
    ];
    for (rescore, new) in cases {
        let (code, out, err) = sunfold(&[&["rescore", "no/such/dir"], rescore].concat());
        let (new_code, _, new_err) =
            sunfold(&[&["new", "soleils", target, "--players", "A,B"], new].concat());
        assert_eq!(err, new_err, "{rescore:?}");
        assert_eq!(code, new_code, "{rescore:?}");
        assert_ne!(code, 0);
        assert_eq!(out, "");
        assert!(!err.contains("no/such/dir"), "{err}");
    }
    // The same for a deck, as `new summertime` checks it.
    let (code, _, err) = sunfold(&[
        "rescore",
        "no/such/dir",
        "--deck",
        "tests/templates/deck-many-problems.json",
    ]);
    let (new_code, _, new_err) = sunfold(&[
        "new",
        "summertime",
        target,
        "--players",
        "A,B",
        "--deck",
        "tests/templates/deck-many-problems.json",
    ]);
    assert_eq!((code, &err), (new_code, &new_err));
    // A --deck run is a Summertime run, which has no options.
    let (code, out, err) = sunfold(&[
        "rescore",
        "no/such/dir",
        "--deck",
        "sheet-templates/summertime.json",
        "--option",
        "sun_bonus=exact",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "sunfold: expected no rule option for summertime, whose rules are the numbers of its deck, but found \"sun_bonus=exact\"\n"
    );
}

/// A log broken under its own rules is `invalid`, with the error `audit`
/// gives it, and is not counted as becoming illegal; the exit code is 1.
#[test]
fn invalid_logs() {
    let (code, text, _) = sunfold(&["rescore", "tests/bad", "--option", "sun_bonus=exact"]);
    assert_eq!(code, 1);
    let (_, audit, _) = sunfold(&["audit", "tests/bad"]);
    let first_lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("  ") && !l.starts_with("of ") && !l.contains(" files, "))
            .map(str::to_owned)
            .collect()
    };
    let rescored = first_lines(&text);
    let audited = first_lines(&audit);
    assert_eq!(rescored.len(), audited.len());
    for (r, a) in rescored.iter().zip(&audited) {
        assert_eq!(r.strip_prefix("invalid        "), Some(a.as_str()));
    }
    let count = audited.len();
    assert!(text.ends_with(&format!(
        "of {count} matches, 0 same, 0 change scores, 0 change winner, 0 become illegal, 0 end unfinished, {count} invalid under their own rules, 0 skipped, 0 unreadable\n"
    )));

    let (code, json, _) = sunfold(&[
        "rescore",
        "tests/bad/box-filled.jsonl",
        "replays/soleils-12p.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["outcome"], "invalid");
    assert_eq!(first["game"], "soleils");
    assert!(first["error"]["line"].is_u64() && first["error"]["message"].is_string());
}

/// A path that does not exist stops the run with exit 2; a file that cannot
/// be read among others is reported, and the run ends with exit 2.
#[test]
fn unreadable_paths() {
    let (code, out, err) = sunfold(&["rescore", "replays", "no/such/file.jsonl"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, "sunfold: no/such/file.jsonl: no such file\n");

    #[cfg(unix)]
    {
        let dir = common::repo().join("target/rescore-unreadable");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::os::unix::fs::symlink("no/such/target.jsonl", dir.join("gone.jsonl")).unwrap();
        std::fs::copy(
            common::repo().join("replays/soleils-2p-round-limit.jsonl"),
            dir.join("ok.jsonl"),
        )
        .unwrap();
        let dir = dir.to_str().unwrap();
        let (code, text, _) = sunfold(&["rescore", dir]);
        assert_eq!(code, 2);
        assert_eq!(
            text,
            format!(
                "\
unreadable     {dir}/gone.jsonl: cannot be read: no such file
same           {dir}/ok.jsonl: Ann 18, Bob 10
of 2 matches, 1 same, 0 change scores, 0 change winner, 0 become illegal, 0 end unfinished, 0 invalid under their own rules, 0 skipped, 1 unreadable
"
            )
        );
    }
}

/// The output is the same byte for byte whatever the number of threads.
#[test]
fn jobs_do_not_change_the_output() {
    for format in ["text", "json"] {
        let run = |jobs: &str| {
            sunfold(&[
                "rescore",
                GOLDENS,
                MINE,
                "tests/bad",
                "--option",
                "sun_bonus=exact",
                "--format",
                format,
                "--jobs",
                jobs,
            ])
        };
        let one = run("1");
        let two = run("2");
        assert_eq!(one, two, "--format {format}");
        assert_eq!(one.0, 1);
    }
}
