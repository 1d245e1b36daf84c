//! The HTTP interface: the page, the state, appending events and the live
//! stream, on axum. Every write goes through [`crate::table`]: the same
//! lock, fold, check and fsync as `sunfold append`, so a refused request
//! leaves the log's bytes unchanged. Who may see and post what is decided
//! by the seat of the token's holder.

use super::ApiError;
use super::drawn::{Drawings, Layout};
use super::kept::Kept;
use super::page::{Painter, Table, status_for};
use super::tokens::{Role, Tokens};
use crate::log::{AppendError, DecodeError, Entry, Fold, Line, ReplayError, Session};
use crate::present::command;
use crate::table::{Clock, Said, Viewer, with_table};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as Sse, KeepAlive};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::broadcast;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;

/// The largest request body: a wire event is a few hundred bytes.
pub const BODY_LIMIT: usize = 16 * 1024;

/// What every request shares.
pub struct Shared {
    pub path: PathBuf,
    pub tokens: Tokens,
    /// Each appended event: its seq and the stream's JSON.
    pub appended: broadcast::Sender<(u64, String)>,
    /// The time of each entry posted: the server's, never a client's.
    pub clock: Arc<dyn Clock>,
    /// The log's length when last seen, to notice entries recorded by
    /// other programs (`sunfold place` beside the server).
    pub seen: std::sync::atomic::AtomicU64,
    /// The way in by a short code: its tries, and where refusals are told.
    pub join: super::join::Join,
    /// Asked under the log's lock before an entry is appended: why the
    /// table takes no more entries, if it does not (a room's table whose
    /// result is attached to its event).
    pub closed: Option<Closed>,
    /// The event, its round and the table, when a room serves it.
    pub room: Option<super::page::InRoom>,
    /// The table log's fold, kept between requests (shared with the room's
    /// board when a room serves the table).
    pub kept: Arc<Kept>,
    /// The drawings of the table's panels.
    pub drawings: Drawings,
    /// The seats bots play, if any: they have no link.
    pub bots: Option<Arc<super::bot::Bots>>,
}

/// Why a table takes no more entries, if it does not: asked under the
/// table log's lock, so that nothing is appended once it says so.
pub type Closed = Arc<dyn Fn() -> Result<(), ApiError> + Send + Sync>;

fn length(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Watches the log for entries recorded by other programs, once a second,
/// and tells the stream's listeners.
pub fn watch<G: Table>(shared: Arc<Shared>) {
    use std::sync::atomic::Ordering;
    shared.seen.store(length(&shared.path), Ordering::SeqCst);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            every.tick().await;
            // A cheap look first; the decision is made under the log's lock,
            // where an append by this server and its note of the new length
            // are one step, so a post of ours is never taken for another
            // program's.
            if length(&shared.path) == shared.seen.load(Ordering::SeqCst) {
                continue;
            }
            let watched = shared.clone();
            let message = tokio::task::spawn_blocking(move || {
                with_table::<G, _, ApiError>(&watched.path, |_, fold| {
                    let now = length(&watched.path);
                    if watched.seen.swap(now, Ordering::SeqCst) == now {
                        return Ok(None);
                    }
                    let seq = fold.events() - 1;
                    let message = serde_json::json!({
                        "seq": seq,
                        "kind": "recorded elsewhere",
                        "said": "recorded by another program",
                        "state": status_for::<G>(&watched.path, &fold, Viewer::Everyone),
                    });
                    Ok(Some((seq, message.to_string())))
                })
            })
            .await;
            if let Ok(Ok(Some(message))) = message {
                let _ = shared.appended.send(message);
            }
        }
    });
}

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = concat!(include_str!("review.js"), include_str!("page.js"));
const STYLE: &str = include_str!("page.css");

pub fn router<G: Table>(shared: Arc<Shared>) -> Router {
    let page = Arc::new(super::edge::Page::inline(PAGE, SCRIPT, STYLE));
    Router::new()
        .route("/", get(move || async move { page.answer() }))
        // Browsers ask for it; there is none.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/state", get(state::<G>))
        .route("/api/view", get(view::<G>))
        .route("/api/events", post(events::<G>))
        .route("/api/stream", get(stream::<G>))
        .route("/api/panels/{hash}/{layout}", get(panel::<G>))
        .route("/api/review", get(review::<G>))
        .route("/join", get(|| async { super::join::page() }).post(join))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(super::edge::secure))
        .layer(axum::middleware::map_response(immutable))
        .with_state(shared)
}

