//! The slow tier of printed output: the HTML viewer in a real browser.

mod viewer;
