//! The two games as [`Simulated`] games, under any variant.

use crate::bots::deal::Dealt;
use crate::bots::run::{PlayerRange, Simulated};
use crate::bots::variant::{SoleilsVariant, SummertimeVariant, VariantInfo};
use crate::kit::rng::SeededRng;
use crate::soleils::{self, Soleils};
use crate::stats::metric::{Metric, Section, Unit};
use crate::summertime::{self, Summertime};

/// The names of a simulated table: P1, P2, …
fn seats(players: usize) -> Vec<String> {
    (1..=players).map(|i| format!("P{i}")).collect()
}

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

    fn players(variant: &SoleilsVariant) -> PlayerRange {
        if variant.options.solo {
            PlayerRange {
                min: 1,
                max: 1,
                note: " under the option solo=true",
            }
        } else {
            PlayerRange {
                min: 2,
                max: soleils::MAX_PLAYERS,
                note: " (or 1 with the option solo=true)",
            }
        }
    }

    fn variant_info(variant: &SoleilsVariant) -> VariantInfo {
        variant.info()
    }

    fn rules(variant: &SoleilsVariant) -> serde_json::Value {
        let mut rules = serde_json::to_value(&variant.raw).expect("a template serializes");
        if let serde_json::Value::Object(map) = &mut rules {
            let options = serde_json::to_value(variant.options).expect("options serialize");
            map.insert("options".to_owned(), options);
        }
        rules
    }

    type Deal = ();

    fn deal(_: &SoleilsVariant, _: usize, _: &mut SeededRng) {}

    fn table(variant: &SoleilsVariant, players: usize, _: &()) -> soleils::State {
        soleils::table(variant.template.clone(), variant.options, &seats(players))
    }

    fn start(variant: &SoleilsVariant, players: usize, _: &()) -> soleils::Event {
        soleils::Event::Started(soleils::Start {
            format: crate::log::LOG_FORMAT,
            game: "soleils".into(),
            players: seats(players),
            options: variant.options,
            template: variant.raw.clone(),
            dice_seed: None,
        })
    }

    fn chance(state: &soleils::State, rng: &mut SeededRng) -> Option<soleils::Action> {
        (!state.is_over() && state.round_closed())
            .then(|| soleils::Action::Roll([die(rng), die(rng), die(rng)]))
    }

    fn deciders(state: &soleils::State, out: &mut Vec<usize>) {
        out.clear();
        if state.is_over() || state.dice().is_none() {
            return;
        }
        let players = state.players();
        out.extend((0..players.len()).filter(|&p| players[p].turn.step() != soleils::Step::Done));
    }

    fn options(state: &soleils::State, p: usize, out: &mut Vec<soleils::Action>) {
        soleils::legal_actions_for(state, p, out)
    }

    /// Counted, not listed, at a placement step.
    fn random_action(
        state: &soleils::State,
        p: usize,
        rng: &mut SeededRng,
        out: &mut Vec<soleils::Action>,
    ) -> soleils::Action {
        soleils::nth_legal_action_for(state, p, out, |n| rng.below(n as u64) as usize)
            .expect("a player who decides has a legal action")
    }

    fn total(state: &soleils::State, p: usize) -> i64 {
        i64::from(soleils::total_of(state, p))
    }

    fn total_after(state: &soleils::State, action: soleils::Action) -> Option<i64> {
        soleils::total_after(state, action).map(i64::from)
    }

    /// Greedy 62 Soleils: writing a value is worth 0.3 beyond its score
    /// (every filled box moves a zone towards its flag); a sun entry is worth
    /// 0.02 per pip (thresholds come sooner). So the bot never skips a
    /// placement it could make, gives up the box whose value scores least
    /// now, and sends the largest die it can to the sun.
    fn heuristic(_: &soleils::State, action: soleils::Action) -> f64 {
        match action {
            soleils::Action::Place { .. }
            | soleils::Action::CrabCopy { .. }
            | soleils::Action::BonusPlace { .. } => 0.3,
            soleils::Action::Sun { value, .. } => 0.02 * f64::from(value.get()),
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
        m.push(Metric::new(
            "bonus_digits.taken",
            Section::Sun,
            "bonus digits written",
            Unit::Count,
        ));
        m.push(Metric::new(
            "bonus_digits.declined",
            Section::Sun,
            "bonus digits declined",
            Unit::Count,
        ));
        for zone in t.zones() {
            m.push(Metric::new(
                format!("zone_fill.{}", zone.id),
                Section::Boxes,
                zone.name.clone(),
                Unit::Share,
            ));
        }
        m.push(Metric::new(
            "crab_copies",
            Section::Boxes,
            "crab copies made",
            Unit::Count,
        ));
        m.push(Metric::new(
            "frog_boxes",
            Section::Boxes,
            "frog boxes filled (free sun entries)",
            Unit::Count,
        ));
        for (id, label) in SOLEILS_SOURCES {
            m.push(Metric::new(
                format!("source.{id}"),
                Section::Source,
                label,
                Unit::Points,
            ));
        }
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
        let written = |p: &soleils::Player, how: soleils::How| {
            p.marks.iter().flatten().filter(|m| m.how == how).count() as f64
        };
        let taken = mean(players, |p| written(p, soleils::How::Bonus));
        out.push(taken);
        out.push(mean(players, |p| f64::from(p.gains.bonus_digits)) - taken);
        for (z, zone) in t.zones().iter().enumerate() {
            // The mean share of the zone's boxes written, over the players
            // who did not complete it; no such player, no figure.
            let open: Vec<&soleils::Player> = players.iter().filter(|p| !p.zones_done[z]).collect();
            let boxes = zone.boxes.len().max(1) as f64;
            out.push(if open.is_empty() {
                f64::NAN
            } else {
                mean(&open, |p| {
                    let filled = zone.boxes.iter().filter(|&&b| p.marks[b].is_some());
                    filled.count() as f64 / boxes
                })
            });
        }
        out.push(mean(players, |p| written(p, soleils::How::Crab)));
        let boxes = t.boxes();
        out.push(mean(players, |p| {
            let frogs = p
                .marks
                .iter()
                .zip(boxes)
                .filter(|(m, b)| b.frog && m.is_some_and(|m| m.how != soleils::How::Bonus));
            frogs.count() as f64
        }));
        let lines = soleils::score(state);
        let sources: [fn(&soleils::ScoreLine) -> u32; 5] = [
            |l| l.sun,
            |l| l.flags,
            |l| l.groups,
            |l| l.pearls,
            |l| l.seashell_majority,
        ];
        for source in sources {
            out.push(mean(&lines, |l| f64::from(source(l))));
        }
    }
}

