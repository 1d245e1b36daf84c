//! `sunfold schema`: the JSON Schemas of the file formats and of the JSON
//! reports, generated from the types that read or write them, so that they
//! cannot drift apart.

use super::Exit;
use crate::present::report::{
    ErrorReport, ReplayReport, SoleilsView, StatusReport, SummertimeView, TemplateReport,
};
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
    /// The report of `sunfold simulate --format json`.
    SimulateReport,
    /// The report of `sunfold compare --format json`.
    CompareReport,
    /// One line of `sunfold rescore --format json`.
    RescoreLine,
    /// One line of `sunfold audit --format json`.
    AuditLine,
    /// The report of `sunfold replay --format json`: a valid log of either
    /// game, or the located error.
    ReplayReport,
    /// The report of `sunfold status --format json`, or the located error.
    StatusReport,
    /// The report of `sunfold template check --format json`.
    TemplateReport,
    /// The report of `sunfold ladder --format json`.
    LadderReport,
    /// The report of `sunfold analyse --format json`.
    AnalyseReport,
    /// The report of `sunfold hint --format json`.
    HintReport,
}

/// What `hint --format json` prints.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum HintOutput {
    Soleils(super::analyse::HintReport<soleils::Event>),
    Summertime(super::analyse::HintReport<summertime::Event>),
}

/// What `replay --format json` prints.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum ReplayOutput {
    Soleils(ReplayReport<SoleilsView>),
    Summertime(ReplayReport<SummertimeView>),
    SoleilsError(ErrorReport<SoleilsView>),
    SummertimeError(ErrorReport<SummertimeView>),
}

/// What `status --format json` prints.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum StatusOutput {
    Soleils(StatusReport<SoleilsView, soleils::Event>),
    Summertime(StatusReport<SummertimeView, summertime::Event>),
    SoleilsError(ErrorReport<SoleilsView>),
    SummertimeError(ErrorReport<SummertimeView>),
}

/// One line of a log: a game event or a meta entry (`undone`, `claimed`).
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum LogLine<E> {
    Event(Envelope<E>),
    Meta(Envelope<crate::log::Meta>),
}

pub fn schema_text(kind: SchemaKind) -> String {
    let schema = match kind {
        SchemaKind::SoleilsLog => schemars::schema_for!(LogLine<soleils::Event>),
        SchemaKind::SoleilsTemplate => schemars::schema_for!(RawTemplate),
        SchemaKind::SummertimeLog => schemars::schema_for!(LogLine<summertime::Event>),
        SchemaKind::SummertimeDeck => schemars::schema_for!(summertime::deck::RawDeck),
        SchemaKind::SimulateReport => schemars::schema_for!(crate::present::simulation::SimulateReport),
        SchemaKind::CompareReport => schemars::schema_for!(crate::present::simulation::CompareReport),
        SchemaKind::RescoreLine => schemars::schema_for!(super::rescore::RescoreLine),
        SchemaKind::AuditLine => schemars::schema_for!(super::batch::AuditLine),
        SchemaKind::ReplayReport => schemars::schema_for!(ReplayOutput),
        SchemaKind::StatusReport => schemars::schema_for!(StatusOutput),
        SchemaKind::TemplateReport => schemars::schema_for!(TemplateReport),
        SchemaKind::LadderReport => schemars::schema_for!(crate::sim::Ladder),
        SchemaKind::AnalyseReport => {
            schemars::schema_for!(crate::sim::analysis::AnalysisReport)
        }
        SchemaKind::HintReport => schemars::schema_for!(HintOutput),
    };
    let mut text = serde_json::to_string_pretty(&schema).expect("schemas serialize");
    text.push('\n');
    text
}

pub fn print(kind: SchemaKind) -> Result<Exit, super::error::CliError> {
    print!("{}", schema_text(kind));
    Ok(Exit::Valid)
}
