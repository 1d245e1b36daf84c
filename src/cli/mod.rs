//! The command line: arguments, file paths, exit codes, and the file name in
//! front of every located error.

mod batch;
mod load;
mod present;
mod record;
mod render;
mod replay;
mod report_view;
mod rescore;
mod schema;
mod simulate;
mod soleils_text;
mod summertime_text;

pub use schema::{SchemaKind, schema_text};
mod template;
mod variant;

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
    /// Start recording a match: write the start event of a new log.
    #[command(subcommand)]
    New(NewCommand),
    /// 62 Soleils: roll the three dice (digital dice from the log's seed, or
    /// --dice 3,4,6 for real ones).
    #[command(after_help = RECORD_HELP)]
    Roll {
        file: PathBuf,
        #[arg(long, value_delimiter = ',', value_name = "A,B,C")]
        dice: Option<Vec<u8>>,
    },
    /// 62 Soleils: PLAYER writes VALUE into BOX.
    #[command(after_help = RECORD_HELP)]
    Place {
        file: PathBuf,
        player: String,
        #[arg(value_name = "BOX")]
        box_id: String,
        value: u8,
    },
    /// 62 Soleils: PLAYER copies the crab value into the neighbour TARGET, or --decline.
    #[command(after_help = RECORD_HELP)]
    Crab {
        file: PathBuf,
        player: String,
        #[arg(required_unless_present = "decline")]
        target: Option<String>,
        #[arg(long, conflicts_with = "target")]
        decline: bool,
    },
    /// 62 Soleils: PLAYER adds VALUE to the sun track.
    #[command(after_help = RECORD_HELP)]
    Sun {
        file: PathBuf,
        player: String,
        value: u8,
    },
    /// 62 Soleils: PLAYER writes the bonus digit VALUE into BOX, or --decline.
    #[command(after_help = RECORD_HELP)]
    Bonus {
        file: PathBuf,
        player: String,
        #[arg(value_name = "BOX", required_unless_present = "decline")]
        box_id: Option<String>,
        #[arg(required_unless_present = "decline")]
        value: Option<u8>,
        #[arg(long, conflicts_with_all = ["box_id", "value"])]
        decline: bool,
    },
    /// Summertime: PLAYER buys a face-up CARD (its id, or the stack number 0-2).
    #[command(after_help = RECORD_HELP)]
    Buy {
        file: PathBuf,
        player: String,
        card: String,
    },
    /// Summertime: PLAYER plays CARD at CELL, written x,y.
    #[command(after_help = RECORD_HELP)]
    Play {
        file: PathBuf,
        player: String,
        card: String,
        #[arg(value_parser = parse_cell, allow_hyphen_values = true)]
        cell: (i32, i32),
    },
    /// Summertime: PLAYER ends a turn in which they bought.
    #[command(name = "end-turn", after_help = RECORD_HELP)]
    EndTurn { file: PathBuf, player: String },
    /// Summertime: PLAYER turns all face-down tiles face up.
    #[command(after_help = RECORD_HELP)]
    Flip { file: PathBuf, player: String },
    /// Summertime: PLAYER passes.
    #[command(after_help = RECORD_HELP)]
    Pass { file: PathBuf, player: String },
    /// Summertime: turn up the next card (dealt games), or STACK CARD --behind
    /// ITEMS as seen on the table (physical games).
    #[command(after_help = RECORD_HELP)]
    Reveal {
        file: PathBuf,
        stack: Option<u8>,
        #[arg(requires = "stack")]
        card: Option<String>,
        #[arg(long, value_delimiter = ',', requires = "card", value_name = "A,B,C")]
        behind: Option<Vec<String>>,
    },
    /// Summertime: the face-up cards leave the game after two passes.
    #[command(after_help = RECORD_HELP)]
    Discard { file: PathBuf },
    /// Append any entry given as JSON; seq, at and prev are filled in.
    #[command(after_help = RECORD_HELP)]
    Append { file: PathBuf, json: String },
    /// Take back the last decision (not across a roll or a reveal): appends
    /// an "undone" entry, it never erases.
    #[command(after_help = RECORD_HELP)]
    Undo { file: PathBuf },
    /// Record the scores claimed on paper, NAME=SCORE each, or --from FILE.
    #[command(after_help = RECORD_HELP)]
    Claim {
        file: PathBuf,
        #[arg(value_parser = parse_claim, required_unless_present = "from")]
        scores: Vec<(String, i64)>,
        /// A JSON file {"Ann": 54, "Bob": 61}.
        #[arg(long, conflicts_with = "scores")]
        from: Option<PathBuf>,
    },
    /// Where a match stands: whose decision is pending, the sheets or grid,
    /// the scores so far and the legal next events.
    #[command(after_help = EXIT_CODES)]
    Status {
        file: PathBuf,
        /// List every legal next event, not only the first few.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Remove a torn last line (left by a crash mid-write), keeping it in FILE.torn.
    /// Any other damage is reported, never repaired.
    #[command(after_help = EXIT_CODES)]
    Repair { file: PathBuf },
    /// Play many games with bots, on every core, and summarise them.
    ///
    /// The same seed gives the same games, the same files and the same
    /// summary; the throughput goes to standard error.
    #[command(after_help = EXIT_CODES)]
    Simulate(simulate::SimulateArgs),
    /// Compare two variants over the same games: mean scores, win rates,
    /// lengths, completions and the score distribution, each difference with
    /// its 95% confidence interval.
    ///
    /// Game i of variant A and game i of variant B see the same dice (or the
    /// same deal) and the same bot seeds, so a difference comes from the rules
    /// and not from luck. A variant is a sheet template (or a deck) and rule
    /// options; each side defaults to the bundled sheet or deck with the
    /// default options.
    #[command(after_help = EXIT_CODES)]
    Compare(simulate::CompareArgs),
    /// Replay recorded matches under other rules: a rule option, a sheet
    /// template or a deck. Each file is reported as the same result, new
    /// scores, a changed winner, or the first decision that becomes illegal.
    #[command(after_help = EXIT_CODES)]
    Rescore(rescore::RescoreArgs),
    /// Audit every log under the given files and folders, in parallel.
    ///
    /// Prints one line per bad file with its first located error, then a
    /// summary; --format json prints one JSON object per file (JSON lines).
    #[command(after_help = EXIT_CODES)]
    Audit {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(long)]
        jobs: Option<usize>,
        /// Count a file whose last claimed scores differ from the recomputed
        /// ones as bad (exit 1), not only report the difference.
        #[arg(long)]
        strict_claims: bool,
    },
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

