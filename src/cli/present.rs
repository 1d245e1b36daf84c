//! How the CLI shows a game's state: the one place that knows both the
//! command line and a game's types.

use super::commands::Command;
use crate::log::{GameKind, Opened};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};

pub trait Present: crate::sim::Searched {
    /// The state as text: sheets or grid, and the score table.
    fn text(state: &Self::State) -> String;
    /// The state and score, for the JSON reports.
    type View: serde::Serialize + schemars::JsonSchema;
    fn view(state: &Self::State) -> Self::View;
    /// One event, as a referee would say it.
    fn describe(event: &Self::Event) -> String;
    /// What recording `event` did, for the referee who just entered it:
    /// the dice and the round of a roll, the card revealed, what a buy
    /// paid. `before` and `after` are the states around it.
    fn said(before: &Self::State, after: &Self::State, event: &Self::Event) -> String;
    /// Where the game stands: the round or turn.
    fn progress(state: &Self::State) -> String;
    /// Whose decision is pending, and what it is.
    fn pending(state: &Self::State) -> Vec<String>;
    /// Each player's score total so far, by name.
    fn totals(state: &Self::State) -> Vec<(String, i64)>;
    /// How the game ended, once it has.
    fn ending(state: &Self::State) -> Option<String>;
    /// The recording command that appends `event`, or `None` for an event
    /// no command records (the start event).
    fn command(state: &Self::State, event: &Self::Event) -> Option<Command>;
    /// The seat of the player whose decision `event` is, if any.
    fn actor(state: &Self::State, event: &Self::Event) -> Option<usize> {
        let name = Self::actor_name(event)?;
        Self::player_names(state).iter().position(|n| n == name)
    }
    /// The player `event` names as deciding it, at the table or not; `None`
    /// for an event of the table (a roll, a reveal, a discard).
    fn actor_name(event: &Self::Event) -> Option<&str>;
    /// What the HTML viewer's Page Up and Page Down step by: "round" or
    /// "turn".
    const SECTION: &'static str;
    /// The round (or turn) an event belongs to, which Page Up and Page Down
    /// step through, from the states `before` and `after` it.
    fn section(before: &Self::State, after: &Self::State) -> u64;
    /// The viewer's panels: one per player's sheet, or one table.
    const WIDE: bool;
    /// What the viewer must know of the whole replay before it draws any
    /// state (the cells the Summertime grid ever fills).
    type Layout;
    fn layout(states: &[Self::State]) -> Self::Layout;
    /// Draws the panels of `state` that differ from `before` (all of them
    /// without `before`), passing each panel's number, name and pages to
    /// `out`.
    fn panels(
        layout: &Self::Layout,
        before: Option<&Self::State>,
        state: &Self::State,
        out: &mut dyn FnMut(usize, &str, Vec<crate::render::scene::Page>),
    );
    /// What a scored replay keeps from the states on the way.
    type History: Default;
    /// Keeps what the scored replay needs from `state`, the state after
    /// one more event.
    fn observe(history: &mut Self::History, state: &Self::State);
    /// The scored replay of the final state.
    fn replay_scene(
        state: &Self::State,
        history: Self::History,
        paper: crate::render::paper::Paper,
        caption: &str,
    ) -> crate::render::scene::Scene;
}

/// The points after each round, for the score chart of a 62 Soleils
/// replay.
#[derive(Default)]
pub struct RoundHistory {
    points: crate::render::soleils_replay::History,
    last_round: u16,
}

