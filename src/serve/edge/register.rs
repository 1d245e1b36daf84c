//! The register of the open connections: how many are open at once, how
//! many one link holds, and which one goes when a new one needs its place.
//!
//! Only a connection with no request under way is ever chosen to go: an
//! idle keep-alive one, or one whose request's headers are still
//! incomplete. A request queued or being answered is never cut: the
//! connection chosen is told to close gracefully, so that a request that
//! began in the instant it was chosen is still answered before it closes.
//! The one exception is a live stream of a link beyond its share: its
//! answer was begun long ago and never ends, and its page opens it again
//! and catches up (`Last-Event-ID`).

use super::told::{Dropped, Teller};
use super::*;

/// Connections closed to make room that may still hold their file while
/// their task ends: beyond them, a new connection waits for them to end,
/// for [`CLOSING_WAIT`] at most, and is refused after. The files kept
/// beside the connections' own leave room for them.
const CLOSING: usize = 8;

/// How long a new connection may wait for those closed to make room to
/// end: they end as soon as their task runs, which on a machine whose
/// cores are busy may take seconds. Nothing else could be let in
/// meanwhile, so waiting delays no one; a refusal would fail a player's
/// request only because the closed connections' tasks ran late.
const CLOSING_WAIT: Duration = Duration::from_secs(5);

/// How a connection is told to close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Close {
    /// Once the request under way, if any, is answered; at once when none
    /// is (an idle connection, or one whose headers are incomplete).
    Gracefully,
    /// At once: a live stream, which its page opens again.
    Now,
}

/// Whether a new connection has a place.
pub(super) enum Admission {
    /// It has, and is told through the receiver when to close.
    In(Place, oneshot::Receiver<Close>),
    /// Not yet: [`CLOSING`] connections closed to make room have not ended.
    Closing,
    /// No: every open connection is busy or tied to a link, and none may
    /// go.
    Full,
}

/// A link's key in the register: its bearer token, or for a connection
/// answered without one (the studio's cookie), the empty key, which no
/// bearer token is.
pub(super) type Link = Arc<str>;

/// A connection closed to make room or to keep its link within bounds:
/// its peer, why, how many its link held (none when not tied), and
/// whether it was idle (else a live stream).
pub(super) struct Shed {
    pub(super) peer: SocketAddr,
    pub(super) why: Dropped,
    pub(super) held: usize,
    pub(super) idle: bool,
}

/// The connections open at once, each with when it last showed a sign of
/// life, whether a request is under way on it, and the link it is tied
/// to, if any, so that a new connection may take the place of the one
/// idle or incomplete the longest.
#[derive(Clone)]
pub(super) struct Register(Arc<Mutex<Open>>);

pub(super) struct Open {
    /// Connections open at once, at most (`--max-connections`).
    max: usize,
    /// Connections tied to one link at once, at most (`--max-per-token`).
    per_link: usize,
    next: u64,
    connections: HashMap<u64, Entry>,
    /// How many connections not closing each link is tied to.
    pub(super) held: HashMap<Link, usize>,
}

struct Entry {
    peer: SocketAddr,
    /// When it opened, or last began or ended a request.
    since: Instant,
    /// Requests under way, their answers included: a live stream's
    /// request stays under way as long as it streams.
    busy: u32,
    /// Whether the answer under way is a live stream.
    streaming: bool,
    /// The link it was last answered for, once answered for a valid one.
    link: Option<Link>,
    /// Closes it; taken when it is closed to make room.
    close: Option<oneshot::Sender<Close>>,
}

impl Entry {
    /// May it be closed, to make room or for its link? Never while a
    /// request is under way on it, unless its answer is a live stream
    /// and `streams` allows it.
    fn may_go(&self, streams: bool) -> bool {
        self.close.is_some() && (self.busy == 0 || (streams && self.streaming))
    }
}

/// One connection's place in the [`Register`], given back when dropped.
pub(super) struct Place {
    register: Register,
    id: u64,
}

