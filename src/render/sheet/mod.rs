//! The 62 Soleils sheet, blank or filled from a game, drawn from the
//! template alone: any custom layout renders with no code change.
//!
//! The sheet is a vertical flow of blocks (header, legend, sun track,
//! thresholds, grid, flags, score box) at a natural size of
//! [`WIDTH`] × [`HEIGHT`] mm, paginated when it does not fit. Large print
//! doubles every size, drops colour, and gives each zone its own place
//! (see `large.rs`).

mod large;

use super::scene::{Anchor, Canvas, Color, Draw, Stroke, Weight};
use super::text;
use crate::soleils::template::{Constraint, Reward, Template, ZoneKind};
use crate::soleils::{How, State, score};
use std::collections::BTreeSet;

/// The room for the sheet's title, left of the name line.
const TITLE_WIDTH: f32 = 110.0;

/// The natural width and height of one sheet page, in millimetres.
pub const WIDTH: f32 = 190.0;
pub const HEIGHT: f32 = 277.0;

/// What is drawn on a sheet besides the template.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// Printed on the name line.
    pub name: Option<&'a str>,
    /// Twice the size, thick strokes, black on white, as many pages as needed.
    pub large: bool,
}

/// One player's sheet in a game: what to fill in.
#[derive(Clone, Copy)]
pub struct Filled<'a> {
    pub state: &'a State,
    pub player: usize,
}

#[derive(Clone, Copy)]
struct Style {
    k: f32,
    mono: bool,
}

impl Style {
    fn ink(&self) -> Color {
        Color::BLACK
    }
    fn line(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(45, 45, 70)
        }
    }
    fn soft(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(110, 110, 120)
        }
    }
    fn hand(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(20, 60, 170)
        }
    }
    fn pearl(&self) -> Color {
        if self.mono {
            Color::WHITE
        } else {
            Color(252, 247, 232)
        }
    }
    fn pearl_done(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(222, 170, 30)
        }
    }
    fn sun(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(236, 160, 20)
        }
    }
    fn crab(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(200, 70, 50)
        }
    }
    fn frog(&self) -> Color {
        if self.mono {
            Color::BLACK
        } else {
            Color(50, 140, 70)
        }
    }
    fn s(&self, width: f32) -> Stroke {
        Stroke::solid(
            self.line(),
            width * self.k * if self.mono { 1.6 } else { 1.0 },
        )
    }
}

/// Grid geometry: the pitch of a cell, and the rows and bands of a tile.
struct Geometry {
    pitch: f32,
    gap: f32,
    band: f32,
}

/// A part of the grid drawn on one page: some columns, some rows, and in
/// large print only the boxes of one zone.
#[derive(Clone)]
struct Tile {
    columns: (u16, u16),
    rows: Vec<u16>,
    zone: Option<usize>,
    /// The cell pitch, in mm.
    pitch: f32,
}

#[derive(Clone)]
enum Block {
    Header,
    Legend,
    Sun,
    Thresholds,
    /// A part of the grid, with a caption when the grid is split in tiles.
    Grid(Tile, Option<String>),
    /// Large print: one whole zone, with its rule in words.
    Zone {
        zone: usize,
        tiles: Vec<Tile>,
    },
    Flags,
    Score,
}

struct Sheet<'a> {
    template: &'a Template,
    options: Options<'a>,
    filled: Option<Filled<'a>>,
    style: Style,
    geometry: Geometry,
    /// Rows that start a zone, which get a label band above them.
    label_rows: BTreeSet<u16>,
}

/// The pages of one sheet, each drawn by a closure at the natural size.
pub fn pages<'a>(
    template: &'a Template,
    options: Options<'a>,
    filled: Option<Filled<'a>>,
) -> Vec<Draw<'a>> {
    let sheet = std::rc::Rc::new(Sheet::new(template, options, filled));
    sheet
        .paginate()
        .into_iter()
        .map(|blocks| {
            let sheet = sheet.clone();
            Box::new(move |canvas: &mut Canvas| sheet.draw_page(canvas, &blocks)) as Draw<'a>
        })
        .collect()
}

fn reward_text(reward: Reward) -> String {
    match reward {
        Reward::Starfish(1) => "1 starfish".into(),
        Reward::Starfish(n) => format!("{n} starfish"),
        Reward::Seashells(1) => "1 seashell".into(),
        Reward::Seashells(n) => format!("{n} seashells"),
        Reward::BonusDigit => "bonus digit".into(),
    }
}

fn noun(kind: ZoneKind) -> &'static str {
    match kind {
        ZoneKind::Cabins => "cabin",
        ZoneKind::Koinobori => "koinobori",
        ZoneKind::Sailboats => "boat",
        ZoneKind::Bottles => "bottle",
        ZoneKind::Seagulls => "seagull",
    }
}

impl<'a> Sheet<'a> {
    fn new(template: &'a Template, options: Options<'a>, filled: Option<Filled<'a>>) -> Self {
        let style = Style {
            k: if options.large { 2.0 } else { 1.0 },
            mono: options.large,
        };
        let label_rows = template
            .zones()
            .iter()
            .filter_map(|z| z.boxes.iter().map(|&b| template.boxes()[b].row).min())
            .collect();
        let mut sheet = Sheet {
            template,
            options,
            filled,
            style,
            geometry: Geometry {
                pitch: 0.0,
                gap: 4.0 * style.k,
                band: 6.0 * style.k,
            },
            label_rows,
        };
        sheet.geometry.pitch = sheet.pitch();
        sheet
    }

    fn used_rows(&self) -> Vec<u16> {
        let rows: BTreeSet<u16> = self.template.boxes().iter().map(|b| b.row).collect();
        rows.into_iter().collect()
    }

