//! `cargo bench --bench convention -- --tables 40 --seconds 60`: a room of
//! 62 Soleils tables on one `sunfold serve --event`, played on loopback by
//! clients that behave as the table's page (`src/serve/page.js`) and the
//! room's board (`src/serve/room/page.js`) do, for a bounded time.
//!
//! - Each player's phone behaves as the page does (`--model page`): it
//!   loads its view once (`/api/view`), keeps the live stream
//!   (`/api/stream?view=1`) open, takes each event's `view` (what changed
//!   in its page), fetches the drawings it lacks by hash
//!   (`/api/panels/HASH/phone`, each once: the browser's cache keeps
//!   them), and posts a decision its view offers after 2–5 s of thought.
//!   After a post it waits for the stream to tell its entry, and reloads
//!   the view only if that takes over 3 s. Each phone opens up to 4
//!   connections (a browser opens up to 6), and sends
//!   `Accept-Encoding: gzip, br`.
//! - `--model views`: the older page instead, which reloads its view
//!   (`/api/view?have=…`, with the hashes of the drawings it holds) on each
//!   streamed event, one load at a time, and after its own post.
//! - A dice caller per table, on the referee's link, rolls when its view
//!   offers the dice.
//! - One referee client polls the board (`/api/room`) every 2 s, each poll
//!   waiting for the last answer; as the board's page does, it asks
//!   what changed since the board it holds (`?since=TAG` and
//!   `If-None-Match`), answered 304 while nothing did.
//! - Every client speaks HTTP/1.1 with keep-alive, each phone from its own
//!   loopback address (127.1.x.y), as phones on a wifi have their own.
//!
//! It reports posts per second, the bytes on the phones' wire per
//! acknowledged post (what the phones received, compressed as sent), the
//! latencies of posts, views (the page model: from a post's answer to
//! each page of the table showing it, drawings fetched), the stream
//! (from a post's answer to each other client of the table receiving its
//! event) and the board, the server's CPU, errors by status (a refused
//! decision that the phone's page no longer offered counted apart), and
//! connections refused or dropped. Then it stops the server, checks that
//! every acknowledged post is in its table's log at its seq, and audits
//! every log with `sunfold audit`; it exits non-zero if either fails.
//!
//! Run without `--bench` (as `cargo test --all-targets` does) it does
//! nothing. docs/performance.md records the figures.

use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// A convention's load on `sunfold serve --event`, on loopback.
#[derive(Parser, Debug)]
#[command(name = "convention")]
struct Args {
    /// Tables of the room, each of --table-size players with a phone each.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=2000))]
    tables: u32,
    /// Players at each table.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=6))]
    table_size: u32,
    /// Seconds of play, from the first phone's start; then the phones stop
    /// posting, and the logs are checked.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seconds: u64,
    /// Seconds over which the phones join, one after another.
    #[arg(long, default_value_t = 5)]
    ramp: u64,
    /// The shortest thought before a decision, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    think_min: u64,
    /// The longest thought before a decision, in milliseconds.
    #[arg(long, default_value_t = 5000)]
    think_max: u64,
    /// Run the server under `nice -n -20` (needs root), so that the
    /// generator beside it does not starve it.
    #[arg(long)]
    nice: bool,
    /// One more argument for `sunfold serve`, such as
    /// --server-arg=--max-connections --server-arg=1000; repeatable.
    #[arg(long = "server-arg", value_name = "ARG", allow_hyphen_values = true)]
    server_args: Vec<String>,
    /// The folder of the event and its tables' logs: empty, or one of an
    /// earlier run (emptied first); under the target folder if left out.
    /// It is kept for inspection.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The seed of the phones' choices and dice, and of the event.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the phones' pages behave: `page` as page.js does now (the
    /// stream's changes, drawings fetched by hash), `views` as an older
    /// page (the whole view reloaded on each event).
    #[arg(long, value_enum, default_value_t = Model::Page)]
    model: Model,
    /// Given by `cargo bench`; without it (under `cargo test`) nothing runs.
    #[arg(long, hide = true)]
    bench: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Model {
    Page,
    Views,
}

const SUNFOLD: &str = env!("CARGO_BIN_EXE_sunfold");

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.bench {
        println!("convention: a benchmark; run it with cargo bench --bench convention -- --help");
        return ExitCode::SUCCESS;
    }
    if args.think_min > args.think_max {
        eprintln!(
            "expected --think-min at most --think-max, but found {} > {}",
            args.think_min, args.think_max
        );
        return ExitCode::from(2);
    }
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("convention: {e}");
            ExitCode::FAILURE
        }
    }
}

type Fallible<T> = Result<T, String>;

/// A small, seeded generator (splitmix64): the load needs no more.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }
}

