//! Summertime in words: the table as text for people and as a view for
//! JSON, and [`Present`] for the game.

use super::choice::{Kind, Offer};
use super::command::Command;
use super::json::{CellView, HandView, PlayView, SummertimeView, TurnView};
use super::{Pending, Present};
use crate::summertime::deck::{CardIndex, Deck};
use crate::summertime::{self, Phase, State, Summertime, TurnAction, score};
use std::fmt::Write;

fn tiles(deck: &Deck, counts: &[u8]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(item, n)| format!("{n} {}", deck.item_name(item)))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

fn card_name(deck: &Deck, card: CardIndex) -> &str {
    &deck.card(card).name
}

fn grid(out: &mut String, state: &State) {
    let deck = state.deck();
    if state.grid().is_empty() {
        writeln!(out, "grid: empty").unwrap();
        return;
    }
    let xs = state.grid().keys().map(|c| c.0);
    let ys = state.grid().keys().map(|c| c.1);
    let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
    let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
    let label = |t: &crate::summertime::Tableau| {
        format!("{} ·{} +{}", card_name(deck, t.card), t.by + 1, t.points)
    };
    let width = state
        .grid()
        .values()
        .map(|t| label(t).chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    writeln!(
        out,
        "grid: {} card{}, {} wide × {} high; each card: name, player (1 = {}, 2 = {}), points when played",
        state.grid().len(),
        if state.grid().len() == 1 { "" } else { "s" },
        x1 - x0 + 1,
        y1 - y0 + 1,
        state.players()[0].name,
        state.players()[1].name
    )
    .unwrap();
    write!(out, "      ").unwrap();
    for x in x0..=x1 {
        write!(out, "{:<width$}", format!("column {x}")).unwrap();
    }
    writeln!(out).unwrap();
    for y in y0..=y1 {
        write!(out, "{y:>4}  ").unwrap();
        for x in x0..=x1 {
            let text = state.grid().get(&(x, y)).map_or(".".to_owned(), label);
            write!(out, "{text:<width$}").unwrap();
        }
        writeln!(out).unwrap();
    }
}

/// The state as text; `called`, the claims that called the game.
pub fn text(state: &State, called: Option<u64>) -> String {
    let deck = state.deck();
    let mut out = String::new();
    let players = state.players();
    writeln!(
        out,
        "Summertime with deck \"{}\": {} and {}, {} order",
        deck.name(),
        players[0].name,
        players[1].name,
        if state.is_dealt() {
            "dealt"
        } else {
            "physical"
        }
    )
    .unwrap();
    match state.ended() {
        Some(reason) => {
            writeln!(out, "game over: {reason}").unwrap();
            let lines = crate::summertime::score(state);
            let ranked = lines
                .iter()
                .map(|l| (l.player.as_str(), i64::from(l.total), l.rank));
            writeln!(out, "{}", super::winners(ranked)).unwrap();
        }
        None if let Some(seq) = called => {
            writeln!(out, "called by the claims of event {seq}: it ends here").unwrap();
        }
        None => {
            let next = match state.phase() {
                Phase::Reveal(stacks) => reveal_due(state, stacks),
                Phase::Discard => "the discard of the face-up cards".to_owned(),
                Phase::Turn { bought: false, .. } => {
                    format!("{} to buy, flip or pass", players[state.active()].name)
                }
                Phase::Turn {
                    bought: true,
                    plays,
                } => format!(
                    "{} to play (played {plays}) or end the turn",
                    players[state.active()].name
                ),
                Phase::Over => "nothing".to_owned(),
            };
            writeln!(out, "in progress: waiting for {next}").unwrap();
        }
    }
    writeln!(out).unwrap();
    grid(&mut out, state);
    writeln!(out, "\nface-up cards:").unwrap();
    for (stack, card) in state.display().iter().enumerate() {
        let left = state.stacks()[stack].remaining;
        let face = card.map_or("(none)".to_owned(), |c| {
            format!("{} ({})", card_name(deck, c), deck.card(c).id)
        });
        let price = state.price(stack).map_or("unknown".to_owned(), |cost| {
            deck.describe_cost(cost).to_string()
        });
        writeln!(
            out,
            "  stack {stack}: {face:<34} price {price:<38} {left} card{} left",
            if left == 1 { "" } else { "s" }
        )
        .unwrap();
    }
    writeln!(out, "\nplayers:").unwrap();
    for p in players {
        let mut hand: Vec<String> = p
            .hand
            .iter()
            .map(|&c| format!("{} ({})", card_name(deck, c), deck.card(c).id))
            .collect();
        if p.unknown > 0 {
            hand.push(format!("{} unseen dealt card(s)", p.unknown));
        }
        writeln!(out, "  {}: {} points", p.name, p.points).unwrap();
        writeln!(
            out,
            "    hand: {}",
            if hand.is_empty() {
                "empty".to_owned()
            } else {
                hand.join(", ")
            }
        )
        .unwrap();
        writeln!(out, "    tiles face up: {}", tiles(deck, &p.up)).unwrap();
        writeln!(out, "    tiles face down: {}", tiles(deck, &p.down)).unwrap();
    }
    writeln!(out, "\nturns (score track):").unwrap();
    for turn in state.turns() {
        let who = &players[turn.player].name;
        let action = match turn.action {
            TurnAction::Bought { card } => format!("bought {}", card_name(deck, card)),
            TurnAction::Flipped => "turned tiles up".to_owned(),
            TurnAction::Passed => "passed".to_owned(),
        };
        let plays: Vec<String> = turn
            .plays
            .iter()
            .map(|&(card, (x, y), points)| format!("{} ({x},{y}) +{points}", card_name(deck, card)))
            .collect();
        let gained: u32 = turn.plays.iter().map(|p| p.2).sum();
        writeln!(
            out,
            "  {:>3} {:<8} {:<26} +{:<3} = {:<4} {}",
            turn.number,
            who,
            action,
            gained,
            turn.total,
            plays.join(", ")
        )
        .unwrap();
    }
    let lines = score(state);
    let width = lines
        .iter()
        .map(|l| l.player.len())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        out,
        "\n{:<width$}  {:>6} {:>7} {:>7} {:>5} {:>4}",
        "player", "played", "in hand", "penalty", "total", "rank"
    )
    .unwrap();
    for l in &lines {
        writeln!(
            out,
            "{:<width$}  {:>6} {:>7} {:>7} {:>5} {:>4}",
            l.player, l.played, l.in_hand, l.hand_penalty, l.total, l.rank
        )
        .unwrap();
    }
    out
}