    /// The cell pitch: as wide as the page allows (at most 24 mm), shrunk so
    /// that a normal sheet fits one page; doubled in large print.
    fn pitch(&self) -> f32 {
        let columns = f32::from(self.template.grid().columns.max(1));
        let wide = (WIDTH / columns).min(24.0);
        if self.options.large {
            return 2.0 * wide;
        }
        let fixed: f32 = [
            Block::Header,
            Block::Legend,
            Block::Sun,
            Block::Thresholds,
            Block::Flags,
            Block::Score,
        ]
        .iter()
        .map(|b| self.height(b))
        .sum();
        let rows = self.used_rows();
        let bands = rows.iter().filter(|r| self.label_rows.contains(r)).count() as f32;
        let padding = 2.0 * self.style.k;
        let tall =
            (HEIGHT - fixed - padding - bands * self.geometry.band) / rows.len().max(1) as f32;
        wide.min(tall).max(10.0)
    }

    fn row_height(&self, row: u16) -> f32 {
        let band = if self.label_rows.contains(&row) {
            self.geometry.band
        } else {
            0.0
        };
        band + self.geometry.pitch
    }

    fn height(&self, block: &Block) -> f32 {
        let k = self.style.k;
        match block {
            Block::Header if self.options.large => 17.0 * k,
            Block::Header => 14.0 * k,
            Block::Legend => {
                if self.options.large {
                    3.0 * 6.5 * k
                } else {
                    8.0
                }
            }
            Block::Sun => {
                let per_row = self.sun_per_row();
                let rows = usize::from(self.template.sun_slots()).div_ceil(per_row);
                8.0 * k + rows as f32 * self.sun_pitch()
            }
            Block::Thresholds => {
                let rows = self
                    .template
                    .thresholds()
                    .len()
                    .div_ceil(self.thresholds_per_row());
                2.0 * k + rows as f32 * 11.0 * k
            }
            Block::Grid(tile, caption) => {
                let caption = if caption.is_some() { 8.0 * k } else { 0.0 };
                caption + tile.rows.iter().map(|&r| self.row_height(r)).sum::<f32>() + 2.0 * k
            }
            Block::Zone { zone, tiles } => self.zone_height(*zone, tiles),
            Block::Flags => {
                let lines = self.template.zones().len().div_ceil(self.columns()) as f32;
                8.0 * k + lines * 11.0 * k
            }
            Block::Score => 16.0 * k + (6 / self.columns()) as f32 * 7.0 * k,
        }
    }

    /// Columns of the flags panel and score box: one in large print.
    fn columns(&self) -> usize {
        if self.options.large { 1 } else { 2 }
    }

    fn thresholds_per_row(&self) -> usize {
        if self.options.large {
            3
        } else {
            self.template.thresholds().len().max(1)
        }
    }

    fn sun_per_row(&self) -> usize {
        if self.options.large { 5 } else { 10 }
    }

    fn sun_pitch(&self) -> f32 {
        WIDTH / self.sun_per_row() as f32
    }

    /// The blocks of each page.
    fn paginate(&self) -> Vec<Vec<Block>> {
        if self.options.large {
            return self.paginate_large();
        }
        let mut blocks = vec![Block::Header, Block::Legend, Block::Sun, Block::Thresholds];
        let columns = self.template.grid().columns;
        let per_tile = ((WIDTH / self.geometry.pitch).floor() as u16).clamp(1, columns.max(1));
        let rows = self.used_rows();
        let room = HEIGHT - 8.0 * self.style.k;
        let mut c0 = 0;
        while c0 < columns {
            let c1 = (c0 + per_tile).min(columns) - 1;
            let mut tile_rows: Vec<u16> = Vec::new();
            let mut used = 2.0 * self.style.k;
            let tiled = per_tile < columns;
            for &row in &rows {
                let h = self.row_height(row);
                if !tile_rows.is_empty() && used + h > room {
                    blocks.extend(self.tile_blocks(c0, c1, tiled, std::mem::take(&mut tile_rows)));
                    used = 2.0 * self.style.k;
                }
                tile_rows.push(row);
                used += h;
            }
            blocks.extend(self.tile_blocks(c0, c1, tiled, tile_rows));
            c0 = c1 + 1;
        }
        blocks.extend([Block::Flags, Block::Score]);
        let mut pages = vec![Vec::new()];
        let mut used = 0.0;
        for block in blocks {
            let h = self.height(&block);
            if used + h > HEIGHT + 0.01 && !pages.last().unwrap().is_empty() {
                pages.push(Vec::new());
                used = 0.0;
            }
            used += h;
            pages.last_mut().unwrap().push(block);
        }
        pages
    }

    fn tile_blocks(&self, c0: u16, c1: u16, tiled: bool, rows: Vec<u16>) -> Vec<Block> {
        if rows.is_empty() {
            return Vec::new();
        }
        let tile = Tile {
            columns: (c0, c1),
            rows,
            zone: None,
            pitch: self.geometry.pitch,
        };
        let caption = tiled.then(|| {
            format!(
                "Grid: columns {} to {}, rows {} to {}",
                c0 + 1,
                c1 + 1,
                tile.rows[0] + 1,
                tile.rows[tile.rows.len() - 1] + 1
            )
        });
        vec![Block::Grid(tile, caption)]
    }

    fn draw_page(&self, canvas: &mut Canvas, blocks: &[Block]) {
        let mut y = 0.0;
        for block in blocks {
            match block {
                Block::Header => self.header(canvas, y),
                Block::Legend => self.legend(canvas, y),
                Block::Sun => self.sun(canvas, y),
                Block::Thresholds => self.thresholds(canvas, y),
                Block::Grid(tile, caption) => {
                    let k = self.style.k;
                    let mut top = y;
                    if let Some(text) = caption {
                        canvas.text(
                            0.0,
                            y + 5.5 * k,
                            4.0 * k,
                            text.clone(),
                            Anchor::Start,
                            Weight::Bold,
                            self.style.ink(),
                        );
                        top += 8.0 * k;
                    }
                    self.grid(canvas, top, tile)
                }
                Block::Zone { zone, tiles } => self.draw_zone(canvas, y, *zone, tiles),
                Block::Flags => self.flags(canvas, y),
                Block::Score => self.score(canvas, y),
            }
            y += self.height(block);
        }
    }

