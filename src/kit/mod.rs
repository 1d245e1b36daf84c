//! The contract and the shared kit, beneath everything else:
//!
//! - [`game`]: the contract both rules cores fulfil;
//! - [`suggest`], [`path`], [`bounded`]: "did you mean", JSON paths and
//!   ranged numbers, shared by the cores' messages;
//! - [`rng`]: a portable seeded generator (never named by the rules cores,
//!   which draw nothing);
//! - [`json_error`]: serde_json's messages reworded;
//! - [`atomic`]: files written whole or not at all (never named by the
//!   rules cores, which do no I/O);
//! - [`columns`]: text padded to terminal columns, for names in any script;
//! - [`words`]: a count with its noun, in the singular or the plural.

pub mod atomic;
pub mod bounded;
pub mod columns;
pub mod game;
pub mod json_error;
pub mod path;
pub mod rng;
pub mod suggest;
pub mod words;
