//! How long the edge waits for clients and how many it serves at once,
//! sized from the pages a server shows.

use super::*;

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
    /// Connections open at once tied to one link (one bearer token).
    pub max_per_token: usize,
}

/// The connections a browser opens to one server at once, at most, for
/// a page: what each page served is given.
pub const PER_PAGE: u64 = 6;

/// Connections open at once, at the least, when none are asked for: what
/// a table, or the studio, never comes near.
pub const LEAST_CONNECTIONS: u64 = 128;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: LEAST_CONNECTIONS as usize,
            max_per_address: 32,
            max_per_token: 16,
        }
    }
}

/// The pages a server shows at once, to size its connections by: a
/// browser opens up to six connections to one server for a page (its
/// live stream, its view, its drawings, a post), and keeps them alive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pages {
    /// The players' pages: one a seat.
    pub seats: u64,
    /// The referees' pages: one a table.
    pub referees: u64,
    /// The boards of a room: one, or none.
    pub boards: u64,
}

impl Pages {
    /// The pages in all.
    pub fn count(&self) -> u64 {
        self.seats + self.referees + self.boards
    }

    /// The connections they need: six a page, as many as a browser opens
    /// to one server, and a quarter more for the pages opened again, or
    /// twice.
    pub fn need(&self) -> u64 {
        let six = self.count().saturating_mul(PER_PAGE);
        six.saturating_add(six.div_ceil(4))
    }

    /// The connections to take at once when none are asked for: what
    /// they need, and [`LEAST_CONNECTIONS`] at the least.
    pub fn connections(&self) -> u64 {
        self.need().max(LEAST_CONNECTIONS)
    }

    /// The pages in words: "500 seats, 100 tables' referees and the
    /// board", "3 seats and the referee".
    pub fn words(&self) -> String {
        use crate::kit::words::plural;
        let mut parts = vec![plural(self.seats, "seat", "seats")];
        match self.referees {
            0 => {}
            1 => parts.push("the referee".to_owned()),
            n => parts.push(format!("{n} tables' referees")),
        }
        if self.boards > 0 {
            parts.push("the board".to_owned());
        }
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => parts.join(""),
        }
    }
}

impl Limits {
    /// The limits of the command line's flags: the header and body time
    /// limits in seconds, then the connections at once in all (sized from
    /// `pages` when not given), from one address and with one link. The
    /// file limit is raised for the connections where it may be, and they
    /// are lowered to fit it where it may not. With what to say at start:
    /// how many connections and why, when more than the least or fewer
    /// than the pages need, and what was raised or lowered.
    pub fn from_flags(
        [header, body]: [u64; 2],
        all: Option<u64>,
        [one, token]: [u64; 2],
        pages: Option<&Pages>,
    ) -> (Limits, Vec<String>) {
        let sized = pages.map_or(LEAST_CONNECTIONS, Pages::connections);
        let wanted = all.unwrap_or(sized);
        let mut said = Vec::new();
        if let Some(pages) = pages {
            let (n, words, need) = (pages.count(), pages.words(), pages.need());
            match all {
                None if need >= LEAST_CONNECTIONS => said.push(format!(
                    "at most {wanted} connections at once (--max-connections): {PER_PAGE} for each of {n} pages ({words}), as many as a browser opens, and a quarter more"
                )),
                // The least, which these pages never come near: nothing
                // to say.
                None => {}
                Some(all) if all < need => said.push(format!(
                    "at most {all} connections at once (--max-connections), fewer than the {need} that {n} pages ({words}) need, {PER_PAGE} each and a quarter more"
                )),
                Some(_) => {}
            }
        }
        let (all, fitted) = crate::serve::host::connections(wanted);
        said.extend(fitted);
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let limits = Limits {
            header_timeout: Duration::from_secs(header),
            body_timeout: Duration::from_secs(body),
            max_connections: size(all),
            max_per_address: size(one),
            max_per_token: size(token),
        };
        (limits, said)
    }
}
