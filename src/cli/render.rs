//! `sunfold render`: blank sheets, card layouts and scored replays as PDF or
//! SVG, chosen by the output file's extension.

use super::Exit;
use super::error::CliError;
use super::load::{Loaded, load};
use crate::render::paper::{Paper, impose};
use crate::render::scene::{Document, Scene, Typeset};
use crate::render::soleils::sheet;
use crate::render::text::Fonts;
use crate::render::{pdf, svg, text};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod names;

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
    /// Sheets per page, with cut lines between them. Without --copies or
    /// --names, that many copies fill the page.
    #[arg(long, value_enum, default_value_t = PerPage::One)]
    pub per_page: PerPage,
    /// How many copies of each sheet (1 to 500).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_COPIES as i64))]
    pub copies: Option<u16>,
    /// Comma-separated player names, one personalised sheet each (at most 500).
    #[arg(long, value_delimiter = ',', conflicts_with = "names_file")]
    pub names: Vec<String>,
    /// Player names from a UTF-8 file, one per line (blank lines are
    /// skipped), so that a name may hold a comma.
    #[arg(long, value_name = "FILE")]
    pub names_file: Option<PathBuf>,
    /// Accessible large print: twice the size, thick strokes, black on
    /// white, no meaning carried by colour; page 1 holds the name line and
    /// the sun track, then each zone stands whole on a page with its rule
    /// in words. A4 or Letter, one sheet per page.
    #[arg(long)]
    pub large_print: bool,
    /// A TrueType or OpenType font (.ttf, .otf, .ttc) for the characters
    /// the built-in Liberation Sans lacks (such as Chinese or Arabic). May
    /// be repeated: each character comes from the first font that has it,
    /// the built-in one first.
    #[arg(long, value_name = "FILE")]
    pub font: Vec<PathBuf>,
}

/// Where a scene goes, by the output's extension.
pub(super) enum Target {
    Pdf(PathBuf),
    Svg(PathBuf),
    Stdout,
}

pub(super) fn target(output: &Path) -> Result<Target, CliError> {
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
        _ => Err(CliError::Usage(format!(
            "{}: expected an output ending in .pdf or .svg (or - for SVG on standard output)",
            output.display()
        ))),
    }
}

/// The fonts to lay out and write in: the built-in ones, followed by the
/// `--font` files in order.
fn use_font(fonts: &[PathBuf]) -> Result<Arc<Fonts>, CliError> {
    Fonts::with_fallbacks(fonts).map_err(|e| CliError::Usage(e.to_string()))
}

/// A missing glyph, and what to do about it: a font to add, named for
/// the scripts whose fonts Debian packages.
fn missing(e: text::UnsupportedCharacter) -> String {
    let such_as = match e.ch {
        '\u{0600}'..='\u{06FF}'
        | '\u{0750}'..='\u{077F}'
        | '\u{08A0}'..='\u{08FF}'
        | '\u{FB50}'..='\u{FDFF}'
        | '\u{FE70}'..='\u{FEFF}' => {
            ", such as Noto Sans Arabic: --font /usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf (fonts-noto-core)"
        }
        '\u{2E80}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' => {
            ", such as Noto Sans CJK: --font /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc (fonts-noto-cjk)"
        }
        _ => "",
    };
    format!("{e}; add a font that has it with --font FILE.ttf (or .otf){such_as}")
}

/// Writes the document in the target's format, in the fonts it was laid
/// out in (a bare scene: the built-in ones).
pub(super) fn write(document: &impl Typeset, target: &Target) -> Result<Exit, CliError> {
    write_boxed(document, &[], target)
}

/// [`write`], with each PDF page's trim and bleed boxes.
fn write_boxed(
    document: &impl Typeset,
    boxes: &[crate::render::paper::PrintBoxes],
    target: &Target,
) -> Result<Exit, CliError> {
    let scene = document.scene();
    let bytes = match target {
        Target::Pdf(_) => pdf::to_pdf_boxed(document, boxes).map_err(|e| match e {
            pdf::PdfError::Missing(e) => missing(e),
            e => e.to_string(),
        }),
        Target::Svg(_) | Target::Stdout => svg::to_svg(document)
            .map(String::into_bytes)
            .map_err(missing),
    };
    let bytes = bytes.map_err(CliError::Refused)?;
    match target {
        Target::Stdout => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)
                .and_then(|_| out.flush())
                .map_err(|e| CliError::io(Path::new("-"), e))?;
        }
        Target::Pdf(path) | Target::Svg(path) => {
            crate::atomic::write(path, &bytes).map_err(|e| CliError::io(path, e))?;
            eprintln!(
                "wrote {} ({} page{}, {} bytes)",
                path.display(),
                scene.pages.len(),
                if scene.pages.len() == 1 { "" } else { "s" },
                bytes.len()
            );
        }
    }
    Ok(Exit::Valid)
}

