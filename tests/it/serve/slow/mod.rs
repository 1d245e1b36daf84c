//! The slow tier of the table and the room: real browsers.

mod bot_browser;
mod review_browser;
mod room_browser;
mod serve_browser;
