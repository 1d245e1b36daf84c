//! The players file: one player a line, `NAME` or `NAME<TAB>ID`; blank
//! lines and lines starting with `#` are skipped. A player without an id
//! gets `p` and their line number, and two players of the same name are
//! told apart in the table logs as `Ann` and `Ann (2)`.

use super::entry::Player;

/// Why a players file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayersError {
    #[error("{line}: expected a name, or a name, a tab and an id, but found {found:?}")]
    Line { line: usize, found: String },
    #[error("{line}: expected an id not given before, but found {id:?} again (line {first})")]
    DuplicateId {
        line: usize,
        id: String,
        first: usize,
    },
    #[error("expected at least one player, but the file has none")]
    Empty,
}

/// The players of a players file, in its order, their names made unique
/// in the event: the second Ann is `Ann (2)`, unless `taken` (the names
/// already in the event) says otherwise.
pub fn parse(text: &str, taken: &[&str]) -> Result<Vec<Player>, PlayersError> {
    let mut players: Vec<(usize, Player)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut fields = raw.split('\t').map(str::trim);
        let name = fields.next().unwrap_or_default();
        let id = fields.next();
        let bad = fields.next().is_some()
            || name.is_empty()
            || id.is_some_and(|id| id.is_empty() || id.contains(char::is_whitespace));
        if bad {
            let found = raw.to_owned();
            return Err(PlayersError::Line { line, found });
        }
        let id = id.map_or_else(|| format!("p{line}"), str::to_owned);
        if let Some((first, _)) = players.iter().find(|(_, p)| p.id == id) {
            let first = *first;
            return Err(PlayersError::DuplicateId { line, id, first });
        }
        let name = name.to_owned();
        players.push((line, Player { id, name }));
    }
    if players.is_empty() {
        return Err(PlayersError::Empty);
    }
    let mut names: Vec<String> = taken.iter().map(|&n| n.to_owned()).collect();
    Ok(players
        .into_iter()
        .map(|(_, mut player)| {
            player.name = unique(&player.name, &names);
            names.push(player.name.clone());
            player
        })
        .collect())
}

/// `name`, or `name (2)`, `name (3)`, … the first not in `names`.
pub fn unique(name: &str, names: &[String]) -> String {
    let free = |candidate: &String| !names.contains(candidate);
    std::iter::once(name.to_owned())
        .chain((2..).map(|n| format!("{name} ({n})")))
        .find(free)
        .expect("some number is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_anns_are_two_players() {
        let players = parse("Ann\n# a comment\n\nBob\tb7\nAnn\n", &[]).unwrap();
        let shown: Vec<_> = players.iter().map(|p| (&*p.id, &*p.name)).collect();
        assert_eq!(shown, [("p1", "Ann"), ("b7", "Bob"), ("p5", "Ann (2)")]);
    }

    #[test]
    fn a_repeated_id_is_refused_with_both_lines() {
        let error = parse("Ann\ta\nBob\ta\n", &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "2: expected an id not given before, but found \"a\" again (line 1)"
        );
    }
}
