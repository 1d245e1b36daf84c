//! The way in for a person whose phone will not scan a slip's QR code:
//! each join link has a short code, printed on its slip, that a person
//! types at `/join`; a right code is answered with a redirect to the link.
//!
//! A code is [`CODE_LENGTH`] characters of Crockford's base32 (digits and
//! letters but I, L, O and U), drawn from the operating system's CSPRNG:
//! [`CODE_BITS`] bits. Typed, case, spaces and hyphens do not matter, and
//! I, L and O are read as 1, 1 and 0. Guessing is bounded by [`Guesses`]:
//! at most [`MAX_WRONG`] wrong tries from one address in any [`WINDOW`];
//! the next try is refused (429) before its code is even looked at.

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The symbols of a code: Crockford's base32, 32 of them, so that each
/// character carries 5 bits.
pub const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The characters of a code.
pub const CODE_LENGTH: usize = 10;

/// The bits of randomness in a code: 5 a character.
pub const CODE_BITS: u32 = 5 * CODE_LENGTH as u32;

// A code carries 40 bits at least, whatever its length becomes.
const _: () = assert!(CODE_BITS >= 40);

/// A fresh code, without its hyphen: [`CODE_BITS`] random bits.
pub fn short_code() -> std::io::Result<String> {
    let bytes: [u8; CODE_LENGTH] = super::tokens::random()?;
    // 256 is a multiple of 32: the low 5 bits of a uniform byte are
    // uniform.
    Ok(bytes
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(b & 31)]))
        .collect())
}

/// A code as printed, in two groups of five: `7KQ4M-X9RTP`.
pub fn grouped(code: &str) -> String {
    let (first, second) = code.split_at(code.len().min(CODE_LENGTH / 2));
    format!("{first}-{second}")
}

/// The code `typed` stands for, as stored: upper case, without spaces or
/// hyphens, I and L read as 1 and O as 0; `None` unless it then is
/// [`CODE_LENGTH`] characters of [`ALPHABET`].
pub fn normalise(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'I' | 'L' => '1',
            'O' => '0',
            c => c,
        })
        .collect();
    let valid = code.len() == CODE_LENGTH && code.bytes().all(|b| ALPHABET.contains(&b));
    valid.then_some(code)
}

/// Wrong codes allowed from one address within [`WINDOW`].
pub const MAX_WRONG: usize = 10;

/// The rolling window of [`MAX_WRONG`].
pub const WINDOW: Duration = Duration::from_secs(60);

/// The addresses remembered at once. When every one of them has tried a
/// wrong code within the window, a new address waits too: guessing stays
/// bounded however many addresses guess.
pub const MAX_ADDRESSES: usize = 4096;

/// What a [`Guesses`] reads the time from.
pub type Now = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The wrong codes tried from each address within the window.
pub struct Guesses {
    now: Now,
    tried: Mutex<HashMap<IpAddr, Tried>>,
}

/// One address's wrong tries, oldest first, and whether its refusal was
/// told already.
#[derive(Default)]
struct Tried {
    at: VecDeque<Instant>,
    told: bool,
}

/// Whom a try is counted against: an IPv4 address, or an IPv6 address's
/// /64, which one machine usually holds whole.
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
        v4 => v4,
    }
}

/// A try under way, counted wrong until [`Try::right`] says otherwise.
pub struct Try<'a> {
    guesses: &'a Guesses,
    ip: IpAddr,
}

impl Try<'_> {
    /// The code was right: the try no longer counts.
    pub fn right(self) {
        let mut tried = self.guesses.lock();
        if let Some(entry) = tried.get_mut(&self.ip) {
            entry.at.pop_back();
            if entry.at.is_empty() {
                tried.remove(&self.ip);
            }
        }
    }
}

/// A try refused: how long until the address may try again, and whether
/// this is the first refusal since it was last allowed (to tell once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    pub wait: Duration,
    pub first: bool,
}

impl Default for Guesses {
    fn default() -> Guesses {
        Guesses::with_clock(Arc::new(Instant::now))
    }
}

