//! What goes on the wire compressed: every answer of text (the pages,
//! their JSON, the SVG drawings) of at least [`SMALLEST`] bytes, in
//! brotli or gzip as the client's `Accept-Encoding` prefers, by
//! tower-http's `CompressionLayer`. It picks the encoding by the header's
//! q-values, adds `Vary: Accept-Encoding`, drops `Content-Length` and
//! `Accept-Ranges`, and passes an answer already encoded untouched.
//!
//! Not compressed: what is already (PNG and other images, PDF), and what
//! is too small to gain (a refusal's JSON, a 304), which would only cost
//! the compressor's setting up and its frame.
//!
//! The panels' drawings, fetched at their immutable addresses, are
//! compressed once each by the table ([`brotli`]), with a window fitted
//! to the drawing, and sent as they are kept to every client that takes
//! brotli ([`takes_brotli`]); the layer passes an answer already encoded.
//! Its own brotli encoder clears a window of 4 MB for every answer, which
//! at 100 tables was a quarter of the server's CPU.
//!
//! The live stream (`text/event-stream`) is compressed too, with gzip
//! alone: the encoder flushes whatever it holds each time the stream
//! waits for its next event, so every event still reaches the page at
//! once. It pays: the events repeat the same JSON, and over a stream's
//! life gzip keeps about 1 byte in 40 (120 events of a table of 5: 387 KB
//! sent as 9.7 KB), for about 40 KB of memory a stream. Brotli is not used
//! on the stream: its encoder would keep a window of megabytes for as long
//! as the stream is open, one per phone. docs/performance.md has the
//! figures.

use axum::Router;
use axum::http::{HeaderMap, Response, StatusCode, header};
use tower_http::compression::predicate::{Predicate, SizeAbove};
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// The smallest answer compressed, in bytes: below it, an answer fits
/// in one packet anyway.
pub const SMALLEST: u64 = 1024;

/// The level of both encodings: brotli's 5 and gzip's 5. Brotli's own
/// default, 11, spends many times the CPU for a few percent fewer bytes:
/// in a room of 40 tables it was 18 % of the server's CPU, a quarter of
/// it clearing the encoder's buffers. docs/performance.md has the figures.
pub const LEVEL: i32 = 5;

/// Whether a client that sent `headers` takes brotli and prefers it to
/// gzip, as the layer chooses: `br` with a q-value above 0, and none
/// below gzip's.
pub fn takes_brotli(headers: &HeaderMap) -> bool {
    let (mut br, mut gzip) = (0.0f32, 0.0f32);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else {
            continue;
        };
        for coding in value.split(',') {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())
                .unwrap_or(0.0);
            if name.eq_ignore_ascii_case("br") {
                br = br.max(q);
            } else if name.eq_ignore_ascii_case("gzip") {
                gzip = gzip.max(q);
            }
        }
    }
    br > 0.0 && br >= gzip
}

/// `body` in brotli at [`LEVEL`], its window the smallest that holds it
/// (from 1 KB to brotli's largest, 16 MB).
pub fn brotli(body: &[u8]) -> Vec<u8> {
    let bits = usize::BITS - body.len().max(1).leading_zeros();
    let params = brotli::enc::BrotliEncoderParams {
        quality: LEVEL,
        lgwin: (bits as i32).clamp(10, 24),
        size_hint: body.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(body.len() / 8);
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("brotli writes into memory");
    out
}

/// Is an answer of this `Content-Type` compressed (before its size is
/// looked at)? Text, JSON, JavaScript and SVG are; images, PDF and
/// everything else are not.
pub fn compressible(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.starts_with("text/")
        || matches!(
            essence,
            "application/json" | "application/javascript" | "image/svg+xml"
        )
}

/// Is it a live stream?
fn streaming(content_type: &str) -> bool {
    content_type.starts_with("text/event-stream")
}

fn content_type(headers: &HeaderMap) -> &str {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// Which answers the layer compresses: those of [`compressible`] types,
/// of at least [`SMALLEST`] bytes (a stream, of unknown length, always).
#[derive(Clone, Copy)]
struct Worth;

impl Predicate for Worth {
    fn should_compress<B>(&self, response: &Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        compressible(content_type(response.headers()))
            && response.status() != StatusCode::NOT_MODIFIED
            && SizeAbove::new(SMALLEST).should_compress(response)
    }
}

/// The same, for a live stream only: so that it is never compressed with
/// brotli.
#[derive(Clone, Copy)]
struct NotStream;

impl Predicate for NotStream {
    fn should_compress<B>(&self, response: &Response<B>) -> bool
    where
        B: axum::body::HttpBody,
    {
        !streaming(content_type(response.headers()))
    }
}

/// `router` with its answers compressed, as the client accepts: a live
/// stream with gzip alone, the rest with brotli or gzip.
pub fn compressed(router: Router) -> Router {
    // The inner layer meets the answer first: it compresses everything
    // but a stream (brotli before gzip when the client takes both); the
    // outer one sees a stream alone uncompressed, and gzips it. An answer
    // compressed already is never compressed again.
    let all = CompressionLayer::new()
        .gzip(true)
        .br(true)
        .quality(CompressionLevel::Precise(LEVEL))
        .compress_when(Worth.and(NotStream));
    let stream = CompressionLayer::new()
        .gzip(true)
        .br(false)
        .quality(CompressionLevel::Default)
        .compress_when(Worth);
    router.layer(all).layer(stream)
}
