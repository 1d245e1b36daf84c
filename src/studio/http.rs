//! The studio's routes, on axum: the page, the template, the checks, the
//! edits (patch, rows pasted, undo, redo), the print (SVG preview, PDF, a card's face)
//! and the quick simulation (its settings, a sheet's rule options). Every
//! request passes [`Access`] first: its Host, its Origin, its token.

use super::figures::{Figures, Settings};
use super::guard::Access;
use super::print::{Look, Print, PrintError};
use super::session::{EditError, Standing, Studio};
use crate::render::paper::Paper;
use crate::serve::ApiError;
use crate::serve::edge::{Page, body, secure};
use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;
use std::sync::{Arc, Mutex};

/// The largest request body: a patch that replaces a whole deck fits.
pub const BODY_LIMIT: usize = 256 * 1024;

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = concat!(
    include_str!("page.js"),
    include_str!("parts.js"),
    include_str!("changes.js"),
    include_str!("figures.js")
);
const STYLE: &str = include_str!("page.css");

/// What every request shares.
pub struct Shared {
    pub studio: Mutex<Studio>,
    pub access: Access,
    pub print: Print,
    pub figures: Figures,
    /// One line for the terminal.
    pub report: Arc<dyn Fn(String) + Send + Sync>,
}

pub fn router(shared: Arc<Shared>) -> Router {
    let page = Arc::new(Page::inline_with_images(
        PAGE,
        SCRIPT,
        STYLE,
        "'self' blob:",
    ));
    Router::new()
        .route("/", get(move || async move { page.answer() }))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/template", get(template))
        .route("/api/check", get(check))
        .route("/api/patch", post(patch))
        .route("/api/paste", post(paste))
        .route("/api/undo", post(undo))
        .route("/api/redo", post(redo))
        .route("/api/figures", get(figures).post(settle))
        .route("/api/options", get(options).put(choose))
        .route("/preview.svg", get(preview))
        .route("/print.pdf", get(pdf))
        .route("/card.svg", get(card))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(shared.clone(), guard))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared)
}

