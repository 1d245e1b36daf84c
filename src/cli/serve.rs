//! `sunfold serve`: the live table. This file checks the log, starts the
//! runtime, binds the socket and prints the join links; the server itself
//! is [`crate::serve::app`].

use super::error::CliError;
use super::{Exit, Format};
use crate::log::{GameKind, LockError, Recorder};
use crate::serve::{app_reporting, links, tokens};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
#[command(group = clap::ArgGroup::new("pausing").args(["bot", "event"]).multiple(true))]
pub struct ServeArgs {
    /// The match log, started with `sunfold new`.
    #[arg(required_unless_present = "event")]
    pub file: Option<PathBuf>,
    /// Serve every table of an event's round on this one server instead,
    /// with the referee's board of every table and the standings: the
    /// event log, started with `sunfold event new`.
    #[arg(long, value_name = "EVENT", conflicts_with = "file")]
    pub event: Option<PathBuf>,
    /// Where to listen. The default, loopback, serves this machine only;
    /// the table's wifi needs 0.0.0.0:PORT (see docs/table.md for what
    /// that exposes). Port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8062")]
    pub listen: SocketAddr,
    /// Also write the join links as a printable page of QR codes: a .pdf
    /// or .svg file.
    #[arg(long, value_name = "FILE")]
    pub links: Option<PathBuf>,
    /// How many players' slips --links prints on one page, with cut marks
    /// between them; the referee's always stands on a page of its own.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=links::MAX_SLIPS_PER_PAGE as u64))]
    pub slips_per_page: u64,
    /// Replace every token with a new one, for when a link has leaked: the
    /// old links stop working, and the links files printed with them are
    /// removed (or rewritten, when --links names the same file).
    #[arg(long)]
    pub new_links: bool,
    /// Text for people, or the links as one JSON line for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The address the players' phones reach this server by, for the
    /// links: needed when it listens on 0.0.0.0 and this machine has no
    /// network address other than loopback, or behind a proxy.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Give the seat of player NAME to a bot (random, greedy, search or
    /// search:N): it gets no link, and the bot decides when the table waits
    /// for it, from what that seat may see. Repeat it for more seats. The
    /// server then also makes the table's events that the log decides (the
    /// log's digital dice, a dealt game's cards).
    #[arg(long, value_name = "NAME=BOT", conflicts_with = "event")]
    pub bot: Vec<String>,
    /// How long a bot, or the server making a table's event, waits before
    /// it acts, in milliseconds: a person sees what changed first. With
    /// --event, the pause of the bots `event seat --bot` seated.
    #[arg(long, value_name = "MS", default_value_t = 800, requires = "pausing")]
    pub bot_pause: u64,
    #[command(flatten)]
    pub fonts: super::output::FontArgs,
    #[command(flatten)]
    pub edge: super::edge::EdgeArgs,
}

/// The seats `--bot` gives to bots, checked against the log's players,
/// format and game.
fn bot_seats(
    args: &ServeArgs,
    path: &Path,
    players: &[String],
    format: u32,
    physical: bool,
) -> Result<Vec<(String, crate::bots::Bot)>, CliError> {
    let mut seats: Vec<(String, crate::bots::Bot)> = Vec::new();
    for given in &args.bot {
        let Some((name, bot)) = given.split_once('=') else {
            return Err(CliError::Usage(format!(
                "--bot: expected NAME=BOT, a player of the log and a bot (greedy, search:64), but found {given:?}"
            )));
        };
        let bot = crate::bots::Bot::parse(bot)
            .map_err(|e| CliError::Usage(format!("--bot {given}: {e}")))?;
        if !players.iter().any(|p| p == name) {
            return Err(CliError::Usage(format!(
                "--bot {given}: expected a player of {} ({}), but found {name:?}",
                path.display(),
                players.join(", ")
            )));
        }
        if seats.iter().any(|(seat, _)| seat == name) {
            return Err(CliError::Usage(format!(
                "--bot {given}: expected one bot for each seat, but {name}'s seat is given twice"
            )));
        }
        seats.push((name.to_owned(), bot));
    }
    if !seats.is_empty() && format < crate::log::BOT_AUTHORS {
        return Err(CliError::Usage(format!(
            "{}: expected a log of format {} or later for --bot, as only such a log names a bot as the author of its decisions, but found format {format}; start a new log with sunfold new",
            path.display(),
            crate::log::BOT_AUTHORS
        )));
    }
    if !seats.is_empty() && physical {
        return Err(CliError::Usage(format!(
            "{}: expected a dealt Summertime game for --bot, as a bot cannot hold cards dealt at the table, but found a physical one; start one with sunfold new summertime FILE --players … --seed N",
            path.display()
        )));
    }
    Ok(seats)
}

