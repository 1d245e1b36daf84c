//! The slow tier of the docs: every command of every page run, thousands
//! of games among them, and the page on testing a rule change run whole.

mod docs_examples;
mod docs_testing_a_rule_change;