/// The most copies, or names, one print job takes.
const MAX_COPIES: u16 = 500;

/// Refuses the sheet flags that make no sense together, before anything
/// is drawn.
fn check_sheet_args(args: &SheetArgs, names: &[String]) -> Result<(), CliError> {
    if args.large_print && args.per_page != PerPage::One {
        return Err(CliError::Usage(format!(
            "expected --per-page 1 with --large-print, whose pages are A4 or Letter at twice the size, but found --per-page {}",
            args.per_page.count()
        )));
    }
    if args.large_print && args.paper == PaperArg::A5 {
        return Err(CliError::Usage(
            "expected --paper a4 or letter with --large-print, but found a5, which would shrink its numbers below twice the standard size".to_owned(),
        ));
    }
    let sheets = names.len().max(1) * usize::from(args.copies.unwrap_or(1));
    if sheets > 10 * usize::from(MAX_COPIES) {
        return Err(CliError::Usage(format!(
            "expected at most {} sheets in one job, but --names and --copies ask for {sheets}",
            10 * MAX_COPIES
        )));
    }
    Ok(())
}

pub fn sheet(args: &SheetArgs) -> Result<Exit, CliError> {
    let given = names::names(args)?;
    check_sheet_args(args, &given)?;
    let target = target(&args.output)?;
    let fonts = use_font(&args.font)?;
    let template = match load(&args.template) {
        Ok(Loaded::Sheet(template)) => template,
        Ok(Loaded::Deck(_)) => {
            return Err(CliError::Usage(format!(
                "{}: expected a 62 Soleils sheet template, but found a Summertime deck (use render cards)",
                args.template.display()
            )));
        }
        Err(e) => return Err(super::template::problems(&args.template, e)),
    };
    let names: Vec<Option<&str>> = if given.is_empty() {
        vec![None]
    } else {
        given.iter().map(|n| Some(n.as_str())).collect()
    };
    // Without --copies, a page of --per-page N holds N copies of one sheet.
    let per_page = if args.large_print {
        1
    } else {
        args.per_page.count()
    };
    let copies = args.copies.unwrap_or(if given.is_empty() {
        u16::from(per_page)
    } else {
        1
    });
    // A sheet that would print below 6 pt in its slot turns compact.
    let slot = crate::render::paper::layout(args.paper.into(), per_page).slots[0];
    let size = sheet::Size::for_slot(
        args.large_print,
        (slot.2, slot.3),
        names::SMALLEST_PT * crate::render::scene::MM_PER_PT,
    );
    let mut pieces = Vec::new();
    for name in &names {
        for _ in 0..copies {
            pieces.extend(sheet::pages_sized(&fonts, &template, *name, size, None));
        }
    }
    let scene = Scene {
        title: template.name().to_owned(),
        pages: impose(args.paper.into(), per_page, size.natural(), pieces),
    };
    let how = format!(
        "--per-page {per_page} on {}{}",
        format!("{:?}", args.paper).to_lowercase(),
        if size == sheet::Size::Compact {
            " in the compact layout"
        } else {
            ""
        }
    );
    // A missing glyph first: its missing-glyph width would shrink the text.
    scene
        .check_text(&fonts)
        .map_err(|e| CliError::Refused(missing(e)))?;
    names::check_legible(&scene, &fonts, &given, &how)?;
    write(&Document::new(scene, fonts.clone()), &target)
}

/// Whether `output` names an HTML file: the replay viewer.
fn is_html(output: &Path) -> bool {
    output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The match log.
    pub file: PathBuf,
    /// Where to write: a .pdf or .svg file, - for SVG on standard output,
    /// or a .html file: a self-contained viewer that steps through the
    /// match event by event, in any browser, with no network.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Draw the state after the event with this seq instead of the end;
    /// for .html, the event the viewer opens at.
    #[arg(long, value_name = "SEQ")]
    pub at: Option<u64>,
    #[arg(long, value_enum, default_value_t = PaperArg::A4)]
    pub paper: PaperArg,
    /// A TrueType or OpenType font (.ttf, .otf, .ttc) for the characters
    /// the built-in Liberation Sans lacks (such as Chinese or Arabic). May
    /// be repeated: each character comes from the first font that has it,
    /// the built-in one first.
    #[arg(long, value_name = "FILE")]
    pub font: Vec<PathBuf>,
    /// For .html: judge every decision as `sunfold analyse` does and mark
    /// each one that lost points in the event list, with the better
    /// decision under the status when it is shown. The log must fold.
    #[arg(long)]
    pub analyse: bool,
    /// With --analyse, the judging bot: search (64 rollouts) or search:N.
    #[arg(long, value_parser = super::simulate::parse_bot, requires = "analyse")]
    pub bot: Option<crate::sim::Bot>,
    /// With --analyse, the seed of the rollouts: the same seed gives the
    /// same marks.
    #[arg(long, requires = "analyse")]
    pub seed: Option<u64>,
}