/// An answer that never changes at its address: a drawing, named by its
/// hash, which the browser keeps.
#[derive(Clone, Copy)]
struct Immutable;

/// Gives an [`Immutable`] answer its caching, over the `no-store` that
/// every other answer carries.
async fn immutable(mut response: Response) -> Response {
    if response.extensions_mut().remove::<Immutable>().is_some() {
        response.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    response
}

/// `GET /api/panels/HASH/LAYOUT`: the drawing whose hash is HASH, as an
/// SVG, `wide` or laid out for a `phone`; only to a holder who may see
/// it. Its address never changes what it answers.
async fn panel<G: Table>(
    State(shared): State<Arc<Shared>>,
    axum::extract::Path((hash, layout)): axum::extract::Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let role = role(&shared, &headers)?;
    let layout = match layout.as_str() {
        "phone" => Layout::Phone,
        "wide" => Layout::Wide,
        other => {
            return Err(ApiError::BadRequest(format!(
                "expected the layout wide or phone, but found {other}"
            )));
        }
    };
    let brotli = super::edge::wire::takes_brotli(&headers);
    let etag = format!("\"{hash}\"");
    let matches = headers
        .get(axum::http::header::IF_NONE_MATCH)
        .is_some_and(|held| held.as_bytes() == etag.as_bytes());
    blocking(move || {
        let snapshot = shared.kept.read::<G, ApiError>(&shared.path)?;
        let fold = &*snapshot.fold;
        let viewer = viewer(fold, &role);
        let me = super::page::seat(viewer);
        let found = shared.drawings.find(&hash, me).or_else(|| {
            // Not kept (a restarted server): drawn again if the holder's
            // page shows it now.
            let painter = Painter {
                drawings: &shared.drawings,
                generation: snapshot.generation,
                have: Default::default(),
                bare: true,
            };
            G::page(fold, viewer, &painter);
            shared.drawings.find(&hash, me)
        });
        let Some(drawn) = found else {
            return Err(ApiError::Other(
                StatusCode::NOT_FOUND,
                format!("expected the hash of a drawing this page shows, but found {hash}"),
            ));
        };
        let mut response = if matches {
            StatusCode::NOT_MODIFIED.into_response()
        } else if brotli {
            // Compressed once, kept, and passed by the compression layer.
            use axum::http::header::{CONTENT_ENCODING, CONTENT_TYPE, VARY};
            let compressed = shared.drawings.brotli(&drawn, layout);
            let headers = [
                (CONTENT_TYPE, "image/svg+xml"),
                (CONTENT_ENCODING, "br"),
                (VARY, "accept-encoding"),
            ];
            (headers, compressed).into_response()
        } else {
            let svg = shared.drawings.draw(&drawn, layout).to_owned();
            ([(axum::http::header::CONTENT_TYPE, "image/svg+xml")], svg).into_response()
        };
        response.headers_mut().insert(
            axum::http::header::ETAG,
            axum::http::HeaderValue::from_str(&etag).expect("a hash is a header's value"),
        );
        response.extensions_mut().insert(Immutable);
        Ok(response)
    })
    .await
}

/// `GET /api/review[?player=NAME]`: "Review my game" (`review.rs`).
async fn review<G: Table>(
    State(shared): State<Arc<Shared>>,
    query: super::edge::Asked,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let role = role(&shared, &headers)?;
    let [player] = super::edge::query(query, ["player"], "no query or ?player=NAME")?;
    let file = crate::log::shown_name(&shared.path).display().to_string();
    super::review::answer::<G>(
        shared.kept.reviews.clone(),
        shared.path.clone(),
        file,
        role,
        player,
    )
    .await
}

/// `POST /join`: a slip's short code, typed, for the link of its token.
async fn join(
    State(shared): State<Arc<Shared>>,
    extensions: axum::http::Extensions,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let tokens = shared.clone();
    let find = |code: String| async move {
        Ok(tokens
            .tokens
            .by_code(&code)
            .map(|t| format!("./#token={t}")))
    };
    super::join::answer(&shared.join, super::join::peer(&extensions), body, find).await
}

/// The token's holder, from `Authorization: Bearer TOKEN`.
fn role(shared: &Shared, headers: &HeaderMap) -> Result<Role, ApiError> {
    match super::edge::bearer(headers) {
        None => Err(ApiError::Unauthorized(
            "expected the header Authorization: Bearer TOKEN, with the token of a join link, but found none".to_owned(),
        )),
        Some(token) => match shared.tokens.role(token) {
            None => Err(ApiError::Unauthorized(
                "expected the token of a join link, but found one this table does not know"
                    .to_owned(),
            )),
            // A seat a bot plays has no link: its old one no longer works.
            Some(Role::Player(name)) if let Some(bot) = bot_of(shared, &name) => {
                Err(ApiError::Forbidden(format!(
                    "expected the link of a seat a person plays, but {name}'s seat is played by the bot {}",
                    bot.name()
                )))
            }
            Some(role) => Ok(role),
        },
    }
}

/// The bot that plays the seat of `name`, if a bot does.
fn bot_of(shared: &Shared, name: &str) -> Option<crate::bots::Bot> {
    shared.bots.as_ref().and_then(|bots| bots.of(name))
}

/// `page` as the table shows it: the room it is in, its bot seats.
fn shown(shared: &Shared, mut page: super::PageView) -> super::PageView {
    page.room = shared.room.clone();
    page.bots = shared.bots.as_ref().map(|b| b.lines());
    page
}

/// Who `role` is at the table of `fold`: a seat, found once by the exact
/// name the token was issued for, or the referee.
fn viewer<G: Table>(fold: &Fold<G>, role: &Role) -> Viewer {
    match role {
        Role::Referee => Viewer::Referee,
        Role::Player(name) => G::player_names(fold.state())
            .iter()
            .position(|n| n == name)
            // A token for no seat of this log sees what everyone sees.
            .map_or(Viewer::Everyone, Viewer::Seat),
    }
}

/// Runs `work` on the bounded blocking pool: every file access locks and
/// reads.
async fn blocking(
    work: impl FnOnce() -> Result<Response, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    super::pool::blocking(work).await
}

async fn state<G: Table>(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    as_viewer::<G>(shared, &headers, |path, fold, viewer| {
        axum::Json(status_for::<G>(path, fold, viewer)).into_response()
    })
    .await
}

async fn view<G: Table>(
    State(shared): State<Arc<Shared>>,
    query: super::edge::Asked,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let role = role(&shared, &headers)?;
    // `?as=NAME` lets the referee see and record the page of a player who
    // has no phone; nothing else may be asked.
    // `?have=HASH,…` names the panels the page holds already: they are
    // sent without their drawing.
    let [as_player, have] = super::edge::query(
        query,
        ["as", "have"],
        "no query, ?as=PLAYER or ?have=HASHES",
    )?;
    let have = have.unwrap_or_default();
    blocking(move || {
        // The log's lock is held only to read it: the page is drawn after.
        let snapshot = shared.kept.read::<G, ApiError>(&shared.path)?;
        let fold = &*snapshot.fold;
        let viewer = viewer(fold, &role);
        let painter = Painter {
            drawings: &shared.drawings,
            generation: snapshot.generation,
            have: have.split(',').filter(|h| !h.is_empty()).collect(),
            bare: false,
        };
        let page = match as_player {
            None => G::page(fold, viewer, &painter),
            Some(name) => {
                let seat = acting_seat(&G::player_names(fold.state()), viewer, &name)?;
                let mut page = G::page(fold, Viewer::Seat(seat), &painter);
                page.recording_as = Some(name);
                page
            }
        };
        Ok(axum::Json(shown(&shared, page)).into_response())
    })
    .await
}

/// The seat of `name`, whose page the referee opens to record for them; a
/// player's link records for its holder alone.
fn acting_seat(names: &[String], viewer: Viewer, name: &str) -> Result<usize, ApiError> {
    if viewer != Viewer::Referee {
        return Err(ApiError::Forbidden(format!(
            "expected the referee's link to record as {name}, but found a player's"
        )));
    }
    names.iter().position(|n| n == name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "expected a player at this table ({}), but found {name}",
            names.join(", ")
        ))
    })
}

