//! The drawings of a table's panels, made once for each fold of its log
//! and kept for every page that shows them.
//!
//! A panel's drawing depends on the fold it is drawn from and on the panel
//! (a seat's sheet, or the table as one seat sees it), never on who asks
//! for it, so it is kept under the fold's generation ([`Snapshot`]) and
//! the panel. A page that already holds a drawing names its hash in
//! `?have=`: when the fold has not changed, the hash comes from what is
//! kept and nothing is drawn. The hash is that of the drawing itself, so a
//! panel whose drawing a new fold leaves unchanged keeps its hash, and is
//! not sent again to a page that holds it.
//!
//! [`Snapshot`]: super::kept::Snapshot

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How many drawings a table keeps: every panel of a few folds (a table
/// seats at most 12).
const KEPT: usize = 48;

/// One panel drawn: for a wide screen, for a phone, and their hash.
pub struct Drawn {
    pub svg: String,
    pub phone: String,
    /// The first 16 hex digits of the SHA-256 of both drawings.
    pub hash: String,
}

impl Drawn {
    pub fn new(svg: String, phone: String) -> Drawn {
        use sha2::Digest;
        let mut digest = sha2::Sha256::new();
        digest.update(svg.as_bytes());
        digest.update([0]);
        digest.update(phone.as_bytes());
        let digest = digest.finalize();
        let hash = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        Drawn { svg, phone, hash }
    }
}

/// The generation of a fold and the panel: a seat, or none.
type Key = (u64, Option<usize>);

/// A drawing, made by the first request that needs it.
type Cell = Arc<OnceLock<Arc<Drawn>>>;

/// The drawings one table keeps, the most recent last.
#[derive(Default)]
pub struct Drawings {
    kept: Mutex<VecDeque<(Key, Cell)>>,
    /// How many panels were drawn.
    made: AtomicU64,
    /// Called before each drawing is made, by tests that hold it.
    #[cfg(test)]
    pub(crate) before: Mutex<Option<Arc<dyn Fn() + Send + Sync>>>,
}

impl Drawings {
    /// How many panels this table has drawn.
    #[cfg(test)]
    pub(crate) fn made(&self) -> u64 {
        self.made.load(Ordering::SeqCst)
    }

    /// The drawing of `panel` in the fold of `generation`: the one kept,
    /// or `draw`'s, kept. Requests that ask for the same drawing at once
    /// wait for one to draw it.
    pub fn get(
        &self,
        generation: u64,
        panel: Option<usize>,
        draw: impl FnOnce() -> (String, String),
    ) -> Arc<Drawn> {
        let key = (generation, panel);
        let cell = {
            let mut kept = self.kept.lock().expect("the drawings are never poisoned");
            match kept.iter().find(|(k, _)| *k == key) {
                Some((_, cell)) => cell.clone(),
                None => {
                    let cell = Arc::new(OnceLock::new());
                    if kept.len() == KEPT {
                        kept.pop_front();
                    }
                    kept.push_back((key, cell.clone()));
                    cell
                }
            }
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
            let (svg, phone) = draw();
            Arc::new(Drawn::new(svg, phone))
        })
        .clone()
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
        let path = dir.join("match.jsonl");
        std::fs::write(&path, format!("{}\n", golden.lines().next().unwrap())).unwrap();
        let tokens = Tokens::new(&["Ann".to_owned(), "Bob".to_owned()]).unwrap();
        let shared = Arc::new(Shared {
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
        });
        (shared.clone(), router::<Soleils>(shared))
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
        assert_eq!(drawings.made(), 1, "Ann's sheet is drawn once");
        let held = hash(&page);

        // The page holds it: the answer comes from what is kept.
        let again = view(&router, &ann, &format!("/api/view?have={held}")).await;
        assert_eq!(hash(&again), held);
        assert!(again["panels"][0].get("svg").is_none(), "{again}");
        assert!(again["panels"][0].get("phone").is_none(), "{again}");
        assert_eq!(drawings.made(), 1, "nothing changed, nothing drawn");

        // A page that does not hold it gets it, still without a drawing.
        let fresh = view(&router, &ann, "/api/view").await;
        assert!(fresh["panels"][0]["svg"].is_string());
        assert_eq!(drawings.made(), 1);

        // The referee's page shows both sheets: only Bob's is new.
        let both = view(&router, &referee, "/api/view").await;
        assert_eq!(both["panels"][0]["hash"], held.as_str());
        assert_eq!(drawings.made(), 2);

        // A roll makes a new fold: each sheet is drawn once more, for
        // every page that shows it.
        let (status, answer) = post(&router, &referee, r#"{"type":"rolled","dice":[5,6,2]}"#).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let rolled = view(&router, &ann, &format!("/api/view?have={held}")).await;
        assert_eq!(drawings.made(), 3);
        let now = hash(&rolled);
        view(&router, &referee, &format!("/api/view?have={now}")).await;
        view(&router, &ann, &format!("/api/view?have={now}")).await;
        assert_eq!(drawings.made(), 4, "Bob's sheet once, Ann's kept");
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
}
