//! A sheet template or a deck, checked, in words: what it holds, or every
//! problem and warning with its JSON path. `template check` prints it; an
//! editor shows it beside the file.

use super::json::{Problem, TemplateReport};
use crate::template::file::{Checked, FileProblem};

impl TemplateReport {
    /// What `template check` says of a sound file `shown`: its kind, name
    /// and summary, then each warning, a line each.
    pub fn text(&self, shown: &str) -> String {
        let kind = self.kind.as_deref().unwrap_or_default();
        let name = self.name.as_deref().unwrap_or_default();
        let summary = self.summary.as_deref().unwrap_or_default();
        let mut text = format!("{shown}: ok: {kind} \"{name}\", {summary}\n");
        for warning in &self.warnings {
            text += &format!("{shown}: warning: {}: {}\n", warning.path, warning.message);
        }
        text
    }

    /// The report on `file`, which loaded as `checked`: its kind, name and
    /// summary, and its warnings.
    pub fn valid(file: String, checked: &Checked) -> TemplateReport {
        let mut report = TemplateReport {
            file,
            valid: true,
            kind: None,
            name: None,
            summary: None,
            problems: Vec::new(),
            warnings: Vec::new(),
        };
        match checked {
            Checked::Sheet(template) => {
                report.kind = Some("sheet".to_owned());
                report.name = Some(template.name().to_owned());
                report.summary = Some(format!(
                    "{} boxes in {} zones, {} constraints, {} sun thresholds, {} rounds, sun limit {}",
                    template.boxes().len(),
                    template.zones().len(),
                    template.constraints().len(),
                    template.thresholds().len(),
                    template.rounds(),
                    template.sun_limit(),
                ));
                report.warnings = template
                    .improbable()
                    .into_iter()
                    .map(|w| Problem {
                        path: w.path.to_string(),
                        message: w.kind.to_string(),
                    })
                    .collect();
            }
            Checked::Deck(deck) => {
                let kinds: std::collections::BTreeSet<usize> =
                    deck.cards().iter().map(|c| c.picture).collect();
                report.kind = Some("deck".to_owned());
                report.name = Some(deck.name().to_owned());
                report.summary = Some(format!(
                    "{} adventure cards of {} kinds, {} closing cards, {} items × {} tiles per player",
                    deck.cards().len(),
                    kinds.len(),
                    deck.closing_cards().len(),
                    deck.items(),
                    deck.tiles_per_item(),
                ));
            }
        }
        report
    }

    /// The report on `file`, which has `problems`: each with its path, and
    /// the kind of file once its `game` says which.
    pub fn invalid(file: String, problems: &[FileProblem]) -> TemplateReport {
        TemplateReport {
            file,
            valid: false,
            kind: problems.iter().find_map(|p| match p {
                FileProblem::Sheet(_) => Some("sheet".to_owned()),
                FileProblem::Deck(_) => Some("deck".to_owned()),
                _ => None,
            }),
            name: None,
            summary: None,
            problems: problems
                .iter()
                .map(|p| {
                    let (path, message) = located(p);
                    Problem { path, message }
                })
                .collect(),
            warnings: Vec::new(),
        }
    }
}

/// Where a problem is and what it is, apart.
pub fn located(problem: &FileProblem) -> (String, String) {
    match problem {
        FileProblem::ByteOrderMark => {
            let text = problem.to_string();
            let (at, what) = text.split_once(": ").unwrap_or(("line 1 column 1", &text));
            (at.to_owned(), what.to_owned())
        }
        FileProblem::Syntax {
            line,
            column,
            detail,
        } => (format!("line {line} column {column}"), detail.clone()),
        FileProblem::Shape { path, detail } => (path.clone(), detail.clone()),
        FileProblem::Sheet(p) => (p.path.to_string(), p.kind.to_string()),
        FileProblem::Deck(p) => (p.path.to_string(), p.kind.to_string()),
    }
}
