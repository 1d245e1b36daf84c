//! `sunfold serve` on the wire, the binary over real sockets: a request
//! under way is never cut to make room, a full server refuses with 503
//! and Retry-After, and its answers are compressed as the client accepts,
//! the live stream included, each event sent at once. Every wait is
//! bounded; no test asserts a duration.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// How long a read may wait before the test calls the server hung.
const HUNG: Duration = Duration::from_secs(60);

fn connect(addr: SocketAddr) -> BufReader<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, HUNG).unwrap();
    stream.set_read_timeout(Some(HUNG)).unwrap();
    stream.set_write_timeout(Some(HUNG)).unwrap();
    BufReader::new(stream)
}

fn addr(served: &common::Served) -> SocketAddr {
    served.links["listen"].as_str().unwrap().parse().unwrap()
}

/// An answer's status line and headers (names lowercased), read from
/// `stream`.
fn head(stream: &mut BufReader<TcpStream>) -> std::io::Result<(String, Vec<(String, String)>)> {
    let mut status = String::new();
    if stream.read_line(&mut status)? == 0 {
        return Err(std::io::Error::other("closed before any answer"));
    }
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if stream.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    Ok((status.trim_end().to_owned(), headers))
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    (headers.iter())
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// One chunk of a chunked body; empty at its end.
fn chunk(stream: &mut BufReader<TcpStream>) -> std::io::Result<Vec<u8>> {
    let mut size = String::new();
    stream.read_line(&mut size)?;
    let size = usize::from_str_radix(size.trim(), 16).map_err(std::io::Error::other)?;
    let mut data = vec![0; size + 2];
    stream.read_exact(&mut data)?;
    data.truncate(size);
    Ok(data)
}

/// A whole answer's body, by its length or its chunks.
fn body(stream: &mut BufReader<TcpStream>, headers: &[(String, String)]) -> Vec<u8> {
    if let Some(length) = header(headers, "content-length") {
        let mut data = vec![0; length.parse().unwrap()];
        stream.read_exact(&mut data).unwrap();
        return data;
    }
    let mut data = Vec::new();
    loop {
        let next = chunk(stream).unwrap();
        if next.is_empty() {
            // The empty line after the last chunk's.
            return data;
        }
        data.extend(next);
    }
}

/// Sends a post's headers, expecting 100 Continue, and all its body but
/// its last byte: once the server says to continue, the request is under
/// way, its handler reading its body.
fn begin_post(stream: &mut BufReader<TcpStream>, token: &str, body: &str) {
    write!(
        stream.get_mut(),
        "POST /api/events HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\n\r\n",
        body.len()
    )
    .unwrap();
    let (status, _) = head(stream).unwrap();
    assert_eq!(status, "HTTP/1.1 100 Continue");
    stream
        .get_mut()
        .write_all(&body.as_bytes()[..body.len() - 1])
        .unwrap();
}

/// Sends the last byte of a post begun by [`begin_post`]: the status of
/// its answer.
fn end_post(stream: &mut BufReader<TcpStream>, sent: &str) -> std::io::Result<String> {
    stream
        .get_mut()
        .write_all(&sent.as_bytes()[sent.len() - 1..])?;
    let (status, headers) = head(stream)?;
    body(stream, &headers);
    Ok(status)
}

#[test]
fn a_request_under_way_is_never_cut_and_a_full_server_answers_503() {
    let log = common::new_soleils_table("wire-under-way", "table.jsonl");
    let served = common::serve(
        &log,
        &[
            "--max-connections",
            "4",
            "--header-timeout",
            "60",
            "--body-timeout",
            "60",
        ],
    );
    let (addr, referee) = (addr(&served), served.token("referee"));
    let roll = r#"{"type":"rolled","dice":[4,5,2]}"#;
    // Given the referee's roll under way on the oldest connection, its
    // body not yet complete, and three idle connections opened after it:
    // the server's four.
    let mut post = connect(addr);
    begin_post(&mut post, &referee, roll);
    let mut idle: Vec<_> = (0..3).map(|_| connect(addr)).collect();
    // When a fifth comes, the oldest idle one makes room, never the post;
    // and once the others are posting too, a sixth is refused with 503.
    let fifth = connect(addr);
    let ann = served.token("Ann");
    let place = r#"{"type":"placed","player":"Ann","box":"K1d","value":5}"#;
    let mut begun = Vec::new();
    for mut other in [fifth, idle.remove(2), idle.remove(1)] {
        begin_post(&mut other, &ann, place);
        begun.push(other);
    }
    let mut refused = connect(addr);
    write!(
        refused.get_mut(),
        "GET /api/state HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer {referee}\r\n\r\n"
    )
    .unwrap();
    let (status, headers) = head(&mut refused).expect("a full server answers");
    let text = String::from_utf8(body(&mut refused, &headers)).unwrap();
    assert_eq!(status, "HTTP/1.1 503 Service Unavailable");
    assert_eq!(header(&headers, "retry-after"), Some("1"));
    assert_eq!(header(&headers, "connection"), Some("close"));
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    common::snapshots().bind(|| insta::assert_snapshot!("serve_wire__full", text));
    // Then the roll, and every post under way, gets its answer.
    assert_eq!(end_post(&mut post, roll).unwrap(), "HTTP/1.1 200 OK");
    // Ann's placements, once the roll is in: taken or refused, each is
    // answered.
    for mut other in begun {
        let status = end_post(&mut other, place).expect("an answer");
        assert!(status.starts_with("HTTP/1.1 "), "{status}");
    }
    let (code, stdout, stderr) = common::sunfold(&["status", &log, "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let status: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(status["events"].as_u64().unwrap() >= 2, "{status}");
}

/// `GET path` on a fresh connection with `Accept-Encoding: encodings`:
/// the status, headers and body as sent.
fn fetch(
    addr: SocketAddr,
    path: &str,
    token: &str,
    encodings: &str,
) -> (String, Vec<(String, String)>, Vec<u8>) {
    let mut stream = connect(addr);
    write!(
        stream.get_mut(),
        "GET {path} HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer {token}\r\nAccept-Encoding: {encodings}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let (status, headers) = head(&mut stream).unwrap();
    let data = body(&mut stream, &headers);
    (status, headers, data)
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(data)
        .read_to_end(&mut plain)
        .unwrap();
    plain
}

#[test]
fn answers_are_compressed_as_the_client_accepts_with_their_headers_kept() {
    let log = common::new_soleils_table("wire-compressed", "table.jsonl");
    let served = common::serve(&log, &[]);
    let (addr, ann) = (addr(&served), served.token("Ann"));
    for path in ["/", "/api/view"] {
        let (_, plain_headers, plain) = fetch(addr, path, &ann, "identity");
        assert_eq!(header(&plain_headers, "content-encoding"), None, "{path}");
        // As Chromium asks: brotli is preferred.
        let (status, headers, _) = fetch(addr, path, &ann, "gzip, deflate, br, zstd");
        assert_eq!(status, "HTTP/1.1 200 OK", "{path}");
        assert_eq!(header(&headers, "content-encoding"), Some("br"), "{path}");
        assert_eq!(header(&headers, "vary"), Some("accept-encoding"), "{path}");
        // The same answer in gzip, the same bytes once decoded, its
        // security headers kept.
        let (_, headers, data) = fetch(addr, path, &ann, "gzip");
        assert_eq!(header(&headers, "content-encoding"), Some("gzip"), "{path}");
        assert_eq!(gunzip(&data), plain, "{path}");
        assert!(
            data.len() * 2 < plain.len(),
            "{path}: {} of {}",
            data.len(),
            plain.len()
        );
        for name in [
            "cache-control",
            "x-content-type-options",
            "x-frame-options",
            "referrer-policy",
        ] {
            assert_eq!(
                header(&headers, name),
                header(&plain_headers, name),
                "{path}: {name}"
            );
        }
        assert_eq!(
            header(&headers, "content-security-policy"),
            header(&plain_headers, "content-security-policy")
        );
    }
    // A panel's drawing at its immutable address: in brotli, compressed
    // once by the table and kept, the same bytes once decoded; in gzip by
    // the layer for a client that takes no brotli.
    let (_, _, view) = fetch(addr, "/api/view", &ann, "identity");
    let view: serde_json::Value = serde_json::from_slice(&view).unwrap();
    let hash = view["panels"][0]["hash"].as_str().unwrap().to_owned();
    let path = format!("/api/panels/{hash}/phone");
    let (_, _, plain) = fetch(addr, &path, &ann, "identity");
    assert!(plain.starts_with(b"<svg"));
    for _ in 0..2 {
        let (status, headers, data) = fetch(addr, &path, &ann, "gzip, deflate, br, zstd");
        assert_eq!(status, "HTTP/1.1 200 OK");
        assert_eq!(header(&headers, "content-encoding"), Some("br"));
        assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
        assert!(
            header(&headers, "cache-control")
                .unwrap()
                .contains("immutable")
        );
        let mut back = Vec::new();
        brotli::Decompressor::new(&data[..], 4096)
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, plain);
        assert!(
            data.len() * 5 < plain.len(),
            "{} of {}",
            data.len(),
            plain.len()
        );
    }
    let (_, headers, data) = fetch(addr, &path, &ann, "gzip");
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&data), plain);
    // What is small is sent as it is: a refusal's few bytes.
    let (status, headers, _) = fetch(addr, "/api/view", "0123", "gzip, br");
    assert_eq!(status, "HTTP/1.1 401 Unauthorized");
    assert_eq!(header(&headers, "content-encoding"), None);
}

#[test]
fn a_compressed_stream_sends_each_event_at_once() {
    let log = common::new_soleils_table("wire-stream", "table.jsonl");
    let served = common::serve(&log, &[]);
    let (addr, ann, referee) = (addr(&served), served.token("Ann"), served.token("referee"));
    // Given Ann's live stream, asked as a browser does (brotli preferred).
    let mut stream = connect(addr);
    write!(
        stream.get_mut(),
        "GET /api/stream HTTP/1.1\r\nHost: table\r\nAuthorization: Bearer {ann}\r\nAccept: text/event-stream\r\nAccept-Encoding: gzip, deflate, br, zstd\r\n\r\n"
    )
    .unwrap();
    let (status, headers) = head(&mut stream).unwrap();
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    // When the referee rolls, the event arrives while the stream goes on:
    // what came so far decodes to it.
    let posted = common::driver::agent()
        .post(format!("{}/api/events", served.base()))
        .header("authorization", format!("Bearer {referee}"))
        .send(r#"{"type":"rolled","dice":[4,5,2]}"#)
        .unwrap();
    assert_eq!(posted.status().as_u16(), 200);
    let mut decoder = flate2::write::GzDecoder::new(Vec::new());
    let mut chunks = 0;
    let text = loop {
        let next = chunk(&mut stream).expect("the stream goes on");
        assert!(!next.is_empty(), "the stream ended");
        chunks += 1;
        decoder.write_all(&next).unwrap();
        decoder.flush().unwrap();
        let text = String::from_utf8_lossy(decoder.get_ref()).into_owned();
        if text.contains("event: appended") && text.ends_with("\n\n") {
            break text;
        }
        assert!(chunks < 100, "no event in {chunks} chunks: {text:?}");
    };
    assert!(text.contains("id: 1\n"), "{text}");
}
