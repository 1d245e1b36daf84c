//! The SVG backend: an SVG document per page, as printers and converters
//! take them ([`pages`]), or every page stacked top to bottom in one
//! document, for a screen ([`to_svg`]).
//!
//! The markup is written straight into one string: each element's
//! attributes in the order of their names, an element's children each on
//! a line of their own, a text's content on its own line, `&`, `<` and
//! `>` escaped in text and those and both quotes in attributes. That is
//! the `svg` crate's way of writing a document, byte for byte
//! (tests/it/print/render_svg_writer.rs writes every kind of item both ways), at a fifth of its cost: the crate
//! builds a tree of maps of strings first, and the table server writes a
//! sheet for a phone after every decision.

use super::scene::{Anchor, Color, Item, Page, PathPoint, Shape, Stroke, Typeset, Weight};
use super::text::{Fonts, UnsupportedCharacter};
use std::fmt::Write;

/// The gap between stacked pages, in millimetres.
const PAGE_GAP: f32 = 8.0;

/// Appends `v` with at most two decimals, without trailing zeros, as
/// `format!("{:.2}")` rounds it (to the nearest, a tie to even) with the
/// zeros trimmed, and never `-0`.
fn push_n(out: &mut String, v: f32) {
    // An f32 has 24 significant bits and 100 needs 7: the product is exact
    // in an f64, and so is its rounding.
    let hundredths = f64::from(v) * 100.0;
    if !hundredths.is_finite() || hundredths.abs() >= 1e15 {
        // Not finite, or too large to be a length: as Rust writes it.
        let text = format!("{v:.2}");
        out.push_str(text.trim_end_matches('0').trim_end_matches('.'));
        return;
    }
    let rounded = hundredths.round_ties_even();
    let whole = rounded.abs() as u64;
    if whole == 0 {
        out.push('0');
        return;
    }
    if rounded < 0.0 {
        out.push('-');
    }
    let _ = write!(out, "{}", whole / 100);
    let cents = whole % 100;
    if cents != 0 {
        out.push('.');
        out.push(char::from(b'0' + (cents / 10) as u8));
        if !cents.is_multiple_of(10) {
            out.push(char::from(b'0' + (cents % 10) as u8));
        }
    }
}

/// A number with at most two decimals, without trailing zeros.
fn n(v: f32) -> String {
    let mut out = String::new();
    push_n(&mut out, v);
    out
}

