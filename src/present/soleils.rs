//! 62 Soleils in words: the sheets as text for people and as a view for
//! JSON, and [`Present`] for the game.

use super::choice::{Kind, Offer};
use super::command::Command;
use super::json::{SheetView, SoleilsView};
use super::{Pending, Present};
use crate::soleils::template::{Reward, Template};
use crate::soleils::{self, How, Player, ScoreLine, Soleils, State, score};
use std::fmt::Write;

fn reward(reward: Reward) -> String {
    match reward {
        Reward::Starfish(1) => "1 starfish".to_owned(),
        Reward::Starfish(n) => format!("{n} starfish"),
        Reward::Seashells(1) => "1 seashell".to_owned(),
        Reward::Seashells(n) => format!("{n} seashells"),
        Reward::BonusDigit => "bonus digit".to_owned(),
    }
}

/// `K1a(1)=1*`: box, pearl, value, and marks for pearl, crab and bonus.
fn cell(template: &Template, player: &Player, b: usize) -> String {
    let sheet_box = &template.boxes()[b];
    let mut text = format!("{}({})=", sheet_box.id, sheet_box.pearl);
    match player.marks[b] {
        None => text.push('_'),
        Some(mark) => {
            write!(text, "{}", mark.value).unwrap();
            if mark.value == sheet_box.pearl {
                text.push('*');
            }
            match mark.how {
                How::Placed => {}
                How::Crab => text.push('c'),
                How::Bonus => text.push('b'),
            }
        }
    }
    text
}

fn row(template: &Template, player: &Player, boxes: &[usize]) -> String {
    boxes
        .iter()
        .map(|&b| cell(template, player, b))
        .collect::<Vec<_>>()
        .join("  ")
}

fn sheet(out: &mut String, state: &State, player: &Player) {
    let template = state.template();
    let entries: Vec<String> = player.sun.iter().map(u8::to_string).collect();
    writeln!(out, "\n== {} ==", player.name).unwrap();
    writeln!(
        out,
        "sun   {} = {} ({} of {} slots)",
        if entries.is_empty() {
            "-".to_owned()
        } else {
            entries.join(" + ")
        },
        player.sun_total,
        player.sun.len(),
        template.sun_slots()
    )
    .unwrap();
    let thresholds: Vec<String> = template
        .thresholds()
        .iter()
        .zip(&player.thresholds_won)
        .map(|(t, &won)| {
            let mark = match (won, player.sun_total >= t.at) {
                (true, _) => "x",
                (false, true) => "-",
                (false, false) => " ",
            };
            format!("[{mark}] {} {}", t.at, reward(t.reward))
        })
        .collect();
    writeln!(out, "      {}", thresholds.join("  ")).unwrap();
    for (z, zone) in template.zones().iter().enumerate() {
        let filled = zone
            .boxes
            .iter()
            .filter(|&&b| player.marks[b].is_some())
            .count();
        let flag = if player.zones_done[z] {
            "flag circled"
        } else {
            "flag open"
        };
        writeln!(
            out,
            "{}  {filled}/{} filled, {flag}: {}",
            zone.name,
            zone.boxes.len(),
            reward(zone.flag)
        )
        .unwrap();
        let ungrouped: Vec<usize> = zone
            .boxes
            .iter()
            .copied()
            .filter(|&b| template.boxes()[b].group.is_none())
            .collect();
        for &g in &zone.groups {
            let group = &template.groups()[g];
            let done = match (group.reward, player.groups_done[g]) {
                (Some(r), true) => format!("  (done: {})", reward(r)),
                (Some(r), false) => format!("  (open: {})", reward(r)),
                (None, true) => "  (done)".to_owned(),
                (None, false) => String::new(),
            };
            writeln!(
                out,
                "  {:<14}{}{done}",
                group.name,
                row(template, player, &group.boxes)
            )
            .unwrap();
        }
        if !ungrouped.is_empty() {
            writeln!(out, "  {:<14}{}", "", row(template, player, &ungrouped)).unwrap();
        }
    }
}

fn table(out: &mut String, lines: &[ScoreLine]) {
    let width = lines
        .iter()
        .map(|l| l.player.len())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        out,
        "\n{:<width$}  {:>4} {:>5} {:>6} {:>6} {:>9} {:>8} {:>5} {:>4}",
        "player", "sun", "flags", "groups", "pearls", "seashells", "majority", "total", "rank"
    )
    .unwrap();
    for l in lines {
        writeln!(
            out,
            "{:<width$}  {:>4} {:>5} {:>6} {:>6} {:>9} {:>8} {:>5} {:>4}",
            l.player,
            l.sun,
            l.flags,
            l.groups,
            l.pearls,
            l.seashells,
            l.seashell_majority,
            l.total,
            l.rank
        )
        .unwrap();
    }
}

