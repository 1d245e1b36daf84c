//! The join links' secrets: one random token per player and one for the
//! referee, kept in a file beside the log that only its owner may read, so
//! that a restarted server hands out the same links. Each token has a
//! short code too, for a person to type at `/join` ([`super::join`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use subtle::ConstantTimeEq;

/// Who a token belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    Player(String),
    Referee,
}

/// The tokens of one log.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tokens {
    pub players: BTreeMap<String, String>,
    pub referee: String,
    /// The links files printed with these tokens (absolute paths), so
    /// that new tokens can take the dead codes off the table. Absent from
    /// files written before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<PathBuf>,
    /// The short code of each token, as stored (see
    /// [`super::join::normalise`]), to the token. Absent from files
    /// written before they were kept: they are made on loading.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub codes: BTreeMap<String, String>,
}

/// The bytes of randomness in a token: 256 bits, written as 64 hex digits.
const BYTES: usize = 32;

/// A fresh secret: 256 random bits as 64 hex digits.
pub fn token() -> std::io::Result<String> {
    let bytes: [u8; BYTES] = random()?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// `N` bytes from the operating system's random source, for the tokens
/// and the short codes alike.
pub(super) fn random<const N: usize>() -> std::io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(bytes)
}

/// Where the tokens of the log at `log` live: `LOG.tokens`.
pub fn path_for(log: &Path) -> PathBuf {
    let mut name = log.file_name().unwrap_or_default().to_owned();
    name.push(".tokens");
    log.with_file_name(name)
}

impl Tokens {
    /// Fresh tokens for `players` and a referee.
    pub fn new(players: &[String]) -> std::io::Result<Tokens> {
        let mut tokens = Tokens {
            players: players
                .iter()
                .map(|p| Ok((p.clone(), token()?)))
                .collect::<std::io::Result<_>>()?,
            referee: token()?,
            links: Vec::new(),
            codes: BTreeMap::new(),
        };
        tokens.fill_codes()?;
        Ok(tokens)
    }

    /// Gives every token a short code of its own, and drops the codes of
    /// no token or of a malformed shape; whether anything changed.
    pub fn fill_codes(&mut self) -> std::io::Result<bool> {
        let all: Vec<String> = self
            .players
            .values()
            .chain([&self.referee])
            .cloned()
            .collect();
        let before = self.codes.len();
        self.codes.retain(|code, token| {
            all.contains(token) && super::join::normalise(code).as_deref() == Some(code.as_str())
        });
        let mut changed = self.codes.len() != before;
        // One code a token: a second one for the same token goes.
        let mut seen = std::collections::BTreeSet::new();
        self.codes.retain(|_, token| seen.insert(token.clone()));
        for token in all {
            if self.code_of(&token).is_none() {
                let code = loop {
                    let code = super::join::short_code()?;
                    if !self.codes.contains_key(&code) {
                        break code;
                    }
                };
                self.codes.insert(code, token);
                changed = true;
            }
        }
        Ok(changed || self.codes.len() != before)
    }

    /// The short code of `token`, as stored.
    pub fn code_of(&self, token: &str) -> Option<&str> {
        (self.codes.iter())
            .find(|(_, t)| t.as_str() == token)
            .map(|(code, _)| code.as_str())
    }

    /// The token whose short code is `code` (as stored), comparing with
    /// every code in constant time.
    pub fn by_code(&self, code: &str) -> Option<&str> {
        let mut found = None;
        for (known, token) in &self.codes {
            if bool::from(known.as_bytes().ct_eq(code.as_bytes())) {
                found = Some(token.as_str());
            }
        }
        found
    }

    /// The tokens in `path`, if it holds tokens for exactly `players`;
    /// otherwise (or with `fresh`) new ones, written there readable by the
    /// owner alone. With new tokens come the links files printed with the
    /// old ones, whose codes no longer work.
    pub fn load_or_create(
        path: &Path,
        players: &[String],
        fresh: bool,
    ) -> std::io::Result<(Tokens, Vec<PathBuf>)> {
        let old = Tokens::parsed(path);
        if let Some(tokens) = &old
            && !fresh
            && tokens.fit(players)
        {
            let mut tokens = tokens.clone();
            if tokens.fill_codes()? {
                tokens.save(path)?;
            }
            return Ok((tokens, Vec::new()));
        }
        let tokens = Tokens::new(players)?;
        tokens.save(path)?;
        Ok((tokens, old.map(|old| old.links).unwrap_or_default()))
    }

    /// The tokens saved at `path` for exactly `players`, if it holds valid
    /// ones, read as they are: nothing is made or written. For a request
    /// that needs no token, which must change nothing on disk.
    pub fn read(path: &Path, players: &[String]) -> Option<Tokens> {
        Tokens::parsed(path).filter(|tokens| tokens.fit(players))
    }

