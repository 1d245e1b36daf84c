//! The network edge: accepting connections, with limits, so that slow or
//! idle clients cannot lock the players out, and optional TLS.
//!
//! Each part is the ecosystem's; this module only joins them:
//! - hyper's HTTP/1 server ends a connection whose request headers are not
//!   complete within [`Limits::header_timeout`], counted from when it opens
//!   or its last answer ends: a half-sent request and an idle keep-alive
//!   connection alike;
//! - tower-http's `RequestBodyDeadlineLayer` ends a body that is not
//!   complete within [`Limits::body_timeout`] (the server answers 408);
//! - a count per peer address caps each address's share of the
//!   connections, so that one address cannot take every slot (tower's
//!   limits count requests, not connections);
//! - a register of the open connections caps how many are open at once,
//!   and how many one link holds (`register`). A connection is tied to a
//!   link once a route has read its request's bearer token ([`bearer`])
//!   and answered anything but 401. A connection with a request under way
//!   (queued or being answered) is never closed to make room. When the
//!   register is full, a new connection takes the place of the one with
//!   none under way, not tied to a link, that has shown no sign of life
//!   the longest (opened, or began or ended a request, the longest ago),
//!   idle or half-sent alike; when every such one is tied, the place of
//!   the oldest idle connection of the link that holds the most; and when
//!   every open connection is busy, it is answered 503 with
//!   `Retry-After`, never cut. A link beyond [`Limits::max_per_token`]
//!   loses its oldest idle connection, or its oldest live stream, which
//!   its page opens again. So slow sockets from many addresses, however
//!   many, only ever push one another out, one link cannot hold the room,
//!   and a player's page gets in;
//! - a connection told to close is closed gracefully: a request that
//!   began in the instant it was chosen is answered first;
//! - tower-http's `CompressionLayer` compresses the answers as the client
//!   accepts (`wire`);
//! - when the server stops, the requests under way finish (two seconds
//!   at most);
//! - tokio-rustls (rustls with ring) speaks TLS when given a certificate.
//!
//! What every answer of an HTTP edge shares is here too, for the table's
//! server and the studio alike: the headers of [`secure`], a page's
//! [`csp`], the [`bearer`] token and a request's [`body`] within limits.
//!
//! What is dropped, and why, is told to a `report` function: the command
//! line prints it on stderr. An idle keep-alive connection closed at its
//! time limit is normal, and not told. Of every other kind of drop, the
//! first is told at once, with its address; the later ones are counted,
//! and told together once a minute at most, and when the server stops.
//!
//! Its files:
//! - `mod.rs`: accepting connections, the 503 of a full server, [`serve`]
//!   and [`run`];
//! - `register`: the register of open connections, and which one goes;
//! - `wire`: what is compressed, and how;
//! - `limits`: [`Limits`], sized from the [`Pages`] a server shows;
//! - `told`: what is dropped, told once in full, then counted;
//! - `tls`: a certificate and key made into a TLS acceptor;
//! - `answer`: what every answer shares ([`secure`], [`csp`], [`Page`],
//!   [`bearer`], [`body`]);
//! - `tests`: the unit tests of the sizing, the shedding and the counts.

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tower::ServiceExt;

mod answer;
mod limits;
mod register;
#[cfg(test)]
mod tests;
mod tls;
mod told;
pub mod wire;

pub use answer::{Asked, Page, bearer, body, csp, query, secure};
pub use limits::{LEAST_CONNECTIONS, Limits, Pages};
use register::{Busy, Close, Link, Place, Register, tell_shed};
pub use tls::{TlsError, tls};
use told::{Dropped, Teller};

/// How long requests under way may take to finish once the server stops;
/// the live streams never finish by themselves.
const GRACE: Duration = Duration::from_secs(2);

/// How often, at most, the drops counted are told.
const TELL_EVERY: Duration = Duration::from_secs(60);

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

/// An answer's body, which keeps its request under way until it is sent
/// (or its connection ends): a live stream's, for as long as it streams.
struct Sending {
    body: axum::body::Body,
    _busy: Option<Busy>,
}

impl hyper::body::Body for Sending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// A connection's bytes, noting whether a request has begun to arrive
/// since the last answer was written: a connection closed at its header
/// time limit with none is an idle keep-alive one, closed as it should be.
struct Heard<I> {
    io: I,
    begun: Arc<AtomicBool>,
}

impl<I: AsyncRead + Unpin> AsyncRead for Heard<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.begun.store(true, Ordering::Relaxed);
        }
        polled
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Heard<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.begun.store(false, Ordering::Relaxed);
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.begun.store(false, Ordering::Relaxed);
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

