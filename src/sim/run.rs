//! The driver shared by both games: who decides, which bot picks, and the
//! random streams that make two variants' games comparable.

use super::metric::Metric;
use crate::game::Game;
use crate::rng::SeededRng;

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
    /// The rules a batch is played under: a template and options, or a deck.
    type Variant: Sync;
    /// The game's name in reports: "62 Soleils d'été", "Summertime".
    const TITLE: &'static str;
    /// The smallest and largest player counts the game allows.
    const PLAYERS: (usize, usize);

    /// What a report says of a variant: its file, its name, its options.
    fn describe(variant: &Self::Variant) -> super::VariantInfo;
    /// A start event for `players` players under `variant`, its deal drawn
    /// from `chance`.
    fn start(variant: &Self::Variant, players: usize, chance: &mut SeededRng) -> Self::Event;
    /// A chance event that is due (a roll, a reveal, a discard), if any.
    fn chance(state: &Self::State, chance: &mut SeededRng) -> Option<Self::Event>;
    /// The players who have a decision to make now.
    fn deciders(state: &Self::State) -> Vec<usize>;
    /// The legal events of player `p`.
    fn options(state: &Self::State, p: usize) -> Vec<Self::Event>;
    /// Player `p`'s score now (final once the game is over).
    fn total(state: &Self::State, p: usize) -> i64;
    /// What the score does not show yet: a small bonus for an option.
    fn heuristic(state: &Self::State, event: &Self::Event) -> f64;
    /// The game's own figures for a batch under `variant`, in the order
    /// [`Simulated::measure`] gives their values. The driver adds the
    /// scores and win rates per seat, and the score distribution.
    fn metrics(variant: &Self::Variant, players: usize) -> Vec<Metric>;
    /// One value per metric of a finished game, pushed onto `out`.
    fn measure(state: &Self::State, out: &mut Vec<f64>);
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult<E> {
    pub events: Vec<E>,
    /// Each seat's final score.
    pub totals: Vec<i64>,
    /// The values of [`Simulated::metrics`], in order.
    pub figures: Vec<f64>,
}

/// The independent random streams of one game. Each is derived from the
/// game's seed and its own number, so that what one stream draws never
/// shifts another: two variants of game `i` see the same dice or deal and
/// the same bot seeds even when their games take different courses.
struct Streams {
    /// Dice, deals: the table's luck.
    chance: SeededRng,
    /// Who of several deciders goes next.
    order: SeededRng,
    /// One stream per seat for its bot's choices.
    seats: Vec<SeededRng>,
}

/// The seed of stream `n` of a game seeded `seed`.
fn stream_seed(seed: u64, n: u64) -> u64 {
    seed ^ (n + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

impl Streams {
    fn new(seed: u64, players: usize) -> Self {
        Streams {
            chance: SeededRng::new(stream_seed(seed, 0)),
            order: SeededRng::new(stream_seed(seed, 1)),
            seats: (0..players as u64)
                .map(|p| SeededRng::new(stream_seed(seed, 2 + p)))
                .collect(),
        }
    }
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

/// Plays one whole game under `variant` with the bots seated in order
/// (repeated if fewer than the players), from `seed`.
pub fn play<G: Simulated>(
    variant: &G::Variant,
    players: usize,
    bots: &[Bot],
    seed: u64,
) -> GameResult<G::Event> {
    let mut streams = Streams::new(seed, players);
    let start = G::start(variant, players, &mut streams.chance);
    let mut state = G::setup(G::as_start(&start).expect("a start event")).expect("a valid setup");
    let mut events = vec![start];
    loop {
        let event = if let Some(event) = G::chance(&state, &mut streams.chance) {
            event
        } else {
            let deciders = G::deciders(&state);
            if deciders.is_empty() {
                break;
            }
            let p = deciders[streams.order.below(deciders.len() as u64) as usize];
            choose::<G>(&state, p, bots[p % bots.len()], &mut streams.seats[p])
        };
        G::apply(&mut state, &event).expect("bots choose legal events");
        events.push(event);
        assert!(events.len() < 100_000, "a game that does not end");
    }
    let totals = (0..players).map(|p| G::total(&state, p)).collect();
    let mut figures = Vec::new();
    G::measure(&state, &mut figures);
    GameResult {
        events,
        totals,
        figures,
    }
}
