//! The 100-page print job benchmark: `cargo run --release --example bench_render`.
//!
//! Builds 100 pages of the default sheet (100 copies, one per page) and
//! measures, side by side, the time to write them as PDF and as SVG. If
//! `rsvg-convert` is installed, it converts our own SVG of the same pages to
//! PDF, the baseline for file size and time. Figures are medians of several
//! runs, printed as ratios; this is a benchmark, never a test assertion.

use std::process::Command;
use std::time::{Duration, Instant};
use sunfold::print::soleils::sheet;
use sunfold::render::paper::{Paper, impose};
use sunfold::render::scene::Scene;
use sunfold::render::{pdf, svg};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn time<T>(runs: usize, mut job: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(job());
        times.push(start.elapsed());
    }
    (median(times), last.unwrap())
}

fn main() {
    let text = std::fs::read_to_string("sheet-templates/62-soleils-d-ete.json").unwrap();
    let raw: sunfold::soleils::template::RawTemplate = serde_json::from_str(&text).unwrap();
    let template = sunfold::soleils::Template::try_from(raw).unwrap();
    let runs = 7;
    let build = || {
        let mut pieces = Vec::new();
        for _ in 0..100 {
            pieces.extend(sheet::pages(
                &template,
                sheet::Options {
                    name: None,
                    large: false,
                },
                None,
            ));
        }
        Scene {
            title: template.name().to_owned(),
            pages: impose(Paper::A4, 1, (sheet::WIDTH, sheet::HEIGHT), pieces),
        }
    };
    let (scene_time, scene) = time(runs, build);
    assert_eq!(scene.pages.len(), 100);
    let (pdf_time, pdf_bytes) = time(runs, || pdf::to_pdf(&scene).unwrap());
    let (svg_time, svg_text) = time(runs, || svg::to_svg(&scene).unwrap());
    let (job_time, _) = time(runs, || pdf::to_pdf(&build()).unwrap());
    println!("100-page print job of the default sheet ({runs} runs, medians)");
    println!(
        "  build the scene          {:>8.1} ms",
        scene_time.as_secs_f64() * 1e3
    );
    println!(
        "  write PDF                {:>8.1} ms  {:>9} bytes",
        pdf_time.as_secs_f64() * 1e3,
        pdf_bytes.len()
    );
    println!(
        "  write SVG                {:>8.1} ms  {:>9} bytes",
        svg_time.as_secs_f64() * 1e3,
        svg_text.len()
    );
    println!(
        "  whole job, scene to PDF  {:>8.1} ms  (target: well under 1000 ms)",
        job_time.as_secs_f64() * 1e3
    );
    let dir = std::env::temp_dir();
    let svg_path = dir.join("sunfold-bench.svg");
    let pdf_path = dir.join("sunfold-bench-rsvg.pdf");
    std::fs::write(&svg_path, &svg_text).unwrap();
    let mut rsvg_times = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let status = Command::new("rsvg-convert")
            .arg("-f")
            .arg("pdf")
            .arg("-o")
            .arg(&pdf_path)
            .arg(&svg_path)
            .status();
        match status {
            Ok(s) if s.success() => rsvg_times.push(start.elapsed()),
            _ => {
                println!(
                    "  rsvg-convert not available: no baseline (apt-get install librsvg2-bin)"
                );
                return;
            }
        }
    }
    let rsvg_time = median(rsvg_times);
    let rsvg_size = std::fs::metadata(&pdf_path).unwrap().len();
    println!(
        "  baseline: rsvg-convert -f pdf of our SVG {:>8.1} ms  {:>9} bytes",
        rsvg_time.as_secs_f64() * 1e3,
        rsvg_size
    );
    println!(
        "  ratios: sunfold PDF is {:.3}x the baseline's size and takes {:.3}x its time",
        pdf_bytes.len() as f64 / rsvg_size as f64,
        job_time.as_secs_f64() / rsvg_time.as_secs_f64()
    );
}
