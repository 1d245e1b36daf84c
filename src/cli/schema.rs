//! `sunfold schema`: prints the JSON Schema that
//! [`crate::schema`] generates from the types.

use super::Exit;
use super::error::CliError;
use crate::schema::{SchemaKind, schema_text};

/// A schema's name as an argument.
#[derive(Clone, Copy, Debug)]
pub struct SchemaArg(pub SchemaKind);

impl clap::ValueEnum for SchemaArg {
    fn value_variants<'a>() -> &'a [Self] {
        const N: usize = SchemaKind::ALL.len();
        const ALL: [SchemaArg; N] = {
            let mut all = [SchemaArg(SchemaKind::SoleilsLog); N];
            let mut i = 0;
            while i < N {
                all[i] = SchemaArg(SchemaKind::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.about()))
    }
}

pub fn print(kind: SchemaArg) -> Result<Exit, CliError> {
    print!("{}", schema_text(kind.0));
    Ok(Exit::Valid)
}
