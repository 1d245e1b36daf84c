//! The network edge: accepting connections, with limits, so that slow or
//! idle clients cannot lock the players out, and optional TLS.
//!
//! Each part is the ecosystem's; this file only joins them:
//! - hyper's HTTP/1 server ends a connection whose request headers are not
//!   complete within [`Limits::header_timeout`], counted from when it opens
//!   or its last answer ends: a half-sent request and an idle keep-alive
//!   connection alike;
//! - tower-http's `RequestBodyDeadlineLayer` ends a body that is not
//!   complete within [`Limits::body_timeout`] (the server answers 408);
//! - a count per peer address caps each address's share of the
//!   connections, so that one address cannot take every slot (tower's
//!   limits count requests, not connections);
//! - a register of the open connections caps how many are open at once.
//!   When it is full, a new connection takes the place of the one that
//!   has shown no sign of life the longest (opened, or began or ended a
//!   request, the longest ago), idle or half-sent alike, among those that
//!   have not yet been answered a request that carried a valid link: that
//!   one is closed. A connection is proven so once a route has read its
//!   request's bearer token ([`bearer`]) and answered anything but 401,
//!   and is then only closed by its own time limits. When every open
//!   connection is proven, the new one is closed instead. So slow sockets
//!   from many addresses, however many, only ever push one another out;
//!   a player's page gets in;
//! - hyper-util's graceful shutdown lets requests under way finish;
//! - tokio-rustls (rustls with ring) speaks TLS when given a certificate.
//!
//! What every answer of an HTTP edge shares is here too, for the table's
//! server and the studio alike: the headers of [`secure`], a page's
//! [`csp`], the [`bearer`] token and a request's [`body`] within limits.
//!
//! What is dropped, and why, is told to a `report` function: the command
//! line prints it on stderr. The connections closed to make room are
//! counted, and told once a second at most.

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::cell::Cell;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tower::ServiceExt;

/// How long the server waits for clients, and how many it serves at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// From a connection's opening, or the end of its last answer, until
    /// its request's headers are complete (and its TLS handshake done).
    pub header_timeout: Duration,
    /// From a request's headers until its body is complete.
    pub body_timeout: Duration,
    /// Connections open at once, in all.
    pub max_connections: usize,
    /// Connections open at once from one peer address.
    pub max_per_address: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 128,
            max_per_address: 32,
        }
    }
}

impl Limits {
    /// The limits of the command line's flags: the header and body time
    /// limits in seconds, then the connections at once in all and from one
    /// address. The connections are lowered to fit the files this process
    /// may open, with why when they are.
    pub fn from_flags([header, body]: [u64; 2], [all, one]: [u64; 2]) -> (Limits, Option<String>) {
        let (all, lowered) = super::host::connections(all);
        let limits = Limits {
            header_timeout: Duration::from_secs(header),
            body_timeout: Duration::from_secs(body),
            max_connections: usize::try_from(all).unwrap_or(usize::MAX),
            max_per_address: usize::try_from(one).unwrap_or(usize::MAX),
        };
        (limits, lowered)
    }
}

/// How long requests under way may take to finish once the server stops;
/// the live streams never finish by themselves.
const GRACE: Duration = Duration::from_secs(2);

/// A duration in words, in whole seconds where it is whole.
fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// `router` with the deadline on request bodies: a body that is not
/// complete within `body_timeout` fails to read, and the handler answers
/// 408.
pub fn with_body_deadline(router: Router, body_timeout: Duration) -> Router {
    router.layer(tower_http::timeout::RequestBodyDeadlineLayer::new(
        body_timeout,
    ))
}

