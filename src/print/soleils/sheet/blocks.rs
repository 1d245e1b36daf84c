//! The blocks above and below the grid: the header with the name line,
//! the legend, the sun track, its thresholds, the zone flags and the score
//! box.

use super::{Block, Sheet, noun, reward_text};
use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use crate::soleils::score;

/// The height of a digit, as a fraction of its text's size.
const DIGIT_HEIGHT: f32 = 0.72;

impl Sheet<'_> {
    pub(super) fn header(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let title = self.template.name();
        c.fit_text(
            self.fonts,
            0.0,
            y + 8.0 * k,
            7.5 * k,
            self.layout.title_width,
            title,
            Anchor::Start,
            Weight::Bold,
            st.ink,
        );
        if title != "62 Soleils d'été" {
            c.text(
                0.0,
                y + 12.5 * k,
                st.t(3.0),
                "a 62 Soleils d'été sheet",
                Anchor::Start,
                Weight::Regular,
                st.soft,
            );
        }
        // The name line: beside the title, or under it in large print.
        let (x, below, size) = self.layout.name_line;
        let line_y = y + below;
        c.text(
            x,
            line_y,
            size,
            "Name",
            Anchor::Start,
            Weight::Regular,
            st.soft,
        );
        let after = x + self.fonts.width("Name", size, Weight::Regular) + 2.0 * k;
        c.line(
            after,
            line_y + 0.6 * k,
            self.width(),
            line_y + 0.6 * k,
            st.s(0.3),
        );
        if let Some(name) = self.name() {
            c.fit_text(
                self.fonts,
                after + 2.0 * k,
                line_y - 0.4 * k,
                5.0 * k,
                self.width() - after - 3.0 * k,
                name,
                Anchor::Start,
                Weight::Oblique,
                st.hand,
            );
        }
    }

    pub(super) fn legend(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let size = st.t(3.0);
        let legend = self.layout.legend;
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
                st.ink,
            );
            *at = match legend.stacked {
                Some(pitch) => (0.0, cy + pitch),
                None => (
                    x + 6.0 * k + self.fonts.width(label, size, Weight::Regular) + 5.0 * k,
                    cy,
                ),
            };
        };
        let words = legend.words;
        let pearl = |c: &mut Canvas, x: f32, y: f32| self.pearl_icon(c, x, y, 4, false);
        item(c, &pearl, words[0], &mut at);
        let crab = |c: &mut Canvas, x: f32, y: f32| self.crab_icon(c, x, y);
        item(c, &crab, words[1], &mut at);
        let frog = |c: &mut Canvas, x: f32, y: f32| self.frog_icon(c, x, y);
        item(c, &frog, words[2], &mut at);
    }

    pub(super) fn sun(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        c.text(
            0.0,
            y + 5.5 * k,
            4.2 * k,
            "Sun track",
            Anchor::Start,
            Weight::Bold,
            st.ink,
        );
        c.text(
            self.fonts.width("Sun track", 4.2 * k, Weight::Bold) + 3.0 * k,
            y + 5.5 * k,
            st.t(3.0),
            "write each new total",
            Anchor::Start,
            Weight::Regular,
            st.soft,
        );
        let pitch = self.sun_pitch();
        let per_row = self.layout.sun_per_row;
        let r = (pitch / 2.0 - self.layout.sun_clearance * k).min(7.0 * k);
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
                        Stroke::solid(st.sun, 0.4 * k),
                    );
                }
                c.circle(
                    cx,
                    cy,
                    r,
                    Some(Color::WHITE),
                    Some(Stroke::solid(st.sun, 0.5 * k)),
                );
                let number = (slot + 1).to_string();
                c.text(
                    cx,
                    self.slot_number_baseline(&number, cy, r),
                    st.t(2.3),
                    number,
                    Anchor::Middle,
                    Weight::Regular,
                    st.soft,
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
                        st.hand,
                    );
                    c.text(
                        cx,
                        cy + r - 1.0 * k,
                        st.t(2.3),
                        format!("+{value}"),
                        Anchor::Middle,
                        Weight::Oblique,
                        st.hand,
                    );
                }
            });
        }
    }

    /// The baseline of a sun slot's `number` in the ring of radius `r`
    /// around `cy`: its digits' tops 0.8 mm (times the scale) below the ring's inner
    /// edge where the ring is lowest over them, at their corners. The
    /// compact and phone sheets print the number larger than the standard
    /// one, so a fixed drop from the ring's top would cross it.
    fn slot_number_baseline(&self, number: &str, cy: f32, r: f32) -> f32 {
        let (k, st) = (self.style.k, self.style);
        let size = st.t(2.3);
        let half = self.fonts.width(number, size, Weight::Regular) / 2.0 + 0.2 * k;
        let inner = r - 0.25 * k;
        let under_ring = cy - (inner * inner - half * half).max(0.0).sqrt();
        let standard = cy - r + 3.0 * k;
        standard.max(under_ring + 0.8 * k + DIGIT_HEIGHT * size)
    }

    pub(super) fn thresholds(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let thresholds = self.template.thresholds();
        if thresholds.is_empty() {
            return;
        }
        let player = self.filled.map(|f| &f.state.players()[f.player]);
        let per_row = self.thresholds_per_row();
        let w = self.width() / per_row as f32;
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
                        Some(Stroke::solid(st.sun, 0.4 * k)),
                    );
                    c.text(
                        x + 2.5 * k,
                        top + 6.3 * k,
                        4.0 * k,
                        t.at.to_string(),
                        Anchor::Start,
                        Weight::Bold,
                        st.ink,
                    );
                    let after =
                        x + 3.5 * k + self.fonts.width(&t.at.to_string(), 4.0 * k, Weight::Bold);
                    self.reward_icon(c, after + 2.5 * k, top + 4.5 * k, t.reward);
                    let tick = x + w - 5.0 * k;
                    c.fit_text(
                        self.fonts,
                        after + 5.0 * k,
                        top + 5.8 * k,
                        st.t(2.8),
                        tick - after - 6.0 * k,
                        reward_text(t.reward),
                        Anchor::Start,
                        Weight::Regular,
                        st.ink,
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
                                Some(Stroke::solid(st.hand, 0.6 * k)),
                            );
                        } else if p.sun_total >= t.at {
                            c.line(
                                tick + 0.6 * k,
                                top + 2.9 * k,
                                tick + 3.0 * k,
                                top + 5.3 * k,
                                Stroke::solid(st.hand, 0.4 * k),
                            );
                        }
                    }
                },
            );
        }
    }

    pub(super) fn flags(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let template = self.template;
        c.text(
            0.0,
            y + 5.5 * k,
            4.2 * k,
            "Zone flags",
            Anchor::Start,
            Weight::Bold,
            st.ink,
        );
        c.text(
            self.fonts.width("Zone flags", 4.2 * k, Weight::Bold) + 3.0 * k,
            y + 5.5 * k,
            st.t(3.0),
            self.layout.flags_note,
            Anchor::Start,
            Weight::Regular,
            st.soft,
        );
        let player = self.filled.map(|f| &f.state.players()[f.player]);
        let columns = self.layout.columns;
        let w = self.width() / columns as f32;
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
                        Stroke::solid(st.ink, 0.4 * k),
                    );
                    let pennant = st.pennant;
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
                            Some(Stroke::solid(st.hand, 0.7 * k)),
                        );
                    }
                    let tx = x + 10.0 * k;
                    let mut head = format!("{}: {}", zone.name, reward_text(zone.flag));
                    if let Some(rule) = self
                        .zone_rule(zone)
                        .filter(|_| self.layout.flag_rules && !self.layout.rules_under_flags)
                    {
                        head.push_str(&format!(" ({rule})"));
                    }
                    c.fit_text(
                        self.fonts,
                        tx,
                        top + 3.6 * k,
                        3.4 * k,
                        w - 12.0 * k,
                        head,
                        Anchor::Start,
                        Weight::Bold,
                        st.ink,
                    );
                    let rewards: Vec<String> = zone
                        .groups
                        .iter()
                        .filter_map(|&g| template.groups()[g].reward.map(reward_text))
                        .collect();
                    // The compact sheet gives the rule here, under the
                    // flag, with the groups' rewards in fewer words if
                    // both would not fit.
                    let rule = self
                        .zone_rule(zone)
                        .filter(|_| self.layout.flag_rules && self.layout.rules_under_flags);
                    let mut lines: Vec<String> = Vec::new();
                    if !rewards.is_empty() {
                        let same = rewards.iter().all(|r| *r == rewards[0]);
                        let done = player.map(|p| {
                            let n = zone.groups.iter().filter(|&&g| p.groups_done[g]).count();
                            format!(" ({n} of {} done)", zone.groups.len())
                        });
                        let done = done.unwrap_or_default();
                        let (long, short) = if same {
                            (
                                format!("each finished {}: {}", noun(zone.kind), rewards[0]),
                                format!("{} each", rewards[0]),
                            )
                        } else {
                            let text =
                                format!("finished {}s: {}", noun(zone.kind), rewards.join(", "));
                            (text.clone(), text)
                        };
                        match &rule {
                            Some(rule) => {
                                lines.push(format!("{rule}; {long}{done}"));
                                lines.push(format!("{rule}; {short}{done}"));
                            }
                            None => {
                                lines.push(long + &done);
                                // Where the rule is given elsewhere, the
                                // shorter words before a smaller size.
                                if !self.layout.flag_rules {
                                    lines.push(short + &done);
                                }
                            }
                        }
                    } else if let Some(rule) = rule {
                        lines.push(rule);
                    }
                    let (size, room) = (st.t(2.8), w - 12.0 * k);
                    let fits = |t: &String| self.fonts.width(t, size, Weight::Regular) <= room;
                    let text = lines.iter().find(|t| fits(t)).or(lines.last());
                    if let Some(text) = text {
                        c.fit_text(
                            self.fonts,
                            tx,
                            top + 7.8 * k,
                            size,
                            room,
                            text.clone(),
                            Anchor::Start,
                            Weight::Regular,
                            st.soft,
                        );
                    }
                },
            );
        }
    }

    pub(super) fn score(&self, c: &mut Canvas, y: f32) {
        let (k, st) = (self.style.k, self.style);
        let top = y + 2.0 * k;
        let columns = self.layout.columns;
        let per_column = 6 / columns;
        c.rect(
            0.0,
            top,
            self.width(),
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
            st.ink,
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
        let w = (self.width() - 6.0 * k) / columns as f32;
        for (i, (label, value)) in rows.iter().enumerate() {
            let x = 3.0 * k + (i / per_column) as f32 * w;
            let ly = top + 14.0 * k + (i % per_column) as f32 * 7.0 * k;
            let weight = if *label == "Total" {
                Weight::Bold
            } else {
                Weight::Regular
            };
            c.group(format!("Score: {label}"), |c| {
                c.fit_text(
                    self.fonts,
                    x,
                    ly,
                    3.4 * k,
                    w - 30.0 * k,
                    label.to_string(),
                    Anchor::Start,
                    weight,
                    st.ink,
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
                        st.hand,
                    );
                }
            });
        }
    }
}
