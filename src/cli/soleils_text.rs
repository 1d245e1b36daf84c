//! 62 Soleils state as text for people and JSON for tools.

use crate::soleils::template::{Reward, Template};
use crate::soleils::{How, Player, ScoreLine, State, score};
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

pub fn text(state: &State) -> String {
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
    writeln!(
        out,
        "round {} of {}{roll}",
        state.round(),
        template.rounds()
    )
    .unwrap();
    match state.ended() {
        Some(reason) => {
            writeln!(out, "game over: {reason}").unwrap();
            let lines = crate::soleils::score(state);
            let ranked = lines
                .iter()
                .map(|l| (l.player.as_str(), i64::from(l.total), l.rank));
            writeln!(out, "{}", super::present::winners(ranked)).unwrap();
        }
        None => writeln!(out, "in progress").unwrap(),
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

pub fn view(state: &State) -> super::reports::SoleilsView {
    use super::reports::{SheetView, SoleilsView};
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
