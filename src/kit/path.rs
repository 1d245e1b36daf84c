//! JSON paths such as `boxes[3].pearl`, used to locate problems in templates.

use std::fmt;

/// One step of a [`JsonPath`]: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(&'static str),
    Index(usize),
}

/// A location inside a JSON document, displayed as `zones[1].groups[0].id`.
///
/// The empty path is the document itself and displays as `(root)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonPath(Vec<Segment>);

impl JsonPath {
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }

    /// This path extended by an object key.
    pub fn key(&self, key: &'static str) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key));
        JsonPath(segments)
    }

    /// This path extended by an array index.
    pub fn index(&self, index: usize) -> Self {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        JsonPath(segments)
    }

    pub fn segments(&self) -> &[Segment] {
        &self.0
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if i == 0 => write!(f, "{key}")?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_keys_and_indexes() {
        let path = JsonPath::root()
            .key("zones")
            .index(1)
            .key("groups")
            .index(0);
        assert_eq!(path.to_string(), "zones[1].groups[0]");
        assert_eq!(JsonPath::root().to_string(), "(root)");
    }
}

/// What a list of problems is about: its noun in messages.
pub trait Subject {
    /// "template", "deck".
    const WHAT: &'static str;
}

/// One problem in a document, located by its JSON path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem<K> {
    pub path: JsonPath,
    pub kind: K,
}

impl<K: fmt::Display> fmt::Display for Problem<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.kind)
    }
}

/// Every problem found in a document, in document order: validation
/// reports them all at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problems<K>(pub Vec<Problem<K>>);

impl<K> Problems<K> {
    pub fn problems(&self) -> &[Problem<K>] {
        &self.0
    }
}

impl<K: fmt::Display + Subject> Problems<K> {
    /// The problems of a document embedded in a start event, with paths
    /// from the event (`template.boxes[0].pearl`).
    pub fn embedded(&self, key: &str) -> String {
        let mut text = format!("the embedded {} has {}", K::WHAT, count(self.0.len()));
        for problem in &self.0 {
            text.push_str(&format!("\n  {key}.{problem}"));
        }
        text
    }
}

fn count(n: usize) -> String {
    format!("{n} problem{}", if n == 1 { "" } else { "s" })
}

impl<K: fmt::Display + Subject> fmt::Display for Problems<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} has {}", K::WHAT, count(self.0.len()))?;
        for problem in &self.0 {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl<K: fmt::Display + fmt::Debug + Subject> std::error::Error for Problems<K> {}
