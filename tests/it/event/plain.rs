//! The standings and the seating's repeat meetings checked against a
//! second, deliberately plain reading of docs/events.md. For the standings: the event log's lines as JSON, the points of each rank
//! shared by tied players, a bye as a win, every tie-break, in the order
//! the event declares, on exact integers (every number of points scaled by
//! 27,720, the least common multiple of the table sizes 1 to 12, so that
//! every share is whole). For the seating: every pair of players, in
//! either seat order, and every meeting after their first. It shares no
//! code with `sunfold::event` beyond the entries it is given; a random
//! event is played into both.

use crate::common::{self, snapshots, sunfold};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use sunfold::event::entry::{Player, SeatResult, SeatedTable, Sitter, TableBot, TableResult};
use sunfold::event::{EVENT_FORMAT, Entry, EventGame, EventState, Seating, TieBreak, standings};
use sunfold::kit::rng::SeededRng;

/// Every number of points times this is whole.
const SCALE: i64 = 27_720;

/// Each seat of a table's result: the player's id (a bot's name), score,
/// rank, and whether a bot played it.
type Seats = Vec<(String, i64, usize, bool)>;

/// A pair who meet again: their table, their ids in order, and how often
/// they met before.
type Again = (u64, String, String, u32);

/// One player's standing as the docs define it, points scaled by
/// [`SCALE`].
#[derive(Clone, Debug, PartialEq)]
struct PlainRow {
    rank: u32,
    id: String,
    points: i64,
    score: i64,
    buchholz: i64,
    buchholz_cut1: i64,
    margin: i64,
    head_to_head: i64,
    draw: u32,
    played: u32,
    byes: u32,
    dropped: bool,
}

