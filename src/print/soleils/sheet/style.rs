//! How a sheet looks and how it is arranged, standard or in large print.
//!
//! Everything that differs between the two is chosen here, once, when the
//! sheet is made: the drawing code asks the [`Style`] for an ink or a
//! stroke and the [`Layout`] for a size or an arrangement, and never asks
//! whether it draws large print.

use super::{COMPACT_WIDTH, PHONE_WIDTH, TITLE_WIDTH, WIDTH};
use crate::render::scene::{Color, Stroke};

/// The scale and the inks of a sheet: colour, or black on white with
/// thicker strokes for large print.
#[derive(Clone, Copy)]
pub(super) struct Style {
    /// The factor of every size: 1, or 2 in large print.
    pub(super) k: f32,
    /// How much thicker than the scale makes them strokes are drawn.
    stroke: f32,
    /// The smallest text size, in millimetres at the natural size: 0, or
    /// in the compact layout what still prints at 6 pt once the sheet is
    /// shrunk to half a page.
    min_text: f32,
    /// Printed words and numbers.
    pub(super) ink: Color,
    /// The outlines of boxes, panels and icons.
    pub(super) line: Color,
    /// Captions, box ids and other quiet words.
    pub(super) soft: Color,
    /// What a player writes: marks, totals, ticks.
    pub(super) hand: Color,
    pub(super) pearl: Color,
    /// A pearl coloured by its number, and the number written on it.
    pub(super) pearl_done: Color,
    pub(super) pearl_done_number: Color,
    pub(super) sun: Color,
    pub(super) crab: Color,
    pub(super) frog: Color,
    /// Whether the crab's body is hollow, so that it never reads as the
    /// frog's solid head when both are black.
    pub(super) hollow_crab: bool,
    /// The fills that only colour tells apart, none in black and white:
    /// groups, starfish, seashells, flags' pennants.
    pub(super) group_fill: Option<Color>,
    pub(super) star_fill: Option<Color>,
    pub(super) shell_fill: Option<Color>,
    pub(super) pennant: Option<Color>,
}

impl Style {
    /// The standard sheet, in colour.
    fn colour() -> Style {
        Style {
            k: 1.0,
            stroke: 1.0,
            min_text: 0.0,
            ink: Color::BLACK,
            line: Color(45, 45, 70),
            soft: Color(110, 110, 120),
            hand: Color(20, 60, 170),
            pearl: Color(252, 247, 232),
            pearl_done: Color(222, 170, 30),
            pearl_done_number: Color::BLACK,
            sun: Color(236, 160, 20),
            crab: Color(200, 70, 50),
            frog: Color(50, 140, 70),
            hollow_crab: false,
            group_fill: Some(Color(243, 247, 252)),
            star_fill: Some(Color(240, 120, 90)),
            shell_fill: Some(Color(250, 225, 200)),
            pennant: Some(Color(90, 150, 220)),
        }
    }

    /// A phone's screen: the standard colours, a quarter larger, with
    /// every text at [`PHONE_TEXT`] or more, so that the narrow sheet,
    /// shown at the screen's width, keeps its words at 11 CSS pixels or
    /// more.
    fn phone() -> Style {
        Style {
            k: 1.25,
            min_text: PHONE_TEXT,
            ..Style::colour()
        }
    }

    /// Large print: twice the size, black on white, thick strokes; no
    /// meaning is carried by colour.
    fn black_on_white() -> Style {
        let black = Color::BLACK;
        Style {
            k: 2.0,
            stroke: 1.6,
            min_text: 0.0,
            ink: black,
            line: black,
            soft: black,
            hand: black,
            pearl: Color::WHITE,
            pearl_done: black,
            pearl_done_number: Color::WHITE,
            sun: black,
            crab: black,
            frog: black,
            hollow_crab: true,
            group_fill: None,
            star_fill: None,
            shell_fill: None,
            pennant: None,
        }
    }

