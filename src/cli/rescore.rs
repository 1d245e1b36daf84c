//! `sunfold rescore`: replay recorded matches under other rules.
//!
//! Each log is first folded under its own rules, exactly as `audit` does
//! (hash chain, `undone` entries, claims). Its start event is then rewritten
//! with the changed rules, and the decisions that were not taken back by an
//! `undone` entry are applied again, in order, with the dice and the cards
//! the log recorded. A decision that was taken back is never replayed, even
//! if the new rules would refuse it.
//!
//! What a run changes, checked once, before any log is read, with the same
//! messages and exit codes as `sunfold new`:
//!
//! - `--option NAME=VALUE` (62 Soleils): applied onto each log's own options,
//!   so a log recorded under `sun_bonus=exact` stays exact unless the run
//!   names `sun_bonus`;
//! - `--template FILE` (62 Soleils): the sheet, in place of each log's own;
//! - `--deck FILE` (Summertime): the deck, in place of each log's own.
//!   Summertime has no options, so `--deck` with `--option` is refused.
//!
//! A log of the other game is `skipped`. With no change at all, every log is
//! replayed under its own rules, which must give `same` for every valid log.
//! Claimed scores (`claimed` entries) are not compared.
//!
//! Every file gets one outcome, printed in file order whatever `--jobs`:
//!
//! | outcome | text | meaning |
//! |---|---|---|
//! | `same` | `same` | every player has the same total |
//! | `scores_changed` | `scores changed` | new totals, the same winners |
//! | `winner_changed` | `winner changed` | the winners (the players with the highest total; several when tied) differ |
//! | `illegal` | `illegal` | a decision breaks the new rules: the first one, located as `replay` locates it (`FILE:LINE: event SEQ (type): reason`); a start event the new rules cannot set up (a deck without a card the log deals) is illegal at line 1 |
//! | `unfinished` | `unfinished` | the log holds a finished match under its own rules, but under the new ones the match is not over: a decision is still pending (a bonus digit won by passing a threshold), or rounds remain |
//! | `invalid` | `invalid` | the log is broken under its own rules: its first located error, as `audit` prints it |
//! | `skipped` | `skipped` | the change is for the other game: `--template` and `--option` change 62 Soleils logs only, `--deck` Summertime logs only |
//! | `unreadable` | `unreadable` | the file could not be read |
//!
//! A text line is the outcome, padded to 15 columns, then the file and the
//! details: `same  FILE: Ann 54, Bob 61`, `winner changed FILE: Bob → Ann;
//! Ann 54 → 63, Bob 61`, `illegal  FILE:LINE: event SEQ (type): reason`. A
//! summary follows: `of 1,000 matches, 700 same, 140 change scores, 112
//! change winner, 37 become illegal, …`, with every outcome's count.
//!
//! A match that is not finished in its log is compared by its scores so far.
//! A match that would end earlier under the new rules is `illegal` at the
//! first decision after the new end, whose reason says the game is over.
//!
//! With `--format json`, each file is one JSON line, and the summary goes to
//! standard error:
//!
//! ```json
//! {"file":"a.jsonl","game":"soleils","outcome":"same","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"scores_changed","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"winner_changed","before":R,"after":R}
//! {"file":"a.jsonl","game":"soleils","outcome":"unfinished","before":R,"after":R,"pending":["Ann: a bonus digit or a decline"]}
//! {"file":"a.jsonl","game":"soleils","outcome":"illegal","before":R,"error":E}
//! {"file":"a.jsonl","game":"soleils","outcome":"invalid","error":E}
//! {"file":"a.jsonl","game":"summertime","outcome":"skipped","reason":"--option changes soleils logs only"}
//! {"file":"a.jsonl","game":null,"outcome":"unreadable","error":E}
//! ```
//!
//! where a result `R` is `{"scores":{"Ann":54,"Bob":61},"winners":["Bob"]}`
//! (`before` under the log's own rules, `after` under the new ones; for
//! `unfinished`, `after` holds the scores so far), and an error `E` is
//! `{"line":37,"seq":36,"type":"bonus_placed","message":"…"}` as in `audit`
//! (`game` is null when the first line does not name one). The keys of an
//! object come in alphabetical order.
//!
//! Exit codes: 0 when every file was read and is valid under its own rules,
//! whatever the new rules make of it; 1 when a log is invalid under its own
//! rules; 2 for bad arguments (checked before any log is read) or a file that
//! cannot be read (the other files are still reported).

use super::batch::{collect, per_file, pool};
use super::error::CliError;
use super::{Exit, Format, variant};
use crate::present::rescore::{
    Change, INVALID, OUTCOMES, UNREADABLE, json_line, rescore_opened, summary, text_line,
};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct RescoreArgs {
    /// Log files, or folders searched for .jsonl files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// A rule option to change, such as sun_bonus=exact; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// 62 Soleils: replay on this sheet template instead of each log's own.
    #[arg(long, conflicts_with = "deck")]
    pub template: Option<PathBuf>,
    /// Summertime: replay with this deck instead of each log's own.
    #[arg(long)]
    pub deck: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Worker threads; every core if left out.
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// The rules the run changes, checked once before any log is read, with
/// the same messages and exit codes as `sunfold new`.
fn change(args: &RescoreArgs) -> Result<Change, CliError> {
    if let Some(deck) = &args.deck {
        // A --deck run is a Summertime run, which has no options.
        let deck = variant::summertime(Some(deck), &args.options)?;
        return Ok(Change {
            deck: Some(deck),
            ..Change::default()
        });
    }
    let settings = variant::soleils_settings(&args.options)?;
    let sheet = variant::soleils(args.template.as_deref(), &args.options)?;
    Ok(Change {
        settings,
        template: args.template.is_some().then_some(sheet),
        deck: None,
    })
}

pub fn run(args: RescoreArgs) -> Result<Exit, CliError> {
    let change = change(&args)?;
    let files = collect(&args.paths)?;
    let pool = pool(args.jobs)?;
    let mut counts = [0u64; OUTCOMES.len()];
    per_file(
        &files,
        &pool,
        |p| rescore_opened(crate::log::open_file(p), &change),
        |path, (game, outcome)| {
            counts[outcome.index()] += 1;
            let file = path.display().to_string();
            match args.format {
                Format::Text => text_line(&file, &outcome),
                Format::Json => serde_json::to_string(&json_line(file, game, &outcome))
                    .expect("rescore lines serialize"),
            }
        },
    );
    let summary = summary(files.len() as u64, &counts);
    match args.format {
        Format::Text => println!("{summary}"),
        Format::Json => eprintln!("{summary}"),
    }
    Ok(if counts[UNREADABLE] > 0 {
        Exit::Usage
    } else if counts[INVALID] > 0 {
        Exit::Invalid
    } else {
        Exit::Valid
    })
}
