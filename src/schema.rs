//! `sunfold schema`: the JSON Schemas of the file formats and of the JSON
//! reports, generated from the types that read or write them, so that they
//! cannot drift apart.

use crate::log::Envelope;
use crate::present::json::{
    ErrorReport, ReplayReport, SoleilsView, StatusReport, SummertimeView, TemplateReport,
};
use crate::soleils::{self, template::RawTemplate};
use crate::summertime;

/// A file format or a JSON report with a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    /// What `simulate`, `compare`, `ladder` and `sweep` print with `--shard K/N`.
    PartialReport,
    /// The report of `sunfold sweep --format json`.
    SweepReport,
    /// One line of the studio's edit log, `FILE.edits.jsonl`.
    StudioEdits,
    EventLog,
    EventSeating,
    EventStandings,
    /// The report of `sunfold event simulate --format json`.
    EventStudy,
    /// The part `sunfold event simulate --shard K/N` prints.
    EventStudyPart,
    /// The report of `sunfold rating --format json`.
    RatingReport,
    /// The studio's answer to an edit, an undo, a redo or `/api/check`.
    StudioStanding,
    /// The studio's quick simulation, `/api/figures`.
    StudioFigures,
    /// A refusal of the studio or the table server: its status and why.
    ApiRefusal,
    /// What one page of the table server shows, `/api/view`.
    TableView,
    /// A player's review of a finished game, `/api/review`.
    TableReview,
    /// The board of an event's tables, `/api/room`.
    RoomBoard,
}

impl SchemaKind {
    /// Every kind, in the order `sunfold schema --help` lists them.
    pub const ALL: [SchemaKind; 29] = [
        SchemaKind::SoleilsLog,
        SchemaKind::SoleilsTemplate,
        SchemaKind::SummertimeLog,
        SchemaKind::SummertimeDeck,
        SchemaKind::SimulateReport,
        SchemaKind::CompareReport,
        SchemaKind::RescoreLine,
        SchemaKind::AuditLine,
        SchemaKind::ReplayReport,
        SchemaKind::StatusReport,
        SchemaKind::TemplateReport,
        SchemaKind::LadderReport,
        SchemaKind::AnalyseReport,
        SchemaKind::HintReport,
        SchemaKind::PartialReport,
        SchemaKind::SweepReport,
        SchemaKind::StudioEdits,
        SchemaKind::EventLog,
        SchemaKind::EventSeating,
        SchemaKind::EventStandings,
        SchemaKind::EventStudy,
        SchemaKind::EventStudyPart,
        SchemaKind::RatingReport,
        SchemaKind::StudioStanding,
        SchemaKind::StudioFigures,
        SchemaKind::ApiRefusal,
        SchemaKind::TableView,
        SchemaKind::TableReview,
        SchemaKind::RoomBoard,
    ];

    /// Its name on the command line and in docs/schema/NAME.schema.json.
    pub fn name(self) -> &'static str {
        match self {
            SchemaKind::SoleilsLog => "soleils-log",
            SchemaKind::SoleilsTemplate => "soleils-template",
            SchemaKind::SummertimeLog => "summertime-log",
            SchemaKind::SummertimeDeck => "summertime-deck",
            SchemaKind::SimulateReport => "simulate-report",
            SchemaKind::CompareReport => "compare-report",
            SchemaKind::RescoreLine => "rescore-line",
            SchemaKind::AuditLine => "audit-line",
            SchemaKind::ReplayReport => "replay-report",
            SchemaKind::StatusReport => "status-report",
            SchemaKind::TemplateReport => "template-report",
            SchemaKind::LadderReport => "ladder-report",
            SchemaKind::AnalyseReport => "analyse-report",
            SchemaKind::HintReport => "hint-report",
            SchemaKind::PartialReport => "partial-report",
            SchemaKind::SweepReport => "sweep-report",
            SchemaKind::StudioEdits => "studio-edits",
            SchemaKind::EventLog => "event-log",
            SchemaKind::EventSeating => "event-seating",
            SchemaKind::EventStandings => "event-standings",
            SchemaKind::EventStudy => "event-study",
            SchemaKind::EventStudyPart => "event-study-part",
            SchemaKind::RatingReport => "rating-report",
            SchemaKind::StudioStanding => "studio-standing",
            SchemaKind::StudioFigures => "studio-figures",
            SchemaKind::ApiRefusal => "api-refusal",
            SchemaKind::TableView => "table-view",
            SchemaKind::TableReview => "table-review",
            SchemaKind::RoomBoard => "room-board",
        }
    }

    /// What it describes, in one line.
    pub fn about(self) -> &'static str {
        match self {
            SchemaKind::SoleilsLog => "One line of a 62 Soleils log",
            SchemaKind::SoleilsTemplate => "A 62 Soleils sheet template",
            SchemaKind::SummertimeLog => "One line of a Summertime log",
            SchemaKind::SummertimeDeck => "A Summertime deck",
            SchemaKind::SimulateReport => "The report of `sunfold simulate --format json`",
            SchemaKind::CompareReport => "The report of `sunfold compare --format json`",
            SchemaKind::RescoreLine => "One line of `sunfold rescore --format json`",
            SchemaKind::AuditLine => "One line of `sunfold audit --format json`",
            SchemaKind::ReplayReport => {
                "The report of `sunfold replay --format json`: a valid log of either game, or the located error"
            }
            SchemaKind::StatusReport => {
                "The report of `sunfold status --format json`, or the located error"
            }
            SchemaKind::TemplateReport => "The report of `sunfold template check --format json`",
            SchemaKind::LadderReport => "The report of `sunfold ladder --format json`",
            SchemaKind::AnalyseReport => "The report of `sunfold analyse --format json`",
            SchemaKind::HintReport => "The report of `sunfold hint --format json`",
            SchemaKind::PartialReport => {
                "A shard's partial report, from `simulate`, `compare`, `ladder` or `sweep` with --shard K/N"
            }
            SchemaKind::SweepReport => "The report of `sunfold sweep --format json`",
            SchemaKind::StudioEdits => "One line of the studio's edit log, FILE.edits.jsonl",
            SchemaKind::EventLog => "One line of an event log",
            SchemaKind::EventSeating => "The report of `sunfold event seating --format json`",
            SchemaKind::EventStandings => "The report of `sunfold event standings --format json`",
            SchemaKind::EventStudy => "The report of `sunfold event simulate --format json`",
            SchemaKind::EventStudyPart => {
                "The part of a study that `sunfold event simulate --shard K/N` prints"
            }
            SchemaKind::RatingReport => "The report of `sunfold rating --format json`",
            SchemaKind::StudioStanding => {
                "The studio's answer to /api/patch, /api/undo, /api/redo and /api/check"
            }
            SchemaKind::StudioFigures => "The studio's quick simulation, /api/figures",
            SchemaKind::ApiRefusal => {
                "A refusal of the studio or the table server (4xx, 5xx): its status and why"
            }
            SchemaKind::TableView => "What one page of the table server shows, /api/view",
            SchemaKind::TableReview => "A player's review of a finished game, /api/review",
            SchemaKind::RoomBoard => "The board of an event's tables, /api/room",
        }
    }
}