    fn name(&self) -> Option<String> {
        match self.filled {
            Some(f) => Some(f.state.players()[f.player].name.clone()),
            None => self.options.name.map(str::to_owned),
        }
    }

    fn header(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let large = self.options.large;
        let title = self.template.name();
        let title_width = if large { WIDTH } else { TITLE_WIDTH };
        c.text_fit(
            0.0,
            y + 8.0 * k,
            7.5 * k,
            title_width,
            title,
            Anchor::Start,
            Weight::Bold,
            st.ink(),
        );
        if title != "62 Soleils d'été" {
            c.text(
                0.0,
                y + 12.5 * k,
                3.0 * k,
                "a 62 Soleils d'été sheet",
                Anchor::Start,
                Weight::Regular,
                st.soft(),
            );
        }
        // The name line: beside the title, or under it in large print.
        let (x, line_y, size) = if large {
            (0.0, y + 16.0 * k, 3.5 * k)
        } else {
            (112.0, y + 9.0, 3.5)
        };
        c.text(
            x,
            line_y,
            size,
            "Name",
            Anchor::Start,
            Weight::Regular,
            st.soft(),
        );
        let after = x + text::width("Name", size, Weight::Regular) + 2.0 * k;
        c.line(after, line_y + 0.6 * k, WIDTH, line_y + 0.6 * k, st.s(0.3));
        if let Some(name) = self.name() {
            c.text_fit(
                after + 2.0 * k,
                line_y - 0.4 * k,
                5.0 * k,
                WIDTH - after - 3.0 * k,
                name,
                Anchor::Start,
                Weight::Oblique,
                st.hand(),
            );
        }
    }

    fn legend(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let size = 3.0 * k;
        let large = self.options.large;
        let mut at = (0.0, y + 3.5 * k);
        let item = |c: &mut Canvas,
                    draw: &dyn Fn(&mut Canvas, f32, f32),
                    label: &str,
                    at: &mut (f32, f32)| {
            let (x, cy) = *at;
            draw(c, x + 2.6 * k, cy);
            c.text(
                x + 6.0 * k,
                cy + 1.1 * k,
                size,
                label.to_owned(),
                Anchor::Start,
                Weight::Regular,
                st.ink(),
            );
            *at = if large {
                (0.0, cy + 6.5 * k)
            } else {
                (
                    x + 6.0 * k + text::width(label, size, Weight::Regular) + 5.0 * k,
                    cy,
                )
            };
        };
        let words: [&str; 3] = if large {
            [
                "Pearl: write its number to colour the pearl",
                "Crab (hollow, with claws): copy the number to a neighbour",
                "Frog (solid, with eyes): any sun value from 1 to 6",
            ]
        } else {
            [
                "write its number to colour the pearl",
                "copy to a neighbour",
                "any sun value",
            ]
        };
        let pearl = |c: &mut Canvas, x: f32, y: f32| self.pearl_icon(c, x, y, 4, false);
        item(c, &pearl, words[0], &mut at);
        let crab = |c: &mut Canvas, x: f32, y: f32| self.crab_icon(c, x, y);
        item(c, &crab, words[1], &mut at);
        let frog = |c: &mut Canvas, x: f32, y: f32| self.frog_icon(c, x, y);
        item(c, &frog, words[2], &mut at);
    }

    fn pearl_icon(&self, c: &mut Canvas, x: f32, y: f32, pearl: u8, done: bool) {
        let (k, st) = (self.style.k, self.style);
        let fill = if done { st.pearl_done() } else { st.pearl() };
        c.circle(
            x,
            y,
            2.6 * k,
            Some(fill),
            Some(Stroke::solid(st.soft(), 0.3 * k)),
        );
        let color = if done && st.mono {
            Color::WHITE
        } else {
            st.ink()
        };
        c.text(
            x,
            y + 1.2 * k,
            3.4 * k,
            pearl.to_string(),
            Anchor::Middle,
            Weight::Bold,
            color,
        );
    }

