//! The two games as [`Simulated`] games, on the bundled default sheet and deck.

use super::run::Simulated;
use crate::rng::SeededRng;
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn default_template() -> &'static soleils::template::RawTemplate {
    static TEMPLATE: OnceLock<soleils::template::RawTemplate> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        serde_json::from_str(include_str!("../../sheet-templates/62-soleils-d-ete.json"))
            .expect("the bundled template parses")
    })
}

fn default_deck() -> &'static (summertime::deck::RawDeck, summertime::Deck) {
    static DECK: OnceLock<(summertime::deck::RawDeck, summertime::Deck)> = OnceLock::new();
    DECK.get_or_init(|| {
        let raw: summertime::deck::RawDeck =
            serde_json::from_str(include_str!("../../sheet-templates/summertime.json"))
                .expect("the bundled deck parses");
        let deck = summertime::Deck::try_from(raw.clone()).expect("the bundled deck is valid");
        (raw, deck)
    })
}

fn die(rng: &mut SeededRng) -> soleils::Die {
    soleils::Die::new(rng.die()).expect("1 to 6")
}

impl Simulated for Soleils {
    fn start(players: usize, _: &mut SeededRng) -> soleils::Event {
        soleils::Event::Started(soleils::Start {
            format: crate::log::LOG_FORMAT,
            game: "soleils".into(),
            players: (1..=players).map(|i| format!("P{i}")).collect(),
            options: soleils::Options::default(),
            template: default_template().clone(),
            dice_seed: None,
        })
    }

    fn chance(state: &soleils::State, rng: &mut SeededRng) -> Option<soleils::Event> {
        (state.ended().is_none() && state.round_closed()).then(|| {
            soleils::Event::Rolled(soleils::Rolled {
                dice: [die(rng), die(rng), die(rng)],
            })
        })
    }

    fn deciders(state: &soleils::State) -> Vec<usize> {
        if state.ended().is_some() || state.dice().is_none() {
            return Vec::new();
        }
        (0..state.players().len())
            .filter(|&p| state.players()[p].turn.step() != soleils::Step::Done)
            .collect()
    }

    fn options(state: &soleils::State, p: usize) -> Vec<soleils::Event> {
        soleils::legal_events_for(state, p)
    }

    fn total(state: &soleils::State, p: usize) -> i64 {
        i64::from(soleils::score(state)[p].total)
    }

    /// Greedy 62 Soleils: writing a value is worth 0.3 beyond its score
    /// (every filled box moves a zone towards its flag); a sun entry is worth
    /// 0.02 per pip (thresholds come sooner). So the bot never skips a
    /// placement it could make, gives up the box whose value scores least
    /// now, and sends the largest die it can to the sun.
    fn heuristic(_: &soleils::State, event: &soleils::Event) -> f64 {
        match event {
            soleils::Event::Placed(_)
            | soleils::Event::CrabCopied(_)
            | soleils::Event::BonusPlaced(_) => 0.3,
            soleils::Event::SunEntered(e) => 0.02 * f64::from(e.value.get()),
            _ => 0.0,
        }
    }

    fn facts(state: &soleils::State) -> (String, Vec<BTreeMap<String, u32>>) {
        let ended = match state.ended() {
            Some(soleils::EndReason::SunLimit { .. }) => "by the sun limit",
            Some(soleils::EndReason::RoundLimit { .. }) => "by the round limit",
            None => "unfinished",
        };
        let zones = state.template().zones();
        let facts = state
            .players()
            .iter()
            .map(|p| {
                zones
                    .iter()
                    .zip(&p.zones_done)
                    .map(|(z, &done)| (format!("zone flag completed: {}", z.name), u32::from(done)))
                    .collect()
            })
            .collect();
        (ended.to_owned(), facts)
    }
}

impl Simulated for Summertime {
    fn start(_: usize, rng: &mut SeededRng) -> summertime::Event {
        let (raw, deck) = default_deck();
        summertime::Event::Started(Box::new(summertime::Start {
            format: crate::log::LOG_FORMAT,
            game: "summertime".into(),
            // Summertime is always two players; `simulate` checks the count.
            players: vec!["P1".into(), "P2".into()],
            first: "P1".into(),
            deck: raw.clone(),
            order: crate::deal::dealt_order(deck, rng.next_u64()),
        }))
    }

    fn chance(state: &summertime::State, _: &mut SeededRng) -> Option<summertime::Event> {
        match state.phase() {
            summertime::Phase::Reveal(_) | summertime::Phase::Discard => {
                summertime::legal_events(state).into_iter().next()
            }
            _ => None,
        }
    }

    fn deciders(state: &summertime::State) -> Vec<usize> {
        match state.phase() {
            summertime::Phase::Turn { .. } => vec![state.active()],
            _ => Vec::new(),
        }
    }

    fn options(state: &summertime::State, _: usize) -> Vec<summertime::Event> {
        summertime::legal_events(state)
    }

    fn total(state: &summertime::State, p: usize) -> i64 {
        i64::from(summertime::score(state)[p].total)
    }

    /// Greedy Summertime: plays score what they earn; beyond that, buying is
    /// worth 0.4 (a card in hand can score later), turning tiles up 0.1 (it
    /// makes buying possible again), passing −0.2.
    fn heuristic(_: &summertime::State, event: &summertime::Event) -> f64 {
        match event {
            summertime::Event::Bought(_) => 0.4,
            summertime::Event::TilesFlipped(_) => 0.1,
            summertime::Event::Passed(_) => -0.2,
            _ => 0.0,
        }
    }

    fn facts(state: &summertime::State) -> (String, Vec<BTreeMap<String, u32>>) {
        let ended = state
            .ended()
            .map_or("unfinished".to_owned(), |r| r.to_string());
        let facts = state
            .players()
            .iter()
            .map(|p| BTreeMap::from([("cards left in hand".to_owned(), p.hand_size() as u32)]))
            .collect();
        (ended, facts)
    }
}