/// Latencies in microseconds, and counts, shared by every client.
#[derive(Default)]
struct Stats {
    post: Mutex<Vec<u64>>,
    view: Mutex<Vec<u64>>,
    /// The dice callers' views: the referee's, with every sheet.
    referee_view: Mutex<Vec<u64>>,
    board: Mutex<Vec<u64>>,
    posts: AtomicU64,
    views: AtomicU64,
    /// Refusals of a decision taken from a page older than an entry the
    /// phone already knew of: the decision was no longer offered.
    stale: AtomicU64,
    /// Other answers than 200, by what was asked and the status.
    errors: Mutex<BTreeMap<(&'static str, u16), u64>>,
    /// Connections that could not be opened.
    refused: AtomicU64,
    /// Connections closed by the server while a request was under way,
    /// or a stream that ended.
    dropped: AtomicU64,
    /// Idle keep-alive connections the server closed, opened again before
    /// the next request (normal).
    reopened: AtomicU64,
    /// Requests with no answer within their time limit.
    timeouts: AtomicU64,
    /// How late the benchmark's own 100 ms ticks came: a starved
    /// benchmark measures its own delays too.
    lag: Mutex<Vec<u64>>,
    /// The drawings fetched by hash (the page model).
    panel: Mutex<Vec<u64>>,
    /// Bytes received, as sent (compressed or not), headers included: by
    /// the players' phones, the dice callers (the referee's link) and the
    /// board.
    phone_wire: Arc<AtomicU64>,
    referee_wire: Arc<AtomicU64>,
    board_wire: Arc<AtomicU64>,
}

impl Stats {
    fn error(&self, what: &'static str, status: StatusCode) {
        *self
            .errors
            .lock()
            .unwrap()
            .entry((what, status.as_u16()))
            .or_default() += 1;
    }
}

fn micros(since: Instant) -> u64 {
    since.elapsed().as_micros() as u64
}

/// A post the server acknowledged.
struct Ack {
    seq: u64,
    /// Which client of the table posted it.
    by: usize,
    at: Instant,
    event: Value,
}

/// What the clients of one table share.
struct Table {
    number: u32,
    path: String,
    acks: Mutex<Vec<Ack>>,
    /// Each streamed event: its seq, the client that received it, when.
    receipts: Mutex<Vec<(u64, usize, Instant)>>,
    /// Each view shown: its seq, the client that shows it, when.
    shown: Mutex<Vec<(u64, usize, Instant)>>,
}

/// A socket that counts the bytes it reads.
struct Counting {
    inner: tokio::net::TcpStream,
    read: Arc<AtomicU64>,
}

impl tokio::io::AsyncRead for Counting {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        let read = buf.filled().len() - before;
        self.read.fetch_add(read as u64, Ordering::Relaxed);
        poll
    }
}

impl tokio::io::AsyncWrite for Counting {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A body's bytes as received, decoded as its `Content-Encoding` says,
/// piece by piece (a stream's events come in pieces).
enum Decoder {
    Plain,
    Gzip(Box<flate2::write::GzDecoder<Vec<u8>>>),
    Brotli(Box<brotli_decompressor::DecompressorWriter<Vec<u8>>>),
}

impl Decoder {
    fn of(headers: &hyper::HeaderMap) -> Decoder {
        match headers.get("content-encoding").map(|v| v.as_bytes()) {
            Some(b"gzip") => Decoder::Gzip(Box::new(flate2::write::GzDecoder::new(Vec::new()))),
            Some(b"br") => Decoder::Brotli(Box::new(brotli_decompressor::DecompressorWriter::new(
                Vec::new(),
                4096,
            ))),
            _ => Decoder::Plain,
        }
    }

    /// The decoded bytes of `piece`, as far as they can be decoded yet.
    fn feed(&mut self, piece: &[u8]) -> Vec<u8> {
        use std::io::Write;
        match self {
            Decoder::Plain => piece.to_vec(),
            Decoder::Gzip(decoder) => {
                let _ = decoder.write_all(piece);
                let _ = decoder.flush();
                std::mem::take(decoder.get_mut())
            }
            Decoder::Brotli(decoder) => {
                let _ = decoder.write_all(piece);
                let _ = decoder.flush();
                std::mem::take(decoder.get_mut())
            }
        }
    }
}

/// One keep-alive HTTP/1.1 connection from a given local address, opened
/// again when the server has closed it.
struct Conn {
    local: IpAddr,
    server: SocketAddr,
    sender: Option<SendRequest<Full<Bytes>>>,
    stats: Arc<Stats>,
    /// Where the bytes it receives are counted.
    wire: Arc<AtomicU64>,
}

enum Failed {
    Refused,
    Dropped,
    TimedOut,
}

impl Conn {
    fn new(local: IpAddr, server: SocketAddr, stats: Arc<Stats>, wire: Arc<AtomicU64>) -> Conn {
        Conn {
            local,
            server,
            sender: None,
            stats,
            wire,
        }
    }

    async fn open(&self) -> std::io::Result<SendRequest<Full<Bytes>>> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(self.local, 0))?;
        let stream = socket.connect(self.server).await?;
        stream.set_nodelay(true)?;
        let stream = Counting {
            inner: stream,
            read: self.wire.clone(),
        };
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(sender)
    }

    /// Sends `method path` with `token` and `body`, and waits for the
    /// answer's headers.
    async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<String>,
        extra: Option<(&str, String)>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, Failed> {
        if let Some(sender) = &mut self.sender
            && (sender.is_closed() || sender.ready().await.is_err())
        {
            self.sender = None;
            self.stats.reopened.fetch_add(1, Ordering::Relaxed);
        }
        if self.sender.is_none() {
            match tokio::time::timeout(Duration::from_secs(10), self.open()).await {
                Ok(Ok(sender)) => self.sender = Some(sender),
                Ok(Err(_)) => {
                    self.stats.refused.fetch_add(1, Ordering::Relaxed);
                    return Err(Failed::Refused);
                }
                Err(_) => {
                    self.stats.refused.fetch_add(1, Ordering::Relaxed);
                    return Err(Failed::TimedOut);
                }
            }
        }
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.server.to_string())
            .header("authorization", format!("Bearer {token}"))
            .header("accept-encoding", "gzip, br");
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        if let Some((name, value)) = extra {
            request = request.header(name, value);
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .expect("a request of known parts");
        let sender = self.sender.as_mut().expect("opened above");
        match sender.send_request(request).await {
            Ok(response) => Ok(response),
            Err(_) => {
                self.sender = None;
                self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                Err(Failed::Dropped)
            }
        }
    }

    /// A whole exchange within `limit`: the status and the body.
    async fn fetch(
        &mut self,
        method: &str,
        path: &str,
        token: &str,
        body: Option<String>,
        limit: Duration,
    ) -> Result<(StatusCode, Bytes), Failed> {
        let exchange = async {
            let response = self.send(method, path, token, body, None).await?;
            let status = response.status();
            let mut decoder = Decoder::of(response.headers());
            match response.into_body().collect().await {
                Ok(body) => Ok((status, Bytes::from(decoder.feed(&body.to_bytes())))),
                Err(_) => Err(Failed::Dropped),
            }
        };
        match tokio::time::timeout(limit, exchange).await {
            Ok(Err(Failed::Dropped)) => {
                // A body cut short: the connection is of no more use.
                if self.sender.is_some() {
                    self.sender = None;
                    self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                }
                Err(Failed::Dropped)
            }
            Ok(answer) => answer,
            Err(_) => {
                self.sender = None;
                self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                Err(Failed::TimedOut)
            }
        }
    }
}

