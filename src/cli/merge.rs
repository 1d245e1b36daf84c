//! `sunfold merge`: the partial reports of a run's shards merged into the
//! report of the run with no shards, byte for byte. The checking and the
//! arithmetic are [`crate::workbench::merge`]'s (and, for an event study's parts,
//! [`crate::event::study_part`]'s); this reads the files and prints.

use super::batch::publish;
use super::error::CliError;
use super::output::{PaperArg, drawing};
use super::{Exit, Format};
use crate::event::study_part::{self, STUDY_PART_MARK};
use crate::report::Finished;
use crate::workbench::merge::{self, Merged};
use crate::workbench::partial::Kind;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The partial reports that `simulate`, `compare`, `ladder`, `sweep` or
    /// `event simulate` wrote with --shard K/N: one per shard, in any order. A file may hold
    /// several, one after another, as `parallel -k` gathers them.
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// The report as text, or as one JSON object, as the run with no
    /// shards prints it.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also draw the report of a comparison, a ladder or a sweep, as .pdf or .svg.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The paper of the drawing.
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
}

fn refused(error: merge::MergeError) -> CliError {
    CliError::Usage(error.to_string())
}

pub fn run(args: MergeArgs) -> Result<Exit, CliError> {
    let target = drawing(args.output.as_deref(), "report")?;
    let mut texts = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
        texts.push((path.display().to_string(), text));
    }
    // The first file says which kind of parts these are: an event study's
    // or a batch's (whose reader refuses anything else by name).
    let first = texts.first().and_then(|(_, text)| merge::mark_of(text));
    if first.as_deref() == Some(STUDY_PART_MARK) {
        if target.is_some() {
            return Err(CliError::Usage(
                "expected -o with the parts of a comparison, a ladder or a sweep, but found parts of an event study, which draws nothing".to_owned(),
            ));
        }
        let report = study_part::merge_texts(&texts).map_err(refused)?;
        match args.format {
            Format::Text => print!("{}", report.text()),
            Format::Json => println!(
                "{}",
                serde_json::to_string_pretty(&report).expect("a report")
            ),
        }
        return Ok(Exit::Valid);
    }
    let mut parts = Vec::with_capacity(args.parts.len());
    for (name, text) in &texts {
        parts.extend(merge::read(name, text).map_err(refused)?);
    }
    if target.is_some() && parts.iter().any(|(_, p)| p.kind == Kind::Simulate) {
        return Err(CliError::Usage(
            "expected -o with the parts of a comparison, a ladder or a sweep, but found parts of simulate, which draws nothing".to_owned(),
        ));
    }
    let merged = merge::merge(parts).map_err(refused)?;
    let finished = match &merged {
        Merged::Report(report) => Finished::Compare(report),
        Merged::Ladder(report) => Finished::Ladder(report),
        Merged::Sweep(report) => Finished::Sweep(report),
    };
    publish(finished, args.format, target.as_ref(), args.paper)?;
    Ok(Exit::Valid)
}
