//! What every answer of an HTTP edge shares: the headers of [`secure`],
//! a page's [`csp`], the [`bearer`] token, a request's [`body`] within
//! limits and its [`query`].

use super::*;

/// Headers every answer of an HTTP edge carries: never cached, never
/// sniffed, never framed, and no referrer (a URL may hold a token).
pub async fn secure(mut response: Response) -> Response {
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

/// The Content-Security-Policy of a page whose only script and style are
/// `script` and `style`, inline, and whose images come from `images`.
pub fn csp(script: &str, style: &str, images: &str) -> String {
    format!(
        "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; img-src {images}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        crate::show::viewer::page::csp_hash(script),
        crate::show::viewer::page::csp_hash(style)
    )
}

/// The script every page of the servers runs before its own: finding and
/// making elements, a line of words on the page, and asking the server
/// with the page's token (`web` in the page's script). It reaches each
/// page inline, in the one script the page's CSP allows by its hash.
pub const COMMON_SCRIPT: &str = include_str!("common.js");

/// A page, its script and style inline, with its CSP.
pub struct Page {
    html: String,
    csp: HeaderValue,
}

impl Page {
    /// The page `html` under the policy `csp`.
    pub fn new((html, csp): (String, String)) -> Page {
        Page {
            html,
            csp: HeaderValue::from_str(&csp).expect("a CSP is a header value"),
        }
    }

    /// The page `html` with [`COMMON_SCRIPT`] and then `script` put inline
    /// at its `/*SCRIPT*/`, and `style` at its `/*STYLE*/`, under a CSP
    /// that allows them alone and images from the page's own origin.
    pub fn inline(html: &str, script: &str, style: &str) -> Page {
        Page::inline_with_images(html, script, style, "'self'")
    }

    /// [`Page::inline`], its images allowed from `images`.
    pub fn inline_with_images(html: &str, script: &str, style: &str, images: &str) -> Page {
        let script = [COMMON_SCRIPT, script].concat();
        let csp = csp(&script, style, images);
        let html = html
            .replace("/*STYLE*/", style)
            .replace("/*SCRIPT*/", &script);
        Page::new((html, csp))
    }

    /// The page as an answer: HTML, with its CSP.
    pub fn answer(&self) -> Response {
        (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                (header::CONTENT_SECURITY_POLICY, self.csp.clone()),
            ],
            self.html.clone(),
        )
            .into_response()
    }
}

/// The token of `Authorization: Bearer TOKEN`, if given.
///
/// Every route that reads it answers 401 when the token is none it knows:
/// so a request whose token was read here and that is answered anything
/// else carried a valid link, and its connection is tied to that link
/// (see the module's documentation).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        // The scheme is case-insensitive (RFC 9110).
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    // Outside a connection (a router tested in-process) there is none to
    // tell.
    let _ = TOKEN_READ.try_with(|read| {
        *read.borrow_mut() = Some(Link::from(token.unwrap_or_default()));
    });
    token
}

/// A request's body, or why it could not be read: longer than `limit`
/// bytes (it should have held `what`), or not complete in time.
pub fn body(
    body: Result<Bytes, BytesRejection>,
    what: &str,
    limit: usize,
) -> Result<Bytes, crate::serve::ApiError> {
    use crate::serve::ApiError;
    match body {
        Ok(body) => Ok(body),
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            Err(ApiError::TooLarge(format!(
                "expected {what} of at most {limit} bytes, but found a longer body"
            )))
        }
        Err(rejection) if timed_out(&rejection) => Err(ApiError::TimedOut(
            "expected the whole body within the server's time limit, but found it still incomplete"
                .to_owned(),
        )),
        Err(rejection) => Err(ApiError::Other(rejection.status(), rejection.body_text())),
    }
}

/// A request's query, as a route takes it.
pub type Asked = Result<
    axum::extract::Query<std::collections::BTreeMap<String, String>>,
    axum::extract::rejection::QueryRejection,
>;

/// The values the query `asked` gives for `keys`, in their order; a query
/// that asks for anything else is refused, with what the route `takes`
/// ("no query or ?player=NAME").
pub fn query<const N: usize>(
    asked: Asked,
    keys: [&str; N],
    takes: &str,
) -> Result<[Option<String>; N], crate::serve::ApiError> {
    let mut query = asked.map(|q| q.0).unwrap_or_default();
    let values = keys.map(|key| query.remove(key));
    match query.keys().next() {
        Some(other) => Err(crate::serve::ApiError::BadRequest(format!(
            "expected {takes}, but found ?{other}="
        ))),
        None => Ok(values),
    }
}

/// Did reading the body fail because it did not arrive in time (the
/// deadline on bodies, `tower_http::timeout`)?
fn timed_out(rejection: &BytesRejection) -> bool {
    let mut error: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(e) = error {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        error = e.source();
    }
    false
}
