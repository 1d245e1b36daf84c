//! The distribution of final scores on page 1: grouped bars of A's and B's
//! share of seats per score bucket, the legend, and each variant's mean.

use crate::render::scene::{Anchor, Canvas, Color, Stroke, Weight};
use crate::report::kit::style::{
    A_COLOR, B_COLOR, B_TINT, BLOCK_HEAD, BODY, BODY_GREY, SMALL, font, hatch, swatch, width_of,
    write,
};
use crate::report::kit::ticks::{decimals, nice_step};
use crate::stats::Unit;
use crate::workbench::Report;

/// Each count's share of all of them.
fn shares(counts: &[u64]) -> Vec<f64> {
    let total = counts.iter().sum::<u64>().max(1) as f64;
    counts.iter().map(|&n| n as f64 / total).collect()
}

/// The line of a variant's mean: darker than its bars, so that it shows
/// across them too.
fn mean_stroke(b: bool) -> Stroke {
    if b {
        Stroke::dashed(Color(120, 35, 15), 0.5, 1.2, 0.7)
    } else {
        Stroke::solid(Color(5, 25, 75), 0.5)
    }
}

/// The legend of the distribution, right-aligned to `right` on baseline `y`.
fn legend(c: &mut Canvas, right: f32, y: f32, comparing: bool) {
    let mut entries = vec![("variant A", 0)];
    if comparing {
        entries.push(("variant B", 1));
    }
    entries.push(("mean", 2));
    let step = |label: &str| 6.5 + width_of(label, BODY) + 4.0;
    let mut x = right + 4.0 - entries.iter().map(|(l, _)| step(l)).sum::<f32>();
    for (label, kind) in entries {
        if kind < 2 {
            swatch(c, x, y - 2.7, 5.0, 3.2, kind == 1);
        } else {
            c.line(x + 1.2, y - 3.2, x + 1.2, y + 0.6, mean_stroke(false));
            if comparing {
                c.line(x + 3.6, y - 3.2, x + 3.6, y + 0.6, mean_stroke(true));
            }
        }
        write(c, (x + 6.5, y), f32::MAX, BODY, Anchor::Start, label);
        x += step(label);
    }
}

