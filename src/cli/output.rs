//! Where a drawing goes: the paper, `-o FILE` read as a target by its
//! extension (or `-` for standard output), the fonts, and the writing of a
//! document as PDF or SVG. Every verb that draws writes through here.

use super::Exit;
use super::error::CliError;
use crate::render::paper::Paper;
use crate::render::scene::Typeset;
use crate::render::text::Fonts;
use crate::render::text::installed::FontSource;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// The fonts of a drawing, as every verb that draws takes them.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct FontArgs {
    /// A TrueType or OpenType font (.ttf, .otf, .ttc) for the characters
    /// the built-in Liberation Sans lacks (such as Chinese or Arabic). May
    /// be repeated: each character comes from the first font that has it,
    /// the built-in one first, and then from the fonts installed on this
    /// machine.
    #[arg(long, value_name = "FILE")]
    pub font: Vec<PathBuf>,
    /// Draw in the built-in font and the --font files alone, not in the
    /// fonts installed on this machine: the same file on every machine,
    /// or a refusal naming the character.
    #[arg(long)]
    pub no_system_fonts: bool,
}

impl FontArgs {
    /// The fonts to lay out and write in: the built-in ones, followed by
    /// the `--font` files in order, then the machine's installed fonts
    /// unless `--no-system-fonts`.
    pub fn source(&self) -> Result<FontSource, CliError> {
        let given = self.given()?;
        Ok(match self.no_system_fonts {
            true => FontSource::given(given),
            false => FontSource::with_installed(given, installed_fonts),
        })
    }
}

impl FontArgs {
    /// The built-in fonts followed by the `--font` files, each read and
    /// checked: a file that is no font is a usage error.
    pub fn given(&self) -> Result<Arc<Fonts>, CliError> {
        Fonts::with_fallbacks(&self.font).map_err(|e| CliError::Usage(e.to_string()))
    }
}

/// The fonts installed on this machine: the folders fontconfig names, or
/// the usual ones without it.
pub fn installed_fonts() -> fontdb::Database {
    let mut installed = fontdb::Database::new();
    installed.load_system_fonts();
    installed
}

/// Writes the document in the target's format, in the fonts it was laid
/// out in (a bare scene: the built-in ones).
pub(super) fn write(document: &impl Typeset, target: &Target) -> Result<Exit, CliError> {
    write_boxed(document, &[], target)
}

/// [`write`], with each PDF page's trim and bleed boxes.
pub(super) fn write_boxed(
    document: &impl Typeset,
    boxes: &[crate::render::paper::PrintBoxes],
    target: &Target,
) -> Result<Exit, CliError> {
    let pages = document.scene().pages.len();
    let as_pdf = matches!(target, Target::Pdf(_));
    let files = crate::render::encode(document, boxes, as_pdf).map_err(CliError::Refused)?;
    match target {
        Target::Stdout => {
            let [bytes] = files.as_slice() else {
                return Err(CliError::Usage(format!(
                    "-: expected a drawing of one page on standard output, but it has {pages}: \
                     write -o NAME.svg for NAME-1.svg to NAME-{pages}.svg, or -o NAME.pdf"
                )));
            };
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|_| out.flush())
                .map_err(|e| CliError::io(Path::new("-"), e))?;
        }
        Target::Pdf(path) | Target::Svg(path) => {
            let paths = crate::render::file_names(path, files.len());
            for (path, bytes) in paths.iter().zip(&files) {
                crate::kit::atomic::write(path, bytes).map_err(|e| CliError::io(path, e))?;
            }
            let bytes: usize = files.iter().map(Vec::len).sum();
            eprintln!("wrote {}", crate::render::files_said(&paths, pages, bytes));
            // Pages of an earlier, longer drawing under the same name would
            // read as part of this one.
            if matches!(target, Target::Svg(_)) {
                for stale in crate::render::stale_pages(path, files.len()) {
                    std::fs::remove_file(&stale).map_err(|e| CliError::io(&stale, e))?;
                    eprintln!(
                        "removed {}, a page of an earlier drawing under this name",
                        stale.display()
                    );
                }
            }
        }
    }
    Ok(Exit::Valid)
}

/// Where `-o` draws a report, checked before any game is played: a
/// report that cannot be written is found out before the games, not after.
pub(super) fn drawing(output: Option<&Path>, what: &str) -> Result<Option<Target>, CliError> {
    let target = output.map(target).transpose()?;
    if let Some(dir) = output.and_then(Path::parent)
        && !dir.as_os_str().is_empty()
        && !dir.is_dir()
    {
        return Err(CliError::Usage(format!(
            "{}: expected a folder to write the {what} into, but there is none",
            dir.display()
        )));
    }
    Ok(target)
}
