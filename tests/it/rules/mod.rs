//! The rules cores: each rule as given / when / then, legality against
//! `apply` both ways, no dead ends, every error message, the templates.

mod actions;
mod dead_ends;
mod error_messages;
mod fuzz_equivalents;
mod soleils_legality;
mod soleils_rules;
mod summertime_backs;
mod summertime_legality;
mod summertime_rules;
mod template_rows;
mod templates;
