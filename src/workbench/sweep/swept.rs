//! What a sweep needs of a game beyond playing it: its rules as a JSON
//! document, and a variant again from a changed document, checked as
//! `template check` checks a file.

use super::{Axis, SetError, SetValue, Target};
use crate::bots::{Searched, SoleilsVariant, SummertimeVariant};
use crate::soleils::{Setting, Soleils, UnknownSetting};
use crate::summertime::Summertime;
use crate::template::file::Checked;
use serde_json::Value;

/// What a sweep needs of a game beyond playing it: its rules as a JSON
/// document, and a variant again from a changed document.
pub trait Swept: Searched {
    /// What the document is called in messages: `template`, `deck`.
    const WHAT: &'static str;
    /// The rule options `--set` may name.
    const OPTIONS: &'static [&'static str];
    /// The variant's template or deck as JSON.
    fn document(variant: &Self::Variant) -> Value;
    /// `base` with its template or deck replaced by `doc`, checked as
    /// `template check` checks a file, and `settings` applied; or every
    /// problem, each with its path.
    fn point(
        base: &Self::Variant,
        doc: &Value,
        settings: &[Setting],
    ) -> Result<Self::Variant, Vec<String>>;

    /// The variant at one combination of values (`point[a]` the value of
    /// axis `a`, set into `doc`), or why it is refused, naming the `--set`s
    /// that make it.
    fn at(
        base: &Self::Variant,
        doc: &Value,
        axes: &[(Target, Axis)],
        point: &[Option<usize>],
    ) -> Result<Self::Variant, PointError> {
        let mut doc = doc.clone();
        let mut settings = Vec::new();
        let mut named = Vec::new();
        for ((target, axis), at) in axes.iter().zip(point) {
            let Some(v) = *at else { continue };
            let value: &SetValue = &axis.values[v];
            named.push(format!("--set {}={value}", axis.path));
            match target {
                Target::Path(steps) => super::spec::set(&mut doc, steps, value.json(), Self::WHAT)?,
                Target::Option(name) => {
                    settings.push(format!("{name}={value}").parse::<Setting>()?)
                }
            }
        }
        Self::point(base, &doc, &settings).map_err(|problems| PointError::Invalid {
            what: Self::WHAT,
            named: named.join(" "),
            problems,
        })
    }
}

/// Why a point of a sweep is refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PointError {
    #[error(transparent)]
    Set(#[from] SetError),
    #[error(transparent)]
    Option(#[from] UnknownSetting),
    /// The template or deck at the point has `problems`, each with its path.
    #[error("{}", invalid(what, named, problems))]
    Invalid {
        what: &'static str,
        /// The `--set`s that make the point.
        named: String,
        problems: Vec<String>,
    },
}

fn invalid(what: &str, named: &str, problems: &[String]) -> String {
    let count = problems.len();
    let mut message = format!(
        "expected a valid {what} at every value, but {named} gives {count} problem{}:",
        if count == 1 { "" } else { "s" }
    );
    for p in problems {
        message.push_str("\n  ");
        message.push_str(p);
    }
    message
}

fn checked(doc: &Value) -> Result<Checked, Vec<String>> {
    let text = serde_json::to_string(doc).expect("JSON serializes");
    crate::template::file::check(&text).map_err(|p| p.iter().map(ToString::to_string).collect())
}

impl Swept for Soleils {
    const WHAT: &'static str = "template";
    const OPTIONS: &'static [&'static str] = &["sun_bonus", "skip_placement", "sailboats", "solo"];

    fn document(variant: &SoleilsVariant) -> Value {
        serde_json::to_value(&variant.raw).expect("a template serializes")
    }

    fn point(
        base: &SoleilsVariant,
        doc: &Value,
        settings: &[Setting],
    ) -> Result<SoleilsVariant, Vec<String>> {
        match checked(doc)? {
            Checked::Sheet(template) => Ok(SoleilsVariant {
                source: base.source.clone(),
                raw: template.raw().clone(),
                template: template.into(),
                options: base.options.with(settings),
            }),
            Checked::Deck(_) => Err(vec![
                "game: expected a sheet template (\"soleils\"), but found a deck (\"summertime\")"
                    .to_owned(),
            ]),
        }
    }
}

impl Swept for Summertime {
    const WHAT: &'static str = "deck";
    const OPTIONS: &'static [&'static str] = &[];

    fn document(variant: &SummertimeVariant) -> Value {
        serde_json::to_value(&variant.raw).expect("a deck serializes")
    }

    fn point(
        base: &SummertimeVariant,
        doc: &Value,
        _: &[Setting],
    ) -> Result<SummertimeVariant, Vec<String>> {
        match checked(doc)? {
            Checked::Deck(deck) => Ok(SummertimeVariant {
                source: base.source.clone(),
                raw: deck.raw().clone(),
                deck: deck.into(),
            }),
            Checked::Sheet(_) => Err(vec![
                "game: expected a deck (\"summertime\"), but found a sheet template (\"soleils\")"
                    .to_owned(),
            ]),
        }
    }
}
