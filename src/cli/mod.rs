//! The command line: arguments, file paths, exit codes, and the file name in
//! front of every located error.
//!
//! One file per verb: [`replay`], [`template`], [`render`] (with the HTML
//! [`viewer`]), [`record`] (new, roll, place, … status, repair), [`serve`], [`studio`],
//! [`simulate`] (and compare), [`rescore`], [`audit`], [`ladder`],
//! [`sweep`], [`merge`], [`analyse`] (and hint), [`event`] (an event of
//! many tables), [`rating`] (players rated across events), [`schema`]. What verbs
//! share: [`batch`] (the batch flags, threads, throughput, the game
//! dispatch), [`edge`] (the flags of `serve` and `studio`: HTTPS and
//! limits), [`output`] (paper, `-o`, the fonts, writing), [`game`] (a log
//! opened, folded and its errors located), [`load`] and [`variant`]
//! (templates, decks and options), [`error`] (one error type and the exit
//! codes), [`exits`] (what each command's exit codes mean, for its help).

mod analyse;
mod audit;
mod batch;
mod edge;
mod error;
mod event;
mod exits;
mod game;
mod ladder;
mod load;
mod merge;
mod output;
mod rating;
mod record;
mod render;
mod replay;
mod rescore;
mod schema;
mod serve;
mod simulate;
mod studio;
mod sweep;
mod template;
mod variant;
mod viewer;

use clap::{Parser, Subcommand};
use error::CliError;
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

