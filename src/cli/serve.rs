//! `sunfold serve`: the live table. This file checks the log, starts the
//! runtime, binds the socket and prints the join links; the server itself
//! is [`crate::serve::app`].

use super::error::CliError;
use super::{Exit, Format};
use crate::log::{GameKind, LockError, Recorder};
use crate::serve::{links, tokens};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The match log, started with `sunfold new`.
    pub file: PathBuf,
    /// Where to listen. The default, loopback, serves this machine only;
    /// the table's wifi needs 0.0.0.0:PORT (see docs/table.md for what
    /// that exposes). Port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8062")]
    pub listen: SocketAddr,
    /// Also write the join links as a printable page of QR codes: a .pdf
    /// or .svg file.
    #[arg(long, value_name = "FILE")]
    pub links: Option<PathBuf>,
    /// Replace every token with a new one, for when a link has leaked: the
    /// old links stop working.
    #[arg(long)]
    pub new_links: bool,
    /// Text for people, or the links as one JSON line for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The players of the log at `path`, and its game, after checking that it
/// replays: the server starts only from a valid log.
fn check_log(path: &Path) -> Result<(GameKind, Vec<String>), CliError> {
    use crate::game::Game;
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
        LockError::Open(error) => super::replay::opening(path, Format::Text, error),
    })?;
    let game = session.game();
    let players = match game {
        GameKind::Soleils => session
            .fold::<Soleils>()
            .map(|f| Soleils::player_names(f.state()))
            .map_err(|e| super::replay::folding(path, Format::Text, e))?,
        GameKind::Summertime => session
            .fold::<Summertime>()
            .map(|f| Summertime::player_names(f.state()))
            .map_err(|e| super::replay::folding(path, Format::Text, e))?,
    };
    Ok((game, players))
}

/// The address others reach a listener on `addr` by: itself, unless it
/// listens on every interface, then this machine's address on the network
/// (the one a packet to the internet would leave from).
fn reachable(addr: SocketAddr) -> SocketAddr {
    if !addr.ip().is_unspecified() {
        return addr;
    }
    let probe = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|_| s))
        .and_then(|s| s.local_addr());
    match probe {
        Ok(local) => SocketAddr::new(local.ip(), addr.port()),
        Err(_) => SocketAddr::new(IpAddr::from([127, 0, 0, 1]), addr.port()),
    }
}

pub fn run(args: &ServeArgs) -> Result<Exit, CliError> {
    let path = &args.file;
    let (game, players) = check_log(path)?;
    let tokens = tokens::Tokens::load_or_create(&tokens::path_for(path), &players, args.new_links)
        .map_err(|e| CliError::io(&tokens::path_for(path), e))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the server: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| CliError::Usage(format!("cannot listen on {}: {e}", args.listen)))?;
        let bound = listener
            .local_addr()
            .map_err(|e| CliError::Usage(format!("cannot listen on {}: {e}", args.listen)))?;
        let base = format!("http://{}/", reachable(bound));
        let link = |token: &str| format!("{base}#token={token}");
        let player_links: Vec<(String, String)> = players
            .iter()
            .map(|p| (p.clone(), link(&tokens.players[p])))
            .collect();
        let referee = link(&tokens.referee);
        if let Some(file) = &args.links {
            let scene = links::scene(path, &player_links, &referee);
            let target = super::render::target(file)?;
            super::render::write(&scene, &target)?;
            // It holds every token, as the tokens file does.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600));
            }
        }
        match args.format {
            Format::Json => {
                let players: serde_json::Map<String, serde_json::Value> = player_links
                    .iter()
                    .map(|(p, l)| (p.clone(), l.clone().into()))
                    .collect();
                println!(
                    "{}",
                    serde_json::json!({"listen": bound.to_string(), "players": players, "referee": referee})
                );
            }
            Format::Text => {
                println!(
                    "serving {} ({} players) on {base}; Ctrl-C stops",
                    path.display(),
                    players.len()
                );
                if bound.ip().is_unspecified() {
                    println!(
                        "listening on every interface: anyone on this network can load the page; only a link's token can record"
                    );
                }
                let width = players.iter().map(|p| p.chars().count()).max().unwrap_or(0).max(7);
                for (p, l) in &player_links {
                    println!("  {p:width$}  {l}");
                }
                println!("  {:width$}  {referee}", "referee");
            }
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let router = crate::serve::app(path.clone(), game, tokens);
        // Ctrl-C stops taking requests and lets those under way finish;
        // the live streams never end by themselves, so after two seconds
        // the server stops without them. An append under way completes:
        // the runtime waits for its blocking task.
        let (stop, mut stopping) = tokio::sync::watch::channel(false);
        let server = axum::serve(listener, router).with_graceful_shutdown(async move {
            let _ = tokio::signal::ctrl_c().await;
            let _ = stop.send(true);
        });
        tokio::select! {
            served = server => {
                served.map_err(|e| CliError::Usage(format!("the server stopped: {e}")))?;
            }
            _ = async {
                let _ = stopping.wait_for(|stopped| *stopped).await;
                tokio::time::sleep(std::time::Duration::from_secs(2)).await;
            } => {}
        }
        eprintln!("stopped; {} is all the state there is", path.display());
        Ok(Exit::Valid)
    })
}
