//! The drawings of a table's panels, each made once for what it shows and
//! kept for every page that shows it.
//!
//! A panel's drawing is kept under a digest of its inputs ([`Inputs`]):
//! for a 62 Soleils sheet, the template, that player's marks, sun track,
//! rewards and score, nothing else; for the Summertime table, the fold it
//! is drawn from and the seat it is seen from. A post therefore draws only
//! the panels whose inputs it changed: a placement one sheet, a roll none.
//! Equal inputs draw the same picture, so a kept drawing is never stale.
//!
//! Each panel has two layouts, wide and for a phone, and each is drawn
//! the first time a page asks for it: a phone that fetches its sheet by
//! hash draws the phone's layout alone. A panel is named by a hash of its
//! inputs, keyed with a secret this process draws when it starts
//! ([`Drawn::hash`]), so that it is known before either layout is drawn,
//! says nothing of what the drawing shows, and names no drawing of
//! another run of the server. A page holds drawings by that hash
//! (`?have=`), and fetches the one it lacks at the immutable address
//! `/api/panels/HASH/LAYOUT`. Each drawing keeps who may see it (its seat,
//! or only the referee), so a hash is never a way around what a seat may
//! see.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How many panels a table keeps: every panel of a table of 12, each for
/// a few folds.
const KEPT: usize = 64;

/// How a panel is laid out: for a wide screen, or for a phone's narrow
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Wide,
    Phone,
}

/// What draws a panel in a layout, as an SVG document.
pub type Draw = Box<dyn Fn(Layout) -> String + Send + Sync>;

/// One panel: its hash, and its drawing in each layout once asked for.
pub struct Drawn {
    /// 16 hex digits of the SHA-256 of this process's secret, the
    /// panel's inputs and who may see it.
    pub hash: String,
    wide: OnceLock<String>,
    phone: OnceLock<String>,
    /// Each layout's drawing in brotli, once a client that takes it
    /// fetched it.
    wide_br: OnceLock<axum::body::Bytes>,
    phone_br: OnceLock<axum::body::Bytes>,
    draw: Draw,
}

/// The secret the hashes of this process's drawings are keyed with.
fn secret() -> &'static [u8; 32] {
    static SECRET: OnceLock<[u8; 32]> = OnceLock::new();
    SECRET.get_or_init(|| {
        let mut secret = [0u8; 32];
        if getrandom::fill(&mut secret).is_err() {
            // No randomness from the system: a secret unique to this run
            // still keeps the hashes of two runs apart.
            use sha2::Digest;
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            let run = format!("{} {:?}", std::process::id(), now);
            secret = sha2::Sha256::digest(run.as_bytes()).into();
        }
        secret
    })
}

impl Drawn {
    fn new(inputs: Inputs, draw: Draw) -> Drawn {
        use sha2::Digest;
        let mut digest = sha2::Sha256::new();
        digest.update(secret());
        digest.update(inputs.digest);
        match inputs.seat {
            Some(seat) => digest.update((seat as u64 + 1).to_le_bytes()),
            None => digest.update(0u64.to_le_bytes()),
        }
        let digest = digest.finalize();
        let hash = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        Drawn {
            hash,
            wide: OnceLock::new(),
            phone: OnceLock::new(),
            wide_br: OnceLock::new(),
            phone_br: OnceLock::new(),
            draw,
        }
    }
}

/// What a panel's drawing is made from, digested: two panels with the
/// same inputs are drawn alike. `seat` is who may see the drawing: that
/// seat and the referee; `None` for the referee alone.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Inputs {
    pub digest: [u8; 32],
    pub seat: Option<usize>,
}

