//! The rules designer's workbench: `simulate` and `compare` under any
//! variant. Given a variant (a template, a deck, rule options), when the
//! bots play it, then the figures move the way the rules say they must.

use crate::common;

use serde_json::Value;

fn run(args: &[&str]) -> (String, String) {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(code, 0, "sunfold {args:?} failed: {stderr}");
    (stdout, stderr)
}

fn json(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    let (stdout, _) = run(&args);
    assert_eq!(stdout.lines().count(), 1, "one JSON object on one line");
    serde_json::from_str(&stdout).unwrap()
}

fn estimate(v: &Value) -> (f64, f64, f64) {
    (
        v["estimate"].as_f64().unwrap(),
        v["ci95"][0].as_f64().unwrap(),
        v["ci95"][1].as_f64().unwrap(),
    )
}

/// Given A and B with the same rules (nothing changed, an option set to
/// the value it has, a sheet or deck that differs by its name alone, a
/// shard of such a run), when they are compared, then the comparison is
/// refused at once, before any game, with exit 2: its figures could only
/// say that nothing differs.
#[test]
fn a_variant_compared_with_itself_is_refused_before_any_game() {
    let mut messages = String::new();
    // Played, 500,000 games would take many minutes: a command that plays
    // them is killed as hung.
    for args in [
        &["compare", "soleils", "--games", "500000"][..],
        &["compare", "summertime", "--games", "500000"],
        &[
            "compare",
            "soleils",
            "--games",
            "500000",
            "--b-option",
            "sun_bonus=reach_or_pass",
        ],
        &[
            "compare",
            "soleils",
            "--games",
            "500000",
            "--a-template",
            "sheet-templates/62-soleils-d-ete.json",
        ],
        &[
            "compare",
            "summertime",
            "--games",
            "500000",
            "--b-deck",
            "sheet-templates/summertime.json",
            "--shard",
            "1/2",
        ],
    ] {
        let (code, stdout, stderr) = common::sunfold_or_hang(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        messages.push_str(&format!("{}\n{stderr}\n", args.join(" ")));
    }
    common::snapshots().bind(|| insta::assert_snapshot!("compare__same_rules", messages));
}

#[test]
fn the_german_exact_sun_bonus_grants_fewer_threshold_rewards() {
    // Given the same dice and bots, when a threshold's reward needs the exact
    // total (German) instead of reaching or passing it (English), then every
    // threshold's reward is won less often, fewer bonus digits come, and
    // scores fall; reaching a threshold is a matter of the dice, not of
    // the rule, so it barely moves.
    let report = json(&[
        "compare",
        "soleils",
        "--games",
        "1000",
        "--a-option",
        "sun_bonus=reach_or_pass",
        "--b-option",
        "sun_bonus=exact",
    ]);
    let d = &report["difference"];
    for at in [12, 22, 32, 42, 52] {
        let (won, _, high) = estimate(&d[format!("sun_won.{at}")]);
        assert!(won < 0.0 && high < 0.0, "threshold {at}: {won}");
        let (reached, low, high) = estimate(&d[format!("sun_reached.{at}")]);
        assert!(reached.abs() < 0.02 && low <= high, "threshold {at}");
    }
    assert!(estimate(&d["bonus_digits"]).2 < 0.0);
    assert!(estimate(&d["mean_score"]).2 < 0.0);
    assert_eq!(d["sun_won.32"]["significant"], true);
    assert_eq!(report["b"]["variant"]["options"]["sun_bonus"], "exact");
}

#[test]
fn skipping_only_when_blocked_fills_more_groups() {
    // Given random bots, who skip a placement whenever it is among their
    // choices, when skipping is allowed only when blocked (English), then
    // more boxes are filled and more groups complete.
    let report = json(&[
        "compare",
        "soleils",
        "--games",
        "600",
        "--b-option",
        "skip_placement=only_when_blocked",
    ]);
    let d = &report["difference"];
    for group in ["V1", "V2", "V3", "C2"] {
        let id = format!("group.{group}");
        assert!(estimate(&d[&id]).1 > 0.0, "{id}: {}", d[&id]);
    }
}

#[test]
fn a_custom_template_simulates_and_compares() {
    // tests/templates/valid/thresholds-every-10.json: the bundled sheet with the
    // sun thresholds at 10, 20, … 60 and a sailboat flag of 6 starfish.
    let template = "tests/templates/valid/thresholds-every-10.json";
    let summary = json(&[
        "simulate",
        "soleils",
        "--games",
        "200",
        "--template",
        template,
    ]);
    assert_eq!(summary["variant"]["source"], template);
    assert_eq!(
        summary["variant"]["name"],
        "62 Soleils d'été, thresholds every 10"
    );
    assert!(
        summary["values"]["sun_won.30"]["estimate"]
            .as_f64()
            .unwrap()
            > 0.9
    );
    assert!(summary["values"].get("sun_won.32").is_none());

    let report = json(&[
        "compare",
        "soleils",
        "--games",
        "600",
        "--b-template",
        template,
    ]);
    // Lower thresholds come sooner: the last one is won more often.
    assert!(report["a"].get("sun_won.60").is_none());
    assert!(report["b"]["sun_won.60"]["estimate"].as_f64().unwrap() > 0.35);
    assert!(report["a"]["sun_won.62"]["estimate"].as_f64().unwrap() < 0.35);
    // A figure of one variant only has no difference.
    assert!(report["difference"].get("sun_won.60").is_none());
    assert!(estimate(&report["difference"]["mean_score"]).1 > 0.0);
    // The same zones are paired.
    assert!(report["difference"].get("zone_flag.sailboats").is_some());
}

#[test]
fn a_custom_deck_simulates_and_compares() {
    // tests/templates/valid/deck-mild-penalty.json: a card left in hand costs 2
    // instead of 5, so the same games score more.
    let deck = "tests/templates/valid/deck-mild-penalty.json";
    let summary = json(&["simulate", "summertime", "--games", "100", "--deck", deck]);
    assert_eq!(summary["variant"]["kind"], "deck");
    let report = json(&["compare", "summertime", "--games", "300", "--b-deck", deck]);
    let (difference, low, _) = estimate(&report["difference"]["mean_score"]);
    assert!(difference > 0.0 && low > 0.0);
    // The deal and the bots are the same, and the penalty only counts at
    // the end: the games are the very same games.
    assert_eq!(estimate(&report["difference"]["turns"]), (0.0, 0.0, 0.0));
    assert_eq!(
        estimate(&report["difference"]["cards_left_in_hand"]),
        (0.0, 0.0, 0.0)
    );
}

#[test]
fn the_same_seed_gives_the_same_report_byte_for_byte_on_any_thread_count() {
    for args in [
        &["simulate", "soleils", "--games", "700", "--seed", "11"][..],
        &["simulate", "summertime", "--games", "700", "--seed", "11"][..],
        &[
            "compare",
            "soleils",
            "--games",
            "700",
            "--seed",
            "11",
            "--b-option",
            "sun_bonus=exact",
        ][..],
    ] {
        for format in ["text", "json"] {
            let with = |jobs: &str| {
                let mut all = args.to_vec();
                all.extend(["--format", format, "--jobs", jobs]);
                run(&all).0
            };
            let one = with("1");
            assert_eq!(one, with("2"), "{args:?} {format}");
            assert_eq!(one, with("2"), "{args:?} {format}, again");
        }
    }
}

#[test]
fn every_figure_of_the_text_summary_is_in_the_json() {
    let args = ["simulate", "soleils", "--games", "300", "--seed", "2"];
    let (text, _) = run(&args);
    let summary = json(&args);
    let figures = summary["figures"].as_array().unwrap();
    for figure in figures {
        let id = figure["id"].as_str().unwrap();
        let label = figure["label"].as_str().unwrap();
        let value = summary["values"][id]["estimate"].as_f64().unwrap();
        let shown = match figure["unit"].as_str().unwrap() {
            "share" => format!("{:.1}%", 100.0 * value),
            _ => format!("{value:.2}"),
        };
        // "seat 1" is a line of the score and of the win rate sections.
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(&format!("{label} ")) && l.contains(&shown)),
            "no line {label} … {shown}"
        );
    }
    for seat in summary["seats"].as_array().unwrap() {
        let range = format!("{}: {} to {}", seat["seat"], seat["min"], seat["max"]);
        assert!(text.contains(&range), "{range}");
    }
    for bot in summary["win_rate_per_bot"].as_array().unwrap() {
        let share = format!("{:.2}%", 100.0 * bot["of_games"].as_f64().unwrap());
        assert!(text.contains(&share), "{share}");
    }
}