/// Refuses a request from elsewhere or without the token, before any
/// route sees it; the first page may carry the token in `?token=`, and
/// is then answered with the studio's cookie, which a reload (or the tab
/// opened again) carries instead. The first page without either is
/// answered with a page that says where to find the address.
async fn guard(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let access = &shared.access;
    let first = request.uri().path() == "/";
    let query = first.then(|| request.uri().query()).flatten();
    // The browser asks for an icon without the token: it is answered
    // with nothing, after the Host and Origin checks.
    let icon = request.uri().path() == "/favicon.ico";
    let checked = access.check_origin(request.headers()).and_then(|()| {
        if icon {
            Ok(())
        } else {
            access.check_token(request.headers(), query)
        }
    });
    match checked {
        Ok(()) => {
            let by_query = query.is_some_and(|q| access.query_token(q).is_some());
            let mut response = next.run(request).await;
            if by_query && let Ok(cookie) = HeaderValue::from_str(&access.cookie()) {
                response.headers_mut().append(header::SET_COOKIE, cookie);
            }
            response
        }
        Err(ApiError::Unauthorized(_)) if first => (
            StatusCode::UNAUTHORIZED,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            NO_TOKEN_PAGE,
        )
            .into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// The first page asked for without the token or the cookie.
const NO_TOKEN_PAGE: &str = "<!doctype html>
<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sunfold studio: open the address it printed</title></head>
<body><main><h1>Open the address the studio printed</h1>
<p>This studio lets in only the browser that opened the address <code>sunfold studio</code> printed in its terminal when it started, the one that ends in <code>?token=</code>. Open that address (copy it from the terminal) and the studio comes back as you left it: every edit was saved as it was made.</p>
</main></body></html>
";

/// The version an edit names in `If-Match`, quoted or bare; none, or `*`,
/// names none.
fn against(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().map_err(|_| {
        ApiError::BadRequest(
            "expected If-Match: \"VERSION\", the version of the template the edit was made against, but found bytes that are not text".to_owned(),
        )
    })?;
    let text = text.trim();
    if text == "*" {
        return Ok(None);
    }
    let version = text.trim_matches('"');
    Ok(Some(version.to_owned()))
}

/// `response` with the template's `version` as its `ETag`.
fn tagged(mut response: Response, version: &str) -> Response {
    if let Ok(tag) = HeaderValue::from_str(&format!("\"{version}\"")) {
        response.headers_mut().insert(header::ETAG, tag);
    }
    response
}

/// Runs `work` on the studio, on the blocking pool: edits sync files.
async fn with_studio(
    shared: Arc<Shared>,
    work: impl FnOnce(&mut Studio, &Shared) -> Result<Response, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    tokio::task::spawn_blocking(move || {
        let mut studio = shared.studio.lock().unwrap_or_else(|e| e.into_inner());
        work(&mut studio, &shared)
    })
    .await
    .unwrap_or_else(|_| Err(ApiError::Internal("the request failed".to_owned())))
}

impl From<EditError> for ApiError {
    fn from(error: EditError) -> ApiError {
        match error {
            EditError::Unappliable { .. }
            | EditError::TooDeep { .. }
            | EditError::TooLarge { .. } => {
                ApiError::Other(StatusCode::UNPROCESSABLE_ENTITY, error.to_string())
            }
            EditError::Nothing { .. }
            | EditError::Stale { .. }
            | EditError::ChangedOutside { .. }
            | EditError::Unreadable { .. } => {
                ApiError::Other(StatusCode::CONFLICT, error.to_string())
            }
            EditError::Io(_) => ApiError::Internal(error.to_string()),
        }
    }
}

/// An edit's answer: the standing, tagged with its version. A file changed
/// outside the studio is also told to the terminal.
fn answer(
    result: Result<Standing, EditError>,
    shared: &Shared,
    studio: &Studio,
) -> Result<Response, ApiError> {
    match result {
        Ok(standing) => {
            shared.figures.saved(studio.saved());
            let version = standing.version.clone();
            Ok(tagged(Json(standing).into_response(), &version))
        }
        Err(error) => {
            if let EditError::ChangedOutside { .. } | EditError::Unreadable { .. } = error {
                (shared.report)(error.to_string());
                shared.figures.saved(studio.saved());
            }
            Err(error.into())
        }
    }
}

/// The template as it stands, tagged with its version; `If-None-Match`
/// naming that version is answered 304 with no body: a tab asks so, every
/// few seconds, whether another changed it.
async fn template(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let known = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().trim_matches('"').to_owned());
    with_studio(shared, move |studio, _| {
        let version = studio.version();
        if known.as_deref() == Some(version.as_str()) {
            return Ok(tagged(StatusCode::NOT_MODIFIED.into_response(), &version));
        }
        Ok(tagged(
            axum::Json(studio.current().clone()).into_response(),
            &version,
        ))
    })
    .await
}

async fn check(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    with_studio(shared, |studio, _| {
        let standing = studio.checked();
        let version = standing.version.clone();
        Ok(tagged(axum::Json(standing).into_response(), &version))
    })
    .await
}

async fn patch(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let against = against(&headers)?;
    let given = body(given, "a JSON Patch", BODY_LIMIT)?;
    let patch: json_patch::Patch = serde_json::from_slice(&given).map_err(|e| {
        ApiError::BadRequest(format!(
            "expected an RFC 6902 JSON Patch, an array of operations, but found a body that is not one ({})",
            crate::kit::json_error::describe(&e)
        ))
    })?;
    with_studio(shared, move |studio, shared| {
        let standing = studio.patch(patch, against.as_deref());
        answer(standing, shared, studio)
    })
    .await
}

/// Rows pasted from a spreadsheet into the deck's cards or the sheet's
/// boxes: `{"text": ROWS}`, made a JSON Patch and applied as one edit.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Pasted {
    text: String,
}

async fn paste(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let against = against(&headers)?;
    let given = body(given, "pasted rows", BODY_LIMIT)?;
    let pasted: Pasted = serde_json::from_slice(&given).map_err(|e| {
        ApiError::BadRequest(format!(
            "expected {{\"text\": the pasted rows}}, but found a body that is not one ({})",
            crate::kit::json_error::describe(&e)
        ))
    })?;
    with_studio(shared, move |studio, shared| {
        let patch =
            crate::template::rows::paste(studio.current(), &pasted.text).map_err(|problems| {
                let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
                ApiError::Other(StatusCode::UNPROCESSABLE_ENTITY, problems.join("; "))
            })?;
        let standing = studio.patch(patch, against.as_deref());
        answer(standing, shared, studio)
    })
    .await
}

