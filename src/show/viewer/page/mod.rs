//! The HTML replay viewer: one self-contained file that steps through a
//! match event by event.
//!
//! Rust computes everything the page shows: each panel (a 62 Soleils
//! sheet, the Summertime table) is drawn by the same scene code as the PDF,
//! and [`Panels`] records, event by event, which of its SVG items changed.
//! The page's script (`viewer.js`) only swaps those items, moves the
//! highlight and fills in the numbers given to it; it implements no rule.
//!
//! The page makes no request of any kind: its script and style are inline,
//! allowed by their SHA-256 in a Content-Security-Policy that forbids
//! everything else.
//!
//! Its files: [`panels`] (each state's drawings, sent once) and [`chart`]
//! (the score chart).

mod chart;
mod panels;

pub use panels::{Change, Panels, escape};

use serde::Serialize;
use sha2::{Digest, Sha256};

const SCRIPT: &str = include_str!("viewer.js");
const STYLE: &str = include_str!("viewer.css");
/// Added only to a viewer with an analysis: it shows the better decision
/// under the status when a judged event is shown.
const ANALYSIS_SCRIPT: &str = include_str!("analysis.js");
const ANALYSIS_STYLE: &str = include_str!("analysis.css");

/// One line of the log, as the viewer lists it.
pub struct Frame {
    pub seq: u64,
    /// The line number in the log file.
    pub line: usize,
    /// The entry's kind, as in the log (`placed`, `undone`…).
    pub kind: String,
    /// The player whose decision it is, if any.
    pub actor: Option<usize>,
    /// A plain sentence: "Maxime placed 6 in C2a".
    pub text: String,
    /// Where the game stands after it: "turn 3 of 10, dice 4-5-2".
    pub status: String,
    /// The round (or turn) it belongs to, for Page Up and Page Down.
    pub section: u64,
    /// Each player's score after it, in seating order.
    pub scores: Vec<i64>,
    /// The seq of the `undone` entry that took this decision back.
    pub undone_by: Option<u64>,
}

/// The first line the engine refused, shown after the last good event.
pub struct Failure {
    pub line: usize,
    /// The seq the line carries, or the one expected there.
    pub seq: u64,
    /// The entry's kind, when it could be read.
    pub kind: Option<String>,
    /// The located message, as the command line prints it.
    pub message: String,
    /// Why the line was refused, without its place.
    pub reason: String,
    /// "The log breaks a rule at line 9", or "Line 2 cannot be read".
    pub heading: String,
    /// What to do about it, when there is something (a torn line).
    pub hint: Option<String>,
    /// The player whose decision it was, when it decoded.
    pub actor: Option<usize>,
    /// What the rules allowed instead, each a plain sentence.
    pub alternatives: Vec<String>,
    /// Whether `alternatives` is everything allowed at that point (the line
    /// did not decode) rather than what could replace its decision.
    pub allowed: bool,
}

/// A `claimed` entry: the scores written on paper at one event.
pub struct Claim {
    /// The index of its frame.
    pub frame: usize,
    /// For each player: the claimed total and the verdict against the
    /// computed score at that event ("agrees", "differs by +3").
    pub players: Vec<Option<(i64, String)>>,
}

/// A decision that lost points, as `sunfold analyse` judged it.
pub struct Judged {
    /// The index of its frame.
    pub frame: usize,
    /// The better decision, in words.
    pub best: String,
    /// The player's expected final score after the decision taken, and
    /// after the better one.
    pub taken_score: f64,
    pub best_score: f64,
    /// The points lost, with their 95% interval.
    pub lost: f64,
    pub lost_ci95: [f64; 2],
    /// The interval leaves out 0.
    pub costly: bool,
}

/// What `--analyse` adds: each decision that lost points.
pub struct Analysis {
    /// The judging bot, such as `search:8`.
    pub bot: String,
    pub seed: u64,
    /// What a point lost is: `score` (62 Soleils) or `lead` (Summertime).
    pub value: String,
    /// How many decisions were judged.
    pub decisions: usize,
    /// The decisions that lost points, in log order.
    pub judged: Vec<Judged>,
}