/// What the runner needs of a view: the rest (the drawings) is skipped.
#[derive(Deserialize)]
struct View {
    seq: u64,
    dice_form: bool,
    choices: Vec<Choice>,
    panels: Vec<PanelHash>,
}

#[derive(Deserialize)]
struct Choice {
    group: String,
    event: Value,
}

#[derive(Deserialize)]
struct PanelHash {
    hash: String,
}

/// What a client's page shows, shared by its loader and its hand.
#[derive(Default)]
struct Page {
    view: Option<View>,
    /// Bumped each time a view is shown.
    shown: u64,
    /// The hashes of the drawings held, for `?have=`.
    have: Vec<String>,
    /// The highest seq this client knows was appended: from the stream,
    /// or its own post's answer.
    known: u64,
}

/// One client of a table: a player's phone, or the referee's dice caller.
struct Client {
    table: Arc<Table>,
    /// Its index at the table; the referee's is the table's size.
    index: usize,
    referee: bool,
    token: String,
    local: IpAddr,
    server: SocketAddr,
    stats: Arc<Stats>,
    page: Mutex<Page>,
    /// The stream says the log grew, or a post was answered: load again.
    reload: Notify,
    /// A new view is shown.
    changed: Notify,
    stop: Arc<AtomicBool>,
    think: (u64, u64),
    model: Model,
    /// The page as the stream tells it (the page model): each event's
    /// `view` merged in.
    streamed: Mutex<serde_json::Map<String, Value>>,
    /// The drawings the browser's cache holds, by hash: never fetched
    /// again, their addresses being immutable.
    cache: Mutex<std::collections::HashSet<String>>,
    /// The next load is of the whole view (a lagged or cut stream).
    full: AtomicBool,
    /// Where this client's received bytes are counted.
    wire: Arc<AtomicU64>,
}

impl Client {
    fn conn(&self) -> Conn {
        Conn::new(
            self.local,
            self.server,
            self.stats.clone(),
            self.wire.clone(),
        )
    }

