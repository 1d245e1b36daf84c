//! The studio's routes, on axum: the page, the template, the checks, the
//! edits (patch, undo, redo) and the print (SVG preview, PDF). Every
//! request passes [`Access`] first: its Host, its Origin, its token.

use super::guard::Access;
use super::print::{Print, PrintError};
use super::session::{EditError, Studio};
use crate::serve::ApiError;
use crate::serve::edge::{Page, body, secure};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::{Arc, Mutex};

/// The largest request body: a patch that replaces a whole deck fits.
pub const BODY_LIMIT: usize = 256 * 1024;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

/// What every request shares.
pub struct Shared {
    pub studio: Mutex<Studio>,
    pub access: Access,
    pub print: Print,
}

pub fn router(shared: Arc<Shared>) -> Router {
    let html = PAGE
        .replace("/*STYLE*/", STYLE)
        .replace("/*SCRIPT*/", SCRIPT);
    let page = Arc::new(Page::new((
        html,
        crate::serve::edge::csp(SCRIPT, STYLE, "'self' blob:"),
    )));
    Router::new()
        .route("/", get(move || async move { page.answer() }))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/template", get(template))
        .route("/api/check", get(check))
        .route("/api/patch", post(patch))
        .route("/api/undo", post(undo))
        .route("/api/redo", post(redo))
        .route("/preview.svg", get(preview))
        .route("/print.pdf", get(pdf))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(shared.clone(), guard))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared)
}

/// Refuses a request from elsewhere or without the token, before any
/// route sees it; the first page may carry the token in `?token=`.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let access = &shared.access;
    let query = (request.uri().path() == "/")
        .then(|| request.uri().query())
        .flatten();
    let checked = access
        .check_origin(request.headers())
        .and_then(|()| access.check_token(request.headers(), query));
    match checked {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    }
}

/// Runs `work` on the studio, on the blocking pool: edits sync files.
async fn with_studio(
    shared: Arc<Shared>,
    work: impl FnOnce(&mut Studio, &Print) -> Result<Response, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    tokio::task::spawn_blocking(move || {
        let mut studio = shared.studio.lock().unwrap_or_else(|e| e.into_inner());
        work(&mut studio, &shared.print)
    })
    .await
    .unwrap_or_else(|_| Err(ApiError::Internal("the request failed".to_owned())))
}

impl From<EditError> for ApiError {
    fn from(error: EditError) -> ApiError {
        match error {
            EditError::Unappliable { .. } => {
                ApiError::Other(StatusCode::UNPROCESSABLE_ENTITY, error.to_string())
            }
            EditError::Nothing { .. } => ApiError::Other(StatusCode::CONFLICT, error.to_string()),
            EditError::Io(_) => ApiError::Internal(error.to_string()),
        }
    }
}

async fn template(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, _| {
        Ok(axum::Json(studio.current().clone()).into_response())
    })
    .await
}

async fn check(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, _| {
        Ok(axum::Json(studio.checked()).into_response())
    })
    .await
}

async fn patch(
    State(shared): State<Arc<Shared>>,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let given = body(given, "a JSON Patch", BODY_LIMIT)?;
    let patch: json_patch::Patch = serde_json::from_slice(&given).map_err(|e| {
        ApiError::BadRequest(format!(
            "expected an RFC 6902 JSON Patch, an array of operations, but found a body that is not one ({})",
            crate::json_error::describe(&e)
        ))
    })?;
    with_studio(shared, move |studio, _| {
        Ok(axum::Json(studio.patch(patch)?).into_response())
    })
    .await
}

async fn undo(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, _| {
        Ok(axum::Json(studio.undo()?).into_response())
    })
    .await
}

async fn redo(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, _| {
        Ok(axum::Json(studio.redo()?).into_response())
    })
    .await
}

impl From<PrintError> for ApiError {
    fn from(error: PrintError) -> ApiError {
        match error {
            PrintError::NoPage { .. } => ApiError::Other(StatusCode::NOT_FOUND, error.to_string()),
            PrintError::NeverValid | PrintError::Missing(_) | PrintError::Pdf(_) => {
                ApiError::Other(StatusCode::CONFLICT, error.to_string())
            }
        }
    }
}

/// `?page=N`, from 1, if given.
fn page_asked(query: Option<&str>) -> Result<Option<usize>, ApiError> {
    let Some(query) = query.filter(|q| !q.is_empty()) else {
        return Ok(None);
    };
    match query.strip_prefix("page=").map(str::parse::<usize>) {
        Some(Ok(n)) if n >= 1 => Ok(Some(n)),
        _ => Err(ApiError::BadRequest(format!(
            "expected no query or ?page=N with N from 1, but found ?{query}"
        ))),
    }
}

async fn preview(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let page = page_asked(uri.query())?;
    with_studio(shared, move |studio, print| {
        let svg = print.svg(studio.saved(), page)?;
        Ok((
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            )],
            svg,
        )
            .into_response())
    })
    .await
}

async fn pdf(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, print| {
        let bytes = print.pdf(studio.saved())?;
        let name = studio
            .file()
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Only what is safe in a quoted header value.
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}.pdf\""))
            .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
        Ok((
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/pdf"),
                ),
                (header::CONTENT_DISPOSITION, disposition),
            ],
            bytes,
        )
            .into_response())
    })
    .await
}
