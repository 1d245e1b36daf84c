//! A variant: the rules a batch of games is played under. For 62 Soleils a
//! sheet template and the rule options; for Summertime a deck (whose
//! `rules` hold its numbers). Variants are checked before any game runs.

use crate::soleils::template::RawTemplate;
use crate::soleils::{Options, Sailboats, Template};
use crate::summertime::Deck;
use crate::summertime::deck::RawDeck;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// 62 Soleils under a template and options.
#[derive(Clone, Debug)]
pub struct SoleilsVariant {
    /// Where the template came from: a path, or `bundled`.
    pub source: String,
    /// The template as written into each start event.
    pub raw: RawTemplate,
    /// The same template, checked, shared by every game of a batch.
    pub template: Arc<Template>,
    pub options: Options,
}

impl SoleilsVariant {
    /// Checks `raw`; on failure the problems come back with their paths.
    pub fn new(
        source: impl Into<String>,
        raw: RawTemplate,
        options: Options,
    ) -> Result<Self, crate::soleils::template::TemplateErrors> {
        let template = Arc::new(Template::try_from(raw.clone())?);
        Ok(SoleilsVariant {
            source: source.into(),
            raw,
            template,
            options,
        })
    }

    /// The bundled default sheet under the default options.
    pub fn bundled() -> Self {
        let raw: RawTemplate =
            serde_json::from_str(include_str!("../../sheet-templates/62-soleils-d-ete.json"))
                .expect("the bundled template parses");
        SoleilsVariant::new("bundled", raw, Options::default())
            .expect("the bundled template is valid")
    }

    /// What a report says of the variant. `sailboats` is named only when it
    /// is not `symbol`, so that reports of other variants read as before it
    /// existed; `solo` never, as the report's player count says it.
    pub fn info(&self) -> VariantInfo {
        let mut options = vec![
            ("sun_bonus".to_owned(), self.options.sun_bonus.to_string()),
            (
                "skip_placement".to_owned(),
                self.options.skip_placement.to_string(),
            ),
        ];
        if self.options.sailboats != Sailboats::Symbol {
            let rule = self.options.sailboats.to_string();
            options.push(("sailboats".to_owned(), rule));
        }
        VariantInfo {
            source: self.source.clone(),
            name: self.template.name().to_owned(),
            kind: "sheet",
            options,
        }
    }
}

/// Summertime with a deck.
#[derive(Clone, Debug)]
pub struct SummertimeVariant {
    /// Where the deck came from: a path, or `bundled`.
    pub source: String,
    /// The deck as written into each start event.
    pub raw: RawDeck,
    /// The same deck, checked, shared by every game of a batch.
    pub deck: Arc<Deck>,
}

impl SummertimeVariant {
    pub fn new(
        source: impl Into<String>,
        raw: RawDeck,
    ) -> Result<Self, crate::summertime::deck::DeckErrors> {
        let deck = Arc::new(Deck::try_from(raw.clone())?);
        Ok(SummertimeVariant {
            source: source.into(),
            raw,
            deck,
        })
    }

    /// The bundled default deck.
    pub fn bundled() -> Self {
        let raw: RawDeck =
            serde_json::from_str(include_str!("../../sheet-templates/summertime.json"))
                .expect("the bundled deck parses");
        SummertimeVariant::new("bundled", raw).expect("the bundled deck is valid")
    }

    pub fn info(&self) -> VariantInfo {
        VariantInfo {
            source: self.source.clone(),
            name: self.deck.name().to_owned(),
            kind: "deck",
            options: Vec::new(),
        }
    }
}

/// What a report says of a variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct VariantInfo {
    /// The template or deck file, or `bundled`.
    pub source: String,
    /// The name inside the template or deck.
    pub name: String,
    /// `sheet` or `deck`.
    pub kind: &'static str,
    /// The rule options, by name.
    #[serde(serialize_with = "options_map")]
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub options: Vec<(String, String)>,
}

fn options_map<S: serde::Serializer>(
    options: &[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = serializer.serialize_map(Some(options.len()))?;
    for (k, v) in options {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// Read back from a partial report (`sunfold merge`).
impl<'de> Deserialize<'de> for VariantInfo {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Written {
            source: String,
            name: String,
            kind: String,
            #[serde(deserialize_with = "options_in_order")]
            options: Vec<(String, String)>,
        }
        let written = Written::deserialize(d)?;
        let kind = match written.kind.as_str() {
            "sheet" => "sheet",
            "deck" => "deck",
            other => {
                return Err(serde::de::Error::custom(format!(
                    "expected \"sheet\" or \"deck\", but found {other:?}"
                )));
            }
        };
        Ok(VariantInfo {
            source: written.source,
            name: written.name,
            kind,
            options: written.options,
        })
    }
}

/// The options map read back in the order it was written.
fn options_in_order<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<(String, String)>, D::Error> {
    struct InOrder;
    impl<'de> serde::de::Visitor<'de> for InOrder {
        type Value = Vec<(String, String)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of option names to values")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Self::Value, A::Error> {
            let mut options = Vec::new();
            while let Some(entry) = map.next_entry()? {
                options.push(entry);
            }
            Ok(options)
        }
    }
    d.deserialize_map(InOrder)
}

impl std::fmt::Display for VariantInfo {
    /// `sheet "62 Soleils d'été" (bundled), sun_bonus=exact, skip_placement=voluntary`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {:?} ({})", self.kind, self.name, self.source)?;
        for (k, v) in &self.options {
            write!(f, ", {k}={v}")?;
        }
        Ok(())
    }
}

/// Every `NAME=VALUE` of `given`, checked. An option given twice is
/// refused, naming both, rather than the last one silently winning.
pub fn settings(given: &[String]) -> Result<Vec<crate::soleils::Setting>, String> {
    let settings = given
        .iter()
        .map(|option| option.parse::<crate::soleils::Setting>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    for (later, setting) in settings.iter().enumerate() {
        if let Some(earlier) = settings[..later]
            .iter()
            .position(|s| s.name() == setting.name())
        {
            return Err(format!(
                "expected the option {} at most once, but found {:?} and {:?}",
                setting.name(),
                given[earlier],
                given[later]
            ));
        }
    }
    Ok(settings)
}

/// Refuses a rule option for Summertime, whose rules are the numbers of
/// its deck.
pub fn no_summertime_options(given: &[String]) -> Result<(), String> {
    match given.first() {
        None => Ok(()),
        Some(option) => Err(format!(
            "expected no rule option for summertime, whose rules are the numbers of its deck, but found {option:?}"
        )),
    }
}
