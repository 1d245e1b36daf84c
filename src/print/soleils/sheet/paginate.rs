//! Measuring and paginating a sheet: the grid's pitch, the height of each
//! block, and which blocks go on which page.

use super::style::Paging;
use super::{Block, HEIGHT, Sheet, Tile};
use std::collections::BTreeSet;

impl Sheet<'_> {
    pub(super) fn used_rows(&self) -> Vec<u16> {
        let rows: BTreeSet<u16> = self.template.boxes().iter().map(|b| b.row).collect();
        rows.into_iter().collect()
    }

    /// The cell pitch: as wide as the page allows (at most 24 mm), shrunk so
    /// that a sheet on one page fits it; scaled when zones have pages of
    /// their own.
    pub(super) fn pitch(&self) -> f32 {
        if let Some(pitch) = self.layout.pitch {
            return pitch;
        }
        let columns = f32::from(self.template.grid().columns.max(1));
        let wide = (self.width() / columns).min(24.0);
        match self.layout.paging {
            Paging::ByZone => self.style.k * wide,
            Paging::OnePage => self.fitted_pitch(wide),
        }
    }

    /// The pitch at most `wide` at which every row fits one page beside
    /// the other blocks, and at least 10 mm.
    fn fitted_pitch(&self, wide: f32) -> f32 {
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

    pub(super) fn row_height(&self, row: u16) -> f32 {
        let band = if self.label_rows.contains(&row) {
            self.geometry.band
        } else {
            0.0
        };
        band + self.geometry.pitch
    }

    pub(super) fn height(&self, block: &Block) -> f32 {
        let k = self.style.k;
        let layout = &self.layout;
        match block {
            Block::Header => layout.header,
            Block::Legend => layout.legend.height,
            Block::Sun => {
                let rows = usize::from(self.template.sun_slots()).div_ceil(layout.sun_per_row);
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
                let lines = self.template.zones().len().div_ceil(layout.columns) as f32;
                8.0 * k + lines * 11.0 * k
            }
            Block::Score => 16.0 * k + (6 / layout.columns) as f32 * 7.0 * k,
        }
    }

    pub(super) fn thresholds_per_row(&self) -> usize {
        self.layout
            .thresholds_per_row
            .unwrap_or_else(|| self.template.thresholds().len().max(1))
    }

    pub(super) fn sun_pitch(&self) -> f32 {
        self.width() / self.layout.sun_per_row as f32
    }

    /// The blocks of each page.
    pub(super) fn paginate(&self) -> Vec<Vec<Block>> {
        match self.layout.paging {
            Paging::OnePage => self.pack(self.one_page_blocks()),
            Paging::ByZone => self.paginate_large(),
        }
    }

    /// The blocks of a sheet on one page, top to bottom: the grid in tiles
    /// of the columns that fit the width, each cut where the page is full.
    fn one_page_blocks(&self) -> Vec<Block> {
        let mut blocks = vec![Block::Header, Block::Legend, Block::Sun, Block::Thresholds];
        let columns = self.template.grid().columns;
        let per_tile =
            ((self.width() / self.geometry.pitch).floor() as u16).clamp(1, columns.max(1));
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
        blocks
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

    /// Blocks onto pages, in order, a new page when the next does not fit.
    pub(super) fn pack(&self, blocks: Vec<Block>) -> Vec<Vec<Block>> {
        let mut pages: Vec<Vec<Block>> = vec![Vec::new()];
        let mut used = 0.0;
        for block in blocks {
            let h = self.height(&block);
            let room = HEIGHT - self.layout.footer;
            if used + h > room + 0.01 && !pages.last().is_none_or(Vec::is_empty) {
                pages.push(Vec::new());
                used = 0.0;
            }
            used += h;
            if let Some(page) = pages.last_mut() {
                page.push(block);
            }
        }
        pages
    }
}
