//! Nothing in the search bot's rollout loop allocates: once its buffers
//! have grown, a rollout (sample what the seat cannot see, copy the table,
//! play it to the end with greedy bots) and a whole search decision take
//! no memory from the allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use sunfold::rng::SeededRng;
use sunfold::sim::{Bot, Searched, Searcher, SoleilsVariant, SummertimeVariant, play};
use sunfold::soleils::Soleils;
use sunfold::summertime::Summertime;

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f`. The tests of this file run one at a time.
fn allocations(f: impl FnOnce()) -> u64 {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    f();
    COUNTING.store(false, Ordering::SeqCst);
    ALLOCATIONS.load(Ordering::SeqCst)
}

/// Tables from the middle of seeded games, with the seat to decide there.
fn midgame<G: Searched>(variant: &G::Variant, players: usize) -> Vec<(G::State, usize)> {
    let mut out = Vec::new();
    for seed in 0..6 {
        let result = play::<G>(variant, players, &[Bot::Greedy], seed);
        let mut state = G::table(variant, players, &result.deal);
        for (i, &action) in result.actions.iter().enumerate() {
            if i >= result.actions.len() / 3 {
                let mut deciders = Vec::new();
                G::deciders(&state, &mut deciders);
                if let Some(&seat) = deciders.first() {
                    out.push((state, seat));
                    break;
                }
            }
            G::apply_action(&mut state, action).unwrap();
        }
    }
    out
}

fn no_allocation_in_search<G: Searched>(variant: &G::Variant, players: usize) {
    let mut tables = midgame::<G>(variant, players);
    assert!(!tables.is_empty());
    let mut searcher = Searcher::<G>::new();
    let mut rng = SeededRng::new(1);
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
fn a_soleils_search_decision_allocates_nothing() {
    no_allocation_in_search::<Soleils>(&SoleilsVariant::bundled(), 4);
}

#[test]
fn a_summertime_search_decision_allocates_nothing() {
    no_allocation_in_search::<Summertime>(&SummertimeVariant::bundled(), 2);
}