    /// page.js's updates: in the page model, the page the stream told,
    /// its lacking drawings fetched by hash; else (or after a lagged or
    /// cut stream) `load()`, the whole view, kept unless older than the
    /// one shown.
    async fn loader(self: Arc<Self>) {
        let mut conn = self.conn();
        let mut drawings = self.conn();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let full = self.full.swap(false, Ordering::SeqCst);
            let streamed = (self.model == Model::Page && !full)
                .then(|| self.streamed.lock().unwrap().clone())
                .filter(|model| model.contains_key("panels"));
            match streamed {
                Some(model) => self.update(&mut drawings, model).await,
                None => self.load(&mut conn).await,
            }
            self.reload.notified().await;
        }
    }

    /// The page the stream told, shown once the drawings it lacks are
    /// fetched.
    async fn update(&self, conn: &mut Conn, model: serde_json::Map<String, Value>) {
        let Ok(view) = serde_json::from_value::<View>(Value::Object(model)) else {
            self.stats.error("streamed view unreadable", StatusCode::OK);
            return;
        };
        let layout = if self.referee { "wide" } else { "phone" };
        for panel in &view.panels {
            if self.cache.lock().unwrap().contains(&panel.hash) {
                continue;
            }
            let path = format!("{}/api/panels/{}/{layout}", self.table.path, panel.hash);
            let start = Instant::now();
            let answer = conn
                .fetch("GET", &path, &self.token, None, Duration::from_secs(60))
                .await;
            match answer {
                Ok((StatusCode::OK, _)) => {
                    self.stats.panel.lock().unwrap().push(micros(start));
                    self.cache.lock().unwrap().insert(panel.hash.clone());
                }
                Ok((status, _)) => {
                    self.stats.error("panel", status);
                    self.full.store(true, Ordering::SeqCst);
                    self.reload.notify_one();
                    return;
                }
                Err(_) => {
                    self.full.store(true, Ordering::SeqCst);
                    self.reload.notify_one();
                    return;
                }
            }
        }
        self.show(view);
    }

    /// `load()` of page.js: the whole view.
    async fn load(&self, conn: &mut Conn) {
        let have = self.page.lock().unwrap().have.join(",");
        let path = if have.is_empty() {
            format!("{}/api/view", self.table.path)
        } else {
            format!("{}/api/view?have={have}", self.table.path)
        };
        let start = Instant::now();
        let answer = conn
            .fetch("GET", &path, &self.token, None, Duration::from_secs(60))
            .await;
        if let Ok((status, body)) = answer {
            if status == StatusCode::OK {
                let views = if self.referee {
                    &self.stats.referee_view
                } else {
                    &self.stats.view
                };
                views.lock().unwrap().push(micros(start));
                self.stats.views.fetch_add(1, Ordering::Relaxed);
                match serde_json::from_slice::<View>(&body) {
                    Ok(view) => {
                        let mut cache = self.cache.lock().unwrap();
                        cache.extend(view.panels.iter().map(|p| p.hash.clone()));
                        drop(cache);
                        self.show(view);
                    }
                    Err(_) => self.stats.error("view unreadable", StatusCode::OK),
                }
            } else {
                self.stats.error("view", status);
            }
        }
    }

    fn show(&self, view: View) {
        let mut page = self.page.lock().unwrap();
        page.have = view.panels.iter().map(|p| p.hash.clone()).collect();
        // A stale page never replaces a newer one (page.js compares the
        // seqs of views alone).
        if page.view.as_ref().is_some_and(|shown| view.seq < shown.seq) {
            return;
        }
        self.table
            .shown
            .lock()
            .unwrap()
            .push((view.seq, self.index, Instant::now()));
        page.view = Some(view);
        page.shown += 1;
        drop(page);
        self.changed.notify_one();
    }

    /// `listen()` of page.js: the live stream, opened again 2 s after it
    /// ends, with the last event's id.
    async fn listener(self: Arc<Self>) {
        let mut last: Option<String> = None;
        while !self.stop.load(Ordering::Relaxed) {
            let mut conn = self.conn();
            let extra = last.clone().map(|id| ("last-event-id", id));
            let path = match self.model {
                Model::Page => format!("{}/api/stream?view=1", self.table.path),
                Model::Views => format!("{}/api/stream", self.table.path),
            };
            if let Ok(response) = conn.send("GET", &path, &self.token, None, extra).await {
                if response.status() != StatusCode::OK {
                    self.stats.error("stream", response.status());
                } else {
                    // A new stream tells the whole page with its first
                    // event.
                    self.streamed.lock().unwrap().clear();
                    let decoder = Decoder::of(response.headers());
                    self.read(response.into_body(), decoder, &mut last).await;
                    if !self.stop.load(Ordering::Relaxed) {
                        self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            tokio::time::sleep(Duration::from_secs(2)).await;
            self.full.store(true, Ordering::SeqCst);
            self.reload.notify_one();
        }
    }

    async fn read(
        &self,
        mut body: hyper::body::Incoming,
        mut decoder: Decoder,
        last: &mut Option<String>,
    ) {
        let mut buffer = String::new();
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let now = Instant::now();
            buffer.push_str(&String::from_utf8_lossy(&decoder.feed(&data)));
            let mut grew = false;
            while let Some(end) = buffer.find("\n\n") {
                let part: String = buffer.drain(..end + 2).collect();
                let mut event = "";
                let mut id = None;
                let mut data = None;
                for line in part.lines() {
                    if let Some(name) = line.strip_prefix("event:") {
                        event = name.trim();
                    } else if let Some(value) = line.strip_prefix("id:") {
                        id = Some(value.trim().to_owned());
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data = Some(value.trim());
                    }
                }
                if event != "appended" && event != "lagged" {
                    continue;
                }
                grew = true;
                if self.model == Model::Page {
                    let told = (event == "appended")
                        .then(|| data.and_then(|d| serde_json::from_str::<Value>(d).ok()))
                        .flatten();
                    match told.as_ref().and_then(|t| t["view"].as_object()) {
                        Some(view) => {
                            let mut streamed = self.streamed.lock().unwrap();
                            for (key, value) in view {
                                if value.is_null() {
                                    streamed.remove(key);
                                } else {
                                    streamed.insert(key.clone(), value.clone());
                                }
                            }
                        }
                        None => self.full.store(true, Ordering::SeqCst),
                    }
                }
                if let Some(id) = id {
                    if let Ok(seq) = id.parse::<u64>() {
                        self.table
                            .receipts
                            .lock()
                            .unwrap()
                            .push((seq, self.index, now));
                        let mut page = self.page.lock().unwrap();
                        page.known = page.known.max(seq);
                    }
                    *last = Some(id);
                }
            }
            if grew {
                self.reload.notify_one();
            }
        }
    }

    /// What this client would tap on the page shown: a player any
    /// decision but an undo; the referee the dice, when they are due.
    fn offer(&self, view: &View, dice: &mut Dice) -> Option<Value> {
        if self.referee {
            if !view.dice_form {
                return None;
            }
            if let Some(roll) = view.choices.iter().find(|c| c.group == "roll") {
                return Some(roll.event.clone());
            }
            let thrown: Vec<u64> = (0..3).map(|_| dice.between(1, 6)).collect();
            return Some(serde_json::json!({"type": "rolled", "dice": thrown}));
        }
        let offered: Vec<&Choice> = view.choices.iter().filter(|c| c.group != "undo").collect();
        if offered.is_empty() {
            return None;
        }
        let pick = dice.below(offered.len() as u64) as usize;
        Some(offered[pick].event.clone())
    }

    /// The player's thumb: a decision the page offers, after some thought,
    /// posted; then the view loaded again, as page.js does.
    async fn hand(self: Arc<Self>, mut dice: Dice) {
        let mut conn = self.conn();
        let mut seen = 0;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            let offered = {
                let page = self.page.lock().unwrap();
                let newer = page.shown > seen;
                seen = page.shown;
                newer
                    && page
                        .view
                        .as_ref()
                        .is_some_and(|v| self.offer(v, &mut Dice(0)).is_some())
            };
            if !offered {
                self.changed.notified().await;
                continue;
            }
            let think = dice.between(self.think.0, self.think.1);
            tokio::time::sleep(Duration::from_millis(think)).await;
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            // The tap, on the page shown now.
            let (event, from, known) = {
                let page = self.page.lock().unwrap();
                seen = page.shown;
                let Some(view) = page.view.as_ref() else {
                    continue;
                };
                let Some(event) = self.offer(view, &mut dice) else {
                    continue;
                };
                (event, view.seq, page.known)
            };
            let path = format!("{}/api/events", self.table.path);
            let start = Instant::now();
            let answer = conn
                .fetch(
                    "POST",
                    &path,
                    &self.token,
                    Some(event.to_string()),
                    Duration::from_secs(60),
                )
                .await;
            if let Ok((status, body)) = answer {
                if status == StatusCode::OK {
                    let at = Instant::now();
                    self.stats.post.lock().unwrap().push(micros(start));
                    self.stats.posts.fetch_add(1, Ordering::Relaxed);
                    let seq = serde_json::from_slice::<Value>(&body)
                        .ok()
                        .and_then(|b| b["seq"].as_u64());
                    match seq {
                        Some(seq) => {
                            self.table.acks.lock().unwrap().push(Ack {
                                seq,
                                by: self.index,
                                at,
                                event,
                            });
                            let mut page = self.page.lock().unwrap();
                            page.known = page.known.max(seq);
                        }
                        None => self.stats.error("post unreadable", StatusCode::OK),
                    }
                } else if status == StatusCode::UNPROCESSABLE_ENTITY && from < known {
                    self.stats.stale.fetch_add(1, Ordering::Relaxed);
                } else {
                    self.stats.error("post", status);
                }
            }
            if self.model == Model::Views {
                self.reload.notify_one();
                continue;
            }
            // page.js: the stream tells the post's entry; a reload only if
            // it has not within 3 s.
            let posted = self.page.lock().unwrap().known;
            let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
            loop {
                let shown = self.page.lock().unwrap().view.as_ref().map(|v| v.seq);
                if shown.is_some_and(|seq| seq >= posted) {
                    break;
                }
                if tokio::time::timeout_at(deadline, self.changed.notified())
                    .await
                    .is_err()
                {
                    self.full.store(true, Ordering::SeqCst);
                    self.reload.notify_one();
                    break;
                }
            }
        }
    }
}

