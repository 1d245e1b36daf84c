//! The slow tier of the table and the room: real browsers.

mod review_browser;
mod room_browser;
mod serve_browser;
