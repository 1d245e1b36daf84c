//! The SVG backend: an SVG document per page, as printers and converters
//! take them ([`pages`]), or every page stacked top to bottom in one
//! document, for a screen ([`to_svg`]).

use super::scene::{Anchor, Color, Item, Page, PathPoint, Shape, Stroke, Typeset, Weight};
use super::text::{Fonts, UnsupportedCharacter};
use svg::Document;
use svg::node::element::{Circle, Group, Path, Rectangle, Text, Title};

/// The gap between stacked pages, in millimetres.
const PAGE_GAP: f32 = 8.0;

/// A number with at most two decimals, without trailing zeros.
fn n(v: f32) -> String {
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
        node.assign("stroke-width", n(s.width));
        node.assign("stroke-linejoin", "round");
        if let Some((on, off)) = s.dash {
            node.assign("stroke-dasharray", format!("{} {}", n(on), n(off)));
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
            d.push_str(&format!("M{} {}", n(p.x), n(p.y)));
            i += 1;
        } else if p.curve && i + 2 < points.len() {
            let (c1, c2, e) = (points[i], points[i + 1], points[i + 2]);
            d.push_str(&format!(
                "C{} {} {} {} {} {}",
                n(c1.x),
                n(c1.y),
                n(c2.x),
                n(c2.y),
                n(e.x),
                n(e.y)
            ));
            i += 3;
        } else {
            d.push_str(&format!("L{} {}", n(p.x), n(p.y)));
            i += 1;
        }
    }
    if closed {
        d.push('Z');
    }
    d
}

fn node(fonts: &Fonts, item: &Item) -> Box<dyn svg::Node> {
    match item {
        Item::Shape {
            shape,
            fill,
            stroke,
        } => match shape {
            Shape::Rect { x, y, w, h, radius } => {
                let mut rect = Rectangle::new()
                    .set("x", n(*x))
                    .set("y", n(*y))
                    .set("width", n(*w))
                    .set("height", n(*h));
                if *radius > 0.0 {
                    rect = rect.set("rx", n(*radius));
                }
                Box::new(paint(rect, *fill, *stroke))
            }
            Shape::Circle { cx, cy, r } => {
                let circle = Circle::new()
                    .set("cx", n(*cx))
                    .set("cy", n(*cy))
                    .set("r", n(*r));
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
            let width = fonts.width(text, *size, *weight);
            let mut t = Text::new(super::text::shape::nfc(text).into_owned())
                .set("x", n(*x))
                .set("y", n(*y))
                .set("font-size", n(*size))
                .set("fill", rgb(*color));
            if width > 0.0 {
                t = t
                    .set("textLength", n(width))
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
                group = group.add(node(fonts, item));
            }
            Box::new(group)
        }
    }
}

/// One item, measured in `fonts`, as SVG markup, for a viewer that swaps
/// items in and out of a page: the same markup [`to_svg`] writes for it.
pub fn fragment(fonts: &Fonts, item: &Item) -> String {
    node(fonts, item).to_string()
}

/// The white, outlined rectangle under a page's items.
pub fn page_background(width: f32, height: f32) -> String {
    Rectangle::new()
        .set("width", n(width))
        .set("height", n(height))
        .set("fill", "#ffffff")
        .set("stroke", "#bbbbbb")
        .set("stroke-width", "0.2")
        .to_string()
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

/// `pages` stacked top to bottom in one SVG document titled `title`.
fn stacked(title: &str, pages: &[Page], fonts: &Fonts) -> String {
    let width = pages.iter().map(|p| p.width).fold(0.0, f32::max);
    let height: f32 = pages.iter().map(|p| p.height).sum::<f32>()
        + PAGE_GAP * pages.len().saturating_sub(1) as f32;
    let mut document = Document::new()
        .set("viewBox", format!("0 0 {} {}", n(width), n(height)))
        .set("width", format!("{}mm", n(width)))
        .set("height", format!("{}mm", n(height)))
        .set("font-family", fonts.css_family.as_str())
        .add(Title::new(title));
    let mut top = 0.0;
    for (i, page) in pages.iter().enumerate() {
        let mut group = Group::new()
            .set("id", format!("page-{}", i + 1))
            .set("transform", format!("translate(0 {})", n(top)))
            .add(
                Rectangle::new()
                    .set("width", n(page.width))
                    .set("height", n(page.height))
                    .set("fill", "#ffffff")
                    .set("stroke", "#bbbbbb")
                    .set("stroke-width", "0.2"),
            );
        for item in &page.items {
            group = group.add(node(fonts, item));
        }
        document = document.add(group);
        top += page.height + PAGE_GAP;
    }
    document.to_string()
}