impl Open {
    /// Closes connection `id` (its task may have ended already: no
    /// matter), and takes it off its link's count.
    fn close(&mut self, id: u64, why: Dropped) -> Option<Shed> {
        let entry = self.connections.get_mut(&id)?;
        let close = entry.close.take()?;
        let idle = entry.busy == 0;
        let _ = close.send(if idle { Close::Gracefully } else { Close::Now });
        let mut held = 0;
        if let Some(link) = &entry.link {
            held = self.held.get(link).copied().unwrap_or(0);
            untie(&mut self.held, link);
        }
        Some(Shed {
            peer: entry.peer,
            why,
            held,
            idle,
        })
    }

    /// The connection to close to make room, and why: of those with no
    /// request under way, the one not tied to a link that has shown no
    /// sign of life the longest; or when every one is tied, the oldest of
    /// the link that holds the most. None when every connection is busy
    /// or closing.
    pub(super) fn to_make_room(&self) -> Option<(u64, Dropped)> {
        let idle = || self.connections.iter().filter(|(_, e)| e.may_go(false));
        let untied = idle().filter(|(_, e)| e.link.is_none());
        if let Some((id, _)) = untied.min_by_key(|(_, e)| e.since) {
            return Some((*id, Dropped::Room));
        }
        idle()
            .filter_map(|(id, e)| {
                let held = e.link.as_ref().and_then(|l| self.held.get(l)).copied()?;
                Some((*id, (std::cmp::Reverse(held), e.since)))
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
    pub(super) fn new(limits: &Limits) -> Register {
        Register(Arc::new(Mutex::new(Open {
            max: limits.max_connections.max(1),
            per_link: limits.max_per_token.max(1),
            next: 0,
            connections: HashMap::new(),
            held: HashMap::new(),
        })))
    }

    pub(super) fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection from `peer`, and what tells it to
    /// close; when the register is full, the connection chosen by
    /// [`Open::to_make_room`] is told to close to make room, and returned.
    pub(super) fn admit(&self, now: Instant, peer: SocketAddr) -> (Admission, Option<Shed>) {
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
                streaming: false,
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
    /// each one closed is told to `teller`. `Err` holds why there is no
    /// place.
    pub(super) async fn wait_admit(
        &self,
        peer: SocketAddr,
        teller: &Teller,
    ) -> Result<(Place, oneshot::Receiver<Close>), Admission> {
        let deadline = Instant::now() + CLOSING_WAIT;
        loop {
            let (admission, shed) = self.admit(Instant::now(), peer);
            if let Some(shed) = shed {
                tell_shed(teller, &shed);
            }
            match admission {
                Admission::In(place, closed) => return Ok((place, closed)),
                Admission::Closing if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                refused => return Err(refused),
            }
        }
    }
}

/// Tells `teller` of a connection closed to make room, or to keep its
/// link within bounds.
pub(super) fn tell_shed(teller: &Teller, shed: &Shed) {
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
        "the oldest live-stream"
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
    pub(super) fn begin(self: &Arc<Place>, now: Instant) -> Busy {
        if let Some(entry) = self.register.open().connections.get_mut(&self.id) {
            entry.since = now;
            entry.busy += 1;
        }
        Busy(self.clone())
    }

    /// A request answered at `now`, with a live stream when `streaming`;
    /// for a valid link's, `link`, which the connection is then tied to.
    /// When that link then holds more than its share, its oldest idle
    /// connection other than this one (or, when none is idle, its oldest
    /// live stream) is closed, and returned.
    pub(super) fn answered(
        &self,
        now: Instant,
        link: Option<Link>,
        streaming: bool,
    ) -> Option<Shed> {
        let mut open = self.register.open();
        let open = &mut *open;
        let entry = open.connections.get_mut(&self.id)?;
        entry.since = now;
        entry.streaming = streaming;
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
            .filter(|(id, e)| **id != self.id && e.may_go(true) && e.link.as_ref() == Some(&link))
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
pub(super) struct Busy(Arc<Place>);

impl Drop for Busy {
    fn drop(&mut self) {
        let place = &self.0;
        if let Some(entry) = place.register.open().connections.get_mut(&place.id) {
            entry.since = Instant::now();
            entry.busy = entry.busy.saturating_sub(1);
            entry.streaming &= entry.busy > 0;
        }
    }
}
