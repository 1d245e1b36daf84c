//! Bots and the designer's workbench: batches, search, compare, ladder,
//! sweep and shards.

mod batches;
mod compare_render;
mod fairness;
mod hints;
mod intervals;
mod ladder_render;
pub(crate) mod search;
mod shards;
mod slow;
mod sweep;
mod workbench;
