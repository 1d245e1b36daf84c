//! The command line: arguments, file paths, exit codes, and the file name in
//! front of every located error.

mod load;
mod present;
mod render;
mod replay;
mod schema;
mod soleils_text;
mod summertime_text;

pub use schema::{SchemaKind, schema_text};
mod template;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit codes, documented in README.md and `sunfold --help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The log or template is valid.
    Valid = 0,
    /// The log or template is malformed or breaks a rule.
    Invalid = 1,
    /// Bad arguments, or a file that cannot be read or written.
    Usage = 2,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

const EXIT_CODES: &str = "\
Exit codes:
  0  the log or template is valid
  1  the log or template is malformed, or an event breaks a rule
  2  bad arguments, or a file that cannot be read";

/// An event-sourced engine for 62 Soleils d'été and Summertime.
///
/// Every roll, placement, purchase and pass of a match is one line of a
/// JSON-lines log. sunfold folds the log through the rules, reports the first illegal
/// event with its line and reason, and scores the result.
#[derive(Parser, Debug)]
#[command(name = "sunfold", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Audit a match log: fold every event, show the sheets and the score.
    ///
    /// Stops at the first malformed or illegal event and prints
    /// FILE:LINE: event SEQ (type): reason, with the legal alternatives.
    #[command(after_help = EXIT_CODES)]
    Replay(ReplayArgs),
    /// Work with sheet templates and Summertime decks.
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Draw printable sheets, cards and scored replays as PDF or SVG.
    #[command(subcommand)]
    Render(RenderCommand),
    /// Print the JSON Schema of a file format (also in docs/schema/).
    Schema {
        #[arg(value_enum)]
        format: schema::SchemaKind,
    },
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The JSON-lines log to audit.
    file: PathBuf,
    /// Stop after the event with this seq (0 is the start event).
    #[arg(long, value_name = "SEQ")]
    at: Option<u64>,
    /// Text for people, or JSON for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Subcommand, Debug)]
enum TemplateCommand {
    /// Check a sheet template or deck and list every problem with its JSON path.
    ///
    /// The file's "game" field says which it is: "soleils" for a sheet,
    /// "summertime" for a deck.
    #[command(after_help = EXIT_CODES)]
    Check {
        /// The file, such as sheet-templates/62-soleils-d-ete.json or sheet-templates/summertime.json.
        file: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum RenderCommand {
    /// A blank 62 Soleils sheet from a template, ready to print and play.
    ///
    /// The output format follows the extension of -o: .pdf or .svg; -o -
    /// writes SVG to standard output.
    #[command(after_help = EXIT_CODES)]
    Sheet(render::SheetArgs),
    /// A scored replay: every sheet or the card grid as played, with scores
    /// and charts, at the end of the log or after event --at.
    #[command(after_help = EXIT_CODES)]
    Replay(render::ReplayArgs),
    /// Summertime print-and-play cards: faces, mirrored backs for duplex
    /// printing, closing cards and tiles, with crop marks.
    #[command(after_help = EXIT_CODES)]
    Cards(render::CardsArgs),
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                Exit::Usage.into()
            } else {
                Exit::Valid.into()
            };
        }
    };
    let exit = match cli.command {
        Command::Replay(args) => replay::run(&args.file, args.at, args.format),
        Command::Template(TemplateCommand::Check { file }) => template::check(&file),
        Command::Schema { format } => schema::print(format),
        Command::Render(RenderCommand::Sheet(args)) => render::sheet(&args),
        Command::Render(RenderCommand::Replay(args)) => render::replay(&args),
        Command::Render(RenderCommand::Cards(args)) => render::cards(&args),
    };
    exit.into()
}

/// Reports a file that cannot be read, and gives the exit code for it.
fn io_error(path: &std::path::Path, error: &std::io::Error) -> Exit {
    eprintln!("sunfold: {}: {}", path.display(), io_reason(error));
    Exit::Usage
}

fn io_reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".to_owned(),
        _ => error.to_string().to_lowercase(),
    }
}
