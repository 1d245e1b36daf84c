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
    #[error(
        "expected at least two players, since every table seats two or more, but the file has one"
    )]
    One,
}

/// A player whose name was taken by another before them: the line, the
/// name given, the line that gave it first (none when a player already in
/// the event has it), and the name they are given instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamed {
    pub line: usize,
    pub name: String,
    pub first: Option<usize>,
    pub renamed: String,
}

impl std::fmt::Display for Renamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, name, renamed) = (self.line, &self.name, &self.renamed);
        let before = match self.first {
            Some(first) => format!("line {first}"),
            None => "a player of the event".to_owned(),
        };
        write!(
            f,
            "{line}: expected a name no other player has, but found {name:?} again ({before}): named {renamed:?}"
        )
    }
}

/// A players file read: its players, in its order, and those renamed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub players: Vec<Player>,
    pub renamed: Vec<Renamed>,
}

/// The players of a players file, in its order, their names made unique
/// in the event: the second Ann is `Ann (2)`, or the first `Ann (N)` that
/// neither `taken` (the names already in the event) nor any line of the
/// file has. A generated id, `p` and the line's number, is one no line
/// gives; when a line does give it, the player gets `p` and the first
/// number past the file's lines that no line gives.
pub fn parse(text: &str, taken: &[&str]) -> Result<Players, PlayersError> {
    let mut read: Vec<(usize, &str, Option<&str>)> = Vec::new();
    let lines = text.lines().count();
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
        read.push((line, name, id));
    }
    if read.is_empty() {
        return Err(PlayersError::Empty);
    }
    let given: Vec<&str> = read.iter().filter_map(|(_, _, id)| *id).collect();
    let mut past = lines;
    let mut players: Vec<(usize, Player)> = Vec::new();
    for &(line, name, id) in &read {
        let id = match id {
            Some(id) => id.to_owned(),
            None => {
                let mut id = format!("p{line}");
                while given.contains(&id.as_str()) || players.iter().any(|(_, p)| p.id == id) {
                    past += 1;
                    id = format!("p{past}");
                }
                id
            }
        };
        if let Some((first, _)) = players.iter().find(|(_, p)| p.id == id) {
            let first = *first;
            return Err(PlayersError::DuplicateId { line, id, first });
        }
        let name = name.to_owned();
        players.push((line, Player { id, name }));
    }
    // A renamed player's name is none that a line gives, nor the event has.
    let mut names: Vec<String> = (taken.iter().map(|&n| n.to_owned()))
        .chain(read.iter().map(|(_, name, _)| (*name).to_owned()))
        .collect();
    let mut kept: Vec<(String, usize)> = Vec::new();
    let mut renamed = Vec::new();
    let players = (players.into_iter())
        .map(|(line, mut player)| {
            let before = kept.iter().find(|(n, _)| *n == player.name).map(|k| k.1);
            if before.is_none() && !taken.contains(&player.name.as_str()) {
                kept.push((player.name.clone(), line));
                return player;
            }
            let name = unique(&player.name, &names);
            names.push(name.clone());
            renamed.push(Renamed {
                line,
                name: std::mem::replace(&mut player.name, name.clone()),
                first: before,
                renamed: name,
            });
            player
        })
        .collect();
    Ok(Players { players, renamed })
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
        let players = parse("Ann\n# a comment\n\nBob\tb7\nAnn\n", &[])
            .unwrap()
            .players;
        let shown: Vec<_> = players.iter().map(|p| (&*p.id, &*p.name)).collect();
        assert_eq!(shown, [("p1", "Ann"), ("b7", "Bob"), ("p5", "Ann (2)")]);
    }

    #[test]
    fn a_renamed_player_takes_no_name_a_later_line_gives() {
        let read = parse("Ann\nAnn\nAnn (2)\n", &[]).unwrap();
        let names: Vec<_> = read.players.iter().map(|p| &*p.name).collect();
        assert_eq!(names, ["Ann", "Ann (3)", "Ann (2)"]);
        assert_eq!(
            read.renamed[0].to_string(),
            "2: expected a name no other player has, but found \"Ann\" again (line 1): named \"Ann (3)\""
        );
        assert_eq!(read.renamed.len(), 1);
    }

    #[test]
    fn a_generated_id_is_none_a_line_gives() {
        let read = parse("Ann\tp2\nBob\nCid\tp4\nDee\n", &[]).unwrap();
        let ids: Vec<_> = read.players.iter().map(|p| &*p.id).collect();
        assert_eq!(ids, ["p2", "p5", "p4", "p6"]);
        let read = parse("Bob\nCid\tp1\n", &[]).unwrap();
        let ids: Vec<_> = read.players.iter().map(|p| &*p.id).collect();
        assert_eq!(ids, ["p3", "p1"]);
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