    /// The tokens file at `path`, if it reads as one.
    fn parsed(path: &Path) -> Option<Tokens> {
        let text = std::fs::read_to_string(path).ok()?;
        serde_json::from_str::<Tokens>(&text).ok()
    }

    /// Whether these are valid tokens for exactly `players`.
    fn fit(&self, players: &[String]) -> bool {
        let names: std::collections::BTreeSet<&String> = players.iter().collect();
        self.players.keys().eq(names) && self.valid()
    }

    /// Notes that the links file `file` was printed with these tokens, in
    /// the tokens file at `path`.
    pub fn printed(&mut self, path: &Path, file: &Path) -> std::io::Result<()> {
        let file = std::path::absolute(file)?;
        if !self.links.contains(&file) {
            self.links.push(file);
            self.save(path)?;
        }
        Ok(())
    }

    /// Every token is 64 hex digits, and no two are the same.
    fn valid(&self) -> bool {
        let all: Vec<&String> = self.players.values().chain([&self.referee]).collect();
        let distinct: std::collections::BTreeSet<&&String> = all.iter().collect();
        distinct.len() == all.len()
            && all
                .iter()
                .all(|t| t.len() == 2 * BYTES && t.bytes().all(|b| b.is_ascii_hexdigit()))
    }

    fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).expect("tokens serialize");
        // A temporary file beside, readable by the owner alone from the
        // start (tempfile creates it 0600), synced, then renamed over.
        crate::kit::atomic::write_private(path, text.as_bytes())
    }

    /// Whose token `given` is, comparing with every token in constant time.
    pub fn role(&self, given: &str) -> Option<Role> {
        let given = given.as_bytes();
        let mut found = None;
        for (name, token) in &self.players {
            if bool::from(token.as_bytes().ct_eq(given)) {
                found = Some(Role::Player(name.clone()));
            }
        }
        if bool::from(self.referee.as_bytes().ct_eq(given)) {
            found = Some(Role::Referee);
        }
        found
    }
}

/// Removes the printed links `dead` whose codes no longer work, but for
/// `kept` (one just written over); what was done, a line each.
pub fn remove_dead(dead: &[PathBuf], kept: Option<&Path>) -> Vec<String> {
    let mut said = Vec::new();
    for old in dead.iter().filter(|old| Some(old.as_path()) != kept) {
        match std::fs::remove_file(old) {
            Ok(()) => said.push(format!(
                "removed {}: its codes were for the old links, which no longer work",
                old.display()
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => said.push(format!(
                "could not remove {}, whose codes no longer work: {e}; destroy it by hand",
                old.display()
            )),
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_recognised() {
        let tokens = Tokens::new(&["Ann".to_owned(), "Bob".to_owned()]).unwrap();
        assert!(tokens.valid());
        assert_eq!(
            tokens.role(&tokens.players["Ann"]),
            Some(Role::Player("Ann".to_owned()))
        );
        assert_eq!(tokens.role(&tokens.referee), Some(Role::Referee));
        assert_eq!(tokens.role("guess"), None);
        assert_eq!(tokens.role(""), None);
        let mut near = tokens.referee.clone();
        near.pop();
        assert_eq!(tokens.role(&near), None);
    }

    #[test]
    fn each_token_has_a_short_code_of_its_own() {
        let tokens = Tokens::new(&["Ann".to_owned(), "Bob".to_owned()]).unwrap();
        assert_eq!(tokens.codes.len(), 3);
        for token in tokens.players.values().chain([&tokens.referee]) {
            let code = tokens.code_of(token).unwrap();
            assert_eq!(tokens.by_code(code), Some(token.as_str()));
        }
        assert_eq!(tokens.by_code("0000000000"), None);
    }

    #[test]
    fn an_older_tokens_file_gets_its_codes_and_keeps_its_tokens() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("m.jsonl.tokens");
        let players = ["Ann".to_owned(), "Bob".to_owned()];
        let mut old = Tokens::new(&players).unwrap();
        old.codes.clear();
        old.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("codes"), "{text}");
        let (loaded, dead) = Tokens::load_or_create(&path, &players, false).unwrap();
        assert!(dead.is_empty());
        assert_eq!(loaded.players, old.players);
        assert_eq!(loaded.referee, old.referee);
        assert_eq!(loaded.codes.len(), 3);
        let again = std::fs::read_to_string(&path).unwrap();
        let saved: Tokens = serde_json::from_str(&again).unwrap();
        assert_eq!(saved.codes, loaded.codes, "saved, so that slips stay right");
        let (twice, _) = Tokens::load_or_create(&path, &players, false).unwrap();
        assert_eq!(twice.codes, loaded.codes);
    }
}
