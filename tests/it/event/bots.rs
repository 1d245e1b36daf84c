//! A bot in an event's empty seat, through the built binary and the
//! library: `event seat --bot` in place of a Summertime bye and in the
//! seats of 62 Soleils tables short of their size, the seating that says
//! so in text, JSON and on paper, a name that never collides with a
//! player's, `event play` and the standings that never rank the bot, the
//! server's question (`bots_at`), and older logs that read as they did.

use crate::common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use sunfold::bots::Bot;
use sunfold::event::entry::{Entry, SeatedTable, TableBot};
use sunfold::event::{EventLog, EventState};

fn scratch(name: &str) -> PathBuf {
    common::scratch(&format!("event-bots-{name}"))
}

use super::organiser::s;
use common::run_ok as run;

/// A new event of `game` for `names` (one a line) with `extra` arguments.
fn new_event(dir: &Path, game: &str, names: &str, extra: &[&str]) -> PathBuf {
    let players = dir.join("players.txt");
    std::fs::write(&players, names).unwrap();
    let event = dir.join("e.jsonl");
    let mut args = vec!["event", "new", s(&event), "--game", game];
    args.extend(["--players-file", s(&players), "--seed", "7"]);
    args.extend(extra);
    run(&args);
    event
}

/// A 62 Soleils event of five players at tables of four, one round.
fn five_at_fours(dir: &Path) -> PathBuf {
    let names = "Ann\nBob\nCid\nDee\nEve\n";
    new_event(
        dir,
        "soleils",
        names,
        &["--rounds", "1", "--table-size", "4"],
    )
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&run(args)).unwrap()
}

/// The seats of each table of the seating JSON: (name, bot).
fn tables(seating: &Value) -> Vec<Vec<(String, Option<String>)>> {
    (seating["tables"].as_array().unwrap().iter())
        .map(|t| {
            (t["players"].as_array().unwrap().iter())
                .map(|p| {
                    let bot = p.get("bot").map(|b| b.as_str().unwrap().to_owned());
                    (p["name"].as_str().unwrap().to_owned(), bot)
                })
                .collect()
        })
        .collect()
}

/// The player names at the start of a table log.
fn log_players(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap();
    let start: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    (start["players"].as_array().unwrap().iter())
        .map(|p| p.as_str().unwrap().to_owned())
        .collect()
}

/// Given a Summertime Swiss of five players, when a round is seated with
/// `--bot greedy`, then no one has a bye: the player who would have had it
/// plays "Bot (greedy)" at a table of their own, which the seating names
/// in text and JSON, the table's log seats under that name, `event play`
/// plays it, and the standings rank the five players alone. The next round
/// gives the bot to another player, as a bye would go.
#[test]
fn a_summertime_bye_becomes_a_game_against_a_bot() {
    let dir = scratch("summertime");
    let names = "Ann\nBob\nCid\nDee\nEve\n";
    let event = new_event(&dir, "summertime", names, &["--rounds", "2"]);
    let text = run(&["event", "seat", s(&event), "--bot", "greedy"]);
    assert!(!text.contains("bye:"), "{text}");
    assert!(text.contains("(a bot: seat "), "{text}");
    let seating = json(&["event", "seating", s(&event), "--format", "json"]);
    let seated = tables(&seating);
    assert_eq!(seated.len(), 3, "{seating:#}");
    assert_eq!(seating["bye"], serde_json::json!([]));
    let with_bot: Vec<usize> = (0..3)
        .filter(|&t| seated[t].iter().any(|(_, bot)| bot.is_some()))
        .collect();
    assert_eq!(with_bot, [2], "{seating:#}");
    assert_eq!(seating["tables"][2]["bots"], 1);
    assert_eq!(seating["tables"][0]["bots"], 0);
    let bot_seat = seated[2].iter().find(|(_, b)| b.is_some()).unwrap();
    assert_eq!(
        bot_seat,
        &("Bot (greedy)".to_owned(), Some("greedy".to_owned()))
    );
    let first = seated[2]
        .iter()
        .find(|(_, b)| b.is_none())
        .unwrap()
        .0
        .clone();
    let log = dir.join("e.d/round-1/table-3.jsonl");
    let in_log = log_players(&log);
    assert!(in_log.contains(&"Bot (greedy)".to_owned()) && in_log.contains(&first));

    run(&["event", "play", s(&event)]);
    let standings = json(&["event", "standings", s(&event), "--format", "json"]);
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "{standings:#}");
    assert!(
        rows.iter()
            .all(|r| !r["name"].as_str().unwrap().contains("Bot"))
    );
    assert!(rows.iter().all(|r| r["byes"] == 0 && r["played"] == 1));
    let audit = run(&["audit", s(&log)]);
    assert!(audit.contains("valid"), "{audit}");

    run(&["event", "seat", s(&event), "--bot", "greedy"]);
    let seating = json(&["event", "seating", s(&event), "--format", "json"]);
    let second = tables(&seating);
    let against_bot: Vec<&String> = (second.iter())
        .filter(|t| t.iter().any(|(_, b)| b.is_some()))
        .flat_map(|t| t.iter().filter(|(_, b)| b.is_none()).map(|(n, _)| n))
        .collect();
    assert_eq!(against_bot.len(), 1);
    assert_ne!(against_bot[0], &first, "the bot goes round as a bye would");
}

