//! The slow tier of the studio: a real browser.

mod studio_browser;
mod studio_keys;
mod studio_page;
mod studio_paste_browser;
mod studio_phone;
mod studio_rebuild;
