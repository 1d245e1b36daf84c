//! The quick simulation beside the editor. After each edit that leaves the
//! file valid, paired games run on one background thread: the saved file
//! against the file as it was opened, and against the saved version before
//! the edit, every game of each on the same dice and bot seeds. The first
//! figures come after [`FIRST`] games, then again every [`EVERY`], until
//! the run's games are played. A new edit cancels the run in flight.
//!
//! A figure is given with its 95% interval over the games played so far;
//! a difference that no game showed says so in words rather than as an
//! interval of no width.

use crate::bots::{Bot, Searched, SoleilsVariant, SummertimeVariant, lineup, play};
use crate::soleils::{Options, Soleils};
use crate::stats::{Estimate, Section, Unit};
use crate::summertime::Summertime;
use crate::template::file::Checked;
use crate::workbench::{Paired, Report, Row, Tally, game_seed};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Paired games of a run, unless chosen otherwise.
pub const GAMES: u64 = 300;
/// The most games a run may be asked for.
pub const MOST_GAMES: u64 = 10_000;
/// Games played before the first figures.
pub const FIRST: u64 = 16;
/// Games between two publications of the figures after the first.
pub const EVERY: u64 = 32;
/// The seed of every run, so that the same files give the same figures.
const SEED: u64 = 1;

/// What the quick simulation plays: its bots and its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The bot in every seat: `greedy`, `random`, `search` or `search:N`.
    pub bot: String,
    /// Paired games per run, 1 to [`MOST_GAMES`].
    pub games: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            bot: "greedy".to_owned(),
            games: GAMES,
        }
    }
}

/// Settings the quick simulation cannot run with.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("bot: {0}")]
    Bot(#[from] crate::bots::BotError),
    #[error("games: expected 1 to {MOST_GAMES} paired games, but found {0}")]
    Games(u64),
}

impl Settings {
    fn bot(&self) -> Result<Bot, SettingsError> {
        if !(1..=MOST_GAMES).contains(&self.games) {
            return Err(SettingsError::Games(self.games));
        }
        Ok(Bot::parse(&self.bot)?)
    }
}

/// A difference B − A over paired games, as a person reads it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Change {
    pub difference: Estimate,
    /// Significant after Holm's correction across the run's figures.
    pub significant: bool,
    /// "-2.10 [-2.47, -1.72]", "+100.0 pp in every game", or "the same in
    /// every game".
    pub text: String,
}

/// One figure of the panel.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Figure {
    /// The report's stable key: `mean_score`, `rounds`, `zone_flag.cabins`.
    pub id: String,
    /// The heading it belongs under.
    pub section: &'static str,
    pub label: String,
    pub unit: Unit,
    /// Its value under the file as opened, when that differs from now.
    pub opened: Option<Estimate>,
    /// Its value under the saved file.
    pub now: Option<Estimate>,
    /// "12.40 [12.10, 12.70]", "12.00 in every game", or "—" where the
    /// file has no such figure.
    pub text: String,
    /// Now against the file as opened.
    pub since_opened: Option<Change>,
    /// Now against the saved version before the last edit.
    pub this_edit: Option<Change>,
}

/// The quick simulation as it stands: what `GET /api/figures` answers.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Standing {
    /// Counts the runs started; a new edit starts the next.
    pub run: u64,
    pub settings: Settings,
    /// Seats at each table.
    pub players: usize,
    /// Paired games played so far in this run.
    pub played: u64,
    /// Whether the run is still playing.
    pub running: bool,
    /// Whether the saved file differs from the file as opened.
    pub changed_since_opened: bool,
    /// Whether the last edit changed the saved file; false at opening,
    /// and after an edit that left the file invalid.
    pub edit_compared: bool,
    /// How long this run took to its first figures, in milliseconds: the
    /// versions checked, the first games played and their figures made.
    pub first_figures_ms: Option<u64>,
    pub figures: Vec<Figure>,
    /// The rule options a sheet's games are played under, every version
    /// alike: chosen in a game's start, never in its sheet.
    pub options: Options,
    /// Why nothing runs: the file has never been valid since it was opened.
    pub waiting: Option<&'static str>,
}

