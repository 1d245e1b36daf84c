//! `sunfold render`: blank sheets, card layouts and scored replays as PDF or
//! SVG, chosen by the output file's extension.

use super::Exit;
use super::error::CliError;
use super::load::checked;
use super::output::{FontArgs, PaperArg, target, write, write_boxed};
use crate::print::floor;
use crate::print::soleils::sheet::{self, job};
use crate::print::summertime::layout::{Bleed, Layout};
use crate::render::scene::Document;
use crate::render::text::Fonts;
use crate::template::file::Checked;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// --names, that many copies fill the page. 2 prints the compact sheet
    /// on landscape halves. 4 fits only a sheet whose smallest text stays
    /// at 6 pt or more at a quarter page: none of the bundled sheets, on
    /// any paper (their sun-track notes would print near 4 pt); it is
    /// refused, naming the text and its size, before anything is written.
    #[arg(long, value_enum, default_value_t = PerPage::One)]
    pub per_page: PerPage,
    /// How many copies of each sheet (1 to 500).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=job::MAX_COPIES as i64))]
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
    #[command(flatten)]
    pub fonts: FontArgs,
}

/// The names of `--names` or `--names-file`, as the print job takes them.
fn names(args: &SheetArgs) -> Result<Vec<String>, CliError> {
    let names = match &args.names_file {
        None => job::names(&args.names),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| CliError::io(path, e))?;
            job::names_in(path, &text)
        }
    };
    names.map_err(|e| CliError::Usage(e.to_string()))
}

pub fn sheet(args: &SheetArgs) -> Result<Exit, CliError> {
    let given = names(args)?;
    let (large, per_page, paper) = (args.large_print, args.per_page.count(), args.paper);
    job::check(large, per_page, paper.into(), given.len(), args.copies)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let target = target(&args.output)?;
    let source = args.fonts.source()?;
    let template = match checked(&args.template)? {
        Checked::Sheet(template) => template,
        Checked::Deck(_) => {
            return Err(CliError::Usage(format!(
                "{}: expected a 62 Soleils sheet template, but found a Summertime deck (use render cards)",
                args.template.display()
            )));
        }
    };
    // Without --copies, a page of --per-page N holds N copies of one sheet.
    let per_page = if large { 1 } else { per_page };
    let (document, size) = source.typeset(|fonts| {
        let (scene, size) = sheet::printed(
            fonts,
            &template,
            &given,
            args.copies,
            per_page,
            large,
            paper.into(),
        );
        Ok::<_, CliError>((Document::new(scene, fonts.clone()), size))
    })?;
    let (scene, fonts) = (&document.scene, document.fonts());
    let how = how_printed(per_page, paper.into(), size);
    // A missing glyph first: its missing-glyph width would shrink the text.
    scene
        .check_text(fonts)
        .map_err(|e| CliError::Refused(e.advice()))?;
    // A zone's name too long for its label, named with a length that fits.
    floor::zone_names(scene, fonts, &zones(&template), &how)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let hint = "use a larger --paper or fewer sheets per page";
    floor::legible(scene, fonts, &given, &how, hint).map_err(illegible)?;
    write(&document, &target)
}

/// How a sheet was printed, for a message that names a zone too long for
/// it: `--per-page 1 on a4`, `… in the compact layout`.
pub(super) fn how_printed(
    per_page: u8,
    paper: crate::render::paper::Paper,
    size: sheet::Size,
) -> String {
    let compact = (size == sheet::Size::Compact).then_some(" in the compact layout");
    let paper = format!("{paper:?}").to_lowercase();
    format!("--per-page {per_page} on {paper}{}", compact.unwrap_or(""))
}

/// The zones of `template`: each id and name, in order.
pub(super) fn zones(template: &crate::soleils::template::Template) -> Vec<(String, String)> {
    (template.zones().iter())
        .map(|z| (z.id.clone(), z.name.clone()))
        .collect()
}

