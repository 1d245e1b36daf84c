//! The grid: where each box stands in a tile, and the tile drawn in four
//! steps, bottom to top: the groups' outlines, the zones' labels, the signs
//! between boxes, then the boxes with their pearls, icons and marks.

use super::icons::Symbol;
use super::{Sheet, Tile, noun};
use crate::render::scene::{Anchor, Canvas, Color, Weight};
use crate::soleils::How;
use crate::soleils::template::{Constraint, SheetBox, Zone, ZoneKind};

/// The least room between two zones' labels on a band, at the standard
/// size, in millimetres.
const GAP: f32 = 3.0;

/// A zone's label on the band above its first row: the zone's left and
/// right on that row, the baseline, and the name, alone and with its rule.
struct Label {
    x0: f32,
    x1: f32,
    y: f32,
    name: String,
    full: String,
}

impl Sheet<'_> {
    /// The top left of box `b` in a tile drawn from `top`, if the tile
    /// holds it.
    pub(super) fn box_at(&self, tile: &Tile, top: f32, b: usize) -> Option<(f32, f32)> {
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
                let left = (self.width() - f32::from(columns) * tile.pitch) / 2.0;
                let x =
                    left + f32::from(sheet_box.column - tile.columns.0) * tile.pitch + g.gap / 2.0;
                return Some((x, y + g.gap / 2.0));
            }
            y += tile.pitch;
        }
        None
    }

    /// A tile of the grid drawn from `top`.
    pub(super) fn grid(&self, c: &mut Canvas, top: f32, tile: &Tile) {
        self.group_shapes(c, top, tile);
        let labels = self.zone_labels(top, tile);
        self.draw_labels(c, &labels);
        self.signs(c, top, tile);
        for b in 0..self.template.boxes().len() {
            if let Some(at) = self.box_at(tile, top, b) {
                self.draw_box(c, b, at, tile.pitch - self.geometry.gap);
            }
        }
    }

    /// Each group's outline, drawn as its thing, under its boxes.
    fn group_shapes(&self, c: &mut Canvas, top: f32, tile: &Tile) {
        let template = self.template;
        let size = tile.pitch - self.geometry.gap;
        for group in template.groups() {
            let placed: Vec<(f32, f32)> = group
                .boxes
                .iter()
                .filter_map(|&b| self.box_at(tile, top, b))
                .collect();
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
    }

    /// The label of each zone whose first row is in the tile, in the band
    /// above that row, in order along each band. A tile of one zone (large
    /// print) has none: the zone's name stands above it instead.
    fn zone_labels(&self, top: f32, tile: &Tile) -> Vec<Label> {
        let template = self.template;
        let size = tile.pitch - self.geometry.gap;
        let k = self.style.k;
        let at = |b: usize| self.box_at(tile, top, b);
        let mut labels: Vec<Label> = Vec::new();
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
            labels.push(Label {
                x0,
                x1,
                y,
                name: zone.name.clone(),
                full: rule.unwrap_or_else(|| zone.name.clone()),
            });
        }
        labels.sort_by(|a, b| (a.y, a.x0).partial_cmp(&(b.y, b.x0)).unwrap());
        labels
    }

    /// The labels, each in the room up to the next one on its band: with
    /// its rule when that fits over the zone and leaves the next label
    /// room for its name, else the name alone (the zone's flag gives the
    /// rule too), so that a heading stands over its own zone, apart from
    /// the next.
    fn draw_labels(&self, c: &mut Canvas, labels: &[Label]) {
        let k = self.style.k;
        let size_label = 3.3 * k;
        let width_of = |t: &str| self.fonts.width(t, size_label, Weight::Bold);
        let mut end_of_previous = (f32::MIN, f32::MIN);
        for (i, label) in labels.iter().enumerate() {
            let Label {
                x0,
                x1,
                y,
                name,
                full,
            } = label;
            // The next label on the band starts at its zone, or further
            // left if its name is wider: this label leaves it that room,
            // and a gap, dropping its rule if need be; but it keeps the room
            // its own name takes up to the next zone, so that a long name
            // shrinks on its own label, never on its neighbour's.
            let next = labels[i + 1..]
                .iter()
                .find(|l| (l.y - y).abs() < 0.01)
                .map_or(self.width(), |l| {
                    let reserved = l.x0.min(l.x1 - width_of(&l.name)) - GAP * k;
                    let mine = (x0 + width_of(name)).min(l.x0 - GAP * k);
                    reserved.max(mine)
                });
            let start = if (end_of_previous.0 - y).abs() < 0.01 {
                end_of_previous.1 + GAP * k
            } else {
                0.0
            };
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
            c.fit_text(
                self.fonts,
                x,
                *y,
                size_label,
                room,
                text.clone(),
                Anchor::Start,
                Weight::Bold,
                self.style.ink,
            );
            end_of_previous = (*y, x + w.min(room));
        }
    }

    /// The `<`, `>` and `≠` signs between the boxes of the tile. The signs
    /// of one pair of boxes stand side by side, centred on the gap between
    /// them and spread along it, top to bottom or left to right (along the
    /// dashed link, for boxes that are not neighbours), in the order the
    /// template lists them, so that no sign covers another.
    fn signs(&self, c: &mut Canvas, top: f32, tile: &Tile) {
        let size = tile.pitch - self.geometry.gap;
        let k = self.style.k;
        let signs: Vec<(usize, usize, Symbol)> = self
            .template
            .constraints()
            .iter()
            .filter_map(|constraint| match *constraint {
                Constraint::Less(a, b) => Some((a, b, Symbol::Less)),
                Constraint::Greater(a, b) => Some((a, b, Symbol::Greater)),
                Constraint::Different(a, b) => Some((a, b, Symbol::Different)),
                Constraint::Same(_) | Constraint::Distinct(_) => None,
            })
            .collect();
        let pair = |a: usize, b: usize| (a.min(b), a.max(b));
        for (i, &(a, b, symbol)) in signs.iter().enumerate() {
            let (Some(pa), Some(pb)) = (self.box_at(tile, top, a), self.box_at(tile, top, b))
            else {
                continue;
            };
            let same_pair = |&&(x, y, _): &&(usize, usize, Symbol)| pair(x, y) == pair(a, b);
            let count = signs.iter().filter(same_pair).count();
            let place = signs[..i].iter().filter(same_pair).count();
            let shift = if count < 2 {
                (0.0, 0.0)
            } else {
                // From the first box of the pair (in the template's order
                // of boxes) to the second, whichever way the sign reads.
                let (lo, hi) = if a < b { (pa, pb) } else { (pb, pa) };
                let (ux, uy) = (hi.0 - lo.0, hi.1 - lo.1);
                let len = (ux * ux + uy * uy).sqrt().max(0.01);
                let (ux, uy) = (ux / len, uy / len);
                let aligned = (pa.0 - pb.0).abs() < 0.01 || (pa.1 - pb.1).abs() < 0.01;
                // Across the gap: top to bottom, or left to right.
                let ((vx, vy), step) = if aligned {
                    ((uy.abs(), ux.abs()), (4.2 * k).min(size / count as f32))
                } else {
                    ((ux, uy), 5.2 * k)
                };
                let t = (place as f32 - (count - 1) as f32 / 2.0) * step;
                (vx * t, vy * t)
            };
            self.symbol(c, size, pa, pb, symbol, shift);
        }
    }

    /// Box `b` at `(x, y)`, `size` wide: a group that a screen reader
    /// describes and a viewer finds by its key, holding the box, its pearl,
    /// its icons and id, and what the player wrote in it.
    fn draw_box(&self, c: &mut Canvas, b: usize, (x, y): (f32, f32), size: f32) {
        let sheet_box = &self.template.boxes()[b];
        let mark = self
            .filled
            .and_then(|f| f.state.players()[f.player].marks[b]);
        let title = self.box_title(b, mark.map(|m| (m.value, m.how)));
        let (k, st) = (self.style.k, self.style);
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
            self.box_icons(c, sheet_box, (x, y), size);
            let note = mark.and_then(|mark| match mark.how {
                How::Placed => None,
                How::Crab => Some("copy"),
                How::Bonus => Some("bonus"),
            });
            let show_id = self.layout.id_room.is_none_or(|room| size > room);
            // The id bottom left and the note bottom right, 1.2 `k` in
            // from the box's edges; 0.6 `k` where that would make the two
            // touch (a phone's box, whose texts are larger for the screen).
            let inset = match note {
                Some(note) if show_id => {
                    let (f, t) = (self.fonts, st.t(2.3));
                    let both = f.width(&sheet_box.id, t, Weight::Regular)
                        + f.width(note, t, Weight::Oblique);
                    if both + 0.6 * k > size - 2.4 * k {
                        0.6 * k
                    } else {
                        1.2 * k
                    }
                }
                _ => 1.2 * k,
            };
            if show_id {
                c.text(
                    x + inset,
                    y + size - inset,
                    st.t(2.3),
                    sheet_box.id.clone(),
                    Anchor::Start,
                    Weight::Regular,
                    st.soft,
                );
            }
            if self.template.zones()[sheet_box.zone].kind == ZoneKind::Bottles
                && self.layout.bottle_necks
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
                // Beside a crab or a frog, smaller, between the pearl and
                // the id, left of the icons.
                let (digit_x, digit_y, digit_size) = if sheet_box.crab || sheet_box.frog {
                    (
                        x + (size - 6.6 * k) / 2.0 + 0.5 * k,
                        y + size * 0.74,
                        size * 0.45,
                    )
                } else {
                    (x + size / 2.0 + 1.0 * k, y + size * 0.72, size * 0.55)
                };
                c.text(
                    digit_x,
                    digit_y,
                    digit_size,
                    mark.value.to_string(),
                    Anchor::Middle,
                    Weight::Oblique,
                    st.hand,
                );
                if let Some(note) = note {
                    c.text(
                        x + size - inset,
                        y + size - inset,
                        st.t(2.3),
                        note,
                        Anchor::End,
                        Weight::Oblique,
                        st.hand,
                    );
                }
            }
        });
    }

    /// A box's crab and frog, top right, under each other: scaled with a
    /// box drawn smaller than the sheet's (a large-print zone shrunk to
    /// keep its row whole), so that they stay inside it, clear of its
    /// pearl and its id.
    fn box_icons(&self, c: &mut Canvas, sheet_box: &SheetBox, (x, y): (f32, f32), size: f32) {
        let full = self.geometry.pitch - self.geometry.gap;
        // The icons' scale, and the room kept from the box's edges at the
        // sheet's own, and a little more for shrunk icons.
        let (ik, k) = (self.style.k * (size / full).min(1.0), self.style.k);
        let more = 0.6 * (k - ik);
        let mut icon_y = y + 0.8 * k + more + 2.8 * ik;
        if sheet_box.crab {
            self.crab_at(c, x + size - 0.6 * k - more - 2.8 * ik, icon_y, ik);
            icon_y += 5.2 * ik;
        }
        if sheet_box.frog {
            let lowest = y + size - 0.6 * k - 2.4 * ik;
            self.frog_at(c, x + size - 1.2 * k - 2.0 * ik, icon_y.min(lowest), ik);
        }
    }

    /// The zone's rule in a few words, for its label and its flag.
    pub(super) fn zone_rule(&self, zone: &Zone) -> Option<String> {
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

    /// What a screen reader says of box `b`: where it is, its pearl and
    /// icons, and what was written in it.
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
}
