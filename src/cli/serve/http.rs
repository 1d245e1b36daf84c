//! The HTTP interface: the page, the state, appending events and the live
//! stream, on axum. Every write goes through the log's [`Recorder`]: the
//! same lock, fold, check and fsync as `sunfold append`, so a refused
//! request leaves the log's bytes unchanged.

use super::table::{Table, status_for};
use super::tokens::{Role, Tokens};
use crate::cli::record;
use crate::present::command as commands;
use crate::log::{AppendError, DecodeError, Entry, Fold, Line, Recorder, ReplayError, Session};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
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
    /// Each appended event, as the stream's JSON.
    pub appended: broadcast::Sender<String>,
    /// The log's length when last seen, to notice entries recorded by
    /// other programs (`sunfold place` beside the server).
    pub seen: std::sync::atomic::AtomicU64,
}

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
            let now = length(&shared.path);
            if shared.seen.swap(now, Ordering::SeqCst) == now {
                continue;
            }
            let watched = shared.clone();
            let message = tokio::task::spawn_blocking(move || {
                let mut message = None;
                folded::<G>(&watched, |_, fold| {
                    message = Some(serde_json::json!({
                        "seq": fold.events() - 1,
                        "kind": "recorded elsewhere",
                        "said": "recorded by another program",
                        "state": status_for::<G>(&watched.path, &fold, None),
                    }));
                    StatusCode::OK.into_response()
                });
                message
            })
            .await;
            if let Ok(Some(message)) = message {
                let _ = shared.appended.send(message.to_string());
            }
        }
    });
}

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// The page, its script and style inline, and its CSP.
fn page() -> (String, String) {
    let csp = format!(
        "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        crate::render::viewer::csp_hash(SCRIPT),
        crate::render::viewer::csp_hash(STYLE)
    );
    let html = PAGE
        .replace("/*STYLE*/", STYLE)
        .replace("/*SCRIPT*/", SCRIPT);
    (html, csp)
}

pub fn router<G: Table>(shared: Arc<Shared>) -> Router {
    let (html, csp) = page();
    let html = Arc::new(html);
    let csp = HeaderValue::from_str(&csp).expect("a CSP is a header value");
    Router::new()
        .route(
            "/",
            get(move || {
                let html = html.clone();
                let csp = csp.clone();
                async move {
                    (
                        [
                            (
                                header::CONTENT_TYPE,
                                HeaderValue::from_static("text/html; charset=utf-8"),
                            ),
                            (header::CONTENT_SECURITY_POLICY, csp),
                        ],
                        html.as_str().to_owned(),
                    )
                }
            }),
        )
        // Browsers ask for it; there is none.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/state", get(state::<G>))
        .route("/api/view", get(view::<G>))
        .route("/api/events", post(events::<G>))
        .route("/api/stream", get(stream))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared)
}

/// Headers every answer carries.
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// A refusal: its status and a JSON body with the message.
fn refuse(status: StatusCode, message: String) -> Response {
    (
        status,
        axum::Json(serde_json::json!({"status": status.as_u16(), "error": message})),
    )
        .into_response()
}

/// The token's holder, from `Authorization: Bearer TOKEN`.
fn role(shared: &Shared, headers: &HeaderMap) -> Result<Role, Box<Response>> {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        // The scheme is case-insensitive (RFC 9110).
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    match given {
        None => Err(Box::new(refuse(
            StatusCode::UNAUTHORIZED,
            "expected the header Authorization: Bearer TOKEN, with the token of a join link, but found none".to_owned(),
        ))),
        Some(token) => shared.tokens.role(token).ok_or_else(|| {
            Box::new(refuse(
                StatusCode::UNAUTHORIZED,
                "expected the token of a join link, but found one this table does not know"
                    .to_owned(),
            ))
        }),
    }
}

/// Runs `work` on the blocking pool: every file access locks and reads.
async fn blocking(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed".to_owned(),
        )
    })
}

