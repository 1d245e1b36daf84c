//! Opening a log: reading its first line, learning its game, and folding it.
//!
//! This is the one place that does so. `replay`, `status`, `render`,
//! `audit`, `rescore`, the [`Recorder`](super::Recorder) and the fuzz entry
//! all start here, then dispatch once on [`Opened::game`].

use super::error::{DecodeError, Located, LogError};
use super::fold::Fold;
use super::reader::{GameKind, Line, LineReader, detect};
use crate::kit::game::Game;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

/// A log read as far as its first line: its game is known, and the reader
/// stands at the second line.
pub struct Opened<R> {
    game: GameKind,
    first: Vec<u8>,
    terminated: bool,
    lines: LineReader<R>,
}

/// Why a log could not be opened as far as its game.
#[derive(Debug)]
pub enum OpenError {
    /// The file cannot be opened, or its first line cannot be read.
    Io(io::Error),
    /// The file is empty, or its first line names no game.
    Decode(Located<DecodeError>),
}

/// Why a log could not be folded to its end (or to the event asked for).
pub enum FoldError<G: Game> {
    /// A line cannot be read.
    Io {
        /// The number of the line that could not be read.
        line: usize,
        /// The events folded before it.
        events: u64,
        error: io::Error,
    },
    /// The first line does not start a game.
    Start(LogError<G>),
    /// A later line is malformed or illegal. `fold` stands just before it:
    /// its state is the one the line was checked against, and
    /// [`Fold::rejected`] is the event, when it decoded.
    Rejected {
        error: LogError<G>,
        fold: Box<Fold<G>>,
    },
    /// The log ends before the event to stop after.
    PastEnd { at: u64, last: u64 },
}

/// Opens the log at `path` and reads its first line.
pub fn open_file(path: &Path) -> Result<Opened<BufReader<File>>, OpenError> {
    let file = File::open(path).map_err(OpenError::Io)?;
    open(BufReader::new(file))
}

/// Reads the first line of a log from any reader, such as the bytes of a
/// locked file.
pub fn open<R: BufRead>(reader: R) -> Result<Opened<R>, OpenError> {
    let mut lines = LineReader::new(reader);
    let (first, terminated) = match lines.next_line().map_err(OpenError::Io)? {
        Some(line) => (line.bytes.to_vec(), line.terminated),
        None => {
            return Err(OpenError::Decode(Located {
                line: 1,
                seq: None,
                kind: None,
                error: DecodeError::EmptyFile,
            }));
        }
    };
    let line = Line {
        number: 1,
        bytes: &first,
        terminated,
    };
    let game = detect(&line).map_err(OpenError::Decode)?;
    Ok(Opened {
        game,
        first,
        terminated,
        lines,
    })
}

impl<R: BufRead> Opened<R> {
    /// The game the start line names.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The first line's bytes, whether a newline ended it, and the reader
    /// at the second line: for tools that fold the lines on their own.
    pub fn into_parts(self) -> (Vec<u8>, bool, LineReader<R>) {
        (self.first, self.terminated, self.lines)
    }

    /// Folds the log as game `G` to its end, or through event `at`, calling
    /// `observe` with the state after every event folded.
    pub fn fold<G: Game>(
        mut self,
        at: Option<u64>,
        observe: &mut dyn FnMut(&G::State),
    ) -> Result<Fold<G>, FoldError<G>> {
        let first = Line {
            number: 1,
            bytes: &self.first,
            terminated: self.terminated,
        };
        let (mut fold, _) = Fold::<G>::start(&first).map_err(FoldError::Start)?;
        observe(fold.state());
        if at != Some(0) {
            loop {
                let line = match self.lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => break,
                    Err(error) => {
                        let line = self.lines.lines_read() + 1;
                        let events = fold.events();
                        return Err(FoldError::Io {
                            line,
                            events,
                            error,
                        });
                    }
                };
                match fold.feed(&line) {
                    Ok(seq) => {
                        observe(fold.state());
                        if Some(seq) == at {
                            break;
                        }
                    }
                    Err(error) => {
                        let fold = Box::new(fold);
                        return Err(FoldError::Rejected { error, fold });
                    }
                }
            }
        }
        match at {
            Some(at) if at >= fold.events() => Err(FoldError::PastEnd {
                at,
                last: fold.events() - 1,
            }),
            _ => Ok(fold),
        }
    }
}

/// Why a file could not be read, in words: `no such file`, `permission
/// denied`, or the system's own message in lowercase.
pub fn io_reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory, not a file".to_owned(),
        _ => error.to_string().to_lowercase(),
    }
}