/// The referee's board, polled every 2 s, each poll after the last answer,
/// as the board's page does: holding a board, it asks `?since=TAG` with
/// `If-None-Match`, and gets a 304 or what changed since.
async fn board(
    local: IpAddr,
    server: SocketAddr,
    token: String,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
) {
    let mut conn = Conn::new(local, server, stats.clone(), stats.board_wire.clone());
    let mut tag: Option<String> = None;
    while !stop.load(Ordering::Relaxed) {
        let start = Instant::now();
        let (path, extra) = match &tag {
            Some(tag) => (
                format!("/api/room?since={}", tag.trim_matches('"')),
                Some(("if-none-match", tag.clone())),
            ),
            None => ("/api/room".to_owned(), None),
        };
        let exchange = async {
            let response = conn.send("GET", &path, &token, None, extra).await.ok()?;
            let status = response.status();
            let etag = (response.headers().get("etag"))
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            let body = response.into_body().collect().await.ok()?;
            Some((status, etag, body.to_bytes().len()))
        };
        match tokio::time::timeout(Duration::from_secs(60), exchange).await {
            Ok(Some((status, etag, _)))
                if status == StatusCode::OK || status == StatusCode::NOT_MODIFIED =>
            {
                stats.board.lock().unwrap().push(micros(start));
                tag = etag.or(tag);
            }
            Ok(Some((status, _, _))) => stats.error("board", status),
            Ok(None) => stats.error("board dropped", StatusCode::OK),
            Err(_) => {
                conn = Conn::new(local, server, stats.clone(), stats.board_wire.clone());
                stats.timeouts.fetch_add(1, Ordering::Relaxed);
            }
        }
        tokio::time::sleep_until((start + Duration::from_secs(2)).into()).await;
    }
}

/// The benchmark's own lateness: a tick every 100 ms, and how late each
/// came.
async fn ticks(stats: Arc<Stats>) {
    let period = Duration::from_millis(100);
    let mut due = Instant::now() + period;
    loop {
        tokio::time::sleep_until(due.into()).await;
        stats.lag.lock().unwrap().push(micros(due));
        due += period;
        let now = Instant::now();
        if due < now {
            due = now + period;
        }
    }
}

/// The machine's busy and total CPU time, in ticks of every core, from
/// /proc/stat.
fn machine_cpu() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<f64> = (line.split_whitespace())
        .filter_map(|t| t.parse().ok())
        .collect();
    let total: f64 = ticks.iter().take(8).sum();
    // idle and iowait are the 4th and 5th.
    let idle = ticks.get(3)? + ticks.get(4)?;
    Some((total - idle, total))
}

/// Client `n`'s own loopback address: 127.1.x.y, from 127.1.0.1.
fn address(n: usize) -> IpAddr {
    let octet = |v: usize| (v % 250 + 1) as u8;
    IpAddr::V4(Ipv4Addr::new(
        127,
        octet(n / 62_500),
        octet(n / 250),
        octet(n),
    ))
}

/// The seconds of CPU a process has used: user and system.
fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the name: state is field 3, utime 14, stime 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // SAFETY: sysconf reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Some((utime + stime) / ticks.max(1.0))
}

