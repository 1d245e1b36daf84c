use super::register::{Admission, Link};
use super::told::counted;
use super::*;

fn peer(n: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], n))
}

fn at(start: Instant, ms: u64) -> Instant {
    start + Duration::from_millis(ms)
}

/// A place in `register` for `peer(n)` at `now`, which must be given
/// without closing another.
fn admitted(register: &Register, now: Instant, n: u16) -> (Arc<Place>, oneshot::Receiver<Close>) {
    match register.admit(now, peer(n)) {
        (Admission::In(place, closed), None) => (Arc::new(place), closed),
        _ => panic!("expected a place for {n} with none closed"),
    }
}

/// A connection's place, and what tells it to close.
type Admitted = (Arc<Place>, oneshot::Receiver<Close>);

/// A register of at most `max` connections, `per_link` a link, with `n`
/// admitted 1 ms apart from `start`, returned.
fn opened(max: usize, per_link: usize, n: u16) -> (Register, Instant, Vec<Admitted>) {
    let limits = Limits {
        max_connections: max,
        max_per_token: per_link,
        ..Limits::default()
    };
    let register = Register::new(&limits);
    let start = Instant::now();
    let places = (0..n)
        .map(|i| admitted(&register, at(start, u64::from(i)), i))
        .collect();
    (register, start, places)
}

#[test]
fn the_connections_are_sized_from_the_pages_served() {
    let room = Pages {
        seats: 500,
        referees: 100,
        boards: 1,
    };
    assert_eq!(
        (room.count(), room.need(), room.connections()),
        (601, 4508, 4508)
    );
    assert_eq!(
        room.words(),
        "500 seats, 100 tables' referees and the board"
    );
    let table = Pages {
        seats: 3,
        referees: 1,
        boards: 0,
    };
    assert_eq!((table.need(), table.connections()), (30, 128));
    assert_eq!(table.words(), "3 seats and the referee");
}

#[test]
fn a_link_beyond_its_share_loses_its_oldest_idle_connection() {
    let (register, start, mut places) = opened(10, 2, 4);
    let ann: Link = "ann".into();
    // The first is busy (a live stream): the second is the oldest idle.
    let _stream = places[0].0.begin(at(start, 5));
    for place in &places[..2] {
        assert!(
            place
                .0
                .answered(at(start, 10), Some(ann.clone()), false)
                .is_none()
        );
    }
    let shed = places[2]
        .0
        .answered(at(start, 12), Some(ann.clone()), false);
    let shed = shed.expect("ann holds 3 of 2");
    assert_eq!(
        (shed.peer, shed.why, shed.held, shed.idle),
        (peer(1), Dropped::Token, 3, true)
    );
    assert!(places[1].1.try_recv().is_ok(), "told to close");
    // Another link, and a connection answered with none, are not ann's.
    assert!(
        places[3]
            .0
            .answered(at(start, 13), Some("bob".into()), false)
            .is_none()
    );
    assert!(places[3].0.answered(at(start, 14), None, false).is_none());
    assert_eq!(register.open().held.get(&ann), Some(&2));
    places.truncate(1);
    assert_eq!(register.open().held.get(&ann), Some(&1));
}

#[test]
fn a_full_register_sheds_the_untied_first_then_the_heaviest_links_oldest_idle() {
    let (register, start, places) = opened(4, Limits::default().max_per_token, 4);
    // Ann holds three, the first of them busy; Bob one, the oldest.
    places[3]
        .0
        .answered(at(start, 9), Some("bob".into()), false);
    for (i, place) in places[..3].iter().enumerate() {
        place
            .0
            .answered(at(start, 10 + i as u64), Some("ann".into()), false);
    }
    let _busy = places[0].0.begin(at(start, 20));
    let (admission, shed) = register.admit(at(start, 30), peer(9));
    let Admission::In(newcomer, _) = admission else {
        panic!("expected a place");
    };
    let shed = shed.expect("one closed");
    assert_eq!(
        (shed.peer, shed.why, shed.held),
        (peer(1), Dropped::Heaviest, 3)
    );
    // The newcomer, not tied to a link, goes first when the next comes.
    let (_, shed) = register.admit(at(start, 31), peer(10));
    let shed = shed.expect("one closed");
    assert_eq!((shed.peer, shed.why), (peer(9), Dropped::Room));
    drop(newcomer);
}

#[test]
fn the_drops_counted_are_told_in_one_line() {
    let limits = Limits::default();
    let counts = BTreeMap::from([(Dropped::Headers, 40), (Dropped::Room, 300)]);
    assert_eq!(
        counted(&counts, Duration::from_millis(60_200), &limits).as_deref(),
        Some(
            "in the last 60 s, also dropped 340 connections: 300 idle or incomplete the longest, to let new ones in (--max-connections); 40 whose headers were not complete within 10 s"
        )
    );
    assert_eq!(
        counted(&BTreeMap::new(), Duration::from_secs(60), &limits),
        None
    );
}

