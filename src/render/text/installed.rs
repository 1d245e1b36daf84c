//! The machine's installed fonts as the last fallback, as a browser uses
//! them: for each character that the built-in fonts and the font files
//! given lack, the first installed face that has it joins the chain.
//!
//! The database of installed fonts is an argument ([`fontdb::Database`],
//! which the caller fills, as usvg takes its own): nothing here looks for
//! fonts by itself. The faces are tried in one order, whatever order the
//! folders list them in, so that a drawing made twice on one machine is
//! the same: upright before italic, normal width before condensed, the
//! weight nearest regular, sans before serif and proportional before
//! monospaced, then by file and place in the file.

use super::{Face, Fallback, Fonts};
use crate::render::scene::Typeset;
use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

/// Where a drawing's fonts come from: the fonts given (the built-in ones,
/// then any font files, in order), and the machine's installed fonts,
/// searched for a character none of those has (none if not consulted).
#[derive(Clone, Debug)]
pub struct FontSource {
    pub given: Arc<Fonts>,
    installed: Option<Arc<Installed>>,
}

/// The installed fonts, read by the caller's `load` the first time a
/// drawing lacks a character, and kept for the drawings after.
struct Installed {
    fonts: OnceLock<fontdb::Database>,
    load: Box<dyn Fn() -> fontdb::Database + Send + Sync>,
}

impl std::fmt::Debug for Installed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let faces = self.fonts.get().map(|db| db.len());
        f.debug_struct("Installed").field("faces", &faces).finish()
    }
}

impl FontSource {
    /// The built-in fonts alone.
    pub fn builtin() -> FontSource {
        FontSource::given(Fonts::builtin().clone())
    }

    /// `given`, and no installed fonts.
    pub fn given(given: Arc<Fonts>) -> FontSource {
        FontSource {
            given,
            installed: None,
        }
    }

    /// `given`, then the installed fonts that `load` reads (it is called
    /// once, when a drawing first lacks a character).
    pub fn with_installed(
        given: Arc<Fonts>,
        load: impl Fn() -> fontdb::Database + Send + Sync + 'static,
    ) -> FontSource {
        FontSource {
            given,
            installed: Some(Arc::new(Installed {
                fonts: OnceLock::new(),
                load: Box::new(load),
            })),
        }
    }

    /// What `draw` lays out in the fonts given; if its text has characters
    /// those lack, laid out again with the installed faces that have them
    /// added to the chain. A character no font has is left for the
    /// backends to refuse ([`Fonts::check`]), naming the fonts searched.
    pub fn typeset<T: Typeset, E>(
        &self,
        draw: impl Fn(&Arc<Fonts>) -> Result<T, E>,
    ) -> Result<T, E> {
        let first = draw(&self.given)?;
        let Some(installed) = &self.installed else {
            return Ok(first);
        };
        let lacking = lacking(&first);
        if lacking.is_empty() {
            return Ok(first);
        }
        let database = installed.fonts.get_or_init(|| (installed.load)());
        let wider = self.given.with_installed(database, &lacking);
        draw(&Arc::new(wider))
    }
}

/// The characters of a document's texts that its fonts lack.
fn lacking(document: &impl Typeset) -> BTreeSet<char> {
    use crate::render::scene::Item;
    fn walk(fonts: &Fonts, items: &[Item], into: &mut BTreeSet<char>) {
        for item in items {
            match item {
                Item::Text { text, weight, .. } => into.extend(fonts.lacking(text, *weight)),
                Item::Group { items, .. } => walk(fonts, items, into),
                Item::Shape { .. } => {}
            }
        }
    }
    let mut into = BTreeSet::new();
    for page in &document.scene().pages {
        walk(document.fonts(), &page.items, &mut into);
    }
    into
}

/// The order in which installed faces are tried: the smaller first.
fn preference(info: &fontdb::FaceInfo) -> impl Ord + use<> {
    let family = info.families.first().map(|(f, _)| f.as_str()).unwrap_or("");
    let serif = family.contains("Serif") && !family.contains("Sans");
    let path = match &info.source {
        fontdb::Source::File(path) | fontdb::Source::SharedFile(path, _) => Some(path.clone()),
        fontdb::Source::Binary(_) => None,
    };
    (
        info.style != fontdb::Style::Normal,
        info.stretch != fontdb::Stretch::Normal,
        (i32::from(info.weight.0) - 400).abs(),
        serif,
        info.monospaced,
        path,
        info.index,
    )
}

impl Fonts {
    /// These fonts, followed by the faces of `installed` that have the
    /// characters of `lacking` (which these lack): for each character in
    /// order, the first face, in the order of preference, that has its
    /// glyph as an outline. A face joins the chain once, and draws every
    /// weight, as a font file given does.
    pub fn with_installed(&self, installed: &fontdb::Database, lacking: &BTreeSet<char>) -> Fonts {
        let mut faces: Vec<&fontdb::FaceInfo> = installed.faces().collect();
        faces.sort_by_cached_key(|info| preference(info));
        let mut left: Vec<char> = lacking.iter().copied().collect();
        let mut added: Vec<Fallback> = Vec::new();
        for info in &faces {
            if left.is_empty() {
                break;
            }
            let has = installed.with_face_data(info.id, |data, index| {
                let Ok(face) = ttf_parser::Face::parse(data, index) else {
                    return Vec::new();
                };
                let tables = face.tables();
                if tables.glyf.is_none() && tables.cff.is_none() && tables.cff2.is_none() {
                    return Vec::new();
                }
                (left.iter().copied())
                    .filter(|&c| face.glyph_index(c).is_some())
                    .collect::<Vec<char>>()
            });
            let Some(has) = has.filter(|has| !has.is_empty()) else {
                continue;
            };
            let face = installed
                .with_face_data(info.id, |data, index| {
                    Face::parse_at(data.to_vec(), index).ok()
                })
                .flatten();
            let Some(face) = face else {
                continue;
            };
            let path = match &info.source {
                fontdb::Source::File(path) | fontdb::Source::SharedFile(path, _) => {
                    path.display().to_string()
                }
                fontdb::Source::Binary(_) => "installed".to_owned(),
            };
            added.push(Fallback {
                face: Arc::new(face),
                path,
            });
            left.retain(|c| !has.contains(c));
        }
        self.followed_by(added, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene::Weight;

    /// A database of one installed font: the built-in regular face, as if
    /// installed, and a font file of its own bytes.
    fn one_installed() -> fontdb::Database {
        let mut db = fontdb::Database::new();
        db.load_font_data(super::super::REGULAR.to_vec());
        db
    }

    #[test]
    fn an_installed_face_joins_the_chain_only_for_what_the_others_lack() {
        let db = one_installed();
        // Given: fonts that lack nothing the installed one has.
        let fonts = Fonts::builtin().with_installed(&db, &BTreeSet::new());
        // Then: nothing joins; the installed fonts were searched.
        assert_eq!(fonts.chain(Weight::Regular).len(), 1);
        assert_eq!(fonts.css_family, Fonts::builtin().css_family);
        // When a character is lacking that the installed face has not,
        // nothing joins either, and the refusal says what was searched.
        let lacking: BTreeSet<char> = ['李'].into();
        let fonts = Fonts::builtin().with_installed(&db, &lacking);
        assert_eq!(fonts.chain(Weight::Regular).len(), 1);
        let error = fonts.check("李雷", Weight::Regular).unwrap_err();
        assert!(error.installed);
        assert!(
            error
                .advice()
                .contains("nor has any font installed on this machine"),
            "{}",
            error.advice()
        );
    }
}