/// A print below the 6 pt floor, refused as a usage error.
fn illegible(e: floor::Illegible) -> CliError {
    CliError::Usage(e.to_string())
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
    #[command(flatten)]
    pub fonts: FontArgs,
    /// For .html: judge every decision as `sunfold analyse` does and mark
    /// each one that lost points in the event list, with the better
    /// decision under the status when it is shown. The log must fold.
    #[arg(long)]
    pub analyse: bool,
    /// With --analyse, the judging bot, search:N: the game's own if left
    /// out, as for `sunfold analyse`.
    #[arg(long, value_parser = super::batch::parse_bot, requires = "analyse")]
    pub bot: Option<crate::bots::Bot>,
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
            let (file, paper) = (&args.file, args.paper.into());
            crate::show::scored_replay::<G, R>(file, opened, args.at, &fonts, paper)
                .map_err(|error| super::game::folding(file, super::Format::Text, error))
        }
    }
    if is_html(&args.output) {
        // The viewer draws its panels in the built-in fonts, which the
        // browser is sure to have in the SVG's font list: a font file is
        // still read, so that a bad one is refused as before.
        args.fonts.given()?;
        let analyse = args.analyse.then(|| super::viewer::Analyse {
            bot: args.bot,
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
    let source = args.fonts.source()?;
    let document = source.typeset(|fonts| {
        let opened = super::game::open(&args.file, super::Format::Text)?;
        dispatch(opened, Draw(args, fonts.clone()))
    })?;
    document
        .scene
        .check_text(document.fonts())
        .map_err(|e| CliError::Refused(e.advice()))?;
    let paper = format!("{:?}", args.paper).to_lowercase();
    floor::floor(
        &document.scene,
        &format!("the replay on --paper {paper}"),
        "use --paper a4 or letter",
    )
    .map_err(illegible)?;
    write(&document, &target)
}

#[derive(clap::Args, Debug)]
pub struct CardsArgs {
    /// The Summertime deck, such as sheet-templates/summertime.json.
    pub deck: PathBuf,
    /// Where to write: a .pdf or .svg file, or - for SVG on standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// The paper of the sheets layout [default: a4].
    #[arg(long, value_enum)]
    pub paper: Option<PaperArg>,
    /// `sheets` for print-and-play, with crop marks and duplex backs; or
    /// `per-card` for a card printer: a page a piece, front then back, at
    /// its trim size plus the bleed, each with its own TrimBox.
    #[arg(long, value_name = "LAYOUT", default_value = "sheets")]
    pub layout: Layout,
    /// For a print shop: run each piece's background this many millimetres
    /// (0 to 5) past its cut lines, keep its ink 3 mm inside them, and move
    /// the crop marks out to the page's edges [default: 0, per-card 3].
    #[arg(long, value_name = "MM")]
    pub bleed: Option<Bleed>,
    #[command(flatten)]
    pub fonts: FontArgs,
}

pub fn cards(args: &CardsArgs) -> Result<Exit, CliError> {
    let paper = match (args.layout, args.paper) {
        (Layout::PerCard, Some(_)) => {
            return Err(CliError::Usage(
                "--paper: expected no paper with --layout per-card, as each of its pages is one piece at its trim size plus the bleed".to_owned(),
            ));
        }
        (_, paper) => paper.unwrap_or(PaperArg::A4).into(),
    };
    let target = target(&args.output)?;
    let source = args.fonts.source()?;
    let deck = match checked(&args.deck)? {
        Checked::Deck(deck) => deck,
        Checked::Sheet(_) => {
            return Err(CliError::Usage(format!(
                "{}: expected a Summertime deck, but found a 62 Soleils sheet template (use render sheet)",
                args.deck.display()
            )));
        }
    };
    let bleed = args.bleed.unwrap_or(args.layout.default_bleed()).0;
    let (document, boxes) = source.typeset(|fonts| {
        let printed =
            crate::print::summertime::cards::print(fonts, &deck, paper, bleed, args.layout);
        Ok::<_, CliError>(printed)
    })?;
    document
        .scene
        .check_text(document.fonts())
        .map_err(|e| CliError::Refused(e.advice()))?;
    floor::floor(
        &document.scene,
        &format!("the deck {}", args.deck.display()),
        "shorten that name in the deck, or use a narrower --font",
    )
    .map_err(illegible)?;
    write_boxed(&document, &boxes, &target)
}