pub fn view(state: &State) -> SummertimeView {
    let deck = state.deck();
    let id = |c: CardIndex| deck.card(c).id.clone();
    let grid = state
        .grid()
        .iter()
        .map(|(&(x, y), t)| CellView {
            cell: [x, y],
            card: id(t.card),
            by: state.players()[t.by].name.clone(),
            points: t.points,
            turn: t.turn,
        })
        .collect();
    let players = state
        .players()
        .iter()
        .map(|p| HandView {
            name: p.name.clone(),
            points: p.points,
            hand: p.hand.iter().map(|&c| id(c)).collect(),
            unseen_in_hand: p.unknown,
            tiles_up: p.up.clone(),
            tiles_down: p.down.clone(),
        })
        .collect();
    let turns = state
        .turns()
        .iter()
        .map(|t| TurnView {
            turn: t.number,
            player: state.players()[t.player].name.clone(),
            action: match t.action {
                TurnAction::Bought { card } => format!("bought {}", id(card)),
                TurnAction::Flipped => "tiles_flipped".to_owned(),
                TurnAction::Passed => "passed".to_owned(),
            },
            plays: t
                .plays
                .iter()
                .map(|&(c, (x, y), points)| PlayView {
                    card: id(c),
                    cell: [x, y],
                    points,
                })
                .collect(),
            total: t.total,
        })
        .collect();
    SummertimeView {
        deck: deck.name().to_owned(),
        order: if state.is_dealt() {
            "dealt"
        } else {
            "physical"
        }
        .to_owned(),
        ended: state.ended().map(|r| r.to_string()),
        display: state.display().iter().map(|c| c.map(id)).collect(),
        grid,
        players,
        turns,
        score: score(state),
    }
}

