//! The studio's scripted interface, in-process.

mod studio_app;
mod studio_bounds;
mod studio_paste;
mod studio_rows;
mod studio_safe;

mod slow;
