//! "Review my game": once a table's game has ended, a player's three
//! costliest decisions, each with the better choice and the points it
//! would have saved, judged by the search bot exactly as `sunfold analyse
//! --player NAME` judges them, in its words ([`crate::present::analysis`]).
//!
//! - **Whose.** A player's link gets its own review, and no other's; the
//!   referee's gets any player's (`?player=NAME`).
//! - **What it knows.** Each decision is judged from what its player knew
//!   when they took it, as `analyse` judges it: the search bot draws again
//!   what that seat could not see (in Summertime, the other's cards dealt
//!   face down and the stacks) and never reads the real arrangement. A
//!   review names the player's own decisions alone.
//! - **When.** After the game only: a game still playing is refused (409).
//! - **At what cost.** The log's bytes are copied under its lock, which is
//!   released at once; the judging runs on the bounded pool
//!   ([`super::pool`]), one review at a time in the whole server, on one
//!   thread of lower priority, at [`REVIEW_ROLLOUTS`]: a table still playing never waits for
//!   a review's lock, and keeps the other cores. A review is kept by the
//!   log's hash, the player, the seed and the budget: a second look costs
//!   nothing.
//! - **Answered** 202 while it runs (the page asks again), then 200 with
//!   the [`Review`].

use super::ApiError;
use super::page::Table;
use super::tokens::Role;
use crate::log::{FoldError, OpenError};
use crate::present::analysis::{self, decisions, player_report};
use crate::present::command::quote;
use crate::workbench::analysis::{AnalysisReport, DecisionReport};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The judging bot's rollouts for a review: `search:16`, which judges the
/// decisions of one player of a finished game in seconds on one core.
/// `sunfold analyse` at its own default budget (`search:192` for 62
/// Soleils, `search:512` for Summertime) measures more finely; the review
/// names the budget in its command.
pub const REVIEW_ROLLOUTS: u32 = 16;

/// How many reviews a server keeps: every player of a round of a large
/// event.
const KEPT: usize = 256;

/// A review as the page shows it: the player's costliest decisions, in
/// `sunfold analyse`'s figures and words, and the command that gives them.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Review {
    /// The log, by its name (never where the server keeps it).
    pub file: String,
    /// `soleils` or `summertime`.
    pub game: String,
    pub player: String,
    /// The judging bot, such as `search:16`.
    pub bot: String,
    /// The seed of the rollouts, drawn from the log's hash: the same log
    /// gets the same review.
    pub seed: u64,
    pub rollouts: u32,
    /// What a point lost is: `score` (the player's own final score) or
    /// `lead` (over the other player, in Summertime).
    pub value: String,
    /// `analyse`'s first line: what was judged, by what, and what a point
    /// lost means.
    pub heading: String,
    /// `analyse`'s line for the player: "Ann: 20 decisions, 12.3 points
    /// lost, 2 costly".
    pub summary: String,
    /// The player's decisions judged.
    pub decisions: usize,
    /// The points lost over all of them.
    pub points_lost: f64,
    /// How many were costly (the loss's 95% interval leaves out 0).
    pub costly: usize,
    /// At most three costly decisions, costliest first.
    pub costliest: Vec<Reviewed>,
    /// The command that gives the same figures:
    /// `sunfold analyse FILE --player NAME --seed S --bot search:N`.
    pub command: String,
}

/// One of the costliest decisions.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Reviewed {
    /// `analyse`'s two lines for it: the decision taken, then the better
    /// one and the points it would have saved.
    pub lines: Vec<String>,
    /// The decision as `analyse --format json` gives it.
    pub decision: DecisionReport,
}

impl Review {
    /// The review of `report`'s one player, found with `command`.
    fn of(report: &AnalysisReport, command: String) -> Review {
        let p = &report.players[0];
        let unit = analysis::unit(report);
        Review {
            file: report.file.clone(),
            game: report.game.clone(),
            player: p.player.clone(),
            bot: report.bot.clone(),
            seed: report.seed,
            rollouts: report.rollouts,
            value: report.value.clone(),
            heading: analysis::heading(report),
            summary: analysis::player_text(p, unit),
            decisions: p.decisions,
            points_lost: p.points_lost,
            costly: p.costly,
            costliest: analysis::costliest(report, p)
                .map(|d| Reviewed {
                    lines: analysis::decision_lines(d, unit).to_vec(),
                    decision: d.clone(),
                })
                .collect(),
            command,
        }
    }
}