async fn figures(State(shared): State<Arc<Shared>>) -> Json<super::figures::Standing> {
    Json(shared.figures.standing())
}

/// Plays the figures again with other bots or another number of games.
async fn settle(
    State(shared): State<Arc<Shared>>,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let given = body(given, "the figures' settings", BODY_LIMIT)?;
    let settings: Settings = serde_json::from_slice(&given).map_err(|e| {
        ApiError::BadRequest(format!(
            "expected the figures' settings, {{\"bot\": NAME, \"games\": N}}, but found {}",
            crate::kit::json_error::describe(&e)
        ))
    })?;
    let figures = shared.figures.clone();
    let standing = tokio::task::spawn_blocking(move || figures.settle(settings))
        .await
        .map_err(|_| ApiError::Internal("the request failed".to_owned()))?
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(Json(standing).into_response())
}

async fn options(State(shared): State<Arc<Shared>>) -> Json<crate::soleils::Options> {
    Json(shared.figures.standing().options)
}

/// Plays a sheet's figures again under other rule options: those a game's
/// start chooses, which its sheet does not hold.
async fn choose(
    State(shared): State<Arc<Shared>>,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let given = body(given, "the rule options", BODY_LIMIT)?;
    let options: crate::soleils::Options = serde_json::from_slice(&given).map_err(|e| {
        ApiError::BadRequest(format!(
            "expected the rule options, {{\"sun_bonus\": \"reach_or_pass\" or \"exact\", \"skip_placement\": \"voluntary\" or \"only_when_blocked\", \"sailboats\": \"symbol\" or \"different\", \"solo\": false or true}}, but found {}",
            crate::kit::json_error::describe(&e)
        ))
    })?;
    with_studio(shared, move |studio, shared| {
        if studio.current().get("game").and_then(Value::as_str) == Some("summertime") {
            return Err(ApiError::Other(
                StatusCode::CONFLICT,
                "expected a 62 Soleils sheet, whose games have rule options, but found a Summertime deck, which has none".to_owned(),
            ));
        }
        Ok(Json(shared.figures.choose(options)).into_response())
    })
    .await
}

/// Refuses a body on a route that takes none: an undo or a redo acts on
/// the studio's own history, and a body sent to it is a mistake.
fn no_body(given: Result<Bytes, BytesRejection>, route: &str) -> Result<(), ApiError> {
    let refuse = |found: String| {
        format!(
            "expected no body on {route}, which takes the edit to step from the studio's history, but found {found}"
        )
    };
    match given {
        Ok(bytes) if bytes.is_empty() => Ok(()),
        Ok(bytes) => Err(ApiError::BadRequest(refuse(format!(
            "{} bytes",
            bytes.len()
        )))),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(
            ApiError::TooLarge(refuse(format!("more than {BODY_LIMIT} bytes"))),
        ),
        Err(rejection) => body(Err(rejection), "no body", 0).map(|_| ()),
    }
}

async fn undo(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    no_body(given, "/api/undo")?;
    let against = against(&headers)?;
    with_studio(shared, move |studio, shared| {
        let standing = studio.undo(against.as_deref());
        answer(standing, shared, studio)
    })
    .await
}

async fn redo(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    given: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    no_body(given, "/api/redo")?;
    let against = against(&headers)?;
    with_studio(shared, move |studio, shared| {
        let standing = studio.redo(against.as_deref());
        answer(standing, shared, studio)
    })
    .await
}

impl From<PrintError> for ApiError {
    fn from(error: PrintError) -> ApiError {
        match error {
            PrintError::NoPage { .. } | PrintError::NoCard { .. } | PrintError::NotADeck => {
                ApiError::Other(StatusCode::NOT_FOUND, error.to_string())
            }
            PrintError::Undrawable { .. } => {
                ApiError::Other(StatusCode::UNPROCESSABLE_ENTITY, error.to_string())
            }
            PrintError::Look(_) | PrintError::Illegible(_) | PrintError::Name { .. } => {
                ApiError::BadRequest(error.to_string())
            }
            PrintError::NeverValid | PrintError::Missing(_) | PrintError::Pdf(_) => {
                ApiError::Other(StatusCode::CONFLICT, error.to_string())
            }
        }
    }
}