/// What the server needs to know of a log before it serves it.
struct Checked {
    game: GameKind,
    players: Vec<String>,
    format: u32,
    /// A Summertime game played with cards dealt at the table.
    physical: bool,
}

/// The players of the log at `path`, its game and format, after checking
/// that it replays: the server starts only from a valid log.
fn check_log(path: &Path) -> Result<Checked, CliError> {
    use crate::kit::game::Game;
    let mut recorder = Recorder::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => CliError::Usage(format!(
            "{}: expected a log to serve, but found no such file; start one first: sunfold new soleils {} --players Ann,Bob (or summertime)",
            path.display(),
            path.display()
        )),
        _ => CliError::io(path, e),
    })?;
    let session = recorder.lock().map_err(|error| match error {
        LockError::Io(e) => CliError::io(path, e),
        LockError::Open(error) => super::game::opening(path, Format::Text, error),
    })?;
    let game = session.game();
    let checked = match game {
        GameKind::Soleils => session
            .fold::<Soleils>()
            .map(|f| Checked {
                game,
                players: Soleils::player_names(f.state()),
                format: f.format(),
                physical: false,
            })
            .map_err(|e| super::game::folding(path, Format::Text, e))?,
        GameKind::Summertime => session
            .fold::<Summertime>()
            .map(|f| Checked {
                game,
                players: Summertime::player_names(f.state()),
                format: f.format(),
                physical: !f.state().is_dealt(),
            })
            .map_err(|e| super::game::folding(path, Format::Text, e))?,
    };
    Ok(checked)
}

/// Writes the join links' slips to `file`, readable by its owner alone
/// (it holds every token, as the tokens file does), and notes it in the
/// tokens file at `tokens_file`, so that new links can remove it.
fn write_links(
    scene: &crate::render::scene::Document,
    file: &Path,
    tokens: &mut tokens::Tokens,
    tokens_file: &Path,
) -> Result<(), CliError> {
    super::output::write(scene, &super::output::target(file)?)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600));
    }
    tokens
        .printed(tokens_file, file)
        .map_err(|e| CliError::io(tokens_file, e))
}

/// Takes off the table the links printed with old tokens, whose codes no
/// longer work, unless --links has just written over one.
fn remove_dead(args: &ServeArgs, dead: &[PathBuf]) {
    let rewritten = (args.links.as_deref()).and_then(|f| std::path::absolute(f).ok());
    for said in tokens::remove_dead(dead, rewritten.as_deref()) {
        eprintln!("{said}");
    }
}

/// The address of the links, once the server is bound to `bound`.
fn base(args: &ServeArgs, bound: SocketAddr) -> Result<String, CliError> {
    crate::serve::host::base_url(
        args.public_url.as_deref(),
        args.edge.tls_cert.is_some(),
        args.listen,
        bound,
    )
    .map_err(|e| CliError::Usage(e.to_string()))
}

pub fn run(args: &ServeArgs) -> Result<Exit, CliError> {
    let Some(path) = &args.file else {
        let event = args.event.as_ref().expect("clap asks for a log or --event");
        return room(args, event);
    };
    let Checked {
        game,
        players,
        format,
        physical,
    } = check_log(path)?;
    let seats = bot_seats(args, path, &players, format, physical)?;
    // A seat a bot plays has no link.
    let people: Vec<String> = (players.iter())
        .filter(|p| !seats.iter().any(|(seat, _)| seat == *p))
        .cloned()
        .collect();
    let bots = (!seats.is_empty()).then(|| {
        let pause = std::time::Duration::from_millis(args.bot_pause);
        std::sync::Arc::new(crate::serve::bot::Bots::new(seats, pause))
    });
    let pages = crate::serve::edge::Pages {
        seats: players.len() as u64,
        referees: 1,
        boards: 0,
    };
    let (tls, limits) = args.edge.edge(Some(&pages))?;
    let tokens_file = tokens::path_for(path);
    let (mut tokens, dead) = tokens::Tokens::load_or_create(&tokens_file, &players, args.new_links)
        .map_err(|e| CliError::io(&tokens_file, e))?;
    let fonts = args.fonts.source()?;
    let report = std::sync::Arc::new(|line: String| eprintln!("{line}"));
    // Ctrl-C stops taking requests and lets those under way finish; the
    // live streams never end by themselves, so after two seconds the
    // server stops without them. An append under way completes: the
    // runtime waits for its blocking task. What the edge drops (slow
    // clients, connections over the caps) is said on stderr.
    crate::serve::edge::run(args.listen, limits, tls, report.clone(), |bound| {
        let base = base(args, bound)?;
        let (player_links, referee) = links::join_links(&base, &people, &tokens);
        if let Some(file) = &args.links {
            let per_page = usize::try_from(args.slips_per_page).unwrap_or(1);
            let slips = fonts.typeset(|fonts| {
                let drawn = links::scene(fonts, path, game, &base, &people, &tokens, per_page);
                Ok::<_, CliError>(drawn)
            })?;
            write_links(&slips, file, &mut tokens, &tokens_file)?;
        }
        remove_dead(args, &dead);
        let json = args.format == Format::Json;
        print!(
            "{}",
            links::listing(json, path, &base, bound, &player_links, &referee)
        );
        if !json && let Some(bots) = &bots {
            for (name, bot) in &bots.seats {
                println!("  {name}: played by the bot {}, no link", bot.name());
            }
        }
        let _ = std::io::Write::flush(&mut std::io::stdout());
        Ok::<_, CliError>(app_reporting(path.clone(), game, tokens, report, bots))
    })?;
    eprintln!("stopped; {} is all the state there is", path.display());
    Ok(Exit::Valid)
}