/// The state as text; `called`, the claims that called the game.
pub fn text(state: &State, called: Option<u64>) -> String {
    let template = state.template();
    let mut out = String::new();
    let options = state.options();
    writeln!(
        out,
        "62 Soleils d'été on sheet \"{}\": {} player{}, sun_bonus={}, skip_placement={}",
        template.name(),
        state.players().len(),
        if state.players().len() == 1 { "" } else { "s" },
        options.sun_bonus,
        options.skip_placement
    )
    .unwrap();
    // Named only when not the English rule, so that older logs read as
    // before. (`solo` is the player count: one player is always solo.)
    if options.sailboats != crate::soleils::Sailboats::Symbol {
        out.pop();
        writeln!(out, ", sailboats={}", options.sailboats).unwrap();
    }
    let roll = state
        .dice()
        .map(|[a, b, c]| format!(", dice {a}-{b}-{c}"))
        .unwrap_or_default();
    writeln!(out, "turn {} of {}{roll}", state.round(), template.rounds()).unwrap();
    match state.ended() {
        Some(reason) => {
            writeln!(out, "game over: {reason}").unwrap();
            let lines = crate::soleils::score(state);
            let ranked = lines
                .iter()
                .map(|l| (l.player.as_str(), i64::from(l.total), l.rank));
            writeln!(out, "{}", super::winners(ranked)).unwrap();
        }
        None => match called {
            Some(seq) => {
                writeln!(out, "called by the claims of event {seq}: it ends here").unwrap()
            }
            None => writeln!(out, "in progress").unwrap(),
        },
    }
    writeln!(
        out,
        "legend: box(pearl)=value, * coloured pearl, c crab copy, b bonus digit, _ empty;\n        sun [x] won, [-] passed but not won (exact), [ ] not reached"
    )
    .unwrap();
    for player in state.players() {
        sheet(&mut out, state, player);
    }
    table(&mut out, &score(state));
    out
}

pub fn view(state: &State) -> SoleilsView {
    let template = state.template();
    let players = state
        .players()
        .iter()
        .map(|p| {
            let boxes = p
                .marks
                .iter()
                .enumerate()
                .filter_map(|(b, mark)| Some((template.boxes()[b].id.clone(), (*mark)?)))
                .collect();
            let ids = |done: &[bool], name: &dyn Fn(usize) -> String| -> Vec<String> {
                (0..done.len()).filter(|&i| done[i]).map(name).collect()
            };
            SheetView {
                name: p.name.clone(),
                sun: p.sun.clone(),
                sun_total: p.sun_total,
                thresholds_won: p.thresholds_won.clone(),
                boxes,
                zones_done: ids(&p.zones_done, &|z| template.zones()[z].id.clone()),
                groups_done: ids(&p.groups_done, &|g| template.groups()[g].id.clone()),
                gains: p.gains,
            }
        })
        .collect();
    SoleilsView {
        template: template.name().to_owned(),
        options: state.options(),
        round: state.round(),
        dice: state.dice(),
        ended: state.ended().map(|r| r.to_string()),
        players,
        score: score(state),
    }
}

/// The referee's button that rolls the log's digital dice for the next
/// turn.
pub fn digital_roll(state: &State) -> Offer {
    Offer::button(
        Kind::Roll,
        format!("Roll the digital dice (turn {})", state.round() + 1),
    )
}

