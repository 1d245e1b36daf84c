//! The PDF backend, through printpdf, with the fonts a document was
//! measured in embedded and subset to the glyphs it uses.
//!
//! The scene's top-left origin becomes PDF's bottom-left one here. Files are
//! byte-reproducible: printpdf's document dates default to a fixed epoch,
//! font resource names are fixed and subset tags derive from the glyphs,
//! and nothing else in the file depends on the clock.

use super::scene::{Anchor, Color, Item, PathPoint, Shape, Stroke, Typeset, Weight};
use super::text::{Face, Fonts, UnsupportedCharacter};
use printpdf::{
    Codepoint, Color as PdfColor, FontId, LineCapStyle, LineDashPattern, LineJoinStyle, LinePoint,
    Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point,
    Polygon, PolygonRing, Pt, Rgb, TextItem, TextMatrix, WindingOrder,
};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Points per millimetre.
const PT: f32 = 72.0 / 25.4;
/// The Bézier handle length of a quarter circle, as a fraction of the radius.
const KAPPA: f32 = 0.552_284_8;

fn color(c: Color) -> PdfColor {
    PdfColor::Rgb(Rgb {
        r: f32::from(c.0) / 255.0,
        g: f32::from(c.1) / 255.0,
        b: f32::from(c.2) / 255.0,
        icc_profile: None,
    })
}

struct Writer<'a> {
    height: f32,
    ops: Vec<Op>,
    fonts: &'a Fonts,
    embedded: &'a Embedded,
}

/// The fonts of a document as the PDF embeds them: one per face of
/// [`Fonts::faces`], subset to the glyphs drawn in it.
struct Embedded {
    /// The PDF font of each face.
    ids: Vec<FontId>,
    /// For each weight (regular, bold, oblique), the face of each place of
    /// its chain ([`Fonts::chain`]).
    chains: [Vec<usize>; 3],
    /// For each face, the id in the subset of each glyph drawn in it.
    renumbered: Vec<BTreeMap<u16, u16>>,
    /// For each face, the text each shaped glyph stands for, the first
    /// found: one ToUnicode entry per glyph, whatever its context.
    texts: Vec<BTreeMap<u16, String>>,
}

impl Embedded {
    fn face(&self, weight: Weight, place: usize) -> usize {
        self.chains[weight_index(weight)][place]
    }
}

