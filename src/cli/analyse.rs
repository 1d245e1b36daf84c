//! `sunfold analyse` and `sunfold hint`: a recorded match judged decision by
//! decision by the search bot, and the best decision for whoever must
//! decide now.

use super::batch::parse_bot;
use super::batch::pool;
use super::error::CliError;
use super::game::{ForGame, Shown, dispatch};
use super::{Exit, Format};
use crate::bots::Bot;
use crate::log::Opened;
use crate::present::hint::HintReport;
use crate::present::{Present, analysis};
use crate::workbench::analysis::judging_bot;
use std::io::BufRead;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    pub file: PathBuf,
    /// The judging bot, search:N: N rollouts for each of the 3 searches,
    /// 4 × N for the measure of the decision taken and of each pick (of
    /// every choice, when a Summertime player has at most 16). If left
    /// out: search:192 for 62 Soleils, search:512 for Summertime
    /// (`search` alone is search:64, the playing bot's default).
    #[arg(long, value_parser = parse_bot)]
    pub bot: Option<Bot>,
    /// The seed of the rollouts: the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Judge the decisions of this player alone, with the same figures as
    /// in the whole analysis; every player's if left out.
    #[arg(long)]
    pub player: Option<String>,
    /// Worker threads; every core if left out. The output is the same on any number.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The analysis as text, or as one JSON object (`sunfold schema analyse-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(clap::Args, Debug)]
pub struct HintArgs {
    pub file: PathBuf,
    /// The player to advise; everyone who must decide now if left out.
    pub player: Option<String>,
    /// The advising bot, search:N, searching as `analyse` does: if left
    /// out, the judging bot of `analyse` (search:192 for 62 Soleils,
    /// search:512 for Summertime), so that the hint is what `analyse`
    /// calls best once the decision is recorded.
    #[arg(long, value_parser = parse_bot)]
    pub bot: Option<Bot>,
    /// The seed of the rollouts: the same seed gives the same hint.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The hint as text, or as one JSON object (`sunfold schema hint-report`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn analyse(args: AnalyseArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a AnalyseArgs, rayon::ThreadPool);
    impl<R: BufRead> ForGame<R> for Run<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            analyse_game::<G, R>(self.0, &self.1, opened)
        }
    }
    if let Some(bot) = args.bot {
        super::batch::budget(bot)?;
    }
    let pool = pool(args.jobs)?;
    let opened = super::game::open(&args.file, args.format)?;
    dispatch(opened, Run(&args, pool))
}

fn analyse_game<G: Present, R: BufRead>(
    args: &AnalyseArgs,
    pool: &rayon::ThreadPool,
    opened: Opened<R>,
) -> Result<Exit, CliError> {
    let rollouts = super::batch::budget(judging_bot::<G>(args.bot))?;
    let player = args.player.as_deref();
    let report = super::game::analysed_player::<G, R>(
        &args.file,
        args.format,
        player,
        (rollouts, args.seed),
        pool,
        opened,
    )?;
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        ),
        Format::Text => print!("{}", analysis::analysis_text(&report)),
    }
    Ok(Exit::Valid)
}

pub fn hint(args: HintArgs) -> Result<Exit, CliError> {
    struct Run<'a>(&'a HintArgs);
    impl<R: BufRead> ForGame<R> for Run<'_> {
        type Output = Result<Exit, CliError>;
        fn run<G: Shown>(self, opened: Opened<R>) -> Self::Output {
            hint_game::<G, R>(self.0, opened)
        }
    }
    if let Some(bot) = args.bot {
        super::batch::budget(bot)?;
    }
    let opened = super::game::open(&args.file, args.format)?;
    dispatch(opened, Run(&args))
}

fn hint_game<G: Present, R: BufRead>(args: &HintArgs, opened: Opened<R>) -> Result<Exit, CliError> {
    let rollouts = super::batch::budget(judging_bot::<G>(args.bot))?;
    use crate::present::hint::{hint_text, hints};
    let path = &args.file;
    let fold = super::game::fold::<G, _>(path, opened, None, args.format, &mut |_| {})?;
    let file = path.display().to_string();
    let hints = hints::<G>(
        &file,
        fold.state(),
        fold.events(),
        args.player.as_deref(),
        rollouts,
        args.seed,
    )
    .map_err(|refused| CliError::Usage(refused.located(&file)))?;
    match args.format {
        Format::Json => {
            let report = HintReport::of::<G>(file, judging_bot::<G>(args.bot), args.seed, hints);
            println!(
                "{}",
                serde_json::to_string(&report).expect("reports serialize")
            );
        }
        Format::Text => print!("{}", hint_text(&file, &hints)),
    }
    Ok(Exit::Valid)
}
