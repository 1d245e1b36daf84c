//! The writer against the `svg` crate's way of writing the same scene,
//! which it replaced on the table server's path: every kind of item, odd
//! numbers and characters that must be escaped, and the sheets and tables
//! the server draws along whole golden games, written both ways, must be
//! the same bytes.

use sunfold::render::scene::{Anchor, Color, Item, Page, PathPoint, Scene, Shape, Stroke, Weight};
use sunfold::render::svg::{for_screen, fragment, length, page_background};
use sunfold::render::text::Fonts;
use svg::Document;

/// The gap between stacked pages, in millimetres, as the backend leaves it.
const PAGE_GAP: f32 = 8.0;
use svg::node::element::{Circle, Group, Path, Rectangle, Text, Title};

// The writer this module's replaced: the `svg` crate's tree of elements.

/// A number with at most two decimals, without trailing zeros.
fn old_n(v: f32) -> String {
    let text = format!("{:.2}", v);
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

fn rgb(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn paint<T: svg::Node>(mut node: T, fill: Option<Color>, stroke: Option<Stroke>) -> T {
    node.assign("fill", fill.map_or("none".to_owned(), rgb));
    if let Some(s) = stroke {
        node.assign("stroke", rgb(s.color));
        node.assign("stroke-width", old_n(s.width));
        node.assign("stroke-linejoin", "round");
        if let Some((on, off)) = s.dash {
            node.assign("stroke-dasharray", format!("{} {}", old_n(on), old_n(off)));
        }
    }
    node
}

fn path_data(points: &[PathPoint], closed: bool) -> String {
    let mut d = String::new();
    let mut i = 0;
    while i < points.len() {
        let p = points[i];
        if i == 0 {
            d.push_str(&format!("M{} {}", old_n(p.x), old_n(p.y)));
            i += 1;
        } else if p.curve && i + 2 < points.len() {
            let (c1, c2, e) = (points[i], points[i + 1], points[i + 2]);
            d.push_str(&format!(
                "C{} {} {} {} {} {}",
                old_n(c1.x),
                old_n(c1.y),
                old_n(c2.x),
                old_n(c2.y),
                old_n(e.x),
                old_n(e.y)
            ));
            i += 3;
        } else {
            d.push_str(&format!("L{} {}", old_n(p.x), old_n(p.y)));
            i += 1;
        }
    }
    if closed {
        d.push('Z');
    }
    d
}

fn old_node(fonts: &Fonts, item: &Item) -> Box<dyn svg::Node> {
    match item {
        Item::Shape {
            shape,
            fill,
            stroke,
        } => match shape {
            Shape::Rect { x, y, w, h, radius } => {
                let mut rect = Rectangle::new()
                    .set("x", old_n(*x))
                    .set("y", old_n(*y))
                    .set("width", old_n(*w))
                    .set("height", old_n(*h));
                if *radius > 0.0 {
                    rect = rect.set("rx", old_n(*radius));
                }
                Box::new(paint(rect, *fill, *stroke))
            }
            Shape::Circle { cx, cy, r } => {
                let circle = Circle::new()
                    .set("cx", old_n(*cx))
                    .set("cy", old_n(*cy))
                    .set("r", old_n(*r));
                Box::new(paint(circle, *fill, *stroke))
            }
            Shape::Path { points, closed } => {
                let path = Path::new().set("d", path_data(points, *closed));
                Box::new(paint(path, *fill, *stroke))
            }
        },
        Item::Text {
            x,
            y,
            size,
            text,
            anchor,
            weight,
            color,
        } => {
            // The width the PDF's embedded font gives: any fallback font
            // is stretched or squeezed to it, so the layout never depends
            // on which fonts the viewer has.
            let width = fonts.screen_width(text, *size, *weight);
            let mut t = Text::new(sunfold::render::text::shape::nfc(text).into_owned())
                .set("x", old_n(*x))
                .set("y", old_n(*y))
                .set("font-size", old_n(*size))
                .set("fill", rgb(*color));
            if width > 0.0 {
                t = t
                    .set("textLength", old_n(width))
                    .set("lengthAdjust", "spacingAndGlyphs");
            }
            match anchor {
                Anchor::Start => {}
                Anchor::Middle => t = t.set("text-anchor", "middle"),
                Anchor::End => t = t.set("text-anchor", "end"),
            }
            match weight {
                Weight::Regular => {}
                Weight::Bold => t = t.set("font-weight", "bold"),
                Weight::Oblique => t = t.set("font-style", "oblique"),
            }
            Box::new(t)
        }
        Item::Group { title, key, items } => {
            let mut group = Group::new();
            if let Some(key) = key {
                group = group.set("data-key", key.as_str());
            }
            let mut group = group.add(Title::new(title.clone()));
            for item in items {
                group = group.add(old_node(fonts, item));
            }
            Box::new(group)
        }
    }
}

/// `pages` stacked top to bottom in one SVG document titled `title`.
fn old_stacked(title: &str, pages: &[Page], fonts: &Fonts) -> String {
    let width = pages.iter().map(|p| p.width).fold(0.0, f32::max);
    let height: f32 = pages.iter().map(|p| p.height).sum::<f32>()
        + PAGE_GAP * pages.len().saturating_sub(1) as f32;
    let mut document = Document::new()
        .set("viewBox", format!("0 0 {} {}", old_n(width), old_n(height)))
        .set("width", format!("{}mm", old_n(width)))
        .set("height", format!("{}mm", old_n(height)))
        .set("font-family", fonts.css_family.as_str())
        .add(Title::new(title));
    let mut top = 0.0;
    for (i, page) in pages.iter().enumerate() {
        let mut group = Group::new()
            .set("id", format!("page-{}", i + 1))
            .set("transform", format!("translate(0 {})", old_n(top)))
            .add(
                Rectangle::new()
                    .set("width", old_n(page.width))
                    .set("height", old_n(page.height))
                    .set("fill", "#ffffff")
                    .set("stroke", "#bbbbbb")
                    .set("stroke-width", "0.2"),
            );
        for item in &page.items {
            group = group.add(old_node(fonts, item));
        }
        document = document.add(group);
        top += page.height + PAGE_GAP;
    }
    document.to_string()
}

/// A generator of numbers for the tests, the same on every run.
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn coin(&mut self) -> bool {
        self.next() & 1 == 0
    }

    /// A length as scenes have them, often on a tie of the third decimal.
    fn number(&mut self) -> f32 {
        let v = match self.next() % 4 {
            0 => (self.next() % 400_000) as f32 / 1000.0 - 100.0,
            1 => (self.next() % 80_000) as f32 / 200.0 - 50.0 + 0.005,
            2 => f32::from_bits(self.next() as u32 & 0x47ff_ffff),
            _ => (self.next() % 3000) as f32 / 8.0 - 100.0,
        };
        if self.coin() { v } else { -v }
    }

    fn text(&mut self) -> String {
        const BITS: [&str; 12] = [
            "Ann",
            " & ",
            "<b>",
            "\"quoted\"",
            "l'été",
            "Zoë",
            "李雷",
            "שָׂרָה",
            "🙂",
            "a>b",
            "",
            "K1a",
        ];
        (0..self.next() % 4)
            .map(|_| BITS[(self.next() % 12) as usize])
            .collect()
    }

    fn color(&mut self) -> Color {
        let v = self.next();
        Color(v as u8, (v >> 8) as u8, (v >> 16) as u8)
    }

    fn stroke(&mut self) -> Option<Stroke> {
        (!self.next().is_multiple_of(3)).then(|| Stroke {
            color: self.color(),
            width: self.number(),
            dash: (self.coin()).then(|| (self.number(), self.number())),
        })
    }

    fn item(&mut self, depth: u32) -> Item {
        let fill = (self.coin()).then(|| self.color());
        match self.next() % if depth < 2 { 5 } else { 4 } {
            0 => Item::Shape {
                shape: Shape::Rect {
                    x: self.number(),
                    y: self.number(),
                    w: self.number(),
                    h: self.number(),
                    radius: if self.coin() { 0.0 } else { self.number() },
                },
                fill,
                stroke: self.stroke(),
            },
            1 => Item::Shape {
                shape: Shape::Circle {
                    cx: self.number(),
                    cy: self.number(),
                    r: self.number(),
                },
                fill,
                stroke: self.stroke(),
            },
            2 => Item::Shape {
                shape: Shape::Path {
                    points: (0..self.next() % 7)
                        .map(|_| PathPoint {
                            x: self.number(),
                            y: self.number(),
                            curve: self.coin(),
                        })
                        .collect(),
                    closed: self.coin(),
                },
                fill,
                stroke: self.stroke(),
            },
            3 => Item::Text {
                x: self.number(),
                y: self.number(),
                size: self.number().abs(),
                text: self.text(),
                anchor: [Anchor::Start, Anchor::Middle, Anchor::End][(self.next() % 3) as usize],
                weight: [Weight::Regular, Weight::Bold, Weight::Oblique]
                    [(self.next() % 3) as usize],
                color: self.color(),
            },
            _ => Item::Group {
                title: self.text(),
                key: (self.coin()).then(|| self.text()),
                items: (0..self.next() % 4).map(|_| self.item(depth + 1)).collect(),
            },
        }
    }
}

#[test]
fn a_number_is_written_as_format_writes_it_to_two_decimals() {
    let mut draws = Draws(7);
    let ties = (-20_000..20_000).map(|k| k as f32 / 1000.0 + 0.005);
    let eighths = (-4000..4000).map(|k| k as f32 / 8.0);
    let drawn: Vec<f32> = (0..200_000).map(|_| draws.number()).collect();
    let odd = [
        0.0,
        -0.0,
        -0.001,
        -0.005,
        1e9,
        -1e12,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    for v in ties.chain(eighths).chain(drawn).chain(odd) {
        assert_eq!(length(v), old_n(v), "{v:?}");
    }
}

#[test]
fn every_kind_of_item_is_written_as_the_svg_crate_writes_it() {
    let fonts = Fonts::builtin();
    let mut draws = Draws(62);
    for round in 0..400 {
        let pages: Vec<Page> = (0..1 + draws.next() % 3)
            .map(|_| Page {
                width: draws.number().abs(),
                height: draws.number().abs(),
                items: (0..draws.next() % 12).map(|_| draws.item(0)).collect(),
            })
            .collect();
        let title = draws.text();
        let scene = Scene {
            title: title.clone(),
            pages: pages.clone(),
        };
        assert_eq!(
            for_screen(&scene),
            old_stacked(&title, &pages, fonts),
            "round {round}"
        );
        for item in &pages[0].items {
            assert_eq!(fragment(fonts, item), old_node(fonts, item).to_string());
        }
    }
    assert_eq!(
        page_background(210.0, 297.5),
        old_node(
            fonts,
            &Item::Group { title: String::new(), key: None, items: Vec::new() }
        )
        .to_string()
        .replace("<g>\n<title></title>\n</g>", "<rect fill=\"#ffffff\" height=\"297.5\" stroke=\"#bbbbbb\" stroke-width=\"0.2\" width=\"210\"/>")
    );
}

#[test]
fn the_sheets_and_tables_the_server_draws_are_written_as_before_along_golden_games() {
    use sunfold::log::{Fold, Line};
    let fonts = Fonts::builtin();
    let lines = |text: &'static str| {
        text.lines().enumerate().map(|(n, text)| Line {
            number: n + 1,
            bytes: text.as_bytes(),
            terminated: true,
        })
    };
    let same = |pages: Vec<Page>| {
        let old = old_stacked("sheet", &pages, fonts);
        let scene = Scene {
            title: "sheet".to_owned(),
            pages,
        };
        assert_eq!(for_screen(&scene), old);
    };
    // A 62 Soleils game of four: every sheet every tenth entry, both layouts.
    {
        use sunfold::print::soleils::replay::{phone_sheet, viewer_sheet};
        let mut lines = lines(include_str!("../../../replays/soleils-4p-sun-limit.jsonl"));
        let (mut fold, _) =
            Fold::<sunfold::soleils::Soleils>::start(&lines.next().unwrap()).unwrap();
        for (i, line) in lines.enumerate() {
            fold.feed(&line).unwrap();
            if i % 10 == 0 {
                for p in 0..fold.state().players().len() {
                    same(viewer_sheet(fold.state(), p));
                    same(vec![phone_sheet(fold.state(), p)]);
                }
            }
        }
    }
    // A Summertime game: the table every fifth entry, as each seat sees it.
    {
        use sunfold::print::summertime::table::{page, phone_page, window};
        let mut lines = lines(include_str!(
            "../../../replays/summertime-double-pass-ending.jsonl"
        ));
        let (mut fold, _) =
            Fold::<sunfold::summertime::Summertime>::start(&lines.next().unwrap()).unwrap();
        for (i, line) in lines.enumerate() {
            fold.feed(&line).unwrap();
            if i % 5 == 0 {
                let state = fold.state();
                let (x0, y0, x1, y1) = window(state.grid().keys());
                let around = (x0 - 1, y0 - 1, x1 + 1, y1 + 1);
                for seat in [None, Some(0), Some(1)] {
                    same(vec![page(state, around, seat)]);
                    same(vec![phone_page(state, around, seat)]);
                }
            }
        }
    }
}