impl Writer<'_> {
    fn point(&self, x: f32, y: f32, bezier: bool) -> LinePoint {
        LinePoint {
            p: Point {
                x: Pt(x * PT),
                y: Pt((self.height - y) * PT),
            },
            bezier,
        }
    }

    fn outline(&self, shape: &Shape) -> (Vec<LinePoint>, bool) {
        let p = |x, y| self.point(x, y, false);
        let c = |x, y| self.point(x, y, true);
        match *shape {
            Shape::Rect { x, y, w, h, radius } if radius <= 0.0 => (
                vec![p(x, y), p(x + w, y), p(x + w, y + h), p(x, y + h)],
                true,
            ),
            Shape::Rect { x, y, w, h, radius } => {
                let r = radius.min(w / 2.0).min(h / 2.0);
                let k = r * KAPPA;
                let (x1, y1) = (x + w, y + h);
                (
                    vec![
                        p(x + r, y),
                        p(x1 - r, y),
                        c(x1 - r + k, y),
                        c(x1, y + r - k),
                        p(x1, y + r),
                        p(x1, y1 - r),
                        c(x1, y1 - r + k),
                        c(x1 - r + k, y1),
                        p(x1 - r, y1),
                        p(x + r, y1),
                        c(x + r - k, y1),
                        c(x, y1 - r + k),
                        p(x, y1 - r),
                        p(x, y + r),
                        c(x, y + r - k),
                        c(x + r - k, y),
                        p(x + r, y),
                    ],
                    true,
                )
            }
            Shape::Circle { cx, cy, r } => {
                let k = r * KAPPA;
                (
                    vec![
                        p(cx + r, cy),
                        c(cx + r, cy + k),
                        c(cx + k, cy + r),
                        p(cx, cy + r),
                        c(cx - k, cy + r),
                        c(cx - r, cy + k),
                        p(cx - r, cy),
                        c(cx - r, cy - k),
                        c(cx - k, cy - r),
                        p(cx, cy - r),
                        c(cx + k, cy - r),
                        c(cx + r, cy - k),
                        p(cx + r, cy),
                    ],
                    true,
                )
            }
            Shape::Path { ref points, closed } => (
                points
                    .iter()
                    .map(|&PathPoint { x, y, curve }| self.point(x, y, curve))
                    .collect(),
                closed,
            ),
        }
    }

    fn stroke(&mut self, s: Stroke) {
        self.ops.push(Op::SetOutlineColor {
            col: color(s.color),
        });
        self.ops.push(Op::SetOutlineThickness {
            pt: Pt(s.width * PT),
        });
        let dash = match s.dash {
            Some((on, off)) => LineDashPattern::new(0.0, &[on * PT, off * PT]),
            None => LineDashPattern::solid(),
        };
        self.ops.push(Op::SetLineDashPattern { dash });
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Shape {
                shape,
                fill,
                stroke,
            } => {
                let (points, closed) = self.outline(shape);
                let mode = match (fill, stroke) {
                    (Some(_), Some(_)) => PaintMode::FillStroke,
                    (Some(_), None) => PaintMode::Fill,
                    (None, Some(_)) => PaintMode::Stroke,
                    (None, None) => return,
                };
                if let Some(f) = fill {
                    self.ops.push(Op::SetFillColor { col: color(*f) });
                }
                if let Some(s) = stroke {
                    self.stroke(*s);
                }
                if closed || fill.is_some() {
                    self.ops.push(Op::DrawPolygon {
                        polygon: Polygon {
                            rings: vec![PolygonRing { points }],
                            mode,
                            winding_order: WindingOrder::NonZero,
                        },
                    });
                } else {
                    self.ops.push(Op::DrawLine {
                        line: printpdf::Line {
                            points,
                            is_closed: false,
                        },
                    });
                }
            }
            Item::Text {
                x,
                y,
                size,
                text,
                anchor,
                weight,
                color: c,
            } => self.text(*x, *y, *size, text, *anchor, *weight, *c),
            Item::Group { items, .. } => {
                for item in items {
                    self.item(item);
                }
            }
        }
    }
}

impl Writer<'_> {
    /// A text, in the faces its characters come from. Text that needs no
    /// shaping is shown as characters, each run of one face in a text
    /// object of its own; shaped text as glyphs, each placed where the
    /// shaper put it (printpdf merges those on one baseline into one TJ),
    /// with the text each stands for in its font's ToUnicode map, and the
    /// whole text in one ActualText span around its glyphs ([`copied`]).
    #[allow(clippy::too_many_arguments)]
    fn text(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        text: &str,
        anchor: Anchor,
        weight: Weight,
        c: Color,
    ) {
        let line = self.fonts.line(text, weight);
        let width = line.advance() * size;
        let mut pen = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - width / 2.0,
            Anchor::End => x - width,
        };
        let baseline = (self.height - y) * PT;
        let embedded = self.embedded;
        let font = |place: usize| Op::SetFont {
            font: PdfFontHandle::External(embedded.ids[embedded.face(weight, place)].clone()),
            size: Pt(size * PT),
        };
        if !line.shaped {
            for run in &line.runs {
                self.ops.extend([
                    Op::StartTextSection,
                    Op::SetFillColor { col: color(c) },
                    font(run.face),
                    Op::SetTextCursor {
                        pos: Point {
                            x: Pt(pen * PT),
                            y: Pt(baseline),
                        },
                    },
                    Op::ShowText {
                        items: vec![TextItem::Text(run.text.clone())],
                    },
                    Op::EndTextSection,
                ]);
                pen += run.advance() * size;
            }
            return;
        }
        // A shaped glyph may stand for several characters, or for part of
        // one: one span says which text all the glyphs draw, for copying
        // and searching, so that a text mixing directions copies back whole.
        self.ops.extend([
            Op::StartTextSection,
            Op::SetFillColor { col: color(c) },
            actual_text(&copied(text)),
        ]);
        for run in &line.runs {
            let face = embedded.face(weight, run.face);
            self.ops.push(font(run.face));
            // Each glyph where the shaper put it.
            let mut placed: Vec<(f32, f32, &super::text::shape::Glyph)> = Vec::new();
            for glyph in &run.glyphs {
                placed.push((
                    (pen + glyph.x_offset * size) * PT,
                    baseline + glyph.y_offset * size * PT,
                    glyph,
                ));
                pen += glyph.advance * size;
            }
            for (gx, gy, glyph) in placed {
                let gid = embedded.renumbered[face]
                    .get(&glyph.id)
                    .copied()
                    .unwrap_or(0);
                let text = embedded.texts[face]
                    .get(&glyph.id)
                    .cloned()
                    .unwrap_or_default();
                self.ops.extend([
                    Op::SetTextMatrix {
                        matrix: TextMatrix::Translate(Pt(gx), Pt(gy)),
                    },
                    Op::ShowText {
                        items: vec![TextItem::GlyphIds(vec![Codepoint::with_cid(
                            gid, 0.0, text,
                        )])],
                    },
                ]);
            }
        }
        self.ops.extend([Op::EndMarkedContent, Op::EndTextSection]);
    }
}