#[test]
fn a_request_under_way_is_never_shed_and_a_register_all_busy_refuses() {
    // Given a register of three: the oldest connection is posting, the
    // next is answering a view, the youngest is idle.
    let (register, start, mut places) = opened(3, Limits::default().max_per_token, 3);
    let _post = places[0].0.begin(at(start, 5));
    let _view = places[1].0.begin(at(start, 6));
    // When a new connection comes, the idle one makes room, though it
    // showed a sign of life last; it is told to close gracefully.
    let (admission, shed) = register.admit(at(start, 30), peer(9));
    let Admission::In(newcomer, _) = admission else {
        panic!("expected a place");
    };
    let shed = shed.expect("one closed");
    assert_eq!(
        (shed.peer, shed.why, shed.idle),
        (peer(2), Dropped::Room, true)
    );
    assert_eq!(places[2].1.try_recv(), Ok(Close::Gracefully));
    // When every open connection is busy, the next is refused, and no
    // request under way is cut.
    let newcomer = Arc::new(newcomer);
    let _newcomer = newcomer.begin(at(start, 30));
    let (admission, shed) = register.admit(at(start, 31), peer(10));
    assert!(matches!(admission, Admission::Full));
    assert!(shed.is_none());
    for place in &mut places[..2] {
        assert!(place.1.try_recv().is_err(), "never told to close");
    }
}

#[test]
fn a_link_beyond_its_share_loses_a_live_stream_but_never_a_request_under_way() {
    let (_register, start, mut places) = opened(10, 1, 3);
    let ann: Link = "ann".into();
    // Given Ann's live stream, then a post of hers under way.
    let _stream = places[0].0.begin(at(start, 5));
    assert!(
        places[0]
            .0
            .answered(at(start, 6), Some(ann.clone()), true)
            .is_none()
    );
    let _post = places[1].0.begin(at(start, 7));
    // When the post is answered, Ann holds two of one: her stream goes,
    // at once.
    let shed = places[1].0.answered(at(start, 8), Some(ann.clone()), false);
    let shed = shed.expect("ann holds 2 of 1");
    assert_eq!(
        (shed.peer, shed.why, shed.idle),
        (peer(0), Dropped::Token, false)
    );
    assert_eq!(places[0].1.try_recv(), Ok(Close::Now));
    // When a third is answered while her post's answer is still being
    // sent, that post is not cut: Ann holds more than her share a while.
    let _third = places[2].0.begin(at(start, 9));
    assert!(
        places[2]
            .0
            .answered(at(start, 10), Some(ann.clone()), false)
            .is_none()
    );
    assert!(places[1].1.try_recv().is_err(), "never told to close");
}

#[test]
fn brotli_is_taken_where_the_client_prefers_it_and_a_drawing_comes_back_whole() {
    use super::wire::{brotli, takes_brotli};
    let asking = |value: &str| {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, value.parse().unwrap());
        takes_brotli(&headers)
    };
    // As Chromium and Firefox ask, and as a client that names one alone.
    assert!(asking("gzip, deflate, br, zstd"));
    assert!(asking("br"));
    assert!(asking("gzip;q=0.5, BR;q=0.5"));
    // Refused, or less preferred than gzip, or not named.
    assert!(!asking("br;q=0, gzip"));
    assert!(!asking("gzip;q=1, br;q=0.5"));
    assert!(!asking("gzip, deflate"));
    assert!(!asking("identity"));
    assert!(!takes_brotli(&HeaderMap::new()));

    // A drawing compressed comes back byte for byte, far smaller.
    let golden = include_str!("../../../replays/soleils-2p-round-limit.jsonl");
    let start = crate::log::Line {
        number: 1,
        bytes: golden.lines().next().unwrap().as_bytes(),
        terminated: true,
    };
    let (fold, _) = crate::log::Fold::<crate::soleils::Soleils>::start(&start).unwrap();
    let drawing = crate::render::svg::for_screen(&crate::render::scene::Scene {
        title: "Ann's sheet".to_owned(),
        pages: vec![crate::print::soleils::replay::phone_sheet(fold.state(), 0)],
    });
    let compressed = brotli(drawing.as_bytes());
    let mut back = Vec::new();
    std::io::Read::read_to_end(
        &mut ::brotli::Decompressor::new(&compressed[..], 4096),
        &mut back,
    )
    .unwrap();
    assert_eq!(back, drawing.as_bytes());
    assert!(
        compressed.len() * 5 < drawing.len(),
        "{} of {}",
        compressed.len(),
        drawing.len()
    );
    assert!(!brotli(b"").is_empty());
}