fn sunfold(args: &[&str]) -> Fallible<String> {
    let out = Command::new(SUNFOLD)
        .args(args)
        .output()
        .map_err(|e| format!("{SUNFOLD}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "sunfold {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The event of `tables` tables of `size`, seated for round 1.
fn make_event(dir: &Path, tables: u32, size: u32, seed: u64) -> Fallible<PathBuf> {
    let event = dir.join("convention.jsonl");
    if dir.exists() {
        // Only a folder of an earlier run, or an empty one, is emptied.
        let empty = std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_none());
        if !empty && !event.exists() {
            return Err(format!(
                "expected an empty folder or one of an earlier run, but found {} with other files",
                dir.display()
            ));
        }
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let players = dir.join("players.txt");
    let names: String = (1..=tables * size)
        .map(|n| format!("Player {n:04}\n"))
        .collect();
    std::fs::write(&players, names).map_err(|e| format!("{}: {e}", players.display()))?;
    let (size, seed) = (size.to_string(), seed.to_string());
    let event_arg = event.to_str().ok_or("expected a folder named in UTF-8")?;
    let players_arg = players.to_str().ok_or("expected a folder named in UTF-8")?;
    sunfold(&[
        "event",
        "new",
        event_arg,
        "--game",
        "soleils",
        "--players-file",
        players_arg,
        "--table-size",
        &size,
        "--rounds",
        "1",
        "--seed",
        &seed,
    ])?;
    sunfold(&["event", "seat", event_arg])?;
    Ok(event)
}

/// The server, started; its address and the board's token from its first
/// line (`--format json`).
fn start_server(args: &Args, event: &Path) -> Fallible<(Child, SocketAddr, String)> {
    let mut command = if args.nice {
        // SAFETY: geteuid only reads the process's user id.
        if unsafe { libc::geteuid() } != 0 {
            return Err(
                "expected to run as root for --nice (nice -n -20), but found another user"
                    .to_owned(),
            );
        }
        let mut command = Command::new("nice");
        command.args(["-n", "-20", SUNFOLD]);
        command
    } else {
        Command::new(SUNFOLD)
    };
    command.arg("serve").arg("--event").arg(event);
    command.args(["--listen", "127.0.0.1:0", "--format", "json"]);
    command.args(&args.server_args);
    let shown: Vec<String> = std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    println!("server: {}", shown.join(" "));
    let stderr = event.with_file_name("server-stderr.txt");
    let file = std::fs::File::create(&stderr).map_err(|e| format!("{}: {e}", stderr.display()))?;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(file)
        .spawn()
        .map_err(|e| format!("{}: {e}", shown[0]))?;
    let stdout = child.stdout.take().expect("piped");
    let mut lines = std::io::BufReader::new(stdout).lines();
    let first = match lines.next() {
        Some(Ok(line)) => line,
        _ => {
            let _ = child.kill();
            let said = std::fs::read_to_string(&stderr).unwrap_or_default();
            return Err(format!(
                "expected the server's links, but found none: {said}"
            ));
        }
    };
    // The rest of its output is not needed, but must not block it.
    std::thread::spawn(move || for _ in lines {});
    let listing: Value = serde_json::from_str(&first).map_err(|e| format!("{first}: {e}"))?;
    let listen: SocketAddr = listing["listen"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("expected the address listened on, but found {first}"))?;
    let token = listing["board"]
        .as_str()
        .and_then(|b| b.split("#token=").nth(1))
        .ok_or_else(|| format!("expected the board's link, but found {first}"))?
        .to_owned();
    Ok((child, listen, token))
}

fn stop_server(child: &mut Child) {
    // SAFETY: a signal to our own child, by its id.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    for _ in 0..100 {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn percentile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let at = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[at] as f64 / 1000.0
}

/// "p50 / p99 ms (n)".
fn spread(name: &str, values: &mut [u64]) -> (f64, f64) {
    values.sort_unstable();
    let (p50, p99) = (percentile(values, 0.5), percentile(values, 0.99));
    let max = values.last().map_or(f64::NAN, |&m| m as f64 / 1000.0);
    println!(
        "{name:<8} p50 {p50:>8.1} ms   p99 {p99:>8.1} ms   max {max:>8.1} ms   ({} answers)",
        values.len()
    );
    (p50, p99)
}

fn run(args: Args) -> Fallible<bool> {
    let dir = args.dir.clone().unwrap_or_else(|| {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("convention-{}", args.tables))
    });
    let event = make_event(&dir, args.tables, args.table_size, args.seed)?;
    let (mut child, server, board_token) = start_server(&args, &event)?;
    let pid = child.id().to_string();
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(load(&args, server, board_token, &pid));
    stop_server(&mut child);
    let (tables, stats, figures) = outcome?;
    check(&event, &tables, &stats, &figures, &args)
}

/// What the run measured besides the latencies.
struct Figures {
    seconds: f64,
    server_cpu: f64,
    own_cpu: f64,
    /// The whole machine's, every process counted, out of 100 % a core.
    machine_cpu: f64,
}

async fn load(
    args: &Args,
    server: SocketAddr,
    board_token: String,
    pid: &str,
) -> Fallible<(Vec<Arc<Table>>, Arc<Stats>, Figures)> {
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    // The tables' links, from the board (as a referee's browser would).
    let mut conn = Conn::new(address(0), server, stats.clone(), stats.board_wire.clone());
    let room = match conn
        .fetch(
            "GET",
            "/api/room",
            &board_token,
            None,
            Duration::from_secs(120),
        )
        .await
    {
        Ok((StatusCode::OK, body)) => {
            serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string())?
        }
        Ok((status, body)) => {
            return Err(format!(
                "expected the board, but found {status}: {}",
                String::from_utf8_lossy(&body)
            ));
        }
        Err(_) => return Err("expected the board, but found no answer".to_owned()),
    };
    drop(conn);
    let mut dice = Dice(args.seed);
    let mut tables = Vec::new();
    let mut clients = Vec::new();
    let listed = room["tables"].as_array().cloned().unwrap_or_default();
    for entry in &listed {
        let table = Arc::new(Table {
            number: entry["table"].as_u64().unwrap_or(0) as u32,
            path: entry["path"].as_str().unwrap_or_default().to_owned(),
            acks: Mutex::new(Vec::new()),
            receipts: Mutex::new(Vec::new()),
            shown: Mutex::new(Vec::new()),
        });
        let players = entry["players"].as_array().cloned().unwrap_or_default();
        let mut tokens: Vec<(String, bool)> = (players.iter())
            .map(|p| (p["token"].as_str().unwrap_or_default().to_owned(), false))
            .collect();
        tokens.push((
            entry["referee"].as_str().unwrap_or_default().to_owned(),
            true,
        ));
        for (index, (token, referee)) in tokens.into_iter().enumerate() {
            clients.push(Arc::new(Client {
                table: table.clone(),
                index,
                referee,
                token,
                local: address(clients.len() + 1),
                server,
                stats: stats.clone(),
                page: Mutex::new(Page::default()),
                reload: Notify::new(),
                changed: Notify::new(),
                stop: stop.clone(),
                think: (args.think_min, args.think_max),
                model: args.model,
                streamed: Mutex::new(serde_json::Map::new()),
                cache: Mutex::new(Default::default()),
                full: AtomicBool::new(false),
                wire: if referee {
                    stats.referee_wire.clone()
                } else {
                    stats.phone_wire.clone()
                },
            }));
        }
        tables.push(table);
    }
    if tables.len() != args.tables as usize {
        return Err(format!(
            "expected {} tables on the board, but found {}",
            args.tables,
            tables.len()
        ));
    }
    println!(
        "{} tables, {} phones and {} dice callers, for {} s",
        tables.len(),
        clients.len() - tables.len(),
        tables.len(),
        args.seconds
    );
    // Whatever else runs on the machine counts against both.
    let loadavg = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average before: {}",
        loadavg
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let begun = Instant::now();
    let cpu_before = (cpu_seconds(pid), cpu_seconds("self"), machine_cpu());
    let mut tasks = Vec::new();
    tasks.push(tokio::spawn(ticks(stats.clone())));
    tasks.push(tokio::spawn(board(
        address(clients.len() + 1),
        server,
        board_token,
        stats.clone(),
        stop.clone(),
    )));
    let ramp = Duration::from_secs(args.ramp.min(args.seconds / 2));
    let count = clients.len() as u32;
    for (n, client) in clients.iter().enumerate() {
        let client = client.clone();
        let at = begun + ramp * n as u32 / count;
        let hand = Dice(dice.next());
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(at.into()).await;
            let loader = tokio::spawn(client.clone().loader());
            // page.js: load(), then listen().
            tokio::time::sleep(Duration::from_millis(50)).await;
            let listener = tokio::spawn(client.clone().listener());
            client.clone().hand(hand).await;
            let _ = tokio::join!(loader, listener);
        }));
    }
    let mut ticker = tokio::time::interval(Duration::from_secs(10));
    ticker.tick().await;
    let end = begun + Duration::from_secs(args.seconds);
    while Instant::now() < end {
        tokio::select! {
            _ = ticker.tick() => println!(
                "  {:>4.0} s: {} posts, {} views",
                begun.elapsed().as_secs_f64(),
                stats.posts.load(Ordering::Relaxed),
                stats.views.load(Ordering::Relaxed)
            ),
            _ = tokio::time::sleep_until(end.into()) => {}
        }
    }
    let seconds = begun.elapsed().as_secs_f64();
    let cpu_after = (cpu_seconds(pid), cpu_seconds("self"), machine_cpu());
    stop.store(true, Ordering::Relaxed);
    for client in &clients {
        client.reload.notify_one();
        client.changed.notify_one();
    }
    // The posts under way are answered, and their events streamed.
    tokio::time::sleep(Duration::from_secs(3)).await;
    for task in &tasks {
        task.abort();
    }
    let share = |before: Option<f64>, after: Option<f64>| match (before, after) {
        (Some(b), Some(a)) => 100.0 * (a - b) / seconds,
        _ => f64::NAN,
    };
    let figures = Figures {
        seconds,
        server_cpu: share(cpu_before.0, cpu_after.0),
        own_cpu: share(cpu_before.1, cpu_after.1),
        machine_cpu: match (cpu_before.2, cpu_after.2) {
            (Some((b, bt)), Some((a, at))) if at > bt => {
                100.0 * (a - b) / (at - bt)
                    * std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64)
            }
            _ => f64::NAN,
        },
    };
    Ok((tables, stats, figures))
}

