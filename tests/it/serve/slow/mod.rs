//! The slow tier of the table and the room: real browsers.

mod room_browser;
mod serve_browser;
