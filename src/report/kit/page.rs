//! The page footer every drawn report ends its pages with: a rule, what
//! the report is, and "page i of n".

use super::style::{SMALL_GREY, width_of, write};
use crate::render::scene::{Anchor, Canvas, Color, Frame, Item, Page, Stroke};

/// Space kept at the bottom of every page for the footer.
pub(crate) const FOOTER: f32 = 7.0;

/// The pages `pages` of a paper of `size`, each with [`footer_line`] at
/// the bottom of its body of `body`, drawn in `frame`.
pub(crate) fn with_footers(
    pages: Vec<Vec<Item>>,
    frame: Frame,
    (page_w, page_h): (f32, f32),
    body: (f32, f32),
    footer: &str,
) -> Vec<Page> {
    let count = pages.len();
    pages
        .into_iter()
        .enumerate()
        .map(|(i, mut items)| {
            let mut c = Canvas {
                items: &mut items,
                frame,
            };
            footer_line(&mut c, body, footer, (i + 1, count));
            Page {
                width: page_w,
                height: page_h,
                items,
            }
        })
        .collect()
}

/// The footer at the bottom of a page's body of `(width, height)`: a rule,
/// `text` on the left, "page i of n" on the right.
pub(crate) fn footer_line(
    c: &mut Canvas,
    (width, height): (f32, f32),
    text: &str,
    (page, count): (usize, usize),
) {
    let y = height - 1.0;
    let number = format!("page {page} of {count}");
    let room = width - width_of(&number, SMALL_GREY) - 5.0;
    c.line(
        0.0,
        y - 3.8,
        width,
        y - 3.8,
        Stroke::solid(Color::LIGHT, 0.2),
    );
    write(c, (0.0, y), room, SMALL_GREY, Anchor::Start, text);
    write(c, (width, y), width, SMALL_GREY, Anchor::End, number);
}