impl Present for Summertime {
    fn offer(state: &State, event: &summertime::Event) -> Option<Offer> {
        use summertime::Event;
        let deck = state.deck();
        let name_of = |id: &str| {
            deck.card_index(id)
                .map_or(id.to_owned(), |c| deck.card(c).name.clone())
        };
        Some(match event {
            Event::Bought(e) => {
                Offer::button(Kind::Buy, format!("Buy {} ({})", name_of(&e.card), e.card))
            }
            // A play is a card in hand and an empty cell: the cell is its
            // key on the table's drawing, the card its hand.
            Event::Played(e) => Offer {
                kind: Kind::Play,
                label: format!("Play {} at ({},{})", name_of(&e.card), e.cell[0], e.cell[1]),
                key: Some(format!("cell:{},{}", e.cell[0], e.cell[1])),
                hand: Some(format!("{} ({})", name_of(&e.card), e.card)),
            },
            Event::TurnEnded(_) => Offer::button(Kind::Turn, "End my turn".to_owned()),
            Event::TilesFlipped(_) => {
                Offer::button(Kind::Turn, "Flip my face-down tiles".to_owned())
            }
            Event::Passed(_) => Offer::button(Kind::Turn, "Pass".to_owned()),
            // In a dealt game the next card is the deck's secret until it
            // is turned.
            Event::Revealed(e) if state.is_dealt() => Offer::button(
                Kind::Reveal,
                format!("Turn up the next card of stack {}", e.stack),
            ),
            Event::Revealed(_) => Offer::button(Kind::Reveal, Summertime::describe(event)),
            Event::Discarded(_) => Offer::button(
                Kind::Discard,
                "Discard the face-up cards (two passes in a row)".to_owned(),
            ),
            Event::Started(_) => return None,
        })
    }
    fn actor_name(event: &summertime::Event) -> Option<&str> {
        event.player()
    }
    fn text(state: &summertime::State, called: Option<u64>) -> String {
        text(state, called)
    }
    fn said(
        before: &summertime::State,
        after: &summertime::State,
        event: &summertime::Event,
    ) -> String {
        let deck = before.deck();
        let card = |id: &str| {
            deck.card_index(id)
                .map_or(id.to_owned(), |c| format!("{} ({id})", deck.card(c).name))
        };
        match event {
            summertime::Event::Revealed(e) => {
                let mut said = format!("revealed {} on stack {}", card(&e.card), e.stack);
                if let Some(price) = after.price(usize::from(e.stack)) {
                    said += &format!(", priced {}", deck.describe_cost(price));
                }
                said
            }
            summertime::Event::Bought(e) => {
                let slot = deck
                    .card_index(&e.card)
                    .and_then(|c| before.display().iter().position(|&d| d == Some(c)));
                let paid = slot
                    .and_then(|s| before.price(s))
                    .map(|cost| format!(" and paid {}", deck.describe_cost(cost)))
                    .unwrap_or_default();
                format!("{} bought {}{paid}", e.player, card(&e.card))
            }
            summertime::Event::Played(e) => {
                let points = after
                    .grid()
                    .get(&(e.cell[0], e.cell[1]))
                    .map_or(0, |t| t.points);
                format!(
                    "{} played {} at ({},{}) for {points} points",
                    e.player,
                    card(&e.card),
                    e.cell[0],
                    e.cell[1]
                )
            }
            summertime::Event::Discarded(e) => {
                let cards: Vec<String> = e.cards.iter().map(|c| card(c)).collect();
                format!("discarded {}", cards.join(", "))
            }
            _ => event.to_string(),
        }
    }
    type View = SummertimeView;
    fn view(state: &summertime::State) -> Self::View {
        view(state)
    }
    fn describe(event: &summertime::Event) -> String {
        event.to_string()
    }
    fn progress(state: &summertime::State) -> String {
        match state.ended() {
            Some(reason) => format!("game over after turn {}: {reason}", state.turns().len()),
            // A buy records its turn at once; it goes on until its end.
            None => match state.phase() {
                summertime::Phase::Turn { bought: true, .. } => {
                    format!("turn {}", state.turns().len())
                }
                _ => format!("turn {}", state.turns().len() + 1),
            },
        }
    }
    fn pending(state: &summertime::State) -> Vec<Pending> {
        use summertime::Phase;
        let active = state.active();
        match state.phase() {
            Phase::Over => Vec::new(),
            Phase::Reveal(stacks) => vec![Pending::table(reveal_due(state, stacks))],
            Phase::Discard => vec![Pending::table(
                "the discard of the face-up cards".to_owned(),
            )],
            Phase::Turn { bought: false, .. } => {
                vec![Pending::seat(
                    active,
                    "a buy, a tile flip or a pass".to_owned(),
                )]
            }
            Phase::Turn {
                bought: true,
                plays,
            } => {
                vec![Pending::seat(
                    active,
                    format!("a play ({plays} so far) or the end of the turn"),
                )]
            }
        }
    }
    fn ending(state: &summertime::State) -> Option<String> {
        state.ended().map(ToString::to_string)
    }
    fn command(state: &summertime::State, event: &summertime::Event) -> Option<Command> {
        use summertime::Event;
        let player = |p: &str, what: &str| format!("{p}: {what}");
        let only = |p: &String| vec![p.clone()];
        let (decision, verb, args) = match event {
            Event::Started(_) => return None,
            Event::Revealed(e) => {
                let decision = format!("a card revealed on stack {}", e.stack);
                let args = if state.is_dealt() {
                    Vec::new()
                } else {
                    let mut args = vec![e.stack.to_string(), e.card.clone()];
                    if let Some(behind) = &e.behind {
                        args.push("--behind".to_owned());
                        args.push(behind.join(","));
                    }
                    args
                };
                (decision, "reveal", args)
            }
            Event::Discarded(_) => (
                "the discard of the face-up cards".to_owned(),
                "discard",
                Vec::new(),
            ),
            Event::Bought(e) => (
                player(&e.player, "a buy"),
                "buy",
                vec![e.player.clone(), e.card.clone()],
            ),
            Event::Played(e) => (
                player(&e.player, &format!("a play of {}", e.card)),
                "play",
                vec![
                    e.player.clone(),
                    e.card.clone(),
                    format!("{},{}", e.cell[0], e.cell[1]),
                ],
            ),
            Event::TurnEnded(e) => (
                player(&e.player, "the end of the turn"),
                "end-turn",
                only(&e.player),
            ),
            Event::TilesFlipped(e) => (player(&e.player, "a tile flip"), "flip", only(&e.player)),
            Event::Passed(e) => (player(&e.player, "a pass"), "pass", only(&e.player)),
        };
        Some(Command {
            decision,
            verb,
            args,
        })
    }
    fn totals(state: &summertime::State) -> Vec<(String, i64)> {
        summertime::score(state)
            .into_iter()
            .map(|l| (l.player, i64::from(l.total)))
            .collect()
    }
}

/// What a reveal waits for: the card on the next stack due, or, where a
/// physical game turns its stacks up in any order, a card on each stack
/// still due.
fn reveal_due(state: &summertime::State, stacks: &[u8]) -> String {
    if state.matches_backs() && stacks.len() > 1 {
        format!(
            "a card revealed on each of {}, in any order",
            summertime::Stacks(stacks.to_vec())
        )
    } else {
        format!("a card revealed on stack {}", stacks[0])
    }
}
