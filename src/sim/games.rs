//! The two games as [`Simulated`] games, under any variant.

use super::metric::{Metric, Section, Unit};
use super::run::Simulated;
use super::variant::{SoleilsVariant, SummertimeVariant, VariantInfo};
use crate::rng::SeededRng;
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};

fn die(rng: &mut SeededRng) -> soleils::Die {
    soleils::Die::new(rng.die()).expect("1 to 6")
}

/// The share of players for whom `test` holds.
fn share<T>(players: &[T], test: impl Fn(&T) -> bool) -> f64 {
    players.iter().filter(|p| test(p)).count() as f64 / players.len().max(1) as f64
}

fn mean<T>(players: &[T], value: impl Fn(&T) -> f64) -> f64 {
    players.iter().map(value).sum::<f64>() / players.len().max(1) as f64
}

impl Simulated for Soleils {
    type Variant = SoleilsVariant;
    const TITLE: &'static str = "62 Soleils d'été";
    const PLAYERS: (usize, usize) = (1, soleils::MAX_PLAYERS);

    fn describe(variant: &SoleilsVariant) -> VariantInfo {
        variant.info()
    }

    fn start(variant: &SoleilsVariant, players: usize, _: &mut SeededRng) -> soleils::Event {
        soleils::Event::Started(soleils::Start {
            format: crate::log::LOG_FORMAT,
            game: "soleils".into(),
            players: (1..=players).map(|i| format!("P{i}")).collect(),
            options: variant.options,
            template: variant.raw.clone(),
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

    fn metrics(variant: &SoleilsVariant, _: usize) -> Vec<Metric> {
        let t = &variant.template;
        let mut m = vec![
            Metric::new("rounds", Section::Length, "rounds played", Unit::Count),
            Metric::new(
                "ended.sun_limit",
                Section::End,
                format!("by the sun limit ({})", t.sun_limit()),
                Unit::Share,
            ),
            Metric::new(
                "ended.round_limit",
                Section::End,
                format!("by the round limit ({})", t.rounds()),
                Unit::Share,
            ),
        ];
        for zone in t.zones() {
            m.push(Metric::new(
                format!("zone_flag.{}", zone.id),
                Section::Completion,
                format!("{} flag", zone.name),
                Unit::Share,
            ));
        }
        for group in t.groups() {
            m.push(Metric::new(
                format!("group.{}", group.id),
                Section::Completion,
                format!("{} ({})", group.name, group.id),
                Unit::Share,
            ));
        }
        m.push(Metric::new(
            "sun_total",
            Section::Sun,
            "sun total",
            Unit::Points,
        ));
        for threshold in t.thresholds() {
            let at = threshold.at;
            m.push(Metric::new(
                format!("sun_reached.{at}"),
                Section::Sun,
                format!("threshold {at} reached"),
                Unit::Share,
            ));
            m.push(Metric::new(
                format!("sun_won.{at}"),
                Section::Sun,
                format!("threshold {at} reward won"),
                Unit::Share,
            ));
        }
        m.push(Metric::new(
            "bonus_digits",
            Section::Sun,
            "bonus digits won",
            Unit::Count,
        ));
        m
    }

    fn measure(state: &soleils::State, out: &mut Vec<f64>) {
        let players = state.players();
        let t = state.template();
        out.push(f64::from(state.round()));
        let (sun, rounds) = match state.ended() {
            Some(soleils::EndReason::SunLimit { .. }) => (1.0, 0.0),
            Some(soleils::EndReason::RoundLimit { .. }) => (0.0, 1.0),
            None => (0.0, 0.0),
        };
        out.extend([sun, rounds]);
        for z in 0..t.zones().len() {
            out.push(share(players, |p| p.zones_done[z]));
        }
        for g in 0..t.groups().len() {
            out.push(share(players, |p| p.groups_done[g]));
        }
        out.push(mean(players, |p| f64::from(p.sun_total)));
        for (i, threshold) in t.thresholds().iter().enumerate() {
            out.push(share(players, |p| p.sun_total >= threshold.at));
            out.push(share(players, |p| p.thresholds_won[i]));
        }
        out.push(mean(players, |p| f64::from(p.gains.bonus_digits)));
    }
}

/// Every way a Summertime game ends, with its metric id.
const SUMMERTIME_ENDS: [(&str, &str); 3] = [
    (
        "ended.last_card_bought",
        "the last adventure card was bought",
    ),
    (
        "ended.last_cards_discarded",
        "two passes discarded the last cards",
    ),
    ("ended.grid_full", "the grid is full"),
];

impl Simulated for Summertime {
    type Variant = SummertimeVariant;
    const TITLE: &'static str = "Summertime";
    const PLAYERS: (usize, usize) = (2, 2);

    fn describe(variant: &SummertimeVariant) -> VariantInfo {
        variant.info()
    }

    fn start(variant: &SummertimeVariant, _: usize, chance: &mut SeededRng) -> summertime::Event {
        summertime::Event::Started(Box::new(summertime::Start {
            format: crate::log::LOG_FORMAT,
            game: "summertime".into(),
            // Summertime is always two players; the CLI checks the count.
            players: vec!["P1".into(), "P2".into()],
            first: "P1".into(),
            deck: variant.raw.clone(),
            order: crate::deal::dealt_order(&variant.deck, chance.next_u64()),
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

    fn metrics(variant: &SummertimeVariant, _: usize) -> Vec<Metric> {
        let mut m = vec![Metric::new(
            "turns",
            Section::Length,
            "turns played",
            Unit::Count,
        )];
        for (id, label) in SUMMERTIME_ENDS {
            m.push(Metric::new(id, Section::End, label, Unit::Share));
        }
        m.push(Metric::new(
            "cards_left_in_hand",
            Section::Cards,
            "cards left in hand, per player",
            Unit::Count,
        ));
        m.push(Metric::new(
            "cards_in_grid",
            Section::Cards,
            "cards in the grid",
            Unit::Count,
        ));
        let raw = variant.deck.raw();
        for named in &raw.pictures {
            m.push(Metric::new(
                format!("played.{}", named.id),
                Section::Cards,
                format!("{} cards played", named.name),
                Unit::Count,
            ));
        }
        m
    }

    fn measure(state: &summertime::State, out: &mut Vec<f64>) {
        out.push(state.turns().len() as f64);
        let ended = state.ended();
        out.extend([
            f64::from(matches!(ended, Some(summertime::EndReason::LastCardBought))),
            f64::from(matches!(
                ended,
                Some(summertime::EndReason::LastCardsDiscarded)
            )),
            f64::from(matches!(
                ended,
                Some(summertime::EndReason::GridFull { .. })
            )),
        ]);
        out.push(mean(state.players(), |p| p.hand_size() as f64));
        out.push(state.grid().len() as f64);
        let pictures = state.deck().raw().pictures.len();
        let mut played = vec![0.0; pictures];
        for tableau in state.grid().values() {
            played[state.deck().card(tableau.card).picture] += 1.0;
        }
        out.extend(played);
    }
}