/// Given a 62 Soleils event of five players at tables of four, when a
/// round is seated with `--bot random`, then the tables of three and two
/// are filled up to four: one bot and two, named apart, a player in seat
/// 1; `event play` plays the round and the standings hold the five
/// players alone. The printed round paper says which seats a bot plays.
#[test]
fn short_62_soleils_tables_are_filled_with_bots() {
    let dir = scratch("soleils");
    let event = five_at_fours(&dir);
    let text = run(&["event", "seat", s(&event), "--bot", "random"]);
    let seating = json(&["event", "seating", s(&event), "--format", "json"]);
    let seated = tables(&seating);
    let sizes: Vec<usize> = seated.iter().map(Vec::len).collect();
    assert_eq!(sizes, [4, 4], "{text}");
    let bots: Vec<usize> = (seated.iter())
        .map(|t| t.iter().filter(|(_, b)| b.is_some()).count())
        .collect();
    assert_eq!(bots, [1, 2], "{text}");
    for table in &seated {
        assert!(table[0].1.is_none(), "a player starts: {table:?}");
    }
    let names: Vec<&str> = (seated[1].iter())
        .filter(|(_, b)| b.is_some())
        .map(|(n, _)| n.as_str())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["Bot (random)", "Bot 2 (random)"]);
    assert_eq!(log_players(&dir.join("e.d/round-1/table-2.jsonl")).len(), 4);

    run(&["event", "play", s(&event)]);
    let standings = json(&["event", "standings", s(&event), "--format", "json"]);
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(
        rows.iter()
            .all(|r| !r["name"].as_str().unwrap().contains("Bot"))
    );
    // The rating rates the people alone, each table's among themselves
    // (three, then two beside two bots), never a bot.
    let rated = json(&["rating", s(&event), "--format", "json"]);
    let rated: Vec<&Value> = rated["rows"].as_array().unwrap().iter().collect();
    assert_eq!(rated.len(), 5, "{rated:?}");
    assert!(
        rated
            .iter()
            .all(|r| !r["name"].as_str().unwrap().contains("Bot")),
        "{rated:?}"
    );
    assert!(rated.iter().all(|r| r["tables"] == 1), "{rated:?}");

    let pdf = dir.join("round.pdf");
    run(&["event", "print", s(&event), "-o", s(&pdf)]);
    let out = std::process::Command::new("pdftotext")
        .args([s(&pdf), "-"])
        .output();
    match out {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("a bot plays seat"), "{text}");
            assert!(text.contains("bots play seats"), "{text}");
            assert!(text.contains("Bot 2 (random)"), "{text}");
        }
        Err(e) => common::skip(&format!("pdftotext: {e}")),
    }
}