impl Guesses {
    /// Counting by the time `now` gives.
    pub fn with_clock(now: Now) -> Guesses {
        Guesses {
            now,
            tried: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, Tried>> {
        self.tried.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A try from `ip`, counted wrong from now on; or, when `ip` has
    /// tried [`MAX_WRONG`] wrong codes within the window (or every slot
    /// is taken by addresses that have), how long it must wait.
    pub fn try_from(&self, ip: IpAddr) -> Result<Try<'_>, Refused> {
        let ip = key(ip);
        let now = (self.now)();
        let mut tried = self.lock();
        let wait = |oldest: Instant| WINDOW.saturating_sub(now.saturating_duration_since(oldest));
        if !tried.contains_key(&ip) && tried.len() >= MAX_ADDRESSES {
            tried.retain(|_, entry| {
                entry
                    .at
                    .front()
                    .is_some_and(|t| now.saturating_duration_since(*t) < WINDOW)
            });
            if tried.len() >= MAX_ADDRESSES {
                let oldest = tried.values().filter_map(|e| e.at.front()).min().copied();
                return Err(Refused {
                    wait: oldest.map_or(WINDOW, wait),
                    first: false,
                });
            }
        }
        let entry = tried.entry(ip).or_default();
        while entry
            .at
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW)
        {
            entry.at.pop_front();
        }
        if entry.at.len() >= MAX_WRONG {
            let first = !entry.told;
            entry.told = true;
            return Err(Refused {
                wait: entry.at.front().map_or(WINDOW, |t| wait(*t)),
                first,
            });
        }
        entry.told = false;
        entry.at.push_back(now);
        Ok(Try { guesses: self, ip })
    }

    /// The addresses remembered now.
    pub fn remembered(&self) -> usize {
        self.lock().len()
    }
}

/// What the way in of a server shares: the tries counted, and where a
/// refused address is told.
#[derive(Clone)]
pub struct Join {
    pub guesses: Arc<Guesses>,
    pub report: Arc<dyn Fn(String) + Send + Sync>,
}

impl Join {
    /// Tries counted by the system's clock, told to `report`.
    pub fn new(report: Arc<dyn Fn(String) + Send + Sync>) -> Join {
        Join {
            guesses: Arc::new(Guesses::default()),
            report,
        }
    }
}

const PAGE: &str = include_str!("join.html");
const STYLE: &str = include_str!("join.css");

/// `GET /join`: a form to type a code into. It has no script; its one
/// style is allowed by hash, and its form may post to this server alone.
pub fn page() -> Response {
    let csp = format!(
        "default-src 'none'; style-src {}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        crate::show::viewer::page::csp_hash(STYLE)
    );
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_str(&csp).expect("a CSP is a header value"),
            ),
        ],
        PAGE.replace("/*STYLE*/", STYLE),
    )
        .into_response()
}

/// A plain answer: `status`, and `text` on a line.
fn plain(status: StatusCode, text: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{text}\n"),
    )
        .into_response()
}

/// The value of `code` in a form's body (`code=7KQ4M-X9RTP`), decoded.
fn form_code(body: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(body).ok()?;
    let value = text
        .split('&')
        .find_map(|pair| pair.strip_prefix("code="))?;
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => decoded.push(b' '),
            b'%' => {
                let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
                decoded.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => decoded.push(b),
        }
        i += 1;
    }
    String::from_utf8(decoded).ok()
}

/// `POST /join` from `peer` (unknown when the server was not told it),
/// with a form's `body`: a redirect (303) to the link whose code it holds,
/// which `find` gives for a code as stored; 403 for a wrong code; 400 for
/// no code; and 429, whatever the code, for an address that has tried
/// [`MAX_WRONG`] wrong ones within the window. Every try that is not right
/// counts as wrong.
pub async fn answer<F, Fut>(
    join: &Join,
    peer: Option<SocketAddr>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
    find: F,
) -> Response
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = Result<Option<String>, super::ApiError>>,
{
    let ip = peer.map_or(IpAddr::from([0, 0, 0, 0]), |p| p.ip());
    let ticket = match join.guesses.try_from(ip) {
        Ok(ticket) => ticket,
        Err(refused) => {
            let wait = refused.wait.as_secs() + u64::from(refused.wait.subsec_nanos() > 0);
            let wait = wait.max(1);
            if refused.first {
                let from = peer.map_or("an unknown address".to_owned(), |p| p.ip().to_string());
                (join.report)(format!(
                    "refused codes from {from}: {MAX_WRONG} wrong join codes within {} s; it may try again in {wait} s",
                    WINDOW.as_secs()
                ));
            }
            let mut response = plain(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "expected at most {MAX_WRONG} wrong codes a minute from one address, but found more; try again in {wait} s, or scan the slip's QR code"
                ),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(wait));
            return response;
        }
    };
    let body = match super::edge::body(body, "a form with a code", super::BODY_LIMIT) {
        Ok(body) => body,
        Err(e) => return e.into_response(),
    };
    let Some(typed) = form_code(&body) else {
        return plain(
            StatusCode::BAD_REQUEST,
            "expected a form with a code (code=7KQ4M-X9RTP), but found none".to_owned(),
        );
    };
    let Some(code) = normalise(&typed) else {
        return plain(
            StatusCode::FORBIDDEN,
            format!(
                "expected the code of a join slip, {CODE_LENGTH} letters and digits such as 7KQ4M-X9RTP, but found {} characters that are not one",
                typed.chars().count()
            ),
        );
    };
    match find(code).await {
        Ok(Some(location)) => {
            ticket.right();
            let mut response = StatusCode::SEE_OTHER.into_response();
            match HeaderValue::from_str(&location) {
                Ok(value) => {
                    response.headers_mut().insert(header::LOCATION, value);
                    response
                }
                Err(_) => plain(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the link of this code cannot be sent".to_owned(),
                ),
            }
        }
        Ok(None) => plain(
            StatusCode::FORBIDDEN,
            "expected the code of a join slip, but found one this server does not know; check it against the slip".to_owned(),
        ),
        Err(e) => plain(e.status(), e.into_text()),
    }
}