/// What a review is kept by.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
struct Key {
    /// The SHA-256 of the log's bytes.
    hash: String,
    /// The log's name, as the review names it.
    file: String,
    player: String,
    seed: u64,
    rollouts: u32,
}

/// The reviews of the tables a server serves: those done (or failed),
/// kept by their [`Key`] (the log's hash first, so one table's is never
/// another's), and those running, one at a time.
pub struct Reviews {
    books: Mutex<Books>,
    /// One review judged at a time, whatever the table.
    one: Arc<tokio::sync::Semaphore>,
    /// How many analyses were run.
    runs: AtomicU64,
}

impl Default for Reviews {
    fn default() -> Reviews {
        Reviews {
            books: Mutex::default(),
            one: Arc::new(tokio::sync::Semaphore::new(1)),
            runs: AtomicU64::default(),
        }
    }
}

#[derive(Default)]
struct Books {
    done: HashMap<Key, Result<Arc<Review>, String>>,
    /// The keys of `done`, oldest first: the oldest goes past [`KEPT`].
    order: VecDeque<Key>,
    running: HashSet<Key>,
}

/// Where a request's review stands.
enum Found<G: Table> {
    Done(Result<Arc<Review>, String>),
    Running,
    /// Not yet asked for: the player's decisions, to judge.
    Start(Key, analysis::Decisions<G>),
}

impl Reviews {
    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        self.books.lock().expect("the reviews are never poisoned")
    }

    /// How many analyses were run.
    #[cfg(test)]
    fn runs(&self) -> u64 {
        self.runs.load(Ordering::SeqCst)
    }

    fn found<G: Table>(&self, key: &Key) -> Option<Found<G>> {
        let books = self.books();
        if let Some(done) = books.done.get(key) {
            return Some(Found::Done(done.clone()));
        }
        books.running.contains(key).then_some(Found::Running)
    }

    /// Marks `key` running; false when it runs or is done already.
    fn start(&self, key: &Key) -> bool {
        let mut books = self.books();
        !books.done.contains_key(key) && books.running.insert(key.clone())
    }

    fn finish(&self, key: Key, review: Result<Arc<Review>, String>) {
        let mut books = self.books();
        books.running.remove(&key);
        books.order.push_back(key.clone());
        books.done.insert(key, review);
        while books.order.len() > KEPT {
            if let Some(old) = books.order.pop_front() {
                books.done.remove(&old);
            }
        }
    }
}

/// The seed of a log's review, drawn from its hash: from 1 to 65536.
fn seed_of(hash: &str) -> u64 {
    1 + hash
        .get(..4)
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .unwrap_or(0)
}

/// The player whose review `role` asks for with `?player=` `asked`.
fn whose(role: &Role, asked: Option<String>) -> Result<String, ApiError> {
    match (role, asked) {
        (Role::Referee, Some(name)) => Ok(name),
        (Role::Referee, None) => Err(ApiError::BadRequest(
            "expected ?player=NAME with the referee's link, but found no player named".to_owned(),
        )),
        (Role::Player(me), None) => Ok(me.clone()),
        (Role::Player(me), Some(name)) if name == *me => Ok(name),
        (Role::Player(me), Some(name)) => Err(ApiError::Forbidden(format!(
            "expected a review of {me}'s own decisions, as {me}'s link sees no other's, but found a request for {name}'s"
        ))),
    }
}

/// `GET /api/review[?player=NAME]`: the review of the player of the
/// token (or, for the referee, of NAME) in the log at `path`, named
/// `file`, once the game has ended; kept in `reviews`.
pub async fn answer<G: Table>(
    reviews: Arc<Reviews>,
    path: std::path::PathBuf,
    file: String,
    role: Role,
    asked: Option<String>,
) -> Result<Response, ApiError> {
    let name = whose(&role, asked)?;
    let found = super::pool::blocking({
        let (reviews, name, file) = (reviews.clone(), name.clone(), file.clone());
        move || look::<G>(&path, &reviews, &role, name, file)
    })
    .await?;
    match found {
        Found::Done(Ok(review)) => Ok(axum::Json(&*review).into_response()),
        Found::Done(Err(error)) => Err(ApiError::Internal(error)),
        Found::Running => Ok(working(&name)),
        Found::Start(key, decisions) => {
            if reviews.start(&key) {
                tokio::spawn(run::<G>(reviews, key, decisions));
            }
            Ok(working(&name))
        }
    }
}

