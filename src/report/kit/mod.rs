//! What every drawn report shares: the type styles and text helpers
//! ([`style`]), round ticks and the axis they label ([`ticks`]), and the
//! page footer ([`page`]).

pub mod page;
pub mod style;
pub mod ticks;