const RECORD_HELP: &str = "\
Every recording command locks the file, checks the new entry against the
whole log first, and writes it only if it is legal; an illegal entry is
refused with its reason and the file stays byte for byte unchanged.

Exit codes:
  0  the entry was appended
  1  the entry is illegal, or the log is malformed
  2  bad arguments, or a file that cannot be read or written";

fn parse_cell(text: &str) -> Result<(i32, i32), String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("expected a cell such as 2,-1, but found {text:?}"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| format!("expected a cell such as 2,-1, but found {text:?}"))
    };
    Ok((n(x)?, n(y)?))
}

fn parse_claim(text: &str) -> Result<(String, i64), String> {
    let (name, score) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=SCORE such as Ann=54, but found {text:?}"))?;
    let score = score
        .trim()
        .parse::<i64>()
        .map_err(|_| format!("expected a whole score in {text:?}"))?;
    Ok((name.trim().to_owned(), score))
}

#[derive(Subcommand, Debug)]
enum NewCommand {
    /// A 62 Soleils log.
    #[command(after_help = EXIT_CODES)]
    Soleils {
        file: PathBuf,
        /// 1 to 12 comma-separated names.
        #[arg(long, value_delimiter = ',', required = true)]
        players: Vec<String>,
        /// A sheet template; the bundled default sheet if left out.
        #[arg(long)]
        template: Option<PathBuf>,
        /// A rule option, such as sun_bonus=exact, sailboats=different or solo=true (one player).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The seed of the digital dice; drawn from the clock if left out.
        #[arg(long)]
        dice_seed: Option<u64>,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// A Summertime log.
    #[command(after_help = EXIT_CODES)]
    Summertime {
        file: PathBuf,
        /// Exactly two comma-separated names.
        #[arg(long, value_delimiter = ',', required = true)]
        players: Vec<String>,
        /// Who takes the first turn; the first name if left out.
        #[arg(long)]
        first: Option<String>,
        /// A deck file; the bundled default deck if left out.
        #[arg(long)]
        deck: Option<PathBuf>,
        /// Derive the deal from this seed (portable: the same seed, the same deal forever).
        #[arg(long, conflicts_with_all = ["deck_order", "physical"])]
        seed: Option<u64>,
        /// Take the deal from a JSON file: {"hands": [[..],[..]], "stacks": [[..],[..],[..]], "closing_up": [0,1,0]}.
        #[arg(long, conflicts_with = "physical")]
        deck_order: Option<PathBuf>,
        /// A game at a real table: cards are entered as they are turned up.
        #[arg(long)]
        physical: bool,
        /// With --physical: which side of each closing card is up.
        #[arg(long, value_delimiter = ',', default_value = "0,0,0")]
        closing: Vec<u8>,
        #[arg(long)]
        force: bool,
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
pub enum Format {
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
        Command::New(new) => new_log(new),
        Command::Simulate(args) => simulate::simulate(args),
        Command::Compare(args) => simulate::compare(args),
        Command::Rescore(args) => rescore::run(args),
        Command::Audit {
            paths,
            format,
            jobs,
            strict_claims,
        } => batch::audit(&paths, format, jobs, strict_claims),
        Command::Roll { file, dice } => record::record(&file, record::Verb::Roll { dice }),
        Command::Place {
            file,
            player,
            box_id,
            value,
        } => record::record(
            &file,
            record::Verb::Place {
                player,
                box_id,
                value,
            },
        ),
        Command::Crab {
            file,
            player,
            target,
            ..
        } => record::record(&file, record::Verb::Crab { player, to: target }),
        Command::Sun {
            file,
            player,
            value,
        } => record::record(&file, record::Verb::Sun { player, value }),
        Command::Bonus {
            file,
            player,
            box_id,
            value,
            ..
        } => {
            let placed = box_id.zip(value);
            record::record(&file, record::Verb::Bonus { player, placed })
        }
        Command::Buy { file, player, card } => {
            record::record(&file, record::Verb::Buy { player, card })
        }
        Command::Play {
            file,
            player,
            card,
            cell,
        } => record::record(&file, record::Verb::Play { player, card, cell }),
        Command::EndTurn { file, player } => {
            record::record(&file, record::Verb::EndTurn { player })
        }
        Command::Flip { file, player } => record::record(&file, record::Verb::Flip { player }),
        Command::Pass { file, player } => record::record(&file, record::Verb::Pass { player }),
        Command::Reveal {
            file,
            stack,
            card,
            behind,
        } => {
            let given = stack.zip(card).map(|(s, c)| (s, c, behind));
            record::record(&file, record::Verb::Reveal { given })
        }
        Command::Discard { file } => record::record(&file, record::Verb::Discard),
        Command::Append { file, json } => record::record(&file, record::Verb::Append { json }),
        Command::Undo { file } => record::record(&file, record::Verb::Undo),
        Command::Claim { file, scores, from } => claim(&file, scores, from),
        Command::Status { file, all, format } => record::status(&file, all, format),
        Command::Repair { file } => record::repair(&file),
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

fn claim(file: &std::path::Path, scores: Vec<(String, i64)>, from: Option<PathBuf>) -> Exit {
    let scores = match from {
        None => scores.into_iter().collect(),
        Some(path) => {
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(e) => return io_error(&path, &e),
            };
            match serde_json::from_str::<std::collections::BTreeMap<String, i64>>(&text) {
                Ok(scores) => scores,
                Err(e) => {
                    eprintln!(
                        "sunfold: {}: {}",
                        path.display(),
                        crate::json_error::describe(&e)
                    );
                    return Exit::Invalid;
                }
            }
        }
    };
    record::record(file, record::Verb::Claim { scores })
}

fn seed_from_clock() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() ^ u64::from(now.subsec_nanos()).rotate_left(32)
}

fn read_json<T: serde::de::DeserializeOwned>(path: &std::path::Path) -> Result<T, Exit> {
    let text = std::fs::read_to_string(path).map_err(|e| io_error(path, &e))?;
    serde_json::from_str(&text).map_err(|e| {
        let shown = path.display();
        eprintln!("sunfold: {shown}: {}", crate::json_error::describe(&e));
        Exit::Invalid
    })
}

fn new_log(command: NewCommand) -> Exit {
    use crate::{soleils, summertime};
    match command {
        NewCommand::Soleils {
            file,
            players,
            template,
            options,
            dice_seed,
            force,
        } => {
            let variant = match variant::soleils(template.as_deref(), &options) {
                Ok(variant) => variant,
                Err(exit) => return exit,
            };
            let start = soleils::Event::Started(soleils::Start {
                format: crate::log::LOG_FORMAT,
                game: "soleils".into(),
                players: players.iter().map(|p| p.trim().to_owned()).collect(),
                options: variant.options,
                template: variant.raw,
                dice_seed: Some(dice_seed.unwrap_or_else(seed_from_clock)),
            });
            record::create::<soleils::Soleils>(&file, start, force)
        }
        NewCommand::Summertime {
            file,
            players,
            first,
            deck,
            seed,
            deck_order,
            physical,
            closing,
            force,
        } => {
            let variant = match variant::summertime(deck.as_deref(), &[]) {
                Ok(variant) => variant,
                Err(exit) => return exit,
            };
            let order = if physical {
                let Ok(closing_up) = <[u8; 3]>::try_from(closing.as_slice()) else {
                    eprintln!(
                        "sunfold: expected --closing with three sides such as 0,1,0, but found {}",
                        closing.len()
                    );
                    return Exit::Usage;
                };
                summertime::Order::Physical { closing_up }
            } else if let Some(path) = deck_order {
                #[derive(serde::Deserialize)]
                #[serde(deny_unknown_fields)]
                struct Given {
                    hands: Vec<Vec<String>>,
                    stacks: Vec<Vec<String>>,
                    closing_up: [u8; 3],
                }
                let given: Given = match read_json(&path) {
                    Ok(g) => g,
                    Err(exit) => return exit,
                };
                summertime::Order::Dealt {
                    hands: given.hands,
                    stacks: given.stacks,
                    closing_up: given.closing_up,
                    seed: None,
                }
            } else {
                crate::deal::dealt_order(&variant.deck, seed.unwrap_or_else(seed_from_clock))
            };
            let players: Vec<String> = players.iter().map(|p| p.trim().to_owned()).collect();
            let first = first.unwrap_or_else(|| players.first().cloned().unwrap_or_default());
            let start = summertime::Event::Started(Box::new(summertime::Start {
                format: crate::log::LOG_FORMAT,
                game: "summertime".into(),
                players,
                first,
                deck: variant.raw,
                order,
            }));
            record::create::<summertime::Summertime>(&file, start, force)
        }
    }
}
