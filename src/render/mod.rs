//! The drawing engine beneath every picture: one scene model in
//! millimetres ([`scene`]), measured in the fonts it is given ([`text`]),
//! written by the [`svg`] and [`pdf`] backends on a [`paper`]. It knows no
//! game and no report: the game pictures (`crate::print`), the workbench's
//! charts (`crate::report`) and the HTML viewer (`crate::show`) lay out
//! scenes, and this part only draws them. Nothing here reads files or knows
//! the command line.
//!
//! - [`scene`]: pages of items in millimetres, and the canvas that lays
//!   them out;
//! - [`text`]: fonts, shaping and measuring;
//! - [`svg`] and [`pdf`]: the two backends, which draw the same scene;
//! - [`paper`]: the paper sizes and the printable margin;
//! - [`chart`]: a line chart, the one primitive the scored replays, the
//!   viewer and the sweep report share.

pub mod chart;
pub mod paper;
pub mod pdf;
pub mod scene;
pub mod svg;
pub mod text;