/// The parts of a 62 Soleils score, with their metric ids: the order of
/// [`soleils::ScoreLine`]'s fields.
const SOLEILS_SOURCES: [(&str, &str); 5] = [
    ("sun", "sun track thresholds"),
    ("flags", "zone flags"),
    ("groups", "groups (cabins, windsocks, boats)"),
    ("pearls", "pearls"),
    ("seashell_majority", "the seashell majority"),
];

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

    fn players(_: &SummertimeVariant) -> PlayerRange {
        PlayerRange {
            min: 2,
            max: 2,
            note: "",
        }
    }

    fn variant_info(variant: &SummertimeVariant) -> VariantInfo {
        variant.info()
    }

    fn rules(variant: &SummertimeVariant) -> serde_json::Value {
        serde_json::to_value(&variant.raw).expect("a deck serializes")
    }

    type Deal = crate::bots::deal::Dealt;

    fn deal(variant: &SummertimeVariant, _: usize, chance: &mut SeededRng) -> Dealt {
        crate::bots::deal::shuffle(&variant.deck, chance.next_u64())
    }

    fn table(variant: &SummertimeVariant, _: usize, deal: &Dealt) -> summertime::State {
        // Summertime is always two players; the CLI checks the count.
        let names = ["P1".to_owned(), "P2".to_owned()];
        let deck = variant.deck.clone();
        let cards = (&deal.hands, &deal.stacks);
        let format = crate::log::LOG_FORMAT;
        summertime::dealt_table(deck, names, 0, cards, deal.closing_up, format)
    }

    fn start(variant: &SummertimeVariant, _: usize, deal: &Dealt) -> summertime::Event {
        summertime::Event::Started(Box::new(summertime::Start {
            format: crate::log::LOG_FORMAT,
            game: "summertime".into(),
            players: vec!["P1".into(), "P2".into()],
            first: "P1".into(),
            deck: variant.raw.clone(),
            order: crate::bots::deal::order(&variant.deck, deal),
        }))
    }

    fn chance(state: &summertime::State, _: &mut SeededRng) -> Option<summertime::Action> {
        match state.phase() {
            summertime::Phase::Discard => Some(summertime::Action::Discard),
            // A dealt game's next card is the stack's top one: the only
            // legal reveal, built without listing it.
            summertime::Phase::Reveal(stacks) if state.is_dealt() => {
                let stack = stacks[0];
                let card = state.stacks()[usize::from(stack)].cards[0];
                Some(summertime::Action::Reveal {
                    stack,
                    card: summertime::CardIx::new(card),
                    behind: None,
                })
            }
            summertime::Phase::Reveal(_) => {
                let mut options = Vec::new();
                summertime::legal_actions(state, &mut options);
                options.first().copied()
            }
            _ => None,
        }
    }

    fn deciders(state: &summertime::State, out: &mut Vec<usize>) {
        out.clear();
        if let summertime::Phase::Turn { .. } = state.phase() {
            out.push(state.active());
        }
    }

    fn options(state: &summertime::State, _: usize, out: &mut Vec<summertime::Action>) {
        summertime::legal_actions(state, out)
    }

    fn total(state: &summertime::State, p: usize) -> i64 {
        i64::from(summertime::total_of(state, p))
    }

    fn total_after(state: &summertime::State, action: summertime::Action) -> Option<i64> {
        summertime::total_after(state, action).map(i64::from)
    }

    /// Greedy Summertime: plays score what they earn; beyond that, buying is
    /// worth 0.4 (a card in hand can score later), turning tiles up 0.1 (it
    /// makes buying possible again), passing −0.2.
    fn heuristic(_: &summertime::State, action: summertime::Action) -> f64 {
        match action {
            summertime::Action::Buy { .. } => 0.4,
            summertime::Action::Flip { .. } => 0.1,
            summertime::Action::Pass { .. } => -0.2,
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
        for (id, label) in SUMMERTIME_SOURCES {
            m.push(Metric::new(
                format!("source.{id}"),
                Section::Source,
                label,
                Unit::Points,
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
        // Each play's points, by the kind of card played; then the hand
        // penalty, which is the rest of the total.
        let players = state.players().len();
        let (mut cards, mut multipliers) = (vec![0.0; players], vec![0.0; players]);
        for turn in state.turns() {
            for &(card, _, points) in turn.plays.iter() {
                let to = match state.deck().card(card).value {
                    summertime::deck::Value::Points(_) => &mut cards,
                    summertime::deck::Value::Multiplier(_) => &mut multipliers,
                };
                to[turn.player] += f64::from(points);
            }
        }
        let per_player = |v: &[f64]| v.iter().sum::<f64>() / players.max(1) as f64;
        let (cards, multipliers) = (per_player(&cards), per_player(&multipliers));
        let totals: Vec<f64> = (0..players)
            .map(|p| f64::from(summertime::total_of(state, p)))
            .collect();
        out.extend([
            cards,
            multipliers,
            per_player(&totals) - cards - multipliers,
        ]);
    }
}

/// The parts of a Summertime score, with their metric ids.
const SUMMERTIME_SOURCES: [(&str, &str); 3] = [
    ("point_cards", "point cards"),
    ("multipliers", "multiplier cards"),
    ("hand_penalty", "hand penalty"),
];