/// Everything the viewer shows.
pub struct Replay {
    /// The page title: the game and the file.
    pub title: String,
    /// What was replayed: the file, as given.
    pub caption: String,
    /// The hash chain's verdict: "chained: all 373 hashes verified".
    pub chain: String,
    /// "round" or "turn".
    pub section_name: &'static str,
    pub players: Vec<String>,
    pub frames: Vec<Frame>,
    pub panels: Panels,
    /// A single, wide panel (the Summertime table) rather than one per
    /// player.
    pub wide: bool,
    pub claims: Vec<Claim>,
    pub failure: Option<Failure>,
    /// The frame to open at when the address names none.
    pub start: usize,
    /// The decisions judged by `--analyse`, if asked for.
    pub analysis: Option<Analysis>,
}

/// An analysed decision as the page's added script reads it.
#[derive(Serialize)]
struct MarkData {
    /// The line shown under the status.
    t: String,
    /// Whether it is costly.
    c: bool,
}

/// A number with one decimal, without a negative zero.
fn one_decimal(value: f64) -> String {
    let r = (value * 10.0).round() / 10.0;
    format!("{:.1}", if r == 0.0 { 0.0 } else { r })
}

/// The badge of a decision in the event list: the points lost, with a
/// true minus sign.
fn badge(judged: &Judged) -> String {
    format!("\u{2212}{}", one_decimal(judged.lost))
}

/// What a point lost is, in words.
fn points_of(analysis: &Analysis) -> &'static str {
    if analysis.value == "lead" {
        "points of lead"
    } else {
        "points"
    }
}

/// The line under the status when the decision is shown.
fn better_line(analysis: &Analysis, judged: &Judged) -> String {
    format!(
        "better: {} (expected score {} vs {}; lost {} [{}, {}] {}{})",
        judged.best,
        one_decimal(judged.best_score),
        one_decimal(judged.taken_score),
        one_decimal(judged.lost),
        one_decimal(judged.lost_ci95[0]),
        one_decimal(judged.lost_ci95[1]),
        points_of(analysis),
        if judged.costly { ", costly" } else { "" }
    )
}

#[derive(Serialize)]
struct Data<'a> {
    frags: &'a [String],
    frames: Vec<FrameData<'a>>,
    claims: Vec<Vec<Option<(i64, &'a str)>>>,
    start: usize,
    chart: chart::Axis,
}

#[derive(Serialize)]
struct FrameData<'a> {
    /// The seq, for the address.
    s: u64,
    /// The illegal line's number, whose address is `#line=N`: its seq may
    /// repeat an earlier one.
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<usize>,
    /// The section (round or turn).
    r: u64,
    /// The status line.
    p: &'a str,
    /// The scores.
    c: &'a [i64],
    /// The acting player, or -1.
    a: i64,
    /// The claim in force (the latest at or before), or -1.
    k: i64,
    /// The slot changes.
    d: &'a [Change],
}

/// Base64 of `bytes`, for a CSP hash source.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A CSP source allowing the inline script or style `text`.
pub fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(text.as_bytes())))
}

/// JSON inside a `<script type="application/json">`: no `</` may close it.
fn script_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .expect("viewer data serializes")
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}

