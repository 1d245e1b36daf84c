//! The join links as printable slips: one per player, with the player's
//! name in large type and their QR code only, to hand to each player so
//! that nobody scans another's code; and the referee's on a page of its
//! own, which stays off the table. Also the links as `serve` lists them
//! on start ([`listing`]).

use crate::render::paper::Paper;
use crate::render::scene::{Anchor, Canvas, Color, Document, Frame, Page, Scene, Stroke, Weight};
use crate::render::text::Fonts;
use qrcode::{Color as Module, QrCode};
use std::path::Path;

/// The most slips `--slips-per-page` may put on one A4 page: each keeps a
/// QR code of 40 mm or more (quiet zone included), which a phone scans
/// from a hand's length.
pub const MAX_SLIPS_PER_PAGE: usize = 8;

/// A QR code of `text`, `size` millimetres wide, with its top left at
/// `(x, y)`: each row's dark modules as runs of rectangles.
fn qr(c: &mut Canvas, text: &str, x: f32, y: f32, size: f32) {
    let Ok(code) = QrCode::new(text.as_bytes()) else {
        return;
    };
    let width = code.width();
    let modules = code.to_colors();
    // A quiet zone of four modules on every side.
    let cell = size / (width + 8) as f32;
    for row in 0..width {
        let mut column = 0;
        while column < width {
            if modules[row * width + column] == Module::Dark {
                let start = column;
                while column < width && modules[row * width + column] == Module::Dark {
                    column += 1;
                }
                c.rect(
                    x + (start + 4) as f32 * cell,
                    y + (row + 4) as f32 * cell,
                    (column - start) as f32 * cell + 0.01,
                    cell + 0.01,
                    0.0,
                    Some(Color::BLACK),
                    None,
                );
            } else {
                column += 1;
            }
        }
    }
}

/// The columns and rows of `per_page` slips on a portrait page: one
/// column up to three, two up to eight.
fn grid(per_page: usize) -> (usize, usize) {
    let columns = if per_page <= 3 { 1 } else { 2 };
    (columns, per_page.div_ceil(columns))
}

