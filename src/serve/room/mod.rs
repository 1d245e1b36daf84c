//! The room: every table of an event on one server. The board (`/`) shows
//! the referee every table of the round, who is waiting for whom, the
//! results and the standings, and seats the next round; each table is the
//! live table of [`super::app`] under `/r/ROUND/t/TABLE`, with its own
//! log, tokens, clock and hash chain. When a table's game ends, its
//! audited result goes into the event by itself ([`attach`]).
//!
//! A slip's short code, typed at the room's `/join`, leads to the board or
//! to a seat of the round seated last ([`super::join`]).
//!
//! Its files: [`board`] (what the board shows, as JSON), [`attach`] (the
//! results taken from finished tables), `event_fold` (the event log's
//! fold, kept between requests), `page.html`, `page.js` and `page.css`
//! (the board's page).

pub mod attach;
pub mod board;
mod event_fold;

use super::ApiError;
use super::tokens::{Role, Tokens};
use crate::event::{EventGame, EventLog, table_path};
use crate::log::GameKind;
use crate::render::text::installed::FontSource;
use crate::table::{Clock, SystemClock};
use axum::Router;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

/// Why the tables' tokens could not be renewed.
pub enum RenewError {
    /// The event's round cannot be read.
    Round(crate::event::EventError),
    /// A table's tokens file cannot be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// New tokens for every table of the event's seated round, when the
/// board's own are renewed: the links files printed with the old ones,
/// which no longer work.
pub fn renew_tables(event: &Path, log: &EventLog) -> Result<Vec<PathBuf>, RenewError> {
    let round = log.state.seated();
    let seated = log.state.round(round).map_err(RenewError::Round)?;
    let mut dead = Vec::new();
    for at in &seated.tables {
        let path = table_path(event, round, at.table);
        let names: Vec<String> = (at.players.iter())
            .map(|id| log.state.name(id).to_owned())
            .collect();
        let file = super::tokens::path_for(&path);
        let (_, old) = Tokens::load_or_create(&file, &names, true)
            .map_err(|error| RenewError::Io { path: file, error })?;
        dead.extend(old);
    }
    Ok(dead)
}

/// What every request of the room shares.
pub struct Room {
    /// The event log.
    pub event: PathBuf,
    /// The event log's fold, folded again only when the log changed.
    fold: Arc<event_fold::EventFold>,
    pub game: EventGame,
    /// The board's token: the referee of the room.
    pub tokens: Tokens,
    /// The address the players reach the server by, for printed links.
    pub base: String,
    clock: Arc<dyn Clock>,
    /// The router of each table hosted so far, by round and table.
    tables: tokio::sync::Mutex<HashMap<(u32, u32), Router>>,
    /// Why a finished table's result could not be attached, by round and
    /// table, for the board.
    pub problems: Mutex<HashMap<(u32, u32), String>>,
    /// Says what the room did by itself (a result attached or refused).
    report: Arc<dyn Fn(String) + Send + Sync>,
    /// The way in by a short code, one count of tries for the room and
    /// every table in it.
    join: super::join::Join,
    /// The folds of the tables' logs, for their pages and the board.
    kept: Arc<super::Kept>,
    /// The boards answered lately, for a poll that asks what changed.
    answered: board::Answered,
    /// The fonts of the join slips (the built-in ones and `--font`'s, then
    /// the machine's installed fonts) and the bots' pause.
    pub hosting: Hosting,
}

/// The path of table `table` of round `round` in the room.
pub fn table_route(round: u32, table: u32) -> String {
    format!("/r/{round}/t/{table}")
}

/// The game of an event's tables, as a match log names it.
pub fn game_kind(game: EventGame) -> GameKind {
    match game {
        EventGame::Soleils => GameKind::Soleils,
        EventGame::Summertime => GameKind::Summertime,
    }
}

/// The tokens of table `table` of round `round`: those of its log's tokens
/// file, made the first time; with the log's path and its players.
pub fn table_tokens(
    event: &Path,
    state: &crate::event::EventState,
    round: u32,
    table: u32,
) -> Result<(PathBuf, Vec<String>, Tokens), ApiError> {
    let seated = state.round(round).map_err(|e| not_found(e.to_string()))?;
    let Some(at) = seated.tables.iter().find(|t| t.table == table) else {
        return Err(not_found(format!(
            "expected a table from 1 to {} of round {round}, but found table {table}",
            seated.tables.len()
        )));
    };
    let path = table_path(event, round, table);
    let players = names_at(state, at);
    let file = super::tokens::path_for(&path);
    let (tokens, _) = Tokens::load_or_create(&file, &players, false)
        .map_err(|e| ApiError::Internal(format!("{}: {e}", file.display())))?;
    Ok((path, players, tokens))
}

/// The names of the players seated at `at`, seat 1 first.
fn names_at(
    state: &crate::event::EventState,
    at: &crate::event::entry::SeatedTable,
) -> Vec<String> {
    (at.players.iter())
        .map(|id| state.name(id).to_owned())
        .collect()
}

/// The event log at `event`, or why it cannot be read, with its path in
/// front and, for a torn last line, how to repair it.
pub fn open_event(event: &Path) -> Result<EventLog, ApiError> {
    EventLog::open(event).map_err(|error| open_event_error(event, error))
}

/// Why the event log at `event` cannot be read, as [`open_event`] says it.
fn open_event_error(event: &Path, error: crate::event::EventFileError) -> ApiError {
    let shown = event.display();
    let torn = matches!(
        &error,
        crate::event::EventFileError::Decode(located)
            if matches!(located.error, crate::log::DecodeError::TornLine { .. })
    );
    let advice = if torn {
        format!("; a crash cut the last write short: sunfold repair {shown} removes it")
    } else {
        String::new()
    };
    ApiError::Internal(match error {
        crate::event::EventFileError::Decode(_) | crate::event::EventFileError::Rule(_) => {
            format!("{shown}:{error}{advice}")
        }
        error => format!("{shown}: {error}"),
    })
}

fn not_found(error: String) -> ApiError {
    ApiError::Other(StatusCode::NOT_FOUND, error)
}

/// The room of the event at `event`, whose board answers to `tokens`'
/// referee token; `base` is the address for printed links, and `report`
/// says what the room does by itself. It starts attaching the results of
/// finished tables, so it must be called inside a tokio runtime.
pub fn app(
    event: PathBuf,
    game: EventGame,
    tokens: Tokens,
    base: String,
    report: Arc<dyn Fn(String) + Send + Sync>,
) -> Router {
    app_with_clock(event, game, tokens, base, report, Arc::new(SystemClock))
}

/// [`app`], with the times of the entries posted read from `clock`.
pub fn app_with_clock(
    event: PathBuf,
    game: EventGame,
    tokens: Tokens,
    base: String,
    report: Arc<dyn Fn(String) + Send + Sync>,
    clock: Arc<dyn Clock>,
) -> Router {
    opened(Room::unshared(event, game, tokens, base, report, clock))
}

/// How a room serves, beyond its event: what `serve --event` is told.
pub struct Hosting {
    /// The fonts the join slips are laid out in.
    pub fonts: FontSource,
    /// How long a bot seated by `event seat --bot` waits before it acts.
    pub bot_pause: Duration,
}

impl Default for Hosting {
    fn default() -> Self {
        Hosting {
            fonts: FontSource::builtin(),
            bot_pause: crate::serve::bot::PAUSE,
        }
    }
}

/// [`app`], served as `hosting` says.
pub fn app_with(
    event: PathBuf,
    game: EventGame,
    tokens: Tokens,
    base: String,
    hosting: Hosting,
    report: Arc<dyn Fn(String) + Send + Sync>,
) -> Router {
    let mut room = Room::unshared(event, game, tokens, base, report, Arc::new(SystemClock));
    room.hosting = hosting;
    opened(room)
}

/// The routes of `room`, which attaches its tables' results by itself.
fn opened(room: Room) -> Router {
    let room = Arc::new(room);
    attach::watch(room.clone());
    router(room)
}

impl Room {
    /// The room of the event at `event`, as [`app_with_clock`] takes it,
    /// before anything looks at its tables.
    pub fn new(
        event: PathBuf,
        game: EventGame,
        tokens: Tokens,
        base: String,
        report: Arc<dyn Fn(String) + Send + Sync>,
        clock: Arc<dyn Clock>,
    ) -> Arc<Room> {
        Arc::new(Room::unshared(event, game, tokens, base, report, clock))
    }