/// Where a reader that orders copied text by where it is drawn puts a
/// character ([`copied`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Right to left: Hebrew and Arabic letters.
    Right,
    /// Left to right: letters of other scripts, digits, and the signs
    /// that go with numbers (`+ - . , : / $ %`).
    Left,
    /// Wherever its neighbours put it: spaces, brackets, most punctuation,
    /// combining marks.
    Neutral,
}

fn reading(c: char) -> Reading {
    use unicode_bidi::BidiClass::{AL, AN, CS, EN, ES, ET, L, R};
    match unicode_bidi::bidi_class(c) {
        R | AL => Reading::Right,
        L | EN | ES | ET | CS | AN => Reading::Left,
        _ => Reading::Neutral,
    }
}

/// A left-to-right mark and a right-to-left mark: invisible characters
/// that only set a direction.
const LRM: char = '\u{200E}';
const RLM: char = '\u{200F}';

/// The ActualText of a line of `text`, so that it copies back as typed,
/// give or take invisible direction marks.
///
/// Readers such as poppler (pdftotext, Evince) spread a span's text left
/// to right over its glyphs, then read the line back as left-to-right
/// text with right-to-left stretches in it: each stretch runs from a
/// right-to-left letter to just before the next left-to-right letter or
/// digit, and is read from its right end, spaces and brackets at its end
/// included. So each right-to-left stretch of `text` is given reversed;
/// a left-to-right mark ends it where a space or bracket follows it
/// (`Ann (שרה)`, `שרה 2`), which would otherwise be read before it; and
/// a right-to-left mark starts it where it ends in a combining mark, which
/// would otherwise be read ahead of its letter.
fn copied(text: &str) -> String {
    let chars: Vec<char> = super::text::shape::nfc(text).chars().collect();
    let mut said = String::with_capacity(text.len() + 8);
    let mut at = 0;
    while at < chars.len() {
        if reading(chars[at]) != Reading::Right {
            said.push(chars[at]);
            at += 1;
            continue;
        }
        let end = (at..chars.len())
            .find(|&i| reading(chars[i]) == Reading::Left)
            .unwrap_or(chars.len());
        // The stretch ends at its last right-to-left letter or mark: the
        // spaces and brackets after that follow it.
        let last = (at..end)
            .rev()
            .find(|&i| {
                reading(chars[i]) == Reading::Right
                    || unicode_normalization::char::is_combining_mark(chars[i])
            })
            .map_or(end, |i| i + 1);
        if reading(chars[last - 1]) != Reading::Right {
            said.push(RLM);
        }
        said.extend(chars[at..last].iter().rev());
        if last < end {
            said.push(LRM);
        }
        at = last;
    }
    said
}

