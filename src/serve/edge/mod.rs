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
//!   and how many one link holds. A connection is tied to a link once a
//!   route has read its request's bearer token ([`bearer`]) and answered
//!   anything but 401; it is then only closed by its own time limits, or
//!   to keep its link within [`Limits::max_per_token`], or when every
//!   open connection is tied. When the register is full, a new connection
//!   takes the place of the one not tied to a link that has shown no sign
//!   of life the longest (opened, or began or ended a request, the longest
//!   ago), idle or half-sent alike; when every open connection is tied,
//!   the place of the oldest idle connection of the link that holds the
//!   most. So slow sockets from many addresses, however many, only ever
//!   push one another out, one link cannot hold the room, and a player's
//!   page gets in;
//! - hyper-util's graceful shutdown lets requests under way finish;
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
//! - `mod.rs`: the register of open connections, [`serve`] and [`run`];
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
use std::sync::atomic::{AtomicBool, Ordering};
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
#[cfg(test)]
mod tests;
mod tls;
mod told;

pub use answer::{Page, bearer, body, csp, secure};
pub use limits::{LEAST_CONNECTIONS, Limits, Pages};
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
    /// No: every open connection is tied to a link, and none may go.
    Full,
}

/// A link's key in the register: its bearer token, or for a connection
/// answered without one (the studio's cookie), the empty key, which no
/// bearer token is.
type Link = Arc<str>;

/// A connection closed to make room or to keep its link within bounds:
/// its peer, why, and how many its link held (none when not tied).
struct Shed {
    peer: SocketAddr,
    why: Dropped,
    held: usize,
    idle: bool,
}

/// The connections open at once, each with when it last showed a sign of
/// life and the link it is tied to, if any, so that a new connection may
/// take the place of the one idle or incomplete the longest.
#[derive(Clone)]
struct Register(Arc<Mutex<Open>>);

struct Open {
    /// Connections open at once, at most (`--max-connections`).
    max: usize,
    /// Connections tied to one link at once, at most (`--max-per-token`).
    per_link: usize,
    next: u64,
    connections: HashMap<u64, Entry>,
    /// How many connections not closing each link is tied to.
    held: HashMap<Link, usize>,
}

struct Entry {
    peer: SocketAddr,
    /// When it opened, or last began or ended a request.
    since: Instant,
    /// Requests under way, their answers included: a live stream's
    /// request stays under way as long as it streams.
    busy: u32,
    /// The link it was last answered for, once answered for a valid one.
    link: Option<Link>,
    /// Closes it; taken when it is closed to make room.
    close: Option<oneshot::Sender<()>>,
}

/// One connection's place in the [`Register`], given back when dropped.
struct Place {
    register: Register,
    id: u64,
}

impl Open {
    /// Closes connection `id` (its task may have ended already: no
    /// matter), and takes it off its link's count.
    fn close(&mut self, id: u64, why: Dropped) -> Option<Shed> {
        let entry = self.connections.get_mut(&id)?;
        let close = entry.close.take()?;
        let _ = close.send(());
        let mut held = 0;
        if let Some(link) = &entry.link {
            held = self.held.get(link).copied().unwrap_or(0);
            untie(&mut self.held, link);
        }
        Some(Shed {
            peer: entry.peer,
            why,
            held,
            idle: entry.busy == 0,
        })
    }

    /// The connection to close to make room, and why: the one not tied to
    /// a link that has shown no sign of life the longest; or when every
    /// one is tied, of the link that holds the most, the oldest idle one
    /// (a busy one only of a link that holds more than one).
    fn to_make_room(&self) -> Option<(u64, Dropped)> {
        let open = || self.connections.iter().filter(|(_, e)| e.close.is_some());
        let untied = open().filter(|(_, e)| e.link.is_none());
        if let Some((id, _)) = untied.min_by_key(|(_, e)| e.since) {
            return Some((*id, Dropped::Room));
        }
        open()
            .filter_map(|(id, e)| {
                let held = e.link.as_ref().and_then(|l| self.held.get(l)).copied()?;
                (e.busy == 0 || held > 1)
                    .then_some((*id, (std::cmp::Reverse(held), e.busy > 0, e.since)))
            })
            .min_by_key(|(_, key)| *key)
            .map(|(id, _)| (id, Dropped::Heaviest))
    }
}

