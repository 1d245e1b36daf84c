//! The one-pass decode of a regular line: `seq`, `at`, `prev` and `type`
//! read as borrowed strings while serde_json walks the object once, and the
//! event's own fields handed straight to the event's deserializer.
//!
//! The derived envelope flattens the event, so serde buffers every field of
//! the line into its generic `Content`, then buffers the event's fields a
//! second time for the internally tagged enum, and the envelope's `prev`
//! becomes an owned `String`. Here nothing of the envelope is buffered.
//!
//! The reader upcasts a start line of an older format before either path
//! sees it, so this path only meets the current format.
//!
//! This path only accepts: on anything irregular (a field other than `seq`,
//! `at` or `prev` before `type`, a `type` the game does not know, escaped
//! keys, duplicates, a bad timestamp, a schema error) it gives `None`, and the
//! exact path of the reader decodes the line again, with its messages. So
//! whatever it accepts, it decodes exactly as the derived envelope does; the
//! tests below check that on the golden replays, the bad logs, simulated
//! logs, and reordered and altered lines.

use crate::kit::game::Game;
use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use std::fmt;
use std::marker::PhantomData;

/// A line decoded by the fast path, its envelope still borrowed.
#[derive(Debug, PartialEq)]
pub(super) struct Fast<'a, E> {
    pub seq: u64,
    /// The timestamp's text, already checked to be RFC 3339.
    pub at: Option<&'a str>,
    pub prev: Option<&'a str>,
    pub event: E,
}

/// Decodes a line of game events in one pass, or `None` if the line needs
/// the exact path: a meta entry, an error, or anything irregular.
pub(super) fn decode<'a, G: Game>(bytes: &'a [u8]) -> Option<Fast<'a, G::Event>> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let visitor = LineVisitor::<G> { game: PhantomData };
    let fast = deserializer.deserialize_map(visitor).ok()??;
    deserializer.end().ok()?;
    Some(fast)
}

/// Whether `text` is a timestamp the envelope accepts.
pub(super) fn valid_at(text: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(text).is_ok()
}

/// The envelope fields as they are met.
#[derive(Default)]
struct Slots<'a> {
    seq: Option<u64>,
    at: Option<&'a str>,
    /// `Some(None)` for an explicit `"prev": null`, which the envelope reads
    /// as no hash.
    prev: Option<Option<&'a str>>,
}

impl<'a> Slots<'a> {
    /// Reads the value of an envelope field into its slot. `Ok(false)` if
    /// `key` is not an envelope field; an error for a duplicate.
    fn take<A: MapAccess<'a>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "seq" if self.seq.is_none() => self.seq = Some(map.next_value()?),
            "at" if self.at.is_none() => {
                let text: &'a str = map.next_value()?;
                if !valid_at(text) {
                    return Err(de::Error::custom("not RFC 3339"));
                }
                self.at = Some(text);
            }
            "prev" if self.prev.is_none() => self.prev = Some(map.next_value()?),
            "seq" | "at" | "prev" => return Err(de::Error::custom("duplicate")),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

struct LineVisitor<G> {
    game: PhantomData<G>,
}

impl<'de, G: Game> Visitor<'de> for LineVisitor<G> {
    /// `None`: the line is for the exact path.
    type Value = Option<Fast<'de, G::Event>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an event")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut slots = Slots::default();
        // The envelope first, as sunfold writes it; then `type`.
        let kind = loop {
            let Some(key) = map.next_key::<&'de str>()? else {
                return Ok(None);
            };
            if key == "type" {
                break map.next_value::<&'de str>()?;
            }
            if !slots.take(key, &mut map)? {
                return Ok(None);
            }
        };
        if !G::EVENT_KINDS.contains(&kind) {
            return Ok(None);
        }
        // The event's own fields go straight to its payload's deserializer:
        // nothing is buffered.
        let fields = EventDeserializer {
            map: &mut map,
            slots: &mut slots,
        };
        let event = G::decode_fields(kind, fields)?;
        let Some(seq) = slots.seq else {
            return Ok(None);
        };
        Ok(Some(Fast {
            seq,
            at: slots.at,
            prev: slots.prev.flatten(),
            event,
        }))
    }
}