/// What the holder of the request's token may see of the folded log, as
/// `answer` gives it.
async fn as_viewer<G: Table>(
    shared: Arc<Shared>,
    headers: &HeaderMap,
    answer: impl FnOnce(&std::path::Path, &Fold<G>, Viewer) -> Response + Send + 'static,
) -> Result<Response, ApiError> {
    let role = role(&shared, headers)?;
    blocking(move || {
        let snapshot = shared.kept.read::<G, ApiError>(&shared.path)?;
        let viewer = viewer(&snapshot.fold, &role);
        Ok(answer(&shared.path, &snapshot.fold, viewer))
    })
    .await
}

/// May `viewer` make the decision in `entry`, given the log so far? A
/// player makes their own decisions and takes back their own; the table's
/// events (rolls, reveals, discards) and claims are the referee's.
fn allowed<G: Table>(
    fold: &Fold<G>,
    viewer: Viewer,
    entry: &Entry<G::Event>,
) -> Result<(), ApiError> {
    let me = match viewer {
        Viewer::Referee => return Ok(()),
        Viewer::Seat(seat) => seat,
        Viewer::Everyone => {
            return Err(ApiError::Forbidden(
                "expected the token of a player at this table, but found one for no seat"
                    .to_owned(),
            ));
        }
    };
    let state = fold.state();
    let names = G::player_names(state);
    let (actor, what) = match entry {
        Entry::Game(event) => (G::actor_name(event), G::describe(event)),
        Entry::Meta(crate::log::Meta::Undone { .. }) => match fold.undoable() {
            Some((_, event)) => (
                G::actor_name(event),
                format!("the undo of {}", G::describe(event)),
            ),
            // The engine refuses it, with its own reason.
            None => return Ok(()),
        },
        Entry::Meta(crate::log::Meta::Claimed { .. }) => (None, "a claim of scores".to_owned()),
    };
    let name = &names[me];
    match actor {
        Some(actor) if names.iter().position(|n| n == actor) == Some(me) => Ok(()),
        Some(actor) => Err(ApiError::Forbidden(format!(
            "expected a decision of {name}'s, but found one of {actor}'s: {what}"
        ))),
        None => Err(ApiError::Forbidden(format!(
            "expected a decision of {name}'s, but found one for the referee: {what}"
        ))),
    }
}

