//! What each page of the table server shows and offers: the panels drawn
//! by the same scene code as print and the replay viewer, and the choices
//! that are legal now for the token's holder, each a wire event the page
//! posts unchanged. Everything here comes from the engine; the page only
//! lays it out.

use super::drawn::{Draw, Drawings, Inputs, Layout};
use crate::kit::game::Game;
use crate::log::Fold;
use crate::present::Present;
use crate::present::choice::{Kind, Offer};
use crate::render::scene::{Page, Scene};
use crate::soleils::{self, Soleils};
use crate::summertime::{self, Summertime};
use crate::table::Viewer;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// One decision the page may post.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Choice {
    /// What kind of decision, by which the page groups its buttons.
    pub group: Kind,
    /// The button's text.
    pub label: String,
    /// The SVG group it belongs to (`box:K1a`), for a choice made by
    /// tapping the sheet.
    pub key: Option<String>,
    /// The entry to post to `/api/events`.
    pub event: serde_json::Value,
    /// The card in hand a play is made with (`Ocean 2 (O2)`): on a phone,
    /// the player taps it, then a highlighted cell of the grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<String>,
}

impl Choice {
    fn new(offer: Offer, event: serde_json::Value) -> Choice {
        Choice {
            group: offer.kind,
            label: offer.label,
            key: offer.key,
            event,
            hand: offer.hand,
        }
    }
}

/// A player's line in the progress list.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Line {
    pub name: String,
    pub score: i64,
    /// What the table waits for from them, if anything.
    pub waiting: Option<String>,
}

/// One drawing: a player's sheet, or the Summertime table.
#[derive(Serialize, schemars::JsonSchema)]
pub struct Panel {
    pub name: String,
    /// The drawing; left out when the page already holds it (its hash was
    /// in `?have=`), so that an update sends only the panels that changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
    /// The same drawing laid out for a phone's narrow screen, where every
    /// word stays legible at the screen's width; left out with `svg`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// The panel's name for its drawings, the same while what it shows is
    /// the same, and fetched by: 16 hex digits of a hash of its inputs,
    /// keyed with a secret of the server's run.
    pub hash: String,
}

/// Where a page's panels come from: the table's drawings, each made
/// there once for its inputs; and the hashes of the drawings the page
/// holds already, which are not sent again.
pub struct Painter<'a> {
    pub drawings: &'a Drawings,
    /// The fold's generation: what a drawing of the whole fold is kept
    /// under.
    pub generation: u64,
    pub have: HashSet<&'a str>,
    /// Every panel by its hash alone, without its drawings: the stream
    /// names them, and the page fetches those it lacks by hash.
    pub bare: bool,
}

impl Painter<'_> {
    /// The panel `name` of `inputs`, drawn in each layout by the drawer
    /// `make` gives, if it is not kept already; the layouts are drawn only
    /// when the answer carries them (the page lacks them).
    fn panel(&self, name: String, inputs: Inputs, make: impl FnOnce() -> Draw) -> Panel {
        let drawn = self.drawings.get(inputs, make);
        let held = self.bare || self.have.contains(drawn.hash.as_str());
        let layout = |layout| (!held).then(|| self.drawings.draw(&drawn, layout).to_owned());
        Panel {
            name,
            svg: layout(Layout::Wide),
            phone: layout(Layout::Phone),
            hash: drawn.hash.clone(),
        }
    }
}

/// What player `p`'s sheet shows: the template, their marks, sun track,
/// rewards won and score. Not their turn's step, nor the dice, nor their
/// rank: a roll changes no sheet.
pub fn sheet_inputs(state: &soleils::State, p: usize) -> Inputs {
    let player = &state.players()[p];
    let mut line = soleils::score(state).swap_remove(p);
    line.rank = 0;
    Inputs::of(Some(p), |w| {
        serde_json::to_writer(&mut *w, state.template().raw()).expect("templates serialize");
        serde_json::to_writer(
            &mut *w,
            &(
                &player.name,
                &player.marks,
                &player.sun,
                player.sun_total,
                &player.thresholds_won,
                &player.zones_done,
                &player.groups_done,
                &line,
            ),
        )
        .expect("sheets serialize");
    })
}