/// The answer while a review runs: 202, asked again.
fn working(name: &str) -> Response {
    let body = serde_json::json!({
        "status": 202,
        "working": format!("judging {name}'s decisions"),
    });
    (
        StatusCode::ACCEPTED,
        [(axum::http::header::RETRY_AFTER, "1")],
        axum::Json(body),
    )
        .into_response()
}

/// Where the review of `name` stands for the log at `path` as it is now:
/// kept, running, or to start; refused before the game's end, or for a
/// name the token may not ask for.
fn look<G: Table>(
    path: &std::path::Path,
    reviews: &Reviews,
    role: &Role,
    name: String,
    file: String,
) -> Result<Found<G>, ApiError> {
    // The lock is held only to copy the bytes.
    let bytes =
        crate::table::with_session::<G, _, ApiError>(path, |session| Ok(session.bytes().to_vec()))?;
    let hash = crate::log::line_hash(&bytes);
    let key = Key {
        seed: seed_of(&hash),
        hash,
        file,
        player: name,
        rollouts: REVIEW_ROLLOUTS,
    };
    if let Some(found) = reviews.found::<G>(&key) {
        return Ok(found);
    }
    // The server serves a log that folds: these are a disk's surprises.
    let opened = crate::log::open(&bytes[..]).map_err(|error| {
        ApiError::Internal(match error {
            OpenError::Io(error) => format!("{}: {error}", key.file),
            OpenError::Decode(located) => format!("{}: line {located}", key.file),
        })
    })?;
    let decisions = decisions::<G, _>(opened).map_err(|error| {
        ApiError::Internal(match error {
            FoldError::Io { error, .. } => format!("{}: {error}", key.file),
            FoldError::Start(error) | FoldError::Rejected { error, .. } => {
                format!("{}: line {error}", key.file)
            }
            FoldError::PastEnd { last, .. } => format!("{}: ends at event {last}", key.file),
        })
    })?;
    if !G::is_over(&decisions.end) {
        return Err(ApiError::Other(
            StatusCode::CONFLICT,
            "expected a game that has ended, as a review judges a whole game, but found one still playing".to_owned(),
        ));
    }
    let names = G::player_names(&decisions.end);
    if !names.contains(&key.player) {
        return Err(match role {
            Role::Player(_) => ApiError::Forbidden(
                "expected the token of a player at this table, but found one for no seat"
                    .to_owned(),
            ),
            Role::Referee => ApiError::Other(
                StatusCode::NOT_FOUND,
                format!(
                    "expected a player at this table ({}), but found {}",
                    names.join(", "),
                    key.player
                ),
            ),
        });
    }
    Ok(Found::Start(key, decisions))
}

/// Judges the decisions of `key`'s player, once a review's turn comes, on
/// the bounded pool, on one thread; and keeps the review.
async fn run<G: Table>(reviews: Arc<Reviews>, key: Key, decisions: analysis::Decisions<G>) {
    let one = reviews.one.clone().acquire_owned().await;
    let judged = {
        let (reviews, key) = (reviews.clone(), key.clone());
        super::pool::blocking(move || {
            let _one = one;
            Ok(review::<G>(&reviews, &key, decisions))
        })
        .await
    };
    let review = match judged {
        Ok(review) => review.map(Arc::new),
        Err(error) => Err(error.into_text()),
    };
    reviews.finish(key, review);
}

/// Lowers the priority of the calling thread, a review's, below the
/// tables' (niceness 10): on Linux a thread's niceness is its own, so the
/// tables' requests come first on a busy machine. Elsewhere the call would
/// lower the whole process's, so the review keeps its priority.
#[cfg(target_os = "linux")]
fn yield_to_tables() {
    // SAFETY: setpriority reads its three integers and changes nothing
    // else; 0 names the calling thread on Linux. A refusal leaves the
    // priority as it was, which is only slower for the tables.
    let _ = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, 10) };
}