impl Standing {
    /// Run `run` as it begins: nothing played yet.
    fn begun(
        run: u64,
        settings: Settings,
        options: Options,
        changed: bool,
        compared: bool,
    ) -> Standing {
        Standing {
            run,
            settings,
            players: 0,
            played: 0,
            running: true,
            changed_since_opened: changed,
            edit_compared: compared,
            first_figures_ms: None,
            figures: Vec::new(),
            options,
            waiting: None,
        }
    }
}

/// The versions a run compares.
#[derive(Clone)]
struct Versions {
    opened: Value,
    before: Option<Value>,
    now: Value,
}

struct Shared {
    /// The run that may publish; any other stops at its next game.
    run: AtomicU64,
    standing: Mutex<Standing>,
    versions: Mutex<Option<Versions>>,
}

/// The quick simulation of one studio.
#[derive(Clone)]
pub struct Figures {
    shared: Arc<Shared>,
}

impl Figures {
    /// Starts the figures of `saved`, the file as opened, if it is valid.
    pub fn new(saved: &Value) -> Figures {
        let figures = Figures {
            shared: Arc::new(Shared {
                run: AtomicU64::new(0),
                standing: Mutex::new(Standing {
                    running: false,
                    waiting: Some("the file has not been valid since it was opened"),
                    ..Standing::begun(0, Settings::default(), Options::default(), false, false)
                }),
                versions: Mutex::new(None),
            }),
        };
        figures.saved(saved);
        figures
    }

    /// The figures as they stand.
    pub fn standing(&self) -> Standing {
        lock(&self.shared.standing).clone()
    }

    /// Hears of the saved file after an edit, an undo or a redo: when it
    /// changed, the run in flight stops and a new one starts.
    pub fn saved(&self, saved: &Value) {
        let versions = {
            let mut versions = lock(&self.shared.versions);
            let next = match versions.take() {
                // The file as opened is compared only once it is valid; a
                // saved version after it always is.
                None if rules(saved, Options::default()).is_none() => return,
                None => Versions {
                    opened: saved.clone(),
                    before: None,
                    now: saved.clone(),
                },
                Some(v) if &v.now == saved => {
                    *versions = Some(v);
                    return;
                }
                Some(v) => Versions {
                    opened: v.opened,
                    before: Some(v.now),
                    now: saved.clone(),
                },
            };
            *versions = Some(next.clone());
            next
        };
        let (settings, options) = {
            let standing = lock(&self.shared.standing);
            (standing.settings.clone(), standing.options)
        };
        self.start(versions, settings, options);
    }

    /// Plays the current versions again with new settings.
    pub fn settle(&self, settings: Settings) -> Result<Standing, SettingsError> {
        settings.bot()?;
        let options = lock(&self.shared.standing).options;
        let versions = lock(&self.shared.versions).clone();
        match versions {
            Some(versions) => self.start(versions, settings, options),
            None => lock(&self.shared.standing).settings = settings,
        }
        Ok(self.standing())
    }

    /// Plays every version of a sheet again under the rule options
    /// `options`, from the first game.
    pub fn choose(&self, options: Options) -> Standing {
        let settings = lock(&self.shared.standing).settings.clone();
        let versions = lock(&self.shared.versions).clone();
        match versions {
            Some(versions) => self.start(versions, settings, options),
            None => lock(&self.shared.standing).options = options,
        }
        self.standing()
    }

    fn start(&self, versions: Versions, settings: Settings, options: Options) {
        let run = self.shared.run.fetch_add(1, Ordering::SeqCst) + 1;
        let Ok(bot) = settings.bot() else {
            return;
        };
        {
            let mut standing = lock(&self.shared.standing);
            *standing = Standing::begun(
                run,
                settings.clone(),
                options,
                versions.opened != versions.now,
                versions.before.is_some(),
            );
        }
        let shared = self.shared.clone();
        std::thread::spawn(move || {
            let publish = |standing: Standing| {
                let mut shown = lock(&shared.standing);
                if shared.run.load(Ordering::SeqCst) == run {
                    *shown = standing;
                }
            };
            let go_on = || shared.run.load(Ordering::SeqCst) == run;
            let mut standing = lock(&shared.standing).clone();
            let _ = simulate(
                &versions,
                options,
                bot,
                settings.games,
                &mut standing,
                go_on,
                publish,
            );
        });
    }
}

