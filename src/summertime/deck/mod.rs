//! The Summertime deck: cards, closing cards, tiles and the rulebook's numbers
//! as data. [`Deck::try_from`] checks a [`RawDeck`] and reports every problem
//! with its JSON path.
//!
//! Its files: [`raw`] (the deck as read), [`problem`] (what a check finds).

mod problem;
mod raw;

pub use problem::{DeckErrors, DeckProblem, DeckProblemKind};
pub use raw::{RawCard, RawClosingCard, RawDeck, RawNamed, RawRules};

use crate::kit::path::JsonPath;
use std::collections::HashMap;
use std::fmt;

/// The position of a card in [`Deck::cards`], as a plain number: as the
/// table's public lists (hands, stacks, the grid, the turns) hold it.
pub type CardIndex = usize;

/// A card as the rules hold it: its position in [`Deck::cards`], in four
/// bytes that cannot be taken for a seat, an item or a stack. `deck[c]` is
/// its [`Card`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct CardIx(u32);

impl CardIx {
    /// The card at position `c` of [`Deck::cards`].
    #[inline]
    pub fn new(c: CardIndex) -> CardIx {
        CardIx(u32::try_from(c).expect("a deck has fewer than 2^32 cards"))
    }

    /// Its position in [`Deck::cards`].
    #[inline]
    pub fn index(self) -> CardIndex {
        self.0 as CardIndex
    }
}

impl From<CardIx> for CardIndex {
    fn from(c: CardIx) -> CardIndex {
        c.index()
    }
}

/// The card at `c`. A card index of another deck may be out of range:
/// [`Deck::has_card`] says.
impl std::ops::Index<CardIx> for Deck {
    type Output = Card;
    #[inline]
    fn index(&self, c: CardIx) -> &Card {
        &self.cards[c.index()]
    }
}
/// The position of an item kind in the deck's `items` list (there are
/// [`Deck::items`] of them).
pub type Item = usize;
/// The position of a picture in the deck's `pictures` list; see
/// [`Deck::picture_name`] and [`Deck::pictogram`].
pub type Picture = usize;

/// The pictograms the renderer draws, by name: a picture whose id is one of
/// these uses it, and a deck may name one for any picture (`pictogram`).
pub const PICTOGRAMS: &[&str] = &[
    "beach",
    "ocean",
    "swimming_pool",
    "fish",
    "palm_tree",
    "bar",
    "hammock",
    "sand_castle",
    "surfer",
    "umbrella",
    "catamaran",
    "couple",
    "cocktail",
    "deck_chair",
];

/// The only deck format version this release reads.
pub const DECK_FORMAT: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Points(u8),
    Multiplier(u8),
}

/// Three items, sorted, as printed on a card back or closing card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cost(pub [Item; 3]);

