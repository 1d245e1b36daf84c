//! Reading template and deck files: JSON shape errors with their path, then
//! the file's own validation. The `game` field says which kind it is.

use crate::json_error::describe as detail;
use crate::path::JsonPath;
use crate::soleils::template::{RawTemplate, Template, TemplateErrors};
use crate::summertime::deck::{Deck, DeckErrors, RawDeck};
use serde::de::DeserializeOwned;
use std::path::Path;

/// A checked template or deck.
pub enum Loaded {
    Sheet(Template),
    Deck(Deck),
}

/// Why a file could not become a checked template or deck.
pub enum LoadError {
    Io(std::io::Error),
    /// Not JSON, or JSON of the wrong shape.
    Shape {
        path: String,
        detail: String,
    },
    Sheet(TemplateErrors),
    Deck(DeckErrors),
}

fn shape<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, LoadError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let at = e.path().to_string();
        let path = if at == "." {
            JsonPath::root().to_string()
        } else {
            at
        };
        LoadError::Shape {
            path,
            detail: detail(e.inner()),
        }
    })
}

pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let bytes = std::fs::read(path).map_err(LoadError::Io)?;
    let text = utf8(&bytes)?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| LoadError::Shape {
        path: format!("line {} column {}", e.line(), e.column()),
        detail: detail(&e),
    })?;
    match value.get("game").and_then(|g| g.as_str()) {
        Some("soleils") => {
            let raw: RawTemplate = shape(value)?;
            Template::try_from(raw)
                .map(Loaded::Sheet)
                .map_err(LoadError::Sheet)
        }
        Some("summertime") => {
            let raw: RawDeck = shape(value)?;
            Deck::try_from(raw)
                .map(Loaded::Deck)
                .map_err(LoadError::Deck)
        }
        _ => {
            let found = value
                .get("game")
                .map_or("none".to_owned(), |g| g.to_string());
            Err(LoadError::Shape {
                path: "game".to_owned(),
                detail: format!("expected \"soleils\" or \"summertime\", but found {found}"),
            })
        }
    }
}

/// The file's text, or where it stops being UTF-8 (or starts with a
/// byte-order mark, which JSON does not allow).
fn utf8(bytes: &[u8]) -> Result<&str, LoadError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = &bytes[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        // Columns count characters, as serde_json's do.
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        LoadError::Shape {
            path: format!("line {line} column {column}"),
            detail: format!(
                "expected UTF-8 text, but found the byte 0x{:02x}",
                bytes[at]
            ),
        }
    })?;
    if text.starts_with('\u{feff}') {
        return Err(LoadError::Shape {
            path: "line 1 column 1".to_owned(),
            detail: "expected JSON, but found a UTF-8 byte-order mark; save the file without it"
                .to_owned(),
        });
    }
    Ok(text)
}