/// The report, then the logs checked against the acknowledged posts and
/// audited: true if all holds.
fn check(
    event: &Path,
    tables: &[Arc<Table>],
    stats: &Stats,
    figures: &Figures,
    args: &Args,
) -> Fallible<bool> {
    let posts = stats.posts.load(Ordering::Relaxed);
    println!();
    println!(
        "{} tables ({} phones), {:.0} s; server CPU {:.0} %, generator CPU {:.1} %, the machine's {:.0} % of {} cores",
        args.tables,
        args.tables * args.table_size,
        figures.seconds,
        figures.server_cpu,
        figures.own_cpu,
        figures.machine_cpu,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!(
        "posts    {posts} acknowledged, {:.1} a second",
        posts as f64 / figures.seconds
    );
    // The server's CPU time (user and system) over the run, by post: a
    // figure that other processes on the machine do not inflate the way
    // they do the latencies.
    let cpu_ms_per_post =
        figures.server_cpu / 100.0 * figures.seconds * 1000.0 / posts.max(1) as f64;
    println!(
        "cpu      cpu_ms_per_post {cpu_ms_per_post:.2}: the server's CPU time (user and system) per acknowledged post"
    );
    let per_post =
        |wire: &AtomicU64| wire.load(Ordering::Relaxed) as f64 / posts.max(1) as f64 / 1000.0;
    let bytes = per_post(&stats.phone_wire);
    println!(
        "wire     {bytes:.1} KB on the phones' wire per acknowledged post ({:.1} MB in all); the dice callers' {:.1} KB, the board's {:.1} KB",
        stats.phone_wire.load(Ordering::Relaxed) as f64 / 1e6,
        per_post(&stats.referee_wire),
        per_post(&stats.board_wire)
    );
    let post = spread("post", &mut stats.post.lock().unwrap());
    let loads = spread("load", &mut stats.view.lock().unwrap());
    spread("load ref", &mut stats.referee_view.lock().unwrap());
    spread("panel", &mut stats.panel.lock().unwrap());
    // From a post's answer to each page of its table showing its entry
    // (or a later one): the player's view as the page shows it.
    let mut showing = Vec::new();
    for table in tables {
        let acks = table.acks.lock().unwrap();
        let mut shown = table.shown.lock().unwrap().clone();
        shown.sort_by_key(|&(_, _, at)| at);
        for ack in acks.iter() {
            let mut first: HashMap<usize, Instant> = HashMap::new();
            for &(seq, by, at) in &shown {
                if seq >= ack.seq {
                    first.entry(by).or_insert(at);
                }
            }
            for at in first.values() {
                showing.push(at.saturating_duration_since(ack.at).as_micros() as u64);
            }
        }
    }
    let shown = spread("shown", &mut showing);
    let view = match args.model {
        Model::Page => shown,
        Model::Views => loads,
    };
    let mut delays = Vec::new();
    let mut early = 0;
    for table in tables {
        let acks = table.acks.lock().unwrap();
        let receipts = table.receipts.lock().unwrap();
        let mut heard: HashMap<u64, Vec<(usize, Instant)>> = HashMap::new();
        for &(seq, by, at) in receipts.iter() {
            heard.entry(seq).or_default().push((by, at));
        }
        for ack in acks.iter() {
            for &(by, at) in heard.get(&ack.seq).into_iter().flatten() {
                if by != ack.by {
                    // Heard before the poster's answer came: no delay.
                    early += u64::from(at < ack.at);
                    delays.push(at.saturating_duration_since(ack.at).as_micros() as u64);
                }
            }
        }
    }
    let stream = spread("stream", &mut delays);
    println!("         ({early} of them heard before the poster's answer, counted as 0 ms)");
    let board = spread("board", &mut stats.board.lock().unwrap());
    spread("lag", &mut stats.lag.lock().unwrap());
    println!("         (how late the benchmark's own 100 ms ticks came: its share of any delay)");
    let errors = stats.errors.lock().unwrap();
    let listed: Vec<String> = (errors.iter())
        .map(|((what, status), n)| format!("{what} {status}: {n}"))
        .collect();
    println!(
        "errors   {}",
        if listed.is_empty() {
            "none".to_owned()
        } else {
            listed.join(", ")
        }
    );
    println!(
        "stale    {} refused decisions the page no longer offered (422 from a stale page)",
        stats.stale.load(Ordering::Relaxed)
    );
    println!(
        "conns    {} refused, {} dropped, {} timed out; {} idle keep-alive connections closed by the server and opened again",
        stats.refused.load(Ordering::Relaxed),
        stats.dropped.load(Ordering::Relaxed),
        stats.timeouts.load(Ordering::Relaxed),
        stats.reopened.load(Ordering::Relaxed)
    );
    let stderr = event.with_file_name("server-stderr.txt");
    let said = std::fs::read_to_string(&stderr).unwrap_or_default();
    println!(
        "server   {} lines on stderr ({})",
        said.lines().count(),
        stderr.display()
    );
    println!(
        "row      | {} ({}) | {:.1} | {:.0} / {:.0} ms | {:.0} / {:.0} ms | {:.0} / {:.0} ms | {:.0} / {:.0} ms | {:.1} KB | {:.0} % |",
        args.tables,
        args.tables * args.table_size,
        posts as f64 / figures.seconds,
        post.0,
        post.1,
        view.0,
        view.1,
        stream.0,
        stream.1,
        board.0,
        board.1,
        bytes,
        figures.server_cpu
    );

    // Every acknowledged post, at its seq in its table's log.
    let mut good = true;
    let folder = event.with_extension("d").join("round-1");
    let mut missing = 0;
    let mut audited = 0;
    for table in tables {
        let log = folder.join(format!("table-{}.jsonl", table.number));
        let text = std::fs::read_to_string(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let mut lines: HashMap<u64, Value> = HashMap::new();
        for line in text.lines() {
            if let Ok(entry) = serde_json::from_str::<Value>(line)
                && let Some(seq) = entry["seq"].as_u64()
            {
                lines.insert(seq, entry);
            }
        }
        for ack in table.acks.lock().unwrap().iter() {
            let found = lines.get(&ack.seq).is_some_and(|entry| {
                (ack.event.as_object().into_iter().flatten()).all(|(k, v)| &entry[k] == v)
            });
            if !found {
                missing += 1;
                if missing <= 5 {
                    println!(
                        "MISSING  {}: seq {} acknowledged for {}, not in the log as posted",
                        log.display(),
                        ack.seq,
                        ack.event
                    );
                }
            }
        }
        let audit = Command::new(SUNFOLD)
            .arg("audit")
            .arg(&log)
            .output()
            .map_err(|e| format!("{SUNFOLD}: {e}"))?;
        if audit.status.success() {
            audited += 1;
        } else {
            good = false;
            println!(
                "INVALID  {}: {}",
                log.display(),
                String::from_utf8_lossy(&audit.stdout).trim()
            );
        }
    }
    good &= missing == 0;
    println!(
        "logs     {posts} acknowledged posts, {missing} missing from their logs; {audited} of {} logs audit valid",
        tables.len()
    );
    println!("{}", if good { "ok" } else { "FAILED" });
    Ok(good)
}