async fn events<G: Table>(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    let role = role(&shared, &headers)?;
    let body = super::edge::body(body, "one entry", BODY_LIMIT)?;
    super::pool::appending(move || {
        let Ok(text) = std::str::from_utf8(&body) else {
            return Err(ApiError::BadRequest(
                "expected a JSON object in UTF-8, but found bytes that are not UTF-8".to_owned(),
            ));
        };
        let by = |fold: &Fold<G>| {
            // A log of a format before authors keeps its format: its
            // entries are posted as before, saying nobody.
            (fold.format() >= crate::log::AUTHORS).then(|| match &role {
                Role::Referee => crate::log::REFEREE.to_owned(),
                Role::Player(name) => name.clone(),
            })
        };
        let allowed = |fold: &Fold<G>, entry: &Entry<G::Event>| {
            allowed::<G>(fold, viewer(fold, &role), entry)
        };
        let (seq, kind, said) = append_posted::<G>(&shared, text, None, by, allowed)?;
        Ok(axum::Json(serde_json::json!({
            "seq": seq,
            "kind": kind,
            "said": said,
        }))
        .into_response())
    })
    .await
}

/// Appends the raw entry `text` to the table's log, as posted by `by`
/// (who, in the log's format), once `allowed` lets its entry in, under
/// the log's lock; and tells the stream. With `at`, only as the entry of
/// seq `at`: a log that moved on since refuses it (409). The entry's seq,
/// its kind and what it said.
pub(super) fn append_posted<G: Table>(
    shared: &Shared,
    text: &str,
    at: Option<u64>,
    by: impl FnOnce(&Fold<G>) -> Option<String>,
    allowed: impl FnOnce(&Fold<G>, &Entry<G::Event>) -> Result<(), ApiError>,
) -> Result<(u64, String, String), ApiError> {
    let path = shared.path.clone();
    shared.kept.write::<G, _, ApiError>(&path, |session, fold| {
        if let Some(at) = at.filter(|&at| at != fold.events()) {
            return Err(ApiError::Other(
                StatusCode::CONFLICT,
                format!(
                    "expected the entry of seq {at}, but the log is at seq {}",
                    fold.events()
                ),
            ));
        }
        let by = by(fold);
        let line = crate::table::entry::served_line::<G>(
            text,
            fold.events(),
            Session::prev(fold),
            crate::table::stamp(session, &*shared.clock),
            by.as_deref(),
        )
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let candidate = Line {
            number: fold.events() as usize + 1,
            bytes: line.trim_end().as_bytes(),
            terminated: true,
        };
        let entry = crate::log::decode::<G>(&candidate)
            .map_err(|located| ApiError::BadRequest(format!("line {located}")))?
            .entry;
        allowed(fold, &entry)?;
        if let Some(closed) = &shared.closed {
            closed()?;
        }
        match crate::table::append::<G>(session, fold, line) {
            Ok(Said { appended, said }) => {
                shared
                    .seen
                    .store(length(&path), std::sync::atomic::Ordering::SeqCst);
                let state = status_for::<G>(&path, fold, Viewer::Everyone);
                let message = serde_json::json!({
                    "seq": appended.seq,
                    "kind": appended.kind,
                    "said": said,
                    "state": state,
                });
                // Nobody listening is no error.
                let _ = shared.appended.send((appended.seq, message.to_string()));
                Ok((appended.seq, appended.kind.to_string(), said))
            }
            Err(AppendError::Io(e)) => Err(ApiError::Internal(format!("{}: {e}", path.display()))),
            Err(AppendError::Rejected(error)) => {
                let status = match error.error {
                    ReplayError::Decode(DecodeError::Seq { .. }) => StatusCode::CONFLICT,
                    ReplayError::Decode(_) => StatusCode::BAD_REQUEST,
                    _ => StatusCode::UNPROCESSABLE_ENTITY,
                };
                let alternatives = match fold.rejected() {
                    Some(event) => G::alternatives(fold.state(), event),
                    None => Vec::new(),
                };
                // A phone is told the line and the rule, and commands
                // that name the log by its file name: never where the
                // server keeps it.
                let named = crate::log::shown_name(&path);
                let commands = if fold.rejected().is_some() {
                    command::grouped::<G>(&named, fold.state(), &alternatives)
                } else {
                    Vec::new()
                };
                Err(ApiError::Refused {
                    status,
                    error: format!("line {error}"),
                    commands,
                    alternatives: serde_json::to_value(&alternatives).expect("events serialize"),
                })
            }
        }
    })
}

