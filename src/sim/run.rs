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

/// The smallest and largest player counts a variant allows, and a note for
/// a message that refuses another count, such as how to ask for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerRange {
    pub min: usize,
    pub max: usize,
    /// Appended to "expected 2 to 12 players for soleils", or empty.
    pub note: &'static str,
}

/// What a game offers the simulator.
pub trait Simulated: Game {
    /// The rules a batch is played under: a template and options, or a deck.
    type Variant: Sync;
    /// The game's name in reports: "62 Soleils d'été", "Summertime".
    const TITLE: &'static str;
    /// The player counts the game allows under `variant`.
    fn players(variant: &Self::Variant) -> PlayerRange;

    /// What a report says of a variant: its file, its name, its options.
    fn describe(variant: &Self::Variant) -> super::VariantInfo;
    /// What a game's start draws by chance (Summertime's deal), by index.
    type Deal: Send;
    /// The deal of a game for `players` players under `variant`, drawn
    /// from `chance`.
    fn deal(variant: &Self::Variant, players: usize, chance: &mut SeededRng) -> Self::Deal;
    /// The table before the first event after the start, built from the
    /// checked variant without writing or re-checking a start event. A
    /// property test checks it against [`Game::setup`] of [`Simulated::start`].
    fn table(variant: &Self::Variant, players: usize, deal: &Self::Deal) -> Self::State;
    /// The start event of that game, as a log would hold it.
    fn start(variant: &Self::Variant, players: usize, deal: &Self::Deal) -> Self::Event;
    /// A chance action that is due (a roll, a reveal, a discard), if any.
    fn chance(state: &Self::State, chance: &mut SeededRng) -> Option<Self::Action>;
    /// The players who have a decision to make now, into `out` (cleared first).
    fn deciders(state: &Self::State, out: &mut Vec<usize>);
    /// The legal actions of player `p`, into `out` (cleared first).
    fn options(state: &Self::State, p: usize, out: &mut Vec<Self::Action>);
    /// Player `p`'s score now (final once the game is over).
    fn total(state: &Self::State, p: usize) -> i64;
    /// Scratch space for [`Simulated::total_after`], reused between calls.
    type Scratch: Default;
    /// The acting player's score if `action` (legal now) were applied, with
    /// the state left exactly as it was.
    fn total_after(
        state: &mut Self::State,
        action: Self::Action,
        scratch: &mut Self::Scratch,
    ) -> Option<i64>;
    /// What the score does not show yet: a small bonus for an option.
    fn heuristic(state: &Self::State, action: Self::Action) -> f64;
    /// The game's own figures for a batch under `variant`, in the order
    /// [`Simulated::measure`] gives their values. The driver adds the
    /// scores and win rates per seat, and the score distribution.
    fn metrics(variant: &Self::Variant, players: usize) -> Vec<Metric>;
    /// One value per metric of a finished game, pushed onto `out`.
    fn measure(state: &Self::State, out: &mut Vec<f64>);
}

/// One finished game.
pub struct GameResult<G: Simulated> {
    pub players: usize,
    /// What its start drew by chance.
    pub deal: G::Deal,
    /// Every action after the start, in order.
    pub actions: Vec<G::Action>,
    /// Each seat's final score.
    pub totals: Vec<i64>,
    /// The values of [`Simulated::metrics`], in order.
    pub figures: Vec<f64>,
}

impl<G: Simulated> GameResult<G> {
    /// The game as the events of its log, start first: each action described
    /// in the state it was applied to. `variant` is the one it was played
    /// under.
    pub fn events(&self, variant: &G::Variant) -> Vec<G::Event> {
        let start = G::start(variant, self.players, &self.deal);
        let mut state =
            G::setup(G::as_start(&start).expect("a start event")).expect("a valid setup");
        let mut events = Vec::with_capacity(self.actions.len() + 1);
        events.push(start);
        for &action in &self.actions {
            events.push(G::describe_action(&state, action));
            G::apply_action(&mut state, action).expect("a played game replays");
        }
        events
    }
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

/// What a game keeps between decisions so that nothing is allocated per
/// decision once the buffers have grown.
struct Buffers<G: Simulated> {
    options: Vec<G::Action>,
    picks: Vec<G::Action>,
    deciders: Vec<usize>,
    scratch: G::Scratch,
}

fn choose<G: Simulated>(
    state: &mut G::State,
    p: usize,
    bot: Bot,
    rng: &mut SeededRng,
    buffers: &mut Buffers<G>,
) -> G::Action {
    G::options(state, p, &mut buffers.options);
    let options = &buffers.options;
    match bot {
        Bot::Random => options[rng.below(options.len() as u64) as usize],
        Bot::Greedy => {
            let before = G::total(state, p);
            let mut best = f64::MIN;
            let picks = &mut buffers.picks;
            picks.clear();
            for &action in options {
                let Some(after) = G::total_after(state, action, &mut buffers.scratch) else {
                    continue;
                };
                let value = (after - before) as f64 + G::heuristic(state, action);
                if value > best + 1e-9 {
                    best = value;
                    picks.clear();
                }
                if (value - best).abs() <= 1e-9 {
                    picks.push(action);
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
) -> GameResult<G> {
    let mut streams = Streams::new(seed, players);
    let deal = G::deal(variant, players, &mut streams.chance);
    let mut state = G::table(variant, players, &deal);
    let mut actions = Vec::with_capacity(256);
    let mut buffers = Buffers::<G> {
        options: Vec::with_capacity(64),
        picks: Vec::with_capacity(64),
        deciders: Vec::with_capacity(players),
        scratch: Default::default(),
    };
    loop {
        let action = if let Some(action) = G::chance(&state, &mut streams.chance) {
            action
        } else {
            G::deciders(&state, &mut buffers.deciders);
            let count = buffers.deciders.len();
            if count == 0 {
                break;
            }
            let p = buffers.deciders[streams.order.below(count as u64) as usize];
            let bot = bots[p % bots.len()];
            choose::<G>(&mut state, p, bot, &mut streams.seats[p], &mut buffers)
        };
        G::apply_action(&mut state, action).expect("bots choose legal actions");
        actions.push(action);
        assert!(actions.len() < 100_000, "a game that does not end");
    }
    let totals = (0..players).map(|p| G::total(&state, p)).collect();
    let mut figures = Vec::new();
    G::measure(&state, &mut figures);
    GameResult {
        players,
        deal,
        actions,
        totals,
        figures,
    }
}
