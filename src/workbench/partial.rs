//! A shard of a batch and the partial report it writes: the map of a run
//! spread over many machines. [`crate::workbench::merge`] is the reduce.
//!
//! Shard K of N plays the games `floor(G·(K−1)/N)` up to, not including,
//! `floor(G·K/N)` of a run of G games: N contiguous runs of game numbers
//! that cover the batch once. Game `i` is played from the seed it has in
//! the whole run, so the union of the shards is the run.
//!
//! A partial report holds the sufficient statistics of its games, not the
//! rounded figures: the exact sums of a [`Tally`] or [`Paired`] tally, or,
//! for a ladder, whose rating interval resamples games, each game's seats
//! and scores. With them it carries what says which run it belongs to:
//! the kind of report, the game, the players, the number of games, the
//! seed, the bots and each variant's rules in full, and the shard.

use crate::bots::run::Bot;
use crate::bots::variant::VariantInfo;
use crate::workbench::ladder::LadderGame;
use crate::workbench::tally::{Paired, Tally};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// The version of the partial report's format; a merge takes only its own.
/// 3: a sweep's part holds its paired differences from the base point.
pub const PARTIAL_FORMAT: u32 = 3;

/// What every partial report says first, so that a file of another kind is
/// refused as such.
pub const PARTIAL_MARK: &str = "sunfold partial report";

/// Shard `index` of `of`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    pub index: u64,
    pub of: u64,
}

/// Why `--shard` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("expected K/N with whole numbers 1 ≤ K ≤ N, such as 2/8, but found {found:?}")]
    Malformed { found: String },
}

impl Shard {
    /// The whole run: one shard of one.
    pub const WHOLE: Shard = Shard { index: 1, of: 1 };

    /// `K/N`, such as `3/8`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let malformed = || ShardError::Malformed {
            found: text.to_owned(),
        };
        let (k, n) = text.trim().split_once('/').ok_or_else(malformed)?;
        let (index, of): (u64, u64) = (
            k.trim().parse().map_err(|_| malformed())?,
            n.trim().parse().map_err(|_| malformed())?,
        );
        if index == 0 || index > of {
            return Err(malformed());
        }
        Ok(Shard { index, of })
    }

    /// The game numbers of this shard in a run of `games` games.
    pub fn games(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.of)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

/// Which report the parts make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Simulate,
    Compare,
    Ladder,
    Sweep,
}

/// One variant of the run: what the report says of it, and its rules in
/// full (the template or deck as written, the options under `options`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunVariant {
    pub info: VariantInfo,
    pub rules: serde_json::Value,
}

/// The run a part belongs to: every part of one run says the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// `soleils` or `summertime`.
    pub game: String,
    pub players: usize,
    /// The games of the whole run (per variant, in a comparison).
    pub games: u64,
    pub seed: u64,
    /// The bots as given, in order.
    pub bots: Vec<Bot>,
    /// Variant A, and B in a comparison; in a sweep, the variant every
    /// point starts from.
    pub variants: Vec<RunVariant>,
    /// A sweep's places, values and figures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<crate::workbench::sweep::SweepRun>,
}

impl Run {
    /// The run of `games` games of `G` at `players` seats from `seed`, with
    /// `bots` seated, under `variants` (one, or A and B), no sweep.
    pub fn of<G: crate::bots::Simulated>(
        players: usize,
        games: u64,
        seed: u64,
        bots: &[Bot],
        variants: &[&G::Variant],
    ) -> Run {
        Run {
            game: G::NAME.to_owned(),
            players,
            games,
            seed,
            bots: bots.to_vec(),
            variants: (variants.iter())
                .map(|v| RunVariant {
                    info: G::variant_info(v),
                    rules: G::rules(v),
                })
                .collect(),
            sweep: None,
        }
    }
}

/// Which games a part holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// 1-based.
    pub index: u64,
    /// The number of shards.
    pub of: u64,
    /// The first game number, from 0.
    pub from: u64,
    /// One past the last game number.
    pub to: u64,
}

/// The statistics of a part's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Tallied {
    /// `simulate`: one variant's tally.
    Simulate(Box<Tally>),
    /// `compare`: A's and B's tallies and their paired differences.
    Compare(Box<Paired>),
    /// `ladder`: each game's seats (as indices into the bots) and scores,
    /// in game order, which the bootstrap of the ratings resamples.
    Ladder(Vec<LadderGame>),
    /// `sweep`: one tally per point, in the order of the report's rows,
    /// and each point's paired differences from the base point.
    Sweep(crate::workbench::sweep::Points),
}

impl Tallied {
    pub fn kind(&self) -> Kind {
        match self {
            Tallied::Simulate(_) => Kind::Simulate,
            Tallied::Compare(_) => Kind::Compare,
            Tallied::Ladder(_) => Kind::Ladder,
            Tallied::Sweep(_) => Kind::Sweep,
        }
    }
}

/// What `--shard K/N` writes: one JSON object, `sunfold schema
/// partial-report`, merged by `sunfold merge`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Partial {
    /// Always `sunfold partial report`.
    pub partial: String,
    /// The version of this format: [`PARTIAL_FORMAT`].
    pub format: u32,
    pub kind: Kind,
    pub run: Run,
    pub shard: Part,
    pub tally: Tallied,
}

impl Partial {
    /// Shard `shard`'s part of `run`, which tallied its games.
    pub fn new(run: Run, shard: Shard, tally: Tallied) -> Self {
        let games = shard.games(run.games);
        Partial {
            partial: PARTIAL_MARK.to_owned(),
            format: PARTIAL_FORMAT,
            kind: tally.kind(),
            shard: Part {
                index: shard.index,
                of: shard.of,
                from: games.start,
                to: games.end,
            },
            run,
            tally,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_the_games_once_in_order() {
        for games in [0, 1, 5, 7, 100, 1001] {
            for of in [1, 3, 7, 10] {
                let mut next = 0;
                for index in 1..=of {
                    let range = Shard { index, of }.games(games);
                    assert_eq!(range.start, next);
                    next = range.end;
                }
                assert_eq!(next, games);
            }
        }
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, of: 8 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
