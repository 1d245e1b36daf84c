//! The join links as a printable page: one QR code per player and one for
//! the referee, each with its name and address, to lay on the table.

use crate::render::paper::Paper;
use crate::render::scene::{Anchor, Canvas, Color, Frame, Page, Scene, Stroke, Weight};
use qrcode::{Color as Module, QrCode};
use std::path::Path;

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

/// Cards of 3 by 4 on A4: a name, a code, the address in small print.
pub fn scene(log: &Path, players: &[(String, String)], referee: &str) -> Scene {
    let paper = Paper::A4;
    let (pw, ph) = paper.size();
    let margin = 12.0;
    let (columns, rows) = (3usize, 4usize);
    let w = (pw - 2.0 * margin) / columns as f32;
    let h = (ph - 2.0 * margin - 14.0) / rows as f32;
    let cards: Vec<(String, &str)> = players
        .iter()
        .map(|(p, l)| (p.clone(), l.as_str()))
        .collect();
    // The referee's link on a page of its own: the players' pages go on
    // the table, the referee's does not.
    let referee = [("Referee".to_owned(), referee)];
    let chunks = cards
        .chunks(columns * rows)
        .chain(std::iter::once(&referee[..]));
    let mut pages = Vec::new();
    for (n, chunk) in chunks.enumerate() {
        let mut items = Vec::new();
        let mut c = Canvas {
            items: &mut items,
            frame: Frame {
                scale: 1.0,
                dx: margin,
                dy: margin,
            },
        };
        c.text(
            0.0,
            6.0,
            5.0,
            format!("Join links for {}", log.display()),
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        c.text(
            0.0,
            11.0,
            3.0,
            if chunk.len() == 1 && chunk[0].0 == "Referee" {
                "The referee's link: it may record anything; keep this page off the table.".to_owned()
            } else {
                format!(
                    "Page {}: scan your own code. Each link records for its holder only; keep it private.",
                    n + 1
                )
            },
            Anchor::Start,
            Weight::Regular,
            Color::GREY,
        );
        for (i, (name, link)) in chunk.iter().enumerate() {
            let x = (i % columns) as f32 * w;
            let y = 14.0 + (i / columns) as f32 * h;
            c.group(format!("Join link for {name}"), |c| {
                c.rect(
                    x + 1.0,
                    y + 1.0,
                    w - 2.0,
                    h - 2.0,
                    2.0,
                    None,
                    Some(Stroke::dashed(Color::GREY, 0.3, 2.0, 1.5)),
                );
                c.fit_text(
                    crate::render::text::Fonts::builtin(),
                    x + w / 2.0,
                    y + 9.0,
                    6.0,
                    w - 8.0,
                    name.clone(),
                    Anchor::Middle,
                    Weight::Bold,
                    Color::BLACK,
                );
                let size = (w - 12.0).min(h - 22.0);
                qr(c, link, x + (w - size) / 2.0, y + 11.0, size);
                // The address, in pieces that fit.
                let chars: Vec<char> = link.chars().collect();
                for (line, piece) in chars.chunks(34).enumerate() {
                    c.text(
                        x + w / 2.0,
                        y + 13.0 + size + line as f32 * 3.0,
                        2.2,
                        piece.iter().collect::<String>(),
                        Anchor::Middle,
                        Weight::Regular,
                        Color::BLACK,
                    );
                }
            });
        }
        pages.push(Page {
            width: pw,
            height: ph,
            items,
        });
    }
    Scene {
        title: format!("Join links for {}", log.display()),
        pages,
    }
}