fn push_rgb(out: &mut String, c: Color) {
    let _ = write!(out, "#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
}

/// Appends `text` with `&`, `<` and `>` escaped, and in an attribute
/// (`quotes`) both quotes too.
fn push_escaped(out: &mut String, text: &str, quotes: bool) {
    let mut rest = text;
    while let Some(at) =
        rest.find(|c: char| matches!(c, '&' | '<' | '>') || (quotes && matches!(c, '"' | '\'')))
    {
        out.push_str(&rest[..at]);
        let c = rest[at..].chars().next().expect("found");
        out.push_str(match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            _ => "&apos;",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// One element's start tag, its attributes written as they are given:
/// in the order of their names.
struct Tag<'a> {
    out: &'a mut String,
}

impl<'a> Tag<'a> {
    fn open(out: &'a mut String, name: &str) -> Tag<'a> {
        out.push('<');
        out.push_str(name);
        Tag { out }
    }

    /// One attribute, its value written by `value`.
    fn attribute(self, name: &str, value: impl FnOnce(&mut String)) -> Self {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        value(self.out);
        self.out.push('"');
        self
    }

    fn text(self, name: &str, value: &str) -> Self {
        self.attribute(name, |out| push_escaped(out, value, true))
    }

    fn number(self, name: &str, value: f32) -> Self {
        self.attribute(name, |out| push_n(out, value))
    }

    fn color(self, name: &str, value: Color) -> Self {
        self.attribute(name, |out| push_rgb(out, value))
    }

    /// What a shape is filled with: `none` for nothing.
    fn fill(self, fill: Option<Color>) -> Self {
        match fill {
            Some(fill) => self.color("fill", fill),
            None => self.text("fill", "none"),
        }
    }

    /// The attributes of a shape's stroke, if it has one.
    fn stroke(self, stroke: Option<Stroke>) -> Self {
        let Some(s) = stroke else {
            return self;
        };
        let mut tag = self.color("stroke", s.color);
        if let Some((on, off)) = s.dash {
            tag = tag.attribute("stroke-dasharray", |out| {
                push_n(out, on);
                out.push(' ');
                push_n(out, off);
            });
        }
        tag.text("stroke-linejoin", "round")
            .number("stroke-width", s.width)
    }

    /// Ends an element with no children.
    fn empty(self) {
        self.out.push_str("/>");
    }

    /// Ends the start tag of an element with children.
    fn children(self) -> &'a mut String {
        self.out.push('>');
        self.out
    }
}

fn push_path_data(out: &mut String, points: &[PathPoint], closed: bool) {
    let mut i = 0;
    while i < points.len() {
        let p = points[i];
        if i == 0 {
            out.push('M');
            push_n(out, p.x);
            out.push(' ');
            push_n(out, p.y);
            i += 1;
        } else if p.curve && i + 2 < points.len() {
            out.push('C');
            for (k, v) in [points[i], points[i + 1], points[i + 2]]
                .iter()
                .flat_map(|p| [p.x, p.y])
                .enumerate()
            {
                if k > 0 {
                    out.push(' ');
                }
                push_n(out, v);
            }
            i += 3;
        } else {
            out.push('L');
            push_n(out, p.x);
            out.push(' ');
            push_n(out, p.y);
            i += 1;
        }
    }
    if closed {
        out.push('Z');
    }
}

/// Appends `item`, measured in `fonts`, as SVG markup.
fn push_item(out: &mut String, fonts: &Fonts, item: &Item) {
    match item {
        Item::Shape {
            shape,
            fill,
            stroke,
        } => match shape {
            Shape::Rect { x, y, w, h, radius } => {
                let mut tag = Tag::open(out, "rect").fill(*fill).number("height", *h);
                if *radius > 0.0 {
                    tag = tag.number("rx", *radius);
                }
                (tag.stroke(*stroke).number("width", *w))
                    .number("x", *x)
                    .number("y", *y)
                    .empty();
            }
            Shape::Circle { cx, cy, r } => {
                (Tag::open(out, "circle").number("cx", *cx).number("cy", *cy))
                    .fill(*fill)
                    .number("r", *r)
                    .stroke(*stroke)
                    .empty();
            }
            Shape::Path { points, closed } => {
                out.push_str("<path d=\"");
                push_path_data(out, points, *closed);
                out.push('"');
                Tag { out }.fill(*fill).stroke(*stroke).empty();
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
            // A character the fonts lack (only a screen's drawing has one)
            // keeps the width the browser's own font gives it.
            let width = fonts.screen_width(text, *size, *weight);
            let mut tag = Tag::open(out, "text")
                .color("fill", *color)
                .number("font-size", *size);
            match weight {
                Weight::Regular => {}
                Weight::Bold => tag = tag.text("font-weight", "bold"),
                Weight::Oblique => tag = tag.text("font-style", "oblique"),
            }
            if width > 0.0 {
                tag = tag.text("lengthAdjust", "spacingAndGlyphs");
            }
            match anchor {
                Anchor::Start => {}
                Anchor::Middle => tag = tag.text("text-anchor", "middle"),
                Anchor::End => tag = tag.text("text-anchor", "end"),
            }
            if width > 0.0 {
                tag = tag.number("textLength", width);
            }
            let out = tag.number("x", *x).number("y", *y).children();
            out.push('\n');
            push_escaped(out, &super::text::shape::nfc(text), false);
            out.push_str("\n</text>");
        }
        Item::Group { title, key, items } => {
            let mut tag = Tag::open(out, "g");
            if let Some(key) = key {
                tag = tag.text("data-key", key);
            }
            let out = tag.children();
            out.push_str("\n<title>");
            push_escaped(out, title, false);
            out.push_str("</title>");
            for item in items {
                out.push('\n');
                push_item(out, fonts, item);
            }
            out.push_str("\n</g>");
        }
    }
}

/// One item, measured in `fonts`, as SVG markup, for a viewer that swaps
/// items in and out of a page: the same markup [`to_svg`] writes for it.
pub fn fragment(fonts: &Fonts, item: &Item) -> String {
    let mut out = String::new();
    push_item(&mut out, fonts, item);
    out
}

/// Appends the white, outlined rectangle under a page's items.
fn push_background(out: &mut String, width: f32, height: f32) {
    Tag::open(out, "rect")
        .text("fill", "#ffffff")
        .number("height", height)
        .text("stroke", "#bbbbbb")
        .text("stroke-width", "0.2")
        .number("width", width)
        .empty();
}

/// The white, outlined rectangle under a page's items.
pub fn page_background(width: f32, height: f32) -> String {
    let mut out = String::new();
    push_background(&mut out, width, height);
    out
}

/// A length in the SVG's user units (millimetres), as the backend writes it.
pub fn length(v: f32) -> String {
    n(v)
}

/// Each page of the document as an SVG document of its own, the size of
/// that page: what a printer or a converter takes, one page each. A
/// page's document is [`to_svg`] of a document of that page alone.
pub fn pages(document: &impl Typeset) -> Result<Vec<String>, UnsupportedCharacter> {
    let (scene, fonts) = (document.scene(), document.fonts());
    scene.check_text(fonts)?;
    Ok(scene
        .pages
        .iter()
        .map(|page| stacked(&scene.title, std::slice::from_ref(page), fonts))
        .collect())
}

/// The document as one SVG document naming its fonts (with fallbacks),
/// every text stretched to the width it has in them, as its layout
/// measured it.
pub fn to_svg(document: &impl Typeset) -> Result<String, UnsupportedCharacter> {
    let (scene, fonts) = (document.scene(), document.fonts());
    scene.check_text(fonts)?;
    Ok(stacked(&scene.title, &scene.pages, fonts))
}

/// The document as one SVG document for a screen: [`to_svg`], except
/// that a character its fonts lack is not refused. A browser draws it in
/// a font of its own, at its natural width (the text's measured width
/// then leaves it out, or stretches only what the fonts have).
pub fn for_screen(document: &impl Typeset) -> String {
    let (scene, fonts) = (document.scene(), document.fonts());
    stacked(&scene.title, &scene.pages, fonts)
}

/// `pages` stacked top to bottom in one SVG document titled `title`.
fn stacked(title: &str, pages: &[Page], fonts: &Fonts) -> String {
    let width = pages.iter().map(|p| p.width).fold(0.0, f32::max);
    let height: f32 = pages.iter().map(|p| p.height).sum::<f32>()
        + PAGE_GAP * pages.len().saturating_sub(1) as f32;
    let items: usize = pages.iter().map(|p| p.items.len()).sum();
    let mut document = String::with_capacity(256 + 160 * items);
    let in_mm = |v: f32| {
        move |out: &mut String| {
            push_n(out, v);
            out.push_str("mm");
        }
    };
    let out = Tag::open(&mut document, "svg")
        .text("font-family", &fonts.css_family)
        .attribute("height", in_mm(height))
        .attribute("viewBox", |out| {
            out.push_str("0 0 ");
            push_n(out, width);
            out.push(' ');
            push_n(out, height);
        })
        .attribute("width", in_mm(width))
        .text("xmlns", "http://www.w3.org/2000/svg")
        .children();
    out.push_str("\n<title>");
    push_escaped(out, title, false);
    out.push_str("</title>");
    let mut top = 0.0;
    for (i, page) in pages.iter().enumerate() {
        let _ = write!(out, "\n<g id=\"page-{}\" transform=\"translate(0 ", i + 1);
        push_n(out, top);
        out.push_str(")\">\n");
        push_background(out, page.width, page.height);
        for item in &page.items {
            out.push('\n');
            push_item(out, fonts, item);
        }
        out.push_str("\n</g>");
        top += page.height + PAGE_GAP;
    }
    out.push_str("\n</svg>");
    document
}