    /// A crab: a body, two claws and legs.
    fn crab_icon(&self, c: &mut Canvas, x: f32, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let color = st.crab();
        let leg = Stroke::solid(color, 0.35 * k);
        for side in [-1.0f32, 1.0] {
            c.line(
                x + side * 1.2 * k,
                y + 0.2 * k,
                x + side * 2.6 * k,
                y + 1.4 * k,
                leg,
            );
            c.line(
                x + side * 1.6 * k,
                y - 0.2 * k,
                x + side * 2.2 * k,
                y - 1.8 * k,
                leg,
            );
            c.circle(x + side * 2.2 * k, y - 2.1 * k, 0.7 * k, Some(color), None);
        }
        if st.mono {
            // Hollow, so that it never reads as the frog's solid head.
            c.circle(
                x,
                y,
                1.5 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(color, 0.4 * k)),
            );
        } else {
            c.circle(x, y, 1.5 * k, Some(color), None);
        }
    }

    /// A frog: a head with two eyes.
    fn frog_icon(&self, c: &mut Canvas, x: f32, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let color = st.frog();
        c.circle(x, y + 0.4 * k, 2.0 * k, Some(color), None);
        for side in [-1.0f32, 1.0] {
            c.circle(
                x + side * 1.1 * k,
                y - 1.4 * k,
                0.9 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(color, 0.35 * k)),
            );
            c.circle(
                x + side * 1.1 * k,
                y - 1.4 * k,
                0.3 * k,
                Some(Color::BLACK),
                None,
            );
        }
    }

    fn star_icon(&self, c: &mut Canvas, x: f32, y: f32, r: f32) {
        let points: Vec<(f32, f32)> = (0..10)
            .map(|i| {
                let angle = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
                let radius = if i % 2 == 0 { r } else { r * 0.45 };
                (x + radius * angle.cos(), y + radius * angle.sin())
            })
            .collect();
        let fill = if self.style.mono {
            None
        } else {
            Some(Color(240, 120, 90))
        };
        c.lines(
            &points,
            true,
            fill,
            Some(Stroke::solid(self.style.line(), 0.25 * self.style.k)),
        );
    }

    fn shell_icon(&self, c: &mut Canvas, x: f32, y: f32, r: f32) {
        let fill = if self.style.mono {
            None
        } else {
            Some(Color(250, 225, 200))
        };
        let mut points = vec![(x, y + r * 0.6)];
        for i in 0..=8 {
            let angle = std::f32::consts::PI * (1.0 + i as f32 / 8.0);
            points.push((x + r * angle.cos(), y + r * 0.3 + r * angle.sin()));
        }
        let stroke = Stroke::solid(self.style.line(), 0.25 * self.style.k);
        c.lines(&points, true, fill, Some(stroke));
        for i in 1..4 {
            let angle = std::f32::consts::PI * (1.0 + i as f32 / 4.0);
            c.line(
                x,
                y + r * 0.6,
                x + r * 0.9 * angle.cos(),
                y + r * 0.3 + r * 0.9 * angle.sin(),
                stroke,
            );
        }
    }

    fn reward_icon(&self, c: &mut Canvas, x: f32, y: f32, reward: Reward) {
        let k = self.style.k;
        match reward {
            Reward::Starfish(_) => self.star_icon(c, x, y, 1.9 * k),
            Reward::Seashells(_) => self.shell_icon(c, x, y, 1.9 * k),
            Reward::BonusDigit => {
                c.rect(
                    x - 1.8 * k,
                    y - 1.8 * k,
                    3.6 * k,
                    3.6 * k,
                    0.6 * k,
                    None,
                    Some(self.style.s(0.3)),
                );
                c.text(
                    x,
                    y + 1.2 * k,
                    3.0 * k,
                    "?",
                    Anchor::Middle,
                    Weight::Bold,
                    self.style.ink(),
                );
            }
        }
    }

    fn sun(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        c.text(
            0.0,
            y + 5.5 * k,
            4.2 * k,
            "Sun track",
            Anchor::Start,
            Weight::Bold,
            st.ink(),
        );
        c.text(
            text::width("Sun track", 4.2 * k, Weight::Bold) + 3.0 * k,
            y + 5.5 * k,
            3.0 * k,
            "write each new total",
            Anchor::Start,
            Weight::Regular,
            st.soft(),
        );
        let pitch = self.sun_pitch();
        let per_row = self.sun_per_row();
        let r = (pitch / 2.0 - 2.2 * k).min(7.0 * k);
        let player = self.filled.map(|f| &f.state.players()[f.player]);
        let mut total = 0u16;
        for slot in 0..usize::from(self.template.sun_slots()) {
            let cx = (slot % per_row) as f32 * pitch + pitch / 2.0;
            let cy = y + 8.0 * k + (slot / per_row) as f32 * pitch + pitch / 2.0;
            let entry = player.and_then(|p| p.sun.get(slot)).copied();
            let title = match entry {
                Some(value) => format!(
                    "Sun slot {}: +{value}, total {}",
                    slot + 1,
                    total + u16::from(value)
                ),
                None => format!("Sun slot {}", slot + 1),
            };
            c.group(title, |c| {
                for ray in 0..12 {
                    let angle = std::f32::consts::PI * ray as f32 / 6.0;
                    let (cos, sin) = (angle.cos(), angle.sin());
                    c.line(
                        cx + cos * (r + 0.6 * k),
                        cy + sin * (r + 0.6 * k),
                        cx + cos * (r + 1.8 * k),
                        cy + sin * (r + 1.8 * k),
                        Stroke::solid(st.sun(), 0.4 * k),
                    );
                }
                c.circle(
                    cx,
                    cy,
                    r,
                    Some(Color::WHITE),
                    Some(Stroke::solid(st.sun(), 0.5 * k)),
                );
                c.text(
                    cx,
                    cy - r + 3.0 * k,
                    2.3 * k,
                    (slot + 1).to_string(),
                    Anchor::Middle,
                    Weight::Regular,
                    st.soft(),
                );
                if let Some(value) = entry {
                    total += u16::from(value);
                    c.text(
                        cx,
                        cy + 2.6 * k,
                        r * 0.95,
                        total.to_string(),
                        Anchor::Middle,
                        Weight::Oblique,
                        st.hand(),
                    );
                    c.text(
                        cx,
                        cy + r - 1.0 * k,
                        2.3 * k,
                        format!("+{value}"),
                        Anchor::Middle,
                        Weight::Oblique,
                        st.hand(),
                    );
                }
            });
        }
    }

    fn thresholds(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let thresholds = self.template.thresholds();
        if thresholds.is_empty() {
            return;
        }
        let player = self.filled.map(|f| &f.state.players()[f.player]);
        let per_row = self.thresholds_per_row();
        let w = WIDTH / per_row as f32;
        for (i, t) in thresholds.iter().enumerate() {
            let x = (i % per_row) as f32 * w;
            let top = y + 2.0 * k + (i / per_row) as f32 * 11.0 * k;
            c.group(
                format!("Sun threshold {}: {}", t.at, reward_text(t.reward)),
                |c| {
                    c.rect(
                        x + 0.5 * k,
                        top,
                        w - 1.0 * k,
                        9.0 * k,
                        1.5 * k,
                        None,
                        Some(Stroke::solid(st.sun(), 0.4 * k)),
                    );
                    c.text(
                        x + 2.5 * k,
                        top + 6.3 * k,
                        4.0 * k,
                        t.at.to_string(),
                        Anchor::Start,
                        Weight::Bold,
                        st.ink(),
                    );
                    let after = x + 3.5 * k + text::width(&t.at.to_string(), 4.0 * k, Weight::Bold);
                    self.reward_icon(c, after + 2.5 * k, top + 4.5 * k, t.reward);
                    let tick = x + w - 5.0 * k;
                    c.text_fit(
                        after + 5.0 * k,
                        top + 5.8 * k,
                        2.8 * k,
                        tick - after - 6.0 * k,
                        reward_text(t.reward),
                        Anchor::Start,
                        Weight::Regular,
                        st.ink(),
                    );
                    c.rect(
                        tick,
                        top + 2.3 * k,
                        3.6 * k,
                        3.6 * k,
                        0.4 * k,
                        Some(Color::WHITE),
                        Some(st.s(0.3)),
                    );
                    if let Some(p) = player {
                        if p.thresholds_won[i] {
                            c.lines(
                                &[
                                    (tick + 0.6 * k, top + 4.2 * k),
                                    (tick + 1.5 * k, top + 5.2 * k),
                                    (tick + 3.2 * k, top + 2.8 * k),
                                ],
                                false,
                                None,
                                Some(Stroke::solid(st.hand(), 0.6 * k)),
                            );
                        } else if p.sun_total >= t.at {
                            c.line(
                                tick + 0.6 * k,
                                top + 2.9 * k,
                                tick + 3.0 * k,
                                top + 5.3 * k,
                                Stroke::solid(st.hand(), 0.4 * k),
                            );
                        }
                    }
                },
            );
        }
    }

    /// The box rectangle of box `b` in a tile drawn from `top`.
    fn box_at(&self, tile: &Tile, top: f32, b: usize) -> Option<(f32, f32)> {
        let sheet_box = &self.template.boxes()[b];
        if sheet_box.column < tile.columns.0 || sheet_box.column > tile.columns.1 {
            return None;
        }
        if tile.zone.is_some_and(|z| z != sheet_box.zone) {
            return None;
        }
        let mut y = top + 1.0 * self.style.k;
        for &row in &tile.rows {
            if tile.zone.is_none() && self.label_rows.contains(&row) {
                y += self.geometry.band;
            }
            if row == sheet_box.row {
                let g = &self.geometry;
                let columns = tile.columns.1 - tile.columns.0 + 1;
                let left = (WIDTH - f32::from(columns) * tile.pitch) / 2.0;
                let x =
                    left + f32::from(sheet_box.column - tile.columns.0) * tile.pitch + g.gap / 2.0;
                return Some((x, y + g.gap / 2.0));
            }
            y += tile.pitch;
        }
        None
    }

    fn grid(&self, c: &mut Canvas, top: f32, tile: &Tile) {
        let template = self.template;
        let (k, st) = (self.style.k, self.style);
        let size = tile.pitch - self.geometry.gap;
        let at = |b: usize| self.box_at(tile, top, b);
        // Group shapes under the boxes.
        for group in template.groups() {
            let placed: Vec<(f32, f32)> = group.boxes.iter().filter_map(|&b| at(b)).collect();
            if placed.is_empty() {
                continue;
            }
            let x0 = placed.iter().map(|p| p.0).fold(f32::MAX, f32::min);
            let y0 = placed.iter().map(|p| p.1).fold(f32::MAX, f32::min);
            let x1 = placed.iter().map(|p| p.0).fold(f32::MIN, f32::max) + size;
            let y1 = placed.iter().map(|p| p.1).fold(f32::MIN, f32::max) + size;
            let kind = template.zones()[group.zone].kind;
            self.group_shape(c, kind, (x0, y0, x1, y1));
        }
        // Zone labels in the band above each zone's first row in this tile:
        // each may use the room up to the next label on its band.
        let mut labels: Vec<(f32, f32, f32, String, String)> = Vec::new();
        // A zone of large print has its name above it instead.
        for zone in template.zones().iter().filter(|_| tile.zone.is_none()) {
            let in_tile: Vec<usize> = zone
                .boxes
                .iter()
                .copied()
                .filter(|&b| at(b).is_some())
                .collect();
            let Some(first_row) = in_tile.iter().map(|&b| template.boxes()[b].row).min() else {
                continue;
            };
            if !self.label_rows.contains(&first_row) {
                continue;
            }
            let on_row: Vec<(f32, f32)> = in_tile
                .iter()
                .filter(|&&b| template.boxes()[b].row == first_row)
                .filter_map(|&b| at(b))
                .collect();
            let x0 = on_row.iter().map(|p| p.0).fold(f32::MAX, f32::min);
            let x1 = on_row.iter().map(|p| p.0).fold(f32::MIN, f32::max) + size;
            let y = on_row[0].1 - self.geometry.gap / 2.0 - self.geometry.band + 3.6 * k;
            let rule = self.zone_rule(zone).map(|r| format!("{} · {r}", zone.name));
            labels.push((
                x0,
                x1,
                y,
                zone.name.clone(),
                rule.unwrap_or_else(|| zone.name.clone()),
            ));
        }
        labels.sort_by(|a, b| (a.2, a.0).partial_cmp(&(b.2, b.0)).unwrap());
        let size_label = 3.3 * k;
        let mut end_of_previous = (f32::MIN, f32::MIN);
        for (i, (x0, x1, y, name, full)) in labels.iter().enumerate() {
            let next = labels[i + 1..]
                .iter()
                .find(|l| (l.2 - y).abs() < 0.01)
                .map_or(WIDTH, |l| l.0 - 2.0 * k);
            let start = if (end_of_previous.0 - y).abs() < 0.01 {
                end_of_previous.1 + 2.0 * k
            } else {
                0.0
            };
            let width_of = |t: &str| text::width(t, size_label, Weight::Bold);
            // The name with its rule when it fits over the zone itself, else
            // the name alone, so that a heading stands over its own zone.
            let text = if width_of(full) <= next - x0 {
                full
            } else {
                name
            };
            let w = width_of(text);
            // Left-aligned on the zone if it fits, else right-aligned on its
            // right edge, else shrunk into the room.
            let (x, room) = if x0 + w <= next {
                (*x0, next - x0)
            } else if x1.min(next) - w >= start {
                (x1.min(next) - w, w)
            } else {
                (start.max(0.0), next - start.max(0.0))
            };
            c.text_fit(
                x,
                *y,
                size_label,
                room,
                text.clone(),
                Anchor::Start,
                Weight::Bold,
                st.ink(),
            );
            end_of_previous = (*y, x + w.min(room));
        }
        // The constraint symbols between boxes.
        for constraint in template.constraints() {
            let (a, b, symbol) = match *constraint {
                Constraint::Less(a, b) => (a, b, Symbol::Less),
                Constraint::Greater(a, b) => (a, b, Symbol::Greater),
                Constraint::Different(a, b) => (a, b, Symbol::Different),
                Constraint::Same(_) | Constraint::Distinct(_) => continue,
            };
            if let (Some(pa), Some(pb)) = (at(a), at(b)) {
                self.symbol(c, size, pa, pb, symbol);
            }
        }
        // The boxes.
        for (b, sheet_box) in template.boxes().iter().enumerate() {
            let Some((x, y)) = at(b) else { continue };
            let mark = self
                .filled
                .and_then(|f| f.state.players()[f.player].marks[b]);
            let title = self.box_title(b, mark.map(|m| (m.value, m.how)));
            c.keyed_group(title, Some(format!("box:{}", sheet_box.id)), |c| {
                c.rect(
                    x,
                    y,
                    size,
                    size,
                    1.5 * k,
                    Some(Color::WHITE),
                    Some(st.s(0.35)),
                );
                let done = mark.is_some_and(|m| m.value == sheet_box.pearl);
                self.pearl_icon(c, x + 3.3 * k, y + 3.3 * k, sheet_box.pearl, done);
                // Top right; in a narrow large-print box, bottom right, clear
                // of the pearl.
                let icons = f32::from(u8::from(sheet_box.crab) + u8::from(sheet_box.frog));
                let narrow = self.options.large && size < 30.0;
                let mut icon_y = if narrow {
                    y + size - 3.6 * k - (icons - 1.0) * 5.2 * k
                } else {
                    y + 3.6 * k
                };
                if sheet_box.crab {
                    let inset = if narrow { 4.0 } else { 3.4 };
                    self.crab_icon(c, x + size - inset * k, icon_y);
                    icon_y += 5.2 * k;
                }
                if sheet_box.frog {
                    self.frog_icon(c, x + size - 3.2 * k, icon_y.min(y + size - 3.0 * k));
                }
                if !self.options.large || size > 20.0 {
                    c.text(
                        x + 1.2 * k,
                        y + size - 1.2 * k,
                        2.3 * k,
                        sheet_box.id.clone(),
                        Anchor::Start,
                        Weight::Regular,
                        st.soft(),
                    );
                }
                if self.template.zones()[sheet_box.zone].kind == ZoneKind::Bottles
                    && !self.options.large
                {
                    c.rect(
                        x + size / 2.0 - 2.0,
                        y - 1.6,
                        4.0,
                        1.6,
                        0.4,
                        Some(Color::WHITE),
                        Some(st.s(0.3)),
                    );
                }
                if let Some(mark) = mark {
                    c.text(
                        x + size / 2.0 + 1.0 * k,
                        y + size * 0.72,
                        size * 0.55,
                        mark.value.to_string(),
                        Anchor::Middle,
                        Weight::Oblique,
                        st.hand(),
                    );
                    let note = match mark.how {
                        How::Placed => None,
                        How::Crab => Some("copy"),
                        How::Bonus => Some("bonus"),
                    };
                    if let Some(note) = note {
                        c.text(
                            x + size - 1.2 * k,
                            y + size - 1.2 * k,
                            2.3 * k,
                            note,
                            Anchor::End,
                            Weight::Oblique,
                            st.hand(),
                        );
                    }
                }
            });
        }
    }

    fn zone_rule(&self, zone: &crate::soleils::template::Zone) -> Option<String> {
        let template = self.template;
        let covers = |set: &[usize], boxes: &[usize]| boxes.iter().all(|b| set.contains(b));
        for constraint in template.constraints() {
            match constraint {
                Constraint::Same(set) if covers(set, &zone.boxes) && zone.boxes.len() > 1 => {
                    return Some("all the same".into());
                }
                Constraint::Distinct(set) if covers(set, &zone.boxes) && zone.boxes.len() > 1 => {
                    return Some("all different".into());
                }
                _ => {}
            }
        }
        let groups_same = !zone.groups.is_empty()
            && zone.groups.iter().all(|&g| {
                let boxes = &template.groups()[g].boxes;
                boxes.len() < 2
                    || template
                        .constraints()
                        .iter()
                        .any(|c| matches!(c, Constraint::Same(set) if covers(set, boxes)))
            });
        groups_same.then(|| format!("same number in each {}", noun(zone.kind)))
    }

    fn box_title(&self, b: usize, mark: Option<(u8, How)>) -> String {
        let template = self.template;
        let sheet_box = &template.boxes()[b];
        let zone = &template.zones()[sheet_box.zone];
        let (place, boxes) = match sheet_box.group {
            Some(g) => (
                template.groups()[g].name.clone(),
                &template.groups()[g].boxes,
            ),
            None => (zone.name.clone(), &zone.boxes),
        };
        let position = boxes.iter().position(|&x| x == b).unwrap_or(0) + 1;
        let mut title = format!(
            "{place}, box {position} ({}), pearl {}",
            sheet_box.id, sheet_box.pearl
        );
        if sheet_box.crab {
            title.push_str(", crab");
        }
        if sheet_box.frog {
            title.push_str(", frog");
        }
        match mark {
            None if self.filled.is_some() => title.push_str(", empty"),
            None => {}
            Some((value, how)) => {
                title.push_str(&format!(", value {value}"));
                if value == sheet_box.pearl {
                    title.push_str(", pearl coloured");
                }
                match how {
                    How::Placed => {}
                    How::Crab => title.push_str(", crab copy"),
                    How::Bonus => title.push_str(", bonus digit"),
                }
            }
        }
        title
    }

    fn group_shape(&self, c: &mut Canvas, kind: ZoneKind, (x0, y0, x1, y1): (f32, f32, f32, f32)) {
        let (k, st) = (self.style.k, self.style);
        let p = 1.0 * k;
        let (x0, y0, x1, y1) = (x0 - p, y0 - p, x1 + p, y1 + p);
        let fill = if st.mono {
            None
        } else {
            Some(Color(243, 247, 252))
        };
        let stroke = Some(Stroke::solid(st.soft(), 0.4 * k));
        match kind {
            ZoneKind::Cabins => {
                let peak = y0 - 2.2 * k;
                c.lines(
                    &[
                        (x0, y1),
                        (x0, y0),
                        ((x0 + x1) / 2.0, peak),
                        (x1, y0),
                        (x1, y1),
                    ],
                    true,
                    fill,
                    stroke,
                );
            }
            ZoneKind::Koinobori => {
                let t = 1.2 * k;
                if x1 - x0 >= y1 - y0 {
                    let mid = (y0 + y1) / 2.0;
                    c.lines(
                        &[(x0, y0), (x1 + t, y0), (x1, mid), (x1 + t, y1), (x0, y1)],
                        true,
                        fill,
                        stroke,
                    );
                } else {
                    let mid = (x0 + x1) / 2.0;
                    c.lines(
                        &[(x0, y0), (x1, y0), (x1, y1 + t), (mid, y1), (x0, y1 + t)],
                        true,
                        fill,
                        stroke,
                    );
                }
            }
            ZoneKind::Sailboats => {
                let hull = 1.2 * k;
                let inset = ((x1 - x0) * 0.12).min(4.0 * k);
                c.lines(
                    &[
                        (x0, y0),
                        (x1, y0),
                        (x1, y1),
                        (x1 - inset, y1 + hull),
                        (x0 + inset, y1 + hull),
                        (x0, y1),
                    ],
                    true,
                    fill,
                    stroke,
                );
            }
            ZoneKind::Bottles | ZoneKind::Seagulls => {
                c.rect(x0, y0, x1 - x0, y1 - y0, 2.0 * k, fill, stroke);
            }
        }
    }

    fn symbol(
        &self,
        c: &mut Canvas,
        size: f32,
        (ax, ay): (f32, f32),
        (bx, by): (f32, f32),
        symbol: Symbol,
    ) {
        let (k, st) = (self.style.k, self.style);
        let stroke = Stroke::solid(st.ink(), 0.5 * k);
        let horizontal = (ay - by).abs() < 0.01;
        let vertical = (ax - bx).abs() < 0.01;
        let (mx, my, dx, dy) = if horizontal {
            let (l, r) = if ax < bx { (ax, bx) } else { (bx, ax) };
            (
                (l + size + r) / 2.0,
                ay + size / 2.0,
                if ax < bx { 1.0 } else { -1.0 },
                0.0,
            )
        } else if vertical {
            let (t, b) = if ay < by { (ay, by) } else { (by, ay) };
            (
                ax + size / 2.0,
                (t + size + b) / 2.0,
                0.0,
                if ay < by { 1.0 } else { -1.0 },
            )
        } else {
            // Not neighbours: a dashed link between the centres.
            let (cax, cay, cbx, cby) = (
                ax + size / 2.0,
                ay + size / 2.0,
                bx + size / 2.0,
                by + size / 2.0,
            );
            c.line(
                cax,
                cay,
                cbx,
                cby,
                Stroke::dashed(st.soft(), 0.3 * k, 1.0 * k, 1.0 * k),
            );
            let (mx, my) = ((cax + cbx) / 2.0, (cay + cby) / 2.0);
            let len = ((cbx - cax).powi(2) + (cby - cay).powi(2)).sqrt().max(0.01);
            c.circle(
                mx,
                my,
                2.2 * k,
                Some(Color::WHITE),
                Some(Stroke::solid(st.soft(), 0.3 * k)),
            );
            ((mx), (my), (cbx - cax) / len, (cby - cay) / len)
        };
        // `dx, dy` point from the first box to the second.
        let h = 1.4 * k;
        match symbol {
            Symbol::Less | Symbol::Greater => {
                // "a < b": the tip points at the smaller, the first box.
                let toward_first = symbol == Symbol::Less;
                let s = if toward_first { -1.0 } else { 1.0 };
                let (tx, ty) = (mx + s * dx * h, my + s * dy * h);
                let (bx, by) = (mx - s * dx * h, my - s * dy * h);
                let (px, py) = (-dy * h * 1.1, dx * h * 1.1);
                c.lines(
                    &[(bx + px, by + py), (tx, ty), (bx - px, by - py)],
                    false,
                    None,
                    Some(stroke),
                );
            }
            Symbol::Different => {
                let w = h * 1.1;
                c.line(mx - w, my - 0.5 * k, mx + w, my - 0.5 * k, stroke);
                c.line(mx - w, my + 0.5 * k, mx + w, my + 0.5 * k, stroke);
                c.line(
                    mx - 0.6 * k,
                    my + 1.5 * k,
                    mx + 0.6 * k,
                    my - 1.5 * k,
                    stroke,
                );
            }
        }
    }

    fn flags(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let template = self.template;
        c.text(
            0.0,
            y + 5.5 * k,
            4.2 * k,
            "Zone flags",
            Anchor::Start,
            Weight::Bold,
            st.ink(),
        );
        c.text(
            text::width("Zone flags", 4.2 * k, Weight::Bold) + 3.0 * k,
            y + 5.5 * k,
            3.0 * k,
            "circle a flag when every box of its zone is filled",
            Anchor::Start,
            Weight::Regular,
            st.soft(),
        );
        let player = self.filled.map(|f| &f.state.players()[f.player]);
        let columns = self.columns();
        let w = WIDTH / columns as f32;
        for (z, zone) in template.zones().iter().enumerate() {
            let x = (z % columns) as f32 * w;
            let top = y + 8.0 * k + (z / columns) as f32 * 11.0 * k;
            c.group(
                format!("{} flag: {}", zone.name, reward_text(zone.flag)),
                |c| {
                    let (fx, fy) = (x + 4.0 * k, top + 4.5 * k);
                    c.line(
                        fx - 1.5 * k,
                        fy - 3.2 * k,
                        fx - 1.5 * k,
                        fy + 3.2 * k,
                        Stroke::solid(st.ink(), 0.4 * k),
                    );
                    let pennant = if st.mono {
                        None
                    } else {
                        Some(Color(90, 150, 220))
                    };
                    c.lines(
                        &[
                            (fx - 1.5 * k, fy - 3.2 * k),
                            (fx + 3.0 * k, fy - 1.8 * k),
                            (fx - 1.5 * k, fy - 0.4 * k),
                        ],
                        true,
                        pennant,
                        Some(st.s(0.3)),
                    );
                    if player.is_some_and(|p| p.zones_done[z]) {
                        c.circle(
                            fx,
                            fy - 0.3 * k,
                            4.6 * k,
                            None,
                            Some(Stroke::solid(st.hand(), 0.7 * k)),
                        );
                    }
                    let tx = x + 10.0 * k;
                    let mut head = format!("{}: {}", zone.name, reward_text(zone.flag));
                    if let Some(rule) = self.zone_rule(zone) {
                        head.push_str(&format!(" ({rule})"));
                    }
                    c.text_fit(
                        tx,
                        top + 3.6 * k,
                        3.4 * k,
                        w - 12.0 * k,
                        head,
                        Anchor::Start,
                        Weight::Bold,
                        st.ink(),
                    );
                    let rewards: Vec<String> = zone
                        .groups
                        .iter()
                        .filter_map(|&g| template.groups()[g].reward.map(reward_text))
                        .collect();
                    if !rewards.is_empty() {
                        let same = rewards.iter().all(|r| *r == rewards[0]);
                        let text = if same {
                            format!("each finished {}: {}", noun(zone.kind), rewards[0])
                        } else {
                            format!("finished {}s: {}", noun(zone.kind), rewards.join(", "))
                        };
                        let done = player.map(|p| {
                            let n = zone.groups.iter().filter(|&&g| p.groups_done[g]).count();
                            format!(" ({n} of {} done)", zone.groups.len())
                        });
                        c.text_fit(
                            tx,
                            top + 7.8 * k,
                            2.8 * k,
                            w - 12.0 * k,
                            text + &done.unwrap_or_default(),
                            Anchor::Start,
                            Weight::Regular,
                            st.soft(),
                        );
                    }
                },
            );
        }
    }

    fn score(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let top = y + 2.0 * k;
        let columns = self.columns();
        let per_column = 6 / columns;
        c.rect(
            0.0,
            top,
            WIDTH,
            self.height(&Block::Score) - 3.0 * k,
            2.0 * k,
            None,
            Some(st.s(0.4)),
        );
        c.text(
            3.0 * k,
            top + 6.0 * k,
            4.2 * k,
            "Score",
            Anchor::Start,
            Weight::Bold,
            st.ink(),
        );
        let line = self.filled.map(|f| score(f.state).swap_remove(f.player));
        let rows: [(&str, Option<u32>); 6] = [
            ("Sun track starfish", line.as_ref().map(|l| l.sun)),
            ("Zone flags", line.as_ref().map(|l| l.flags)),
            ("Group rewards", line.as_ref().map(|l| l.groups)),
            ("Pearls, 1 each", line.as_ref().map(|l| l.pearls)),
            (
                "Most seashells: 5",
                line.as_ref().map(|l| l.seashell_majority),
            ),
            ("Total", line.as_ref().map(|l| l.total)),
        ];
        let w = (WIDTH - 6.0 * k) / columns as f32;
        for (i, (label, value)) in rows.iter().enumerate() {
            let x = 3.0 * k + (i / per_column) as f32 * w;
            let ly = top + 14.0 * k + (i % per_column) as f32 * 7.0 * k;
            let weight = if *label == "Total" {
                Weight::Bold
            } else {
                Weight::Regular
            };
            c.group(format!("Score: {label}"), |c| {
                c.text_fit(
                    x,
                    ly,
                    3.4 * k,
                    w - 30.0 * k,
                    label.to_string(),
                    Anchor::Start,
                    weight,
                    st.ink(),
                );
                let bx = x + w - 26.0 * k;
                c.rect(
                    bx,
                    ly - 5.0 * k,
                    22.0 * k,
                    6.5 * k,
                    1.0 * k,
                    Some(Color::WHITE),
                    Some(st.s(0.3)),
                );
                if let Some(v) = value {
                    c.text(
                        bx + 11.0 * k,
                        ly,
                        4.6 * k,
                        v.to_string(),
                        Anchor::Middle,
                        Weight::Oblique,
                        st.hand(),
                    );
                }
            });
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Symbol {
    Less,
    Greater,
    Different,
}
