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
    #[command(flatten)]
    pub fonts: super::output::FontArgs,
    #[command(flatten)]
    pub edge: super::edge::EdgeArgs,
}

/// The players of the log at `path`, and its game, after checking that it
/// replays: the server starts only from a valid log.
fn check_log(path: &Path) -> Result<(GameKind, Vec<String>), CliError> {
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
    let players = match game {
        GameKind::Soleils => session
            .fold::<Soleils>()
            .map(|f| Soleils::player_names(f.state()))
            .map_err(|e| super::game::folding(path, Format::Text, e))?,
        GameKind::Summertime => session
            .fold::<Summertime>()
            .map(|f| Summertime::player_names(f.state()))
            .map_err(|e| super::game::folding(path, Format::Text, e))?,
    };
    Ok((game, players))
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
    let (game, players) = check_log(path)?;
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
        let (player_links, referee) = links::join_links(&base, &players, &tokens);
        if let Some(file) = &args.links {
            let per_page = usize::try_from(args.slips_per_page).unwrap_or(1);
            let slips = fonts.typeset(|fonts| {
                let drawn = links::scene(fonts, path, game, &base, &players, &tokens, per_page);
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
        let _ = std::io::Write::flush(&mut std::io::stdout());
        Ok::<_, CliError>(app_reporting(path.clone(), game, tokens, report))
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
        let app = room::app_with_fonts(event, game, tokens, base, fonts.clone(), report);
        Ok::<_, CliError>(app)
    })?;
    eprintln!(
        "stopped; {} and its tables' logs are all the state there is",
        event.display()
    );
    Ok(Exit::Valid)
}