/// What `hint --format json` prints.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum HintOutput {
    Soleils(crate::present::hint::HintReport<soleils::Event>),
    Summertime(crate::present::hint::HintReport<summertime::Event>),
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

/// A refusal as the studio and the table server answer it (most carry
/// only `status` and `error`; an entry the engine refused also carries what
/// is legal instead).
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct Refusal {
    /// The HTTP status, as in the reply's status line.
    status: u16,
    /// Why, in the shape "expected X, but found Y".
    error: String,
    /// What is legal instead, as commands, for an entry refused.
    #[serde(default)]
    commands: Option<serde_json::Value>,
    /// What is legal instead, as events, for an entry refused.
    #[serde(default)]
    alternatives: Option<serde_json::Value>,
}

/// The JSON Schema of `kind`, pretty-printed, with a final newline.
pub fn schema_text(kind: SchemaKind) -> String {
    let schema = match kind {
        SchemaKind::SoleilsLog => schemars::schema_for!(LogLine<soleils::Event>),
        SchemaKind::SoleilsTemplate => schemars::schema_for!(RawTemplate),
        SchemaKind::SummertimeLog => schemars::schema_for!(LogLine<summertime::Event>),
        SchemaKind::SummertimeDeck => schemars::schema_for!(summertime::deck::RawDeck),
        SchemaKind::SimulateReport => {
            schemars::schema_for!(crate::report::compare::text::SimulateReport)
        }
        SchemaKind::CompareReport => {
            schemars::schema_for!(crate::report::compare::text::CompareReport)
        }
        SchemaKind::RescoreLine => schemars::schema_for!(crate::present::audit::RescoreLine),
        SchemaKind::AuditLine => schemars::schema_for!(crate::present::audit::AuditLine),
        SchemaKind::ReplayReport => schemars::schema_for!(ReplayOutput),
        SchemaKind::StatusReport => schemars::schema_for!(StatusOutput),
        SchemaKind::TemplateReport => schemars::schema_for!(TemplateReport),
        SchemaKind::LadderReport => schemars::schema_for!(crate::workbench::Ladder),
        SchemaKind::AnalyseReport => {
            schemars::schema_for!(crate::workbench::analysis::AnalysisReport)
        }
        SchemaKind::HintReport => schemars::schema_for!(HintOutput),
        SchemaKind::PartialReport => schemars::schema_for!(crate::workbench::partial::Partial),
        SchemaKind::SweepReport => schemars::schema_for!(crate::workbench::sweep::Sweep),
        SchemaKind::StudioEdits => schemars::schema_for!(crate::studio::edit_log::EditLine),
        SchemaKind::EventLog => {
            // An event log shares the envelope but is posted to no table:
            // its reader refuses a `by`.
            let mut schema = schemars::schema_for!(Envelope<crate::event::Entry>);
            if let Some(serde_json::Value::Object(fields)) = schema.get_mut("properties") {
                fields.remove("by");
            }
            schema
        }
        SchemaKind::EventSeating => schemars::schema_for!(crate::event::Seating),
        SchemaKind::EventStandings => schemars::schema_for!(crate::event::Standings),
        SchemaKind::EventStudy => schemars::schema_for!(crate::event::study::StudyReport),
        SchemaKind::EventStudyPart => {
            schemars::schema_for!(crate::event::study_part::StudyPart)
        }
        SchemaKind::RatingReport => {
            schemars::schema_for!(crate::event::rating::RatingReport)
        }
        SchemaKind::StudioStanding => schemars::schema_for!(crate::studio::Standing),
        SchemaKind::StudioFigures => schemars::schema_for!(crate::studio::figures::Standing),
        SchemaKind::ApiRefusal => schemars::schema_for!(Refusal),
        SchemaKind::TableView => schemars::schema_for!(crate::serve::PageView),
        SchemaKind::TableReview => schemars::schema_for!(crate::serve::Review),
        SchemaKind::RoomBoard => schemars::schema_for!(crate::serve::room::board::Board),
    };
    let mut text = serde_json::to_string_pretty(&schema).expect("schemas serialize");
    text.push('\n');
    text
}
