//! The statistics kit beneath the bots and the workbench: a figure and
//! its 95% interval, and sums kept as values arrive.
//!
//! Its files: [`metric`] (figures, their intervals and Holm's correction),
//! [`sums`] (figures summed as games are played).

pub mod metric;
pub mod sums;

pub use metric::{ALPHA, Estimate, Metric, Moments, Section, Unit, Z95, holm, mean_of, share_of};
pub use sums::{Fixed, Sums};