/// The first figures of `now` against `opened` and `before`, played at
/// once on this thread: what a run publishes first, as the benchmark
/// measures it.
pub fn first_figures(
    opened: &Value,
    before: &Value,
    now: &Value,
    settings: &Settings,
) -> Result<Standing, SettingsError> {
    let versions = Versions {
        opened: opened.clone(),
        before: Some(before.clone()),
        now: now.clone(),
    };
    let bot = settings.bot()?;
    let options = Options::default();
    let mut standing = Standing::begun(1, settings.clone(), options, opened != now, true);
    let mut first = None;
    let _ = simulate(
        &versions,
        options,
        bot,
        FIRST,
        &mut standing,
        || true,
        |s| {
            first.get_or_insert(s);
        },
    );
    Ok(first.unwrap_or(standing))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// A version's rules, checked as `template check` checks the file.
enum Rules {
    Sheet(SoleilsVariant),
    Deck(SummertimeVariant),
}

/// `value`'s rules, a sheet's under `options`.
fn rules(value: &Value, options: Options) -> Option<Rules> {
    let text = super::session::template_text(value);
    match crate::template::file::check(&text).ok()? {
        Checked::Sheet(template) => Some(Rules::Sheet(SoleilsVariant {
            source: "studio".to_owned(),
            raw: template.raw().clone(),
            template: Arc::new(template),
            options,
        })),
        Checked::Deck(deck) => Some(Rules::Deck(SummertimeVariant {
            source: "studio".to_owned(),
            raw: deck.raw().clone(),
            deck: Arc::new(deck),
        })),
    }
}

/// Plays the run of `versions`, publishing as it goes, while `go_on`.
fn simulate(
    versions: &Versions,
    options: Options,
    bot: Bot,
    games: u64,
    standing: &mut Standing,
    go_on: impl Fn() -> bool,
    publish: impl FnMut(Standing),
) -> Option<()> {
    let started = Instant::now();
    let now = rules(&versions.now, options)?;
    // A version of the other game, or one no longer valid, is not compared.
    let of = |value: &Value| match (rules(value, options)?, &now) {
        (Rules::Sheet(v), Rules::Sheet(_)) => Some(Rules::Sheet(v)),
        (Rules::Deck(v), Rules::Deck(_)) => Some(Rules::Deck(v)),
        _ => None,
    };
    let opened = (versions.opened != versions.now)
        .then(|| of(&versions.opened))
        .flatten();
    let before = versions
        .before
        .as_ref()
        .filter(|b| **b != versions.now)
        .and_then(of);
    standing.changed_since_opened = opened.is_some();
    standing.edit_compared = before.is_some();
    let run = Run {
        bot,
        games,
        started,
        go_on,
        publish,
    };
    match now {
        Rules::Sheet(now) => {
            let pick = |r: Option<Rules>| match r {
                Some(Rules::Sheet(v)) => Some(v),
                _ => None,
            };
            run.play::<Soleils>(&now, pick(opened).as_ref(), pick(before).as_ref(), standing);
        }
        Rules::Deck(now) => {
            let pick = |r: Option<Rules>| match r {
                Some(Rules::Deck(v)) => Some(v),
                _ => None,
            };
            run.play::<Summertime>(&now, pick(opened).as_ref(), pick(before).as_ref(), standing);
        }
    }
    Some(())
}

struct Run<C, P> {
    bot: Bot,
    games: u64,
    /// When the run began, before the versions were checked.
    started: Instant,
    go_on: C,
    publish: P,
}

impl<C: Fn() -> bool, P: FnMut(Standing)> Run<C, P> {
    fn play<G: Searched>(
        mut self,
        now: &G::Variant,
        opened: Option<&G::Variant>,
        before: Option<&G::Variant>,
        standing: &mut Standing,
    ) {
        let range = G::players(now);
        let players = if range.min == range.max { range.min } else { 4 };
        standing.players = players;
        let bots = [self.bot];
        let tally =
            |v: &G::Variant| Tally::new(G::variant_info(v), players, &bots, G::metrics(v, players));
        let mut since = Paired::new(tally(opened.unwrap_or(now)), tally(now));
        let mut edit = Paired::new(tally(before.unwrap_or(now)), tally(now));
        let mut seats = Vec::new();
        for i in 0..self.games {
            if !(self.go_on)() {
                return;
            }
            lineup(&bots, players, i, &mut seats);
            let seed = game_seed(SEED, i);
            let game_now = play::<G>(now, players, &seats, seed);
            let game_opened = opened.map(|v| play::<G>(v, players, &seats, seed));
            let game_before = before.map(|v| play::<G>(v, players, &seats, seed));
            since.add(i, game_opened.as_ref().unwrap_or(&game_now), &game_now);
            edit.add(i, game_before.as_ref().unwrap_or(&game_now), &game_now);
            let played = i + 1;
            if played == FIRST.min(self.games) || played % EVERY == 0 || played == self.games {
                standing.played = played;
                standing.running = played < self.games;
                if standing.first_figures_ms.is_none() {
                    standing.first_figures_ms = Some(self.started.elapsed().as_millis() as u64);
                }
                let since = since.clone().report(G::NAME, G::TITLE, SEED);
                let edit = edit.clone().report(G::NAME, G::TITLE, SEED);
                standing.figures = panel(
                    &since,
                    standing.changed_since_opened.then_some(&since),
                    standing.edit_compared.then_some(&edit),
                );
                (self.publish)(standing.clone());
            }
        }
    }
}

/// The sections the panel shows.
const SHOWN: [Section; 6] = [
    Section::Score,
    Section::Length,
    Section::End,
    Section::Source,
    Section::Completion,
    Section::Cards,
];

/// The panel's figures: each of `now`'s shown rows (the mean score of all
/// seats alone, not each seat's), with the changes since opening and of
/// the last edit where they were played.
fn panel(now: &Report, since: Option<&Report>, edit: Option<&Report>) -> Vec<Figure> {
    let change = |report: Option<&Report>, id: &str| -> Option<Change> {
        let row = report?.row(id)?;
        Some(change_of(row, row.difference?))
    };
    now.rows
        .iter()
        .filter(|row| SHOWN.contains(&row.metric.section))
        .filter(|row| row.metric.section != Section::Score || row.metric.id == "mean_score")
        .map(|row| {
            let unit = row.metric.unit;
            Figure {
                id: row.metric.id.clone(),
                section: row.metric.section.title(),
                label: row.metric.label.clone(),
                unit,
                opened: since.and(row.a),
                now: row.b,
                text: match row.b {
                    Some(e) if flat(e) => format!("{} in every game", unit.show(e.estimate)),
                    Some(e) => format!(
                        "{} [{}, {}]",
                        unit.show(e.estimate),
                        unit.show(e.ci95[0]),
                        unit.show(e.ci95[1])
                    ),
                    None => "—".to_owned(),
                },
                since_opened: change(since, &row.metric.id),
                this_edit: change(edit, &row.metric.id),
            }
        })
        .collect()
}

/// An estimate with no spread: every game gave the same value, which an
/// interval of no width would hide.
fn flat(e: Estimate) -> bool {
    (e.ci95[1] - e.ci95[0]).abs() < 1e-12
}

fn change_of(row: &Row, difference: Estimate) -> Change {
    let unit = row.metric.unit;
    let text = if flat(difference) && difference.estimate.abs() < 1e-12 {
        "the same in every game".to_owned()
    } else if flat(difference) {
        format!(
            "{} in every game",
            unit.show_difference(difference.estimate)
        )
    } else {
        format!(
            "{} [{}, {}]",
            unit.show_difference(difference.estimate),
            unit.show_difference(difference.ci95[0]),
            unit.show_difference(difference.ci95[1])
        )
    };
    Change {
        difference,
        significant: row.significant(),
        text,
    }
}
