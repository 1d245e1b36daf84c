//! Recording a match from a program other than the CLI, through the
//! library's `Recorder`: lock, re-fold, check, append, fsync.

use crate::common;

use sunfold::log::{AppendError, CreateError, Entry, Meta, Recorder};
use sunfold::soleils::{Die, Event, Options, Placed, Rolled, Soleils};

fn die(n: u8) -> Die {
    Die::new(n).expect("a die value")
}

fn fresh(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sunfold-recorder-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn start() -> Event {
    let mut start = common::start(
        &["Ann", "Bob"],
        Options::default(),
        common::default_template(),
    );
    start.format = sunfold::log::LOG_FORMAT;
    Event::Started(start)
}

#[test]
fn a_program_records_a_round_and_the_cli_replays_it() {
    // Given a new log written by the library,
    let path = fresh("library.jsonl");
    Recorder::create::<Soleils>(&path, start(), None, false)
        .ok()
        .unwrap();
    assert!(matches!(
        Recorder::create::<Soleils>(&path, start(), None, false),
        Err(CreateError::Exists)
    ));

    // when a roll and a placement are appended,
    let mut recorder = Recorder::open(&path).unwrap();
    let mut session = recorder.lock().unwrap();
    let mut fold = session.fold::<Soleils>().ok().unwrap();
    let roll = Entry::Game(Event::Rolled(Rolled {
        dice: [die(4), die(5), die(2)],
    }));
    let line = session.line(&fold, roll, None);
    let appended = session.append(&mut fold, line).ok().unwrap();
    assert_eq!((appended.seq, appended.kind), (1, "rolled"));
    let place = |box_id: &str, value| {
        Entry::Game(Event::Placed(Placed {
            player: "Ann".into(),
            box_id: box_id.into(),
            value: die(value),
        }))
    };

    // then an illegal one is refused and changes nothing,
    let before = std::fs::read(&path).unwrap();
    let line = session.line(&fold, place("K1a", 5), None);
    let Err(AppendError::Rejected(error)) = session.append(&mut fold, line) else {
        panic!("a 5 in K1a (pearl 1) was accepted");
    };
    assert!(
        error
            .to_string()
            .starts_with("3: event 2 (placed): box K1a")
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);

    // and a legal one is appended, chained, and can be taken back.
    let line = session.line(&fold, place("K1d", 5), None);
    session.append(&mut fold, line).ok().unwrap();
    let undo = sunfold::log::Session::undo(&fold);
    assert_eq!(undo, Entry::Meta(Meta::Undone { undoes: 2 }));
    drop(session);

    let (code, stdout, stderr) = common::sunfold(&["replay", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("3 events, valid; chained: all 2 hashes verified"),
        "{stdout}"
    );
}
