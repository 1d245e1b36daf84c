//! Rollouts allocate nothing: once a scratch table has been copied into
//! once, copying a mid-game table into it (`clone_from`) and playing it to
//! the end with the core calls a bot makes (legal actions into a reused
//! buffer, `total_after` of every option and its reference
//! `total_after_applying`, `apply_action`) takes no memory
//! from the allocator, for both games.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use sunfold::bots::{Bot, Simulated, SoleilsVariant, SummertimeVariant, play};
use sunfold::soleils::{self, Soleils};
use sunfold::summertime::{self, Summertime};

struct Counting;

thread_local! {
    /// Whether this thread's allocations are counted: only the measured
    /// loop's, not those of the test harness or of other tests.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread. The tests of this file run one
/// at a time, so that the shared counter counts one of them.
fn allocations(f: impl FnOnce()) -> u64 {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.load(Ordering::SeqCst)
}

/// A small generator of its own, so that choosing allocates nothing.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Tables from a third, a half and two thirds into seeded games, by
/// replaying what `play` chose from the table `Simulated::table` builds.
fn midgame<G: Simulated>(
    variant: &G::Variant,
    players: usize,
    bots: &[Bot],
    seeds: std::ops::Range<u64>,
    play: impl Fn(&G::Variant, usize, &[Bot], u64) -> (G::Deal, Vec<G::Action>),
) -> Vec<G::State> {
    let mut out = Vec::new();
    for seed in seeds {
        let (deal, actions) = play(variant, players, bots, seed);
        let stops = [actions.len() / 3, actions.len() / 2, 2 * actions.len() / 3];
        let mut state = G::table(variant, players, &deal);
        for (i, &action) in actions.iter().enumerate() {
            if stops.contains(&i) {
                out.push(state.clone());
            }
            G::apply_action(&mut state, action).expect("a played game replays");
        }
    }
    out
}

/// One random playout of 62 Soleils, weighing every option as the greedy
/// bot does.
fn soleils_playout(
    state: &mut soleils::State,
    options: &mut Vec<soleils::Action>,
    spare: &mut soleils::Player,
    rng: &mut XorShift,
) -> u32 {
    let mut steps = 0;
    loop {
        soleils::legal_actions(state, options);
        if options.is_empty() {
            return steps;
        }
        let mut best = 0;
        for &action in options.iter() {
            best = best.max(soleils::total_after(state, action).unwrap_or(0));
            best = best.max(soleils::total_after_applying(state, action, spare).unwrap_or(0));
        }
        std::hint::black_box(best);
        let action = options[rng.below(options.len())];
        soleils::apply_action(state, action).expect("a legal action");
        steps += 1;
    }
}

/// One random playout of Summertime, weighing every option.
fn summertime_playout(
    state: &mut summertime::State,
    options: &mut Vec<summertime::Action>,
    rng: &mut XorShift,
) -> u32 {
    let mut steps = 0;
    loop {
        summertime::legal_actions(state, options);
        if options.is_empty() {
            return steps;
        }
        let mut best = i32::MIN;
        for &action in options.iter() {
            best = best.max(summertime::total_after(state, action).unwrap_or(i32::MIN));
        }
        std::hint::black_box(best);
        let action = options[rng.below(options.len())];
        summertime::apply_action(state, action).expect("a legal action");
        steps += 1;
    }
}

#[test]
fn soleils_rollouts_allocate_nothing() {
    let variant = SoleilsVariant::bundled();
    for players in [1, 4, 12] {
        let variant = if players == 1 {
            let mut options = variant.options;
            options.solo = true;
            SoleilsVariant {
                options,
                ..variant.clone()
            }
        } else {
            variant.clone()
        };
        let tables = midgame::<Soleils>(&variant, players, &[Bot::Random], 0..4, |v, n, b, s| {
            let result = play::<Soleils>(v, n, b, s);
            (result.deal, result.actions)
        });
        assert!(!tables.is_empty());
        // Warm up: the scratch table, the spare sheet and the options
        // grow to what these tables need.
        let mut scratch = tables[0].clone();
        let mut spare = tables[0].players()[0].clone();
        // The caller's buffer: room for the longest list of options (a
        // bonus digit on an empty sheet), so that only the core is measured.
        let mut options = Vec::with_capacity(1024);
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for table in &tables {
            scratch.clone_from(table);
            soleils_playout(&mut scratch, &mut options, &mut spare, &mut rng);
        }
        let mut steps = 0;
        let counted = allocations(|| {
            for _ in 0..10 {
                for table in &tables {
                    scratch.clone_from(table);
                    steps += soleils_playout(&mut scratch, &mut options, &mut spare, &mut rng);
                }
            }
        });
        assert!(steps > 100, "the playouts played ({steps} steps)");
        assert_eq!(
            counted, 0,
            "{players} players: {counted} allocations in {steps} steps"
        );
        // The scratch table played on as the real one would.
        assert!(scratch.ended().is_some());
    }
}

#[test]
fn summertime_rollouts_allocate_nothing() {
    let variant = SummertimeVariant::bundled();
    for bots in [[Bot::Random], [Bot::Greedy]] {
        let tables = midgame::<Summertime>(&variant, 2, &bots, 0..6, |v, n, b, s| {
            let result = play::<Summertime>(v, n, b, s);
            (result.deal, result.actions)
        });
        assert!(!tables.is_empty());
        let mut scratch = tables[0].clone();
        // The caller's buffer: room for the longest list of options (a
        // bonus digit on an empty sheet), so that only the core is measured.
        let mut options = Vec::with_capacity(1024);
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for table in &tables {
            scratch.clone_from(table);
            summertime_playout(&mut scratch, &mut options, &mut rng);
        }
        let mut steps = 0;
        let counted = allocations(|| {
            for _ in 0..10 {
                for table in &tables {
                    scratch.clone_from(table);
                    steps += summertime_playout(&mut scratch, &mut options, &mut rng);
                }
            }
        });
        assert!(steps > 100, "the playouts played ({steps} steps)");
        assert_eq!(counted, 0, "{counted} allocations in {steps} steps");
        assert!(scratch.ended().is_some());
    }
}

/// `clone_from` gives the same table as `clone`, whatever the destination
/// held before, and the copy plays on as the original does.
#[test]
fn clone_from_is_clone() {
    let soleils = SoleilsVariant::bundled();
    let tables = midgame::<Soleils>(&soleils, 4, &[Bot::Greedy], 10..13, |v, n, b, s| {
        let result = play::<Soleils>(v, n, b, s);
        (result.deal, result.actions)
    });
    let mut scratch = tables[tables.len() - 1].clone();
    for table in &tables {
        scratch.clone_from(table);
        assert_eq!(&scratch, table);
    }
    let summertime = SummertimeVariant::bundled();
    let tables = midgame::<Summertime>(&summertime, 2, &[Bot::Greedy], 10..13, |v, n, b, s| {
        let result = play::<Summertime>(v, n, b, s);
        (result.deal, result.actions)
    });
    let mut scratch = tables[tables.len() - 1].clone();
    for table in &tables {
        scratch.clone_from(table);
        assert_eq!(&scratch, table);
        let mut options = Vec::new();
        let mut copy = table.clone();
        for (a, b) in [(&mut scratch, 1u64), (&mut copy, 1u64)] {
            summertime_playout(a, &mut options, &mut XorShift(b));
        }
        assert_eq!(scratch, copy);
    }
}

/// Whole search decisions allocate nothing once the searcher's buffers
/// have grown: sampling what the seat cannot see, copying the table, and
/// every greedy playout.
fn searches_allocate_nothing<G: sunfold::bots::Searched>(variant: &G::Variant, players: usize) {
    let states = midgame::<G>(variant, players, &[Bot::Greedy], 0..4, |v, n, b, s| {
        let result = play::<G>(v, n, b, s);
        (result.deal, result.actions)
    });
    let mut tables: Vec<(G::State, usize)> = Vec::new();
    let mut deciders = Vec::new();
    for state in states {
        G::deciders(&state, &mut deciders);
        if let Some(&seat) = deciders.first() {
            tables.push((state, seat));
        }
    }
    assert!(tables.len() >= 4, "{}: tables with a decision", G::NAME);
    let mut searcher = sunfold::bots::Searcher::<G>::new();
    let mut rng = sunfold::kit::rng::SeededRng::new(1);
    // Warm up: the buffers grow to what these tables need.
    for _ in 0..3 {
        for (state, seat) in &mut tables {
            searcher.choose(state, *seat, 48, &mut rng);
        }
    }
    let made = allocations(|| {
        for (state, seat) in &mut tables {
            searcher.choose(state, *seat, 48, &mut rng);
        }
    });
    assert_eq!(made, 0, "{}: the search allocated {made} times", G::NAME);
}

#[test]
fn soleils_search_decisions_allocate_nothing() {
    searches_allocate_nothing::<Soleils>(&SoleilsVariant::bundled(), 4);
}

#[test]
fn summertime_search_decisions_allocate_nothing() {
    searches_allocate_nothing::<Summertime>(&SummertimeVariant::bundled(), 2);
}
