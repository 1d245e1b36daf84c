//! The docs and the code's shape: every documented command runs, the
//! schemas are the code's, the pages' script types are the schemas', the
//! layer rule, module lists, snapshots used.

mod architecture;
mod formats;
mod module_lists;
mod page_types;
mod snapshots_used;

mod slow;