#[cfg(not(target_os = "linux"))]
fn yield_to_tables() {}

/// The review of `key`'s player in `decisions`, judged on one thread.
fn review<G: Table>(
    reviews: &Reviews,
    key: &Key,
    decisions: analysis::Decisions<G>,
) -> Result<Review, String> {
    let file = key.file.as_str();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .thread_name(|_| "sunfold-review".to_owned())
        .start_handler(|_| yield_to_tables())
        .build()
        .map_err(|e| format!("expected a thread to judge the game on, but found none: {e}"))?;
    reviews.runs.fetch_add(1, Ordering::SeqCst);
    let (player, seed, rollouts) = (&key.player, key.seed, key.rollouts);
    let report = player_report::<G>(file, decisions, player, rollouts, seed, &pool)
        .expect("the review's player sits at the table, as its look checked");
    let command = format!(
        "sunfold analyse {} --player {} --seed {seed} --bot {}",
        quote(file),
        quote(player),
        report.bot
    );
    Ok(Review::of(&report, command))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soleils::Soleils;
    use std::time::Duration;

    /// Long enough to mean that something waits that should not: it only
    /// turns a hang into a failure.
    const HANG: Duration = Duration::from_secs(600);

    /// The review of `role`'s player (or `asked`) in the log at `path`,
    /// asked until it is done: its status, then 200 and its body.
    async fn reviewed(
        reviews: &Arc<Reviews>,
        path: &std::path::Path,
        role: Role,
        asked: Option<&str>,
    ) -> (Vec<StatusCode>, serde_json::Value) {
        let mut statuses = Vec::new();
        let started = std::time::Instant::now();
        loop {
            let answer = answer::<Soleils>(
                reviews.clone(),
                path.to_owned(),
                "match.jsonl".to_owned(),
                role.clone(),
                asked.map(str::to_owned),
            )
            .await
            .map_err(ApiError::into_text)
            .expect("a finished game is reviewed");
            statuses.push(answer.status());
            if answer.status() == StatusCode::OK {
                use http_body_util::BodyExt;
                let bytes = answer.into_body().collect().await.unwrap().to_bytes();
                return (statuses, serde_json::from_slice(&bytes).unwrap());
            }
            assert!(started.elapsed() < HANG, "the review never ended");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Given a finished game reviewed once, when its players' reviews are
    /// asked for again (by the player, and by the referee for them), then
    /// no analysis runs again, and each answer is the first one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_second_look_runs_no_analysis() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("match.jsonl");
        std::fs::write(
            &path,
            include_str!("../../replays/soleils-2p-round-limit.jsonl"),
        )
        .unwrap();
        let reviews = Arc::new(Reviews::default());
        let ann = Role::Player("Ann".to_owned());
        let (statuses, first) = reviewed(&reviews, &path, ann.clone(), None).await;
        assert_eq!(statuses[0], StatusCode::ACCEPTED, "{statuses:?}");
        assert_eq!(reviews.runs(), 1);
        for (role, asked) in [(ann.clone(), None), (Role::Referee, Some("Ann"))] {
            let (statuses, again) = reviewed(&reviews, &path, role, asked).await;
            assert_eq!(statuses, [StatusCode::OK]);
            assert_eq!(again, first);
        }
        assert_eq!(reviews.runs(), 1, "a kept review is never judged again");
        // Bob's is his own, judged once.
        let (_, bob) = reviewed(&reviews, &path, Role::Player("Bob".to_owned()), None).await;
        assert_eq!(bob["player"], "Bob");
        assert_eq!(reviews.runs(), 2);
    }

    /// The seed comes from the log's hash: from 1 to 65536.
    #[test]
    fn the_seed_is_drawn_from_the_log_s_hash() {
        assert_eq!(seed_of("0000ab"), 1);
        assert_eq!(seed_of("ffff00"), 65536);
        assert_eq!(seed_of("1a2b"), 0x1a2b + 1);
    }
}
