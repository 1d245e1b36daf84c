//! What the room's board shows: every table of the round seated last, who
//! is waiting for whom at each, the results attached, the byes and the
//! standings; and the join slips of a round, to print.

use super::super::ApiError;
use super::super::Kept;
use super::super::links::{Slip, slips_scene};
use super::super::tokens::Tokens;
use super::{Room, table_route, table_tokens};
use crate::event::{EventGame, EventLog, EventState, Standings, event_name, standings};
use crate::soleils::Soleils;
use crate::summertime::Summertime;
use crate::table::Viewer;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::path::Path;
use std::sync::Arc;

/// The board, as `GET /api/room` sends it.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Board {
    /// The event log's name, without its folder and extension.
    pub event: String,
    pub game: &'static str,
    /// The round seated last; 0 before the first.
    pub round: u32,
    /// The rounds the event was created with.
    pub rounds: u32,
    pub closed: bool,
    pub tables: Vec<BoardTable>,
    /// The names of the players who sit out the round with a bye.
    pub bye: Vec<String>,
    /// The names of the players who do not play the round (a final).
    pub out: Vec<String>,
    /// Whether the next round can be seated now: every table has its
    /// result, and rounds remain.
    pub can_seat: bool,
    pub standings: Standings,
}

/// One table of the round.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct BoardTable {
    pub table: u32,
    /// Its path in the room, `/r/ROUND/t/TABLE`.
    pub path: String,
    /// The token of the table's referee link.
    pub referee: String,
    pub players: Vec<BoardSeat>,
    /// Whether its result is attached.
    pub done: bool,
    /// The round or turn, or how the game ended.
    pub progress: String,
    /// Whose decision is pending, and what it is.
    pub pending: Vec<String>,
    /// Why the table's log cannot be read, or its result not attached.
    pub problem: Option<String>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct BoardSeat {
    pub id: String,
    pub name: String,
    /// From 1; seat 1 starts.
    pub seat: u32,
    /// The token of the seat's join link.
    pub token: String,
    /// Once the result is attached.
    pub score: Option<i64>,
    pub rank: Option<u32>,
}

/// The board's JSON and its entity tag, a digest of the JSON: a board
/// page that holds the board as it stands asks with `If-None-Match` (or
/// `?since=TAG`) and is answered `304 Not Modified`, a few bytes.
pub struct Tagged {
    json: Vec<u8>,
    fields: Fields,
    /// The digest in hex, without the quotes of an `ETag`.
    hex: String,
}

/// A board's top-level fields, as JSON.
type Fields = serde_json::Map<String, serde_json::Value>;

/// How many boards [`Answered`] keeps: a board page polls every 2 s, so
/// these reach back further than any page that still polls.
const ANSWERED: usize = 16;

/// The boards answered lately, each under its tag, the most recent last:
/// a poll that names one (`?since=TAG`) is sent what changed since.
#[derive(Default)]
pub struct Answered {
    kept: std::sync::Mutex<std::collections::VecDeque<(String, std::sync::Arc<Fields>)>>,
}

impl Answered {
    /// The board tagged `hex`, if it was answered lately.
    fn find(&self, hex: &str) -> Option<std::sync::Arc<Fields>> {
        let kept = self.kept.lock().expect("the boards are never poisoned");
        (kept.iter().rev())
            .find(|(tag, _)| tag == hex)
            .map(|(_, fields)| fields.clone())
    }

    /// Keeps `board`, unless it is the one kept last.
    fn keep(&self, board: &Tagged) {
        let mut kept = self.kept.lock().expect("the boards are never poisoned");
        if kept.back().is_some_and(|(tag, _)| *tag == board.hex) {
            return;
        }
        if kept.len() == ANSWERED {
            kept.pop_front();
        }
        kept.push_back((board.hex.clone(), std::sync::Arc::new(board.fields.clone())));
    }
}

