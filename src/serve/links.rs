//! The join links as printable slips: one per player, with the player's
//! name in large type and their QR code only, to hand to each player so
//! that nobody scans another's code; and the referee's on a page of its
//! own, which stays off the table. Also the links as `serve` lists them
//! on start ([`listing`]).

use crate::render::paper::Paper;
use crate::render::scene::{Anchor, Canvas, Color, Frame, Page, Scene, Stroke, Weight};
use qrcode::{Color as Module, QrCode};
use std::path::Path;

/// The most slips `--slips-per-page` may put on one A4 page: each keeps a
/// code of about 55 mm, which a phone scans from arm's length.
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

/// One slip, `(name, link, note)`, in the cell at `(x, y)` of `w` by `h`
/// mm: the name as large as fits, the code below it, and one line of what
/// to do.
fn slip(
    c: &mut Canvas,
    (name, link, note): (&str, &str, &str),
    (x, y, w, h): (f32, f32, f32, f32),
) {
    let fonts = crate::render::text::Fonts::builtin();
    let name_size = (h * 0.09).clamp(7.0, 16.0);
    let note_size = 3.5;
    let code = (w - 16.0).min(h - name_size * 1.6 - note_size * 2.5 - 14.0);
    let top = y + (h - (name_size * 1.6 + code + note_size * 2.5)) / 2.0;
    c.group(format!("Join link for {name}"), |c| {
        c.fit_text(
            fonts,
            x + w / 2.0,
            top + name_size,
            name_size,
            w - 12.0,
            name.to_owned(),
            Anchor::Middle,
            Weight::Bold,
            Color::BLACK,
        );
        qr(c, link, x + (w - code) / 2.0, top + name_size * 1.6, code);
        c.fit_text(
            fonts,
            x + w / 2.0,
            top + name_size * 1.6 + code + note_size * 1.6,
            note_size,
            w - 12.0,
            note.to_owned(),
            Anchor::Middle,
            Weight::Regular,
            Color::BLACK,
        );
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

/// The slips of `players`, `per_page` to an A4 page (1 to
/// [`MAX_SLIPS_PER_PAGE`]; out of range is taken as the nearest), then the
/// referee's link on a page of its own.
pub fn scene(log: &Path, players: &[(String, String)], referee: &str, per_page: usize) -> Scene {
    // The name stands above in large type: the note never has to shrink.
    let note = "Scan with your phone to play. Keep this slip to yourself.";
    let slips: Vec<Slip> = players
        .iter()
        .map(|(name, link)| Slip {
            name: name.clone(),
            link: link.clone(),
            note: note.to_owned(),
        })
        .collect();
    let referee = Slip {
        name: "Referee".to_owned(),
        link: referee.to_owned(),
        note: "The referee's link records anything: keep it off the table.".to_owned(),
    };
    slips_scene(
        format!("Join links for {}", log.display()),
        &slips,
        &referee,
        per_page,
    )
}

/// One printed slip: a name in large type, the code of its link, and a
/// line under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slip {
    pub name: String,
    pub link: String,
    pub note: String,
}

/// The pages of `slips`, `per_page` to an A4 page, with cut marks between
/// them, then `last` (the referee's) on a page of its own.
pub fn slips_scene(title: String, slips: &[Slip], last: &Slip, per_page: usize) -> Scene {
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
            slip(&mut c, (&one.name, &one.link, &one.note), (x, y, w, h));
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
    Scene { title, pages }
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
    let mut text = format!(
        "serving {} ({} players) on {base}; Ctrl-C stops\n",
        path.display(),
        players.len()
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

    fn players(n: usize) -> Vec<(String, String)> {
        (0..n)
            .map(|i| {
                (
                    format!("P{i}"),
                    format!("http://10.0.0.1:8062/#token={i:064x}"),
                )
            })
            .collect()
    }

    #[test]
    fn each_player_gets_a_page_of_their_own_by_default() {
        let scene = scene(Path::new("m.jsonl"), &players(3), "http://r", 1);
        assert_eq!(scene.pages.len(), 4);
        for (i, page) in scene.pages[..3].iter().enumerate() {
            let texts = texts(page);
            assert!(texts.contains(&format!("P{i}").as_str()), "{texts:?}");
            assert!(!texts.iter().any(|t| t.contains("token")), "{texts:?}");
        }
        assert!(texts(&scene.pages[3]).contains(&"Referee"));
        assert_eq!(
            texts(&scene.pages[0])[0],
            "P0",
            "the name first, in large type"
        );
    }

    #[test]
    fn several_slips_share_a_page_but_never_the_referee_s() {
        let scene = scene(Path::new("m.jsonl"), &players(5), "http://r", 4);
        assert_eq!(scene.pages.len(), 3, "4 + 1 slips, then the referee's");
        assert_eq!(
            texts(&scene.pages[0])
                .iter()
                .filter(|t| t.starts_with('P'))
                .count(),
            4
        );
        assert_eq!(
            texts(&scene.pages[2]),
            [
                "Referee",
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
            let scene = scene(Path::new("m.jsonl"), &players(9), "http://r", per_page);
            for page in &scene.pages {
                let (size, text) = crate::render::scene::smallest_text(&page.items).unwrap();
                assert!(size * 72.0 / 25.4 >= 6.0, "{per_page}: {text} at {size} mm");
            }
        }
    }
}