/// The pages a room serves at once: a seat for each entrant (or each
/// player of the round seated last, if more) and a referee for each table
/// they fill (or the round's tables, if more); and the board.
fn room_pages(log: &crate::event::EventLog) -> crate::serve::edge::Pages {
    let state = &log.state;
    let size = u64::from(state.setup.table_size.max(1));
    let round = state.rounds.last();
    let seated = round.map_or(0, |r| r.tables.iter().map(|t| t.players.len() as u64).sum());
    let seats = (state.entrants.len() as u64).max(seated);
    let tables = round.map_or(0, |r| r.tables.len() as u64);
    crate::serve::edge::Pages {
        seats,
        referees: tables.max(seats.div_ceil(size)),
        boards: 1,
    }
}

/// `serve --event`: every table of the event's round on one server, with
/// the board at `/`.
fn room(args: &ServeArgs, event: &Path) -> Result<Exit, CliError> {
    use crate::serve::room;
    let log = crate::event::EventLog::open(event).map_err(|e| match e {
        crate::event::EventFileError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => {
            CliError::Usage(format!(
                "{}: expected an event log to serve, but found no such file; start one first: sunfold event new {} --game soleils --players-file players.txt",
                event.display(),
                event.display()
            ))
        }
        e => CliError::event_file(event, e),
    })?;
    let (tls, limits) = args.edge.edge(Some(&room_pages(&log)))?;
    let tokens_file = tokens::path_for(event);
    let (mut tokens, mut dead) = tokens::Tokens::load_or_create(&tokens_file, &[], args.new_links)
        .map_err(|e| CliError::io(&tokens_file, e))?;
    let round = log.state.seated();
    if args.new_links && round > 0 {
        // Every table of the round gets new tokens too.
        dead.extend(room::renew_tables(event, &log).map_err(|e| match e {
            room::RenewError::Round(e) => CliError::refused_at(event, e),
            room::RenewError::Io { path, error } => CliError::io(&path, error),
        })?);
    }
    let fonts = args.fonts.source()?;
    let report = std::sync::Arc::new(|line: String| eprintln!("{line}"));
    crate::serve::edge::run(args.listen, limits, tls, report.clone(), |bound| {
        let base = base(args, bound)?;
        let refused = |e: crate::serve::ApiError| CliError::Refused(e.into_text());
        let mut seats = Vec::new();
        if round > 0 {
            seats = room::board::seat_links(event, &base, None)
                .map_err(refused)?
                .1;
            if let Some(file) = &args.links {
                let per_page = usize::try_from(args.slips_per_page).unwrap_or(1);
                let slips = room::board::slips(&fonts, event, &base, &tokens, None, per_page)
                    .map_err(refused)?;
                write_links(&slips, file, &mut tokens, &tokens_file)?;
            }
        }
        remove_dead(args, &dead);
        let board = format!("{base}#token={}", tokens.referee);
        let json = args.format == Format::Json;
        print!(
            "{}",
            links::room_listing(json, event, bound, &board, round, &seats)
        );
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let game = log.state.setup.game;
        let event = event.to_owned();
        let hosting = room::Hosting {
            fonts: fonts.clone(),
            bot_pause: std::time::Duration::from_millis(args.bot_pause),
        };
        let app = room::app_with(event, game, tokens, base, hosting, report);
        Ok::<_, CliError>(app)
    })?;
    eprintln!(
        "stopped; {} and its tables' logs are all the state there is",
        event.display()
    );
    Ok(Exit::Valid)
}