pub fn replay(args: &ReplayArgs) -> Result<Exit, CliError> {
    use super::game::{ForGame, Shown, dispatch};
    use crate::log::Opened;
    use std::io::BufRead;
    struct Draw<'a>(&'a ReplayArgs, Arc<Fonts>);
    impl<R: BufRead> ForGame<R> for Draw<'_> {
        type Output = Result<Document, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            let Draw(args, fonts) = self;
            let caption = replay_caption(args);
            let mut course = G::Course::default();
            let fold = super::replay::fold::<G, _>(
                &args.file,
                opened,
                args.at,
                super::Format::Text,
                &mut |state| G::observe(&mut course, state),
            )?;
            Ok(G::replay(
                &fonts,
                fold.state(),
                course,
                args.paper.into(),
                &caption,
            ))
        }
    }
    if is_html(&args.output) {
        // The viewer draws its panels in the built-in fonts, which the
        // browser is sure to have in the SVG's font list: a font file is
        // still read, so that a bad one is refused as before.
        use_font(&args.font)?;
        let analyse = args.analyse.then(|| super::viewer::Analyse {
            bot: args
                .bot
                .unwrap_or(crate::sim::Bot::Search(crate::sim::DEFAULT_ROLLOUTS)),
            seed: args.seed.unwrap_or(1),
        });
        return super::viewer::write(&args.file, &args.output, args.at, analyse);
    }
    if args.analyse {
        return Err(CliError::Usage(format!(
            "{}: expected an output ending in .html with --analyse, which marks the decisions in the viewer",
            args.output.display()
        )));
    }
    let target = target(&args.output)?;
    let fonts = use_font(&args.font)?;
    let opened = super::replay::open(&args.file, super::Format::Text)?;
    let document = dispatch(opened, Draw(args, fonts.clone()))?;
    document
        .scene
        .check_text(&fonts)
        .map_err(|e| CliError::Refused(missing(e)))?;
    let paper = format!("{:?}", args.paper).to_lowercase();
    names::check_floor(
        &document.scene,
        &format!("the replay on --paper {paper}"),
        "use --paper a4 or letter",
    )?;
    write(&document, &target)
}

/// The caption of a scored replay: the log, and the event it stops after.
fn replay_caption(args: &ReplayArgs) -> String {
    match args.at {
        Some(at) => format!("{}, after event {at}", args.file.display()),
        None => format!("{}", args.file.display()),
    }
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
    /// For a print shop: run each card's background this many millimetres
    /// (0 to 5) past its cut lines, with the crop marks moved out to the
    /// page's edges.
    #[arg(long, value_name = "MM", default_value_t = 0.0, value_parser = parse_bleed)]
    pub bleed: f32,
    /// A TrueType or OpenType font (.ttf, .otf, .ttc) for the characters
    /// the built-in Liberation Sans lacks (such as Chinese or Arabic). May
    /// be repeated: each character comes from the first font that has it,
    /// the built-in one first.
    #[arg(long, value_name = "FILE")]
    pub font: Vec<PathBuf>,
}

fn parse_bleed(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(mm) if (0.0..=5.0).contains(&mm) => Ok(mm),
        _ => Err(format!(
            "expected a bleed of 0 to 5 mm, such as 3, but found {text:?}"
        )),
    }
}

pub fn cards(args: &CardsArgs) -> Result<Exit, CliError> {
    let target = target(&args.output)?;
    let fonts = use_font(&args.font)?;
    let deck = match load(&args.deck) {
        Ok(Loaded::Deck(deck)) => deck,
        Ok(Loaded::Sheet(_)) => {
            return Err(CliError::Usage(format!(
                "{}: expected a Summertime deck, but found a 62 Soleils sheet template (use render sheet)",
                args.deck.display()
            )));
        }
        Err(e) => return Err(super::template::problems(&args.deck, e)),
    };
    let (document, boxes) =
        crate::render::summertime::cards::print(&fonts, &deck, args.paper.into(), args.bleed);
    document
        .scene
        .check_text(&fonts)
        .map_err(|e| CliError::Refused(missing(e)))?;
    names::check_floor(
        &document.scene,
        &format!("the deck {}", args.deck.display()),
        "shorten that name in the deck, or use a narrower --font",
    )?;
    write_boxed(&document, &boxes, &target)
}
