//! What an organiser hands out and pins up, printed: a round's seating by
//! table and by name, its table slips and result slips ([`round`]), and
//! the standings with every tie-break ([`standings`]). Each is a scene in
//! millimetres, laid out in the fonts it is given (names in any script),
//! written to PDF or SVG by the engine beneath every picture.
//!
//! Its files: [`round`] (the papers of a round), [`standings`] (the
//! standings), and here the page flow they share ([`Flow`]).

pub mod round;
pub mod standings;

use crate::render::paper::Paper;
use crate::render::scene::{Anchor, Canvas, Color, Frame, Item, Page, Stroke, Weight};
use crate::render::text::Fonts;
use std::sync::Arc;

/// The margin of every page, in millimetres: inside what any printer
/// prints.
pub const MARGIN: f32 = 15.0;

/// The body text's size in millimetres (about 11 pt).
pub const BODY: f32 = 3.9;

/// A column of a table: its heading, its width in millimetres, and how its
/// cells line up.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    pub heading: &'static str,
    pub width: f32,
    pub anchor: Anchor,
}

/// Pages filled from the top, one line after another, a new A4 page
/// started when a line would cross the bottom margin.
pub struct Flow {
    pub pages: Vec<Page>,
    /// The fonts every text is measured in.
    fonts: Arc<Fonts>,
    items: Vec<Item>,
    /// Where the next line's top is, from the top margin.
    y: f32,
    /// The heading repeated at the top of every page.
    title: String,
    caption: String,
    /// The columns whose headings open every page after the first, once
    /// a table's rows run on.
    repeated: Option<Vec<Column>>,
}

impl Flow {
    /// An empty flow whose pages are headed `title` and `caption`, its
    /// text measured in `fonts`.
    pub fn new(fonts: &Arc<Fonts>, title: impl Into<String>, caption: impl Into<String>) -> Flow {
        let mut flow = Flow {
            pages: Vec::new(),
            fonts: fonts.clone(),
            items: Vec::new(),
            y: 0.0,
            title: title.into(),
            caption: caption.into(),
            repeated: None,
        };
        flow.head();
        flow
    }

    pub fn width() -> f32 {
        Paper::A4.size().0 - 2.0 * MARGIN
    }

    fn height() -> f32 {
        Paper::A4.size().1 - 2.0 * MARGIN
    }

    fn canvas(&mut self) -> Canvas<'_> {
        Canvas {
            items: &mut self.items,
            frame: Frame {
                scale: 1.0,
                dx: MARGIN,
                dy: MARGIN,
            },
        }
    }

    /// The fonts the flow's text is measured in.
    pub fn fonts(&self) -> &Arc<Fonts> {
        &self.fonts
    }

    fn head(&mut self) {
        let fonts = self.fonts.clone();
        let (title, caption) = (self.title.clone(), self.caption.clone());
        let width = Flow::width();
        let mut c = self.canvas();
        c.fit_text(
            &fonts,
            0.0,
            7.0,
            7.0,
            width,
            title,
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        c.fit_text(
            &fonts,
            0.0,
            13.5,
            BODY,
            width,
            caption,
            Anchor::Start,
            Weight::Regular,
            Color::GREY,
        );
        self.y = 20.0;
    }

    /// Ends the page under way and starts another.
    pub fn break_page(&mut self) {
        let (width, height) = Paper::A4.size();
        self.pages.push(Page {
            width,
            height,
            items: std::mem::take(&mut self.items),
        });
        self.head();
        if let Some(columns) = self.repeated.clone() {
            self.headings(&columns);
        }
    }

    /// Room for `height` more millimetres, on a new page if need be.
    pub fn room(&mut self, height: f32) {
        if self.y + height > Flow::height() {
            self.break_page();
        }
    }

    /// A heading of a part of the page.
    pub fn heading(&mut self, text: &str) {
        self.room(16.0);
        self.y += 4.0;
        let y = self.y + 5.0;
        let width = Flow::width();
        let fonts = self.fonts.clone();
        self.canvas().fit_text(
            &fonts,
            0.0,
            y,
            5.0,
            width,
            text.to_owned(),
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        self.y += 8.0;
    }

    /// One row of `cells` in `columns`, bold or not, ruled beneath.
    pub fn row(&mut self, columns: &[Column], cells: &[String], weight: Weight) {
        let height = 7.0;
        self.room(height);
        let fonts = self.fonts.clone();
        let y = self.y;
        let mut c = self.canvas();
        let mut x = 0.0;
        for (column, cell) in columns.iter().zip(cells) {
            let at = match column.anchor {
                Anchor::Start => x + 1.0,
                Anchor::Middle => x + column.width / 2.0,
                Anchor::End => x + column.width - 1.0,
            };
            c.fit_text(
                &fonts,
                at,
                y + 5.0,
                BODY,
                column.width - 2.0,
                cell.clone(),
                column.anchor,
                weight,
                Color::BLACK,
            );
            x += column.width;
        }
        c.line(
            0.0,
            y + height,
            x,
            y + height,
            Stroke::solid(Color::LIGHT, 0.3),
        );
        self.y += height;
    }

    /// The headings of `columns`, as a bold row.
    pub fn headings(&mut self, columns: &[Column]) {
        let cells: Vec<String> = columns.iter().map(|c| c.heading.to_owned()).collect();
        self.row(columns, &cells, Weight::Bold);
    }

    /// The headings of `columns`, as a bold row, drawn again at the top of
    /// every page the flow breaks onto from here on: for a table of rows
    /// that runs over pages.
    pub fn repeated_headings(&mut self, columns: &[Column]) {
        self.headings(columns);
        self.repeated = Some(columns.to_vec());
    }

    /// Draws with `draw` in a block `height` mm tall, on a new page if it
    /// does not fit; `draw` gets the block's top.
    pub fn block(&mut self, height: f32, draw: impl FnOnce(&mut Canvas, f32)) {
        self.room(height);
        let y = self.y;
        draw(&mut self.canvas(), y);
        self.y += height;
    }

    /// The pages, the last one ended.
    pub fn finish(mut self) -> Vec<Page> {
        if !self.items.is_empty() {
            let (width, height) = Paper::A4.size();
            self.pages.push(Page {
                width,
                height,
                items: std::mem::take(&mut self.items),
            });
        }
        self.pages
    }
}