/// What the Summertime table shows to `me`: the whole fold, as that seat
/// sees it; every entry changes it.
fn table_inputs(generation: u64, me: Option<usize>) -> Inputs {
    Inputs::of(me, |w| {
        let _ = w.write_all(format!("summertime table {generation} {me:?}").as_bytes());
    })
}

/// Where a table stands in an event, when a room serves it: the event,
/// the event's round and the table, for every page's header.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct InRoom {
    /// The event log's name, without its folder and extension.
    pub event: String,
    /// The event's round, from 1 (not the game's turns).
    pub round: u32,
    /// The table's number in that round, from 1.
    pub table: u32,
}

/// Everything one page shows.
#[derive(Serialize, schemars::JsonSchema)]
pub struct PageView {
    pub game: &'static str,
    /// The seq of the log's last entry: how many entries follow the
    /// start line.
    pub seq: u64,
    /// `player` or `referee`.
    pub role: &'static str,
    pub name: Option<String>,
    /// Where the game stands: its turn, or how it ended.
    pub progress: String,
    /// The event, its round and the table, when a room serves the table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub room: Option<InRoom>,
    pub over: bool,
    pub players: Vec<Line>,
    pub panels: Vec<Panel>,
    pub choices: Vec<Choice>,
    /// Why nothing is offered, when nothing is.
    pub waiting: Option<String>,
    /// For keys the page shows but cannot choose now (a box no die fits):
    /// why, in the engine's words.
    pub refused: BTreeMap<String, String>,
    /// The referee may type the three dice rolled at the table.
    pub dice_form: bool,
    /// The player the referee records for, on their page (`?as=NAME`):
    /// a seat without a phone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recording_as: Option<String>,
    /// What the player holds, in words, kept in view on a phone: their
    /// hand and tiles (Summertime).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holding: Option<String>,
    /// The seats bots play, each with its bot, and why it could not
    /// decide when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bots: Option<Vec<super::bot::BotSeat>>,
    /// Once the game is over: how it ended, the winners and every
    /// player's score and rank, for everyone's page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<crate::present::audit::Outcome>,
}

/// A game the table server serves.
pub trait Table: Present + Sized + Send + Sync + 'static {
    /// The page `viewer` sees of `fold`, its panels from `painter`.
    fn page(fold: &Fold<Self>, viewer: Viewer, painter: &Painter<'_>) -> PageView;
    /// Takes out of `view` what the player at `seat` may not see (the other
    /// players' cards dealt face down); without a seat, what no player may.
    fn conceal(_state: &Self::State, _view: &mut Self::View, _seat: Option<usize>) {}
}

/// `status --format json` as `viewer` may see it: a player gets only their
/// own legal decisions and not the others' hidden cards; everyone (the
/// stream) gets no decisions at all. The log is named as
/// [`crate::log::shown_name`] names it, never by the server's folder.
pub fn status_for<G: Table>(
    path: &std::path::Path,
    fold: &Fold<G>,
    viewer: Viewer,
) -> crate::present::json::StatusReport<G::View, G::Event> {
    let shown = crate::log::shown_name(path);
    let mut report = crate::table::status::<G>(&shown, fold, viewer);
    match viewer {
        Viewer::Referee => {}
        Viewer::Seat(seat) => G::conceal(fold.state(), &mut report.state, Some(seat)),
        Viewer::Everyone => G::conceal(fold.state(), &mut report.state, None),
    }
    report
}

/// The seat `viewer` sits at, if any.
pub fn seat(viewer: Viewer) -> Option<usize> {
    match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Referee | Viewer::Everyone => None,
    }
}

fn json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("events serialize")
}

fn svg(title: &str, pages: Vec<Page>) -> String {
    let scene = Scene {
        title: title.to_owned(),
        pages,
    };
    // A name in a script the built-in font lacks still shows: the
    // browser draws it in a font of its own.
    crate::render::svg::for_screen(&scene)
}