impl Present for Soleils {
    fn offer(_state: &State, event: &soleils::Event) -> Option<Offer> {
        use soleils::Event;
        let at = |id: &str| format!("box:{id}");
        Some(match event {
            Event::Placed(e) => Offer::tap(Kind::Place, e.value.to_string(), at(&e.box_id)),
            Event::BonusPlaced(e) => Offer::tap(Kind::Bonus, e.value.to_string(), at(&e.box_id)),
            Event::SunEntered(e) => Offer::button(Kind::Sun, format!("+{}", e.value)),
            Event::CrabCopied(e) => Offer::tap(Kind::Crab, format!("Copy to {}", e.to), at(&e.to)),
            Event::CrabDeclined(_) => Offer::button(Kind::Crab, "No copy".to_owned()),
            Event::BonusDeclined(_) => Offer::button(Kind::Bonus, "No bonus digit".to_owned()),
            Event::Started(_) | Event::Rolled(_) => return None,
        })
    }
    fn actor_name(event: &soleils::Event) -> Option<&str> {
        event.player()
    }
    fn text(state: &soleils::State, called: Option<u64>) -> String {
        text(state, called)
    }
    fn said(before: &soleils::State, after: &soleils::State, event: &soleils::Event) -> String {
        match event {
            soleils::Event::Rolled(r) => {
                let [a, b, c] = r.dice;
                format!("turn {}: rolled {a}-{b}-{c}", before.round() + 1)
            }
            soleils::Event::SunEntered(e) => {
                let total = after
                    .player_index(&e.player)
                    .map_or(0, |p| after.players()[p].sun_total);
                format!("{event}: sun total {total}")
            }
            soleils::Event::Placed(soleils::Placed { player, box_id, .. })
            | soleils::Event::BonusPlaced(soleils::BonusPlaced { player, box_id, .. }) => {
                // A crab box opens a copy decision: say so, with where to.
                let targets: Vec<String> = soleils::legal_events(after)
                    .into_iter()
                    .filter_map(|e| match e {
                        soleils::Event::CrabCopied(c) if &c.player == player => Some(c.to),
                        _ => None,
                    })
                    .collect();
                if targets.is_empty() {
                    event.to_string()
                } else {
                    let last = targets.len() - 1;
                    let to = match targets.as_slice() {
                        [one] => one.clone(),
                        _ => format!("{} or {}", targets[..last].join(", "), targets[last]),
                    };
                    format!("{event}; the crab of {box_id} may copy it to {to}, or be declined")
                }
            }
            _ => event.to_string(),
        }
    }
    type View = SoleilsView;
    fn view(state: &soleils::State) -> Self::View {
        view(state)
    }
    fn describe(event: &soleils::Event) -> String {
        event.to_string()
    }
    fn progress(state: &soleils::State) -> String {
        let dice = state
            .dice()
            .map(|[a, b, c]| format!(", dice {a}-{b}-{c}"))
            .unwrap_or_default();
        match state.ended() {
            Some(reason) => format!("game over after turn {}: {reason}", state.round()),
            None => format!(
                "turn {} of {}{dice}",
                state.round(),
                state.template().rounds()
            ),
        }
    }
    fn pending(state: &soleils::State) -> Vec<Pending> {
        use soleils::Step;
        if state.ended().is_some() {
            return Vec::new();
        }
        if state.round_closed() {
            return vec![Pending::table(format!(
                "the roll for turn {}",
                state.round() + 1
            ))];
        }
        state
            .players()
            .iter()
            .enumerate()
            .filter_map(|(seat, p)| {
                let what = match p.turn.step() {
                    Step::Done => return None,
                    Step::PlaceOrSun => "a placement or a sun entry".to_owned(),
                    Step::Crab(b) => format!(
                        "a crab copy from {} or a decline",
                        state.template().boxes()[b].id
                    ),
                    Step::Sun => "a sun entry".to_owned(),
                    Step::Bonus => "a bonus digit or a decline".to_owned(),
                };
                Some(Pending::seat(seat, what))
            })
            .collect()
    }
    fn ending(state: &soleils::State) -> Option<String> {
        state.ended().map(ToString::to_string)
    }
    fn command(state: &soleils::State, event: &soleils::Event) -> Option<Command> {
        use soleils::Event;
        let player = |p: &str, what: &str| format!("{p}: {what}");
        let (decision, verb, args) = match event {
            Event::Started(_) => return None,
            Event::Rolled(_) => {
                let args = match state.dice_seed() {
                    Some(_) => Vec::new(),
                    None => vec!["--dice".to_owned(), "A,B,C".to_owned()],
                };
                (
                    format!("the roll for turn {}", state.round() + 1),
                    "roll",
                    args,
                )
            }
            Event::Placed(e) => (
                player(&e.player, "a placement"),
                "place",
                vec![e.player.clone(), e.box_id.clone(), e.value.to_string()],
            ),
            Event::SunEntered(e) => (
                player(&e.player, "a sun entry"),
                "sun",
                vec![e.player.clone(), e.value.to_string()],
            ),
            Event::CrabCopied(e) => (
                player(&e.player, &format!("a crab copy from {}", e.from)),
                "crab",
                vec![e.player.clone(), e.to.clone()],
            ),
            Event::CrabDeclined(e) => {
                let from = state
                    .player_index(&e.player)
                    .and_then(|p| match state.players()[p].turn.step() {
                        soleils::Step::Crab(b) => Some(state.template().boxes()[b].id.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                (
                    player(&e.player, &format!("a crab copy from {from}")),
                    "crab",
                    vec![e.player.clone(), "--decline".to_owned()],
                )
            }
            Event::BonusPlaced(e) => (
                player(&e.player, "a bonus digit"),
                "bonus",
                vec![e.player.clone(), e.box_id.clone(), e.value.to_string()],
            ),
            Event::BonusDeclined(e) => (
                player(&e.player, "a bonus digit"),
                "bonus",
                vec![e.player.clone(), "--decline".to_owned()],
            ),
        };
        Some(Command {
            decision,
            verb,
            args,
        })
    }
    fn totals(state: &soleils::State) -> Vec<(String, i64)> {
        soleils::score(state)
            .into_iter()
            .map(|l| (l.player, i64::from(l.total)))
            .collect()
    }
}
