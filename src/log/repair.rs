//! Repairing a log whose end was damaged by a crash mid-write: a torn last
//! line (cut anywhere, inside a multi-byte character too, or a tail of NUL
//! bytes), and blank lines at the end. These bytes, and only they, are cut
//! off and kept beside the log: in `FILE.torn`, or `FILE.torn.2`, `.3`, …
//! when the earlier ones exist, so that no repair overwrites what another
//! kept. Any other damage is reported, never repaired.

use std::fs::OpenOptions;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What [`repair`] removes from the end of a log's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The bytes kept: every complete line before the damage.
    pub keep: usize,
    /// The number of the first line removed (one past the last line kept).
    pub first: usize,
    /// Blank lines removed (each ended by its newline).
    pub blank: usize,
    /// Whether a torn last line is removed after them.
    pub torn: bool,
}

impl End {
    /// Whether it removes anything.
    pub fn removes(&self) -> bool {
        self.blank > 0 || self.torn
    }

    /// Whether line `line` is among those it removes.
    pub fn removes_line(&self, line: usize) -> bool {
        self.removes() && line >= self.first
    }
}

/// The damage at the end of `bytes` that [`repair`] removes: a last line
/// that no newline ends and that is not one complete JSON value (torn, as
/// the reader names it), and the blank lines just before it or at the end.
pub fn end(bytes: &[u8]) -> End {
    let mut keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = keep < bytes.len() && super::reader::torn(&bytes[keep..]);
    if !torn && keep < bytes.len() {
        // A complete last line without its newline: nothing at the end.
        keep = bytes.len();
    }
    let mut blank = 0;
    if keep == bytes.len() || torn {
        while keep > 0 {
            let start = bytes[..keep - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if !bytes[start..keep].trim_ascii().is_empty() {
                break;
            }
            blank += 1;
            keep = start;
        }
    }
    let first = bytes[..keep].iter().filter(|&&b| b == b'\n').count() + 1;
    End {
        keep,
        first,
        blank,
        torn,
    }
}

/// What [`repair`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Repaired {
    /// Every line is complete (or the log is empty), and the log reads.
    Complete,
    /// The last line is complete JSON, only without its newline.
    CompleteJson,
    /// Lines from `end.first` on, `bytes` bytes, were removed and kept in
    /// `backup`.
    Removed {
        end: End,
        bytes: usize,
        backup: PathBuf,
    },
}

impl Repaired {
    /// What it did to the log `shown`, in words.
    pub fn said(&self, shown: &str) -> String {
        match self {
            Repaired::Complete => {
                format!("{shown}: nothing to repair: the last line is complete")
            }
            Repaired::CompleteJson => format!(
                "{shown}: nothing to repair: the last line is complete JSON without a newline"
            ),
            Repaired::Removed { end, bytes, backup } => {
                let blank = match end.blank {
                    0 => String::new(),
                    1 => format!("the blank line {}", end.first),
                    n => format!("the blank lines {} to {}", end.first, end.first + n - 1),
                };
                let what = match (end.torn, blank.is_empty()) {
                    (true, true) => format!("the torn line {}", end.first),
                    (true, false) => {
                        format!("{blank} and the torn line {}", end.first + end.blank)
                    }
                    (false, _) => format!("{blank} at the end"),
                };
                let plural = if *bytes == 1 { "" } else { "s" };
                format!(
                    "{shown}: removed {what} ({bytes} byte{plural}, kept in {})",
                    backup.display()
                )
            }
        }
    }
}

/// Why [`repair`] changed nothing.
#[derive(Debug)]
pub enum RepairError<E> {
    /// The file at `path` (the log, or its `.torn` copy) could not be read
    /// or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The lines it would keep are damaged: `whole`'s error.
    Damaged(E),
}

/// Removes the torn last line and the blank lines at the end of the log at
/// `path` (see [`end`]), under its lock, after `whole` accepts every line
/// kept (their bytes): a log damaged above them is left as it is, and
/// `whole`'s error returned.
pub fn repair<E>(
    path: &Path,
    whole: impl FnOnce(&[u8]) -> Result<(), E>,
) -> Result<Repaired, RepairError<E>> {
    let io = |error| RepairError::Io {
        path: path.to_owned(),
        error,
    };
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io)?;
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = lock.write().map_err(io)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let end = end(&bytes);
    let kept = &bytes[..end.keep];
    // A log that was nothing but its torn first line becomes empty; any
    // other log must read to its end once repaired.
    if !(kept.is_empty() && end.removes()) {
        whole(kept).map_err(RepairError::Damaged)?;
    }
    if !end.removes() {
        let unterminated = !bytes.is_empty() && !bytes.ends_with(b"\n");
        return Ok(if unterminated {
            Repaired::CompleteJson
        } else {
            Repaired::Complete
        });
    }
    let tail = &bytes[end.keep..];
    let backup = unused_backup(path);
    crate::kit::atomic::write(&backup, tail).map_err(|error| RepairError::Io {
        path: backup.clone(),
        error,
    })?;
    file.set_len(end.keep as u64)
        .and_then(|_| file.sync_all())
        .map_err(io)?;
    Ok(Repaired::Removed {
        end,
        bytes: tail.len(),
        backup,
    })
}

/// The first of `FILE.torn`, `FILE.torn.2`, `FILE.torn.3`, … that does not
/// exist yet. Repairs of one log take its lock, so two never pick the same.
fn unused_backup(path: &Path) -> PathBuf {
    let named = |n: u32| {
        let mut name = path.as_os_str().to_owned();
        name.push(".torn");
        if n > 1 {
            name.push(format!(".{n}"));
        }
        PathBuf::from(name)
    };
    (1..).map(named).find(|p| !p.exists()).expect("a free name")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(bytes: &str) -> (usize, usize, usize, bool) {
        let end = end(bytes.as_bytes());
        (end.keep, end.first, end.blank, end.torn)
    }

    #[test]
    fn the_end_holds_a_torn_line_and_the_blank_lines_before_it() {
        let a = "{\"seq\":0}\n";
        assert_eq!(ended(a), (10, 2, 0, false));
        assert_eq!(ended("{\"seq\":0}"), (9, 1, 0, false));
        assert_eq!(ended(&format!("{a}{{\"se")), (10, 2, 0, true));
        assert_eq!(ended(&format!("{a}\n")), (10, 2, 1, false));
        assert_eq!(ended(&format!("{a}\n \r\n")), (10, 2, 2, false));
        assert_eq!(ended(&format!("{a}\n{{\"se")), (10, 2, 1, true));
        assert_eq!(ended(&format!("{a}\0\0\0")), (10, 2, 0, true));
        // Blank lines above a complete line are damage above, not the end.
        assert_eq!(ended(&format!("\n{a}")), (11, 3, 0, false));
        assert_eq!(ended(""), (0, 1, 0, false));
        assert_eq!(ended("\n"), (0, 1, 1, false));
    }

    #[test]
    fn a_line_cut_inside_a_character_is_torn() {
        let line = "{\"seq\":0,\"n\":\"Chlo\u{e9}\"}\n{\"n\":\"Chlo\u{e9}\"}";
        let cut = &line.as_bytes()[..line.len() - 3];
        let end = end(cut);
        assert!(end.torn);
        assert_eq!(end.keep, line.find('\n').unwrap() + 1);
    }
}