/// The undo of the last decision, when `role` may take it back.
fn undo<G: Present>(fold: &Fold<G>, me: Option<usize>) -> Option<Choice> {
    let (seq, event) = fold.undoable()?;
    let actor = G::actor(fold.state(), event);
    if me.is_some() && actor != me {
        return None;
    }
    Some(Choice::new(
        Offer::take_back(&G::describe(event)),
        serde_json::json!({"type": "undone", "undoes": seq}),
    ))
}

/// The `legal` events offered to `me`, as the game words them: a player is
/// offered their own decisions, the referee the table's (a reveal, a
/// discard), since the players' own reach the log through their pages or
/// the API. Offers alike in label and key are offered once.
fn offers<G: Present>(state: &G::State, legal: &[G::Event], me: Option<usize>) -> Vec<Choice> {
    let mut seen = std::collections::HashSet::new();
    legal
        .iter()
        .filter(|event| G::actor(state, event) == me)
        .filter_map(|event| Some((G::offer(state, event)?, event)))
        .filter(|(offer, _)| seen.insert((offer.label.clone(), offer.key.clone())))
        .map(|(offer, event)| Choice::new(offer, json(event)))
        .collect()
}

/// Each player's score and pending decision, by seat.
fn lines<G: Present>(state: &G::State) -> Vec<Line> {
    let pending = G::pending(state);
    G::totals(state)
        .into_iter()
        .enumerate()
        .map(|(seat, (name, score))| {
            let waiting = pending
                .iter()
                .find(|p| p.seat == Some(seat))
                .map(|p| p.what.clone());
            Line {
                name,
                score,
                waiting,
            }
        })
        .collect()
}

fn base<G: Present>(fold: &Fold<G>, viewer: Viewer) -> PageView {
    let state = fold.state();
    PageView {
        game: G::NAME,
        seq: fold.events() - 1,
        role: match viewer {
            Viewer::Referee => "referee",
            Viewer::Seat(_) | Viewer::Everyone => "player",
        },
        name: seat(viewer).and_then(|s| G::player_names(state).get(s).cloned()),
        progress: G::progress(state),
        room: None,
        over: G::ending(state).is_some(),
        players: lines::<G>(state),
        panels: Vec::new(),
        choices: Vec::new(),
        waiting: None,
        refused: BTreeMap::new(),
        dice_form: false,
        recording_as: None,
        holding: None,
        bots: None,
        outcome: G::ending(state)
            .is_some()
            .then(|| crate::present::audit::outcome(fold).0),
    }
}