tokio::task_local! {
    /// The bearer token a route has read from the request being answered:
    /// `None` until one reads it, then the token, empty when there was
    /// none.
    static TOKEN_READ: RefCell<Option<Link>>;
}

/// Tells `teller`'s counts once a minute, when there are any.
async fn tell_counts(teller: Arc<Teller>) {
    let mut tick = tokio::time::interval(TELL_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is at once.
    tick.tick().await;
    loop {
        tick.tick().await;
        teller.tell(Instant::now());
    }
}

/// Connections refused with an answer at once, at most: beyond them, a
/// connection refused for want of a place is closed without one.
const REFUSING: usize = 64;

/// One of the connections being refused with an answer, given back when
/// dropped.
struct Refusing(Arc<AtomicUsize>);

impl Refusing {
    fn take(count: &Arc<AtomicUsize>) -> Option<Refusing> {
        let taken = count.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < REFUSING).then_some(n + 1)
        });
        taken.ok().map(|_| Refusing(count.clone()))
    }
}

impl Drop for Refusing {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What a connection was given: a place in the register, or a refusal,
/// answered 503.
enum Seat {
    Placed(Arc<Place>),
    Refused(#[allow(dead_code)] Refusing),
}

/// The words of the answer to a connection refused for want of a place.
fn refused_words(max: usize) -> String {
    format!(
        "expected a free connection, but found all {max} that the server keeps open at once busy or held by a valid link (--max-connections); try again in a second"
    )
}

/// The answer to a request on a connection refused for want of a place:
/// 503, to be tried again in a second, and the connection closed.
async fn refusal(max: usize) -> Response {
    let mut response =
        crate::serve::ApiError::Other(StatusCode::SERVICE_UNAVAILABLE, refused_words(max))
            .into_response();
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    secure(response).await
}

/// Serves `router` on `listener` within `limits`, over TLS when `tls` is
/// given, its answers compressed as each client accepts ([`wire`]), until
/// `stop` completes; then lets the requests under way finish, for two
/// seconds at most. What is dropped is told to `report`, in words: the
/// first of each kind at once ("dropped 127.0.0.1:5555: headers not
/// complete within 10 s"), the later ones counted, once a minute at most
/// and when it stops; idle keep-alive connections closed at their time
/// limit are not told.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    tls: Option<TlsAcceptor>,
    report: Arc<dyn Fn(String) + Send + Sync>,
    stop: impl std::future::Future<Output = ()>,
) {
    let router = wire::compressed(with_body_deadline(router, limits.body_timeout));
    let register = Register::new(&limits);
    let teller = Arc::new(Teller::new(report.clone(), limits));
    let counts = tokio::spawn(tell_counts(teller.clone()));
    let per_address = PerAddress::default();
    let refusing = Arc::new(AtomicUsize::new(0));
    // Each connection holds a receiver; all are dropped once every
    // connection has ended.
    let (stopping, _) = tokio::sync::watch::channel(false);
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
            teller.dropped(Dropped::Address, || {
                format!(
                    "dropped {peer}: {} connections from {} already open (--max-per-address)",
                    limits.max_per_address,
                    peer.ip()
                )
            });
            continue;
        };
        let (seat, closed) = match register.wait_admit(peer, &teller).await {
            Ok((place, closed)) => (Seat::Placed(Arc::new(place)), Some(closed)),
            Err(_) => {
                teller.dropped(Dropped::Full, || {
                    format!(
                        "refused {peer} (503): {} connections already open, each busy or held by a valid link (--max-connections)",
                        limits.max_connections
                    )
                });
                let Some(refused) = Refusing::take(&refusing) else {
                    continue;
                };
                (Seat::Refused(refused), None)
            }
        };
        let connection = Connection {
            peer,
            router: router.clone(),
            http: http.clone(),
            limits,
            teller: teller.clone(),
            place: match &seat {
                Seat::Placed(place) => Some(place.clone()),
                Seat::Refused(_) => None,
            },
        };
        let (tls, stopping) = (tls.clone(), stopping.subscribe());
        tokio::spawn(async move {
            let _held = (seat, slot);
            let mut closed = closed;
            let Some(acceptor) = tls else {
                return connection.run(stream, closed, stopping).await;
            };
            let handshake = tokio::time::timeout(limits.header_timeout, acceptor.accept(stream));
            let handshake = tokio::select! {
                handshake = handshake => handshake,
                // Closed to make room before it said anything.
                _ = told_to_close(&mut closed) => return,
            };
            match handshake {
                Ok(Ok(stream)) => connection.run(stream, closed, stopping).await,
                Ok(Err(error)) => connection.teller.dropped(Dropped::Tls, || {
                    format!("dropped {peer}: TLS handshake: {error}")
                }),
                Err(_) => connection.teller.dropped(Dropped::Tls, || {
                    format!(
                        "dropped {peer}: TLS handshake not complete within {}",
                        seconds(limits.header_timeout)
                    )
                }),
            }
        });
    }
    drop(listener);
    counts.abort();
    stopping.send_replace(true);
    let _ = tokio::time::timeout(GRACE, stopping.closed()).await;
    teller.tell(Instant::now());
}