/// Takes one connection off `link`'s count.
fn untie(held: &mut HashMap<Link, usize>, link: &Link) {
    if let Some(n) = held.get_mut(link) {
        *n -= 1;
        if *n == 0 {
            held.remove(link);
        }
    }
}

impl Register {
    fn new(limits: &Limits) -> Register {
        Register(Arc::new(Mutex::new(Open {
            max: limits.max_connections.max(1),
            per_link: limits.max_per_token.max(1),
            next: 0,
            connections: HashMap::new(),
            held: HashMap::new(),
        })))
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection from `peer`, and what tells it to
    /// close; when the register is full, the connection chosen by
    /// [`Open::to_make_room`] is told to close to make room, and returned.
    fn admit(&self, now: Instant, peer: SocketAddr) -> (Admission, Option<Shed>) {
        let mut open = self.open();
        let open = &mut *open;
        let closing = open
            .connections
            .values()
            .filter(|e| e.close.is_none())
            .count();
        let mut shed = None;
        if open.connections.len() - closing >= open.max {
            if closing >= CLOSING {
                return (Admission::Closing, None);
            }
            let Some((id, why)) = open.to_make_room() else {
                return (Admission::Full, None);
            };
            shed = open.close(id, why);
        }
        let id = open.next;
        open.next += 1;
        let (close, closed) = oneshot::channel();
        open.connections.insert(
            id,
            Entry {
                peer,
                since: now,
                busy: 0,
                link: None,
                close: Some(close),
            },
        );
        let place = Place {
            register: self.clone(),
            id,
        };
        (Admission::In(place, closed), shed)
    }

    /// [`Register::admit`], waiting while those closed to make room end;
    /// each one closed is told to `teller`.
    async fn wait_admit(
        &self,
        peer: SocketAddr,
        teller: &Teller,
    ) -> Option<(Place, oneshot::Receiver<()>)> {
        let deadline = Instant::now() + CLOSING_WAIT;
        loop {
            let (admission, shed) = self.admit(Instant::now(), peer);
            if let Some(shed) = shed {
                tell_shed(teller, &shed);
            }
            match admission {
                Admission::In(place, closed) => return Some((place, closed)),
                Admission::Closing if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                Admission::Closing | Admission::Full => return None,
            }
        }
    }
}

/// Tells `teller` of a connection closed to make room, or to keep its
/// link within bounds.
fn tell_shed(teller: &Teller, shed: &Shed) {
    let Shed {
        peer,
        why,
        held,
        idle,
    } = *shed;
    let max = teller.limits.max_connections;
    let oldest = if idle {
        "the oldest idle"
    } else {
        "the oldest"
    };
    teller.dropped(why, || match why {
        Dropped::Heaviest => format!(
            "dropped {peer}: {oldest} connection of the link holding the most ({held}), to let new ones in: {max} connections already open (--max-connections)"
        ),
        Dropped::Token => format!(
            "dropped {peer}: {oldest} connection of a link holding more than {} (--max-per-token)",
            teller.limits.max_per_token
        ),
        _ => format!(
            "dropped {peer}: the connection idle or incomplete the longest, to let new ones in: {max} connections already open (--max-connections)"
        ),
    });
}

impl Place {
    /// A request begun at `now`: the connection is busy until what is
    /// returned is dropped, with the answer's body.
    fn begin(self: &Arc<Place>, now: Instant) -> Busy {
        if let Some(entry) = self.register.open().connections.get_mut(&self.id) {
            entry.since = now;
            entry.busy += 1;
        }
        Busy(self.clone())
    }

