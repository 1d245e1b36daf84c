//! The JSON lines of `sunfold audit` and `sunfold rescore`, one per log
//! file, as types: `sunfold schema audit-line` and `sunfold schema
//! rescore-line` print their schemas.

/// One line of `sunfold audit --format json`: one log file.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct AuditLine {
    pub file: String,
    /// `soleils` or `summertime`, once the first line is read.
    pub game: Option<String>,
    /// No rule broken; with `--strict-claims`, also no claim that differs.
    pub valid: bool,
    /// Events folded: all of them for a valid file, those before the error
    /// otherwise.
    pub events: u64,
    /// Whether every line carries the hash of the previous one; `null` when
    /// the file could not be read that far.
    pub chained: Option<bool>,
    /// The first problem, located.
    pub error: Option<AuditError>,
    /// The scores of a file folded to its end.
    pub result: Option<Outcome>,
    /// The last scores claimed on paper, against the recomputed ones.
    pub claims: Option<Claims>,
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
pub struct AuditError {
    pub line: usize,
    pub seq: Option<u64>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub message: String,
}

/// Where a match stands at the end of its log.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Outcome {
    /// How the game ended; `null` if the log stops before the end.
    pub ended: Option<String>,
    /// The players with rank 1 (more than one on a tie).
    pub winners: Vec<String>,
    /// Every player, in seating order.
    pub players: Vec<Standing>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Standing {
    pub player: String,
    pub score: i64,
    /// 1 for the best; tied players share a rank.
    pub rank: u32,
}

/// The last `claimed` entry of a log against the recomputed scores.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Claims {
    /// The seq of the `claimed` entry.
    pub seq: u64,
    /// Whether every claim equals the recomputed score.
    pub agree: bool,
    /// Each claimed score that differs, and each player with no claim.
    pub differ: Vec<ClaimDiff>,
}

#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct ClaimDiff {
    pub player: String,
    /// `null` when the player has no claim.
    pub claimed: Option<i64>,
    pub recomputed: i64,
}

/// One line of `sunfold rescore --format json`: one file's outcome. Its
/// schema is `sunfold schema rescore-line`
/// (docs/schema/rescore-line.schema.json). The fields come in alphabetical
/// order; those an outcome does not have are left out.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreLine {
    /// The result under the new rules (so far, for `unfinished`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<RescoreResult>,
    /// The result under the log's own rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<RescoreResult>,
    /// The first decision the new rules refuse (`illegal`), the log's own
    /// first error (`invalid`), or why the file could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<RescoreError>,
    pub file: String,
    /// `soleils` or `summertime`; null when the first line names no game.
    pub game: Option<&'static str>,
    /// `same`, `scores_changed`, `winner_changed`, `illegal`, `unfinished`,
    /// `invalid`, `skipped` or `unreadable`.
    pub outcome: &'static str,
    /// For `unfinished`: the decisions the match still waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<Vec<String>>,
    /// For `skipped`: why the change does not apply to this file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The scores and the winners (everyone with the highest total).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreResult {
    pub scores: std::collections::BTreeMap<String, i64>,
    pub winners: Vec<String>,
}

/// A located error, as `audit --format json` gives it.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct RescoreError {
    /// The line of the file, or 0 when the file could not be read.
    pub line: usize,
    pub message: String,
    pub seq: Option<u64>,
    /// The entry's `type`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
}