/// The opening of a marked-content span whose glyphs stand for `text`
/// (`/Span << /ActualText … >> BDC`, closed by `EMC`): what a reader copies,
/// searches and reads aloud in place of the glyphs' own characters.
fn actual_text(text: &str) -> Op {
    let mut data = vec![0xFE, 0xFF];
    data.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    let mut map = BTreeMap::new();
    map.insert(
        "ActualText".to_owned(),
        printpdf::DictItem::String {
            data,
            literal: false,
        },
    );
    Op::BeginMarkedContentWithProperties {
        tag: "Span".to_owned(),
        properties: printpdf::DictItem::Dict { map },
    }
}

fn weight_index(weight: Weight) -> usize {
    match weight {
        Weight::Regular => 0,
        Weight::Bold => 1,
        Weight::Oblique => 2,
    }
}

/// The glyphs each face draws in `items`, by [`Embedded::chains`], and
/// the text of each shaped glyph (the first found).
fn collect_glyphs(
    fonts: &Fonts,
    chains: &[Vec<usize>; 3],
    items: &[Item],
    used: &mut [BTreeSet<u16>],
    texts: &mut [BTreeMap<u16, String>],
) {
    for item in items {
        match item {
            Item::Text { text, weight, .. } => {
                let line = fonts.line(text, *weight);
                for run in &line.runs {
                    let face = chains[weight_index(*weight)][run.face];
                    for glyph in &run.glyphs {
                        used[face].insert(glyph.id);
                        if line.shaped && !glyph.text.is_empty() {
                            texts[face]
                                .entry(glyph.id)
                                .or_insert_with(|| glyph.text.clone());
                        }
                    }
                }
            }
            Item::Group { items, .. } => collect_glyphs(fonts, chains, items, used, texts),
            Item::Shape { .. } => {}
        }
    }
}

/// Why a scene cannot be written as PDF.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// A character the fonts have no glyph for.
    #[error(transparent)]
    Missing(#[from] UnsupportedCharacter),
    /// A font file that parsed for layout but cannot be embedded.
    #[error("cannot embed the font {0}: printpdf cannot read it")]
    Font(String),
}

/// `face` cut down to its missing glyph and `glyphs`, with a Unicode cmap
/// for those the character map reaches, the id each glyph has in it, and
/// whether it is a subset: the whole face if the subsetter fails.
fn subset(face: &Face, glyphs: &BTreeSet<u16>) -> (Vec<u8>, BTreeMap<u16, u16>, bool) {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile};
    // The subsetter keeps the glyphs in the order given (appending the
    // parts of composite glyphs after them): a glyph's place is its id.
    let glyphs: Vec<u16> = std::iter::once(0)
        .chain(glyphs.iter().copied().filter(|&g| g != 0))
        .collect();
    let subset = ReadScope::new(face.data())
        .read::<FontData<'_>>()
        .ok()
        .and_then(|file| file.table_provider(face.index() as usize).ok())
        .and_then(|provider| {
            allsorts::subset::subset(
                &provider,
                &glyphs,
                &SubsetProfile::Minimal,
                CmapTarget::Unicode,
            )
            .ok()
        });
    match subset {
        Some(bytes) => {
            let renumbered = glyphs
                .iter()
                .enumerate()
                .map(|(new, &old)| (old, new as u16))
                .collect();
            (bytes, renumbered, true)
        }
        None => {
            let same = glyphs.iter().map(|&g| (g, g)).collect();
            (face.data().to_vec(), same, false)
        }
    }
}

/// The six-letter tag that marks a subset font's name (ISO 32000-1,
/// 9.6.4), derived from the subset so that files stay reproducible.
fn subset_tag(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .take(6)
        .map(|b| char::from(b'A' + b % 26))
        .collect()
}

/// The document as PDF bytes, its text in the fonts its layout measured
/// it in, embedded and subset.
///
/// A character that those fonts have no glyph for is refused before
/// anything is drawn. Identical pages (copies of a sheet) are written once: every
/// repeated page gets its own page object, but all of them share the first
/// one's content stream and resources, which PDF allows. A job of 100
/// copies is then about the size of one page.
pub fn to_pdf(document: &impl Typeset) -> Result<Vec<u8>, PdfError> {
    to_pdf_boxed(document, &[])
}