/// The draw: the first four bytes of the SHA-256 of `SEED:ID`, big-endian.
fn plain_draw(seed: u64, id: &str) -> u32 {
    let digest = Sha256::digest(format!("{seed}:{id}").as_bytes());
    u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// The standings of the event whose log lines are `lines`, and the number
/// of rounds whose every table has a result.
fn plain_standings(lines: &[Value]) -> (Vec<PlainRow>, u32) {
    let created = &lines[0];
    let points: Vec<i64> = (created["points"].as_array().unwrap().iter())
        .map(|p| p.as_i64().unwrap())
        .collect();
    let rank_points = |rank: usize| points.get(rank - 1).copied().unwrap_or(0);
    let seed = created["seed"].as_u64().unwrap();
    let tie_breaks: Vec<String> = (created["tie_breaks"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap().to_owned())
        .collect();
    // The players, in the order they came; who dropped; each round's
    // tables and byes; each table's standing result.
    let mut ids: Vec<String> = Vec::new();
    let mut dropped: BTreeSet<String> = BTreeSet::new();
    let mut byes: Vec<String> = Vec::new();
    let mut seated: Vec<usize> = Vec::new();
    let mut results: BTreeMap<(u64, u64), Seats> = BTreeMap::new();
    for line in &lines[1..] {
        match line["type"].as_str().unwrap() {
            "registered" | "arrived" => ids.push(line["id"].as_str().unwrap().to_owned()),
            "dropped" => {
                dropped.insert(line["id"].as_str().unwrap().to_owned());
            }
            "seated" => {
                seated.push(line["tables"].as_array().unwrap().len());
                for id in line["bye"].as_array().unwrap() {
                    byes.push(id.as_str().unwrap().to_owned());
                }
            }
            "result" | "corrected" => {
                let seats = (line["seats"].as_array().unwrap().iter())
                    .map(|s| {
                        let id = s["id"].as_str().unwrap().to_owned();
                        (
                            id,
                            s["score"].as_i64().unwrap(),
                            s["rank"].as_u64().unwrap() as usize,
                            s.get("bot").is_some(),
                        )
                    })
                    .collect();
                let key = (
                    line["round"].as_u64().unwrap(),
                    line["table"].as_u64().unwrap(),
                );
                results.insert(key, seats);
            }
            _ => {}
        }
    }
    let rounds_complete = (seated.iter().enumerate())
        .filter(|(i, tables)| {
            (1..=**tables as u64).all(|t| results.contains_key(&(*i as u64 + 1, t)))
        })
        .count() as u32;
    let mut rows: Vec<PlainRow> = (ids.iter())
        .map(|id| PlainRow {
            rank: 0,
            id: id.clone(),
            points: 0,
            score: 0,
            buchholz: 0,
            buchholz_cut1: 0,
            margin: 0,
            head_to_head: 0,
            draw: plain_draw(seed, id),
            played: 0,
            byes: 0,
            dropped: dropped.contains(id),
        })
        .collect();
    let at = |rows: &[PlainRow], id: &str| rows.iter().position(|r| r.id == id).unwrap();
    // A bye is a win: the points of the first rank, alone.
    for id in &byes {
        let i = at(&rows, id);
        rows[i].byes += 1;
        rows[i].points += rank_points(1) * SCALE;
    }
    // Each table: the points of the ranks a tied group covers, shared. A
    // bot's seat counts in the ranks, the ties and the best other score,
    // as anyone's; it wins nothing, has no row and is no one's opponent.
    let mut won: Vec<Vec<(String, i64)>> = Vec::new();
    for seats in results.values() {
        let mut table = Vec::new();
        for (id, score, rank, _) in seats.iter().filter(|s| !s.3) {
            let tied = seats.iter().filter(|s| s.2 == *rank).count();
            let covered: i64 = (*rank..*rank + tied).map(rank_points).sum();
            let share = covered * SCALE / tied as i64;
            let best_other = (seats.iter())
                .filter(|s| &s.0 != id)
                .map(|s| s.1)
                .max()
                .unwrap();
            let i = at(&rows, id);
            rows[i].points += share;
            rows[i].score += score;
            rows[i].margin += score - best_other;
            rows[i].played += 1;
            table.push((id.clone(), share));
        }
        won.push(table);
    }
    // Buchholz: the final points of every opponent, once per meeting.
    let final_points: BTreeMap<String, i64> =
        rows.iter().map(|r| (r.id.clone(), r.points)).collect();
    for row in rows.iter_mut() {
        let mut met = Vec::new();
        for seats in results.values() {
            if seats.iter().any(|s| s.0 == row.id) {
                for s in seats.iter().filter(|s| s.0 != row.id && !s.3) {
                    met.push(final_points[&s.0]);
                }
            }
        }
        row.buchholz = met.iter().sum();
        row.buchholz_cut1 = row.buchholz - met.iter().min().copied().unwrap_or(0);
    }
    // The order: the points, then each tie-break within the players still
    // tied, each group apart; the value that is better first.
    let key = |row: &PlainRow, tie_break: &str| -> i64 {
        match tie_break {
            "score" => row.score,
            "buchholz" => row.buchholz,
            "buchholz_cut1" => row.buchholz_cut1,
            "margin" => row.margin,
            "head_to_head" => row.head_to_head,
            "draw" => -i64::from(row.draw),
            other => panic!("unknown tie-break {other}"),
        }
    };
    let mut groups: Vec<Vec<PlainRow>> = vec![rows];
    for step in std::iter::once("points").chain(tie_breaks.iter().map(String::as_str)) {
        let mut next = Vec::new();
        for mut group in groups {
            if step == "points" || group.len() > 1 {
                if step == "head_to_head" {
                    let members: Vec<String> = group.iter().map(|r| r.id.clone()).collect();
                    for row in group.iter_mut() {
                        row.head_to_head = 0;
                        for table in &won {
                            let mine = table.iter().find(|(id, _)| *id == row.id);
                            let shared =
                                (table.iter()).any(|(id, _)| *id != row.id && members.contains(id));
                            if let (Some((_, points)), true) = (mine, shared) {
                                row.head_to_head += points;
                            }
                        }
                    }
                }
                let value = |r: &PlainRow| {
                    if step == "points" {
                        r.points
                    } else {
                        key(r, step)
                    }
                };
                let values: BTreeSet<i64> = group.iter().map(value).collect();
                for v in values.into_iter().rev() {
                    let part: Vec<PlainRow> =
                        group.iter().filter(|r| value(r) == v).cloned().collect();
                    next.push(part);
                }
                group.clear();
            } else {
                next.push(group);
            }
        }
        groups = next;
    }
    let mut ordered = Vec::new();
    for mut group in groups {
        group.sort_by(|a, b| a.id.cmp(&b.id));
        let rank = ordered.len() as u32 + 1;
        for mut row in group {
            row.rank = rank;
            ordered.push(row);
        }
    }
    (ordered, rounds_complete)
}

/// `40/3` (or `6`) scaled by [`SCALE`].
fn scaled(exact: &Value) -> i64 {
    let text = exact.as_str().unwrap();
    match text.split_once('/') {
        Some((n, d)) => n.parse::<i64>().unwrap() * SCALE / d.parse::<i64>().unwrap(),
        None => text.parse::<i64>().unwrap() * SCALE,
    }
}

/// The standings JSON's rows, read back as plain rows.
fn rows_of(report: &Value) -> Vec<PlainRow> {
    (report["rows"].as_array().unwrap().iter())
        .map(|r| {
            for field in ["points", "buchholz", "buchholz_cut1", "head_to_head"] {
                let float = r[field].as_f64().unwrap();
                let exact = scaled(&r[format!("{field}_exact")]) as f64 / SCALE as f64;
                assert!(
                    (float - exact).abs() < 1e-9,
                    "{field}: {float} against {exact}"
                );
            }
            PlainRow {
                rank: r["rank"].as_u64().unwrap() as u32,
                id: r["id"].as_str().unwrap().to_owned(),
                points: scaled(&r["points_exact"]),
                score: r["score"].as_i64().unwrap(),
                buchholz: scaled(&r["buchholz_exact"]),
                buchholz_cut1: scaled(&r["buchholz_cut1_exact"]),
                margin: r["margin"].as_i64().unwrap(),
                head_to_head: scaled(&r["head_to_head_exact"]),
                draw: r["draw"].as_u64().unwrap() as u32,
                played: r["played"].as_u64().unwrap() as u32,
                byes: r["byes"].as_u64().unwrap() as u32,
                dropped: r["dropped"].as_bool().unwrap(),
            }
        })
        .collect()
}

fn pick<T: Clone>(rng: &mut SeededRng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize].clone()
}

fn shuffle<T>(rng: &mut SeededRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// The seats of a table with random scores, low so that they tie, and
/// ranks that are either the scores' (ties share the best rank) or, as a
/// game's own tie-breaks may give them, of another order.
fn result(rng: &mut SeededRng, round: u32, table: &SeatedTable) -> TableResult {
    let sitters = table.seats();
    let scores: Vec<i64> = (sitters.iter()).map(|_| rng.below(5) as i64).collect();
    let keys: Vec<i64> = if rng.chance(70) {
        scores.clone()
    } else {
        (sitters.iter()).map(|_| rng.below(3) as i64).collect()
    };
    let seats = (sitters.iter().enumerate())
        .map(|(i, sitter)| {
            let (id, bot) = match sitter {
                Sitter::Player(id) => (id.to_string(), None),
                Sitter::Bot(bot) => (bot.name.clone(), Some(bot.bot)),
            };
            SeatResult {
                id,
                score: scores[i],
                rank: 1 + keys.iter().filter(|k| **k > keys[i]).count() as u32,
                bot,
            }
        })
        .collect();
    TableResult {
        round,
        table: table.table,
        hash: "0".repeat(64),
        ended: "over".to_owned(),
        seats,
        reason: None,
    }
}

/// A random event as its log's entries: random tables, shared ranks,
/// byes, players out of a round, drops, late arrivals, corrections, a last
/// round not always complete, and any order of tie-breaks, with or without
/// the draw; with `bots`, a bot in some seats a bye or a short table
/// leaves.
fn random_event(seed: u64, bots: bool) -> Vec<Entry> {
    let mut rng = SeededRng::new(seed);
    let game = if rng.chance(70) {
        EventGame::Soleils
    } else {
        EventGame::Summertime
    };
    let max = match game {
        EventGame::Soleils => 2 + rng.below(5) as usize,
        EventGame::Summertime => 2,
    };
    let points: Vec<u32> = match rng.below(3) {
        0 => vec![6, 5, 3, 1, 0],
        1 => vec![1, 0],
        _ => (0..1 + rng.below(6)).map(|_| rng.below(8) as u32).collect(),
    };
    let mut tie_breaks: Vec<TieBreak> = (TieBreak::ALL.into_iter())
        .filter(|t| *t != TieBreak::Draw && rng.chance(50))
        .collect();
    shuffle(&mut rng, &mut tie_breaks);
    if rng.chance(80) {
        tie_breaks.push(TieBreak::Draw);
    }
    let rounds = 1 + rng.below(5) as u32;
    let mut entries = vec![Entry::Created {
        format: EVENT_FORMAT,
        game,
        table_size: max as u32,
        rounds,
        points,
        seed: rng.next_u64() % 1000,
        tie_breaks,
        leftover: Default::default(),
        template: None,
        options: None,
        deck: None,
    }];
    let mut present: Vec<String> = Vec::new();
    let mut next_id = 0;
    let mut join = |rng: &mut SeededRng, present: &mut Vec<String>, arrived: bool| {
        next_id += 1;
        // Ids of several shapes, so that their order is not the order of
        // arrival.
        let id = pick(rng, &["p", "x", "id-", "Z"]).to_owned() + &next_id.to_string();
        let player = Player {
            id: id.clone(),
            name: format!("Player {next_id}"),
        };
        present.push(id);
        if arrived {
            Entry::Arrived(player)
        } else {
            Entry::Registered(player)
        }
    };
    for _ in 0..2 + rng.below(13) {
        entries.push(join(&mut rng, &mut present, false));
    }
    for round in 1..=rounds {
        if round > 1 {
            for _ in 0..rng.below(3) {
                entries.push(join(&mut rng, &mut present, true));
            }
            while present.len() > 2 && rng.chance(20) {
                let id = present.remove(rng.below(present.len() as u64) as usize);
                entries.push(Entry::Dropped { id });
            }
        }
        let mut order = present.clone();
        shuffle(&mut rng, &mut order);
        let mut out = Vec::new();
        if order.len() > 3 && rng.chance(10) {
            out.push(order.pop().unwrap());
        }
        let mut bye = Vec::new();
        while bye.len() < 2 && order.len() > 2 && rng.chance(25) {
            bye.push(order.pop().unwrap());
        }
        let mut tables = Vec::new();
        while order.len() >= 2 {
            let size = (2 + rng.below(max as u64 - 1) as usize).min(order.len());
            let size = if order.len() - size == 1 {
                size - 1
            } else {
                size
            };
            let size = size.max(2);
            let players: Vec<String> = order.drain(..size).collect();
            tables.push(SeatedTable::of_players(tables.len() as u32 + 1, players));
        }
        bye.append(&mut order);
        if bots {
            // A bye's player may play a bot instead; a table short of the
            // size may take one.
            for id in std::mem::take(&mut bye) {
                if rng.chance(50) {
                    tables.push(SeatedTable::of_players(tables.len() as u32 + 1, vec![id]));
                } else {
                    bye.push(id);
                }
            }
            // A table short of players takes one bot or several, up to
            // the table's size, each in a free seat under its own name.
            for table in tables.iter_mut() {
                if table.size() < max && (table.size() == 1 || rng.chance(40)) {
                    let bots = 1 + rng.below((max - table.size()) as u64) as usize;
                    for k in 1..=bots {
                        let free: Vec<u32> = (1..=table.size() as u32 + 1)
                            .filter(|s| table.bots.iter().all(|b| b.seat != *s))
                            .collect();
                        let seat = free[rng.below(free.len() as u64) as usize];
                        let bot = pick(&mut rng, &["random", "greedy", "search:4"]);
                        let name = match k {
                            1 => format!("Bot ({bot})"),
                            k => format!("Bot {k} ({bot})"),
                        };
                        table.bots.push(TableBot {
                            seat,
                            bot: sunfold::bots::Bot::parse(bot).unwrap(),
                            name,
                        });
                    }
                }
            }
        }
        entries.push(Entry::Seated {
            round,
            tables: tables.clone(),
            bye,
            out,
        });
        let last = round == rounds;
        for table in &tables {
            if last && rng.chance(15) {
                continue;
            }
            entries.push(Entry::Result(result(&mut rng, round, table)));
            if rng.chance(10) {
                let mut corrected = result(&mut rng, round, table);
                corrected.reason = Some("read again".to_owned());
                entries.push(Entry::Corrected(corrected));
            }
        }
    }
    entries
}

/// The event the entries describe, each applied as the log reader does.
fn state_of(entries: &[Entry]) -> EventState {
    let mut state = EventState::created(&entries[0]).unwrap();
    for entry in &entries[1..] {
        state
            .apply(entry)
            .unwrap_or_else(|e| panic!("{entry:?}: {e}"));
    }
    state
}

fn lines_of(entries: &[Entry]) -> Vec<Value> {
    entries
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}

#[test]
fn the_standings_agree_with_a_plain_reading_of_the_docs_over_1000_random_events() {
    let mut shared = 0;
    let mut decided_by = BTreeMap::new();
    for seed in 0..1000 {
        // Given a random event.
        let entries = random_event(seed, false);
        // When the standings are computed and read back from their JSON.
        let report = serde_json::to_value(standings(&state_of(&entries))).unwrap();
        // Then they are the plain reading's, row by row.
        let (plain, complete) = plain_standings(&lines_of(&entries));
        assert_eq!(rows_of(&report), plain, "event {seed}: {entries:#?}");
        assert_eq!(report["rounds_complete"], json!(complete), "event {seed}");
        shared += (plain.windows(2))
            .filter(|w| w[0].rank == w[1].rank)
            .count();
        for w in plain.windows(2).filter(|w| w[0].points == w[1].points) {
            let tie_breaks = report["tie_breaks"].as_array().unwrap().len();
            *decided_by.entry(tie_breaks).or_insert(0) += u32::from(w[0].rank != w[1].rank);
        }
    }
    // The events reach what the check is for: shared ranks, and ties on
    // points broken.
    assert!(shared > 100, "{shared} shared ranks");
    assert!(decided_by.values().sum::<u32>() > 1000, "{decided_by:?}");
}

/// Given random events where a bot plays some seats a bye or a short
/// table leaves, when the standings are computed, then they are the plain
/// reading's: the bot takes its place in its table's ranks and ties and
/// counts as the best other score for the margin, is never ranked, wins
/// nothing, and is no one's opponent in the Buchholz sums.
#[test]
fn standings_with_bot_seats_agree_with_the_plain_reading_over_500_random_events() {
    let mut bot_tables = 0;
    for seed in 0..500 {
        let entries = random_event(30_000 + seed, true);
        let state = state_of(&entries);
        bot_tables += (state.rounds.iter())
            .flat_map(|r| r.results.values())
            .filter(|r| r.seats.iter().any(|s| s.bot.is_some()))
            .count();
        let report = serde_json::to_value(standings(&state)).unwrap();
        let (plain, complete) = plain_standings(&lines_of(&entries));
        assert_eq!(rows_of(&report), plain, "event {seed}: {entries:#?}");
        assert_eq!(report["rounds_complete"], json!(complete), "event {seed}");
        let rows = report["rows"].as_array().unwrap();
        assert!(
            rows.iter()
                .all(|r| !r["name"].as_str().unwrap().starts_with("Bot (")),
            "event {seed}"
        );
    }
    assert!(bot_tables > 200, "{bot_tables} results with a bot");
}

#[test]
fn the_standings_command_agrees_with_the_plain_reading_on_events_written_to_disk() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..30 {
        // Given a random event written as a log.
        // Half of them with bot seats, read back from the file.
        let entries = random_event(10_000 + seed, seed % 2 == 1);
        let path = dir.path().join(format!("event-{seed}.jsonl"));
        sunfold::event::file::create(&path, &entries, false, &sunfold::table::SystemClock).unwrap();
        // When `event standings` prints its JSON.
        let (code, out, err) = sunfold(&[
            "event",
            "standings",
            path.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        // Then its rows are the plain reading's of the log's lines.
        let lines: Vec<Value> = (std::fs::read_to_string(&path).unwrap().lines())
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                for envelope in ["seq", "at", "prev"] {
                    v.as_object_mut().unwrap().remove(envelope);
                }
                v
            })
            .collect();
        let report: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(rows_of(&report), plain_standings(&lines).0, "event {seed}");
    }
}

/// Five players at one table of 62 Soleils for four rounds under
/// 6,5,3,1,0, with two three-way ties for third: Hal's points are
/// 4/3 + 1 + 6 + 5 and those of Ann (2) 6 + 3 + 4/3 + 3, 40/3 each,
/// which a float sum makes 13.333333333333332 and 13.333333333333334.
fn hal_and_ann() -> Vec<Entry> {
    let ids = ["ann2", "hal", "ann", "yan", "zoe"];
    let names = ["Ann (2)", "Hal", "Ann", "Yan", "Zoe"];
    // Each round's scores and ranks, seat by seat in the order of `ids`.
    let rounds: [[(i64, u32); 5]; 4] = [
        [(20, 1), (15, 3), (18, 2), (15, 3), (15, 3)],
        [(15, 3), (14, 4), (20, 1), (18, 2), (10, 5)],
        [(12, 3), (20, 1), (18, 2), (12, 3), (12, 3)],
        [(10, 3), (19, 2), (22, 1), (8, 4), (5, 5)],
    ];
    let mut entries = vec![Entry::Created {
        format: EVENT_FORMAT,
        game: EventGame::Soleils,
        table_size: 5,
        rounds: 4,
        points: vec![6, 5, 3, 1, 0],
        seed: 1,
        tie_breaks: vec![
            TieBreak::Score,
            TieBreak::Buchholz,
            TieBreak::Margin,
            TieBreak::Draw,
        ],
        leftover: Default::default(),
        template: None,
        options: None,
        deck: None,
    }];
    for (id, name) in ids.iter().zip(names) {
        let (id, name) = (id.to_string(), name.to_owned());
        entries.push(Entry::Registered(Player { id, name }));
    }
    for (i, seats) in rounds.iter().enumerate() {
        let round = i as u32 + 1;
        let players: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
        let tables = vec![SeatedTable::of_players(1, players)];
        entries.push(Entry::Seated {
            round,
            tables,
            bye: vec![],
            out: vec![],
        });
        let seats = (ids.iter().zip(seats))
            .map(|(id, (score, rank))| SeatResult {
                id: id.to_string(),
                score: *score,
                rank: *rank,
                bot: None,
            })
            .collect();
        entries.push(Entry::Result(TableResult {
            round,
            table: 1,
            hash: "0".repeat(64),
            ended: "over".to_owned(),
            seats,
            reason: None,
        }));
    }
    entries
}

#[test]
fn players_with_equal_points_summed_in_different_orders_go_to_the_score() {
    // Given Hal and Ann (2), with 40/3 points each, and 68 and 57 in
    // scores.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cup.jsonl");
    sunfold::event::file::create(&path, &hal_and_ann(), false, &sunfold::table::SystemClock)
        .unwrap();
    let path = path.to_str().unwrap();
    // When the standings are printed.
    let (code, text, err) = sunfold(&["event", "standings", path]);
    assert_eq!(code, 0, "{err}");
    let (_, json, _) = sunfold(&["event", "standings", path, "--format", "json"]);
    // Then Hal is ahead on the score, both show 13 1/3 points, and the
    // JSON gives the points exactly and as one float.
    snapshots().bind(|| insta::assert_snapshot!("standings-equal-points-go-to-the-score", text));
    let report: Value = serde_json::from_str(&json).unwrap();
    let row = |id: &str| {
        let rows = report["rows"].as_array().unwrap();
        rows.iter().find(|r| r["id"] == id).unwrap().clone()
    };
    let (hal, ann) = (row("hal"), row("ann2"));
    assert_eq!(
        (hal["rank"].as_u64(), ann["rank"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(hal["points_exact"], "40/3");
    assert_eq!(hal["points"], ann["points"]);
    assert_eq!(hal["points"].as_f64(), Some(40.0 / 3.0));
    // And the drawing of the PDF and the SVG prints the points as the text
    // does, laid out.
    let fonts = sunfold::render::text::Fonts::builtin();
    let drawn =
        sunfold::handout::standings::standings(fonts, &standings(&state_of(&hal_and_ann())), "cup");
    let mut texts = Vec::new();
    for page in &drawn.scene.pages {
        common::layout::texts(&page.items, &mut texts);
    }
    let texts: Vec<String> = texts.into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        texts.iter().filter(|t| *t == "13 1/3").count(),
        2,
        "{texts:?}"
    );
    let numbers = texts
        .iter()
        .filter(|t| t.starts_with(|c: char| c.is_ascii_digit()));
    assert!(!numbers.clone().any(|t| t.contains('.')), "{texts:?}");
    common::layout::assert_laid_out(&drawn.scene, "the standings");
}

/// Each round's repeat meetings by a plain count over the log's lines:
/// the pairs at the round's tables who sat together before (as an
/// unordered pair, with the meetings before), and the repeats of the event
/// up to the round.
fn plain_repeats(lines: &[Value]) -> Vec<(BTreeSet<Again>, u32)> {
    let mut together: Vec<Vec<(u64, Vec<String>)>> = Vec::new();
    for line in lines.iter().filter(|l| l["type"] == "seated") {
        let tables = (line["tables"].as_array().unwrap().iter())
            .map(|t| {
                let players = (t["players"].as_array().unwrap().iter())
                    .map(|p| p.as_str().unwrap().to_owned())
                    .collect();
                (t["table"].as_u64().unwrap(), players)
            })
            .collect();
        together.push(tables);
    }
    let mut rounds = Vec::new();
    for (r, tables) in together.iter().enumerate() {
        let times = |a: &str, b: &str, rounds: &[Vec<(u64, Vec<String>)>]| -> u32 {
            let both = |t: &Vec<String>| t.iter().any(|p| p == a) && t.iter().any(|p| p == b);
            rounds.iter().flatten().filter(|(_, t)| both(t)).count() as u32
        };
        let mut pairs = BTreeSet::new();
        for (table, players) in tables {
            for a in players {
                for b in players {
                    let before = times(a, b, &together[..r]);
                    if a < b && before > 0 {
                        pairs.insert((*table, a.clone(), b.clone(), before));
                    }
                }
            }
        }
        // Every pair that sat together up to here, less their first time.
        let mut so_far = 0;
        let ids: BTreeSet<&String> = together[..=r]
            .iter()
            .flatten()
            .flat_map(|(_, t)| t)
            .collect();
        for a in &ids {
            for b in &ids {
                if a < b {
                    so_far += times(a, b, &together[..=r]).saturating_sub(1);
                }
            }
        }
        rounds.push((pairs, so_far));
    }
    rounds
}

#[test]
fn the_seating_counts_repeat_meetings_as_a_plain_count_of_pairs_does() {
    let mut repeated = 0;
    for seed in 0..300 {
        // Given a random event.
        let entries = random_event(20_000 + seed, false);
        let state = state_of(&entries);
        let plain = plain_repeats(&lines_of(&entries));
        // When each round's seating is read.
        for (i, (pairs, so_far)) in plain.iter().enumerate() {
            let seating = Seating::of(&state, Some(i as u32 + 1)).unwrap();
            // Then it names the pairs who meet again, and counts the
            // repeats so far, as the plain count does.
            let named: BTreeSet<Again> = (seating.repeats.iter())
                .map(|r| {
                    let (a, b) = (r.players[0].id.clone(), r.players[1].id.clone());
                    let (a, b) = if a < b { (a, b) } else { (b, a) };
                    (u64::from(r.table), a, b, r.met_before)
                })
                .collect();
            assert_eq!(
                named.len(),
                seating.repeats.len(),
                "event {seed}: a pair named twice"
            );
            assert_eq!(&named, pairs, "event {seed} round {}", i + 1);
            assert_eq!(
                seating.repeats_so_far,
                *so_far,
                "event {seed} round {}",
                i + 1
            );
            repeated += pairs.len();
        }
    }
    assert!(repeated > 100, "the events meet again: {repeated} pairs");
}
