//! The layer rule of docs/architecture.md, checked by reading the source:
//! every part of `src/` (a folder, or a file at its top) has one layer in
//! the page's table of layers, and a file names only its own part and the
//! parts of the layers beneath its own. A file names a part by each path
//! of each `use` tree (nested braces, `self`, `as`, globs, over many
//! lines, `pub use`) and by each path written inline from `crate::`,
//! `self::` or `super::`, `super::` resolved from the file's own module;
//! comments and string literals name nothing. The rules cores name only
//! the game contract and the kit of their messages. Also: no hidden state
//! in the library, and no file in `src/` over 800 lines. No check keeps a
//! list of exceptions: a break is mended, not listed.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

/// The top-level part a file of `src/` belongs to: its first folder, or its
/// file stem for a file at the top (`game.rs` is `game`).
fn part_of(path: &Path) -> String {
    let relative = path.strip_prefix(common::repo().join("src")).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    let first = first.to_string_lossy();
    first.strip_suffix(".rs").unwrap_or(&first).to_owned()
}

/// The source of a file without its comments, so that a doc comment that
/// names `crate::cli` is no dependency.
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A token of Rust source, as far as paths go: a name (`crate`, `render`;
/// a raw name keeps its `r#`, so `r#use` is no keyword) or one piece of
/// punctuation (`::` is one).
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Name(String),
    Punct(String),
}

