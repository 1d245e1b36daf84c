//! A bot in one seat of a table being played: its decision from what that
//! seat may see, and nothing else.
//!
//! The table's state holds what the seat may not see (in Summertime, the
//! other player's dealt cards and the order of the stacks). Before the bot
//! looks, all of it is drawn again from what the seat has not seen
//! ([`Searched::resample`], whose draw reads only what the seat sees), so
//! two tables that differ only in what the seat may not see give the bot
//! the same table, and the same decision. Everything is drawn from `seed`:
//! the same seed and view give the same decision.

use crate::bots::run::{Bot, Buffers, choose};
use crate::bots::search::Searched;
use crate::kit::rng::SeededRng;

/// Why a bot in a seat does not decide.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatError {
    /// The table waits for another seat, or for nobody.
    #[error("expected the table to wait for seat {seat}, but it waits for {waiting}")]
    NotWaiting { seat: usize, waiting: String },
    /// The bot picked an action the real table refuses: what the seat
    /// sees and the table disagree.
    #[error("expected the bot's pick to be legal at the table, but the table refuses {event}")]
    Refused { event: String },
}

/// The stream of a seed that conceals, apart from the bot's own.
const CONCEAL: u64 = 0x9E37_79B9_7F4A_7C15;

/// What bot `bot` at `seat` decides at `state`, seeing only what that seat
/// may see, from `seed`; checked legal at `state` itself.
pub fn decide<G: Searched>(
    state: &G::State,
    seat: usize,
    bot: Bot,
    seed: u64,
) -> Result<G::Action, SeatError> {
    let mut deciders = Vec::new();
    G::deciders(state, &mut deciders);
    if !deciders.contains(&seat) {
        let waiting = match deciders.as_slice() {
            [] => "nobody".to_owned(),
            seats => {
                let seats: Vec<String> = seats.iter().map(|s| format!("seat {s}")).collect();
                seats.join(", ")
            }
        };
        return Err(SeatError::NotWaiting { seat, waiting });
    }
    let mut seen = state.clone();
    let mut unseen = G::Unseen::default();
    G::resample(
        &mut seen,
        seat,
        &mut unseen,
        &mut SeededRng::new(seed ^ CONCEAL),
    );
    let mut rng = SeededRng::new(seed);
    let mut buffers = Buffers::<G>::new(G::player_count(state));
    let action = choose::<G>(&mut seen, seat, bot, &mut rng, &mut buffers, &mut None);
    if !G::is_legal(state, action) {
        let event =
            crate::kit::game::EventKind::kind(&G::describe_action(&seen, action)).to_owned();
        return Err(SeatError::Refused { event });
    }
    Ok(action)
}

/// The seat's decision as the event a log records, described at `state`.
pub fn decision<G: Searched>(state: &G::State, action: G::Action) -> G::Event {
    G::describe_action(state, action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::{Simulated, SummertimeVariant};
    use crate::kit::game::Game;
    use crate::summertime::Summertime;

    /// A dealt Summertime table `steps` actions into game `game`, played by
    /// the random bot, or `None` once the game is over.
    fn position(
        variant: &SummertimeVariant,
        game: u64,
        steps: u32,
    ) -> Option<(summertime_state::S, usize)> {
        let mut chance = SeededRng::new(game);
        let deal = Summertime::deal(variant, 2, &mut chance);
        let mut state = Summertime::table(variant, 2, &deal);
        let mut options = Vec::new();
        let mut deciders = Vec::new();
        let mut taken = 0;
        loop {
            let action = match Summertime::chance(&state, &mut chance) {
                Some(action) => action,
                None => {
                    Summertime::deciders(&state, &mut deciders);
                    let &seat = deciders.first()?;
                    if taken >= steps {
                        return Some((state, seat));
                    }
                    taken += 1;
                    Summertime::random_action(&state, seat, &mut chance, &mut options)
                }
            };
            Summertime::apply_action(&mut state, action).expect("a legal action");
        }
    }

    mod summertime_state {
        pub type S = crate::summertime::State;
    }

    #[test]
    fn a_bot_decides_the_same_on_tables_that_differ_only_in_what_its_seat_may_not_see() {
        let variant = SummertimeVariant::bundled();
        let bots = [Bot::Random, Bot::Greedy, Bot::Search(8)];
        let (mut compared, mut differed) = (0, 0);
        for game in 0..24u64 {
            for steps in [0, 3, 9, 17, 30] {
                // Given a table where a seat decides...
                let Some((table, seat)) = position(&variant, game, steps) else {
                    continue;
                };
                for draw in 0..3u64 {
                    // ...and the same table with everything that seat may not
                    // see (the other's dealt hand, the stacks under their
                    // tops) drawn again,
                    let mut other = table.clone();
                    let mut unseen = Default::default();
                    let mut rng = SeededRng::new(1000 + game * 7 + draw);
                    Summertime::resample(&mut other, seat, &mut unseen, &mut rng);
                    differed += usize::from(format!("{other:?}") != format!("{table:?}"));
                    for bot in bots {
                        // when the bot decides at both, from the same seed,
                        let seed = game * 31 + u64::from(steps);
                        let here = decide::<Summertime>(&table, seat, bot, seed);
                        let there = decide::<Summertime>(&other, seat, bot, seed);
                        // then it decides the same.
                        assert_eq!(here, there, "game {game}, step {steps}, {}", bot.name());
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 300, "{compared} decisions compared");
        assert!(
            differed * 2 > compared / 3,
            "the hidden cards differed in {differed} tables"
        );
    }

    #[test]
    fn a_bot_whose_seat_is_not_waited_for_does_not_decide() {
        let variant = SummertimeVariant::bundled();
        let (table, seat) = position(&variant, 1, 4).expect("a seat decides");
        let error = decide::<Summertime>(&table, 1 - seat, Bot::Greedy, 1).unwrap_err();
        let expected = format!(
            "expected the table to wait for seat {}, but it waits for seat {seat}",
            1 - seat
        );
        assert_eq!(error.to_string(), expected);
    }
}
