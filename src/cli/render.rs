//! `sunfold render`: blank sheets, card layouts and scored replays as PDF or
//! SVG, chosen by the output file's extension.

use super::load::{Loaded, load};
use super::{Exit, io_error};
use crate::render::paper::{Paper, impose};
use crate::render::scene::Scene;
use crate::render::{pdf, sheet, svg};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaperArg {
    A4,
    Letter,
    A5,
}

impl From<PaperArg> for Paper {
    fn from(p: PaperArg) -> Paper {
        match p {
            PaperArg::A4 => Paper::A4,
            PaperArg::Letter => Paper::Letter,
            PaperArg::A5 => Paper::A5,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerPage {
    #[value(name = "1")]
    One,
    #[value(name = "2")]
    Two,
    #[value(name = "4")]
    Four,
}

impl PerPage {
    fn count(self) -> u8 {
        match self {
            PerPage::One => 1,
            PerPage::Two => 2,
            PerPage::Four => 4,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct SheetArgs {
    /// The sheet template, such as sheet-templates/62-soleils-d-ete.json.
    pub template: PathBuf,
    /// Where to write: a .pdf or .svg file, or - for SVG on standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// Sheets per page, with cut lines between them.
    #[arg(long, value_enum, default_value_t = PerPage::One)]
    pub per_page: PerPage,
    /// How many copies of each sheet.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=500))]
    pub copies: u16,
    /// Comma-separated player names, one personalised sheet each.
    #[arg(long, value_delimiter = ',')]
    pub names: Vec<String>,
    /// Accessible large print: twice the size, thick strokes, black on
    /// white, no meaning carried by colour, one sheet over several pages.
    #[arg(long)]
    pub large_print: bool,
}

/// Where a scene goes, by the output's extension.
pub(super) enum Target {
    Pdf(PathBuf),
    Svg(PathBuf),
    Stdout,
}

pub(super) fn target(output: &Path) -> Result<Target, Exit> {
    if output == Path::new("-") {
        return Ok(Target::Stdout);
    }
    match output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_lowercase)
        .as_deref()
    {
        Some("pdf") => Ok(Target::Pdf(output.to_owned())),
        Some("svg") => Ok(Target::Svg(output.to_owned())),
        _ => {
            eprintln!(
                "sunfold: {}: expected an output ending in .pdf or .svg (or - for SVG on standard output)",
                output.display()
            );
            Err(Exit::Usage)
        }
    }
}

/// Writes the scene in the target's format.
pub(super) fn write(scene: &Scene, target: &Target) -> Exit {
    let bytes = match target {
        Target::Pdf(_) => pdf::to_pdf(scene).map_err(|e| e.to_string()),
        Target::Svg(_) | Target::Stdout => svg::to_svg(scene)
            .map(String::into_bytes)
            .map_err(|e| e.to_string()),
    };
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(message) => {
            eprintln!("sunfold: {message}");
            return Exit::Invalid;
        }
    };
    match target {
        Target::Stdout => {
            let mut out = std::io::stdout().lock();
            if out.write_all(&bytes).and_then(|_| out.flush()).is_err() {
                return Exit::Usage;
            }
        }
        Target::Pdf(path) | Target::Svg(path) => {
            if let Err(e) = std::fs::write(path, &bytes) {
                return io_error(path, &e);
            }
            eprintln!(
                "wrote {} ({} page{}, {} bytes)",
                path.display(),
                scene.pages.len(),
                if scene.pages.len() == 1 { "" } else { "s" },
                bytes.len()
            );
        }
    }
    Exit::Valid
}

pub fn sheet(args: &SheetArgs) -> Exit {
    let target = match target(&args.output) {
        Ok(target) => target,
        Err(exit) => return exit,
    };
    let template = match load(&args.template) {
        Ok(Loaded::Sheet(template)) => template,
        Ok(Loaded::Deck(_)) => {
            eprintln!(
                "sunfold: {}: expected a 62 Soleils sheet template, but found a Summertime deck (use render cards)",
                args.template.display()
            );
            return Exit::Usage;
        }
        Err(e) => return super::template::report(&args.template, e),
    };
    let names: Vec<Option<&str>> = if args.names.is_empty() {
        vec![None]
    } else {
        args.names.iter().map(|n| Some(n.trim())).collect()
    };
    let mut pieces = Vec::new();
    for name in &names {
        for _ in 0..args.copies {
            let options = sheet::Options {
                name: *name,
                large: args.large_print,
            };
            pieces.extend(sheet::pages(&template, options, None));
        }
    }
    let per_page = if args.large_print {
        1
    } else {
        args.per_page.count()
    };
    let scene = Scene {
        title: template.name().to_owned(),
        pages: impose(
            args.paper.into(),
            per_page,
            (sheet::WIDTH, sheet::HEIGHT),
            pieces,
        ),
    };
    write(&scene, &target)
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The match log.
    pub file: PathBuf,
    /// Where to write: a .pdf or .svg file, or - for SVG on standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Draw the state after the event with this seq instead of the end.
    #[arg(long, value_name = "SEQ")]
    pub at: Option<u64>,
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
}

pub fn replay(args: &ReplayArgs) -> Exit {
    use super::Format;
    use super::replay::{fold_file, open};
    use crate::log::GameKind;
    let target = match target(&args.output) {
        Ok(target) => target,
        Err(exit) => return exit,
    };
    let opened = match open(&args.file, Format::Text) {
        Ok(opened) => opened,
        Err(exit) => return exit,
    };
    let caption = match args.at {
        Some(at) => format!("{}, after event {at}", args.file.display()),
        None => format!("{}", args.file.display()),
    };
    let scene = match opened.game {
        GameKind::Soleils => {
            use crate::render::soleils_replay::{History, round_points, scene};
            let mut history: History = Vec::new();
            let mut last_round = 0;
            let mut observe = |state: &crate::soleils::State| {
                // One point per round, taken when every player has finished it.
                if state.round() > 0 && state.round_closed() && state.round() != last_round {
                    last_round = state.round();
                    history.push(round_points(state));
                }
            };
            let state = match fold_file::<crate::soleils::Soleils, _>(
                &args.file,
                opened,
                args.at,
                Format::Text,
                &mut observe,
            ) {
                Ok(fold) => fold.into_state(),
                Err(exit) => return exit,
            };
            if !state.round_closed() {
                history.push(round_points(&state));
            }
            scene(&state, &history, args.paper.into(), &caption)
        }
        GameKind::Summertime => {
            let state = match fold_file::<crate::summertime::Summertime, _>(
                &args.file,
                opened,
                args.at,
                Format::Text,
                &mut |_| {},
            ) {
                Ok(fold) => fold.into_state(),
                Err(exit) => return exit,
            };
            crate::render::summertime_replay::scene(&state, args.paper.into(), &caption)
        }
    };
    write(&scene, &target)
}

#[derive(clap::Args, Debug)]
pub struct CardsArgs {
    /// The Summertime deck, such as sheet-templates/summertime.json.
    pub deck: PathBuf,
    /// Where to write: a .pdf or .svg file, or - for SVG on standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
}

pub fn cards(args: &CardsArgs) -> Exit {
    let target = match target(&args.output) {
        Ok(target) => target,
        Err(exit) => return exit,
    };
    let deck = match load(&args.deck) {
        Ok(Loaded::Deck(deck)) => deck,
        Ok(Loaded::Sheet(_)) => {
            eprintln!(
                "sunfold: {}: expected a Summertime deck, but found a 62 Soleils sheet template (use render sheet)",
                args.deck.display()
            );
            return Exit::Usage;
        }
        Err(e) => return super::template::report(&args.deck, e),
    };
    write(
        &crate::render::cards::scene(&deck, args.paper.into()),
        &target,
    )
}