/// Given a player called "Bot (greedy)", when a bot is seated, then it
/// plays as "Bot 2 (greedy)": the table's log never holds a name twice.
#[test]
fn a_bot_never_takes_a_players_name() {
    let dir = scratch("names");
    let names = "Ann\nBot (greedy)\nCid\n";
    let event = new_event(&dir, "summertime", names, &["--rounds", "1"]);
    run(&["event", "seat", s(&event), "--bot", "greedy"]);
    let seating = json(&["event", "seating", s(&event), "--format", "json"]);
    let all: Vec<(String, Option<String>)> = tables(&seating).into_iter().flatten().collect();
    let bot: Vec<&String> = (all.iter())
        .filter(|(_, b)| b.is_some())
        .map(|(n, _)| n)
        .collect();
    assert_eq!(bot, ["Bot 2 (greedy)"]);
    run(&["event", "play", s(&event)]);
    let standings = json(&["event", "standings", s(&event), "--format", "json"]);
    let names: Vec<&str> = (standings["rows"].as_array().unwrap().iter())
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 3);
    assert!(
        names.contains(&"Bot (greedy)"),
        "the player is ranked: {names:?}"
    );
}

/// Given a round seated with bots, when the server asks which seats of a
/// table a bot plays, then it gets each bot's name in the table's log and
/// its bot; a table of players alone has none; a table not seated is
/// refused.
#[test]
fn the_server_learns_which_seats_a_bot_plays() {
    let dir = scratch("bots-at");
    let event = five_at_fours(&dir);
    run(&["event", "seat", s(&event), "--bot", "search:8"]);
    let state = EventLog::open(&event).unwrap().state;
    let at = |t| state.bots_at(1, t).unwrap();
    assert_eq!(at(1), [("Bot (search:8)".to_owned(), Bot::Search(8))]);
    assert_eq!(
        at(2),
        [
            ("Bot (search:8)".to_owned(), Bot::Search(8)),
            ("Bot 2 (search:8)".to_owned(), Bot::Search(8))
        ]
    );
    assert!(state.bots_at(1, 3).is_err());
    assert!(state.bots_at(2, 1).is_err());
    run(&["event", "play", s(&event)]);
}

/// Given a seating without bots, then `--bot` changes nothing where no
/// seat is empty: eight Summertime players, and eight 62 Soleils players
/// at tables of 4 (where a reshuffled seat would show), seat the same with
/// and without it.
#[test]
fn a_bot_takes_no_seat_that_a_player_fills() {
    let names = "A\nB\nC\nD\nE\nF\nG\nH\n";
    for (game, extra) in [
        ("summertime", &["--rounds", "1"][..]),
        ("soleils", &["--rounds", "1", "--table-size", "4"][..]),
    ] {
        let mut seen = Vec::new();
        for bot in [None, Some("greedy")] {
            let dir = scratch(&format!("full-{game}-{}", bot.is_some()));
            let event = new_event(&dir, game, names, extra);
            let mut args = vec!["event", "seat", s(&event)];
            args.extend(bot.map(|b| ["--bot", b]).into_iter().flatten());
            seen.push(run(&args));
        }
        assert_eq!(seen[0], seen[1], "{game}");
    }
}

/// The event state of a log's entries.
fn state_of(entries: &[Entry]) -> Result<EventState, String> {
    let mut state = EventState::created(&entries[0]).map_err(|e| e.to_string())?;
    for entry in &entries[1..] {
        state.apply(entry).map_err(|e| e.to_string())?;
    }
    Ok(state)
}