impl Inputs {
    /// The inputs written by `write` into a digest, seen by `seat`.
    pub fn of(seat: Option<usize>, write: impl FnOnce(&mut dyn std::io::Write)) -> Inputs {
        use sha2::Digest;
        struct Digesting(sha2::Sha256);
        impl std::io::Write for Digesting {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.update(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut digesting = Digesting(sha2::Sha256::new());
        write(&mut digesting);
        Inputs {
            digest: digesting.0.finalize().into(),
            seat,
        }
    }
}

/// The panels one table keeps, the most recent last.
#[derive(Default)]
pub struct Drawings {
    kept: Mutex<VecDeque<(Inputs, Arc<Drawn>)>>,
    /// How many layouts of panels were drawn.
    made: AtomicU64,
    /// Called before each drawing is made, by tests that hold it.
    #[cfg(test)]
    pub(crate) before: Mutex<Option<Arc<dyn Fn() + Send + Sync>>>,
}

impl Drawings {
    /// How many layouts of panels this table has drawn.
    #[cfg(test)]
    pub(crate) fn made(&self) -> u64 {
        self.made.load(Ordering::SeqCst)
    }

    /// The panel of `inputs`: the one kept, or a new one that `make`
    /// gives the drawer of, kept. Nothing is drawn yet: [`Drawings::draw`]
    /// draws a layout when a page asks for it.
    pub fn get(&self, inputs: Inputs, make: impl FnOnce() -> Draw) -> Arc<Drawn> {
        let mut kept = self.kept.lock().expect("the drawings are never poisoned");
        match kept.iter().position(|(k, _)| *k == inputs) {
            Some(at) => {
                // The most recently asked for is evicted last.
                let entry = kept.remove(at).expect("found");
                let drawn = entry.1.clone();
                kept.push_back(entry);
                drawn
            }
            None => {
                let drawn = Arc::new(Drawn::new(inputs, make()));
                if kept.len() == KEPT {
                    kept.pop_front();
                }
                kept.push_back((inputs, drawn.clone()));
                drawn
            }
        }
    }

    /// `drawn` laid out as `layout`: drawn the first time it is asked
    /// for. Requests that ask for the same layout at once wait for one to
    /// draw it.
    pub fn draw<'a>(&self, drawn: &'a Drawn, layout: Layout) -> &'a str {
        let cell = match layout {
            Layout::Wide => &drawn.wide,
            Layout::Phone => &drawn.phone,
        };
        cell.get_or_init(|| {
            #[cfg(test)]
            {
                let before = self.before.lock().unwrap().clone();
                if let Some(before) = before {
                    before();
                }
            }
            self.made.fetch_add(1, Ordering::SeqCst);
            (drawn.draw)(layout)
        })
    }

    /// `drawn` laid out as `layout`, in brotli ([`super::edge::wire::brotli`]):
    /// compressed the first time it is asked for, and kept.
    pub fn brotli(&self, drawn: &Drawn, layout: Layout) -> axum::body::Bytes {
        let cell = match layout {
            Layout::Wide => &drawn.wide_br,
            Layout::Phone => &drawn.phone_br,
        };
        cell.get_or_init(|| {
            let svg = self.draw(drawn, layout);
            super::edge::wire::brotli(svg.as_bytes()).into()
        })
        .clone()
    }

