//! The logs under a set of paths: each file as given, and every `.jsonl`
//! file under each folder, folders walked in name order.

use std::path::{Path, PathBuf};

/// Every `.jsonl` file under the folders of `paths`, and each other path as
/// it is, in order; a path that cannot be read is returned with its error.
pub fn jsonl_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, (PathBuf, std::io::Error)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    for path in paths {
        let meta = std::fs::metadata(path).map_err(|e| (path.clone(), e))?;
        if meta.is_dir() {
            walk(path, &mut files).map_err(|e| (path.clone(), e))?;
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}