/// An event-sourced engine for 62 Soleils d'été and Summertime.
///
/// Every roll, placement, purchase and pass of a match is one line of a
/// JSON-lines log. sunfold folds the log through the rules, reports the first illegal
/// event with its line and reason, and scores the result.
#[derive(Parser, Debug)]
#[command(name = "sunfold", version, after_help = exits::GENERAL)]
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
    #[command(after_help = exits::LOG)]
    Replay(ReplayArgs),
    /// Work with sheet templates and Summertime decks.
    #[command(subcommand)]
    Template(TemplateCommand),
    /// Draw printable sheets, cards and scored replays as PDF or SVG, or a
    /// replay as an HTML viewer that steps through the match.
    #[command(subcommand)]
    Render(RenderCommand),
    /// Start recording a match: write the start event of a new log.
    #[command(subcommand)]
    New(NewCommand),
    #[command(flatten)]
    Record(record::Verb),
    /// Where a match stands: whose decision is pending, the sheets or grid,
    /// the scores so far and the legal next events.
    #[command(after_help = exits::LOG)]
    Status {
        file: PathBuf,
        /// List every legal next event, not only the first few.
        #[arg(long)]
        all: bool,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Remove a torn last line (left by a crash mid-write) and blank lines
    /// at the end from a match log or an event log, keeping them in
    /// FILE.torn (FILE.torn.2, .3, … once it exists). Any other damage is
    /// reported, never repaired, and exits 1.
    #[command(after_help = exits::REPAIR)]
    Repair { file: PathBuf },
    /// Play many games with bots, on every core, and summarise them.
    ///
    /// The same seed gives the same games, the same files and the same
    /// summary; the throughput goes to standard error.
    #[command(after_help = exits::GAMES)]
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
    #[command(after_help = exits::GAMES)]
    Compare(simulate::CompareArgs),
    /// Replay recorded matches under other rules: a rule option, a sheet
    /// template or a deck. Each file is reported as the same result, new
    /// scores, a changed winner, or the first decision that becomes illegal.
    #[command(after_help = exits::RESCORE)]
    Rescore(rescore::RescoreArgs),
    /// Rank bots by strength: seat-rotated tables of the listed bots, each
    /// one's win rate, mean score and Bradley–Terry rating (random = 0),
    /// with 95% intervals.
    #[command(after_help = exits::GAMES)]
    Ladder(ladder::LadderArgs),
    /// Play one variant at every value of a place of its rules, or every
    /// combination of values of several, on the same games: one row per
    /// value with the figures asked for and their 95% intervals.
    ///
    /// A place is a JSON path as `template check` prints it
    /// (sun.thresholds[2].at) or a rule option (sun_bonus); its values a
    /// range LO..HI:STEP or a list a,b,c. Every value is checked as
    /// `template check` checks a file before the first game (exit 2).
    #[command(after_help = exits::GAMES)]
    Sweep(sweep::SweepArgs),
    /// Merge the partial reports that `simulate`, `compare`, `ladder` or `sweep`
    /// wrote with --shard K/N into the report of the run with no shards,
    /// byte for byte.
    ///
    /// Refuses (exit 2) parts of different runs, a shard missing or given
    /// twice, and a file that is no partial report. docs/scale-out.md has
    /// recipes for GNU parallel, Slurm and Kubernetes.
    #[command(after_help = exits::MERGE)]
    Merge(merge::MergeArgs),
    /// Judge every decision of a recorded match with the search bot: the
    /// decision taken, the bot's best from what that player knew, the
    /// expected final score of each and the points lost; then each player's
    /// costliest decisions.
    ///
    /// Each decision is searched 3 times on independent seeds with N
    /// rollouts (--bot search:N); in Summertime, a decision of at most 16
    /// legal choices is not searched: every choice is measured. The
    /// decision taken and every pick are then measured on 4 × N fresh
    /// rollouts, the same futures for each, and the pick that measured
    /// best is the bot's: the points lost are its value minus the taken
    /// one's, rollout by rollout, with a 95% interval. A decision is costly
    /// when that interval leaves out 0, and says in how many of the 3
    /// searches it was beaten beyond the noise. A decision that no search's
    /// pick measured better than reads "no better decision found in 3
    /// searches at search:N": a better one that no search picked is beyond
    /// the measure.
    #[command(after_help = exits::JUDGE)]
    Analyse(analyse::AnalyseArgs),
    /// The search bot's best decision for whoever must decide now, as a
    /// command to paste and as an entry for `sunfold append`.
    #[command(after_help = exits::JUDGE)]
    Hint(analyse::HintArgs),
    /// Audit every log under the given files and folders, in parallel.
    ///
    /// Prints one line per bad file with its first located error, then a
    /// summary; --format json prints one JSON object per file (JSON lines).
    /// An event log (first line "created") is audited as one: its seq, its
    /// hash chain, and every entry legal in the event as the lines before it
    /// leave it.
    #[command(after_help = exits::AUDIT)]
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
    /// Serve a match to the table: each player records their own decisions
    /// from their phone, the referee rolls and undoes, all through the same
    /// engine, lock and fsync as the recording commands.
    ///
    /// Prints one join link per player and one for the referee; each carries
    /// its own secret token. Listens on loopback unless --listen says
    /// otherwise. Ctrl-C stops it; the log is all the state it keeps.
    #[command(after_help = exits::SERVER)]
    Serve(serve::ServeArgs),
    /// Edit a sheet template or deck in the browser, with its print and
    /// its checks beside it: each edit saved and undoable.
    ///
    /// Prints the page's address, with its secret token, as the first line.
    #[command(after_help = exits::SERVER)]
    Studio(studio::StudioArgs),
    /// Run an event of many tables: seat rounds, attach audited table
    /// logs as results, and print the standings.
    #[command(subcommand)]
    Event(event::EventCommand),
    /// Rate each player across events, from their ranks at every table
    /// (Weng-Lin, as OpenSkill): mu, its uncertainty sigma and mu - 3 sigma.
    ///
    /// The event logs are rated in the order given. A player is the same
    /// across events by an id given in the players files, else by name,
    /// with a warning.
    #[command(after_help = exits::RATING)]
    Rating(rating::RatingArgs),
    /// Print the JSON Schema of a file format or a JSON report (also in docs/schema/).
    Schema {
        #[arg(value_enum)]
        format: schema::SchemaArg,
    },
    /// Print a shell completion script: for bash, source it or copy it to
    /// /usr/share/bash-completion/completions/sunfold.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `sunfold man | man -l -`.
    Man {
        /// Write one page per command into this folder instead, such as
        /// /usr/local/share/man/man1.
        #[arg(long)]
        dir: Option<PathBuf>,
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
    #[command(after_help = exits::CHECK)]
    Check {
        /// The file, such as sheet-templates/62-soleils-d-ete.json or sheet-templates/summertime.json.
        file: PathBuf,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Write a deck's cards or a sheet's boxes as CSV, for a spreadsheet.
    ///
    /// One row per card or box and one column per field, with a header
    /// naming them (see docs/deck-template.md and docs/sheet-template.md).
    #[command(after_help = exits::EXPORT)]
    Export {
        /// The sheet template or deck.
        file: PathBuf,
        /// The CSV file to write; `-` for standard output.
        #[arg(long, value_name = "OUT")]
        csv: PathBuf,
        /// Between cells: `,`, `;` (what Excel expects where the decimal
        /// separator is a comma, as in French or German) or `tab`.
        #[arg(long, value_name = "CHAR", default_value = ",")]
        delimiter: crate::template::rows::Delimiter,
        /// Begin with a UTF-8 byte-order mark, without which Excel reads
        /// accented and Greek letters wrongly.
        #[arg(long)]
        bom: bool,
    },
    /// Replace a deck's cards or a sheet's boxes by the rows of a CSV file.
    ///
    /// The delimiter (comma, semicolon or tab) is read from the header
    /// line. FILE is written only if it then passes `template check`; else
    /// every problem is listed, with its line and column, and FILE is left
    /// as it was.
    #[command(after_help = exits::IMPORT)]
    Import {
        /// The CSV file, with a header row naming its columns.
        rows: PathBuf,
        /// The sheet template or deck whose cards or boxes it replaces.
        #[arg(long, value_name = "FILE")]
        into: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum NewCommand {
    /// A 62 Soleils log.
    #[command(after_help = exits::NEW)]
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
    #[command(after_help = exits::NEW)]
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
    #[command(after_help = exits::DRAW)]
    Sheet(render::SheetArgs),
    /// A scored replay: every sheet or the card grid as played, with scores
    /// and charts, at the end of the log or after event --at.
    #[command(after_help = exits::DRAW)]
    Replay(render::ReplayArgs),
    /// Summertime print-and-play cards: faces, mirrored backs for duplex
    /// printing, closing cards and tiles, with crop marks.
    #[command(after_help = exits::DRAW)]
    Cards(render::CardsArgs),
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Runs the command line and returns the process exit code. Every error
/// of every command is printed here, once.
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
    match run(cli.command) {
        Ok(exit) => exit.into(),
        Err(error) => {
            error.report();
            error.exit().into()
        }
    }
}

fn run(command: Command) -> Result<Exit, CliError> {
    match command {
        Command::Replay(args) => replay::run(&args.file, args.at, args.format),
        Command::Template(TemplateCommand::Check { file, format }) => {
            template::check(&file, format)
        }
        Command::Template(TemplateCommand::Export {
            file,
            csv,
            delimiter,
            bom,
        }) => template::export(
            &file,
            &csv,
            crate::template::rows::Layout { delimiter, bom },
        ),
        Command::Template(TemplateCommand::Import { rows, into }) => template::import(&rows, &into),
        Command::Schema { format } => schema::print(format),
        Command::Completions { shell } => completions(shell),
        Command::Man { dir } => man(dir),
        Command::New(new) => new_log(new),
        Command::Simulate(args) => simulate::simulate(args),
        Command::Compare(args) => simulate::compare(args),
        Command::Rescore(args) => rescore::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Analyse(args) => analyse::analyse(args),
        Command::Hint(args) => analyse::hint(args),
        Command::Audit {
            paths,
            format,
            jobs,
            strict_claims,
        } => audit::audit(&paths, format, jobs, strict_claims),
        Command::Record(verb) => record::record(verb),
        Command::Status { file, all, format } => record::status(&file, all, format),
        Command::Repair { file } => record::repair(&file),
        Command::Event(command) => event::run(command),
        Command::Rating(args) => rating::run(args),
        Command::Serve(args) => serve::run(&args),
        Command::Studio(args) => studio::run(&args),
        Command::Render(RenderCommand::Sheet(args)) => render::sheet(&args),
        Command::Render(RenderCommand::Replay(args)) => render::replay(&args),
        Command::Render(RenderCommand::Cards(args)) => render::cards(&args),
    }
}

/// `sunfold completions SHELL`: the completion script for that shell.
fn completions(shell: clap_complete::Shell) -> Result<Exit, CliError> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    clap_complete::generate(shell, &mut command, "sunfold", &mut std::io::stdout());
    Ok(Exit::Valid)
}

/// `sunfold man`: the manual page, in roff; with `--dir`, one page per
/// command (`sunfold.1`, `sunfold-replay.1`, …) written into that folder.
fn man(dir: Option<PathBuf>) -> Result<Exit, CliError> {
    use clap::CommandFactory;
    let command = Cli::command();
    match dir {
        Some(dir) => {
            write_man_pages(command, &dir)?;
            eprintln!("wrote the manual pages into {}", dir.display());
        }
        None => {
            let mut out = Vec::new();
            let stdout = std::path::Path::new("-");
            clap_mangen::Man::new(command)
                .render(&mut out)
                .map_err(|e| CliError::io(stdout, e))?;
            std::io::Write::write_all(&mut std::io::stdout(), &out)
                .map_err(|e| CliError::io(stdout, e))?;
        }
    }
    Ok(Exit::Valid)
}

/// One manual page per command into `dir`, as `clap_mangen::generate_to`
/// names them, each written whole or not at all.
fn write_man_pages(command: clap::Command, dir: &std::path::Path) -> Result<(), CliError> {
    fn pages(command: clap::Command, dir: &std::path::Path) -> Result<(), CliError> {
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            pages(sub.clone(), dir)?;
        }
        let man = clap_mangen::Man::new(command);
        let path = dir.join(man.get_filename());
        crate::kit::atomic::write_with(&path, |out| man.render(out))
            .map_err(|e| CliError::io(dir, e))
    }
    let mut command = command.disable_help_subcommand(true);
    command.build();
    pages(command, dir)
}

pub(super) fn read_json<T: serde::de::DeserializeOwned>(
    path: &std::path::Path,
) -> Result<T, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::Refused(format!(
            "{}: {}",
            path.display(),
            crate::kit::json_error::describe(&e)
        ))
    })
}

fn new_log(command: NewCommand) -> Result<Exit, CliError> {
    use crate::table::start::{self, Deal, seed_from_clock};
    match command {
        NewCommand::Soleils {
            file,
            players,
            template,
            options,
            dice_seed,
            force,
        } => {
            let variant = variant::soleils(template.as_deref(), &options)?;
            let seed = dice_seed.unwrap_or_else(seed_from_clock);
            let start = start::soleils(&players, variant, seed);
            record::create::<crate::soleils::Soleils>(&file, start, force)
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
            let variant = variant::summertime(deck.as_deref(), &[])?;
            let deal = if physical {
                Deal::physical(&closing).map_err(CliError::Usage)?
            } else if let Some(path) = deck_order {
                read_json::<start::Given>(&path)?.into()
            } else {
                Deal::Seeded(seed.unwrap_or_else(seed_from_clock))
            };
            let start = start::summertime(&players, first, variant, deal);
            record::create::<crate::summertime::Summertime>(&file, start, force)
        }
    }
}