    /// [`Room::new`], not yet shared, its slips in the built-in fonts.
    fn unshared(
        event: PathBuf,
        game: EventGame,
        tokens: Tokens,
        base: String,
        report: Arc<dyn Fn(String) + Send + Sync>,
        clock: Arc<dyn Clock>,
    ) -> Room {
        Room {
            fold: Arc::new(event_fold::EventFold::new(event.clone())),
            event,
            game,
            tokens,
            base,
            clock,
            tables: Default::default(),
            problems: Default::default(),
            join: super::join::Join::new(report.clone()),
            report,
            kept: super::Kept::new(),
            answered: Default::default(),
            hosting: Hosting::default(),
        }
    }
}

/// The room's routes alone: nothing attaches its tables' results by
/// itself until [`attach::watch`] (or [`attach::look`], once) does.
pub fn router(room: Arc<Room>) -> Router {
    let page = Arc::new(super::edge::Page::inline(PAGE, SCRIPT, STYLE));
    let router = Router::new()
        .route("/", get(move || async move { page.answer() }))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/room", get(board))
        .route("/api/seat", post(seat))
        .route("/api/slips.pdf", get(slips))
        .route("/join", get(|| async { super::join::page() }).post(join))
        .layer(axum::extract::DefaultBodyLimit::max(super::BODY_LIMIT))
        .layer(axum::middleware::map_response(super::edge::secure))
        .with_state(room.clone());
    router.fallback(move |request: Request| forward(room.clone(), request))
}

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// The board's token holder, or why not.
fn referee(room: &Room, headers: &HeaderMap) -> Result<(), ApiError> {
    match super::edge::bearer(headers) {
        None => Err(ApiError::Unauthorized(
            "expected the header Authorization: Bearer TOKEN, with the token of the room's link, but found none".to_owned(),
        )),
        Some(token) => match room.tokens.role(token) {
            Some(Role::Referee) => Ok(()),
            _ => Err(ApiError::Unauthorized(
                "expected the token of the room's link, but found one this room does not know"
                    .to_owned(),
            )),
        },
    }
}

/// Runs `work` off the async threads, on the bounded blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    super::pool::blocking(work).await
}