    /// The kept panel whose hash is `hash`, if `me` may see it: the
    /// referee (`None`) sees every panel, a seat those drawn for it.
    pub fn find(&self, hash: &str, me: Option<usize>) -> Option<Arc<Drawn>> {
        let kept = self.kept.lock().expect("the drawings are never poisoned");
        kept.iter().rev().find_map(|(inputs, drawn)| {
            (drawn.hash == hash && (me.is_none() || inputs.seat == me)).then(|| drawn.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::http::{Shared, router};
    use super::super::join::Join;
    use super::super::{Kept, Tokens};
    use crate::soleils::Soleils;
    use crate::table::SystemClock;
    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use http_body_util::BodyExt;
    use serde_json::Value;
    use std::sync::{Arc, Mutex, mpsc};
    use std::time::Duration;
    use tower::ServiceExt;

    /// Long enough to mean that something waits that should not: these
    /// limits only turn a hang into a failure.
    const HANG: Duration = Duration::from_secs(120);

    /// A table of Ann and Bob, the golden two-player game's start line, in
    /// `dir`: what its routes share, and its router.
    fn table(dir: &std::path::Path) -> (Arc<Shared>, axum::Router) {
        let golden = include_str!("../../replays/soleils-2p-round-limit.jsonl");
        let shared = shared(dir, golden, &["Ann", "Bob"]);
        (shared.clone(), router::<Soleils>(shared))
    }

    /// What the routes of a table of `players` share, its log the start
    /// line of `golden`, in `dir`.
    fn shared(dir: &std::path::Path, golden: &str, players: &[&str]) -> Arc<Shared> {
        let path = dir.join("match.jsonl");
        std::fs::write(&path, format!("{}\n", golden.lines().next().unwrap())).unwrap();
        let players: Vec<String> = players.iter().map(|p| (*p).to_owned()).collect();
        let tokens = Tokens::new(&players).unwrap();
        Arc::new(Shared {
            path,
            tokens,
            appended: tokio::sync::broadcast::channel(16).0,
            clock: Arc::new(SystemClock),
            seen: 0.into(),
            join: Join::new(Arc::new(|_| {})),
            closed: None,
            room: None,
            kept: Kept::new(),
            drawings: Default::default(),
            bots: None,
        })
    }

    async fn send(router: &axum::Router, request: Request<Body>) -> (StatusCode, Value) {
        let response = router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn view(router: &axum::Router, token: &str, path: &str) -> Value {
        let request = Request::get(path)
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::empty())
            .unwrap();
        let (status, page) = send(router, request).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        page
    }

    async fn post(router: &axum::Router, token: &str, body: &str) -> (StatusCode, Value) {
        let request = Request::post("/api/events")
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .body(Body::from(body.to_owned()))
            .unwrap();
        send(router, request).await
    }

    fn hash(page: &Value) -> String {
        page["panels"][0]["hash"].as_str().unwrap().to_owned()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_view_of_a_page_that_holds_its_drawing_draws_nothing_until_the_log_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (shared, router) = table(dir.path());
        let ann = shared.tokens.players["Ann"].clone();
        let referee = shared.tokens.referee.clone();
        let drawings = &shared.drawings;

        let page = view(&router, &ann, "/api/view").await;
        assert!(page["panels"][0]["svg"].is_string());
        assert_eq!(
            drawings.made(),
            2,
            "Ann's sheet is drawn once, in each layout"
        );
        let held = hash(&page);

        // The page holds it: the answer comes from what is kept.
        let again = view(&router, &ann, &format!("/api/view?have={held}")).await;
        assert_eq!(hash(&again), held);
        assert!(again["panels"][0].get("svg").is_none(), "{again}");
        assert!(again["panels"][0].get("phone").is_none(), "{again}");
        assert_eq!(drawings.made(), 2, "nothing changed, nothing drawn");

        // A page that does not hold it gets it, still without a drawing.
        let fresh = view(&router, &ann, "/api/view").await;
        assert!(fresh["panels"][0]["svg"].is_string());
        assert_eq!(drawings.made(), 2);

        // The referee's page shows both sheets: only Bob's is new.
        let both = view(&router, &referee, "/api/view").await;
        assert_eq!(both["panels"][0]["hash"], held.as_str());
        assert_eq!(drawings.made(), 4);

        // A roll changes no sheet: nothing is drawn again.
        let (status, answer) = post(&router, &referee, r#"{"type":"rolled","dice":[5,6,2]}"#).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let rolled = view(&router, &ann, &format!("/api/view?have={held}")).await;
        assert_eq!(hash(&rolled), held);
        view(&router, &referee, "/api/view").await;
        assert_eq!(drawings.made(), 4, "a roll draws no sheet");

        // Ann writes a box: her sheet alone is drawn again, once for
        // every page that shows it.
        let choices = rolled["choices"].as_array().unwrap();
        let place = choices.iter().find(|c| c["group"] == "place").unwrap();
        let (status, answer) = post(&router, &ann, &place["event"].to_string()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let placed = view(&router, &ann, &format!("/api/view?have={held}")).await;
        assert_ne!(hash(&placed), held);
        let both = view(&router, &referee, "/api/view").await;
        view(&router, &ann, "/api/view").await;
        assert_eq!(both["panels"][0]["hash"], hash(&placed).as_str());
        assert_eq!(drawings.made(), 6, "Ann's sheet once, Bob's kept");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_phone_that_fetches_its_sheet_by_hash_draws_the_phone_s_layout_alone() {
        use super::super::page::{Painter, Table};
        let dir = tempfile::tempdir().unwrap();
        let (shared, router) = table(dir.path());
        let ann = shared.tokens.players["Ann"].clone();
        let bob = shared.tokens.players["Bob"].clone();
        let drawings = &shared.drawings;

        // Given the hash of Ann's sheet, as the stream names it: nothing
        // drawn for that.
        let snapshot = shared
            .kept
            .read::<Soleils, crate::serve::ApiError>(&shared.path);
        let snapshot = snapshot.unwrap_or_else(|_| panic!("the log reads"));
        let painter = Painter {
            drawings,
            generation: snapshot.generation,
            have: Default::default(),
            bare: true,
        };
        let page = Soleils::page(&snapshot.fold, crate::table::Viewer::Seat(0), &painter);
        let hash = page.panels[0].hash.clone();
        assert!(page.panels[0].svg.is_none() && page.panels[0].phone.is_none());
        assert_eq!(drawings.made(), 0, "a hash is known before any drawing");

        // When her phone fetches it, twice, then Bob asks for it.
        let fetch = |token: &str, layout: &str| {
            Request::get(format!("/api/panels/{hash}/{layout}"))
                .header(header::AUTHORIZATION, format!("Bearer {token}"))
                .body(Body::empty())
                .unwrap()
        };
        for _ in 0..2 {
            let answer = router.clone().oneshot(fetch(&ann, "phone")).await.unwrap();
            assert_eq!(answer.status(), StatusCode::OK);
            let bytes = answer.into_body().collect().await.unwrap().to_bytes();
            assert!(bytes.starts_with(b"<svg"), "{:?}", &bytes[..20]);
        }
        let (status, _) = send(&router, fetch(&bob, "phone")).await;

        // Then the phone's layout alone was drawn, once, and Bob may not
        // see Ann's sheet by its hash.
        assert_eq!(drawings.made(), 1, "the phone's layout, once");
        assert_eq!(status, StatusCode::NOT_FOUND);
        let answer = router.clone().oneshot(fetch(&ann, "wide")).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        assert_eq!(drawings.made(), 2, "the wide layout when it is asked for");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_name_the_built_in_font_lacks_is_drawn_on_every_page_that_shows_its_sheet() {
        // Given a table of 李雷 and Bob, whose name the built-in font lacks.
        let dir = tempfile::tempdir().unwrap();
        let golden = include_str!("../../replays/soleils-2p-round-limit.jsonl");
        let start = golden
            .lines()
            .next()
            .unwrap()
            .replacen("\"Ann\"", "\"李雷\"", 1);
        let shared = shared(dir.path(), &start, &["李雷", "Bob"]);
        let router = router::<Soleils>(shared.clone());
        let li = shared.tokens.players["李雷"].clone();
        let referee = shared.tokens.referee.clone();
        // When their page and the referee's are drawn.
        let theirs = view(&router, &li, "/api/view").await;
        let all = view(&router, &referee, "/api/view").await;
        // Then each shows the sheet with the name on it, in both layouts.
        for panel in [&theirs["panels"][0], &all["panels"][0]] {
            assert_eq!(panel["name"], "李雷");
            for layout in ["svg", "phone"] {
                let drawing = panel[layout].as_str().unwrap();
                assert!(
                    drawing.starts_with("<svg") && drawing.contains("李雷"),
                    "{layout}: {drawing:.80}"
                );
                // At a whole em a character, as the browser's font draws
                // it, not squeezed to the built-in font's missing glyph.
                let text = &drawing[..drawing.find("\n李雷").unwrap()];
                let tag = &text[text.rfind("<text").unwrap()..];
                let number = |name: &str| -> f32 {
                    let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                    tag[at..].split('"').next().unwrap().parse().unwrap()
                };
                let (size, length) = (number("font-size"), number("textLength"));
                assert!((length - 2.0 * size).abs() < 0.02, "{layout}: {tag}");
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_post_at_a_table_never_waits_for_a_drawing_at_that_table() {
        let dir = tempfile::tempdir().unwrap();
        let (shared, router) = table(dir.path());
        let ann = shared.tokens.players["Ann"].clone();
        let referee = shared.tokens.referee.clone();

        // The next drawing says it started, then waits to be let go.
        let (started, drawing) = mpsc::channel::<()>();
        let (release, held) = mpsc::channel::<()>();
        let (started, held) = (Mutex::new(started), Mutex::new(held));
        *shared.drawings.before.lock().unwrap() = Some(Arc::new(move || {
            started.lock().unwrap().send(()).unwrap();
            let _ = held.lock().unwrap().recv_timeout(HANG);
        }));
        let viewing = {
            let router = router.clone();
            tokio::spawn(async move { view(&router, &ann, "/api/view").await })
        };
        tokio::task::spawn_blocking(move || drawing.recv_timeout(HANG))
            .await
            .unwrap()
            .expect("the view starts drawing");
        *shared.drawings.before.lock().unwrap() = None;

        // The drawing is held; the post at the same table is answered.
        let posted = tokio::time::timeout(
            HANG,
            post(&router, &referee, r#"{"type":"rolled","dice":[5,6,2]}"#),
        )
        .await
        .expect("the post is answered while the drawing is held");
        assert_eq!(posted.0, StatusCode::OK, "{}", posted.1);
        assert_eq!(posted.1["seq"], 1);

        release.send(()).unwrap();
        let page = viewing.await.unwrap();
        // The view was drawn from the log as it stood when it was read.
        assert_eq!(page["seq"], 0);
        assert!(page["panels"][0]["svg"].is_string());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_summertime_entry_draws_the_table_once_for_each_seat_that_looks() {
        let dir = tempfile::tempdir().unwrap();
        let golden = include_str!("../../replays/summertime-rulebook-examples.jsonl");
        let shared = shared(dir.path(), golden, &["Ann", "Ben"]);
        let router = router::<crate::summertime::Summertime>(shared.clone());
        let ann = shared.tokens.players["Ann"].clone();
        let referee = shared.tokens.referee.clone();
        let drawings = &shared.drawings;

        // Given Ann's page and the referee's, each drawn once...
        let page = view(&router, &ann, "/api/view").await;
        view(&router, &referee, "/api/view").await;
        view(&router, &ann, "/api/view").await;
        assert_eq!(
            drawings.made(),
            4,
            "the table as Ann sees it, and all of it, in each layout"
        );

        // ...when an entry is appended, then each draws the table once more.
        let turn = page["choices"].as_array().unwrap().first().cloned();
        let referee_page = view(&router, &referee, "/api/view").await;
        let first = turn
            .or_else(|| referee_page["choices"].as_array().unwrap().first().cloned())
            .expect("someone has a decision to make");
        let (status, answer) = post(&router, &referee, &first["event"].to_string()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        view(&router, &ann, "/api/view").await;
        view(&router, &ann, "/api/view").await;
        assert_eq!(drawings.made(), 6);
        view(&router, &referee, "/api/view").await;
        assert_eq!(drawings.made(), 8);
    }

    /// A sheet's drawing is a function of its inputs: along a whole game,
    /// two folds with the same inputs for a sheet draw it alike, so a
    /// drawing kept under its inputs is never stale.
    #[test]
    fn equal_sheet_inputs_draw_equal_sheets_along_a_game() {
        use crate::log::{Fold, Line};
        use crate::print::soleils::replay::{phone_sheet, viewer_sheet};
        let golden = include_str!("../../replays/soleils-4p-sun-limit.jsonl");
        let mut lines = golden.lines().enumerate().map(|(n, text)| Line {
            number: n + 1,
            bytes: text.as_bytes(),
            terminated: true,
        });
        let (mut fold, _) = Fold::<Soleils>::start(&lines.next().unwrap()).unwrap();
        let mut drawn: std::collections::HashMap<[u8; 32], (String, String)> = Default::default();
        let (mut kept, mut changed) = (0, 0);
        // Its first rounds: enough to see sheets written and scored.
        for line in lines.take(60) {
            fold.feed(&line).unwrap();
            let state = fold.state();
            for p in 0..state.players().len() {
                let inputs = super::super::page::sheet_inputs(state, p);
                let svg = |pages| {
                    crate::render::svg::to_svg(&crate::render::scene::Scene {
                        title: String::new(),
                        pages,
                    })
                };
                let now = (
                    svg(viewer_sheet(state, p)).unwrap(),
                    svg(vec![phone_sheet(state, p)]).unwrap(),
                );
                match drawn.get(&inputs.digest) {
                    Some(before) => {
                        kept += 1;
                        assert!(
                            *before == now,
                            "line {}: sheet {p} drawn otherwise",
                            line.number
                        );
                    }
                    None => {
                        changed += 1;
                        drawn.insert(inputs.digest, now);
                    }
                }
            }
        }
        // Most entries leave most sheets as they were.
        assert!(kept > changed, "{kept} kept, {changed} drawn");
    }
}