/// The address of the connection a request came on, as the edge notes it.
pub fn peer(extensions: &axum::http::Extensions) -> Option<SocketAddr> {
    extensions
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .map(|info| info.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_ten_symbols_of_an_unambiguous_alphabet_of_fifty_bits() {
        assert_eq!(ALPHABET.len(), 32);
        for b in b"ILOU" {
            assert!(!ALPHABET.contains(b));
        }
        let distinct: std::collections::BTreeSet<&u8> = ALPHABET.iter().collect();
        assert_eq!(distinct.len(), 32);
        assert_eq!(CODE_BITS, 50);
        let codes: Vec<String> = (0..200).map(|_| short_code().unwrap()).collect();
        for code in &codes {
            assert_eq!(code.len(), CODE_LENGTH);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
            assert_eq!(normalise(code).as_deref(), Some(code.as_str()));
        }
        let distinct: std::collections::BTreeSet<&String> = codes.iter().collect();
        assert_eq!(distinct.len(), codes.len());
        // Every symbol turns up: the draw is not confined to a part.
        let seen: std::collections::BTreeSet<u8> = codes.iter().flat_map(|c| c.bytes()).collect();
        assert_eq!(seen.len(), 32);
    }

    #[test]
    fn typed_codes_are_read_whatever_their_case_spaces_and_hyphens() {
        assert_eq!(grouped("7KQ4MX9RTP"), "7KQ4M-X9RTP");
        for typed in [
            "7KQ4M-X9RTP",
            "7kq4m-x9rtp",
            " 7kq4m x9rtp ",
            "7KQ4MX9RTP",
            "7-K-Q-4-M-X-9-R-T-P",
        ] {
            assert_eq!(normalise(typed).as_deref(), Some("7KQ4MX9RTP"), "{typed}");
        }
        assert_eq!(normalise("OIL45-ABCDE").as_deref(), Some("01145ABCDE"));
        for bad in [
            "",
            "7KQ4M-X9RT",
            "7KQ4M-X9RTPP",
            "7KQ4M-X9RTU",
            "7KQ4M_X9RTP",
        ] {
            assert_eq!(normalise(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_form_s_code_is_decoded() {
        assert_eq!(
            form_code(b"code=7kq4m-x9rtp").as_deref(),
            Some("7kq4m-x9rtp")
        );
        assert_eq!(
            form_code(b"x=1&code=7KQ4M+X9RTP").as_deref(),
            Some("7KQ4M X9RTP")
        );
        assert_eq!(
            form_code(b"code=7KQ4M%2DX9RTP").as_deref(),
            Some("7KQ4M-X9RTP")
        );
        assert_eq!(form_code(b"code=%2"), None);
        assert_eq!(form_code(b"other=1"), None);
    }

    #[test]
    fn ten_wrong_tries_a_minute_then_a_wait_and_the_memory_stays_bounded() {
        let start = Instant::now();
        let offset = Arc::new(Mutex::new(Duration::ZERO));
        let read = offset.clone();
        let guesses = Guesses::with_clock(Arc::new(move || start + *read.lock().unwrap()));
        let ip: IpAddr = [10, 0, 0, 7].into();
        for _ in 0..MAX_WRONG {
            assert!(guesses.try_from(ip).is_ok());
        }
        *offset.lock().unwrap() = Duration::from_secs(20);
        let refused = guesses.try_from(ip).err().unwrap();
        assert_eq!(refused.wait, Duration::from_secs(40));
        assert!(refused.first);
        assert!(!guesses.try_from(ip).err().unwrap().first, "told once");
        // Another address is not held up; a right try does not count.
        guesses.try_from([10, 0, 0, 8].into()).unwrap().right();
        assert_eq!(guesses.remembered(), 1);
        *offset.lock().unwrap() = Duration::from_secs(60);
        assert!(guesses.try_from(ip).is_ok());
        // Two addresses of one IPv6 /64 count as one.
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::2".parse().unwrap();
        assert_eq!(key(a), key(b));
        // Bounded: when every slot is full of fresh tries, a new address
        // waits; once they are old, it is remembered in their place.
        for i in 0..MAX_ADDRESSES as u32 {
            let _ = guesses.try_from(IpAddr::from((0x0b00_0000 + i).to_be_bytes()));
        }
        assert_eq!(guesses.remembered(), MAX_ADDRESSES);
        assert!(guesses.try_from([12, 0, 0, 1].into()).is_err());
        *offset.lock().unwrap() = Duration::from_secs(121);
        assert!(guesses.try_from([12, 0, 0, 1].into()).is_ok());
        assert_eq!(guesses.remembered(), 1);
    }
}