/// `GET /api/room`: the board, with its `ETag`; `304 Not Modified`, with
/// no body, when the request's `If-None-Match` (or `?since=TAG`) names the
/// board as it stands; with `?since=TAG`, only what changed since.
async fn board(
    State(room): State<Arc<Room>>,
    query: crate::serve::edge::Asked,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    referee(&room, &headers)?;
    let [since] = crate::serve::edge::query(query, ["since"], "no query or ?since=TAG")?;
    let shown = room.clone();
    let board = blocking(move || board::of(&shown)).await?;
    Ok(board::Tagged::new(&board)?.answer(&headers, since.as_deref(), &room.answered))
}

/// `POST /api/seat`: seats the next round and writes its tables' logs.
async fn seat(State(room): State<Arc<Room>>, headers: HeaderMap) -> Result<Response, ApiError> {
    referee(&room, &headers)?;
    let shared = room.clone();
    let round = blocking(move || {
        let clock = &*shared.clock;
        crate::event::request::seat(&shared.event, &crate::event::SeatBy::Draw, clock).map_err(
            |e| match e {
                crate::event::EventFileError::Refused(e) => ApiError::Refused {
                    status: StatusCode::CONFLICT,
                    error: e.to_string(),
                    commands: Vec::new(),
                    alternatives: serde_json::Value::Array(Vec::new()),
                },
                e => ApiError::Internal(e.to_string()),
            },
        )
    })
    .await?;
    (room.report)(format!("round {round} seated from the board"));
    Ok(axum::Json(serde_json::json!({ "round": round })).into_response())
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct SlipsQuery {
    round: Option<u32>,
}

/// `GET /api/slips.pdf?round=N`: the join slips of a round's players, a
/// PDF to print (the last round seated if no round is given).
async fn slips(
    State(room): State<Arc<Room>>,
    headers: HeaderMap,
    Query(query): Query<SlipsQuery>,
) -> Result<Response, ApiError> {
    referee(&room, &headers)?;
    let shown = room.clone();
    let bytes = blocking(move || {
        let (event, base, tokens) = (&shown.event, &shown.base, &shown.tokens);
        let slips = board::slips(&shown.hosting.fonts, event, base, tokens, query.round, 4)?;
        crate::render::pdf::to_pdf(&slips).map_err(|e| match e {
            // A name no font has a glyph for is the organiser's to fix.
            crate::render::pdf::PdfError::Missing(e) => ApiError::Other(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("the join slips cannot print: {}", e.advice()),
            ),
            e => ApiError::Internal(e.to_string()),
        })
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"slips.pdf\"",
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `POST /join`: a slip's short code, typed, for the link of its token:
/// the board's, or a seat's at a table of the round seated last.
async fn join(
    State(room): State<Arc<Room>>,
    extensions: axum::http::Extensions,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let peer = super::join::peer(&extensions);
    let shown = room.clone();
    let find = |code: String| async move { blocking(move || find(&shown, &code)).await };
    super::join::answer(&room.join, peer, body, find).await
}

/// Where the short code `code` leads, relative to `/join`: the board, or
/// a seat at a table of the round seated last.
fn find(room: &Room, code: &str) -> Result<Option<String>, ApiError> {
    if let Some(token) = room.tokens.by_code(code) {
        return Ok(Some(format!("./#token={token}")));
    }
    let log = room.fold.read()?;
    let round = log.state.seated();
    if round == 0 {
        return Ok(None);
    }
    let seated = (log.state.round(round)).map_err(|e| ApiError::Internal(e.to_string()))?;
    for at in &seated.tables {
        // Read only: a code typed by anyone, right or wrong, makes and
        // changes no tokens file.
        let players = names_at(&log.state, at);
        let file = super::tokens::path_for(&table_path(&room.event, round, at.table));
        let Some(tokens) = Tokens::read(&file, &players) else {
            continue;
        };
        if let Some(token) = tokens.by_code(code) {
            let route = table_route(round, at.table);
            return Ok(Some(format!(".{route}/#token={token}")));
        }
    }
    Ok(None)
}

/// `/r/ROUND/t/TABLE…`: the request, its path made the table's own, to
/// that table's live table.
async fn forward(room: Arc<Room>, mut request: Request) -> Response {
    let Some((round, table, rest)) = split(request.uri().path()) else {
        return not_found(format!(
            "expected / or a table's path /r/ROUND/t/TABLE, but found {}",
            request.uri().path()
        ))
        .into_response();
    };
    let router = match hosted(&room, round, table).await {
        Ok(router) => router,
        Err(e) => return e.into_response(),
    };
    let path = match request.uri().query() {
        Some(query) => format!("{rest}?{query}"),
        None => rest,
    };
    if let Ok(uri) = path.parse::<Uri>() {
        *request.uri_mut() = uri;
    }
    match router.oneshot(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

/// The round, the table and the rest of a path `/r/ROUND/t/TABLE[/REST]`
/// (the rest `/` when there is none).
fn split(path: &str) -> Option<(u32, u32, String)> {
    let rest = path.strip_prefix("/r/")?;
    let (round, rest) = rest.split_once("/t/")?;
    let (table, rest) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, "/"),
    };
    let number = |s: &str| {
        s.parse::<u32>()
            .ok()
            .filter(|n| *n > 0 && !s.starts_with('0'))
    };
    Some((number(round)?, number(table)?, rest.to_owned()))
}

/// The router of table `table` of round `round`, made the first time it
/// is asked for.
async fn hosted(room: &Arc<Room>, round: u32, table: u32) -> Result<Router, ApiError> {
    let mut tables = room.tables.lock().await;
    if let Some(router) = tables.get(&(round, table)) {
        return Ok(router.clone());
    }
    let (event, fold) = (room.event.clone(), room.fold.clone());
    let (path, tokens, seats) = blocking(move || {
        let log = fold.read()?;
        let (path, _, tokens) = table_tokens(&event, &log.state, round, table)?;
        // The seats `event seat --bot` gave to bots: played by them here.
        let seats = (log.state.bots_at(round, table)).map_err(|e| not_found(e.to_string()))?;
        Ok((path, tokens, seats))
    })
    .await?;
    let bots = (!seats.is_empty())
        .then(|| Arc::new(crate::serve::bot::Bots::new(seats, room.hosting.bot_pause)));
    let (game, clock) = (game_kind(room.game), room.clock.clone());
    let closed = closed_once_attached(room.fold.clone(), round, table);
    let join = room.join.clone();
    let place = super::InRoom {
        event: crate::event::event_name(&room.event),
        round,
        table,
    };
    let router = super::app_kept(
        path,
        game,
        tokens,
        clock,
        join,
        Some(closed),
        Some(place),
        room.kept.clone(),
        bots,
    );
    tables.insert((round, table), router.clone());
    Ok(router)
}

/// Refuses every entry to table `table` of round `round` once the event
/// at `event` holds its result (attached by the room, or by `sunfold event
/// result`): the log must stay the one whose SHA-256 the result holds.
/// Asked under the table log's lock, while attaching takes a shared lock
/// on the log it reads until its result is written, so that no entry
/// slips in between.
fn closed_once_attached(fold: Arc<event_fold::EventFold>, round: u32, table: u32) -> super::Closed {
    Arc::new(move || {
        let log = fold.read()?;
        let attached =
            (log.state.round(round).ok()).is_some_and(|r| r.results.contains_key(&table));
        if !attached {
            return Ok(());
        }
        Err(ApiError::Refused {
            status: StatusCode::CONFLICT,
            error: format!(
                "expected a table still playing, but table {table} of round {round} has its result attached: its log takes no more entries, so that it stays the log the result was read from; correct the result with sunfold event result --correct"
            ),
            commands: Vec::new(),
            alternatives: serde_json::Value::Array(Vec::new()),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn a_table_s_path_is_split_into_its_round_table_and_rest() {
        assert_eq!(split("/r/2/t/3"), Some((2, 3, "/".to_owned())));
        assert_eq!(split("/r/2/t/3/"), Some((2, 3, "/".to_owned())));
        assert_eq!(
            split("/r/12/t/1/api/state"),
            Some((12, 1, "/api/state".to_owned()))
        );
        for bad in [
            "/",
            "/r/0/t/1",
            "/r/01/t/1",
            "/r/x/t/1",
            "/r/1/t/",
            "/r/1",
            "/api/state",
        ] {
            assert_eq!(split(bad), None, "{bad}");
        }
    }
}