    /// The compact sheet: the standard colours, with every text at least
    /// [`COMPACT_TEXT`] and strokes a little thicker, since the whole sheet
    /// prints at about two thirds of its natural size.
    fn compact() -> Style {
        Style {
            min_text: COMPACT_TEXT,
            stroke: 1.25,
            ..Style::colour()
        }
    }

    /// A text of `size` millimetres at the standard size, scaled, and never
    /// below the style's smallest text.
    pub(super) fn t(&self, size: f32) -> f32 {
        (size * self.k).max(self.min_text)
    }

    /// An outline of `width` millimetres at the standard size, scaled.
    pub(super) fn s(&self, width: f32) -> Stroke {
        Stroke::solid(self.line, width * self.k * self.stroke)
    }
}

/// How the grid is fitted to pages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Paging {
    /// The grid's pitch shrinks so that the whole sheet fits one page, and
    /// a grid too wide for the page is cut into tiles.
    OnePage,
    /// Large print, and a phone's screen: the grid at twice the width's
    /// pitch, each zone whole on a page with its rule in words (`large.rs`);
    /// a phone stacks those pages in one column ([`super::phone_page`]).
    ByZone,
}

/// How the legend runs.
#[derive(Clone, Copy)]
pub(super) struct Legend {
    pub(super) height: f32,
    /// The words beside the pearl, the crab and the frog.
    pub(super) words: [&'static str; 3],
    /// One item a line, at this pitch; all on one line if `None`.
    pub(super) stacked: Option<f32>,
}

/// The sizes and arrangements of a sheet's blocks.
#[derive(Clone, Copy)]
pub(super) struct Layout {
    /// The natural width of a page, in millimetres.
    pub(super) width: f32,
    pub(super) paging: Paging,
    /// The room at the foot of each page for the player's name and the
    /// page's number; none on a sheet of one page.
    pub(super) footer: f32,
    pub(super) header: f32,
    /// The room for the title: beside the name line, or the page's width.
    pub(super) title_width: f32,
    /// The name line: its left, its baseline below the header's top, and
    /// its text size.
    pub(super) name_line: (f32, f32, f32),
    pub(super) legend: Legend,
    pub(super) sun_per_row: usize,
    /// The room between a sun's circle and its slot's edge, where its rays
    /// stand, at the standard size.
    pub(super) sun_clearance: f32,
    /// Threshold panels per row; all on one row if `None`.
    pub(super) thresholds_per_row: Option<usize>,
    /// Columns of the flags panel and of the score box.
    pub(super) columns: usize,
    /// A box prints its id when wider than this.
    pub(super) id_room: Option<f32>,
    /// Whether a bottle's box has a neck drawn over it.
    pub(super) bottle_necks: bool,
    /// Whether each flag gives its zone's rule on its second line instead
    /// of in brackets after its reward, where the words would not fit.
    pub(super) rules_under_flags: bool,
    /// The grid's pitch, when the layout fixes it: four boxes across a
    /// phone's sheet.
    pub(super) pitch: Option<f32>,
    /// Whether the flags give their zones' rules at all: not where each
    /// zone already states its rule in words above its boxes.
    pub(super) flag_rules: bool,
    /// The words after the flags' heading.
    pub(super) flags_note: &'static str,
}

impl Layout {
    /// The standard sheet at scale `k`: one page.
    fn standard(k: f32) -> Layout {
        Layout {
            width: WIDTH,
            paging: Paging::OnePage,
            footer: 0.0,
            header: 14.0 * k,
            title_width: TITLE_WIDTH,
            name_line: (112.0, 9.0, 3.5),
            legend: Legend {
                height: 8.0,
                words: [
                    "write its number to colour the pearl",
                    "copy to a neighbour",
                    "any sun value",
                ],
                stacked: None,
            },
            sun_per_row: 10,
            sun_clearance: 2.2,
            thresholds_per_row: None,
            columns: 2,
            id_room: None,
            bottle_necks: true,
            rules_under_flags: false,
            pitch: None,
            flag_rules: true,
            flags_note: "circle a flag when every box of its zone is filled",
        }
    }