fn is_name(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Where the string literal whose text starts at `i` ends: after its
/// closing quote, past escapes.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// Where the raw string literal whose text starts at `i`, closed by a
/// quote and `hashes` hashes, ends.
fn skip_raw(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

/// The tokens of `text` without its comments (line, block, nested, doc),
/// string and character literals, lifetimes and numbers: a doc comment or
/// a message that says `crate::cli` is no dependency.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == Some('*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1);
        } else if c == '\'' {
            if at(i + 1) == Some('\\') {
                // '\n', '\'', '\u{e9}'
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == Some('\'') {
                // 'a'
                i += 3;
            } else {
                // A lifetime or a label, 'a: no path.
                i += 1;
                while i < chars.len() && is_name(chars[i]) {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && is_name(chars[i]) {
                i += 1;
            }
        } else if is_name(c) {
            let start = i;
            while i < chars.len() && is_name(chars[i]) {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
            let quoted = at(i + hashes) == Some('"');
            match name.as_str() {
                // b"…", c"…"
                "b" | "c" if hashes == 0 && quoted => i = skip_string(&chars, i + 1),
                // r"…", r#"…"#, br#"…"#, cr#"…"#
                "r" | "br" | "cr" if quoted => i = skip_raw(&chars, i + hashes + 1, hashes),
                // r#use
                "r" if hashes == 1 && at(i + 1).is_some_and(is_name) => {
                    let start = i + 1;
                    i = start;
                    while i < chars.len() && is_name(chars[i]) {
                        i += 1;
                    }
                    let raw: String = chars[start..i].iter().collect();
                    out.push(Token::Name(format!("r#{raw}")));
                }
                _ => out.push(Token::Name(name)),
            }
        } else if c == ':' && at(i + 1) == Some(':') {
            out.push(Token::Punct("::".to_owned()));
            i += 2;
        } else {
            out.push(Token::Punct(c.to_string()));
            i += 1;
        }
    }
    out
}

fn is_punct(token: Option<&Token>, punct: &str) -> bool {
    matches!(token, Some(Token::Punct(p)) if p == punct)
}

fn name_at(tokens: &[Token], i: usize) -> Option<&str> {
    match tokens.get(i) {
        Some(Token::Name(name)) => Some(name),
        _ => None,
    }
}

/// Reads the use tree at `tokens[i..]`, adding each path it names, with
/// `prefix` before it, to `out`: `a::{b, c::{self, d as e}, f::*}` names
/// `a::b`, `a::c`, `a::c::d` and `a::f::*`. Returns where the tree ends.
fn use_tree(
    tokens: &[Token],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix.to_vec();
    if is_punct(tokens.get(i), "::") {
        // `::name`: another crate, by its name.
        path.push("::".to_owned());
        i += 1;
    }
    loop {
        match tokens.get(i) {
            Some(Token::Name(name)) => {
                i += 1;
                // In braces, `self` is the path before them.
                if name != "self" || path.is_empty() {
                    path.push(name.clone());
                }
                if is_punct(tokens.get(i), "::") {
                    i += 1;
                    continue;
                }
                if name_at(tokens, i) == Some("as") {
                    i += 2;
                }
                out.push(path);
                return i;
            }
            Some(Token::Punct(p)) if p == "*" => {
                path.push("*".to_owned());
                out.push(path);
                return i + 1;
            }
            Some(Token::Punct(p)) if p == "{" => {
                i += 1;
                while i < tokens.len() && !is_punct(tokens.get(i), "}") {
                    let end = use_tree(tokens, i, &path, out);
                    // Past the comma, or past anything unreadable.
                    i = end.max(i + 1);
                    if is_punct(tokens.get(end), ",") {
                        i = end + 1;
                    }
                }
                return i + 1;
            }
            _ => return i,
        }
    }
}

/// `path`, written in the module `module` (empty for the crate's root),
/// from the crate's root: `crate::` is the root, `self::` the module,
/// each `super::` its parent. None for a path into another crate, or into
/// a child of the module (which is in the module's own part), or above
/// the root.
fn resolve(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let (mut base, rest) = match first.as_str() {
        "crate" => (Vec::new(), rest),
        "self" => (module.to_vec(), rest),
        "super" => {
            let mut base = module.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
            (base, rest)
        }
        "::" => return None,
        // At the root, a name is a module of the root (or a crate).
        _ if module.is_empty() => (Vec::new(), path),
        _ => return None,
    };
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Every path the source `text` of the module `module` names, from the
/// crate's root: each path of each `use` tree (nested braces, `self`, `as`,
/// globs, over many lines, `pub use`), and each path written inline that
/// starts at `crate::`, `$crate::`, `self::` or `super::`. A module written
/// inline (`mod tests { … }`) is a child of the module for the paths in
/// it. A glob ends its path with `*`.
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let tokens = tokens(text);
    let mut module = module.to_vec();
    // The brace depth at which each module written inline opened.
    let mut opened: Vec<usize> = Vec::new();
    let mut depth = 0;
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let after_path = is_punct(i.checked_sub(1).and_then(|j| tokens.get(j)), "::");
        match &tokens[i] {
            Token::Punct(p) if p == "{" => {
                depth += 1;
                i += 1;
            }
            Token::Punct(p) if p == "}" => {
                depth -= 1;
                if opened.last() == Some(&depth) {
                    opened.pop();
                    module.pop();
                }
                i += 1;
            }
            Token::Name(name) if name == "mod" && is_punct(tokens.get(i + 2), "{") => {
                module.push(name_at(&tokens, i + 1).unwrap_or_default().to_owned());
                opened.push(depth);
                depth += 1;
                i += 3;
            }
            // `use<'a>` after `impl Trait +` captures lifetimes; it is no
            // use declaration.
            Token::Name(name) if name == "use" && !is_punct(tokens.get(i + 1), "<") => {
                let mut paths = Vec::new();
                i = use_tree(&tokens, i + 1, &[], &mut paths);
                found.extend(paths.iter().filter_map(|p| resolve(&module, p)));
            }
            Token::Name(name)
                if ["crate", "self", "super"].contains(&name.as_str())
                    && !after_path
                    && is_punct(tokens.get(i + 1), "::") =>
            {
                let mut path = vec![name.clone()];
                i += 1;
                while is_punct(tokens.get(i), "::") {
                    match name_at(&tokens, i + 1) {
                        Some(next) => path.push(next.to_owned()),
                        None => break,
                    }
                    i += 2;
                }
                found.extend(resolve(&module, &path));
            }
            _ => i += 1,
        }
    }
    found
}

/// Every top-level part the source `text` of the module `module` names:
/// the first step of each path it names from the crate's root (`*` for a
/// glob of the root itself, which names them all).
fn named_parts(text: &str, module: &[String]) -> BTreeSet<String> {
    named_paths(text, module)
        .into_iter()
        .filter_map(|path| path.into_iter().next())
        .collect()
}

/// The module of the file at `relative` in `src/`: `soleils/apply.rs` is
/// `soleils::apply`, `render/mod.rs` is `render`, `lib.rs` and `main.rs`
/// are a crate's root.
fn module_of(relative: &Path) -> Vec<String> {
    let mut module: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if module.last().is_some_and(|m| m == "mod") || module == ["lib"] || module == ["main"] {
        module.pop();
    }
    module
}

/// The layers of docs/architecture.md, lowest first: the parts of each
/// row of its table of layers (`| 0 | `kit/`, `render/` | … |`), a part
/// written as its folder (`kit/`) or its file (`schema.rs`, `lib.rs`).
fn layers() -> Vec<Vec<String>> {
    let page = std::fs::read_to_string(common::repo().join("docs/architecture.md")).unwrap();
    layers_in(&page)
}

/// The layers of the table of layers in `page`, in the order of their
/// numbers, which must run 0, 1, 2, … down the table.
fn layers_in(page: &str) -> Vec<Vec<String>> {
    let mut layers = Vec::new();
    for line in page.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let [_, number, parts, ..] = cells[..] else {
            continue;
        };
        let Ok(number) = number.parse::<usize>() else {
            continue;
        };
        assert_eq!(number, layers.len(), "the layers run 0, 1, 2, …: {line}");
        let parts = parts
            .split(',')
            .map(|part| {
                let part = part.trim().trim_matches('`');
                part.strip_suffix('/')
                    .or_else(|| part.strip_suffix(".rs"))
                    .unwrap_or_else(|| panic!("a part is a folder or a file: {line}"))
                    .to_owned()
            })
            .collect();
        layers.push(parts);
    }
    layers
}

/// The layer of `part` among `layers`.
fn layer_of(layers: &[Vec<String>], part: &str) -> Option<usize> {
    layers
        .iter()
        .position(|layer| layer.iter().any(|p| p == part))
}

/// All that the rules cores name beneath them: the contract they fulfil
/// and the kit their messages are made with. Never the drawing engine,
/// chance (`kit::rng`) or files (`kit::atomic`, `kit::json_error`).
const THE_CORES_NAME_ONLY: &[&[&str]] = &[
    &["kit", "game"],
    &["kit", "path"],
    &["kit", "suggest"],
    &["kit", "bounded"],
];

/// Each break of the rule in the file at `relative` in `src/`, whose
/// source is `text`: a part named that is not beneath the file's own
/// part's layer, or a file whose part has no layer.
fn breaks(layers: &[Vec<String>], relative: &Path, text: &str) -> Vec<String> {
    let part = part_of(&common::repo().join("src").join(relative));
    let file = Path::new("src").join(relative);
    let Some(own) = layer_of(layers, &part) else {
        return vec![format!(
            "{}: its part `{part}` has no layer in docs/architecture.md",
            file.display()
        )];
    };
    let module = module_of(relative);
    let paths = named_paths(text, &module);
    let named: BTreeSet<String> = paths.iter().filter_map(|p| p.first().cloned()).collect();
    let mut broken = Vec::new();
    for name in &named {
        // A glob of the root names every part.
        let names: Vec<&String> = if name == "*" {
            layers.iter().flatten().collect()
        } else {
            vec![name]
        };
        for name in names {
            // Another crate's name, at a crate's root.
            let Some(theirs) = layer_of(layers, name) else {
                continue;
            };
            if *name != part && theirs >= own {
                broken.push(format!(
                    "{}: {part} (layer {own}) names crate::{name} (layer {theirs}), but a part names only the layers beneath its own",
                    file.display()
                ));
            }
        }
    }
    if part == "soleils" || part == "summertime" {
        for path in &paths {
            let allowed = path.first() == Some(&part)
                || THE_CORES_NAME_ONLY
                    .iter()
                    .any(|only| path.len() >= only.len() && path[..only.len()] == **only)
                || layer_of(layers, &path[0]).is_none();
            if !allowed {
                broken.push(format!(
                    "{}: {part} names crate::{}, but the rules cores name only the game contract and the kit of their messages: they draw nothing, draw no chance and do no I/O",
                    file.display(),
                    path.join("::")
                ));
            }
        }
    }
    broken
}

#[test]
fn dependencies_point_one_way() {
    let layers = layers();
    let src = common::repo().join("src");
    let files = common::rust_files(&src);
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        broken.extend(breaks(&layers, file.strip_prefix(&src).unwrap(), &text));
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The parts of `src/`: its folders and its files, as `part_of` names them.
fn parts_in_src() -> BTreeSet<String> {
    let src = common::repo().join("src");
    std::fs::read_dir(&src)
        .unwrap()
        .map(|entry| part_of(&entry.unwrap().path()))
        .collect()
}

#[test]
fn every_part_has_one_layer_and_every_layer_is_a_part() {
    let layers = layers();
    assert!(layers.len() > 5, "the table of layers is found: {layers:?}");
    let listed: Vec<&String> = layers.iter().flatten().collect();
    let unique: BTreeSet<&String> = listed.iter().copied().collect();
    assert_eq!(
        listed.len(),
        unique.len(),
        "a part in two layers: {layers:?}"
    );
    let unique: BTreeSet<String> = unique.into_iter().cloned().collect();
    assert_eq!(
        unique,
        parts_in_src(),
        "the layers against the parts of src/"
    );
    // lib.rs declares every other part, and the crates' roots are on top.
    let lib = std::fs::read_to_string(common::repo().join("src/lib.rs")).unwrap();
    let mut declared: BTreeSet<String> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect();
    declared.extend(["lib".to_owned(), "main".to_owned()]);
    assert_eq!(declared, unique, "lib.rs's modules against the layers");
    assert_eq!(layers.last().unwrap(), &["lib", "main"]);
}

#[test]
fn the_rules_cores_do_no_io_and_parse_no_arguments() {
    let mut files = Vec::new();
    for game in ["soleils", "summertime"] {
        files.extend(common::rust_files(&common::repo().join("src").join(game)));
    }
    let mut broken = Vec::new();
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for banned in [
            "std::fs",
            "serde_json",
            "clap",
            "std::time",
            "chrono::Local",
            "rand_core",
            "rand_chacha",
            "getrandom",
        ] {
            if text.contains(banned) {
                broken.push(format!("{}: names {banned}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_library_keeps_no_hidden_state() {
    let files = common::rust_files(&common::repo().join("src"));
    let mut broken = Vec::new();
    for file in &files {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for banned in ["thread_local!", "Box::leak", "static mut"] {
            if text.contains(banned) {
                broken.push(format!("{}: {banned}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn no_file_in_src_is_over_800_lines() {
    let files = common::rust_files(&common::repo().join("src"));
    let long: Vec<String> = files
        .iter()
        .filter_map(|file| {
            let lines = std::fs::read_to_string(file).unwrap().lines().count();
            (lines > 800).then(|| format!("{}: {lines} lines", file.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The parts `text` names, read in the module `module` (`soleils::apply`).
fn parts_in(module: &str, text: &str) -> Vec<String> {
    let module: Vec<String> = module
        .split("::")
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    named_parts(text, &module).into_iter().collect()
}

#[test]
fn the_reader_finds_every_path_of_a_use_tree() {
    let at = "soleils::apply";
    // A name right after the brace, as rustfmt groups imports.
    assert_eq!(parts_in(at, "use crate::{render, cli};"), ["cli", "render"]);
    // Nested braces, `self`, `as`, globs.
    assert_eq!(
        parts_in(
            at,
            "use crate::{log::{Fold, Entry}, render::{self, svg::to_svg}};"
        ),
        ["log", "render"]
    );
    assert_eq!(parts_in(at, "use crate::render::{self};"), ["render"]);
    assert_eq!(parts_in(at, "use crate::cli as c;"), ["cli"]);
    assert_eq!(
        parts_in(at, "use crate::{table as t, sim::*};"),
        ["sim", "table"]
    );
    assert_eq!(parts_in(at, "use crate::present::*;"), ["present"]);
    // A glob of the root names every part.
    assert_eq!(parts_in(at, "use crate::*;"), ["*"]);
    assert_eq!(parts_in(at, "use crate::{*};"), ["*"]);
    // Over many lines, with a comment among them.
    assert_eq!(
        parts_in(
            at,
            "use crate::{\n    render,\n    // crate::show\n    cli::{\n        run,\n    },\n};"
        ),
        ["cli", "render"]
    );
    // pub use, pub(crate) use, and a use inside a function.
    assert_eq!(parts_in(at, "pub use crate::table::status;"), ["table"]);
    assert_eq!(parts_in(at, "pub(crate) use crate::bots::Bot;"), ["bots"]);
    assert_eq!(
        parts_in(at, "fn f() {\n    use crate::show::x;\n    x();\n}"),
        ["show"]
    );
    // `use<'a>` after `impl Trait +` is no use tree; the path after it is
    // still read.
    assert_eq!(
        parts_in(
            at,
            "fn f<'a>() -> impl Sized + use<'a> { crate::render::x() }"
        ),
        ["render"]
    );
    // Another crate's paths name no part.
    assert!(parts_in(at, "use std::{fs, path::Path};\nuse ::serde::Serialize;").is_empty());
    // A child module of this one is in its part.
    assert!(parts_in(at, "use legal::moves;").is_empty());
    // At the crate's root, a name is a top-level module.
    assert_eq!(
        parts_in("", "use cli::run;\nuse self::render::svg;"),
        ["cli", "render"]
    );
}

#[test]
fn the_reader_finds_paths_written_inline() {
    let at = "soleils::apply";
    assert_eq!(
        parts_in(
            at,
            "let x = crate::render::svg::to_svg(s);\nfn f(x: &crate::log::Fold<G>) {}"
        ),
        ["log", "render"]
    );
    assert_eq!(parts_in(at, "let x = $crate::show::x();"), ["show"]);
    assert_eq!(parts_in(at, "pub(in crate::table) fn f() {}"), ["table"]);
    // `crate` alone and `self.` are no paths.
    assert!(parts_in(at, "pub(crate) fn f(&self) { self.x.y(); }").is_empty());
    // A path's later steps are not read as paths of their own.
    assert_eq!(
        parts_in(at, "let x = crate::log::self_check::crate_x();"),
        ["log"]
    );
}

#[test]
fn the_reader_resolves_super_from_the_files_module() {
    // soleils::template (its mod.rs): one super is soleils, two are the
    // root.
    let at = "soleils::template";
    assert_eq!(parts_in(at, "use super::apply::Apply;"), ["soleils"]);
    assert_eq!(parts_in(at, "use super::super::render::svg;"), ["render"]);
    assert_eq!(
        parts_in(at, "use super::super::{render, cli};"),
        ["cli", "render"]
    );
    assert_eq!(parts_in(at, "let x = super::super::cli::run();"), ["cli"]);
    assert_eq!(
        parts_in(at, "let super::super::log::Entry::Game(x) = e;"),
        ["log"]
    );
    assert_eq!(parts_in(at, "use super::super::*;"), ["*"]);
    assert_eq!(parts_in(at, "use self::raw::Raw;"), ["soleils"]);
    // soleils::template::check: two supers are soleils, three the root.
    let at = "soleils::template::check";
    assert_eq!(parts_in(at, "use super::super::apply;"), ["soleils"]);
    assert_eq!(parts_in(at, "use super::super::super::sim::Bot;"), ["sim"]);
    // Above the root is nowhere.
    assert!(parts_in(at, "use super::super::super::super::x;").is_empty());
    // From a folder's mod.rs, one super is the root.
    assert_eq!(parts_in("render", "use super::cli::run;"), ["cli"]);
    assert_eq!(parts_in("render", "use super::*;"), ["*"]);
    // A module written inline is one step deeper, and only inside it.
    assert_eq!(
        parts_in(
            "soleils::apply",
            "#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::super::sim::Bot;\n}\nuse super::super::table::x;"
        ),
        ["sim", "soleils", "table"]
    );
    assert_eq!(
        parts_in(
            "soleils",
            "mod tests { fn f() { use super::super::render; } }"
        ),
        ["render"]
    );
}

#[test]
fn the_reader_skips_comments_strings_and_characters() {
    let at = "soleils::apply";
    let text = r##"
        // crate::cli
        /// crate::cli
        //! crate::cli
        /* crate::cli /* nested crate::cli */ crate::cli */
        let a = "crate::cli \" crate::cli";
        let b = r#"crate::cli " crate::cli"#;
        let c = b"crate::cli";
        let d = '"'; let e = '\''; let f = b'"';
        fn g<'a>(x: &'a str) -> &'a str { x }
        let h = crate::log::x;
        let i = "http://crate::cli"; use crate::{render};
    "##;
    assert_eq!(parts_in(at, text), ["log", "render"]);
    // A raw name is no keyword.
    assert!(parts_in(at, "let r#use = crate_x::y;").is_empty());
}

#[test]
fn a_file_module_is_its_path_in_src() {
    let module = |p: &str| module_of(Path::new(p)).join("::");
    assert_eq!(module("soleils/apply.rs"), "soleils::apply");
    assert_eq!(module("soleils/template/mod.rs"), "soleils::template");
    assert_eq!(module("render/mod.rs"), "render");
    assert_eq!(module("kit/game.rs"), "kit::game");
    assert_eq!(module("schema.rs"), "schema");
    assert_eq!(module("lib.rs"), "");
    assert_eq!(module("main.rs"), "");
    assert_eq!(
        part_of(&common::repo().join("src/soleils/apply.rs")),
        "soleils"
    );
    assert_eq!(part_of(&common::repo().join("src/kit/game.rs")), "kit");
    assert_eq!(part_of(&common::repo().join("src/schema.rs")), "schema");
}

/// `text` with `line` put after its leading inner doc comment, where a
/// `use` goes.
fn with_line(text: &str, line: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let docs = lines.iter().take_while(|l| l.starts_with("//!")).count();
    let mut out: Vec<&str> = lines[..docs].to_vec();
    out.push(line);
    out.extend(&lines[docs..]);
    out.join("\n")
}

#[test]
fn a_forbidden_use_put_into_a_rules_file_is_caught() {
    // Real rules files, read and changed in memory only.
    for (file, line, caught) in [
        (
            "soleils/apply.rs",
            "use crate::{render, cli};",
            &["crate::render", "crate::cli"][..],
        ),
        (
            "summertime/apply.rs",
            "use crate::{\n    log::Fold,\n    serve,\n};",
            &["crate::log", "crate::serve"],
        ),
        (
            "soleils/template/mod.rs",
            "use super::super::render::svg;",
            &["crate::render"],
        ),
        (
            "soleils/template/check.rs",
            "fn f() -> super::super::super::table::Table { todo!() }",
            &["crate::table"],
        ),
        (
            "soleils/legal.rs",
            "pub use super::super::{present::*, workbench};",
            &["crate::present", "crate::workbench"],
        ),
        (
            "soleils/score.rs",
            "use crate::*;",
            &["crate::cli", "crate::table"],
        ),
        (
            "soleils/apply.rs",
            "use crate::kit::rng;",
            &["crate::kit::rng"],
        ),
        (
            "summertime/deck/mod.rs",
            "use crate::kit::atomic::write;",
            &["crate::kit::atomic"],
        ),
        // Files at the root of src/, and the kit beneath everything.
        ("schema.rs", "use crate::cli::run;", &["crate::cli"]),
        ("fuzz.rs", "use super::cli;", &["crate::cli"]),
        (
            "kit/game.rs",
            "use crate::soleils::Soleils;",
            &["crate::soleils"],
        ),
        (
            "kit/rng.rs",
            "use super::super::render;",
            &["crate::render"],
        ),
        ("render/mod.rs", "use crate::kit::atomic;", &["crate::kit"]),
        ("log/mod.rs", "use crate::bots::Bot;", &["crate::bots"]),
        (
            "bots/run.rs",
            "use crate::workbench::Tally;",
            &["crate::workbench"],
        ),
        ("stats/metric.rs", "use crate::bots::Bot;", &["crate::bots"]),
        (
            "present/mod.rs",
            "use crate::print::Drawn;",
            &["crate::print"],
        ),
        ("serve/mod.rs", "use crate::studio;", &["crate::studio"]),
    ] {
        let layers = layers();
        let text = std::fs::read_to_string(common::repo().join("src").join(file)).unwrap();
        assert!(
            breaks(&layers, Path::new(file), &text).is_empty(),
            "{file} breaks the rule already"
        );
        let broken = breaks(&layers, Path::new(file), &with_line(&text, line)).join("\n");
        for name in caught {
            assert!(
                broken
                    .lines()
                    .any(|b| b.starts_with(&format!("src/{file}: "))
                        && b.contains(&format!(" names {name}"))),
                "{line} in {file} is not caught as naming {name}:\n{broken}"
            );
        }
    }
}

#[test]
fn a_room_without_a_layer_is_caught() {
    let broken = breaks(&layers(), Path::new("newroom/mod.rs"), "use crate::log;");
    assert_eq!(
        broken,
        ["src/newroom/mod.rs: its part `newroom` has no layer in docs/architecture.md"]
    );
}

#[test]
fn the_table_of_layers_is_read_in_order() {
    let page = "x\n| layer | parts | why |\n|---|---|---|\n| 0 | `kit/`, `render/` | a |\n| 1 | `schema.rs` | b |\n";
    assert_eq!(layers_in(page), [vec!["kit", "render"], vec!["schema"]]);
}