/// What changed from the board `old` to `new`: `since`, the tag of `old`;
/// each top-level field whose value changed; `tables`, the tables that
/// are new or changed (whole), and `gone`, the numbers of those no longer
/// on the board.
fn delta(since: &str, old: &Fields, new: &Fields) -> Fields {
    use serde_json::Value;
    let mut delta = Fields::new();
    delta.insert("since".to_owned(), Value::String(since.to_owned()));
    for (key, value) in new {
        if key != "tables" && old.get(key) != Some(value) {
            delta.insert(key.clone(), value.clone());
        }
    }
    let tables = |fields: &Fields| -> Vec<Value> {
        fields
            .get("tables")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let (before, now) = (tables(old), tables(new));
    let number = |table: &Value| table.get("table").cloned().unwrap_or(Value::Null);
    let changed: Vec<Value> = (now.iter())
        .filter(|table| !before.contains(table))
        .cloned()
        .collect();
    let gone: Vec<Value> = (before.iter())
        .map(number)
        .filter(|n| !now.iter().any(|table| number(table) == *n))
        .collect();
    delta.insert("tables".to_owned(), Value::Array(changed));
    delta.insert("gone".to_owned(), Value::Array(gone));
    delta
}

impl Tagged {
    pub fn new(board: &Board) -> Result<Tagged, ApiError> {
        use sha2::Digest;
        let internal = |e: serde_json::Error| ApiError::Internal(e.to_string());
        let fields = match serde_json::to_value(board).map_err(internal)? {
            serde_json::Value::Object(fields) => fields,
            other => {
                return Err(ApiError::Internal(format!(
                    "expected an object, but found {other}"
                )));
            }
        };
        let json = serde_json::to_vec(&fields).map_err(internal)?;
        let digest = sha2::Sha256::digest(&json);
        let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Ok(Tagged { json, fields, hex })
    }

    /// The tag as an `ETag` writes it, in quotes.
    fn tag(&self) -> String {
        format!("\"{}\"", self.hex)
    }

    /// Does `If-None-Match` in `headers`, or `since`, name this board (or
    /// any)?
    pub fn matched(&self, headers: &HeaderMap, since: Option<&str>) -> bool {
        (headers.get_all(header::IF_NONE_MATCH).iter())
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|t| t.trim().trim_start_matches("W/").trim_matches('"'))
            .chain(since)
            .any(|t| t == self.hex || t == "*")
    }

    /// The answer to a request with `headers` and `?since=TAG` (the tag of
    /// the board the page holds, with or without its quotes): 304 with the
    /// tag alone when the page holds this board; what changed since, when
    /// `answered` still keeps the board it names; else the whole board.
    /// Each carries this board's tag.
    pub fn answer(self, headers: &HeaderMap, since: Option<&str>, answered: &Answered) -> Response {
        let since = since.map(|t| t.trim().trim_start_matches("W/").trim_matches('"'));
        let etag = HeaderValue::from_str(&self.tag()).expect("a digest in hex is a header value");
        if self.matched(headers, since) {
            return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
        }
        answered.keep(&self);
        let body = match since.and_then(|hex| Some((hex, answered.find(hex)?))) {
            Some((hex, old)) => {
                serde_json::to_vec(&delta(hex, &old, &self.fields)).expect("JSON values serialize")
            }
            None => self.json,
        };
        let json = HeaderValue::from_static("application/json");
        ([(header::CONTENT_TYPE, json), (header::ETAG, etag)], body).into_response()
    }
}

fn open(room: &Room) -> Result<Arc<EventLog>, ApiError> {
    room.fold.read()
}

/// Where the game at `path` stands, as everyone may see it: from the fold
/// the room keeps, folded again only if the log changed.
fn standing(room: &Room, path: &Path) -> Result<(String, Vec<String>), ApiError> {
    fn of<G: crate::present::Present + 'static>(
        kept: &Kept,
        path: &Path,
    ) -> Result<(String, Vec<String>), ApiError>
    where
        crate::log::Fold<G>: Send + Sync,
    {
        let snapshot = kept.read::<G, ApiError>(path)?;
        let status = crate::table::status::<G>(path, &snapshot.fold, Viewer::Everyone);
        Ok((status.progress, status.pending))
    }
    match room.game {
        EventGame::Soleils => of::<Soleils>(&room.kept, path),
        EventGame::Summertime => of::<Summertime>(&room.kept, path),
    }
}