/// The viewer as one HTML document.
pub fn html(replay: &Replay) -> String {
    let e = escape;
    let mut claim_at = Vec::with_capacity(replay.frames.len() + 1);
    let mut k = -1i64;
    let frames_total = replay.frames.len() + usize::from(replay.failure.is_some());
    for i in 0..frames_total {
        while let Some(claim) = replay.claims.get((k + 1) as usize)
            && claim.frame <= i
        {
            k += 1;
        }
        claim_at.push(k);
    }
    let mut frames: Vec<FrameData> = replay
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| FrameData {
            s: f.seq,
            l: None,
            r: f.section,
            p: &f.status,
            c: &f.scores,
            a: f.actor.map_or(-1, |a| a as i64),
            k: claim_at[i],
            d: replay.panels.changes(i),
        })
        .collect();
    if let (Some(failure), Some(last)) = (&replay.failure, replay.frames.last()) {
        frames.push(FrameData {
            s: failure.seq,
            l: Some(failure.line),
            r: last.section,
            p: &last.status,
            c: &last.scores,
            a: failure.actor.map_or(-1, |a| a as i64),
            k: claim_at[replay.frames.len()],
            d: &[],
        });
    }
    let scores: Vec<&[i64]> = replay.frames.iter().map(|f| &f.scores[..]).collect();
    let (chart_svg, axis) = chart::scores(
        replay.panels.fonts(),
        &replay.players,
        &scores,
        frames.len(),
    );
    let data = Data {
        frags: replay.panels.fragments(),
        frames,
        claims: replay
            .claims
            .iter()
            .map(|c| {
                c.players
                    .iter()
                    .map(|p| p.as_ref().map(|(v, verdict)| (*v, verdict.as_str())))
                    .collect()
            })
            .collect(),
        start: replay.start,
        chart: axis,
    };
    let (script_src, style_src) = match &replay.analysis {
        None => (csp_hash(SCRIPT), csp_hash(STYLE)),
        Some(_) => (
            format!("{} {}", csp_hash(SCRIPT), csp_hash(ANALYSIS_SCRIPT)),
            format!("{} {}", csp_hash(STYLE), csp_hash(ANALYSIS_STYLE)),
        ),
    };
    let csp = format!(
        "default-src 'none'; script-src {script_src}; style-src {style_src}; img-src 'none'; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'"
    );
    let marks: std::collections::BTreeMap<usize, &Judged> = replay
        .analysis
        .iter()
        .flat_map(|a| a.judged.iter().map(|j| (j.frame, j)))
        .collect();
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
    ));
    h.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    h.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    h.push_str(&format!("<title>{}</title>\n", e(&replay.title)));
    h.push_str(&format!("<style>{STYLE}</style>\n"));
    if replay.analysis.is_some() {
        h.push_str(&format!("<style>{ANALYSIS_STYLE}</style>\n"));
    }
    h.push_str("</head>\n<body>\n");
    // The heading and the controls.
    h.push_str(&format!(
        "<header><h1>{}</h1><p class=\"caption\">{} · {}</p></header>\n",
        e(&replay.title),
        e(&replay.caption),
        e(&replay.chain)
    ));
    let last = frames_total.saturating_sub(1);
    let section = replay.section_name;
    h.push_str("<nav class=\"controls\" aria-label=\"Replay controls\">\n");
    let button = |id: &str, label: &str, key: &str, text: &str| {
        format!(
            "<button type=\"button\" id=\"{id}\" aria-label=\"{label}\" title=\"{label} ({key})\" aria-keyshortcuts=\"{key}\">{text}</button>"
        )
    };
    h.push_str(&button("first", "Start", "Home", "|◀"));
    h.push_str(&button(
        "prev-section",
        &format!("Previous {section}"),
        "PageUp",
        "◀◀",
    ));
    h.push_str(&button("prev", "Previous event", "ArrowLeft", "◀"));
    h.push_str(&format!(
        "<input type=\"range\" id=\"slider\" min=\"0\" max=\"{last}\" value=\"{}\" step=\"1\" aria-label=\"Event\">",
        replay.start
    ));
    h.push_str(&button("next", "Next event", "ArrowRight", "▶"));
    h.push_str(&button(
        "next-section",
        &format!("Next {section}"),
        "PageDown",
        "▶▶",
    ));
    h.push_str(&button("last", "End", "End", "▶|"));
    h.push_str("<p id=\"position\" class=\"position\"></p>\n");
    h.push_str(&format!(
        "<p class=\"jumps\"><button type=\"button\" class=\"jump\" data-to=\"board\">{}</button><button type=\"button\" class=\"jump\" data-to=\"scores-title\">Scores</button><button type=\"button\" class=\"jump\" data-to=\"events-title\">Events</button></p>\n",
        if replay.wide { "Table" } else { "Sheets" }
    ));
    h.push_str("<p id=\"now\" class=\"now\" aria-live=\"polite\"></p>\n<p id=\"status\" class=\"status\"></p>\n");
    if replay.analysis.is_some() {
        h.push_str("<p id=\"better\" class=\"better\" aria-live=\"polite\"></p>\n");
    }
    h.push_str("</nav>\n");
    h.push_str("<main>\n");
    // The failure, if any.
    if let Some(failure) = &replay.failure {
        h.push_str(
            "<section class=\"failure\" id=\"failure\" aria-labelledby=\"failure-title\">\n",
        );
        h.push_str(&format!(
            "<h2 id=\"failure-title\">{}</h2>\n<p class=\"reason\">{}</p>\n",
            e(&failure.heading),
            e(&failure.message)
        ));
        if let Some(hint) = &failure.hint {
            h.push_str(&format!("<p>{}</p>\n", e(hint)));
        }
        h.push_str(&format!(
            "<p>The {} the state before this line.</p>\n",
            if replay.wide {
                "table shows"
            } else {
                "sheets show"
            }
        ));
        let what = if failure.allowed {
            "What the rules allowed at this point"
        } else {
            "What the rules allowed instead"
        };
        if failure.alternatives.is_empty() {
            h.push_str("<p>The rules allowed no event at this point.</p>\n");
        } else {
            h.push_str(&format!(
                "<details open><summary>{what} ({})</summary><ul class=\"alternatives\">",
                failure.alternatives.len()
            ));
            for a in &failure.alternatives {
                h.push_str(&format!("<li>{}</li>", e(a)));
            }
            h.push_str("</ul></details>\n");
        }
        h.push_str("</section>\n");
    }
    // The board: one panel per player, or the table.
    h.push_str(&format!(
        "<section id=\"board\" class=\"board{}\" aria-label=\"{}\" tabindex=\"-1\">\n",
        if replay.wide { " wide" } else { "" },
        if replay.wide { "The table" } else { "Sheets" }
    ));
    for (p, name) in replay.panels.names().enumerate() {
        let label = if replay.wide {
            name.to_owned()
        } else {
            format!("{name}'s sheet")
        };
        h.push_str(&format!(
            "<figure class=\"panel\" id=\"panel-{p}\" data-player=\"{}\"><figcaption><span class=\"panel-name\">{}</span> <button type=\"button\" class=\"enlarge\" aria-pressed=\"false\"><span class=\"verb\">Show large</span><span class=\"hidden\"> ({})</span></button></figcaption>\n{}\n</figure>\n",
            if replay.wide { -1 } else { p as i64 },
            e(name),
            e(&label),
            replay.panels.base_svg(p, &label)
        ));
    }
    h.push_str("</section>\n<aside>\n");
    // The scores.
    h.push_str("<section aria-labelledby=\"scores-title\"><h2 id=\"scores-title\">Scores</h2>\n<table id=\"scores\"><thead><tr><th scope=\"col\">Player</th><th scope=\"col\">Score</th>");
    if !replay.claims.is_empty() {
        h.push_str("<th scope=\"col\">Claimed on paper</th>");
    }
    h.push_str("</tr></thead><tbody>");
    for name in &replay.players {
        h.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td class=\"score\"></td>{}</tr>",
            e(name),
            if replay.claims.is_empty() {
                ""
            } else {
                "<td class=\"claim\"></td>"
            }
        ));
    }
    h.push_str("</tbody></table>\n");
    h.push_str("</section>\n");
    // The event list.
    h.push_str("<section aria-labelledby=\"events-title\"><h2 id=\"events-title\">Events</h2>\n");
    if let Some(analysis) = &replay.analysis {
        let costly = analysis.judged.iter().filter(|j| j.costly).count();
        h.push_str(&format!(
            "<p class=\"analysis-note\">{} judged by {} (seed {}) against the best it found: {} lost {}, each marked with the {} lost; <span class=\"lost costly\">{} costly</span>: the 95% interval of their loss leaves out 0.</p>\n",
            crate::kit::words::plural(analysis.decisions as u64, "decision", "decisions"),
            e(&analysis.bot),
            analysis.seed,
            analysis.judged.len(),
            points_of(analysis),
            points_of(analysis),
            costly
        ));
    }
    h.push_str("<ol id=\"events\" class=\"events\">\n");
    for (i, f) in replay.frames.iter().enumerate() {
        let who = f
            .actor
            .and_then(|a| replay.players.get(a))
            .map_or(String::new(), |n| e(n));
        let (class, text) = match f.undone_by {
            Some(by) => (
                " class=\"undone\"",
                format!(
                    "<del title=\"taken back by event {by}\">{}</del> <span class=\"note\">(undone by event {by})</span>",
                    e(&f.text)
                ),
            ),
            None => ("", e(&f.text)),
        };
        let mark = marks.get(&i).map_or(String::new(), |j| {
            format!(
                "<span class=\"lost{}\" title=\"{}\">{}<span class=\"hidden\"> {}{}</span></span>",
                if j.costly { " costly" } else { "" },
                e(&better_line(
                    replay.analysis.as_ref().expect("marks come from it"),
                    j
                )),
                badge(j),
                points_of(replay.analysis.as_ref().expect("marks come from it")),
                if j.costly { " lost, costly" } else { " lost" }
            )
        });
        h.push_str(&format!(
            "<li{class} data-i=\"{i}\"><a href=\"#seq={}\"><span class=\"seq\">{}</span><span class=\"line\">line {}</span><span class=\"who\">{who}</span><span class=\"text\">{text}</span>{mark}</a></li>\n",
            f.seq, f.seq, f.line
        ));
    }
    if let Some(failure) = &replay.failure {
        h.push_str(&format!(
            "<li class=\"illegal\" data-i=\"{}\"><a href=\"#line={}\"><span class=\"seq\">{}</span><span class=\"line\">line {}</span><span class=\"who\"></span><span class=\"text\">refused{}: {}</span></a></li>\n",
            replay.frames.len(),
            failure.line,
            failure.seq,
            failure.line,
            failure
                .kind
                .as_ref()
                .map_or(String::new(), |k| format!(" ({})", e(k))),
            e(&failure.reason)
        ));
    }
    h.push_str("</ol>\n</section>\n");
    h.push_str(&format!(
        "<section aria-labelledby=\"chart-title\"><h2 id=\"chart-title\">Scores over the match</h2>\n<figure class=\"chart\">{chart_svg}<figcaption>Each player's score after each event; the red line marks the event shown.</figcaption></figure>\n</section>\n</aside>\n</main>\n"
    ));
    h.push_str(&format!(
        "<script type=\"application/json\" id=\"replay-data\">{}</script>\n",
        script_json(&data)
    ));
    h.push_str(&format!("<script>{SCRIPT}</script>\n"));
    if let Some(analysis) = &replay.analysis {
        let data: std::collections::BTreeMap<usize, MarkData> = marks
            .iter()
            .map(|(&i, j)| {
                let mark = MarkData {
                    t: better_line(analysis, j),
                    c: j.costly,
                };
                (i, mark)
            })
            .collect();
        h.push_str(&format!(
            "<script type=\"application/json\" id=\"analysis-data\">{}</script>\n<script>{ANALYSIS_SCRIPT}</script>\n",
            script_json(&data)
        ));
    }
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_rfc_examples() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), coded);
        }
    }

    #[test]
    fn script_json_cannot_close_its_script() {
        let text = script_json(&vec!["</script><script>alert(1)</script>"]);
        assert!(!text.contains("</"));
    }
}