/// What a preview or a PDF may ask for, as `render`'s switches:
/// `?page=N&paper=a4&per_page=2&large_print=true&names=Ann,Bob`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Asked {
    page: Option<usize>,
    paper: Option<String>,
    per_page: Option<u8>,
    large_print: Option<bool>,
    names: Option<String>,
}

/// The page asked for (from 1) and the look, from the query.
fn asked(uri: &axum::http::Uri) -> Result<(Option<usize>, Look), ApiError> {
    let query = uri.query().unwrap_or("");
    let bad = |why: String| {
        ApiError::BadRequest(format!(
            "expected a query of page, paper, per_page, large_print and names, but found ?{query} ({why})"
        ))
    };
    let axum::extract::Query(asked) =
        axum::extract::Query::<Asked>::try_from_uri(uri).map_err(|e| {
            let text = e.body_text();
            let why = text.strip_prefix("Failed to deserialize query string: ");
            bad(why.unwrap_or(&text).to_owned())
        })?;
    if asked.page == Some(0) {
        return Err(bad("pages count from 1".to_owned()));
    }
    let paper = match asked.paper.as_deref() {
        None | Some("a4") => Paper::A4,
        Some("letter") => Paper::Letter,
        Some("a5") => Paper::A5,
        Some(other) => return Err(bad(format!("no paper {other:?}: a4, letter or a5"))),
    };
    let look = Look {
        paper,
        per_page: asked.per_page.unwrap_or(1),
        large_print: asked.large_print.unwrap_or(false),
        names: asked
            .names
            .filter(|n| !n.is_empty())
            .map(|n| n.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
    };
    Ok((asked.page, look))
}

async fn preview(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let (page, look) = asked(&uri)?;
    with_studio(shared, move |studio, shared| {
        Ok(svg_answer(shared.print.svg(studio.saved(), &look, page)?))
    })
    .await
}

/// An SVG picture as an answer.
fn svg_answer(svg: String) -> Response {
    let kind = HeaderValue::from_static("image/svg+xml");
    ([(header::CONTENT_TYPE, kind)], svg).into_response()
}

/// `?card=N`, from 0: one card's face of the deck as edited, when that
/// card can be drawn; else 422, saying why.
async fn card(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let query = uri.query().unwrap_or("");
    let index = match query.strip_prefix("card=").map(str::parse::<usize>) {
        Some(Ok(n)) => n,
        _ => {
            return Err(ApiError::BadRequest(format!(
                "expected ?card=N with N from 0, but found ?{query}"
            )));
        }
    };
    with_studio(shared, move |studio, shared| {
        Ok(svg_answer(shared.print.card(studio.current(), index)?))
    })
    .await
}

async fn pdf(
    State(shared): State<Arc<Shared>>,
    uri: axum::http::Uri,
) -> Result<Response, ApiError> {
    let (_, look) = asked(&uri)?;
    with_studio(shared, move |studio, shared| {
        let bytes = shared.print.pdf(studio.saved(), &look)?;
        let disposition = HeaderValue::from_str(&disposition(&pdf_name(studio)))
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

/// The name a PDF of the studio's template is saved under: the template's
/// name, else the file's.
fn pdf_name(studio: &Studio) -> String {
    let named = studio.saved().get("name").and_then(Value::as_str);
    let name = named.map(str::trim).filter(|n| !n.is_empty());
    let name = name.map(str::to_owned).unwrap_or_else(|| {
        let stem = studio.file().file_stem().unwrap_or_default();
        stem.to_string_lossy().into_owned()
    });
    // No folders, and nothing a file name cannot hold.
    let name: String = name
        .chars()
        .map(|c| {
            if "/\\:*?\"<>|".contains(c) || c.is_control() {
                '-'
            } else {
                c
            }
        })
        .collect();
    format!("{name}.pdf")
}

/// `Content-Disposition` for saving as `name` (RFC 6266): `filename*`
/// holds it whole in UTF-8, and `filename` an ASCII fallback, its
/// accents dropped and anything else not plain ASCII made `-`.
pub fn disposition(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let fallback: String = name
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let mut encoded = String::new();
    for byte in name.bytes() {
        let c = byte as char;
        if c.is_ascii_alphanumeric() || "!#$&+-.^_`|~".contains(c) {
            encoded.push(c);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    format!("attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
}
