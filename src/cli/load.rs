//! Reading template files: JSON shape errors with their path, then the
//! template's own validation.

use crate::json_error::describe as detail;
use crate::path::JsonPath;
use crate::soleils::template::{RawTemplate, Template, TemplateErrors};
use std::path::Path;

/// Why a template file could not become a checked template.
pub enum LoadError {
    Io(std::io::Error),
    /// Not JSON, or JSON of the wrong shape; the path is serde's.
    Shape {
        path: String,
        detail: String,
    },
    Invalid(TemplateErrors),
}

pub fn load_template(path: &Path) -> Result<Template, LoadError> {
    let text = std::fs::read_to_string(path).map_err(LoadError::Io)?;
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let raw: RawTemplate = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let at = e.path().to_string();
        let inner = e.into_inner();
        let path = if inner.is_syntax() || inner.is_eof() {
            format!("line {} column {}", inner.line(), inner.column())
        } else if at == "." {
            JsonPath::root().to_string()
        } else {
            at
        };
        LoadError::Shape {
            path,
            detail: detail(&inner),
        }
    })?;
    Template::try_from(raw).map_err(LoadError::Invalid)
}
