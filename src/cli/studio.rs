//! `sunfold studio`: a sheet template or deck edited in the browser. This
//! file opens or creates the file, binds the socket and prints the
//! address; the studio itself is [`crate::studio`].

use super::Exit;
use super::batch::GameArg;
use super::error::CliError;
use crate::log::GameKind;
use crate::studio::{Access, Start, Studio, StudioError};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct StudioArgs {
    /// The sheet template or deck to edit; its edits are logged beside it
    /// in FILE.edits.jsonl.
    pub file: PathBuf,
    /// Create FILE as a copy of this template or deck, such as
    /// sheet-templates/petit-ete.json.
    #[arg(long, value_name = "TEMPLATE", conflicts_with = "new")]
    pub from: Option<PathBuf>,
    /// Create FILE blank, for this game.
    #[arg(long, value_enum, value_name = "GAME")]
    pub new: Option<GameArg>,
    /// Where to listen. The default, loopback, serves this machine only.
    /// Port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:8063")]
    pub listen: SocketAddr,
    #[command(flatten)]
    pub edge: super::edge::EdgeArgs,
}

pub fn run(args: &StudioArgs) -> Result<Exit, CliError> {
    let start = match (&args.from, args.new) {
        (Some(template), _) => Start::From(template.clone()),
        (None, Some(GameArg::Soleils)) => Start::New(GameKind::Soleils),
        (None, Some(GameArg::Summertime)) => Start::New(GameKind::Summertime),
        (None, None) => Start::Open,
    };
    let (studio, opening) = Studio::open(&args.file, &start).map_err(|e| match e {
        StudioError::Invalid { path, problems } => CliError::Problems { path, problems },
        e @ StudioError::Busy { .. } => CliError::Refused(e.to_string()),
        e => CliError::Usage(e.to_string()),
    })?;
    let token = crate::serve::tokens::token().map_err(|e| CliError::io(&args.file, e))?;
    let report: std::sync::Arc<dyn Fn(String) + Send + Sync> =
        std::sync::Arc::new(|line: String| eprintln!("{line}"));
    let (tls, limits) = args.edge.edge(None)?;
    let scheme = if tls.is_some() { "https" } else { "http" };
    let told = report.clone();
    crate::serve::edge::run(args.listen, limits, tls, report, |listen| {
        let mut studio = studio;
        // A second studio on the same file names this one's address
        // (without its token).
        studio
            .announce(&format!("{scheme}://{listen}/"))
            .map_err(|e| CliError::Usage(e.to_string()))?;
        // The address first, alone on its line, for people and scripts.
        println!("{scheme}://{listen}/?token={token}");
        let (file, edits) = (args.file.display(), studio.edit_log().display());
        println!("editing {file}; edits logged in {edits} ({opening})");
        println!("Ctrl-C stops; every edit is saved as it is made");
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let access = Access { listen, token };
        Ok::<_, CliError>(crate::studio::app_reporting(studio, access, told))
    })?;
    Ok(Exit::Valid)
}