/// Grouped bars of every seat's final score per bucket, A beside B, in the
/// box `(x, y, w, h)`, with each variant's mean score marked.
pub(super) fn distribution(c: &mut Canvas, (x, y, w, h): (f32, f32, f32, f32), report: &Report) {
    let histogram = &report.histogram;
    let n = histogram.from.len();
    let comparing = histogram.b.is_some();
    let title = "Final scores of all seats";
    write(c, (x, y + 4.0), w, BLOCK_HEAD, Anchor::Start, title);
    legend(c, x + w, y + 4.0, comparing);

    let (px, py) = (x + 11.0, y + 14.0);
    let (pw, ph) = (w - 11.0, h - 14.0 - 10.5);
    let bottom = py + ph;
    let a = shares(&histogram.a);
    let b = histogram.b.as_deref().map(shares);
    let highest = a
        .iter()
        .chain(b.iter().flatten())
        .fold(0.0, |m, &s| s.max(m))
        * 100.0;
    let step = nice_step((highest / 5.0).max(1.0));
    let top = ((highest / step).ceil() * step).max(step);
    let y_of = |share: f64| bottom - ((share * 100.0 / top) as f32).clamp(0.0, 1.0) * ph;
    let places = decimals(step);
    let ticks = (top / step).round() as usize;
    for k in 0..=ticks {
        let tick = k as f64 * step;
        let ty = bottom - (tick / top) as f32 * ph;
        if k > 0 {
            c.line(px, ty, px + pw, ty, Stroke::solid(Color::LIGHT, 0.2));
        }
        c.line(px - 1.0, ty, px, ty, Stroke::solid(Color::BLACK, 0.25));
        write(
            c,
            (px - 1.6, ty + 0.9),
            10.0,
            SMALL,
            Anchor::End,
            format!("{tick:.places$}%"),
        );
    }
    if n == 0 {
        let middle = (px + pw / 2.0, py + ph / 2.0);
        write(c, middle, pw, BODY_GREY, Anchor::Middle, "no games");
    }
    let group = pw / n.max(1) as f32;
    let (bar, gap) = if comparing {
        ((group * 0.38).min(10.0), 0.3)
    } else {
        ((group * 0.6).min(14.0), 0.0)
    };
    for i in 0..n {
        let cx = px + (i as f32 + 0.5) * group;
        let top_a = y_of(a[i]);
        let a_x = if comparing {
            cx - gap - bar
        } else {
            cx - bar / 2.0
        };
        c.rect(a_x, top_a, bar, bottom - top_a, 0.0, Some(A_COLOR), None);
        if let Some(b) = &b {
            let top_b = y_of(b[i]);
            let rect = (cx + gap, top_b, bar, bottom - top_b);
            if rect.3 > 0.0 {
                c.rect(rect.0, rect.1, rect.2, rect.3, 0.0, Some(B_TINT), None);
                hatch(c, rect, 1.0, Stroke::solid(B_COLOR, 0.25));
                let outline = Some(Stroke::solid(B_COLOR, 0.35));
                c.rect(rect.0, rect.1, rect.2, rect.3, 0.0, None, outline);
            }
        }
        let label = histogram.label(i);
        write(
            c,
            (cx, bottom + 3.6),
            group - 0.8,
            SMALL,
            Anchor::Middle,
            label,
        );
    }
    c.line(
        px,
        bottom,
        px + pw,
        bottom,
        Stroke::solid(Color::BLACK, 0.3),
    );
    c.line(px, py, px, bottom, Stroke::solid(Color::BLACK, 0.3));
    let axis = "final score (points), in buckets; bar height: share of that variant's seats";
    let axis_font = font(2.7, Weight::Regular, Color::GREY);
    write(
        c,
        (px + pw / 2.0, bottom + 8.3),
        pw,
        axis_font,
        Anchor::Middle,
        axis,
    );

    // The means, where the bucket of a score spans [from – ½, from + width – ½).
    if n == 0 {
        return;
    }
    let first = histogram.from[0] as f64 - 0.5;
    let bucket = histogram.width.max(1) as f64;
    let x_of = |score: f64| px + (((score - first) / bucket) as f32 * group).clamp(0.0, pw);
    let means = report.row("mean_score");
    let mut marks: Vec<(f64, bool)> = Vec::new();
    if let Some(e) = means.and_then(|r| r.a) {
        marks.push((e.estimate, false));
    }
    if let Some(e) = means.and_then(|r| r.b).filter(|_| comparing) {
        marks.push((e.estimate, true));
    }
    marks.retain(|(m, _)| m.is_finite());
    // The lower mean's tag goes left of its line, the higher one's right.
    let lower_is_b = marks.len() == 2 && marks[1].0 < marks[0].0;
    for &(mean, is_b) in &marks {
        let mx = x_of(mean);
        c.line(mx, bottom, mx, py - 4.5, mean_stroke(is_b));
        let tag = format!(
            "{} mean {}",
            if is_b { "B" } else { "A" },
            Unit::Points.show(mean)
        );
        let tag_font = font(2.8, Weight::Bold, if is_b { B_COLOR } else { A_COLOR });
        let tw = width_of(&tag, tag_font);
        let left = if marks.len() == 2 {
            is_b == lower_is_b
        } else {
            mx > px + pw / 2.0
        };
        let (tx, anchor) = if left {
            ((mx - 1.0).max(x + tw), Anchor::End)
        } else {
            ((mx + 1.0).min(x + w - tw), Anchor::Start)
        };
        write(c, (tx, py - 2.0), tw, tag_font, anchor, tag);
    }
}