/// [`to_pdf`], with page `i`'s `TrimBox` and `BleedBox` from `boxes[i]`
/// (pages without one keep a trim box of the whole page, and no bleed
/// box), for a print shop.
pub fn to_pdf_boxed(
    document: &impl Typeset,
    boxes: &[super::paper::PrintBoxes],
) -> Result<Vec<u8>, PdfError> {
    let (scene, fonts) = (document.scene(), document.fonts());
    scene.check_text(fonts)?;
    let mut distinct: Vec<&super::scene::Page> = Vec::new();
    let mut which: Vec<usize> = Vec::with_capacity(scene.pages.len());
    for page in &scene.pages {
        match distinct.iter().position(|d| *d == page) {
            Some(i) => which.push(i),
            None => {
                which.push(distinct.len());
                distinct.push(page);
            }
        }
    }
    let mut document = PdfDocument::new(&scene.title);

    // One embedded font per face, subset to the glyphs drawn in it.
    let faces = fonts.faces();
    let chains: [Vec<usize>; 3] = [Weight::Regular, Weight::Bold, Weight::Oblique].map(|w| {
        fonts
            .chain(w)
            .into_iter()
            .map(|face| {
                faces
                    .iter()
                    .position(|(_, f)| Arc::ptr_eq(f, face))
                    .expect("every face of a chain is one of the fonts' faces")
            })
            .collect()
    });
    let mut used: Vec<BTreeSet<u16>> = vec![BTreeSet::new(); faces.len()];
    let mut texts: Vec<BTreeMap<u16, String>> = vec![BTreeMap::new(); faces.len()];
    for page in &distinct {
        collect_glyphs(fonts, &chains, &page.items, &mut used, &mut texts);
    }
    let ids: Vec<FontId> = (0..faces.len())
        .map(|n| FontId(format!("F{}", n + 1)))
        .collect();
    let mut renumbered = vec![BTreeMap::new(); faces.len()];
    let mut tags: Vec<(String, String)> = Vec::new();
    for (n, (_, face)) in faces.iter().enumerate() {
        if used[n].is_empty() {
            continue;
        }
        let (bytes, numbers, is_subset) = subset(face, &used[n]);
        renumbered[n] = numbers;
        let mut parsed = ParsedFont::from_bytes(&bytes, 0, &mut Vec::new())
            .ok_or_else(|| PdfError::Font(face.full_name.clone()))?;
        parsed.font_name = Some(face.postscript_name.clone());
        if is_subset {
            tags.push((face.postscript_name.clone(), subset_tag(&bytes)));
        }
        document
            .resources
            .fonts
            .map
            .insert(ids[n].clone(), printpdf::font::PdfFont::new(parsed));
    }
    let embedded = Embedded {
        ids,
        chains,
        renumbered,
        texts,
    };

    let pages = distinct
        .iter()
        .map(|page| {
            let mut writer = Writer {
                height: page.height,
                ops: vec![
                    Op::SetLineJoinStyle {
                        join: LineJoinStyle::Round,
                    },
                    Op::SetLineCapStyle {
                        cap: LineCapStyle::Round,
                    },
                ],
                fonts,
                embedded: &embedded,
            };
            for item in &page.items {
                writer.item(item);
            }
            PdfPage::new(Mm(page.width), Mm(page.height), writer.ops)
        })
        .collect();
    document.with_pages(pages);
    let mut warnings = Vec::new();
    let mut doc = document.to_lopdf_document(&PdfSaveOptions::default(), &mut warnings);
    if distinct.len() < scene.pages.len() {
        share_repeated_pages(&mut doc, &which);
    }
    tag_subset_fonts(&mut doc, &tags);
    claim_no_standard(&mut doc);
    set_boxes(&mut doc, &scene.pages, boxes);
    doc.compress();
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes)
        .expect("writing to memory cannot fail");
    Ok(bytes)
}