impl Cost {
    /// How many of each item kind the cost takes.
    pub fn counts(&self, kinds: usize) -> Vec<u8> {
        let mut counts = vec![0; kinds];
        for &item in &self.0 {
            counts[item] += 1;
        }
        counts
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub id: String,
    pub name: String,
    pub picture: Picture,
    pub value: Value,
    pub needs: Vec<Picture>,
    pub cost: Cost,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosingCard {
    pub id: String,
    pub sides: [Cost; 2],
}

/// A checked deck.
#[derive(Clone, Debug, PartialEq)]
pub struct Deck {
    raw: RawDeck,
    cards: Vec<Card>,
    closing: Vec<ClosingCard>,
    by_id: HashMap<String, CardIndex>,
    /// Per card, the pictures it needs as a bit set (bit `p` for the
    /// picture `p`), when the deck has at most 64 pictures.
    needs_masks: Option<Vec<u64>>,
}

impl Deck {
    pub fn raw(&self) -> &RawDeck {
        &self.raw
    }
    pub fn name(&self) -> &str {
        &self.raw.name
    }
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
    pub fn card(&self, c: CardIndex) -> &Card {
        &self.cards[c]
    }
    pub fn closing_cards(&self) -> &[ClosingCard] {
        &self.closing
    }
    pub fn card_index(&self, id: &str) -> Option<CardIndex> {
        self.by_id.get(id).copied()
    }
    /// The card whose id is `id`, as the rules hold it.
    pub fn card_ix(&self, id: &str) -> Option<CardIx> {
        self.card_index(id).map(CardIx::new)
    }
    /// Whether `c` is a card of this deck.
    pub fn has_card(&self, c: CardIx) -> bool {
        c.index() < self.cards.len()
    }
    /// Per card, the pictures it needs as a bit set (bit `p` for the
    /// picture `p`; 0 for none), when the deck has at most 64 pictures.
    pub(in crate::summertime) fn needs_masks(&self) -> Option<&[u64]> {
        self.needs_masks.as_deref()
    }
    pub fn rules(&self) -> RawRules {
        self.raw.rules
    }
    pub fn items(&self) -> usize {
        self.raw.items.len()
    }
    pub fn item_name(&self, item: Item) -> &str {
        &self.raw.items[item].name
    }
    pub fn item_id(&self, item: Item) -> &str {
        &self.raw.items[item].id
    }
    pub fn picture_name(&self, picture: Picture) -> &str {
        &self.raw.pictures[picture].name
    }
    pub fn picture_id(&self, picture: Picture) -> &str {
        &self.raw.pictures[picture].id
    }
    /// The built-in pictogram a picture prints with: the one it names, or
    /// its own id (which draws its initial when no pictogram has that name).
    pub fn pictogram(&self, picture: Picture) -> &str {
        let named = &self.raw.pictures[picture];
        named.pictogram.as_deref().unwrap_or(&named.id)
    }
    pub fn tiles_per_item(&self) -> u8 {
        self.raw.tiles_per_item
    }
    /// A cost as people say it: `2 coconut + 1 breadfruit`.
    pub fn describe_cost(&self, cost: Cost) -> CostText {
        CostText(
            cost.counts(self.items())
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(item, &n)| (n, self.item_name(item).to_owned()))
                .collect(),
        )
    }
}

/// Counts of named items, displayed as `2 coconut + 1 breadfruit`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostText(pub Vec<(u8, String)>);

impl fmt::Display for CostText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("nothing");
        }
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(n, name)| format!("{n} {name}"))
            .collect();
        f.write_str(&parts.join(" + "))
    }
}

impl TryFrom<RawDeck> for Deck {
    type Error = DeckErrors;

    fn try_from(raw: RawDeck) -> Result<Deck, DeckErrors> {
        Deck::checked(raw, true)
    }
}

impl Deck {
    /// Some cards of a deck being made, checked as a deck is except for how
    /// many cards and closing cards it holds: what draws a card's face
    /// before its deck is whole. A deck to play is only ever made by
    /// [`Deck::try_from`], which counts them.
    pub fn sample(raw: RawDeck) -> Result<Deck, DeckErrors> {
        Deck::checked(raw, false)
    }

