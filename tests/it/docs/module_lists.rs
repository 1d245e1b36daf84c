//! Every module list stays whole: the doc comment at the top of every file
//! of `src/` that declares modules (`lib.rs`, a folder's `mod.rs`, or a
//! file such as `render/text.rs` with modules of its own) names every
//! module it declares (as `name`, [`name`] or `name.rs`), so that a reader
//! who starts there finds every room.

use crate::common;

/// The modules `text` declares: `mod x;` and `pub mod x;` (any visibility),
/// but not inline `mod tests { … }`.
fn declared(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter_map(|line| {
            let rest = line.strip_suffix(';')?;
            let at = rest.find("mod ")?;
            let (vis, name) = (&rest[..at], &rest[at + 4..]);
            let public = vis.is_empty() || vis.trim_end().starts_with("pub");
            (public && !name.contains(' ')).then(|| name.to_owned())
        })
        .collect()
}

/// The module doc: the `//!` lines at the top.
fn module_doc(text: &str) -> String {
    text.lines()
        .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn named(doc: &str, module: &str) -> bool {
    [
        format!("`{module}`"),
        format!("[`{module}`]"),
        format!("`{module}.rs`"),
        format!("`{module}/`"),
    ]
    .iter()
    .any(|form| doc.contains(form.as_str()))
}

#[test]
fn the_reader_finds_declared_modules() {
    let text = "//! doc\n\npub mod a;\nmod b;\npub(crate) mod c;\n#[cfg(test)]\nmod tests {\n}\n";
    assert_eq!(declared(text), ["a", "b", "c"]);
    assert!(named("//! [`a`] and `b.rs`", "a"));
    assert!(named("//! [`a`] and `b.rs`", "b"));
    assert!(!named("//! [`a`] and `b.rs`", "c"));
}

#[test]
fn every_module_list_is_whole() {
    let files = common::rust_files(&common::repo().join("src"));
    let mut missing = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let doc = module_doc(&text);
        for module in declared(&text) {
            if !named(&doc, &module) {
                missing.push(format!(
                    "{}: its doc does not name `{module}`",
                    file.display()
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