#[test]
fn the_reports_read_as_pinned() {
    let (summary, _) = run(&["simulate", "soleils", "--games", "400", "--seed", "7"]);
    let (comparison, _) = run(&[
        "compare",
        "soleils",
        "--games",
        "400",
        "--seed",
        "7",
        "--b-option",
        "sun_bonus=exact",
    ]);
    let (cards, _) = run(&[
        "compare",
        "summertime",
        "--games",
        "400",
        "--seed",
        "7",
        "--b-deck",
        "tests/templates/valid/deck-mild-penalty.json",
    ]);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("workbench__simulate_soleils", summary);
        insta::assert_snapshot!("workbench__compare_soleils_exact", comparison);
        insta::assert_snapshot!("workbench__compare_summertime_deck", cards);
    });
}

/// Runs sunfold and returns (exit code, stderr), checking that nothing was
/// played: no output and no throughput line.
fn refused(args: &[&str]) -> (i32, String) {
    let (code, stdout, stderr) = common::sunfold(args);
    assert_eq!(stdout, "", "{args:?}");
    assert!(!stderr.contains("games per second"), "{args:?}: {stderr}");
    (code, stderr)
}

#[test]
fn bad_variants_get_the_errors_of_new_before_any_game_runs() {
    let file = std::env::temp_dir().join(format!("sunfold-workbench-{}.jsonl", std::process::id()));
    let file = file.to_str().unwrap();
    let new = |extra: &[&str]| {
        let mut args = vec!["new", "soleils", file, "--players", "A,B", "--force"];
        args.extend(extra);
        let (code, _, stderr) = common::sunfold(&args);
        (code, stderr)
    };
    for variant in [
        &["--option", "sun_bonus=sometimes"][..],
        &["--option", "nonsense"][..],
        &["--template", "tests/templates/many-problems.json"][..],
        &["--template", "tests/templates/truncated.json"][..],
        &["--template", "tests/templates/no-such-file.json"][..],
        &["--template", "sheet-templates/summertime.json"][..],
    ] {
        let expected = new(variant);
        assert_ne!(expected.0, 0, "{variant:?}");
        let mut simulate = vec!["simulate", "soleils", "--games", "5"];
        simulate.extend(variant);
        assert_eq!(refused(&simulate), expected, "simulate {variant:?}");
        let b: Vec<&str> = variant
            .iter()
            .map(|a| match *a {
                "--option" => "--b-option",
                "--template" => "--b-template",
                other => other,
            })
            .collect();
        let mut compare = vec!["compare", "soleils", "--games", "5"];
        compare.extend(&b);
        assert_eq!(refused(&compare), expected, "compare {variant:?}");
    }
    let _ = std::fs::remove_file(file);
    // The problems are listed with the file and their JSON path.
    let (code, stderr) = refused(&[
        "simulate",
        "soleils",
        "--template",
        "tests/templates/many-problems.json",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr
            .contains("tests/templates/many-problems.json: boxes[1].id: expected a unique box id")
    );
    assert!(stderr.ends_with("tests/templates/many-problems.json: 21 problems\n"));
}

#[test]
fn arguments_that_do_not_fit_the_game_are_refused() {
    for (args, message) in [
        (
            &["simulate", "summertime", "--players", "3"][..],
            "sunfold: expected exactly 2 players for summertime, but found 3\n",
        ),
        (
            &["simulate", "soleils", "--players", "13"][..],
            "sunfold: expected 2 to 12 players for soleils (or 1 with the option solo=true), but found 13\n",
        ),
        (
            &["simulate", "soleils", "--games", "0"][..],
            "sunfold: expected at least 1 game, but found --games 0\n",
        ),
        (
            &[
                "simulate",
                "summertime",
                "--template",
                "sheet-templates/petit-ete.json",
            ][..],
            "sunfold: expected --template only with soleils, but found it with summertime\n",
        ),
        (
            &[
                "compare",
                "soleils",
                "--b-deck",
                "sheet-templates/summertime.json",
            ][..],
            "sunfold: expected --b-deck only with summertime, but found it with soleils\n",
        ),
        (
            &[
                "compare",
                "soleils",
                "--games",
                "5",
                "-o",
                "no/such/folder/r.pdf",
            ][..],
            "sunfold: no/such/folder: expected a folder to write the report into, but there is none\n",
        ),
        (
            &["compare", "soleils", "--games", "5", "--jobs", "0"][..],
            "sunfold: expected --jobs of at least 1, but found 0\n",
        ),
        (
            &["simulate", "summertime", "--option", "sun_bonus=exact"][..],
            "sunfold: expected no rule option for summertime, whose rules are the numbers of its deck, but found \"sun_bonus=exact\"\n",
        ),
    ] {
        assert_eq!(refused(args), (2, message.to_owned()), "{args:?}");
    }
}

#[test]
fn bots_play_any_accepted_template_with_any_player_count() {
    for template in [
        "sheet-templates/62-soleils-d-ete.json",
        "sheet-templates/petit-ete.json",
        "tests/templates/valid/thresholds-every-10.json",
    ] {
        let (stdout, _) = run(&["template", "check", template]);
        assert!(stdout.contains(": ok: sheet"));
        for players in ["1", "2", "12"] {
            // A table of one is the solo variant, which must be asked for.
            let solo = if players == "1" {
                "solo=true"
            } else {
                "solo=false"
            };
            for bots in ["random", "greedy", "greedy,random"] {
                let summary = json(&[
                    "simulate",
                    "soleils",
                    "--games",
                    "20",
                    "--players",
                    players,
                    "--bot",
                    bots,
                    "--template",
                    template,
                    "--option",
                    solo,
                ]);
                assert_eq!(summary["games"], 20);
                assert_eq!(summary["players"].to_string(), players);
                let ended = summary["values"]["ended.sun_limit"]["estimate"]
                    .as_f64()
                    .unwrap()
                    + summary["values"]["ended.round_limit"]["estimate"]
                        .as_f64()
                        .unwrap();
                assert!(
                    (ended - 1.0).abs() < 1e-9,
                    "{template}, {players} players: every game ends"
                );
            }
        }
    }
}

#[test]
fn a_custom_template_rescores_the_golden_replays() {
    // Given the golden replays, when they are replayed on the sheet with
    // thresholds every 10, then the bonus digit comes at 30 instead of 32:
    // a player who passed 30 before reaching 32 owes a bonus digit the log
    // never placed, and one who won it at 32 placed a digit the new sheet
    // never granted. Either way the first such decision is named.
    let (code, stdout, stderr) = common::sunfold(&[
        "rescore",
        "replays",
        "--template",
        "tests/templates/valid/thresholds-every-10.json",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let soleils: Vec<&Value> = lines.iter().filter(|l| l["game"] == "soleils").collect();
    assert_eq!(soleils.len(), 3);
    for line in soleils {
        assert_eq!(line["outcome"], "illegal", "{line}");
    }
    assert!(
        lines
            .iter()
            .filter(|l| l["game"] == "summertime")
            .all(|l| l["outcome"] == "skipped")
    );
    assert!(stderr.contains("of 6 matches, 0 same"), "{stderr}");
}

#[test]
fn summertime_has_no_rule_options_on_either_side_of_a_comparison() {
    let (code, stderr) = refused(&["compare", "summertime", "--b-option", "hand_penalty=2"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "sunfold: expected no rule option for summertime, whose rules are the numbers of its deck, but found \"hand_penalty=2\"\n"
    );
}

#[test]
fn each_variant_of_a_comparison_carries_its_own_end_limits() {
    // tests/templates/valid/ends-sooner.json: the bundled sheet ending at 60
    // suns or after 18 rounds, where the bundled one has 62 and 20.
    let args = [
        "compare",
        "soleils",
        "--games",
        "40",
        "--b-template",
        "tests/templates/valid/ends-sooner.json",
    ];
    let (text, _) = run(&args);
    assert!(
        text.contains("ended: by the sun limit (A 62, B 60)"),
        "{text}"
    );
    assert!(
        text.contains("ended: by the round limit (A 20, B 18)"),
        "{text}"
    );
    assert!(!text.contains("(62)") && !text.contains("(20)"), "{text}");
    let report = json(&args);
    let label = |id: &str| {
        report["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["id"] == id)
            .unwrap()["label"]
            .clone()
    };
    assert_eq!(label("ended.sun_limit"), "by the sun limit (A 62, B 60)");
    assert_eq!(
        label("ended.round_limit"),
        "by the round limit (A 20, B 18)"
    );
    // Variants with the same end limits read them once.
    let same = json(&[
        "compare",
        "soleils",
        "--games",
        "5",
        "--b-option",
        "sun_bonus=exact",
    ]);
    let labels: Vec<&str> = same["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"by the sun limit (62)"), "{labels:?}");
}

#[test]
fn a_repeated_option_is_refused_on_every_verb_naming_both() {
    let file = common::fresh("workbench-repeated-option", "new.jsonl");
    let twice = [
        "--option",
        "sun_bonus=exact",
        "--option",
        "sun_bonus=reach_or_pass",
    ];
    fn with<'a>(verb: &[&'a str], flag: &'a str, twice: [&'a str; 4]) -> Vec<&'a str> {
        let mut args = verb.to_vec();
        for a in twice {
            args.push(if a == "--option" { flag } else { a });
        }
        args
    }
    let mut messages = Vec::new();
    for (verb, flag) in [
        (
            &["new", "soleils", file.as_str(), "--players", "A,B"][..],
            "--option",
        ),
        (&["simulate", "soleils", "--games", "5"][..], "--option"),
        (&["compare", "soleils", "--games", "5"][..], "--a-option"),
        (&["compare", "soleils", "--games", "5"][..], "--b-option"),
        (
            &[
                "ladder",
                "soleils",
                "--bots",
                "random,greedy",
                "--games",
                "5",
            ][..],
            "--option",
        ),
        (
            &["rescore", "replays/soleils-2p-round-limit.jsonl"][..],
            "--option",
        ),
    ] {
        let args = with(verb, flag, twice);
        let (code, stdout, stderr) = common::sunfold(&args);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert!(!stderr.contains("games per second"), "{args:?}: {stderr}");
        messages.push(format!("{} {flag}: {stderr}", verb[0]));
    }
    assert!(!std::path::Path::new(&file).exists(), "new wrote nothing");
    // The same option twice with the same value is refused too, and two
    // different options are not.
    let (code, _, stderr) = common::sunfold(&[
        "simulate",
        "soleils",
        "--games",
        "5",
        "--option",
        "solo=false",
        "--option",
        "solo=false",
    ]);
    assert_eq!(code, 2, "{stderr}");
    messages.push(format!("simulate, the same value twice: {stderr}"));
    run(&[
        "simulate",
        "soleils",
        "--games",
        "5",
        "--option",
        "sun_bonus=exact",
        "--option",
        "sailboats=different",
    ]);
    common::snapshots().bind(|| {
        insta::assert_snapshot!("workbench__repeated_option", messages.join(""));
    });
}

#[test]
fn significance_is_flagged_after_holms_correction_and_the_report_says_so() {
    let args = [
        "compare",
        "soleils",
        "--games",
        "300",
        "--b-option",
        "sun_bonus=exact",
    ];
    let report = json(&args);
    let correction = &report["correction"];
    assert_eq!(correction["method"], "holm");
    assert_eq!(correction["family_wise_error"], 0.05);
    let differences = report["difference"].as_object().unwrap();
    assert_eq!(correction["figures"], differences.len());
    // Holm by hand: sort the p-values, hold the k-th smallest to
    // 0.05 / (m − k), stop at the first that fails.
    let mut p: Vec<(f64, &str)> = differences
        .iter()
        .map(|(id, d)| (d["p_value"].as_f64().unwrap(), id.as_str()))
        .collect();
    p.sort_by(|x, y| x.0.total_cmp(&y.0));
    let m = p.len();
    let mut passing = true;
    let mut flagged_alone = 0;
    for (k, (p, id)) in p.iter().enumerate() {
        passing &= *p <= 0.05 / (m - k) as f64;
        assert_eq!(differences[*id]["significant"], passing, "{id}");
        let (_, low, high) = estimate(&differences[*id]);
        if low > 0.0 || high < 0.0 {
            flagged_alone += 1;
        }
    }
    let significant = differences
        .values()
        .filter(|d| d["significant"] == true)
        .count();
    // The correction is stricter than each interval alone.
    assert!(
        significant > 0 && significant < flagged_alone,
        "{significant} of {flagged_alone}"
    );
    let (text, _) = run(&args);
    assert!(
        text.contains(&format!(
            "{significant} significant differences after Holm's correction over {m} figures"
        )),
        "{text}"
    );
}

#[test]
fn a_comparison_opens_with_what_differs_by_json_path() {
    let args = [
        "compare",
        "soleils",
        "--games",
        "20",
        "--b-template",
        "tests/templates/valid/ends-sooner.json",
        "--b-option",
        "sun_bonus=exact",
    ];
    let (text, _) = run(&args);
    let head: Vec<&str> = text.lines().skip(3).take(4).collect();
    assert_eq!(
        head,
        [
            "what differs, A → B:",
            "  end.rounds 20 → 18",
            "  end.sun_limit 62 → 60",
            "  options.sun_bonus reach_or_pass → exact",
        ],
        "{text}"
    );
    let report = json(&args);
    assert_eq!(
        report["changes"],
        serde_json::json!([
            {"path": "end.rounds", "name": "end.rounds", "a": 20, "b": 18},
            {"path": "end.sun_limit", "name": "end.sun_limit", "a": 62, "b": 60},
            {"path": "options.sun_bonus", "name": "options.sun_bonus", "a": "reach_or_pass", "b": "exact"},
        ])
    );
    // The same rules from another file: refused, since nothing differs.
    let (code, _, stderr) = common::sunfold(&[
        "compare",
        "soleils",
        "--games",
        "5",
        "--b-template",
        "sheet-templates/62-soleils-d-ete.json",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the same rules"), "{stderr}");
    let deck = json(&[
        "compare",
        "summertime",
        "--games",
        "5",
        "--b-deck",
        "tests/templates/valid/deck-mild-penalty.json",
    ]);
    assert_eq!(deck["changes"][0]["path"], "rules.hand_penalty");
}

/// Given runs of 62 Soleils and Summertime with different seeds and
/// numbers of games, when their distributions are reported, then the
/// buckets have the game's own width, so `score_share.FROM` ids mean the
/// same scores in every report.
#[test]
fn distribution_ids_are_the_same_whatever_the_seed() {
    for (game, width) in [("soleils", 5), ("summertime", 10)] {
        for (seed, games) in [("1", "6"), ("2", "40"), ("3", "300")] {
            let summary = json(&["simulate", game, "--games", games, "--seed", seed]);
            let ids: Vec<i64> = summary["values"]
                .as_object()
                .unwrap()
                .keys()
                .filter_map(|id| id.strip_prefix("score_share."))
                .map(|from| from.parse().unwrap())
                .collect();
            assert!(!ids.is_empty(), "{game} seed {seed}: no distribution");
            assert!(
                ids.iter().all(|from| from % width == 0),
                "{game} seed {seed}, {games} games: {ids:?}"
            );
        }
    }
}

/// Given a batch of either game, when its report breaks the score down by
/// source, then the sources add up to the mean score, and the other new
/// figures hold together: bonus digits written and declined make those
/// won, the length's quantiles are in order inside their intervals, a tie
/// share and a margin are what they can be.
#[test]
fn the_figures_by_source_margin_and_spread_hold_together() {
    let value = |summary: &Value, id: &str| -> (f64, f64, f64) {
        let v = &summary["values"][id];
        assert!(v.is_object(), "no figure {id}");
        estimate(v)
    };
    for (game, sources, length) in [
        (
            "soleils",
            &["sun", "flags", "groups", "pearls", "seashell_majority"][..],
            "rounds",
        ),
        (
            "summertime",
            &["point_cards", "multipliers", "hand_penalty"][..],
            "turns",
        ),
    ] {
        let summary = json(&["simulate", game, "--games", "200", "--seed", "5"]);
        let sum: f64 = sources
            .iter()
            .map(|s| value(&summary, &format!("source.{s}")).0)
            .sum();
        let mean = value(&summary, "mean_score").0;
        assert!(
            (sum - mean).abs() < 1e-9,
            "{game}: {sum} from the sources, {mean} in all"
        );
        let (margin, low, _) = value(&summary, "win_margin");
        assert!(margin > 0.0 && low >= 0.0, "{game}: margin {margin}");
        let (tie, low, high) = value(&summary, "tie");
        assert!(
            (0.0..1.0).contains(&tie) && low >= 0.0 && high <= 1.0,
            "{game}: tie {tie}"
        );
        let mut previous = 0.0;
        for q in ["p10", "median", "p90"] {
            let (x, low, high) = value(&summary, &format!("{length}.{q}"));
            assert!(
                x.fract() == 0.0 && low <= x && x <= high,
                "{game} {q}: {x} [{low}, {high}]"
            );
            assert!(x >= previous, "{game}: {q} {x} below {previous}");
            previous = x;
        }
        let (mean_length, _, _) = value(&summary, length);
        let (p10, p90) = (
            value(&summary, &format!("{length}.p10")).0,
            value(&summary, &format!("{length}.p90")).0,
        );
        assert!(
            p10 <= mean_length && mean_length <= p90,
            "{game}: mean length {mean_length}"
        );
    }
    let summary = json(&["simulate", "soleils", "--games", "200", "--seed", "5"]);
    let (won, taken, declined) = (
        value(&summary, "bonus_digits").0,
        value(&summary, "bonus_digits.taken").0,
        value(&summary, "bonus_digits.declined").0,
    );
    assert!((taken + declined - won).abs() < 1e-9);
    for zone in ["koinobori", "cabins", "bottles", "sailboats", "seagulls"] {
        let (fill, _, _) = value(&summary, &format!("zone_fill.{zone}"));
        assert!(fill > 0.0 && fill < 1.0, "{zone}: {fill}");
    }
    assert!(value(&summary, "crab_copies").0 > 0.0);
    assert!(value(&summary, "frog_boxes").0 > 0.0);
    // A quantile has no paired difference: a comparison gives the mean
    // length's, and no quantile row.
    let compared = json(&[
        "compare",
        "soleils",
        "--games",
        "20",
        "--b-option",
        "sun_bonus=exact",
    ]);
    let ids: Vec<&str> = compared["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"rounds") && ids.contains(&"source.pearls"),
        "{ids:?}"
    );
    assert!(!ids.iter().any(|id| id.starts_with("rounds.")), "{ids:?}");
}