/// The connections open from each peer address.
#[derive(Clone, Default)]
struct PerAddress(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One connection's share of its address's count, given back when dropped.
struct Slot {
    counts: PerAddress,
    ip: IpAddr,
}

impl PerAddress {
    /// A slot for a connection from `ip`, unless `max` are open already.
    fn take(&self, ip: IpAddr, max: usize) -> Option<Slot> {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let open = counts.entry(ip).or_insert(0);
        if *open >= max {
            return None;
        }
        *open += 1;
        Some(Slot {
            counts: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = counts.get_mut(&self.ip) {
            *open -= 1;
            if *open == 0 {
                counts.remove(&self.ip);
            }
        }
    }
}

/// Connections closed to make room that may still hold their file while
/// their task ends: beyond them, a new connection waits for them to end,
/// for [`CLOSING_WAIT`] at most, and is closed after. The files kept
/// beside the connections' own leave room for them.
const CLOSING: usize = 8;

/// How long a new connection may wait for those closed to make room to
/// end: they end as soon as their task runs.
const CLOSING_WAIT: Duration = Duration::from_millis(500);

/// Whether a new connection has a place.
enum Admission {
    /// It has, and is told through the receiver when to close.
    In(Place, oneshot::Receiver<()>),
    /// Not yet: [`CLOSING`] connections closed to make room have not ended.
    Closing,
    /// No: every open connection is proven.
    Full,
}

/// The connections open at once, each with when it last showed a sign of
/// life and whether it has proven itself, so that a new connection may
/// take the place of the one idle or incomplete the longest.
#[derive(Clone)]
struct Register(Arc<Mutex<Open>>);

struct Open {
    /// Connections open at once, at most (`--max-connections`).
    max: usize,
    next: u64,
    connections: HashMap<u64, Entry>,
    /// Connections closed to make room since this was last told.
    shed: usize,
}

struct Entry {
    /// When it opened, or last began or ended a request.
    since: Instant,
    /// Whether it has been answered a request that carried a valid link.
    proven: bool,
    /// Closes it; taken when it is closed to make room.
    close: Option<oneshot::Sender<()>>,
}

/// One connection's place in the [`Register`], given back when dropped.
struct Place {
    register: Register,
    id: u64,
}

impl Register {
    fn new(max: usize) -> Register {
        Register(Arc::new(Mutex::new(Open {
            max: max.max(1),
            next: 0,
            connections: HashMap::new(),
            shed: 0,
        })))
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection, and what tells it to close; when the
    /// register is full, the connection not proven that has shown no sign
    /// of life the longest is told to close to make room.
    fn admit(&self, now: Instant) -> Admission {
        let mut open = self.open();
        let open = &mut *open;
        let closing = open
            .connections
            .values()
            .filter(|e| e.close.is_none())
            .count();
        if open.connections.len() - closing >= open.max {
            if closing >= CLOSING {
                return Admission::Closing;
            }
            let oldest = open
                .connections
                .values_mut()
                .filter(|e| !e.proven && e.close.is_some())
                .min_by_key(|e| e.since);
            let Some(oldest) = oldest else {
                return Admission::Full;
            };
            if let Some(close) = oldest.close.take() {
                // Its task may have ended already: no matter.
                let _ = close.send(());
            }
            open.shed += 1;
        }
        let id = open.next;
        open.next += 1;
        let (close, closed) = oneshot::channel();
        open.connections.insert(
            id,
            Entry {
                since: now,
                proven: false,
                close: Some(close),
            },
        );
        let place = Place {
            register: self.clone(),
            id,
        };
        Admission::In(place, closed)
    }

    /// [`Register::admit`], waiting while those closed to make room end.
    async fn wait_admit(&self) -> Option<(Place, oneshot::Receiver<()>)> {
        let deadline = Instant::now() + CLOSING_WAIT;
        loop {
            match self.admit(Instant::now()) {
                Admission::In(place, closed) => return Some((place, closed)),
                Admission::Closing if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                Admission::Closing | Admission::Full => return None,
            }
        }
    }

    /// The connections closed to make room since the last call.
    fn shed(&self) -> usize {
        std::mem::take(&mut self.open().shed)
    }
}

impl Place {
    /// A sign of life at `now`: a request begun or answered; `proven` when
    /// it was answered and carried a valid link.
    fn lives(&self, now: Instant, proven: bool) {
        if let Some(entry) = self.register.open().connections.get_mut(&self.id) {
            entry.since = now;
            entry.proven |= proven;
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.register.open().connections.remove(&self.id);
    }
}

tokio::task_local! {
    /// Whether a route has read the bearer token of the request being
    /// answered.
    static TOKEN_READ: Cell<bool>;
}

/// Tells `report`, once a second, how many connections `register` closed
/// to make room in that second, if any.
async fn tell_shed(register: Register, max: usize, report: Arc<dyn Fn(String) + Send + Sync>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let shed = register.shed();
        if shed > 0 {
            report(format!(
                "dropped {shed} of the connections idle or incomplete the longest, to let new ones in: {max} connections already open (--max-connections)"
            ));
        }
    }
}

/// Serves `router` on `listener` within `limits`, over TLS when `tls` is
/// given, until `stop` completes; then lets the requests under way finish,
/// for two seconds at most. Each connection dropped is told to `report`,
/// in words: "dropped 127.0.0.1:5555: headers not complete within 10 s";
/// those closed to make room for new ones are counted, once a second.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    report: Arc<dyn Fn(String) + Send + Sync>,
    stop: impl std::future::Future<Output = ()>,
) {
    let router = with_body_deadline(router, limits.body_timeout);
    let register = Register::new(limits.max_connections);
    let teller = tokio::spawn(tell_shed(
        register.clone(),
        limits.max_connections,
        report.clone(),
    ));
    let per_address = PerAddress::default();
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before
                    // it was accepted: wait a little rather than spin.
                    report(format!("cannot accept a connection: {error}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(slot) = per_address.take(peer.ip(), limits.max_per_address) else {
            report(format!(
                "dropped {peer}: {} connections from {} already open (--max-per-address)",
                limits.max_per_address,
                peer.ip()
            ));
            continue;
        };
        let Some((place, closed)) = register.wait_admit().await else {
            report(format!(
                "dropped {peer}: {} connections already open (--max-connections)",
                limits.max_connections
            ));
            continue;
        };
        let place = Arc::new(place);
        let connection = Connection {
            peer,
            router: router.clone(),
            http: http.clone(),
            limits,
            report: report.clone(),
            watcher: graceful.watcher(),
            place: place.clone(),
        };
        let tls = tls.clone();
        tokio::spawn(async move {
            let _held = (place, slot);
            let served = async move {
                match tls {
                    None => connection.run(stream).await,
                    Some(acceptor) => {
                        let handshake =
                            tokio::time::timeout(limits.header_timeout, acceptor.accept(stream))
                                .await;
                        match handshake {
                            Ok(Ok(stream)) => connection.run(stream).await,
                            Ok(Err(error)) => (connection.report)(format!(
                                "dropped {peer}: TLS handshake: {error}"
                            )),
                            Err(_) => (connection.report)(format!(
                                "dropped {peer}: TLS handshake not complete within {}",
                                seconds(limits.header_timeout)
                            )),
                        }
                    }
                }
            };
            // Closed to make room: dropping the connection closes it, and
            // the count of those is told once a second.
            tokio::select! {
                () = served => {}
                _ = closed => {}
            }
        });
    }
    drop(listener);
    teller.abort();
    let _ = tokio::time::timeout(GRACE, graceful.shutdown()).await;
}

/// One accepted connection, and what serving it needs.
struct Connection {
    peer: SocketAddr,
    router: Router,
    http: hyper::server::conn::http1::Builder,
    limits: Limits,
    report: Arc<dyn Fn(String) + Send + Sync>,
    watcher: hyper_util::server::graceful::Watcher,
    place: Arc<Place>,
}

impl Connection {
    async fn run<I: AsyncRead + AsyncWrite + Unpin + Send + 'static>(self, io: I) {
        let Connection {
            peer,
            router,
            http,
            limits,
            report,
            watcher,
            place,
        } = self;
        let told = report.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let router = router.clone();
            let report = told.clone();
            let place = place.clone();
            place.lives(Instant::now(), false);
            // The peer's address, for the handlers that count by address.
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            TOKEN_READ.scope(Cell::new(false), async move {
                let mut response = router.oneshot(request).await?;
                let read = TOKEN_READ.with(Cell::get);
                let proven = read && response.status() != hyper::StatusCode::UNAUTHORIZED;
                place.lives(Instant::now(), proven);
                if response.status() == hyper::StatusCode::REQUEST_TIMEOUT {
                    report(format!(
                        "dropped {peer}: body not complete within {}",
                        seconds(limits.body_timeout)
                    ));
                    response.headers_mut().insert(
                        hyper::header::CONNECTION,
                        hyper::header::HeaderValue::from_static("close"),
                    );
                }
                Ok::<_, std::convert::Infallible>(response)
            })
        });
        let connection = http.serve_connection(TokioIo::new(io), service);
        // A client that goes away (a phone that sleeps mid-stream) is no
        // news; a slow or malformed request is.
        match watcher.watch(connection).await {
            Err(error) if error.is_timeout() => report(format!(
                "dropped {peer}: headers not complete within {}",
                seconds(limits.header_timeout)
            )),
            Err(error) if error.is_parse() || error.is_parse_too_large() => {
                report(format!("dropped {peer}: {error}"));
            }
            _ => {}
        }
    }
}