    /// The compact sheet, two to a page: narrower, so that it fills half a
    /// landscape A4 or Letter page (and an A5 page) at the same scale; the
    /// thresholds in two rows, so that their words keep their size; the
    /// flags without the rules the zones' labels already give.
    fn compact() -> Layout {
        Layout {
            width: COMPACT_WIDTH,
            title_width: COMPACT_WIDTH - 82.0,
            name_line: (COMPACT_WIDTH - 78.0, 9.0, 3.5),
            legend: Legend {
                height: 8.0,
                words: [
                    "its number colours the pearl",
                    "copy to a neighbour",
                    "any sun value",
                ],
                stacked: None,
            },
            header: 16.0,
            sun_clearance: 2.8,
            thresholds_per_row: Some(3),
            rules_under_flags: true,
            ..Layout::standard(1.0)
        }
    }

    /// Large print at scale `k`: page 1 holds the name line under the
    /// title, the sun track and its thresholds; the legend, in words, leads
    /// the zones' pages.
    fn large(k: f32) -> Layout {
        Layout {
            width: WIDTH,
            paging: Paging::ByZone,
            footer: 4.0 * k,
            header: 19.0 * k,
            title_width: WIDTH,
            name_line: (0.0, 18.0 * k, 3.5 * k),
            legend: Legend {
                height: 3.0 * 6.5 * k,
                words: [
                    "Pearl: write its number to colour the pearl",
                    "Crab (hollow, with claws): copy the number to a neighbour",
                    "Frog (solid, with eyes): any sun value from 1 to 6",
                ],
                stacked: Some(6.5 * k),
            },
            sun_per_row: 5,
            sun_clearance: 2.2,
            thresholds_per_row: Some(3),
            columns: 1,
            id_room: Some(20.0),
            bottle_necks: false,
            rules_under_flags: false,
            pitch: None,
            flag_rules: true,
            flags_note: "circle a flag when every box of its zone is filled",
        }
    }

    /// A phone's screen at scale `k`: large print's arrangement (the name
    /// line under the title, each zone whole with its rule in words) in
    /// colour, narrower, on one page that scrolls; the flags without the
    /// rules the zones already give.
    fn phone(k: f32) -> Layout {
        Layout {
            width: PHONE_WIDTH,
            paging: Paging::ByZone,
            footer: 0.0,
            title_width: PHONE_WIDTH,
            legend: Legend {
                height: 3.0 * 6.5 * k,
                words: [
                    "its number colours the pearl",
                    "copy to a neighbour",
                    "any sun value",
                ],
                stacked: Some(6.5 * k),
            },
            // Four suns a row: room in each for its number, its total and
            // the entry, one under the other.
            sun_per_row: 4,
            thresholds_per_row: Some(2),
            pitch: Some(PHONE_WIDTH / 4.0),
            id_room: None,
            bottle_necks: true,
            flag_rules: false,
            flags_note: "when a zone is full",
            ..Layout::large(k)
        }
    }
}

/// The smallest text of the compact sheet, in millimetres at its natural
/// size: 6.2 pt at the scale of half a landscape Letter page.
pub(super) const COMPACT_TEXT: f32 = 3.2;

/// The smallest text of the phone's sheet, in millimetres: 12.9 CSS
/// pixels where the sheet fills 361 pixels of a 390-pixel screen.
pub(super) const PHONE_TEXT: f32 = 3.6;

/// The style and layout of a standard sheet, a compact one, or large print.
pub(super) fn chosen(size: super::Size) -> (Style, Layout) {
    match size {
        super::Size::Large => {
            let style = Style::black_on_white();
            (style, Layout::large(style.k))
        }
        super::Size::Standard => {
            let style = Style::colour();
            (style, Layout::standard(style.k))
        }
        super::Size::Compact => (Style::compact(), Layout::compact()),
        super::Size::Phone => {
            let style = Style::phone();
            (style, Layout::phone(style.k))
        }
    }
}