impl Present for Soleils {
    fn actor_name(event: &soleils::Event) -> Option<&str> {
        event.player()
    }
    const SECTION: &'static str = "round";
    /// A round starts with its roll.
    fn section(_: &soleils::State, after: &soleils::State) -> u64 {
        u64::from(after.round())
    }
    const WIDE: bool = false;
    type Layout = ();
    fn layout(_: &[soleils::State]) {}
    fn panels(
        _: &(),
        before: Option<&soleils::State>,
        state: &soleils::State,
        out: &mut dyn FnMut(usize, &str, Vec<crate::render::scene::Page>),
    ) {
        use crate::render::soleils_replay::viewer_sheet;
        // A sheet shows its player's marks and score line, and the score
        // line holds the seashell majority, which others' marks move.
        let lines = soleils::score(state);
        let lines_before = before.map(soleils::score);
        for (p, player) in state.players().iter().enumerate() {
            let same = before.is_some_and(|b| b.players()[p] == *player)
                && lines_before.as_ref().is_some_and(|l| l[p] == lines[p]);
            if !same {
                out(p, &player.name, viewer_sheet(state, p));
            }
        }
    }
    type History = RoundHistory;
    fn observe(history: &mut RoundHistory, state: &soleils::State) {
        use crate::render::soleils_replay::round_points;
        // One point per round, taken when every player has finished it.
        if state.round() > 0 && state.round_closed() && state.round() != history.last_round {
            history.last_round = state.round();
            history.points.push(round_points(state));
        }
    }
    fn replay_scene(
        state: &soleils::State,
        history: RoundHistory,
        paper: crate::render::paper::Paper,
        caption: &str,
    ) -> crate::render::scene::Scene {
        use crate::render::soleils_replay::{round_points, scene};
        let mut points = history.points;
        if !state.round_closed() {
            points.push(round_points(state));
        }
        scene(state, &points, paper, caption)
    }
    fn text(state: &soleils::State) -> String {
        super::soleils_text::text(state)
    }
    fn said(before: &soleils::State, after: &soleils::State, event: &soleils::Event) -> String {
        match event {
            soleils::Event::Rolled(r) => {
                let [a, b, c] = r.dice;
                format!("round {}: rolled {a}-{b}-{c}", before.round() + 1)
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
    type View = super::reports::SoleilsView;
    fn view(state: &soleils::State) -> Self::View {
        super::soleils_text::view(state)
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
            Some(reason) => format!("game over after round {}: {reason}", state.round()),
            None => format!(
                "round {} of {}{dice}",
                state.round(),
                state.template().rounds()
            ),
        }
    }
    fn pending(state: &soleils::State) -> Vec<String> {
        use soleils::Step;
        if state.ended().is_some() {
            return Vec::new();
        }
        if state.round_closed() {
            return vec![format!("the roll for round {}", state.round() + 1)];
        }
        state
            .players()
            .iter()
            .filter_map(|p| {
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
                Some(format!("{}: {what}", p.name))
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
                    format!("the roll for round {}", state.round() + 1),
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

impl Present for Summertime {
    fn actor_name(event: &summertime::Event) -> Option<&str> {
        event.player()
    }
    const SECTION: &'static str = "turn";
    /// A turn's events, from its first decision to its end: the turn
    /// under way before each.
    fn section(before: &summertime::State, _: &summertime::State) -> u64 {
        match before.phase() {
            summertime::Phase::Turn { bought: true, .. } => before.turns().len() as u64,
            _ => before.turns().len() as u64 + 1,
        }
    }
    const WIDE: bool = true;
    type Layout = crate::render::summertime_table::Window;
    fn layout(states: &[summertime::State]) -> Self::Layout {
        crate::render::summertime_table::window(states.iter().flat_map(|s| s.grid().keys()))
    }
    fn panels(
        window: &Self::Layout,
        _: Option<&summertime::State>,
        state: &summertime::State,
        out: &mut dyn FnMut(usize, &str, Vec<crate::render::scene::Page>),
    ) {
        let page = crate::render::summertime_table::page(state, *window, None);
        out(0, "The table", vec![page]);
    }
    type History = ();
    fn observe(_: &mut (), _: &summertime::State) {}
    fn replay_scene(
        state: &summertime::State,
        _: (),
        paper: crate::render::paper::Paper,
        caption: &str,
    ) -> crate::render::scene::Scene {
        crate::render::summertime_replay::scene(state, paper, caption)
    }
    fn text(state: &summertime::State) -> String {
        super::summertime_text::text(state)
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
    type View = super::reports::SummertimeView;
    fn view(state: &summertime::State) -> Self::View {
        super::summertime_text::view(state)
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
    fn pending(state: &summertime::State) -> Vec<String> {
        use summertime::Phase;
        let active = &state.players()[state.active()].name;
        match state.phase() {
            Phase::Over => Vec::new(),
            Phase::Reveal(stacks) => vec![format!("a card revealed on stack {}", stacks[0])],
            Phase::Discard => vec!["the discard of the face-up cards".to_owned()],
            Phase::Turn { bought: false, .. } => {
                vec![format!("{active}: a buy, a tile flip or a pass")]
            }
            Phase::Turn {
                bought: true,
                plays,
            } => {
                vec![format!(
                    "{active}: a play ({plays} so far) or the end of the turn"
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

/// A command that works on a log of either game: `run` is called once,
/// with the game the log's start line names.
pub trait ForGame<R> {
    type Output;
    fn run<G: Present>(self, opened: Opened<R>) -> Self::Output;
}

/// Runs `command` on the opened log as the game it names: the one place
/// the command line turns a log's game into a type.
pub fn dispatch<R: std::io::BufRead, C: ForGame<R>>(opened: Opened<R>, command: C) -> C::Output {
    match opened.game() {
        GameKind::Soleils => command.run::<Soleils>(opened),
        GameKind::Summertime => command.run::<Summertime>(opened),
    }
}

/// "winner: Hervine with 14 points", or the tied winners, from each
/// player's name, total and rank (1 for the best).
pub fn winners<'a>(lines: impl IntoIterator<Item = (&'a str, i64, u32)>) -> String {
    let best: Vec<(&str, i64)> = lines
        .into_iter()
        .filter(|&(_, _, rank)| rank == 1)
        .map(|(name, total, _)| (name, total))
        .collect();
    let points = |n: i64| if n == 1 { "point" } else { "points" };
    match best.as_slice() {
        [] => String::new(),
        [(name, total)] => format!("winner: {name} with {total} {}", points(*total)),
        [rest @ .., (last, total)] => {
            let names: Vec<&str> = rest.iter().map(|(n, _)| *n).collect();
            format!(
                "winners, tied: {} and {last} with {total} {} each",
                names.join(", "),
                points(*total)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::winners;

    #[test]
    fn one_winner_or_the_tied_ones() {
        let one = [("Ann", 12, 2), ("Bob", 14, 1)];
        assert_eq!(winners(one), "winner: Bob with 14 points");
        let tied = [("Ann", 9, 1), ("Bob", 9, 1), ("Cy", 9, 1), ("Dee", 1, 4)];
        assert_eq!(
            winners(tied),
            "winners, tied: Ann, Bob and Cy with 9 points each"
        );
        assert_eq!(winners([("Ann", 1, 1)]), "winner: Ann with 1 point");
    }
}
