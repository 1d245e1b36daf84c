//! The documentation cannot drift from the code: its example game replays,
//! the page shows it unchanged, and the committed JSON Schemas are the ones
//! the code generates.

use crate::common;

use sunfold::schema::{SchemaKind, schema_text};

#[test]
fn the_annotated_example_game_is_valid_and_shown_unchanged() {
    let (code, stdout, stderr) = common::sunfold(&["replay", "docs/examples/postcard.jsonl"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Ann        0     3      1      1         1        5    10    1"));
    let page = std::fs::read_to_string(common::repo().join("docs/replay-format.md")).unwrap();
    let example =
        std::fs::read_to_string(common::repo().join("docs/examples/postcard.jsonl")).unwrap();
    for (i, line) in example.lines().enumerate() {
        assert!(
            page.contains(&format!("```json\n{line}\n```")),
            "docs/replay-format.md does not show line {} of the example",
            i + 1
        );
    }
}

#[test]
fn the_committed_schemas_match_the_code() {
    for (kind, file) in [
        (SchemaKind::SoleilsLog, "soleils-log.schema.json"),
        (SchemaKind::SoleilsTemplate, "soleils-template.schema.json"),
        (SchemaKind::SummertimeLog, "summertime-log.schema.json"),
        (SchemaKind::SummertimeDeck, "summertime-deck.schema.json"),
        (SchemaKind::SimulateReport, "simulate-report.schema.json"),
        (SchemaKind::CompareReport, "compare-report.schema.json"),
        (SchemaKind::RescoreLine, "rescore-line.schema.json"),
        (SchemaKind::AuditLine, "audit-line.schema.json"),
        (SchemaKind::ReplayReport, "replay-report.schema.json"),
        (SchemaKind::StatusReport, "status-report.schema.json"),
        (SchemaKind::TemplateReport, "template-report.schema.json"),
        (SchemaKind::LadderReport, "ladder-report.schema.json"),
        (SchemaKind::AnalyseReport, "analyse-report.schema.json"),
        (SchemaKind::HintReport, "hint-report.schema.json"),
        (SchemaKind::PartialReport, "partial-report.schema.json"),
        (SchemaKind::SweepReport, "sweep-report.schema.json"),
        (SchemaKind::StudioEdits, "studio-edits.schema.json"),
        (SchemaKind::EventLog, "event-log.schema.json"),
        (SchemaKind::EventSeating, "event-seating.schema.json"),
        (SchemaKind::EventStandings, "event-standings.schema.json"),
        (SchemaKind::EventStudy, "event-study.schema.json"),
        (SchemaKind::EventStudyPart, "event-study-part.schema.json"),
        (SchemaKind::RatingReport, "rating-report.schema.json"),
        (SchemaKind::StudioStanding, "studio-standing.schema.json"),
        (SchemaKind::StudioFigures, "studio-figures.schema.json"),
        (SchemaKind::ApiRefusal, "api-refusal.schema.json"),
        (SchemaKind::TableView, "table-view.schema.json"),
        (SchemaKind::TableReview, "table-review.schema.json"),
        (SchemaKind::RoomBoard, "room-board.schema.json"),
    ] {
        let committed =
            std::fs::read_to_string(common::repo().join("docs/schema").join(file)).unwrap();
        assert!(
            committed == schema_text(kind),
            "docs/schema/{file} is stale: regenerate it with `sunfold schema`"
        );
    }
}

#[test]
fn the_sheet_template_page_shows_a_valid_template() {
    let page = std::fs::read_to_string(common::repo().join("docs/sheet-template.md")).unwrap();
    let start = page.find("```json\n").unwrap() + 8;
    let end = start + page[start..].find("\n```").unwrap();
    let raw: sunfold::soleils::template::RawTemplate =
        serde_json::from_str(&page[start..end]).unwrap();
    sunfold::soleils::Template::try_from(raw).unwrap();
}

#[test]
fn the_summertime_example_is_shown_line_by_line() {
    let page = std::fs::read_to_string(common::repo().join("docs/replay-format.md")).unwrap();
    let example =
        std::fs::read_to_string(common::repo().join("replays/summertime-rulebook-examples.jsonl"))
            .unwrap();
    // The start line is shown with its deck abbreviated; every other line verbatim.
    for (i, line) in example.lines().enumerate().skip(1) {
        assert!(
            page.contains(&format!("```json\n{line}\n```")),
            "docs/replay-format.md does not show line {} of the Summertime example",
            i + 1
        );
    }
}