/// Given a seating line whose bot is misplaced, unknown, named as a player
/// or alone, when it is applied, then it is refused, saying what it found.
#[test]
fn a_seating_with_a_bad_bot_seat_is_refused_in_words() {
    let old = common::repo().join("tests/older-formats/events/autumn.jsonl");
    let text = std::fs::read_to_string(old).unwrap();
    let lines: Vec<Value> = (text.lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The created line and the registrations, then a seating of our own.
    let entry = |line: &Value| {
        let mut body = line.clone();
        for key in ["seq", "at", "prev"] {
            body.as_object_mut().unwrap().remove(key);
        }
        serde_json::from_value::<Entry>(body).unwrap()
    };
    let mut entries: Vec<Entry> = (lines.iter())
        .take_while(|l| l["type"] != "seated")
        .map(entry)
        .collect();
    let ids: Vec<String> = (lines.iter())
        .filter(|l| l["type"] == "registered")
        .map(|l| l["id"].as_str().unwrap().to_owned())
        .collect();
    let name_of = |id: &str| {
        (lines.iter())
            .find(|l| l["id"] == id)
            .map(|l| l["name"].as_str().unwrap().to_owned())
            .unwrap()
    };
    let bot = |seat, bot: &str, name: &str| TableBot {
        seat,
        bot: Bot::parse(bot).unwrap(),
        name: name.to_owned(),
    };
    let mut found = Vec::new();
    // An unknown bot is refused as the line is read, by the bot's name.
    let mut unknown = serde_json::to_value(bot(2, "greedy", "Bot (clever)")).unwrap();
    unknown["bot"] = "clever".into();
    let read = serde_json::from_value::<TableBot>(unknown).unwrap_err();
    found.push(read.to_string());
    let cases = [
        vec![bot(9, "greedy", "Bot (greedy)")],
        vec![bot(2, "greedy", &name_of(&ids[0]))],
        vec![
            bot(2, "greedy", "Bot (greedy)"),
            bot(2, "random", "Bot (random)"),
        ],
    ];
    for bots in cases {
        let mut table = SeatedTable::of_players(1, ids.clone());
        table.bots = bots;
        let mut with = entries.clone();
        with.push(Entry::Seated {
            round: 1,
            tables: vec![table],
            bye: vec![],
            out: vec![],
        });
        found.push(state_of(&with).unwrap_err());
    }
    // A table of bots alone, beside a table of everyone.
    let mut alone = SeatedTable::of_players(2, vec![]);
    alone.bots = vec![
        bot(1, "greedy", "Bot (greedy)"),
        bot(2, "random", "Bot (random)"),
    ];
    entries.push(Entry::Seated {
        round: 1,
        tables: vec![SeatedTable::of_players(1, ids.clone()), alone],
        bye: vec![],
        out: vec![],
    });
    found.push(state_of(&entries).unwrap_err());
    common::snapshots().bind(|| {
        insta::assert_snapshot!("event_bots__bad_bot_seats", found.join("\n"));
    });
}

/// Given the event logs written before bots could sit at a table, when
/// each line is read and written again, then it is the same JSON: no field
/// is added, so their hashes, their seatings and their standings stand.
#[test]
fn an_event_log_without_bots_reads_and_writes_the_same() {
    for name in ["autumn", "winter"] {
        let old = common::repo().join(format!("tests/older-formats/events/{name}.jsonl"));
        let text = std::fs::read_to_string(&old).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let value: Value = serde_json::from_str(line).unwrap();
            let mut body = value.clone();
            let envelope = body.as_object_mut().unwrap();
            for key in ["seq", "at", "prev"] {
                envelope.remove(key);
            }
            let entry: Entry = serde_json::from_value(body.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&entry).unwrap(),
                body,
                "{name}: {line}"
            );
        }
        let state = EventLog::open(&old).unwrap().state;
        for round in &state.rounds {
            for table in &round.tables {
                assert!(table.bots.is_empty());
                assert!(state.bots_at(round.round, table.table).unwrap().is_empty());
            }
        }
    }
}