    /// The deck of `raw`, checked; with `whole`, its counts of cards and of
    /// closing cards too.
    fn checked(raw: RawDeck, whole: bool) -> Result<Deck, DeckErrors> {
        let mut problems = Vec::new();
        let mut report = |path: JsonPath, kind| problems.push(DeckProblem { path, kind });
        let root = JsonPath::root();
        if raw.format != DECK_FORMAT {
            report(
                root.key("format"),
                DeckProblemKind::UnsupportedFormat { found: raw.format },
            );
        }
        if raw.game != "summertime" {
            let found = raw.game.clone();
            report(root.key("game"), DeckProblemKind::WrongGame { found });
        }
        if raw.name.trim().is_empty() {
            report(root.key("name"), DeckProblemKind::Empty { what: "name" });
        }
        let ids = |list: &[RawNamed],
                   key: &'static str,
                   what,
                   report: &mut dyn FnMut(JsonPath, DeckProblemKind)| {
            let mut seen: HashMap<&str, JsonPath> = HashMap::new();
            for (i, named) in list.iter().enumerate() {
                let path = root.key(key).index(i).key("id");
                if named.id.trim().is_empty() {
                    report(path, DeckProblemKind::Empty { what: "id" });
                } else if let Some(first) = seen.get(named.id.as_str()) {
                    let kind = DeckProblemKind::DuplicateId {
                        what,
                        id: named.id.clone(),
                        first: first.clone(),
                    };
                    report(path, kind);
                } else {
                    seen.insert(&named.id, path);
                }
            }
            list.iter()
                .enumerate()
                .map(|(i, n)| (n.id.clone(), i))
                .rev()
                .collect::<HashMap<_, _>>()
        };
        let pictures = ids(&raw.pictures, "pictures", "picture", &mut report);
        let items = ids(&raw.items, "items", "item", &mut report);
        for (i, picture) in raw.pictures.iter().enumerate() {
            if let Some(found) = &picture.pictogram
                && !PICTOGRAMS.contains(&found.as_str())
            {
                let path = root.key("pictures").index(i).key("pictogram");
                let found = found.clone();
                let known = PICTOGRAMS;
                report(path, DeckProblemKind::UnknownPictogram { found, known });
            }
        }
        for (i, item) in raw.items.iter().enumerate() {
            if let Some(found) = &item.pictogram {
                let path = root.key("items").index(i).key("pictogram");
                let found = found.clone();
                report(path, DeckProblemKind::PictogramOnItem { found });
            }
        }
        if raw.pictures.is_empty() {
            report(
                root.key("pictures"),
                DeckProblemKind::Empty {
                    what: "picture list",
                },
            );
        }
        if raw.items.is_empty() {
            report(
                root.key("items"),
                DeckProblemKind::Empty { what: "item list" },
            );
        }
        if raw.tiles_per_item == 0 {
            report(root.key("tiles_per_item"), DeckProblemKind::Zero);
        }
        let rules = raw.rules;
        for (key, value) in [
            ("hand_size", rules.hand_size),
            ("stack_size", rules.stack_size),
            ("plays_per_turn", rules.plays_per_turn),
        ] {
            if value == 0 {
                report(root.key("rules").key(key), DeckProblemKind::Zero);
            }
        }
        if rules.grid_short == 0 || rules.grid_long < rules.grid_short {
            let kind = DeckProblemKind::Grid {
                long: rules.grid_long,
                short: rules.grid_short,
            };
            report(root.key("rules"), kind);
        }

        let cost = |path: JsonPath,
                    names: &[String; 3],
                    report: &mut dyn FnMut(JsonPath, DeckProblemKind)| {
            let mut cost = [0; 3];
            for (i, name) in names.iter().enumerate() {
                match items.get(name) {
                    Some(&item) => cost[i] = item,
                    None => report(
                        path.index(i),
                        DeckProblemKind::UnknownItem { id: name.clone() },
                    ),
                }
            }
            cost.sort_unstable();
            for item in cost {
                let found = cost.iter().filter(|&&i| i == item).count();
                if found > usize::from(raw.tiles_per_item) && raw.tiles_per_item > 0 {
                    let kind = DeckProblemKind::Unaffordable {
                        item: raw.items[item].id.clone(),
                        found,
                        max: raw.tiles_per_item,
                    };
                    report(path.clone(), kind);
                    break;
                }
            }
            Cost(cost)
        };

        let mut cards = Vec::new();
        // Cards and closing cards share one id space.
        let mut seen: HashMap<&str, JsonPath> = HashMap::new();
        fn unique<'a>(
            id: &'a str,
            path: JsonPath,
            seen: &mut HashMap<&'a str, JsonPath>,
            report: &mut dyn FnMut(JsonPath, DeckProblemKind),
        ) {
            if id.trim().is_empty() {
                report(path, DeckProblemKind::Empty { what: "id" });
            } else if let Some(first) = seen.get(id) {
                let kind = DeckProblemKind::DuplicateId {
                    what: "card",
                    id: id.to_owned(),
                    first: first.clone(),
                };
                report(path, kind);
            } else {
                seen.insert(id, path);
            }
        }
        for (c, card) in raw.cards.iter().enumerate() {
            let path = root.key("cards").index(c);
            unique(&card.id, path.key("id"), &mut seen, &mut report);
            let picture = pictures.get(&card.picture).copied().unwrap_or_else(|| {
                let id = card.picture.clone();
                report(path.key("picture"), DeckProblemKind::UnknownPicture { id });
                0
            });
            let value = match (card.points, card.multiplier) {
                (Some(p), None) => Value::Points(p),
                (None, Some(m)) => Value::Multiplier(m),
                (found, _) => {
                    let found = if found.is_some() { "both" } else { "neither" };
                    report(path.clone(), DeckProblemKind::ValueKind { found });
                    Value::Points(0)
                }
            };
            if matches!(value, Value::Points(0) | Value::Multiplier(0))
                && (card.points.is_some() != card.multiplier.is_some())
            {
                let key = if card.points.is_some() {
                    "points"
                } else {
                    "multiplier"
                };
                report(path.key(key), DeckProblemKind::ZeroValue);
            }
            if card.needs.len() > 2 {
                let found = card.needs.len();
                report(path.key("needs"), DeckProblemKind::TooManyNeeds { found });
            }
            if matches!(value, Value::Multiplier(_)) && card.needs.is_empty() {
                report(path.key("needs"), DeckProblemKind::MultiplierWithoutNeeds);
            }
            let mut needs = Vec::new();
            for (n, need) in card.needs.iter().enumerate() {
                match pictures.get(need) {
                    None => {
                        let id = need.clone();
                        report(
                            path.key("needs").index(n),
                            DeckProblemKind::UnknownPicture { id },
                        );
                    }
                    Some(p) if needs.contains(p) => {
                        let id = need.clone();
                        report(
                            path.key("needs").index(n),
                            DeckProblemKind::RepeatedNeed { id },
                        );
                    }
                    Some(&p) => needs.push(p),
                }
            }
            let cost = cost(path.key("cost"), &card.cost, &mut report);
            cards.push(Card {
                id: card.id.clone(),
                name: card.name.clone(),
                picture,
                value,
                needs,
                cost,
            });
        }
        let expected = 2 * usize::from(rules.hand_size) + 3 * usize::from(rules.stack_size);
        if whole && raw.cards.len() != expected {
            let kind = DeckProblemKind::CardCount {
                expected,
                hand: rules.hand_size,
                stack: rules.stack_size,
                found: raw.cards.len(),
            };
            report(root.key("cards"), kind);
        }
        if whole && raw.closing_cards.len() != 3 {
            let found = raw.closing_cards.len();
            report(
                root.key("closing_cards"),
                DeckProblemKind::ClosingCount { found },
            );
        }
        let mut closing = Vec::new();
        for (c, card) in raw.closing_cards.iter().enumerate() {
            let path = root.key("closing_cards").index(c);
            unique(&card.id, path.key("id"), &mut seen, &mut report);
            let sides = [
                cost(path.key("sides").index(0), &card.sides[0], &mut report),
                cost(path.key("sides").index(1), &card.sides[1], &mut report),
            ];
            closing.push(ClosingCard {
                id: card.id.clone(),
                sides,
            });
        }
        if !problems.is_empty() {
            return Err(crate::kit::path::Problems(problems));
        }
        let by_id = cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        let needs_masks = (raw.pictures.len() <= 64).then(|| {
            (cards.iter())
                .map(|c| c.needs.iter().fold(0, |mask, &p| mask | 1 << p))
                .collect()
        });
        Ok(Deck {
            raw,
            cards,
            closing,
            by_id,
            needs_masks,
        })
    }
}
