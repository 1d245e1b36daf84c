//! The drawing model shared by every exporter: pages of shapes and text in
//! millimetres, origin at the top left, y growing downwards. The SVG and PDF
//! backends only translate it, so the two outputs cannot disagree.
//!
//! Text is measured while a scene is drawn (to shrink it into a box, to
//! wrap it, to place what follows it), in the [`Fonts`] the drawing code is
//! given. A [`Document`] keeps the scene with those fonts, and the backends
//! write a document in its own fonts, so what was measured is what prints.

use super::text::{Fonts, UnsupportedCharacter};
use std::sync::Arc;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    pub const BLACK: Color = Color(0, 0, 0);
    pub const WHITE: Color = Color(255, 255, 255);
    pub const GREY: Color = Color(120, 120, 120);
    pub const LIGHT: Color = Color(225, 225, 225);
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    pub color: Color,
    /// Width in millimetres.
    pub width: f32,
    /// Dash and gap lengths in millimetres; empty for a solid line.
    pub dash: Option<(f32, f32)>,
}

impl Stroke {
    pub fn solid(color: Color, width: f32) -> Self {
        Stroke {
            color,
            width,
            dash: None,
        }
    }
    pub fn dashed(color: Color, width: f32, on: f32, off: f32) -> Self {
        Stroke {
            color,
            width,
            dash: Some((on, off)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Weight {
    Regular,
    Bold,
    /// Slanted, for handwriting-like entries.
    Oblique,
}

/// One point of a path; `curve` points are the control points of a cubic
/// Bézier segment (two controls, then the end point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathPoint {
    pub x: f32,
    pub y: f32,
    pub curve: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radius: f32,
    },
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
    },
    /// A polyline or polygon; `closed` joins the last point to the first.
    Path {
        points: Vec<PathPoint>,
        closed: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Shape {
        shape: Shape,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    Text {
        x: f32,
        /// The baseline.
        y: f32,
        /// Font size in millimetres (cap height is about 0.72 of it).
        size: f32,
        text: String,
        anchor: Anchor,
        weight: Weight,
        color: Color,
    },
    /// A named group: its title is the accessible description in SVG. A
    /// `key` (such as `box:K1a`) lets an interactive page find it: SVG
    /// writes it as `data-key`; print ignores it.
    Group {
        title: String,
        key: Option<String>,
        items: Vec<Item>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    pub width: f32,
    pub height: f32,
    pub items: Vec<Item>,
}

/// The smallest text size on the page, in millimetres, and the text.
pub fn smallest_text(items: &[Item]) -> Option<(f32, &str)> {
    let mut smallest: Option<(f32, &str)> = None;
    for item in items {
        let found = match item {
            Item::Text { size, text, .. } if !text.trim().is_empty() => {
                Some((*size, text.as_str()))
            }
            Item::Group { items, .. } => smallest_text(items),
            _ => None,
        };
        if let Some(found) = found
            && smallest.is_none_or(|s| found.0 < s.0)
        {
            smallest = Some(found);
        }
    }
    smallest
}

/// The part of the segment from `a` to `b` inside the rectangle `(x, y,
/// w, h)` with corners rounded to `radius`, as [`Shape::Rect`] draws it;
/// `None` if none of it is. Hatching drawn through it stays inside the
/// rounded corners, in every backend alike.
pub fn inside_rounded(
    a: (f32, f32),
    b: (f32, f32),
    (x, y, w, h): (f32, f32, f32, f32),
    radius: f32,
) -> Option<((f32, f32), (f32, f32))> {
    let r = radius.max(0.0).min(w / 2.0).min(h / 2.0);
    // The rounded rectangle is the points within `r` of the rectangle
    // inset by `r`: along the segment that distance is convex, so the part
    // within `r` is one stretch, found around the nearest point.
    let at = |t: f32| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let outside = |t: f32| {
        let (px, py) = at(t);
        let dx = (x + r - px).max(px - (x + w - r)).max(0.0);
        let dy = (y + r - py).max(py - (y + h - r)).max(0.0);
        (dx * dx + dy * dy).sqrt() - r
    };
    let (mut lo, mut hi) = (0.0f32, 1.0f32);
    for _ in 0..60 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if outside(m1) <= outside(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let nearest = (lo + hi) / 2.0;
    if outside(nearest) > 1e-4 {
        return None;
    }
    // The last point inside, going from `nearest` towards `end`.
    let edge = |end: f32| {
        if outside(end) <= 0.0 {
            return end;
        }
        let (mut inside, mut out) = (nearest, end);
        for _ in 0..40 {
            let mid = (inside + out) / 2.0;
            if outside(mid) <= 0.0 {
                inside = mid;
            } else {
                out = mid;
            }
        }
        inside
    };
    let (t0, t1) = (edge(0.0), edge(1.0));
    (t1 > t0).then(|| (at(t0), at(t1)))
}

/// Millimetres in a typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;

/// The pages of a whole document: the same scene feeds both backends.
///
/// A scene on its own was measured in the built-in fonts, and is written in
/// them (see [`Typeset`]); a [`Document`] pairs a scene with other fonts.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub title: String,
    pub pages: Vec<Page>,
}

impl Scene {
    /// Checks that `fonts` have a glyph for every character of every text.
    pub fn check_text(&self, fonts: &Fonts) -> Result<(), UnsupportedCharacter> {
        fn walk(fonts: &Fonts, items: &[Item]) -> Result<(), UnsupportedCharacter> {
            for item in items {
                match item {
                    Item::Text { text, weight, .. } => fonts.check(text, *weight)?,
                    Item::Group { items, .. } => walk(fonts, items)?,
                    Item::Shape { .. } => {}
                }
            }
            Ok(())
        }
        self.pages.iter().try_for_each(|p| walk(fonts, &p.items))
    }
}

/// A scene and the fonts its text was measured in, as usvg's tree keeps
/// its font database: what the backends write, in those fonts.
#[derive(Clone, Debug)]
pub struct Document {
    pub scene: Scene,
    fonts: Arc<Fonts>,
}

impl Document {
    /// `scene`, drawn by code that measured its text in `fonts`.
    pub fn new(scene: Scene, fonts: Arc<Fonts>) -> Self {
        Document { scene, fonts }
    }

    /// The fonts the scene was measured in.
    pub fn fonts(&self) -> &Arc<Fonts> {
        &self.fonts
    }
}

/// What the backends write: a scene, and the fonts its text was measured
/// in. A [`Document`] names its fonts; a bare [`Scene`] is in the built-in
/// ones, as every scene drawn without fonts given is.
pub trait Typeset {
    fn scene(&self) -> &Scene;
    fn fonts(&self) -> &Fonts;
}

impl Typeset for Document {
    fn scene(&self) -> &Scene {
        &self.scene
    }
    fn fonts(&self) -> &Fonts {
        &self.fonts
    }
}

/// A document and what else its drawing gave (its layout, its print
/// boxes): written as the document.
impl<T: Typeset, X> Typeset for (T, X) {
    fn scene(&self) -> &Scene {
        self.0.scene()
    }
    fn fonts(&self) -> &Fonts {
        self.0.fonts()
    }
}

impl Typeset for Scene {
    fn scene(&self) -> &Scene {
        self
    }
    fn fonts(&self) -> &Fonts {
        Fonts::builtin()
    }
}

/// Draws into a page through an affine map (scale, then offset), so that a
/// sheet can be drawn once and placed n-up or scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub scale: f32,
    pub dx: f32,
    pub dy: f32,
}

impl Frame {
    pub const IDENTITY: Frame = Frame {
        scale: 1.0,
        dx: 0.0,
        dy: 0.0,
    };
    pub fn x(&self, x: f32) -> f32 {
        self.dx + x * self.scale
    }
    pub fn y(&self, y: f32) -> f32 {
        self.dy + y * self.scale
    }
    pub fn len(&self, l: f32) -> f32 {
        l * self.scale
    }
}

/// Something drawn into a canvas: a sheet page, a card, a summary page.
pub type Draw<'a> = Box<dyn Fn(&mut Canvas) + 'a>;

/// A builder of items in a frame.
pub struct Canvas<'a> {
    pub items: &'a mut Vec<Item>,
    pub frame: Frame,
}

impl Canvas<'_> {
    fn stroke(&self, stroke: Option<Stroke>) -> Option<Stroke> {
        stroke.map(|s| Stroke {
            width: self.frame.len(s.width),
            dash: s.dash.map(|(a, b)| (self.frame.len(a), self.frame.len(b))),
            ..s
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        let f = self.frame;
        self.items.push(Item::Shape {
            shape: Shape::Rect {
                x: f.x(x),
                y: f.y(y),
                w: f.len(w),
                h: f.len(h),
                radius: f.len(radius),
            },
            fill,
            stroke: self.stroke(stroke),
        });
    }

    pub fn circle(
        &mut self,
        cx: f32,
        cy: f32,
        r: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        let f = self.frame;
        self.items.push(Item::Shape {
            shape: Shape::Circle {
                cx: f.x(cx),
                cy: f.y(cy),
                r: f.len(r),
            },
            fill,
            stroke: self.stroke(stroke),
        });
    }

    /// A polyline through straight segments.
    pub fn lines(
        &mut self,
        points: &[(f32, f32)],
        closed: bool,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        let f = self.frame;
        let points = points
            .iter()
            .map(|&(x, y)| PathPoint {
                x: f.x(x),
                y: f.y(y),
                curve: false,
            })
            .collect();
        self.items.push(Item::Shape {
            shape: Shape::Path { points, closed },
            fill,
            stroke: self.stroke(stroke),
        });
    }

    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, stroke: Stroke) {
        self.lines(&[(x1, y1), (x2, y2)], false, None, Some(stroke));
    }

    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        text: impl Into<String>,
        anchor: Anchor,
        weight: Weight,
        color: Color,
    ) {
        let f = self.frame;
        self.items.push(Item::Text {
            x: f.x(x),
            y: f.y(y),
            size: f.len(size),
            text: text.into(),
            anchor,
            weight,
            color,
        });
    }

    /// Text shrunk, if needed, to fit `max_width` in `fonts`.
    #[allow(clippy::too_many_arguments)]
    pub fn fit_text(
        &mut self,
        fonts: &Fonts,
        x: f32,
        y: f32,
        size: f32,
        max_width: f32,
        text: impl Into<String>,
        anchor: Anchor,
        weight: Weight,
        color: Color,
    ) {
        let text = text.into();
        let size = fonts.fit(&text, size, max_width, weight);
        self.text(x, y, size, text, anchor, weight, color);
    }

    /// The heading of a report page: a title, a grey caption (which file),
    /// and a status line, in the top 21 mm of a page of width `width`,
    /// fitted in `fonts`.
    pub fn heading(&mut self, fonts: &Fonts, width: f32, title: &str, caption: &str, status: &str) {
        self.text(
            0.0,
            8.0,
            7.0,
            title,
            Anchor::Start,
            Weight::Bold,
            Color::BLACK,
        );
        let grey = Color::GREY;
        self.fit_text(
            fonts,
            0.0,
            14.0,
            3.2,
            width,
            caption,
            Anchor::Start,
            Weight::Regular,
            grey,
        );
        self.fit_text(
            fonts,
            0.0,
            19.5,
            3.2,
            width,
            status,
            Anchor::Start,
            Weight::Regular,
            Color::BLACK,
        );
    }

    /// Draws with the origin moved to `(x, y)` and sizes multiplied by `scale`.
    pub fn within(&mut self, x: f32, y: f32, scale: f32, draw: impl FnOnce(&mut Canvas)) {
        let frame = Frame {
            scale: self.frame.scale * scale,
            dx: self.frame.x(x),
            dy: self.frame.y(y),
        };
        draw(&mut Canvas {
            items: self.items,
            frame,
        });
    }

    /// Collects the items drawn by `draw` into a titled group.
    pub fn group(&mut self, title: impl Into<String>, draw: impl FnOnce(&mut Canvas)) {
        self.keyed_group(title, None, draw);
    }

    /// A titled group with a key an interactive page finds it by.
    pub fn keyed_group(
        &mut self,
        title: impl Into<String>,
        key: Option<String>,
        draw: impl FnOnce(&mut Canvas),
    ) {
        let mut items = Vec::new();
        draw(&mut Canvas {
            items: &mut items,
            frame: self.frame,
        });
        self.items.push(Item::Group {
            title: title.into(),
            key,
            items,
        });
    }
}