/// Why a player has nothing to do now, in words.
fn waiting_for<G: Present>(state: &G::State, me: Option<usize>) -> String {
    if let Some(ending) = G::ending(state) {
        return format!("The game is over: {ending}.");
    }
    let names = G::player_names(state);
    let others: Vec<String> = G::pending(state)
        .into_iter()
        .filter(|p| me.is_none() || p.seat != me)
        .map(|p| match p.seat.and_then(|s| names.get(s)) {
            Some(name) => format!("{name}: {}", p.what),
            None => p.what,
        })
        .collect();
    match others.as_slice() {
        [] => "Nothing to decide now.".to_owned(),
        [one] => format!("Waiting for {one}."),
        many => format!(
            "Waiting for {}.",
            many.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

impl Table for Soleils {
    // Every sheet is open on the table.
    fn page(fold: &Fold<Soleils>, viewer: Viewer, painter: &Painter<'_>) -> PageView {
        use crate::print::soleils::replay::{phone_sheet, viewer_sheet};
        use soleils::Event;
        let state = fold.state();
        let me = seat(viewer);
        let mut view = base::<Soleils>(fold, viewer);
        view.panels = (0..state.players().len())
            .filter(|&p| me.is_none_or(|m| m == p))
            .map(|p| {
                let name = state.players()[p].name.clone();
                let title = format!("{name}'s sheet");
                painter.panel(name, sheet_inputs(state, p), || {
                    let state = state.clone();
                    Box::new(move |layout| match layout {
                        Layout::Wide => svg(&title, viewer_sheet(&state, p)),
                        Layout::Phone => svg(&title, vec![phone_sheet(&state, p)]),
                    })
                })
            })
            .collect();
        let legal = Soleils::legal_events(state);
        view.choices = offers::<Soleils>(state, &legal, me);
        let rolled = legal.iter().any(|event| matches!(event, Event::Rolled(_)));
        if me.is_none() && rolled {
            view.dice_form = true;
            // Digital dice, from the log's seed, when it has one.
            if let Some(dice) = crate::table::digital_dice(state) {
                view.choices.push(Choice::new(
                    crate::present::soleils::digital_roll(state),
                    serde_json::json!({"type": "rolled", "dice": dice}),
                ));
            }
        }
        view.choices.extend(undo(fold, me));
        // Why each box no die fits is closed, in the engine's words.
        if let Some(p) = me
            && state.players()[p].turn.step() == soleils::Step::PlaceOrSun
            && let Some(dice) = state.dice()
        {
            let open: std::collections::BTreeSet<&str> = view
                .choices
                .iter()
                .filter_map(|c| c.key.as_deref())
                .collect();
            let player = state.players()[p].name.clone();
            for (i, b) in state.template().boxes().iter().enumerate() {
                let key = format!("box:{}", b.id);
                // A written box is not closed, only done.
                if open.contains(key.as_str()) || state.players()[p].marks[i].is_some() {
                    continue;
                }
                let mut values: Vec<u8> = dice.to_vec();
                values.sort_unstable();
                values.dedup();
                let reason = values.iter().find_map(|&v| {
                    let event = Event::Placed(soleils::Placed {
                        player: player.clone(),
                        box_id: b.id.clone(),
                        value: soleils::Die::new(v)?,
                    });
                    let mut trial = state.clone();
                    Soleils::apply(&mut trial, &event)
                        .err()
                        .map(|e| e.to_string())
                });
                if let Some(reason) = reason {
                    view.refused.insert(key, reason);
                }
            }
        }
        if view.choices.iter().all(|c| c.group == Kind::Undo) && !view.dice_form {
            view.waiting = Some(waiting_for::<Soleils>(state, me));
        }
        view
    }
}

impl Table for Summertime {
    fn conceal(state: &summertime::State, view: &mut Self::View, seat: Option<usize>) {
        use crate::print::summertime::table::public_hand;
        let deck = state.deck();
        for (p, hand) in view.players.iter_mut().enumerate() {
            if seat == Some(p) {
                continue;
            }
            let (seen, hidden) = public_hand(state, p);
            hand.hand = seen.iter().map(|&c| deck.card(c).id.clone()).collect();
            hand.unseen_in_hand = u8::try_from(hidden).unwrap_or(u8::MAX);
        }
    }

    fn page(fold: &Fold<Summertime>, viewer: Viewer, painter: &Painter<'_>) -> PageView {
        use crate::print::summertime::table::{page, phone_page, window};
        let state = fold.state();
        let me = seat(viewer);
        let mut view = base::<Summertime>(fold, viewer);
        // The grid's window, one cell wider on every side, where the next
        // cards may go.
        let (x0, y0, x1, y1) = window(state.grid().keys());
        let around = if state.grid().is_empty() {
            (0, 0, 0, 0)
        } else {
            (x0 - 1, y0 - 1, x1 + 1, y1 + 1)
        };
        let inputs = table_inputs(painter.generation, me);
        view.panels = vec![painter.panel("The table".to_owned(), inputs, || {
            let state = state.clone();
            Box::new(move |layout| match layout {
                Layout::Wide => svg("The table", vec![page(&state, around, me)]),
                Layout::Phone => svg("The table", vec![phone_page(&state, around, me)]),
            })
        })];
        view.choices = offers::<Summertime>(state, &Summertime::legal_events(state), me);
        view.choices.extend(undo(fold, me));
        if view.choices.iter().all(|c| c.group == Kind::Undo) {
            view.waiting = Some(waiting_for::<Summertime>(state, me));
        }
        if let Some(player) = me.and_then(|seat| state.players().get(seat)) {
            use crate::print::summertime::replay::{hand_text, tiles_text};
            view.holding = Some(format!(
                "Hand: {}. Tiles face up: {}. Face down: {}.",
                hand_text(state.deck(), player),
                tiles_text(state.deck(), &player.up),
                tiles_text(state.deck(), &player.down)
            ));
        }
        view
    }
}