/// The log folded under its lock, or why not (as a 500: the log on disk
/// is not one the server can serve from).
fn folded<G: Table>(
    shared: &Shared,
    work: impl FnOnce(&mut Session<'_>, Fold<G>) -> Response,
) -> Response {
    let path = &shared.path;
    let failed = |message: String| refuse(StatusCode::INTERNAL_SERVER_ERROR, message);
    let mut recorder = match Recorder::open(path) {
        Ok(r) => r,
        Err(e) => return failed(format!("{}: {e}", path.display())),
    };
    let mut session = match recorder.lock() {
        Ok(s) => s,
        Err(e) => return failed(format!("{}: {e:?}", path.display())),
    };
    match session.fold::<G>() {
        Ok(fold) => work(&mut session, fold),
        Err(_) => failed(format!(
            "{}: the log no longer replays; run sunfold replay on it",
            path.display()
        )),
    }
}

async fn state<G: Table>(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let role = match role(&shared, &headers) {
        Ok(role) => role,
        Err(refused) => return *refused,
    };
    blocking(move || {
        folded::<G>(&shared, |_, fold| {
            axum::Json(status_for::<G>(&shared.path, &fold, Some(&role))).into_response()
        })
    })
    .await
}

async fn view<G: Table>(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let role = match role(&shared, &headers) {
        Ok(role) => role,
        Err(refused) => return *refused,
    };
    blocking(move || {
        folded::<G>(&shared, |_, fold| {
            axum::Json(G::page(&fold, &role)).into_response()
        })
    })
    .await
}

/// May `role` make the decision in `entry`, given the log so far? A player
/// makes their own decisions and takes back their own; the table's events
/// (rolls, reveals, discards) and claims are the referee's.
fn allowed<G: Table>(fold: &Fold<G>, role: &Role, entry: &Entry<G::Event>) -> Result<(), String> {
    let Role::Player(me) = role else {
        return Ok(());
    };
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
    match actor {
        Some(actor) if actor == me => Ok(()),
        Some(actor) => Err(format!(
            "expected a decision of {me}'s, but found one of {actor}'s: {what}"
        )),
        None => Err(format!(
            "expected a decision of {me}'s, but found one for the referee: {what}"
        )),
    }
}

async fn events<G: Table>(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let role = match role(&shared, &headers) {
        Ok(role) => role,
        Err(refused) => return *refused,
    };
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "expected one entry of at most {BODY_LIMIT} bytes, but found a longer body"
                ),
            );
        }
        Err(rejection) => return refuse(rejection.status(), rejection.body_text()),
    };
    blocking(move || {
        let Ok(text) = std::str::from_utf8(&body) else {
            return refuse(
                StatusCode::BAD_REQUEST,
                "expected a JSON object in UTF-8, but found bytes that are not UTF-8".to_owned(),
            );
        };
        let path = shared.path.clone();
        folded::<G>(&shared, |session, mut fold| {
            let line = match record::appended_line(text, fold.events(), Session::prev(&fold)) {
                Ok(line) => line,
                Err(crate::cli::error::CliError::Refused(message)) => {
                    return refuse(StatusCode::BAD_REQUEST, message);
                }
                Err(other) => return refuse(StatusCode::BAD_REQUEST, format!("{other:?}")),
            };
            let candidate = Line {
                number: fold.events() as usize + 1,
                bytes: line.trim_end().as_bytes(),
                terminated: true,
            };
            let entry = match crate::log::decode::<G>(&candidate) {
                Ok(record) => record.entry,
                Err(located) => {
                    return refuse(
                        StatusCode::BAD_REQUEST,
                        format!("{}:{located}", path.display()),
                    );
                }
            };
            if let Err(message) = allowed::<G>(&fold, &role, &entry) {
                return refuse(StatusCode::FORBIDDEN, message);
            }
            match record::append_said::<G>(session, &mut fold, line) {
                Ok((appended, said)) => {
                    shared
                        .seen
                        .store(length(&path), std::sync::atomic::Ordering::SeqCst);
                    let state = status_for::<G>(&path, &fold, None);
                    let message = serde_json::json!({
                        "seq": appended.seq,
                        "kind": appended.kind,
                        "said": said,
                        "state": state,
                    });
                    // Nobody listening is no error.
                    let _ = shared.appended.send(message.to_string());
                    axum::Json(serde_json::json!({
                        "seq": appended.seq,
                        "kind": appended.kind,
                        "said": said,
                    }))
                    .into_response()
                }
                Err(AppendError::Io(e)) => refuse(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("{}: {e}", path.display()),
                ),
                Err(AppendError::Rejected(error)) => {
                    let status = match error.error {
                        ReplayError::Decode(DecodeError::Seq { .. }) => StatusCode::CONFLICT,
                        ReplayError::Decode(_) => StatusCode::BAD_REQUEST,
                        _ => StatusCode::UNPROCESSABLE_ENTITY,
                    };
                    let groups = fold
                        .rejected()
                        .map(|event| {
                            let events = G::alternatives(fold.state(), event);
                            commands::grouped::<G>(&path, fold.state(), &events)
                        })
                        .unwrap_or_default();
                    let alternatives = match fold.rejected() {
                        Some(event) => G::alternatives(fold.state(), event),
                        None => Vec::new(),
                    };
                    (
                        status,
                        axum::Json(serde_json::json!({
                            "status": status.as_u16(),
                            "error": format!("{}:{error}", path.display()),
                            "commands": groups,
                            "alternatives": alternatives,
                        })),
                    )
                        .into_response()
                }
            }
        })
    })
    .await
}

async fn stream(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Err(refused) = role(&shared, &headers) {
        return *refused;
    }
    let events = BroadcastStream::new(shared.appended.subscribe()).filter_map(|message| {
        // A listener too slow to keep up misses events, and is told so.
        Some(Ok::<_, std::convert::Infallible>(match message {
            Ok(json) => Sse::default().event("appended").data(json),
            Err(_) => Sse::default().event("lagged").data("{}"),
        }))
    });
    axum::response::Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}
