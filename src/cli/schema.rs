//! `sunfold schema`: the JSON Schemas of the file formats, generated from
//! the types that read them, so that they cannot drift apart.

use super::Exit;
use crate::log::Envelope;
use crate::soleils::{self, template::RawTemplate};
use crate::summertime;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaKind {
    /// One line of a 62 Soleils log.
    SoleilsLog,
    /// A 62 Soleils sheet template.
    SoleilsTemplate,
    /// One line of a Summertime log.
    SummertimeLog,
    /// A Summertime deck.
    SummertimeDeck,
}

pub fn schema_text(kind: SchemaKind) -> String {
    let schema = match kind {
        SchemaKind::SoleilsLog => schemars::schema_for!(Envelope<soleils::Event>),
        SchemaKind::SoleilsTemplate => schemars::schema_for!(RawTemplate),
        SchemaKind::SummertimeLog => schemars::schema_for!(Envelope<summertime::Event>),
        SchemaKind::SummertimeDeck => schemars::schema_for!(summertime::deck::RawDeck),
    };
    let mut text = serde_json::to_string_pretty(&schema).expect("schemas serialize");
    text.push('\n');
    text
}

pub fn print(kind: SchemaKind) -> Exit {
    print!("{}", schema_text(kind));
    Exit::Valid
}
