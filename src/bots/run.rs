//! The driver shared by both games: who decides, which bot picks, and the
//! random streams that make two variants' games comparable.

use crate::bots::search::{Searched, Searcher};
use crate::kit::game::Game;
use crate::kit::rng::SeededRng;
use crate::stats::metric::Metric;

/// A bot: picks one of a player's legal events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bot {
    /// Uniformly at random.
    Random,
    /// The best immediate score gain, with the game's documented heuristic
    /// breaking ties and valuing what the score does not yet show.
    Greedy,
    /// Flat Monte Carlo search with this many rollouts per decision, the
    /// greedy bot playing out each rollout: see [`crate::bots::search`].
    Search(u32),
}

/// Why a bot's name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("expected a bot (random, greedy, search or search:N), but found {found:?}{suggestion}")]
    Unknown {
        found: String,
        suggestion: crate::kit::suggest::Suggestion,
    },
    #[error(
        "expected search:N with N a whole number of rollouts from 1 to {max}, but found {found:?}"
    )]
    Budget { found: String, max: u32 },
}

/// A bot that is not a search bot, where only a search bot can judge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a search bot (search or search:N), but found {0}")]
pub struct NotSearch(pub String);

impl Bot {
    /// The rollouts of a search bot, or why another bot cannot judge.
    pub fn rollouts(self) -> Result<u32, NotSearch> {
        match self {
            Bot::Search(n) => Ok(n),
            other => Err(NotSearch(other.name())),
        }
    }

    /// The largest budget `search:N` takes.
    pub const MAX_ROLLOUTS: u32 = 1_000_000;

    /// `random`, `greedy`, `search:64`.
    pub fn name(self) -> String {
        match self {
            Bot::Random => "random".to_owned(),
            Bot::Greedy => "greedy".to_owned(),
            Bot::Search(n) => format!("search:{n}"),
        }
    }

    /// How strong a bot is meant to be: random, then greedy, then search by
    /// its budget. The skill figures set the strongest against the weakest.
    pub fn strength(self) -> (u8, u32) {
        match self {
            Bot::Random => (0, 0),
            Bot::Greedy => (1, 0),
            Bot::Search(n) => (2, n),
        }
    }

    /// A bot from its name: `random`, `greedy`, `search` (the default
    /// budget) or `search:N`.
    pub fn parse(text: &str) -> Result<Bot, BotError> {
        let text = text.trim();
        match text {
            "random" => return Ok(Bot::Random),
            "greedy" => return Ok(Bot::Greedy),
            "search" => return Ok(Bot::Search(crate::bots::search::DEFAULT_ROLLOUTS)),
            _ => {}
        }
        if let Some(budget) = text.strip_prefix("search:") {
            return match budget.parse::<u32>() {
                Ok(n) if (1..=Self::MAX_ROLLOUTS).contains(&n) => Ok(Bot::Search(n)),
                _ => Err(BotError::Budget {
                    found: text.to_owned(),
                    max: Self::MAX_ROLLOUTS,
                }),
            };
        }
        let head = text.split(':').next().unwrap_or(text);
        Err(BotError::Unknown {
            found: text.to_owned(),
            suggestion: crate::kit::suggest::closest(head, ["random", "greedy", "search"]),
        })
    }
}

/// A bot is shown by its name, as `--bot` takes it.
impl std::fmt::Display for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A bot is written by its name, as `--bot` takes it.
impl serde::Serialize for Bot {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Bot {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Bot::parse(&name).map_err(serde::de::Error::custom)
    }
}

impl schemars::JsonSchema for Bot {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Bot".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A bot: random, greedy or search:N.",
            "type": "string"
        })
    }
}

impl std::str::FromStr for Bot {
    type Err = BotError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Bot::parse(s)
    }
}

/// Which of `bots` sits at each seat in game `i` of a batch, so that over
/// the batch every bot plays every seat equally often and, when there are
/// more bots than seats, every group of bots meets.
///
/// - As many seats as bots or more: the lineup that gives seat `s` bot
///   `s mod k` (the bots repeated around the table) turns one seat each
///   game, so seat `s` gets bot `((s + i) mod players) mod k`. Every seat
///   sees the same lineup, from each place in it, equally often: a bot that
///   holds two seats of the lineup holds two in every game, and each of
///   its seats has the same neighbours in turn.
/// - Fewer seats than bots: the groups of `players` bots are taken in turn
///   (in lexicographic order), each for `players` games, turning one seat
///   each game.
///
/// A single bot sits everywhere, whatever `i`.
pub fn lineup(bots: &[Bot], players: usize, i: u64, out: &mut Vec<Bot>) {
    out.clear();
    let k = bots.len();
    if k <= players {
        let turn = (i % players as u64) as usize;
        out.extend((0..players).map(|s| bots[((s + turn) % players) % k]));
        return;
    }
    let groups = combinations(k, players);
    let turn = (i % players as u64) as usize;
    let group = nth_combination(k, players, (i / players as u64) % groups);
    out.extend((0..players).map(|s| bots[group[(s + turn) % players]]));
}

