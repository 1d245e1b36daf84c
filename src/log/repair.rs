//! Repairing a log whose last line was torn by a crash mid-write: the torn
//! bytes, and only they, are cut off and kept beside the log in
//! `FILE.torn`. Any other damage is reported, never repaired.

use std::fs::OpenOptions;
use std::io::Read;
use std::path::{Path, PathBuf};

/// What [`repair`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Repaired {
    /// The last line ends in a newline (or the log is empty).
    Complete,
    /// The last line is complete JSON, only without its newline.
    CompleteJson,
    /// The torn line `line` of `bytes` bytes was removed, kept in `backup`.
    Removed {
        line: usize,
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
            Repaired::Removed {
                line,
                bytes,
                backup,
            } => format!(
                "{shown}: removed the torn line {line} ({bytes} bytes, kept in {})",
                backup.display()
            ),
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
    /// The lines before the last are damaged too: `whole`'s error.
    Damaged(E),
}

/// Removes the torn last line of the log at `path`, under its lock, after
/// `whole` accepts every line before it (the bytes of the complete lines).
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
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(Repaired::Complete);
    }
    let cut = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let tail = &bytes[cut..];
    if serde_json::from_slice::<serde_json::Value>(tail).is_ok() {
        return Ok(Repaired::CompleteJson);
    }
    let kept = &bytes[..cut];
    if !kept.is_empty() {
        whole(kept).map_err(RepairError::Damaged)?;
    }
    let line = kept.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut backup = path.as_os_str().to_owned();
    backup.push(".torn");
    let backup = PathBuf::from(backup);
    crate::kit::atomic::write(&backup, tail).map_err(|error| RepairError::Io {
        path: backup.clone(),
        error,
    })?;
    file.set_len(cut as u64)
        .and_then(|_| file.sync_all())
        .map_err(io)?;
    Ok(Repaired::Removed {
        line,
        bytes: tail.len(),
        backup,
    })
}