/// The live stream. Each event carries its seq as its id, so that a
/// client that reconnects with `Last-Event-ID: SEQ` is first sent every
/// entry after SEQ, read from the log, and misses nothing.
async fn stream<G: Table>(
    State(shared): State<Arc<Shared>>,
    query: Result<
        Query<std::collections::BTreeMap<String, String>>,
        axum::extract::rejection::QueryRejection,
    >,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let role = role(&shared, &headers)?;
    // `?view=1`: each event carries what changed in the holder's page.
    let query = query.map(|Query(q)| q).unwrap_or_default();
    let with_view = match query.iter().next() {
        None => false,
        Some((key, value)) if key == "view" && value == "1" && query.len() == 1 => true,
        Some((key, value)) => {
            return Err(ApiError::BadRequest(format!(
                "expected no query or ?view=1, but found ?{key}={value}"
            )));
        }
    };
    let last = match headers.get("last-event-id") {
        None => None,
        Some(value) => {
            let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
            Some(text.trim().parse::<u64>().map_err(|_| {
                ApiError::BadRequest(format!(
                    "expected Last-Event-ID to be the seq of an event this stream sent, but found {text:?}"
                ))
            })?)
        }
    };
    // Listening starts before the log is read, so that nothing appended
    // in between is lost; what both give is sent once.
    let live = BroadcastStream::new(shared.appended.subscribe());
    let missed = match last {
        None => Vec::new(),
        Some(after) => {
            let shared = shared.clone();
            super::pool::blocking(move || {
                with_table::<G, _, ApiError>(&shared.path, |session, _| {
                    let mut missed = Vec::new();
                    crate::table::since::<G>(session, after, |seq, kind, said, fold| {
                        let message = serde_json::json!({
                            "seq": seq,
                            "kind": kind,
                            "said": said,
                            "state": status_for::<G>(&shared.path, fold, Viewer::Everyone),
                        });
                        missed.push((seq, message.to_string()));
                    });
                    Ok(missed)
                })
            })
            .await?
        }
    };
    let sent = missed.last().map(|(seq, _)| *seq).or(last);
    let appended = |(seq, json): (u64, String)| {
        Sse::default()
            .event("appended")
            .id(seq.to_string())
            .data(json)
    };
    // A listener too slow to keep up misses events, and is told so
    // (`Err`).
    let live = live.filter_map(move |message| match message {
        Ok((seq, _)) if sent.is_some_and(|sent| seq <= sent) => None,
        Ok(message) => Some(Ok(message)),
        Err(_) => Some(Err(())),
    });
    let messages = tokio_stream::iter(missed).map(Ok).chain(live);
    let lagged = || Sse::default().event("lagged").data("{}");
    if !with_view {
        let events = messages.map(move |message| {
            Ok::<_, std::convert::Infallible>(message.map_or_else(|()| lagged(), appended))
        });
        return Ok(axum::response::Sse::new(events)
            .keep_alive(KeepAlive::default())
            .into_response());
    }
    // Each event is given, in order, what changed in the holder's page
    // since the last event sent, computed from the fold as it stands.
    let (send, events) = tokio::sync::mpsc::channel::<Sse>(16);
    let events = tokio_stream::wrappers::ReceiverStream::new(events);
    tokio::spawn(async move {
        let mut messages = std::pin::pin!(messages);
        let mut sent = serde_json::Map::new();
        while let Some(message) = messages.next().await {
            let event = match message {
                Ok((seq, json)) => {
                    let shared = shared.clone();
                    let role = role.clone();
                    let last = std::mem::take(&mut sent);
                    let changed = super::pool::blocking(move || {
                        Ok(changes::<G>(&shared, &role, &json, last))
                    })
                    .await;
                    match changed {
                        Ok((json, now)) => {
                            sent = now;
                            appended((seq, json))
                        }
                        // Refused a place in the pool: the page reloads.
                        Err(_) => lagged(),
                    }
                }
                Err(()) => lagged(),
            };
            if send.send(event).await.is_err() {
                return;
            }
        }
    });
    Ok(
        axum::response::Sse::new(events.map(Ok::<_, std::convert::Infallible>))
            .keep_alive(KeepAlive::default())
            .into_response(),
    )
}

