//! The HTTP edge of the live table: [`app`] builds the router through which
//! every player records their own decisions from their phone, validated by
//! the same engine, lock and fsync as the recording commands (through
//! [`crate::table`]). The log stays the single source of truth: the server
//! keeps nothing else that matters, so it can be killed and started again
//! at any time.
//!
//! - `http.rs`: the routes, the bearer token, and the live stream;
//! - `page.rs`: what each page shows and offers, by seat;
//! - `kept.rs`: each table log's fold, kept between requests and folded
//!   again only when the log's bytes changed; the log's lock is held only to
//!   read or append it;
//! - [`bot`]: the seats a bot plays, and the dealer of the table's own
//!   events where the log decides them;
//! - `drawn.rs`: the drawings of a table's panels, made once for what each
//!   shows and kept for every page that shows it, served by their hash;
//! - `pool.rs`: the bounded pool that every piece of blocking work takes a
//!   place in before it starts;
//! - `review.rs`: "Review my game", a player's costliest decisions once
//!   the game has ended, judged as `sunfold analyse` judges them, one at a
//!   time, and kept by the log's hash;
//! - [`ApiError`]: every refusal, as a status and a JSON body (in `error.rs`);
//! - [`tokens`]: the join links' secrets; [`links`]: their printable page and
//!   their listing; [`join`]: the way in by a slip's short code, typed at
//!   `/join`, with its limit on wrong tries;
//! - [`edge`]: starting, accepting connections within time limits and caps,
//!   TLS, and what every answer carries (headers, CSP, the bearer token);
//! - [`host`]: the address phones reach a listener by, and the file limit;
//! - [`room`]: every table of an event on one server, with the referee's
//!   board.
//!
//! The studio ([`crate::studio`]) runs on the same edge.
//!
//! Checking the log and printing the links belong to the command line
//! (`src/cli/serve.rs`); it starts the server with [`edge::run`], which
//! binds the socket and serves it with [`edge::serve`].

pub mod bot;
mod drawn;
pub mod edge;
mod error;
pub mod host;
mod http;
pub mod join;
mod kept;
pub mod links;
mod page;
mod pool;
mod review;
pub mod room;
pub mod tokens;

pub use error::ApiError;
pub use http::{BODY_LIMIT, Closed};
use kept::Kept;
pub use page::{InRoom, PageView};
pub use review::{Review, Reviewed};
pub use tokens::{Role, Tokens};

use crate::log::GameKind;
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::table::{Clock, SystemClock};
use std::path::PathBuf;
use std::sync::Arc;

/// The router of the table whose log, a `game` log, is at `path`: the page,
/// `/api/state`, `/api/view`, `/api/events`, the live `/api/stream`, the
/// drawings by hash (`/api/panels/HASH/LAYOUT`), and `/join`, where a
/// slip's short code is typed.
///
/// It also starts watching the file for entries recorded by other programs
/// (`sunfold place` beside the server), so it must be called inside a tokio
/// runtime.
pub fn app(path: PathBuf, game: GameKind, tokens: Tokens) -> axum::Router {
    app_with_clock(path, game, tokens, Arc::new(SystemClock))
}

/// [`app`], with what `/join` refuses told to `report`, and the seats
/// `bots` names played by their bots, the table's own events then made by
/// the server where the log decides them (see [`bot`]).
pub fn app_reporting(
    path: PathBuf,
    game: GameKind,
    tokens: Tokens,
    report: Arc<dyn Fn(String) + Send + Sync>,
    bots: Option<Arc<bot::Bots>>,
) -> axum::Router {
    let join = join::Join::new(report);
    app_with(path, game, tokens, Arc::new(SystemClock), join, bots)
}

/// [`app`], with the times of the entries posted read from `clock`.
pub fn app_with_clock(
    path: PathBuf,
    game: GameKind,
    tokens: Tokens,
    clock: Arc<dyn Clock>,
) -> axum::Router {
    let join = join::Join::new(Arc::new(|_| {}));
    app_with(path, game, tokens, clock, join, None)
}

/// [`app`], with the times of the entries posted read from `clock`, the
/// tries at `/join` counted and told by `join` (which servers may share,
/// so that one count holds across them), and the seats `bots` names
/// played by their bots.
pub fn app_with(
    path: PathBuf,
    game: GameKind,
    tokens: Tokens,
    clock: Arc<dyn Clock>,
    join: join::Join,
    bots: Option<Arc<bot::Bots>>,
) -> axum::Router {
    let kept = Kept::new();
    app_kept(path, game, tokens, clock, join, None, None, kept, bots)
}

/// [`app_with`], asking `closed` under the log's lock, before each entry
/// is appended, why the table takes no more entries, if it does not; its
/// pages name `room`, the event, round and table it is, if a room serves
/// it; its log's fold kept in `kept`, which a room shares with its board;
/// the seats `bots` names played by their bots.
#[allow(clippy::too_many_arguments)]
pub(crate) fn app_kept(
    path: PathBuf,
    game: GameKind,
    tokens: Tokens,
    clock: Arc<dyn Clock>,
    join: join::Join,
    closed: Option<Closed>,
    room: Option<InRoom>,
    kept: Arc<Kept>,
    bots: Option<Arc<bot::Bots>>,
) -> axum::Router {
    let (appended, _) = tokio::sync::broadcast::channel(256);
    let shared = Arc::new(http::Shared {
        path,
        tokens,
        appended,
        clock,
        seen: 0.into(),
        join,
        closed,
        room,
        kept,
        drawings: Default::default(),
        bots,
    });
    match game {
        GameKind::Soleils => {
            http::watch::<Soleils>(shared.clone());
            bot::spawn::<Soleils>(shared.clone());
            http::router::<Soleils>(shared)
        }
        GameKind::Summertime => {
            http::watch::<Summertime>(shared.clone());
            bot::spawn::<Summertime>(shared.clone());
            http::router::<Summertime>(shared)
        }
    }
}
