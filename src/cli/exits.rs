//! What each command's exit codes mean for it, as its `--help` ends: 0 is
//! success, 1 a file or request that a rule refuses, 2 a usage error (bad
//! arguments, a file that cannot be read or written), in the words of what
//! the command reads and does.

/// `sunfold --help`: the codes every command shares.
pub const GENERAL: &str = "\
Exit codes:
  0  success: the log or template is valid, or the command did what it was asked
  1  refused: a log or template is malformed or breaks a rule, or a request breaks one
  2  bad arguments, or a file that cannot be read or written";

/// `replay` and `status`.
pub const LOG: &str = "\
Exit codes:
  0  the log is valid
  1  the log is malformed, or an event breaks a rule
  2  bad arguments, or a file that cannot be read";

/// `audit`.
pub const AUDIT: &str = "\
Exit codes:
  0  every log is valid
  1  a log is malformed or breaks a rule (or, with --called, its claimed scores differ)
  2  bad arguments, or a path that cannot be read";

/// `repair`.
pub const REPAIR: &str = "\
Exit codes:
  0  the log ends whole: its torn last line was removed, or it had none
  1  the log has damage that repair does not mend: it is reported, never repaired
  2  bad arguments, or a file that cannot be read or written";

/// `simulate`, `compare`, `ladder` and `sweep`.
pub const GAMES: &str = "\
Exit codes:
  0  the games were played and reported
  1  refused: a variant or a game breaks a rule (the reason is printed)
  2  bad arguments, a template or deck that fails its check, or a file that cannot be read or written";

/// `merge`.
pub const MERGE: &str = "\
Exit codes:
  0  the parts were merged into the report
  2  bad arguments, parts of different runs, a shard missing or given twice, a file that is
     no partial report, or a file that cannot be read or written";

/// `rescore`.
pub const RESCORE: &str = "\
Exit codes:
  0  every log was read and is valid under its own rules, whatever the new rules make of it
  1  a log is invalid under its own rules
  2  bad arguments, or a file that cannot be read (the other files are still reported)";

/// `analyse` and `hint`.
pub const JUDGE: &str = "\
Exit codes:
  0  the decisions were judged
  1  the log is malformed, or an event breaks a rule
  2  bad arguments, or a file that cannot be read";

/// `serve` and `studio`.
pub const SERVER: &str = "\
Exit codes:
  0  the server was stopped (Ctrl-C)
  1  refused to start: the log, event or template is malformed or breaks a rule, or the
     join slips cannot print a name
  2  bad arguments, an address that cannot be bound, or a file that cannot be read or written";

/// `rating`.
pub const RATING: &str = "\
Exit codes:
  0  the players were rated
  1  an event log is malformed, or an entry breaks a rule of its event
  2  bad arguments, or a file that cannot be read";

/// `template check`.
pub const CHECK: &str = "\
Exit codes:
  0  the template or deck is valid
  1  it has a problem (each is listed with its JSON path)
  2  bad arguments, or a file that cannot be read";

/// `template export`.
pub const EXPORT: &str = "\
Exit codes:
  0  the rows were written
  1  the template or deck has a problem (each is listed)
  2  bad arguments, or a file that cannot be read or written";

/// `template import`.
pub const IMPORT: &str = "\
Exit codes:
  0  the rows passed template check and the file was written
  1  the rows or the file have a problem (each is listed); the file is left as it was
  2  bad arguments, or a file that cannot be read or written";

/// The drawing verbs: `render` and the event's papers.
pub const DRAW: &str = "\
Exit codes:
  0  the drawing was written
  1  refused, and nothing written: a character that no font given or installed has, or a
     log or template that is malformed or breaks a rule
  2  bad arguments, text that would print below 6 pt, or a file that cannot be read or written";

/// `new soleils` and `new summertime`.
pub const NEW: &str = "\
Exit codes:
  0  the log was started
  1  refused: the start breaks a rule of the game
  2  bad arguments, a template, deck or option that is not valid, a log that exists already
     (without --force), or a file that cannot be read or written";

/// The `event` verbs.
pub const EVENT: &str = "\
Exit codes:
  0  done (event verify: every result is true of its table's log)
  1  refused, with the event log unchanged: a rule of the event, or a table log that cannot be
     the result (event verify: a result no longer true of its table's log)
  2  bad arguments, or a file that cannot be read or written";