/// Why a certificate or key cannot serve TLS.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The file cannot be read.
    #[error("{}: cannot read the {what}: {}", path.display(), crate::log::io_reason(error))]
    Read {
        path: PathBuf,
        what: &'static str,
        error: std::io::Error,
    },
    /// The file holds no PEM section of the kind needed.
    #[error("{}: expected a {what} in PEM ({begin}), but found none", path.display())]
    Missing {
        path: PathBuf,
        what: &'static str,
        begin: &'static str,
    },
    /// The file's PEM does not decode.
    #[error("{}: expected a {what} in PEM, but found malformed PEM ({reason})", path.display())]
    Malformed {
        path: PathBuf,
        what: &'static str,
        reason: String,
    },
    /// rustls refuses the pair: a key that is not the certificate's, or
    /// one it cannot use.
    #[error("{} and {}: expected the private key of the certificate, but found {reason}", cert.display(), key.display())]
    Refused {
        cert: PathBuf,
        key: PathBuf,
        reason: String,
    },
}

/// The TLS acceptor for the certificate chain in the PEM file `cert` and
/// the private key (PKCS#8, PKCS#1 or SEC1) in the PEM file `key`.
pub fn tls(cert: &Path, key: &Path) -> Result<TlsAcceptor, TlsError> {
    use rustls::pki_types::pem::{Error as PemError, PemObject};
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let failed = |path: &Path, what: &'static str, begin: &'static str| {
        let path = path.to_owned();
        move |error: PemError| {
            let path = path.clone();
            match error {
                PemError::Io(error) => TlsError::Read { path, what, error },
                PemError::NoItemsFound => TlsError::Missing { path, what, begin },
                other => TlsError::Malformed {
                    path,
                    what,
                    reason: other.to_string(),
                },
            }
        }
    };
    let certificate = failed(cert, "certificate", "-----BEGIN CERTIFICATE-----");
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(&certificate)?;
    if chain.is_empty() {
        return Err(certificate(PemError::NoItemsFound));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(failed(
        key,
        "private key",
        "-----BEGIN PRIVATE KEY-----",
    ))?;
    let refused = |error: rustls::Error| TlsError::Refused {
        cert: cert.to_owned(),
        key: key.to_owned(),
        reason: match error {
            rustls::Error::InconsistentKeys(_) => "a key that does not match it".to_owned(),
            other => other.to_string().to_lowercase(),
        },
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(refused)?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(refused)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

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

    /// The page `html` with `script` and `style` put inline at its
    /// `/*SCRIPT*/` and `/*STYLE*/`, under a CSP that allows them alone and
    /// images from the page's own origin.
    pub fn inline(html: &str, script: &str, style: &str) -> Page {
        let csp = csp(script, style, "'self'");
        let html = html
            .replace("/*STYLE*/", style)
            .replace("/*SCRIPT*/", script);
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
/// else carried a valid link, and its connection is kept when the server
/// is full (see the module's documentation).
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    // Outside a connection (a router tested in-process) there is none to
    // tell.
    let _ = TOKEN_READ.try_with(|read| read.set(true));
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        // The scheme is case-insensitive (RFC 9110).
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
}

/// A request's body, or why it could not be read: longer than `limit`
/// bytes (it should have held `what`), or not complete in time.
pub fn body(
    body: Result<Bytes, BytesRejection>,
    what: &str,
    limit: usize,
) -> Result<Bytes, super::ApiError> {
    use super::ApiError;
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

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The runtime could not be built.
    #[error("cannot start the server: {0}")]
    Runtime(std::io::Error),
    /// The address cannot be listened on.
    #[error("cannot listen on {listen}: {error}")]
    Listen {
        listen: SocketAddr,
        error: std::io::Error,
    },
}

/// Starts a runtime, listens on `listen`, and serves the router that
/// `ready` builds once the address is bound (it is called inside the
/// runtime, and may print the address), within `limits`, until Ctrl-C;
/// then lets the requests under way finish, as [`serve`] does.
pub fn run<E: From<StartError>>(
    listen: SocketAddr,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    report: Arc<dyn Fn(String) + Send + Sync>,
    ready: impl FnOnce(SocketAddr) -> Result<Router, E>,
) -> Result<(), E> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(StartError::Runtime)?;
    runtime.block_on(async {
        let failed = |error| StartError::Listen { listen, error };
        let listener = TcpListener::bind(listen).await.map_err(failed)?;
        let bound = listener.local_addr().map_err(failed)?;
        let router = ready(bound)?;
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        serve(listener, router, limits, tls, report, stop).await;
        Ok(())
    })
}