/// How the register tells a connection to close, once it does; never
/// when it has no place (or was told already).
async fn told_to_close(closed: &mut Option<oneshot::Receiver<Close>>) -> Close {
    if let Some(receiver) = closed.as_mut()
        && let Ok(close) = receiver.await
    {
        *closed = None;
        return close;
    }
    *closed = None;
    std::future::pending().await
}

/// One accepted connection, and what serving it needs: its place in the
/// register, or none when it is refused.
struct Connection {
    peer: SocketAddr,
    router: Router,
    http: hyper::server::conn::http1::Builder,
    limits: Limits,
    teller: Arc<Teller>,
    place: Option<Arc<Place>>,
}

impl Connection {
    /// Serves the connection until it ends, or until it is told to close
    /// (`closed`) or the server stops (`stopping`): then gracefully, so
    /// that a request under way is answered first, but at once for a live
    /// stream told to close.
    async fn run<I: AsyncRead + AsyncWrite + Unpin + Send + 'static>(
        self,
        io: I,
        mut closed: Option<oneshot::Receiver<Close>>,
        mut stopping: tokio::sync::watch::Receiver<bool>,
    ) {
        let Connection {
            peer,
            router,
            http,
            limits,
            teller,
            place,
        } = self;
        let told = teller.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let router = router.clone();
            let teller = told.clone();
            let place = place.clone();
            let busy = place.as_ref().map(|place| place.begin(Instant::now()));
            // The peer's address, for the handlers that count by address.
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            TOKEN_READ.scope(RefCell::new(None), async move {
                let Some(place) = place else {
                    return Ok(refusal(limits.max_connections).await);
                };
                let response = router.oneshot(request).await?;
                let read = TOKEN_READ.with(|read| read.borrow_mut().take());
                let valid = response.status() != hyper::StatusCode::UNAUTHORIZED;
                let streaming = (response.headers().get(header::CONTENT_TYPE))
                    .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
                let link = read.filter(|_| valid);
                if let Some(shed) = place.answered(Instant::now(), link, streaming) {
                    tell_shed(&teller, &shed);
                }
                let mut response =
                    response.map(|body| axum::body::Body::new(Sending { body, _busy: busy }));
                if response.status() == hyper::StatusCode::REQUEST_TIMEOUT {
                    teller.dropped(Dropped::Body, || {
                        format!(
                            "dropped {peer}: body not complete within {}",
                            seconds(limits.body_timeout)
                        )
                    });
                    response.headers_mut().insert(
                        hyper::header::CONNECTION,
                        hyper::header::HeaderValue::from_static("close"),
                    );
                }
                Ok::<_, std::convert::Infallible>(response)
            })
        });
        let begun = Arc::new(AtomicBool::new(false));
        let io = Heard {
            io,
            begun: begun.clone(),
        };
        let connection = http.serve_connection(TokioIo::new(io), service);
        tokio::pin!(connection);
        let mut stopped = false;
        let served = loop {
            tokio::select! {
                served = connection.as_mut() => break served,
                close = told_to_close(&mut closed) => match close {
                    // A live stream: its page opens it again.
                    Close::Now => return,
                    Close::Gracefully => connection.as_mut().graceful_shutdown(),
                },
                _ = stopping.changed(), if !stopped => {
                    stopped = true;
                    connection.as_mut().graceful_shutdown();
                }
            }
        };
        // A client that goes away (a phone that sleeps mid-stream) is no
        // news, nor is an idle keep-alive connection closed at its time
        // limit; a slow or malformed request is.
        match served {
            Err(error) if error.is_timeout() && begun.load(Ordering::Relaxed) => {
                teller.dropped(Dropped::Headers, || {
                    format!(
                        "dropped {peer}: headers not complete within {}",
                        seconds(limits.header_timeout)
                    )
                });
            }
            Err(error) if error.is_parse() || error.is_parse_too_large() => {
                teller.dropped(Dropped::Malformed, || format!("dropped {peer}: {error}"));
            }
            _ => {}
        }
    }
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
