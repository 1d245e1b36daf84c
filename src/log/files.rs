//! The logs under a set of paths: each file as given, and every `.jsonl`
//! file under each folder, folders walked in name order; and a log's name
//! as a table's server shows it to players.

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

/// The log at `path` as a table's server names it to the players, in its
/// answers and in the commands it shows: never the folder where the server
/// keeps it. A table of an event (`EVENT.d/round-N/table-T.jsonl`) is named
/// by its path from the event log's folder, `EVENT.d/round-N/table-T.jsonl`;
/// any other log by its file name.
pub fn shown_name(path: &Path) -> PathBuf {
    let name = Path::new(path.file_name().unwrap_or_default());
    let round = path.parent().and_then(Path::file_name).map(Path::new);
    let tables = (path.parent().and_then(Path::parent))
        .and_then(Path::file_name)
        .map(Path::new);
    match (round, tables) {
        (Some(round), Some(tables))
            if round.to_string_lossy().starts_with("round-")
                && tables.extension().is_some_and(|e| e == "d") =>
        {
            tables.join(round).join(name)
        }
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::shown_name;
    use std::path::Path;

    #[test]
    fn a_served_log_is_named_without_the_servers_folder() {
        let shown = |p: &str| shown_name(Path::new(p)).display().to_string();
        assert_eq!(shown("/home/ann/club/m.jsonl"), "m.jsonl");
        assert_eq!(shown("m.jsonl"), "m.jsonl");
        assert_eq!(
            shown("/home/ann/club/e.d/round-1/table-2.jsonl"),
            "e.d/round-1/table-2.jsonl"
        );
        assert_eq!(
            shown("e.d/round-3/table-1.jsonl"),
            "e.d/round-3/table-1.jsonl"
        );
        assert_eq!(shown("/srv/round-1/t.jsonl"), "t.jsonl");
    }
}