/// The board of the room as its event log stands.
pub fn of(room: &Room) -> Result<Board, ApiError> {
    let log = open(room)?;
    let state = &log.state;
    let round = state.seated();
    let mut tables = Vec::new();
    let mut bye = Vec::new();
    let mut out = Vec::new();
    let mut can_seat = !state.closed && round < state.setup.rounds;
    if round > 0 {
        let seated = state
            .round(round)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        can_seat &= seated.open_table().is_none();
        let names = |ids: &[String]| ids.iter().map(|id| state.name(id).to_owned()).collect();
        bye = names(&seated.bye);
        out = names(&seated.out);
        for at in &seated.tables {
            let (path, _, tokens) = table_tokens(&room.event, state, round, at.table)?;
            let result = seated.results.get(&at.table);
            let (progress, pending, mut problem) = match result {
                Some(result) => (format!("over: {}", result.ended), Vec::new(), None),
                None => match standing(room, &path) {
                    Ok((progress, pending)) => (progress, pending, None),
                    Err(e) => (String::new(), Vec::new(), Some(e.into_text())),
                },
            };
            if problem.is_none() && result.is_none() {
                problem = room
                    .problems
                    .lock()
                    .expect("the problems are never poisoned")
                    .get(&(round, at.table))
                    .cloned();
            }
            let players = (at.players.iter().enumerate())
                .map(|(i, id)| {
                    let name = state.name(id).to_owned();
                    let seat = result.and_then(|r| r.seats.get(i));
                    BoardSeat {
                        id: id.clone(),
                        token: tokens.players.get(&name).cloned().unwrap_or_default(),
                        name,
                        seat: i as u32 + 1,
                        score: seat.map(|s| s.score),
                        rank: seat.map(|s| s.rank),
                    }
                })
                .collect();
            tables.push(BoardTable {
                table: at.table,
                path: table_route(round, at.table),
                referee: tokens.referee,
                players,
                done: result.is_some(),
                progress,
                pending,
                problem,
            });
        }
    }
    Ok(Board {
        event: event_name(&room.event),
        game: state.setup.game.name(),
        round,
        rounds: state.setup.rounds,
        closed: state.closed,
        tables,
        bye,
        out,
        can_seat,
        standings: standings(state),
    })
}

/// One seat's join link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatLink {
    pub table: u32,
    /// From 1.
    pub seat: u32,
    pub name: String,
    pub link: String,
    /// The link's short code, as stored.
    pub code: String,
}

/// The join link of every seat of round `round` (the last seated if
/// `None`) of the event at `event`, served at `base`: the round and the
/// links, table by table.
pub fn seat_links(
    event: &Path,
    base: &str,
    round: Option<u32>,
) -> Result<(u32, Vec<SeatLink>), ApiError> {
    let log = super::open_event(event)?;
    let state: &EventState = &log.state;
    let round = round.unwrap_or(state.seated());
    let seated = state
        .round(round)
        .map_err(|e| ApiError::Other(axum::http::StatusCode::NOT_FOUND, e.to_string()))?;
    let base = base.trim_end_matches('/');
    let mut links = Vec::new();
    for at in &seated.tables {
        let (_, players, tokens) = table_tokens(event, state, round, at.table)?;
        for (i, player) in players.iter().enumerate() {
            let route = table_route(round, at.table);
            let token = &tokens.players[player];
            links.push(SeatLink {
                table: at.table,
                seat: i as u32 + 1,
                name: player.clone(),
                link: format!("{base}{route}#token={token}"),
                code: tokens.code_of(token).unwrap_or_default().to_owned(),
            });
        }
    }
    Ok((round, links))
}

/// The join slips of round `round` (the last seated if `None`) of the
/// event at `event`, served at `base`, `per_page` to a page: one a player,
/// naming the game, the event, the round, the table and the seat, with
/// the link's short code and where to type it (the room's `/join`); then
/// the link of the board (whose token is `board`'s) on a page of its own.
/// Laid out in `fonts`, the installed ones added for names they lack.
pub fn slips(
    fonts: &crate::render::text::installed::FontSource,
    event: &Path,
    base: &str,
    board: &Tokens,
    round: Option<u32>,
    per_page: usize,
) -> Result<crate::render::scene::Document, ApiError> {
    let log = super::open_event(event)?;
    let game = super::super::links::game_title(super::game_kind(log.state.setup.game));
    let (round, links) = seat_links(event, base, round)?;
    let name = event_name(event);
    let base = base.trim_end_matches('/');
    let slips: Vec<Slip> = (links.into_iter())
        .map(|l| Slip {
            game: game.to_owned(),
            table: format!("{name}, round {round}, table {}", l.table),
            note: format!(
                "Seat {}. Scan with your phone to play; keep this slip to yourself.",
                l.seat
            ),
            name: l.name,
            link: l.link,
            code: l.code,
            join: format!("{base}/join"),
        })
        .collect();
    let board = Slip {
        game: game.to_owned(),
        table: format!("{name}, round {round}"),
        name: "Referee".to_owned(),
        link: format!("{base}/#token={}", board.referee),
        code: board.code_of(&board.referee).unwrap_or_default().to_owned(),
        join: format!("{base}/join"),
        note: "The room's board: every table and the standings. Keep it off the tables.".to_owned(),
    };
    let title = format!("Join links for {name}, round {round}");
    fonts.typeset(|fonts| {
        let drawn = slips_scene(fonts, title.clone(), &slips, &board, per_page);
        Ok::<_, ApiError>(drawn)
    })
}