/// The streamed entry `json` without the state every player sees, with
/// `view`: the fields of the page `role` sees now that differ from
/// `last`, the page as the stream last sent it (all of them when it sent
/// none); and the page now, as it is sent next time. The panels are named
/// by their hashes: a page fetches the drawings it lacks.
fn changes<G: Table>(
    shared: &Shared,
    role: &Role,
    json: &str,
    last: serde_json::Map<String, serde_json::Value>,
) -> (String, serde_json::Map<String, serde_json::Value>) {
    let mut message: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    if let Some(message) = message.as_object_mut() {
        message.remove("state");
    }
    let page = shared
        .kept
        .read::<G, ApiError>(&shared.path)
        .map(|snapshot| {
            let fold = &*snapshot.fold;
            let painter = Painter {
                drawings: &shared.drawings,
                generation: snapshot.generation,
                have: Default::default(),
                bare: true,
            };
            shown(shared, G::page(fold, viewer(fold, role), &painter))
        });
    let now = match page.map(|page| serde_json::to_value(page).expect("pages serialize")) {
        Ok(serde_json::Value::Object(now)) => now,
        _ => return (message.to_string(), last),
    };
    let mut view = serde_json::Map::new();
    for (key, value) in &now {
        if key == "seq" || last.get(key) != Some(value) {
            view.insert(key.clone(), value.clone());
        }
    }
    for key in last.keys().filter(|key| !now.contains_key(*key)) {
        view.insert(key.clone(), serde_json::Value::Null);
    }
    message["view"] = serde_json::Value::Object(view);
    (message.to_string(), now)
}