/// Sets each page's `TrimBox` and `BleedBox` from its [`PrintBoxes`]:
/// millimetres from the top left, turned into points from the bottom left.
/// A page that shares its dictionary's content with another still has a
/// dictionary of its own.
///
/// [`PrintBoxes`]: super::paper::PrintBoxes
fn set_boxes(
    doc: &mut lopdf_printpdf::Document,
    pages: &[super::scene::Page],
    boxes: &[super::paper::PrintBoxes],
) {
    use lopdf_printpdf::Object;
    let ids: Vec<lopdf_printpdf::ObjectId> = doc.get_pages().into_values().collect();
    for ((id, page), print) in ids.iter().zip(pages).zip(boxes) {
        let pt = |mm: f32| Object::Real(mm * 72.0 / 25.4);
        let rect = |grow: f32| {
            let (x, y, w, h) = print.trim;
            let (left, top) = ((x - grow).max(0.0), (y - grow).max(0.0));
            let right = (x + w + grow).min(page.width);
            let bottom = (y + h + grow).min(page.height);
            Object::Array(vec![
                pt(left),
                pt(page.height - bottom),
                pt(right),
                pt(page.height - top),
            ])
        };
        if let Ok(dictionary) = doc.get_dictionary_mut(*id) {
            dictionary.set("TrimBox", rect(0.0));
            dictionary.set("BleedBox", rect(print.bleed));
        }
    }
}

/// Prefixes the names of the embedded fonts with their subset tag, as PDF
/// requires of a subset font (printpdf writes its own subsets only with its
/// `text_layout` feature, so it does not know ours are subsets).
fn tag_subset_fonts(doc: &mut lopdf_printpdf::Document, tags: &[(String, String)]) {
    use lopdf_printpdf::Object;
    for object in doc.objects.values_mut() {
        let Object::Dictionary(dictionary) = object else {
            continue;
        };
        for key in [&b"BaseFont"[..], b"FontName"] {
            let Ok(name) = dictionary.get(key).and_then(Object::as_name) else {
                continue;
            };
            let name = String::from_utf8_lossy(name).into_owned();
            if let Some((_, tag)) = tags.iter().find(|(n, _)| *n == name) {
                dictionary.set(key, Object::Name(format!("{tag}+{name}").into_bytes()));
            }
        }
    }
}

/// Drops the empty `/GTS_PDFXVersion` that printpdf always writes into the
/// document information: readers take its presence for a PDF/X claim, and
/// these files make none.
fn claim_no_standard(doc: &mut lopdf_printpdf::Document) {
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(lopdf_printpdf::Object::as_reference);
    if let Ok(info) = info
        && let Ok(dictionary) = doc.get_dictionary_mut(info)
    {
        dictionary.remove(b"GTS_PDFXVersion");
    }
}

/// Rebuilds the page tree so that page `i` of the output shows distinct
/// page `which[i]`: its first appearance keeps the original page object,
/// later ones get a copy of its dictionary (same content, same resources).
fn share_repeated_pages(doc: &mut lopdf_printpdf::Document, which: &[usize]) {
    use lopdf_printpdf::Object;
    let originals: Vec<lopdf_printpdf::ObjectId> = doc.get_pages().into_values().collect();
    let Ok(pages_id) = doc
        .catalog()
        .and_then(|catalog| catalog.get(b"Pages"))
        .and_then(Object::as_reference)
    else {
        return;
    };
    let mut used = vec![false; originals.len()];
    let mut kids = Vec::with_capacity(which.len());
    for &d in which {
        let original = originals[d];
        if !std::mem::replace(&mut used[d], true) {
            kids.push(Object::Reference(original));
            continue;
        }
        let Ok(dictionary) = doc.get_dictionary(original).cloned() else {
            return;
        };
        let copy = doc.add_object(Object::Dictionary(dictionary));
        kids.push(Object::Reference(copy));
    }
    if let Ok(pages) = doc.get_dictionary_mut(pages_id) {
        pages.set("Count", which.len() as i64);
        pages.set("Kids", Object::Array(kids));
    }
}
