//! The integration tests, in one binary, so that the crate is linked once
//! (`tests/alloc_rollout.rs` is apart: it counts allocations with a
//! `#[global_allocator]` of its own). A module per area:
//!
//! - [`rules`]: the rules cores of both games;
//! - [`log`]: the log, the verbs that read and write it, the CLI's surface;
//! - [`serve`]: the live table and the room;
//! - [`print`]: everything printed, as PDF and SVG;
//! - [`studio`]: the studio's scripted interface;
//! - [`event`]: events of many tables and ratings;
//! - [`sim`]: bots and the designer's workbench;
//! - [`docs`]: the docs' commands and the code's shape.
//!
//! Two tiers by cost. A module named `slow`, in any area, holds that
//! area's slow tier: real browsers, socket storms, long studies, docs
//! whose commands play thousands of games. `cargo fast` (an alias in
//! `.cargo/config.toml`) runs the fast tier, the library's unit tests and
//! every test here outside a `slow` module; `cargo test --test it slow::`
//! runs the slow tier alone; `cargo test` runs everything. [`common`] holds
//! the helpers the areas share.

mod common;

mod docs;
mod event;
mod log;
mod print;
mod rules;
mod serve;
mod sim;
mod studio;
