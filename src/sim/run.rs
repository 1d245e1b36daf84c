//! The driver shared by both games: who decides, which bot picks, and the
//! statistics of a batch.

use crate::game::Game;
use crate::rng::SeededRng;
use std::collections::BTreeMap;

/// A bot: picks one of a player's legal events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bot {
    /// Uniformly at random.
    Random,
    /// The best immediate score gain, with the game's documented heuristic
    /// breaking ties and valuing what the score does not yet show.
    Greedy,
}

impl Bot {
    pub fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Greedy => "greedy",
        }
    }
}

/// What a game offers the simulator.
pub trait Simulated: Game {
    /// A start event for `players` players, its deal drawn from `rng`.
    fn start(players: usize, rng: &mut SeededRng) -> Self::Event;
    /// A chance event that is due (a roll, a reveal, a discard), if any.
    fn chance(state: &Self::State, rng: &mut SeededRng) -> Option<Self::Event>;
    /// The players who have a decision to make now.
    fn deciders(state: &Self::State) -> Vec<usize>;
    /// The legal events of player `p`.
    fn options(state: &Self::State, p: usize) -> Vec<Self::Event>;
    /// Player `p`'s score now (final once the game is over).
    fn total(state: &Self::State, p: usize) -> i64;
    /// What the score does not show yet: a small bonus for an option.
    fn heuristic(state: &Self::State, event: &Self::Event) -> f64;
    /// Facts of a finished game for the batch statistics: how it ended,
    /// and named per-player counters (flags completed, cards in hand).
    fn facts(state: &Self::State) -> (String, Vec<BTreeMap<String, u32>>);
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult<E> {
    pub events: Vec<E>,
    pub totals: Vec<i64>,
    pub ended_by: String,
    pub facts: Vec<BTreeMap<String, u32>>,
}

fn choose<G: Simulated>(state: &G::State, p: usize, bot: Bot, rng: &mut SeededRng) -> G::Event {
    let options = G::options(state, p);
    match bot {
        Bot::Random => options[rng.below(options.len() as u64) as usize].clone(),
        Bot::Greedy => {
            let before = G::total(state, p);
            let mut best = f64::MIN;
            let mut picks = Vec::new();
            for event in options {
                let mut after = state.clone();
                if G::apply(&mut after, &event).is_err() {
                    continue;
                }
                let value = (G::total(&after, p) - before) as f64 + G::heuristic(state, &event);
                if value > best + 1e-9 {
                    best = value;
                    picks.clear();
                }
                if (value - best).abs() <= 1e-9 {
                    picks.push(event);
                }
            }
            picks.swap_remove(rng.below(picks.len() as u64) as usize)
        }
    }
}

/// Plays one whole game with the bots seated in order, from `seed`.
pub fn play<G: Simulated>(players: usize, bots: &[Bot], seed: u64) -> GameResult<G::Event> {
    let mut rng = SeededRng::new(seed);
    let start = G::start(players, &mut rng);
    let mut state = G::setup(G::as_start(&start).expect("a start event")).expect("a valid setup");
    let mut events = vec![start];
    let mut guard = 0;
    loop {
        let event = if let Some(event) = G::chance(&state, &mut rng) {
            event
        } else {
            let deciders = G::deciders(&state);
            if deciders.is_empty() {
                break;
            }
            let p = deciders[rng.below(deciders.len() as u64) as usize];
            choose::<G>(&state, p, bots[p % bots.len()], &mut rng)
        };
        G::apply(&mut state, &event).expect("bots choose legal events");
        events.push(event);
        guard += 1;
        assert!(guard < 100_000, "a game that does not end");
    }
    let totals = (0..players).map(|p| G::total(&state, p)).collect();
    let (ended_by, facts) = G::facts(&state);
    GameResult {
        events,
        totals,
        ended_by,
        facts,
    }
}

/// The statistics of a batch, added to game by game so that memory stays
/// flat however many games are played. The report has no timing in it, so
/// the same seed gives the same report.
pub struct Stats {
    games: u64,
    players: usize,
    bots: Vec<Bot>,
    scores: Vec<(i64, i64, i64)>,
    wins: BTreeMap<Bot, f64>,
    seats: BTreeMap<Bot, f64>,
    ends: BTreeMap<String, u64>,
    facts: BTreeMap<String, u64>,
}

impl Stats {
    pub fn new(players: usize, bots: &[Bot]) -> Self {
        Stats {
            games: 0,
            players,
            bots: bots.to_vec(),
            scores: vec![(0, i64::MAX, i64::MIN); players],
            wins: BTreeMap::new(),
            seats: BTreeMap::new(),
            ends: BTreeMap::new(),
            facts: BTreeMap::new(),
        }
    }

    fn bot(&self, p: usize) -> Bot {
        self.bots[p % self.bots.len()]
    }

    pub fn add<E>(&mut self, r: &GameResult<E>) {
        self.games += 1;
        for (p, &t) in r.totals.iter().enumerate() {
            let s = &mut self.scores[p];
            *s = (s.0 + t, s.1.min(t), s.2.max(t));
            *self.seats.entry(self.bot(p)).or_default() += 1.0;
        }
        let best = r.totals.iter().max().copied().unwrap_or(0);
        let winners: Vec<usize> = (0..r.totals.len())
            .filter(|&p| r.totals[p] == best)
            .collect();
        for &w in &winners {
            *self.wins.entry(self.bot(w)).or_default() += 1.0 / winners.len() as f64;
        }
        *self.ends.entry(r.ended_by.clone()).or_default() += 1;
        for player in &r.facts {
            for (name, n) in player {
                *self.facts.entry(name.clone()).or_default() += u64::from(*n);
            }
        }
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn report(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let games = self.games.max(1) as f64;
        let names: Vec<&str> = (0..self.players).map(|p| self.bot(p).name()).collect();
        writeln!(
            out,
            "{} games, {} players, bots {}",
            self.games,
            self.players,
            names.join(",")
        )
        .unwrap();
        writeln!(out, "\nscore per seat:  seat  bot      mean     min   max").unwrap();
        for (p, &(sum, min, max)) in self.scores.iter().enumerate() {
            writeln!(
                out,
                "                 {:>4}  {:<7} {:>6.2} {:>6} {:>5}",
                p + 1,
                names[p],
                sum as f64 / games,
                min,
                max
            )
            .unwrap();
        }
        writeln!(out, "\nwin rate per bot (ties share a win):").unwrap();
        for (bot, seated) in &self.seats {
            let won = self.wins.get(bot).copied().unwrap_or(0.0);
            writeln!(
                out,
                "  {:<7} {:>6.2}% of games, {:>6.2}% per seat played",
                bot.name(),
                100.0 * won / games,
                100.0 * won / seated
            )
            .unwrap();
        }
        writeln!(out, "\nhow games ended:").unwrap();
        for (end, n) in &self.ends {
            writeln!(out, "  {:>6.2}%  {end}", 100.0 * *n as f64 / games).unwrap();
        }
        if !self.facts.is_empty() {
            writeln!(out, "\nper player and game, on average:").unwrap();
            for (name, n) in &self.facts {
                writeln!(
                    out,
                    "  {:>7.3}  {name}",
                    *n as f64 / (games * self.players as f64)
                )
                .unwrap();
            }
        }
        out
    }
}