/// k choose n, saturating.
fn combinations(k: usize, n: usize) -> u64 {
    let mut c: u64 = 1;
    for j in 0..n as u64 {
        c = c.saturating_mul(k as u64 - j) / (j + 1);
    }
    c.max(1)
}

/// The `index`-th n-subset of 0..k in lexicographic order.
fn nth_combination(k: usize, n: usize, mut index: u64) -> Vec<usize> {
    let mut out = Vec::with_capacity(n);
    let mut next = 0;
    for left in (1..=n).rev() {
        loop {
            let with = combinations(k - next - 1, left - 1);
            if index < with {
                out.push(next);
                next += 1;
                break;
            }
            index -= with;
            next += 1;
        }
    }
    out
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

/// A player count refused by a variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected} for {game}{note}, but found {found}")]
pub struct PlayerCountError {
    pub expected: String,
    pub game: &'static str,
    pub note: &'static str,
    pub found: usize,
}

/// The player count of a batch under `variants`: `given`, or the first
/// variant's only count, or 4; refused unless every variant allows it.
pub fn player_count<G: Simulated>(
    variants: &[&G::Variant],
    given: Option<usize>,
) -> Result<usize, PlayerCountError> {
    let first = G::players(variants[0]);
    let players = given.unwrap_or(if first.min == first.max { first.min } else { 4 });
    for range in variants.iter().map(|v| G::players(v)) {
        let (min, max) = (range.min, range.max);
        if !(min..=max).contains(&players) {
            let expected = match (min, max) {
                (1, 1) => "exactly 1 player".to_owned(),
                _ if min == max => format!("exactly {min} players"),
                _ => format!("{min} to {max} players"),
            };
            return Err(PlayerCountError {
                expected,
                game: G::NAME,
                note: range.note,
                found: players,
            });
        }
    }
    Ok(players)
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
    fn variant_info(variant: &Self::Variant) -> crate::bots::VariantInfo;
    /// The variant's rules as one JSON document, the template or deck as
    /// written with any rule options under `options`: what a comparison
    /// lists the differences of ([`crate::bots::changes`]).
    fn rules(variant: &Self::Variant) -> serde_json::Value;
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
    /// One of player `p`'s legal actions drawn uniformly from `rng`: the
    /// action at `rng.below(n)` among the `n` of [`Simulated::options`],
    /// whose order and draw a game may not change. `out` is a buffer for
    /// the options, if they are listed.
    fn random_action(
        state: &Self::State,
        p: usize,
        rng: &mut SeededRng,
        out: &mut Vec<Self::Action>,
    ) -> Self::Action {
        Self::options(state, p, out);
        out[rng.below(out.len() as u64) as usize]
    }
    /// Player `p`'s score now (final once the game is over).
    fn total(state: &Self::State, p: usize) -> i64;
    /// The acting player's score if `action` (legal now) were applied,
    /// without changing the state.
    fn total_after(state: &Self::State, action: Self::Action) -> Option<i64>;
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
    /// The bot of each seat.
    pub seats: Vec<Bot>,
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
pub struct Buffers<G: Simulated> {
    pub(super) options: Vec<G::Action>,
    picks: Vec<G::Action>,
    deciders: Vec<usize>,
}

impl<G: Simulated> Buffers<G> {
    pub(super) fn new(players: usize) -> Self {
        Buffers {
            options: Vec::with_capacity(64),
            picks: Vec::with_capacity(64),
            deciders: Vec::with_capacity(players),
        }
    }
}

/// The greedy bot's pick for player `p`: the best immediate score gain plus
/// the game's heuristic, ties broken by `rng`.
pub(super) fn greedy<G: Simulated>(
    state: &mut G::State,
    p: usize,
    rng: &mut SeededRng,
    buffers: &mut Buffers<G>,
) -> G::Action {
    G::options(state, p, &mut buffers.options);
    let options = &buffers.options;
    let before = G::total(state, p);
    let mut best = f64::MIN;
    let picks = &mut buffers.picks;
    picks.clear();
    for &action in options {
        let Some(after) = G::total_after(state, action) else {
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

/// The loop every game is played by, to its end from `state`: a chance
/// action when one is due (drawn from `chance`), else one of the players
/// who decide now, drawn from `order`, picks with `decide`; each action is
/// applied and passed to `played`. A game that has not ended after 100,000
/// actions is a bug, and panics.
///
/// `decide` is the way a seat picks: a game's bots in [`play`], the greedy
/// bot everywhere in [`playout`]. Both are monomorphised into this loop.
#[inline(always)]
fn drive<G: Simulated>(
    state: &mut G::State,
    chance: &mut SeededRng,
    order: &mut SeededRng,
    buffers: &mut Buffers<G>,
    mut decide: impl FnMut(&mut G::State, usize, &mut Buffers<G>) -> G::Action,
    mut played: impl FnMut(G::Action),
) {
    let mut steps = 0u32;
    loop {
        let action = if let Some(action) = G::chance(state, chance) {
            action
        } else {
            G::deciders(state, &mut buffers.deciders);
            let count = buffers.deciders.len();
            if count == 0 {
                return;
            }
            let p = buffers.deciders[order.below(count as u64) as usize];
            decide(state, p, buffers)
        };
        G::apply_action(state, action).expect("bots choose legal actions");
        played(action);
        steps += 1;
        assert!(steps < 100_000, "a game that does not end");
    }
}

/// Plays `state` to its end with the greedy bot in every seat, drawing the
/// dice or cards from `chance`, the order of simultaneous decisions from
/// `order`, and each seat's ties from its own stream: the search bot's
/// rollout. Two rollouts with the same streams see the same dice, and a
/// seat whose play does not change draws the same, however differently
/// another seat plays.
pub(super) fn playout<G: Simulated>(
    state: &mut G::State,
    chance: &mut SeededRng,
    order: &mut SeededRng,
    seats: &mut [SeededRng],
    buffers: &mut Buffers<G>,
) {
    drive::<G>(
        state,
        chance,
        order,
        buffers,
        |state, p, buffers| greedy::<G>(state, p, &mut seats[p], buffers),
        |_| {},
    );
}

/// Bot `bot`'s pick for player `p` at `state`, drawn from `rng`.
pub(super) fn choose<G: Searched>(
    state: &mut G::State,
    p: usize,
    bot: Bot,
    rng: &mut SeededRng,
    buffers: &mut Buffers<G>,
    searcher: &mut Option<Box<Searcher<G>>>,
) -> G::Action {
    match bot {
        Bot::Random => G::random_action(state, p, rng, &mut buffers.options),
        Bot::Greedy => greedy::<G>(state, p, rng, buffers),
        Bot::Search(rollouts) => searcher
            .get_or_insert_with(Default::default)
            .choose(state, p, rollouts, rng),
    }
}

/// Plays one whole game under `variant` with the bots seated in order
/// (repeated if fewer than the players), from `seed`.
pub fn play<G: Searched>(
    variant: &G::Variant,
    players: usize,
    bots: &[Bot],
    seed: u64,
) -> GameResult<G> {
    let seats: Vec<Bot> = (0..players).map(|p| bots[p % bots.len()]).collect();
    let mut streams = Streams::new(seed, players);
    let deal = G::deal(variant, players, &mut streams.chance);
    let mut state = G::table(variant, players, &deal);
    let actions = play_on::<G>(&mut state, &seats, &mut streams);
    let totals = (0..players).map(|p| G::total(&state, p)).collect();
    let mut figures = Vec::new();
    G::measure(&state, &mut figures);
    GameResult {
        players,
        seats,
        deal,
        actions,
        totals,
        figures,
    }
}

/// Plays on from `state` (a table set up from a log's start, its `players`
/// seats in order) to its end, with the bots seated in order (repeated if
/// fewer than the players), from `seed`: every action applied, in order.
pub fn play_from<G: Searched>(
    state: &mut G::State,
    players: usize,
    bots: &[Bot],
    seed: u64,
) -> Vec<G::Action> {
    let seats: Vec<Bot> = (0..players).map(|p| bots[p % bots.len()]).collect();
    let mut streams = Streams::new(seed, players);
    play_on::<G>(state, &seats, &mut streams)
}

/// Plays `state` on to its end with `seats`' bots, drawing from `streams`:
/// every action applied, in order.
fn play_on<G: Searched>(
    state: &mut G::State,
    seats: &[Bot],
    streams: &mut Streams,
) -> Vec<G::Action> {
    let mut actions = Vec::with_capacity(256);
    let mut buffers = Buffers::<G>::new(seats.len());
    let mut searcher = None;
    drive::<G>(
        state,
        &mut streams.chance,
        &mut streams.order,
        &mut buffers,
        |state, p, buffers| {
            let rng = &mut streams.seats[p];
            choose::<G>(state, p, seats[p], rng, buffers, &mut searcher)
        },
        |action| actions.push(action),
    );
    actions
}
