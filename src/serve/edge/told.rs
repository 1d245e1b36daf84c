//! What the edge drops, told: the first of each kind at once, in full;
//! the later ones counted, and told together once a minute at most.

use super::*;

/// Why a connection was dropped: each kind is told once in full, then
/// counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Dropped {
    /// Closed to make room: no request under way, not tied to a link, and
    /// idle or incomplete the longest.
    Room,
    /// Closed to make room when every connection with no request under
    /// way is tied to a link: the oldest idle one of the link that holds
    /// the most.
    Heaviest,
    /// Closed to keep its link within `--max-per-token`.
    Token,
    /// Refused with 503 and `Retry-After`: every open connection is busy
    /// or tied to a link.
    Full,
    /// Refused: its address has `--max-per-address` open.
    Address,
    /// Its request's headers were begun and not completed in time.
    Headers,
    /// Its request's body was not complete in time (answered 408).
    Body,
    /// Its TLS handshake failed or was not complete in time.
    Tls,
    /// Its request was not HTTP the server could read.
    Malformed,
}

impl Dropped {
    /// `n` of this kind, in words, for the count told once a minute.
    pub(super) fn counted(self, n: usize, limits: &Limits) -> String {
        let (headers, body) = (seconds(limits.header_timeout), seconds(limits.body_timeout));
        match self {
            Dropped::Room => format!(
                "{n} idle or incomplete the longest, to let new ones in (--max-connections)"
            ),
            Dropped::Heaviest => {
                format!("{n} of the link holding the most, to let new ones in (--max-connections)")
            }
            Dropped::Token => format!(
                "{n} beyond the {} one link may hold (--max-per-token)",
                limits.max_per_token
            ),
            Dropped::Full => format!(
                "{n} refused (503), every connection being busy or held by a valid link (--max-connections)"
            ),
            Dropped::Address => format!(
                "{n} beyond the {} one address may hold (--max-per-address)",
                limits.max_per_address
            ),
            Dropped::Headers => format!("{n} whose headers were not complete within {headers}"),
            Dropped::Body => format!("{n} whose body was not complete within {body}"),
            Dropped::Tls => format!("{n} whose TLS handshake failed or was not complete"),
            Dropped::Malformed => format!("{n} whose request was malformed"),
        }
    }
}

/// Tells `report` what the edge drops: the first of each kind at once, in
/// full; the later ones counted, and told together by [`Teller::tell`].
pub(super) struct Teller {
    pub(super) report: Arc<dyn Fn(String) + Send + Sync>,
    pub(super) limits: Limits,
    pub(super) tally: Mutex<Tally>,
}

pub(super) struct Tally {
    /// The kinds told in full already.
    pub(super) told: BTreeSet<Dropped>,
    /// The later ones of each kind, since the count was last told.
    pub(super) counts: BTreeMap<Dropped, usize>,
    /// When the count was last told, or the server started.
    pub(super) since: Instant,
}

impl Teller {
    pub(super) fn new(report: Arc<dyn Fn(String) + Send + Sync>, limits: Limits) -> Teller {
        Teller {
            report,
            limits,
            tally: Mutex::new(Tally {
                told: BTreeSet::new(),
                counts: BTreeMap::new(),
                since: Instant::now(),
            }),
        }
    }

    /// A connection dropped, of kind `kind`: `line` says it in full, when
    /// it is the first of its kind.
    pub(super) fn dropped(&self, kind: Dropped, line: impl FnOnce() -> String) {
        let first = {
            let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
            let first = tally.told.insert(kind);
            if !first {
                *tally.counts.entry(kind).or_default() += 1;
            }
            first
        };
        if first {
            (self.report)(line());
        }
    }

    /// Tells the drops counted since the count was last told, if any, in
    /// one line.
    pub(super) fn tell(&self, now: Instant) {
        let (counts, since) = {
            let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
            let since = std::mem::replace(&mut tally.since, now);
            (std::mem::take(&mut tally.counts), since)
        };
        if let Some(line) = counted(&counts, now.duration_since(since), &self.limits) {
            (self.report)(line);
        }
    }
}

/// The line that tells `counts`, dropped over `over`, if any were.
pub(super) fn counted(
    counts: &BTreeMap<Dropped, usize>,
    over: Duration,
    limits: &Limits,
) -> Option<String> {
    let total: usize = counts.values().sum();
    if total == 0 {
        return None;
    }
    let parts: Vec<String> = (counts.iter())
        .map(|(kind, n)| kind.counted(*n, limits))
        .collect();
    let over = Duration::from_secs(over.as_secs_f64().round() as u64);
    Some(format!(
        "in the last {}, also dropped {total} connections: {}",
        seconds(over),
        parts.join("; ")
    ))
}
