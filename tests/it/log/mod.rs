//! The log and the verbs that read and write it: golden and bad replays,
//! older formats, recording, rescoring, atomic writes, the CLI's surface,
//! damaged logs and their repair, a log as the table's server names it.

mod atomic_writes;
mod bad_replays;
mod cli;
mod damage;
mod format1;
mod record;
mod recorder;
mod replays;
mod rescore;
mod served;
mod steps;