    /// A request answered at `now`; for a valid link's, `link`, which the
    /// connection is then tied to. When that link then holds more than
    /// its share, its oldest idle connection other than this one is closed,
    /// and returned.
    fn answered(&self, now: Instant, link: Option<Link>) -> Option<Shed> {
        let mut open = self.register.open();
        let open = &mut *open;
        let entry = open.connections.get_mut(&self.id)?;
        entry.since = now;
        let link = link?;
        if entry.close.is_none() || entry.link.as_ref() == Some(&link) {
            return None;
        }
        if let Some(old) = entry.link.replace(link.clone()) {
            untie(&mut open.held, &old);
        }
        let held = open.held.entry(link.clone()).or_insert(0);
        *held += 1;
        if *held <= open.per_link {
            return None;
        }
        let oldest = (open.connections.iter())
            .filter(|(id, e)| {
                **id != self.id && e.close.is_some() && e.link.as_ref() == Some(&link)
            })
            .min_by_key(|(_, e)| (e.busy > 0, e.since))
            .map(|(id, _)| *id)?;
        open.close(oldest, Dropped::Token)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.register.open();
        let open = &mut *open;
        if let Some(entry) = open.connections.remove(&self.id)
            && entry.close.is_some()
            && let Some(link) = &entry.link
        {
            untie(&mut open.held, link);
        }
    }
}

/// A request under way on a connection, its answer's body included.
struct Busy(Arc<Place>);

impl Drop for Busy {
    fn drop(&mut self) {
        let place = &self.0;
        if let Some(entry) = place.register.open().connections.get_mut(&place.id) {
            entry.since = Instant::now();
            entry.busy = entry.busy.saturating_sub(1);
        }
    }
}

/// An answer's body, which keeps its request under way until it is sent
/// (or its connection ends): a live stream's, for as long as it streams.
struct Sending {
    body: axum::body::Body,
    _busy: Busy,
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

/// Serves `router` on `listener` within `limits`, over TLS when `tls` is
/// given, until `stop` completes; then lets the requests under way finish,
/// for two seconds at most. What is dropped is told to `report`, in words:
/// the first of each kind at once ("dropped 127.0.0.1:5555: headers not
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
    let router = with_body_deadline(router, limits.body_timeout);
    let register = Register::new(&limits);
    let teller = Arc::new(Teller::new(report.clone(), limits));
    let counts = tokio::spawn(tell_counts(teller.clone()));
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
            teller.dropped(Dropped::Address, || {
                format!(
                    "dropped {peer}: {} connections from {} already open (--max-per-address)",
                    limits.max_per_address,
                    peer.ip()
                )
            });
            continue;
        };
        let Some((place, closed)) = register.wait_admit(peer, &teller).await else {
            teller.dropped(Dropped::Full, || {
                format!(
                    "dropped {peer}: {} connections already open, each held by a valid link (--max-connections)",
                    limits.max_connections
                )
            });
            continue;
        };
        let place = Arc::new(place);
        let connection = Connection {
            peer,
            router: router.clone(),
            http: http.clone(),
            limits,
            teller: teller.clone(),
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
                    }
                }
            };
            // Closed to make room: dropping the connection closes it; it
            // was told when it was chosen.
            tokio::select! {
                () = served => {}
                _ = closed => {}
            }
        });
    }
    drop(listener);
    counts.abort();
    let _ = tokio::time::timeout(GRACE, graceful.shutdown()).await;
    teller.tell(Instant::now());
}

/// One accepted connection, and what serving it needs.
struct Connection {
    peer: SocketAddr,
    router: Router,
    http: hyper::server::conn::http1::Builder,
    limits: Limits,
    teller: Arc<Teller>,
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
            teller,
            watcher,
            place,
        } = self;
        let told = teller.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let router = router.clone();
            let teller = told.clone();
            let place = place.clone();
            let busy = place.begin(Instant::now());
            // The peer's address, for the handlers that count by address.
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            TOKEN_READ.scope(RefCell::new(None), async move {
                let response = router.oneshot(request).await?;
                let read = TOKEN_READ.with(|read| read.borrow_mut().take());
                let valid = response.status() != hyper::StatusCode::UNAUTHORIZED;
                if let Some(shed) = place.answered(Instant::now(), read.filter(|_| valid)) {
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
        // A client that goes away (a phone that sleeps mid-stream) is no
        // news, nor is an idle keep-alive connection closed at its time
        // limit; a slow or malformed request is.
        match watcher.watch(connection).await {
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
