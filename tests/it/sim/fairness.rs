//! Seat fairness measures the seat, not the seating: given bots of
//! unequal strength, when the same lineup turns through the seats, then
//! the seats of the strongest bot agree within their intervals; and given
//! the same bot in every seat, no seat stands out more often than the 5%
//! the intervals allow.

use crate::common;
use serde_json::Value;

fn report(args: &[&str]) -> Value {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    let (code, stdout, stderr) = common::sunfold(&args);
    assert_eq!(code, 0, "sunfold {args:?} failed: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

fn interval(v: &Value) -> (f64, f64, f64) {
    let f = |x: &Value| x.as_f64().unwrap();
    (f(&v["estimate"]), f(&v["ci95"][0]), f(&v["ci95"][1]))
}

#[test]
fn the_seats_of_one_lineup_turned_through_the_table_agree_within_their_intervals() {
    // The lineup that once read 47.6 / 95.5 / 51.6% (greedy alone at seat
    // 2, sharing the other seats with itself).
    let r = report(&[
        "simulate",
        "soleils",
        "--bot",
        "random,greedy",
        "--players",
        "3",
        "--games",
        "900",
        "--seed",
        "3",
    ]);
    let seats: Vec<(f64, f64, f64)> = (1..=3)
        .map(|p| interval(&r["values"][format!("fairness.seat_{p}")]))
        .collect();
    for (i, a) in seats.iter().enumerate() {
        for b in &seats[i + 1..] {
            assert!(a.1 <= b.2 && b.1 <= a.2, "seats disagree: {seats:?}");
        }
    }
    // One definition of a bot's win rate per seat.
    let greedy = &r["win_rate_per_bot"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["bot"] == "greedy")
        .unwrap()["per_seat"];
    let figure = interval(&r["values"]["bot.greedy.win_rate"]).0;
    assert!(
        (greedy.as_f64().unwrap() - figure).abs() < 1e-12,
        "{greedy} against {figure}"
    );
}

#[test]
fn with_one_bot_everywhere_a_seat_stands_out_no_more_often_than_chance() {
    // Twenty batches of three seats: at 95% about 3 of the 60 seats' intervals
    // leave out the fair share by chance; 10 or more would happen by chance
    // less than once in a thousand.
    let mut out = 0;
    for seed in 1..=20 {
        let r = report(&[
            "simulate",
            "soleils",
            "--players",
            "3",
            "--games",
            "300",
            "--seed",
            &seed.to_string(),
        ]);
        for p in 1..=3 {
            let (_, low, high) = interval(&r["values"][format!("win_rate.seat_{p}")]);
            if !(low..=high).contains(&(1.0 / 3.0)) {
                out += 1;
            }
        }
    }
    assert!(out < 10, "{out} of 60 seats stand out");
}