/// One slip in the cell at `(x, y)` of `w` by `h` mm: the game and the
/// table on a line, the name as large as fits, the QR code of the link,
/// where to type the short code and the code itself in bold, and one line
/// of what to do. The way in by code stands under the QR code, or beside
/// it in a cell too low for that (8 slips to a page), so that the QR code
/// stays large enough to scan.
fn slip(c: &mut Canvas, fonts: &Fonts, one: &Slip, (x, y, w, h): (f32, f32, f32, f32)) {
    let name_size = (h * 0.09).clamp(6.0, 16.0);
    let small = 3.2;
    let typed = (h * 0.07).clamp(4.5, 7.0);
    // The heights of the lines above the QR code, and of the note.
    let above = small * 1.8 + name_size * 1.6;
    let below = small * 1.9 + typed * 1.6 + small * 1.9;
    let stacked = (w - 16.0).min(h - above - below - 8.0);
    let beside = stacked < 45.0 && w > h;
    let code = if beside {
        (h - above - small * 1.9 - 6.0).min(w * 0.5)
    } else {
        stacked
    };
    let high = above + code + if beside { small * 1.9 } else { below };
    let top = y + (h - high) / 2.0;
    let line = |c: &mut Canvas, (middle, width): (f32, f32), y: f32, size: f32, text: String| {
        let weight = if size > small {
            Weight::Bold
        } else {
            Weight::Regular
        };
        c.fit_text(
            fonts,
            middle,
            y,
            size,
            width,
            text,
            Anchor::Middle,
            weight,
            Color::BLACK,
        );
    };
    let across = (x + w / 2.0, w - 12.0);
    c.group(format!("Join link for {}", one.name), |c| {
        let head = format!("{} \u{b7} {}", one.game, one.table);
        line(c, across, top + small, small, head);
        c.fit_text(
            fonts,
            x + w / 2.0,
            top + small * 1.8 + name_size,
            name_size,
            w - 12.0,
            one.name.clone(),
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        let left = if beside {
            x + 6.0
        } else {
            x + (w - code) / 2.0
        };
        qr(c, &one.link, left, top + above, code);
        let under = top + above + code;
        let code_text = super::join::grouped(&one.code);
        if !one.code.is_empty() && beside {
            // Centred in the column right of the QR code, by its middle.
            let column = (
                left + code + (x + w - left - code) / 2.0,
                x + w - left - code - 6.0,
            );
            let mut at = top + above + code / 2.0 - (small * 4.5 + typed * 1.6) / 2.0;
            for text in ["Cannot scan? Go to", one.join.as_str(), "and type:"] {
                at += small * 1.5;
                line(c, column, at, small, text.to_owned());
            }
            line(c, column, at + typed * 1.4, typed, code_text);
        } else if !one.code.is_empty() {
            let typing = format!("Cannot scan? Go to {} and type:", one.join);
            line(c, across, under + small * 1.2, small, typing);
            line(
                c,
                across,
                under + small * 1.9 + typed * 1.1,
                typed,
                code_text,
            );
        }
        let note_at = if beside {
            under + small * 1.4
        } else {
            under + small * 1.9 + typed * 1.6 + small * 1.3
        };
        line(c, across, note_at, small, one.note.clone());
    });
}

/// Marks where to cut a page of slips: a dashed line between neighbours,
/// and a tick in the margin at the end of each, which survives a printer
/// that does not print the dashes to the edge.
fn cut_marks(c: &mut Canvas, columns: usize, rows: usize, w: f32, h: f32, margin: f32) {
    let dashes = Stroke::dashed(Color::GREY, 0.3, 2.0, 1.5);
    let tick = Stroke::solid(Color::BLACK, 0.3);
    let (width, height) = (columns as f32 * w, rows as f32 * h);
    for column in 1..columns {
        let x = column as f32 * w;
        c.line(x, 0.0, x, height, dashes);
        c.line(x, -margin + 2.0, x, -2.0, tick);
        c.line(x, height + 2.0, x, height + margin - 2.0, tick);
    }
    for row in 1..rows {
        let y = row as f32 * h;
        c.line(0.0, y, width, y, dashes);
        c.line(-margin + 2.0, y, -2.0, y, tick);
        c.line(width + 2.0, y, width + margin - 2.0, y, tick);
    }
}

/// The slips of `players` at the table of the `game` log at `log`, whose
/// links are at `base` with `tokens`, `per_page` to an A4 page (1 to
/// [`MAX_SLIPS_PER_PAGE`]; out of range is taken as the nearest), then the
/// referee's link on a page of its own; laid out in `fonts`.
pub fn scene(
    fonts: &std::sync::Arc<Fonts>,
    log: &Path,
    game: crate::log::GameKind,
    base: &str,
    players: &[String],
    tokens: &super::tokens::Tokens,
    per_page: usize,
) -> Document {
    let (links, referee) = join_links(base, players, tokens);
    let slip = |name: &str, link: String, token: &str, note: &str| Slip {
        game: game_title(game).to_owned(),
        table: table_name(log),
        name: name.to_owned(),
        link,
        code: tokens.code_of(token).unwrap_or_default().to_owned(),
        join: format!("{base}join"),
        note: note.to_owned(),
    };
    // The name stands above in large type: the note never has to shrink.
    let note = "Scan with your phone to play. Keep this slip to yourself.";
    let slips: Vec<Slip> = (links.into_iter())
        .map(|(name, link)| slip(&name, link, &tokens.players[&name], note))
        .collect();
    let referee = slip(
        "Referee",
        referee,
        &tokens.referee,
        "The referee's link records anything: keep it off the table.",
    );
    slips_scene(
        fonts,
        format!("Join links for {}", log.display()),
        &slips,
        &referee,
        per_page,
    )
}

/// One printed slip: the game and the table, a name in large type, the
/// QR code of its link, its short code and where to type it, and a line
/// under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slip {
    /// The game's name, as people know it: "62 Soleils d'été".
    pub game: String,
    /// The table's name.
    pub table: String,
    pub name: String,
    pub link: String,
    /// The short code of the link, as stored (none printed if empty).
    pub code: String,
    /// The address where the code is typed: the server's `/join`.
    pub join: String,
    pub note: String,
}

/// The name of `game` as people know it.
pub fn game_title(game: crate::log::GameKind) -> &'static str {
    match game {
        crate::log::GameKind::Soleils => "62 Soleils d'été",
        crate::log::GameKind::Summertime => "Summertime",
    }
}