/// The rest of the line, after `type`, as the event's own map: its
/// remaining fields, with any envelope field after `type` taken aside.
struct EventDeserializer<'s, 'de, A> {
    map: &'s mut A,
    slots: &'s mut Slots<'de>,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for EventDeserializer<'_, 'de, A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for EventDeserializer<'_, 'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            let Some(key) = self.map.next_key::<&'de str>()? else {
                return Ok(None);
            };
            if !self.slots.take(key, &mut *self.map)? {
                return seed.deserialize(self::key(key)).map(Some);
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

fn key<'de, E: de::Error>(text: &'de str) -> BorrowedStrDeserializer<'de, E> {
    BorrowedStrDeserializer::new(text)
}

#[cfg(test)]
mod tests {
    //! The fast path against the exact one: whatever the fast path accepts,
    //! the derived envelope decodes to the same record, and `decode` gives
    //! what the exact path gives, value or message, on every line tried.

    use super::super::reader::{Line, decode, decode_exact};
    use crate::kit::game::Game;
    use crate::log::chained_log;
    use crate::soleils::Soleils;
    use crate::summertime::Summertime;
    use std::path::Path;

    /// Checks one line for game `G`; true if the fast path took it.
    fn agree<G: Game>(text: &[u8], terminated: bool) -> bool
    where
        G::Event: PartialEq + std::fmt::Debug,
    {
        let line = Line {
            number: 7,
            bytes: text,
            terminated,
        };
        let exact = decode_exact::<G>(&line);
        // As the reader does: a format-1 start line is upcast first.
        let upcast = super::super::reader::upcast(&line);
        let current = match &upcast {
            Ok(Some(bytes)) => bytes.as_slice(),
            _ => text,
        };
        let fast = super::decode::<G>(current);
        let shown = String::from_utf8_lossy(&text[..text.len().min(300)]);
        if let Some(fast) = &fast {
            let record = exact
                .as_ref()
                .unwrap_or_else(|e| panic!("fast accepts what exact refuses ({e}): {shown}"));
            assert_eq!(record.seq, fast.seq, "{shown}");
            assert_eq!(record.prev.as_deref(), fast.prev, "{shown}");
            let at = fast
                .at
                .map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap());
            assert_eq!(record.at, at, "{shown}");
            assert_eq!(record.entry, super::super::Entry::Game(fast.event.clone()));
        }
        match (decode::<G>(&line), exact) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{shown}"),
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{shown}");
                assert_eq!((a.line, a.seq, a.kind), (b.line, b.seq, b.kind), "{shown}");
                assert_eq!(a.error, b.error, "{shown}");
            }
            (a, b) => panic!("decode {:?} but exact {:?}: {shown}", a.is_ok(), b.is_ok()),
        }
        fast.is_some()
    }

    /// Lines altered the ways a hand-written or damaged log may be.
    fn variants(line: &str) -> Vec<String> {
        let mut out = vec![line.to_owned()];
        let Some(body) = line.strip_prefix('{').and_then(|l| l.strip_suffix('}')) else {
            return out;
        };
        let at = "\"at\":\"2026-07-14T15:02:00+02:00\"";
        for extra in [
            at,
            "\"at\":\"2026-07-14 15:02\"",
            "\"at\":null",
            "\"prev\":null",
            "\"seq\":3",
            "\"zzz\":1",
            "\"type\":\"rolled\"",
        ] {
            out.push(format!("{{{extra},{body}}}"));
            out.push(format!("{{{body},{extra}}}"));
        }
        out.push(format!("{{ {body} }}"));
        out.push(format!(" {{{body}}}\t"));
        out.push(format!("{{{body}}}x"));
        out.push(format!("{{{body}}}}}"));
        out.push(format!("[{body}]"));
        let mut half = line.len() / 2;
        while !line.is_char_boundary(half) {
            half -= 1;
        }
        out.push(line[..half].to_owned());
        out.push(line.replacen("\"seq\"", "\"s\\u0065q\"", 1));
        out.push(line.replacen("\"type\"", "\"typ\\u0065\"", 1));
        out.push(line.replacen("\"player\"", "\"pl\\u0061yer\"", 1));
        out.push(line.replacen("\"player\":\"", "\"player\":\"\\u0041", 1));
        out.push(line.replacen("\"prev\":\"", "\"prev\":\"\\u0030", 1));
        out.push(line.replacen("\"seq\":", "\"seq\":-", 1));
        out.push(line.replacen("\"seq\":", "\"seq\":1.", 1));
        out.push(line.replacen("\"value\":", "\"value\":1", 1));
        out.push(line.replacen("\"value\":", "\"value\":-", 1));
        out.push(line.replacen(",\"prev\":", ",\"x\":0,\"prev\":", 1));
        // Every field moved to the end in turn: `type` after the event's
        // fields, the envelope after `type`, and so on.
        if let Ok(serde_json::Value::Object(map)) = serde_json::from_str(line) {
            for key in map.keys() {
                let mut fields: Vec<String> = map
                    .iter()
                    .filter(|(k, _)| *k != key)
                    .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(k.as_str())))
                    .collect();
                let removed = format!("{{{}}}", fields.join(","));
                fields.push(format!(
                    "{}:{}",
                    serde_json::Value::from(key.as_str()),
                    map[key]
                ));
                out.push(format!("{{{}}}", fields.join(",")));
                out.push(removed);
            }
        }
        out
    }

    fn check_lines(text: &str, variants_too: bool) -> (usize, usize) {
        let (mut lines, mut fast) = (0, 0);
        for line in text.lines() {
            let tried = if variants_too {
                variants(line)
            } else {
                vec![line.to_owned()]
            };
            for (i, line) in tried.iter().enumerate() {
                for terminated in [true, false] {
                    let took = agree::<Soleils>(line.as_bytes(), terminated)
                        | agree::<Summertime>(line.as_bytes(), terminated);
                    if i == 0 && terminated {
                        lines += 1;
                        fast += usize::from(took);
                    }
                }
            }
        }
        (lines, fast)
    }

    fn files(folder: &str) -> Vec<std::path::PathBuf> {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        let mut files: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn golden_replays_agree_and_go_fast() {
        for path in files("replays") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (lines, fast) = check_lines(&text, true);
            // Every line but the meta entries (undone, claimed) goes fast.
            let meta = text
                .lines()
                .filter(|l| l.contains("\"type\":\"undone\"") || l.contains("\"type\":\"claimed\""))
                .count();
            assert_eq!(fast + meta, lines, "{}", path.display());
        }
    }

    #[test]
    fn bad_logs_agree() {
        for path in files("tests/bad") {
            let bytes = std::fs::read(&path).unwrap();
            for line in bytes.split(|&b| b == b'\n') {
                agree::<Soleils>(line, true);
                agree::<Summertime>(line, true);
                agree::<Soleils>(line, false);
                if let Ok(line) = std::str::from_utf8(line) {
                    check_lines(line, true);
                }
            }
        }
    }

    /// A random game from a golden replay's start: legal events drawn by a
    /// small seeded generator, written as a chained log.
    fn random_log<G: Game>(start: &str, seed: u64) -> String {
        let line = Line {
            number: 1,
            bytes: start.as_bytes(),
            terminated: true,
        };
        let Ok(record) = decode::<G>(&line) else {
            panic!("a golden start decodes")
        };
        let super::super::Entry::Game(first) = record.entry else {
            panic!("a game event")
        };
        let mut state = G::setup(G::as_start(&first).expect("a start")).expect("a setup");
        let mut events = vec![first.clone()];
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for _ in 0..400 {
            let legal = G::legal_events(&state);
            if legal.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let event = legal[(x % legal.len() as u64) as usize].clone();
            G::apply(&mut state, &event).expect("a legal event applies");
            events.push(event);
        }
        chained_log(&events)
    }

    #[test]
    fn random_logs_agree_and_go_fast() {
        for path in files("replays") {
            let text = std::fs::read_to_string(&path).unwrap();
            let start = text.lines().next().unwrap();
            for seed in 0..12 {
                let log = if start.contains("\"game\":\"soleils\"") {
                    random_log::<Soleils>(start, seed)
                } else {
                    random_log::<Summertime>(start, seed)
                };
                let (lines, fast) = check_lines(&log, seed < 2);
                assert_eq!(fast, lines, "{}", path.display());
                assert!(lines > 1, "{}", path.display());
            }
        }
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            super::super::reader::line_hash(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
