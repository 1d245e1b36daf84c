//! Files written whole or not at all. Every file sunfold writes (a render,
//! a report, a simulated log, a manual page) goes to a temporary file in
//! the same folder, is synced, then renamed over its name: a full disk or a
//! crash leaves the old file as it was, never a truncated one.
//!
//! The temporary file is `tempfile`'s: created next to the target (so the
//! rename stays on one filesystem), and removed if the write fails.
//!
//! A name that is a symbolic link is written through: the file it points
//! to is replaced, and the link stays a link ([`resolved`], which a lock
//! on the file uses too, so that a link and its file share one lock).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The file `path` names: a symbolic link followed to what it points to,
/// link after link (at most 40, as the kernel follows); a relative link
/// is read from the link's folder. A path that is no link is itself, and
/// so is a link to nothing, whose file a write creates.
pub fn resolved(path: &Path) -> PathBuf {
    let mut path = path.to_owned();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(folder) if target.is_relative() => folder.join(target),
            _ => target,
        };
    }
    path
}

/// Writes `bytes` to `path` atomically: the file holds either its old
/// bytes or all the new ones.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |out| out.write_all(bytes))
}

/// Writes to `path` atomically what `fill` writes. If `fill` or anything
/// after it fails, `path` is untouched and the temporary file is removed.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_in_mode(path, None, fill)
}

/// Writes `bytes` to `path` atomically, readable and writable by its owner
/// alone from the moment the temporary file exists: for secrets.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_in_mode(path, Some(0o600), |out| out.write_all(bytes))
}

/// [`write_with`] with the file's mode (on Unix): `None` keeps the mode of
/// the file replaced, or what `File::create` gives.
fn write_in_mode(
    path: &Path,
    mode: Option<u32>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let path = &resolved(path);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    #[cfg(not(unix))]
    let _ = mode;
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{}.", name.as_deref().unwrap_or("sunfold"));
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What File::create gives: 0666 less the umask, or the mode of the
        // file being replaced.
        let mode = mode.unwrap_or_else(|| {
            std::fs::metadata(path).map_or(0o666, |m| m.permissions().mode() & 0o7777)
        });
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let mut temp = builder.tempfile_in(dir)?;
    {
        let mut out = io::BufWriter::new(temp.as_file_mut());
        fill(&mut out)?;
        out.flush()?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    // The rename itself is durable once the folder is synced; a folder
    // that cannot be opened for that (some filesystems) is no error.
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails as a full disk does after `room` bytes.
    struct Full<'a> {
        inner: &'a mut dyn Write,
        room: usize,
    }

    impl Write for Full<'_> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::StorageFull,
                    "no space left on device",
                ));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.inner.write(&buf[..n])
        }
        fn flush(&mut self) -> io::Result<()> {
            self.inner.flush()
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn given_an_old_file_when_the_disk_fills_mid_write_then_it_survives_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.pdf");
        std::fs::write(&path, b"the old file").unwrap();
        let new = vec![b'x'; 100_000];
        let error = write_with(&path, |out| {
            Full {
                inner: out,
                room: 4096,
            }
            .write_all(&new)
        })
        .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read(&path).unwrap(), b"the old file");
        assert_eq!(names(dir.path()), ["out.pdf"], "no temporary file is left");
    }

    #[test]
    fn given_no_file_when_the_write_fails_then_nothing_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.svg");
        let error = write_with(&path, |_| Err(io::Error::other("refused"))).unwrap_err();
        assert_eq!(error.to_string(), "refused");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[cfg(unix)]
    #[test]
    fn given_a_link_when_written_then_its_file_is_replaced_and_the_link_stays() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sheets")).unwrap();
        let file = dir.path().join("sheets").join("two.json");
        std::fs::write(&file, b"old").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("sheets/two.json", &link).unwrap();
        let again = dir.path().join("again.json");
        std::os::unix::fs::symlink("link.json", &again).unwrap();
        assert_eq!(resolved(&again), dir.path().join("sheets/two.json"));
        write(&again, b"new").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert!(std::fs::symlink_metadata(&again).unwrap().is_symlink());
        assert_eq!(names(dir.path()), ["again.json", "link.json", "sheets"]);
        assert_eq!(names(&dir.path().join("sheets")), ["two.json"]);
    }

    #[test]
    fn given_an_old_file_when_written_then_it_holds_the_new_bytes_and_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("links.txt");
        std::fs::write(&path, b"old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        write(&path, b"new bytes").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new bytes");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        assert_eq!(names(dir.path()), ["links.txt"]);
    }
}
