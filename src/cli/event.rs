//! `sunfold event`: an event of many tables. Each verb parses, calls one
//! function of [`crate::event`], and prints; the event log's path goes in
//! front of its located errors here.

use super::error::CliError;
use super::output::FontArgs;
use super::{Exit, Format, variant};
use crate::bots::Bot;
use crate::event::study::{Study, field_entry};
use crate::event::verify::verify;
use crate::event::{EventFileError, EventGame, EventLog, SeatBy, Seating, TieBreak};
use crate::event::{entry::Leftover, players::PlayersError, request, request::NewEvent};
use crate::event::{event_name, standings, state::TableRules, study_part::StudyPart};
use crate::workbench::partial::Shard;
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug)]
pub enum EventCommand {
    /// Start an event: its game, its rounds, its points, and its players
    /// from a file of one player a line (NAME, or NAME<TAB>ID).
    #[command(after_help = super::exits::EVENT)]
    New {
        /// The event log to write (a new file); each round's table logs go
        /// beside it, in FILE's name with .d.
        file: PathBuf,
        /// One player a line: NAME, or NAME<TAB>ID; blank lines and lines
        /// starting with '#' are skipped. At least two players. A player
        /// without an id gets p and the line's number; a name given before
        /// is renamed, with a warning (the second Ann is Ann (2)).
        #[arg(long, value_name = "FILE")]
        players_file: PathBuf,
        #[command(flatten)]
        format: EventFormat,
        /// The seed of the seating, the tables' dice or deals and the draw; from the clock if left out.
        #[arg(long)]
        seed: Option<u64>,
        /// Overwrite FILE if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Seat the next round and write each table's log, ready to record:
    /// new opponents (62 Soleils) or Swiss (Summertime), unless told
    /// otherwise.
    #[command(after_help = super::exits::EVENT)]
    Seat {
        file: PathBuf,
        /// Seat by standing, the leaders together ("power pods").
        #[arg(long, conflicts_with_all = ["tables", "bye", "final_"])]
        by_standing: bool,
        /// Seat by hand: tables split by ';', players by ',', by name or id,
        /// seat 1 first, e.g. 'Ann,Bob,Cid;Dee,Eve'. Every present player
        /// must be seated once, or given --bye.
        #[arg(long, conflicts_with = "final_")]
        tables: Option<String>,
        /// With --tables: the players who sit out with a bye, by name or id,
        /// split by ','.
        #[arg(long, requires = "tables", value_delimiter = ',')]
        bye: Vec<String>,
        /// Seat the first N of the standings at one table (a final); the
        /// other present players do not play the round and score nothing.
        #[arg(long = "final", id = "final_", value_name = "N")]
        final_: Option<usize>,
        /// A bot in the seat a bye would leave (Summertime, an odd count)
        /// and in each seat of a table short of the event's table size (62
        /// Soleils): random, greedy, search or search:N. It plays under a
        /// name such as "Bot (greedy)" and is never ranked.
        #[arg(long, value_name = "BOT", value_parser = super::batch::parse_bot, conflicts_with_all = ["tables", "final_"])]
        bot: Option<Bot>,
    },
    /// Print a round's tables and byes (the last seated if --round is left out).
    #[command(after_help = super::exits::EVENT)]
    Seating {
        file: PathBuf,
        #[arg(long)]
        round: Option<u32>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Attach a table's log as its result, after auditing it.
    #[command(after_help = super::exits::EVENT)]
    Result {
        file: PathBuf,
        #[arg(long)]
        table: u32,
        log: PathBuf,
        /// The round (the last seated if left out).
        #[arg(long)]
        round: Option<u32>,
        /// Replace a result already attached; needs --reason.
        #[arg(long, requires = "reason")]
        correct: bool,
        #[arg(long, requires = "correct")]
        reason: Option<String>,
    },
    /// Play the last round's open tables with a bot in every seat, and
    /// attach each result: a rehearsal. A table with an entry recorded at
    /// the table (by a recording command or the server) is refused.
    #[command(after_help = super::exits::EVENT)]
    Play {
        /// The event log.
        file: PathBuf,
        /// The bot in every seat: random, greedy, search or search:ROLLOUTS.
        #[arg(long, default_value = "greedy")]
        bot: Bot,
        /// Play only this table of the round.
        #[arg(long, value_name = "N")]
        table: Option<u32>,
        /// Play on after entries recorded at the table.
        #[arg(long)]
        force: bool,
    },
    /// The standings, with every tie-break, from the event log alone.
    ///
    /// Warns on standard error for each attached result whose table log has
    /// changed or is missing since (as event verify names them).
    #[command(after_help = super::exits::EVENT)]
    Standings {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also draw them to pin up: a .pdf or .svg file.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        fonts: FontArgs,
    },
    /// Print a round's papers in one document: the seating by table and by
    /// name, a slip for each table, and a result slip for each table.
    #[command(after_help = super::exits::DRAW)]
    Print {
        file: PathBuf,
        /// The round (the last seated if left out).
        #[arg(long)]
        round: Option<u32>,
        /// A .pdf or .svg file.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        fonts: FontArgs,
    },
    /// Check every attached result against its table's log, naming each
    /// log that differs or is missing.
    ///
    /// The SHA-256 each result holds, against the bytes of
    /// EVENT.d/round-N/table-T.jsonl as they are now. Exits 0 when all
    /// match, 1 when one does not.
    #[command(after_help = super::exits::EVENT)]
    Verify { file: PathBuf },
    /// Add a player: registered before the first round, arrived after it.
    #[command(after_help = super::exits::EVENT)]
    Arrive {
        file: PathBuf,
        name: String,
        #[arg(long)]
        id: Option<String>,
    },
    /// Drop a player from the next round on: by id, or by a name only
    /// they have.
    #[command(after_help = super::exits::EVENT)]
    Drop {
        /// The event log.
        file: PathBuf,
        /// The player's id, or their name.
        #[arg(value_name = "PLAYER")]
        id: String,
    },
    /// Close the event: nothing more is seated or attached.
    #[command(after_help = super::exits::EVENT)]
    Close { file: PathBuf },
    /// Play whole events in memory with a field of bots, seated, scored and
    /// tie-broken as a real event, to see how often the strongest bot's
    /// player finishes first in this format.
    #[command(after_help = super::exits::GAMES)]
    Simulate {
        #[command(flatten)]
        format_of: EventFormat,
        /// The field: each bot and how many players it plays, e.g.
        /// search:64=1,greedy=6,random=16.
        #[arg(long, value_delimiter = ',', required = true, value_parser = |t: &str| field_entry(t).map_err(|e| e.to_string()))]
        field: Vec<(Bot, u32)>,
        /// The number of players; when given, the field must add up to it.
        #[arg(long)]
        players: Option<u32>,
        /// How many whole events to play.
        #[arg(long, default_value_t = 100)]
        events: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads; every core if left out. The output is the same on any number.
        #[arg(long)]
        jobs: Option<usize>,
        /// Play only shard K of N of the events and print its part as JSON,
        /// for `sunfold merge`.
        #[arg(long, value_name = "K/N", value_parser = super::batch::parse_shard)]
        shard: Option<Shard>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// An event's game and format, as `event new` and `event simulate` take
/// them.
#[derive(clap::Args, Debug)]
pub struct EventFormat {
    /// The game every table plays: 62 Soleils in groups, or Summertime as
    /// a Swiss.
    #[arg(long, value_parser = ["soleils", "summertime"])]
    game: String,
    /// 62 Soleils: the size of a table (4 if left out), tables balanced within one seat.
    #[arg(long)]
    table_size: Option<u32>,
    /// 62 Soleils: the seats left over make tables one seat smaller, or larger.
    #[arg(long, value_parser = ["smaller", "larger"], default_value = "smaller")]
    leftover: String,
    /// 62 Soleils: the sheet template of every table; the bundled sheet if left out.
    #[arg(long, conflicts_with = "deck")]
    template: Option<PathBuf>,
    /// Summertime: the deck of every table; the bundled deck if left out.
    #[arg(long)]
    deck: Option<PathBuf>,
    /// 62 Soleils: a rule option of every table, such as sun_bonus=exact; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// The number of rounds. If left out: 3 for 62 Soleils; for a
    /// Summertime Swiss of N players, ⌈log2 N⌉ (4 for 9 players), the
    /// fewest that can leave one player alone on top.
    #[arg(long)]
    rounds: Option<u32>,
    /// The points of each rank, best first (6,5,3,1,0 or 1,0 if left out).
    #[arg(long, value_delimiter = ',')]
    points: Option<Vec<u32>>,
    /// The tie-breaks after the points, in order; the draw is added last
    /// when left out (score,buchholz,margin,draw if left out).
    #[arg(long, value_delimiter = ',', value_parser = ["score", "buchholz", "buchholz-cut1", "margin", "head-to-head", "draw"])]
    tie_breaks: Option<Vec<String>>,
}

impl EventFormat {
    /// The event's setup with `seed` (the parsers allow only known names),
    /// its sheet, options or deck read and checked.
    fn setup(self, seed: u64) -> Result<NewEvent, CliError> {
        let sheet = |t: PathBuf| variant::soleils(Some(&t), &[]).map(|v| v.raw.into());
        let deck_of = |d: PathBuf| variant::summertime(Some(&d), &[]).map(|v| v.raw.into());
        let given = |o: &[String]| variant::soleils_options(Default::default(), o);
        let options = self.options;
        Ok(NewEvent {
            game: EventGame::named(&self.game).unwrap_or(EventGame::Summertime),
            table_size: self.table_size,
            rounds: self.rounds,
            points: self.points,
            seed,
            tie_breaks: (self.tie_breaks)
                .map(|names| names.iter().filter_map(|n| TieBreak::named(n)).collect()),
            leftover: Leftover::named(&self.leftover).unwrap_or_default(),
            rules: TableRules {
                template: self.template.map(sheet).transpose()?,
                options: (!options.is_empty()).then(|| given(&options)).transpose()?,
                deck: self.deck.map(deck_of).transpose()?,
            },
        })
    }
}

/// Each line written to an event log carries the machine's time.
const CLOCK: &crate::table::SystemClock = &crate::table::SystemClock;

pub fn run(command: EventCommand) -> Result<Exit, CliError> {
    match command {
        EventCommand::New {
            file,
            players_file,
            format,
            seed,
            force,
        } => {
            let players = std::fs::read_to_string(&players_file)
                .map_err(|e| CliError::io(&players_file, e))?;
            let setup = format.setup(seed.unwrap_or_else(crate::table::start::seed_from_clock))?;
            let game = setup.game;
            let made = request::new_event(&file, setup, &players, force, CLOCK);
            let (log, renamed) = made.map_err(|e| match e {
                // A line's problem is located as a log's is: FILE:LINE: …
                EventFileError::Players(e @ (PlayersError::Empty | PlayersError::One)) => {
                    CliError::refused_at(&players_file, e)
                }
                EventFileError::Players(e) => {
                    CliError::located_at(&players_file, e.to_string(), Default::default())
                }
                EventFileError::Io(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    CliError::exists(&file)
                }
                e => CliError::event_file(&file, e),
            })?;
            for renamed in renamed {
                let at = players_file.display();
                eprintln!("sunfold: warning: {at}:{renamed}");
            }
            let (path, game, players) = (file.display(), game.name(), log.state.entrants.len());
            let players = crate::kit::words::plural(players as u64, "player", "players");
            println!("{path}: a {game} event of {players}");
        }
        EventCommand::Seat {
            file,
            by_standing,
            tables,
            bye,
            final_,
            bot,
        } => {
            let by = match (by_standing, tables, final_) {
                (_, Some(tables), _) => SeatBy::hand(&tables, bye)
                    .map_err(|e| CliError::Usage(format!("--tables: {e}")))?,
                (_, _, Some(n)) => SeatBy::Final(n),
                (true, _, _) => SeatBy::Standing,
                _ => SeatBy::Draw,
            };
            let round = request::seat_with(&file, &by, bot, CLOCK)
                .map_err(|e| CliError::event_file(&file, e))?;
            let log = EventLog::open(&file).map_err(|e| CliError::event_file(&file, e))?;
            let seating =
                Seating::of(&log.state, Some(round)).map_err(|e| CliError::refused_at(&file, e))?;
            print!("{}", seating.text());
        }
        EventCommand::Seating {
            file,
            round,
            format,
        } => {
            let log = EventLog::open(&file).map_err(|e| CliError::event_file(&file, e))?;
            let seating =
                Seating::of(&log.state, round).map_err(|e| CliError::refused_at(&file, e))?;
            match format {
                Format::Text => print!("{}", seating.text()),
                Format::Json => println!("{}", json(&seating)),
            }
        }
        EventCommand::Result {
            file,
            table,
            log,
            round,
            correct: _,
            reason,
        } => {
            let (result, copied) = request::attach_from(&file, round, table, &log, reason, CLOCK)
                .map_err(|e| CliError::event_file(&file, e))?;
            println!(
                "{}: round {} table {table}: {}",
                file.display(),
                result.round,
                result.ended
            );
            if let Some(copied) = copied {
                let (from, to) = (log.display(), copied.to.display());
                println!("{from} copied to {to}, where event verify and standings check it");
                if let Some(kept) = copied.kept {
                    println!("the log it held before is kept as {}", kept.display());
                }
            }
        }
        EventCommand::Play {
            file,
            bot,
            table,
            force,
        } => {
            let options = request::PlayOptions { table, force };
            let results = request::play(&file, bot, options, CLOCK)
                .map_err(|e| CliError::event_file(&file, e))?;
            for result in results {
                println!(
                    "round {} table {}: {}",
                    result.round, result.table, result.ended
                );
            }
        }
        EventCommand::Standings {
            file,
            format,
            output,
            fonts,
        } => {
            let log = EventLog::open(&file).map_err(|e| CliError::event_file(&file, e))?;
            let standings = standings(&log.state);
            // The standings come from the event log alone; a table's log
            // changed or gone since is said, not counted.
            for problem in verify(&file, &log.state).iter().filter_map(|c| c.problem()) {
                eprintln!(
                    "sunfold: warning: {problem}; the standings count the result as attached"
                );
            }
            if let Some(output) = output {
                let target = super::output::target(&output)?;
                let name = event_name(&file);
                let document = fonts.source()?.typeset(|fonts| {
                    let drawn = crate::handout::standings::standings(fonts, &standings, &name);
                    Ok::<_, CliError>(drawn)
                })?;
                return super::output::write(&document, &target);
            }
            match format {
                Format::Text => print!("{}", standings.text()),
                Format::Json => println!("{}", json(&standings)),
            }
        }
        EventCommand::Print {
            file,
            round,
            output,
            fonts,
        } => {
            let target = super::output::target(&output)?;
            let log = EventLog::open(&file).map_err(|e| CliError::event_file(&file, e))?;
            let name = event_name(&file);
            let document = fonts.source()?.typeset(|fonts| {
                crate::handout::round::round(fonts, &log.state, &name, round)
                    .map_err(|e| CliError::refused_at(&file, e))
            })?;
            return super::output::write(&document, &target);
        }
        EventCommand::Verify { file } => {
            let log = EventLog::open(&file).map_err(|e| CliError::event_file(&file, e))?;
            let checked = verify(&file, &log.state);
            let problems: Vec<String> = checked.iter().filter_map(|c| c.problem()).collect();
            for problem in &problems {
                println!("{problem}");
            }
            let (shown, count) = (file.display(), checked.len());
            let plural = if count == 1 { "" } else { "s" };
            if count == 0 {
                println!("{shown}: no result attached yet");
                return Ok(Exit::Valid);
            }
            if problems.is_empty() {
                println!(
                    "{shown}: {count} result{plural}, each true of its table's log (the same SHA-256)"
                );
                return Ok(Exit::Valid);
            }
            println!(
                "{shown}: {} of {count} result{plural} no longer true of their table's log",
                problems.len()
            );
            return Ok(Exit::Invalid);
        }
        EventCommand::Arrive { file, name, id } => {
            let player = request::arrive(&file, &name, id.as_deref(), CLOCK)
                .map_err(|e| CliError::event_file(&file, e))?;
            println!("{}: {} joins as {}", file.display(), player.name, player.id);
        }
        EventCommand::Drop { file, id } => {
            let player = request::drop_player(&file, &id, CLOCK)
                .map_err(|e| CliError::event_file(&file, e))?;
            let (path, name, id) = (file.display(), player.name, player.id);
            println!("{path}: {name} ({id}) dropped from the next round on");
        }
        EventCommand::Close { file } => {
            request::close(&file, CLOCK).map_err(|e| CliError::event_file(&file, e))?;
            println!("{}: closed", file.display());
        }
        EventCommand::Simulate {
            format_of,
            field,
            players,
            events,
            seed,
            jobs,
            shard,
            format,
        } => {
            let study = Study {
                setup: format_of.setup(seed)?,
                field,
            };
            return simulate(study, players, events, jobs, shard, format);
        }
    }
    Ok(Exit::Valid)
}

/// `sunfold event simulate`: the study checked, played and reported, or
/// one shard of it played and written as a part.
fn simulate(
    study: Study,
    players: Option<u32>,
    events: u64,
    jobs: Option<usize>,
    shard: Option<Shard>,
    format: Format,
) -> Result<Exit, CliError> {
    (study.check(players, events)).map_err(|e| CliError::Usage(e.to_string()))?;
    let pool = super::batch::pool(jobs)?;
    let refused = |e: crate::event::EventError| CliError::Refused(e.to_string());
    if let Some(shard) = shard {
        let part = pool.install(|| StudyPart::play(&study, events, shard));
        println!("{}", json(&part.map_err(refused)?));
        return Ok(Exit::Valid);
    }
    let tally = pool.install(|| study.tally(0..events)).map_err(refused)?;
    let report = study.report(&tally).map_err(refused)?;
    match format {
        Format::Text => print!("{}", report.text()),
        Format::Json => println!("{}", json(&report)),
    }
    Ok(Exit::Valid)
}

fn json<T: serde::Serialize>(report: &T) -> String {
    serde_json::to_string_pretty(report).expect("a report serializes")
}