/// The name a single table's slips give it: its log's name without its
/// folder and extension.
pub fn table_name(log: &Path) -> String {
    log.file_stem().map_or_else(
        || log.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// The pages of `slips`, `per_page` to an A4 page, with cut marks between
/// them, then `last` (the referee's) on a page of its own; laid out in
/// `fonts`.
pub fn slips_scene(
    fonts: &std::sync::Arc<Fonts>,
    title: String,
    slips: &[Slip],
    last: &Slip,
    per_page: usize,
) -> Document {
    let per_page = per_page.clamp(1, MAX_SLIPS_PER_PAGE);
    let paper = Paper::A4;
    let (pw, ph) = paper.size();
    let margin = 12.0;
    let mut pages = Vec::new();
    let mut page = |slips: &[&Slip], columns: usize, rows: usize| {
        let mut items = Vec::new();
        let mut c = Canvas {
            items: &mut items,
            frame: Frame {
                scale: 1.0,
                dx: margin,
                dy: margin,
            },
        };
        let (w, h) = (
            (pw - 2.0 * margin) / columns as f32,
            (ph - 2.0 * margin) / rows as f32,
        );
        for (i, one) in slips.iter().enumerate() {
            let (x, y) = ((i % columns) as f32 * w, (i / columns) as f32 * h);
            slip(&mut c, fonts, one, (x, y, w, h));
        }
        if slips.len() > 1 {
            cut_marks(&mut c, columns, rows, w, h, margin);
        }
        pages.push(Page {
            width: pw,
            height: ph,
            items,
        });
    };
    let (columns, rows) = grid(per_page);
    let slips: Vec<&Slip> = slips.iter().collect();
    for chunk in slips.chunks(per_page) {
        page(chunk, columns, rows);
    }
    page(&[last], 1, 1);
    Document::new(Scene { title, pages }, fonts.clone())
}

/// The join link of each of `players` and the referee's, at `base`, each
/// with its token from `tokens`.
pub fn join_links(
    base: &str,
    players: &[String],
    tokens: &super::tokens::Tokens,
) -> (Vec<(String, String)>, String) {
    let link = |token: &str| format!("{base}#token={token}");
    let players = players
        .iter()
        .map(|p| (p.clone(), link(&tokens.players[p])))
        .collect();
    (players, link(&tokens.referee))
}

/// The links as `sunfold serve` prints them on start, for the log at
/// `path` served on `bound`: one JSON line for tools (`json`), or a line
/// for people and then a link a line, each under its player's name.
pub fn listing(
    json: bool,
    path: &std::path::Path,
    base: &str,
    bound: std::net::SocketAddr,
    players: &[(String, String)],
    referee: &str,
) -> String {
    if json {
        let players: serde_json::Map<String, serde_json::Value> = players
            .iter()
            .map(|(p, l)| (p.clone(), l.clone().into()))
            .collect();
        let listing = serde_json::json!({"listen": bound.to_string(), "players": players, "referee": referee});
        return format!("{listing}\n");
    }
    let count = match players.len() {
        1 => "1 player".to_owned(),
        n => format!("{n} players"),
    };
    let mut text = format!(
        "serving {} ({count} with a link) on {base}; Ctrl-C stops\n",
        path.display(),
    );
    if bound.ip().is_unspecified() {
        text.push_str("listening on every interface: anyone on this network can load the page; only a link's token can record\n");
    }
    let width = players
        .iter()
        .map(|(p, _)| p.chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    for (p, l) in players {
        text.push_str(&format!("  {p:width$}  {l}\n"));
    }
    text.push_str(&format!("  {:width$}  {referee}\n", "referee"));
    text
}

/// The links as `sunfold serve --event` prints them on start: the board's,
/// then each seat's of round `round`, table by table; or one JSON line.
pub fn room_listing(
    json: bool,
    event: &std::path::Path,
    bound: std::net::SocketAddr,
    board: &str,
    round: u32,
    seats: &[super::room::board::SeatLink],
) -> String {
    if json {
        let seats: Vec<serde_json::Value> = (seats.iter())
            .map(|s| serde_json::json!({"table": s.table, "seat": s.seat, "name": s.name, "link": s.link}))
            .collect();
        let listing = serde_json::json!({"listen": bound.to_string(), "board": board, "round": round, "seats": seats});
        return format!("{listing}\n");
    }
    let tables = seats.iter().map(|s| s.table).max().unwrap_or(0);
    let mut text = format!(
        "serving the event {} (round {round}: {tables} table{}); Ctrl-C stops\n",
        event.display(),
        if tables == 1 { "" } else { "s" }
    );
    if bound.ip().is_unspecified() {
        text.push_str("listening on every interface: anyone on this network can load the page; only a link's token can record\n");
    }
    text.push_str(&format!("  board  {board}\n"));
    let width = seats
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    for s in seats {
        if s.seat == 1 {
            text.push_str(&format!("  table {}\n", s.table));
        }
        text.push_str(&format!("    {:width$}  {}\n", s.name, s.link));
    }
    if round == 0 {
        text.push_str(
            "  no round is seated yet: seat one on the board, or with sunfold event seat\n",
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::GameKind;
    use crate::render::scene::{Item, Shape};

    fn walk<'a>(items: &'a [Item], texts: &mut Vec<&'a str>, paths: &mut usize) {
        for item in items {
            match item {
                Item::Text { text, .. } => texts.push(text),
                Item::Shape {
                    shape: Shape::Path { .. },
                    ..
                } => *paths += 1,
                Item::Group { items, .. } => walk(items, texts, paths),
                Item::Shape { .. } => {}
            }
        }
    }

    fn texts(page: &Page) -> Vec<&str> {
        let mut texts = Vec::new();
        walk(&page.items, &mut texts, &mut 0);
        texts
    }

    fn players(n: usize) -> (Vec<String>, super::super::tokens::Tokens) {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let tokens = super::super::tokens::Tokens::new(&names).unwrap();
        (names, tokens)
    }

    fn scene(players: &(Vec<String>, super::super::tokens::Tokens), per_page: usize) -> Scene {
        let (names, tokens) = players;
        let base = "http://10.0.0.1:8062/";
        let log = Path::new("games/m.jsonl");
        let fonts = crate::render::text::Fonts::builtin();
        super::scene(fonts, log, GameKind::Soleils, base, names, tokens, per_page).scene
    }

    #[test]
    fn each_player_gets_a_page_of_their_own_by_default() {
        let players = players(3);
        let scene = scene(&players, 1);
        assert_eq!(scene.pages.len(), 4);
        for (i, page) in scene.pages[..3].iter().enumerate() {
            let texts = texts(page);
            let name = format!("P{i}");
            assert!(texts.contains(&name.as_str()), "{texts:?}");
            assert!(!texts.iter().any(|t| t.contains("token")), "{texts:?}");
            let code = players.1.code_of(&players.1.players[&name]).unwrap();
            assert!(texts.contains(&super::super::join::grouped(code).as_str()));
        }
        assert!(texts(&scene.pages[3]).contains(&"Referee"));
        assert_eq!(
            texts(&scene.pages[0])[..5],
            [
                "62 Soleils d'été · m",
                "P0",
                "Cannot scan? Go to http://10.0.0.1:8062/join and type:",
                &super::super::join::grouped(players.1.code_of(&players.1.players["P0"]).unwrap()),
                "Scan with your phone to play. Keep this slip to yourself."
            ],
            "the game and table, the name in large type, the way in, the note"
        );
    }

    #[test]
    fn several_slips_share_a_page_but_never_the_referee_s() {
        let players = players(5);
        let scene = scene(&players, 4);
        assert_eq!(scene.pages.len(), 3, "4 + 1 slips, then the referee's");
        assert_eq!(
            texts(&scene.pages[0])
                .iter()
                .filter(|t| ["P0", "P1", "P2", "P3"].contains(t))
                .count(),
            4
        );
        let code = players.1.code_of(&players.1.referee).unwrap();
        assert_eq!(
            texts(&scene.pages[2]),
            [
                "62 Soleils d'été · m",
                "Referee",
                "Cannot scan? Go to http://10.0.0.1:8062/join and type:",
                &super::super::join::grouped(code),
                "The referee's link records anything: keep it off the table."
            ]
        );
        // Cut marks only where slips share a page.
        let lines = |page: &Page| {
            let mut paths = 0;
            walk(&page.items, &mut Vec::new(), &mut paths);
            paths
        };
        assert!(lines(&scene.pages[0]) > 0);
        assert_eq!(lines(&scene.pages[2]), 0);
    }

    #[test]
    fn every_text_prints_at_six_points_or_more() {
        for per_page in 1..=MAX_SLIPS_PER_PAGE {
            let scene = scene(&players(9), per_page);
            for page in &scene.pages {
                let (size, text) = crate::render::scene::smallest_text(&page.items).unwrap();
                assert!(size * 72.0 / 25.4 >= 6.0, "{per_page}: {text} at {size} mm");
            }
        }
    }
}
