//! One test per rule of 62 Soleils d'été, written as given / when / then,
//! on a small sheet whose every box is named in the test.
//!
//! The sheet (column, row; pearl in brackets):
//!
//! ```text
//!        0        1        2        3
//! 0   A1[1]🦀  A2[2]    A3[3]🐸   S1[4]
//! 1   B1[4]    B2[5]🦀  B3[6]     S2[5]
//! 2   C1[2]    C2[3]
//! ```
//!
//! - zone `arrows` (koinobori) = A1 < A2 < A3, one group `sock` (1 seashell);
//! - zone `cabin` (cabins) = B1, B2, B3 all the same, flag 3 starfish;
//! - zone `gulls` (seagulls) = C1, C2 distinct; S1 > S2 in zone `boat`;
//! - sun: 8 slots; thresholds 5 → 1 seashell, 10 → bonus digit, 15 → 2 starfish;
//! - the game ends after 8 rounds or at a sun total of 20.

use crate::common;

use sunfold::soleils::*;

const SHEET: &str = r#"{
  "format": 1, "game": "soleils", "name": "Test sheet",
  "grid": {"columns": 4, "rows": 3},
  "zones": [
    {"id": "arrows", "name": "Arrows", "kind": "koinobori", "flag": {"starfish": 4},
     "groups": [{"id": "sock", "name": "Sock", "reward": {"seashells": 1}}]},
    {"id": "cabin", "name": "Cabin", "kind": "cabins", "flag": {"starfish": 3}},
    {"id": "gulls", "name": "Gulls", "kind": "seagulls", "flag": {"seashells": 2}},
    {"id": "boat", "name": "Boat", "kind": "sailboats", "flag": {"starfish": 2}}
  ],
  "boxes": [
    {"id": "A1", "pearl": 1, "cell": [0, 0], "zone": "arrows", "group": "sock", "icons": ["crab"]},
    {"id": "A2", "pearl": 2, "cell": [1, 0], "zone": "arrows", "group": "sock"},
    {"id": "A3", "pearl": 3, "cell": [2, 0], "zone": "arrows", "group": "sock", "icons": ["frog"]},
    {"id": "S1", "pearl": 4, "cell": [3, 0], "zone": "boat"},
    {"id": "B1", "pearl": 4, "cell": [0, 1], "zone": "cabin"},
    {"id": "B2", "pearl": 5, "cell": [1, 1], "zone": "cabin", "icons": ["crab"]},
    {"id": "B3", "pearl": 6, "cell": [2, 1], "zone": "cabin"},
    {"id": "S2", "pearl": 5, "cell": [3, 1], "zone": "boat"},
    {"id": "C1", "pearl": 2, "cell": [0, 2], "zone": "gulls"},
    {"id": "C2", "pearl": 3, "cell": [1, 2], "zone": "gulls"}
  ],
  "constraints": [
    {"less": ["A1", "A2"]}, {"less": ["A2", "A3"]},
    {"same": ["B1", "B2", "B3"]},
    {"distinct": ["C1", "C2"]},
    {"greater": ["S1", "S2"]}
  ],
  "sun": {"slots": 8, "thresholds": [
    {"at": 5, "reward": {"seashells": 1}},
    {"at": 10, "reward": "bonus_digit"},
    {"at": 15, "reward": {"starfish": 2}}
  ]},
  "end": {"rounds": 8, "sun_limit": 20}
}"#;

struct Table {
    state: State,
}

fn given(players: &[&str], options: Options) -> Table {
    let template = serde_json::from_str(SHEET).unwrap();
    let state = setup(&common::start(players, options, template)).unwrap();
    Table { state }
}

/// The test sheet changed by `edit`, for the cases it cannot show as is.
/// The test sheet changed by `edit`, for the cases it cannot show as is,
/// with one player (so under the solo option).
fn given_solo_sheet(edit: impl FnOnce(&mut serde_json::Value)) -> Table {
    let mut sheet: serde_json::Value = serde_json::from_str(SHEET).unwrap();
    edit(&mut sheet);
    let template = serde_json::from_value(sheet).unwrap();
    let state = setup(&common::start(&["Ann"], solo(), template)).unwrap();
    Table { state }
}

/// The default options with the solo variant: a table of one must ask for it.
fn solo() -> Options {
    Options {
        solo: true,
        ..Options::default()
    }
}

fn given_two() -> Table {
    given(&["Ann", "Bob"], Options::default())
}

fn d(v: u8) -> Die {
    Die::new(v).unwrap()
}
fn roll(a: u8, b: u8, c: u8) -> Event {
    Event::Rolled(Rolled {
        dice: [d(a), d(b), d(c)],
    })
}
fn place(p: &str, b: &str, v: u8) -> Event {
    Event::Placed(Placed {
        player: p.into(),
        box_id: b.into(),
        value: d(v),
    })
}
fn crab(p: &str, from: &str, to: &str) -> Event {
    Event::CrabCopied(CrabCopied {
        player: p.into(),
        from: from.into(),
        to: to.into(),
    })
}
fn no_crab(p: &str) -> Event {
    Event::CrabDeclined(PlayerOnly { player: p.into() })
}
fn sun(p: &str, v: u8) -> Event {
    Event::SunEntered(SunEntered {
        player: p.into(),
        value: d(v),
    })
}
fn bonus(p: &str, b: &str, v: u8) -> Event {
    Event::BonusPlaced(BonusPlaced {
        player: p.into(),
        box_id: b.into(),
        value: d(v),
    })
}
fn no_bonus(p: &str) -> Event {
    Event::BonusDeclined(PlayerOnly { player: p.into() })
}

impl Table {
    /// Events that must all be legal.
    fn after(mut self, events: &[Event]) -> Self {
        for event in events {
            apply(&mut self.state, event).unwrap_or_else(|e| panic!("{event}: {e}"));
        }
        self
    }
    /// One event that may be rejected; a rejection must change nothing.
    fn when(&mut self, event: Event) -> Result<(), RuleError> {
        let before = self.state.clone();
        let result = apply(&mut self.state, &event);
        if result.is_err() {
            assert_eq!(self.state, before, "a rejected event changed the state");
        }
        result
    }
    fn player(&self, name: &str) -> &Player {
        &self.state.players()[self.state.player_index(name).unwrap()]
    }
    fn value(&self, name: &str, b: &str) -> Option<u8> {
        let b = self.state.template().box_ix(b).unwrap();
        self.player(name).value(b)
    }
    fn how(&self, name: &str, b: &str) -> How {
        let b = self.state.template().box_ix(b).unwrap();
        self.player(name).mark(b).unwrap().how
    }
    fn score(&self, name: &str) -> ScoreLine {
        score(&self.state)
            .into_iter()
            .find(|l| l.player == name)
            .unwrap()
    }
    fn legal(&self) -> Vec<Event> {
        legal_events(&self.state)
    }
    fn message(&mut self, event: Event) -> String {
        self.when(event).unwrap_err().to_string()
    }
}

// Placement

#[test]
fn a_placement_takes_the_pearl_die_and_writes_another_die() {
    let mut t = given_two().after(&[roll(2, 5, 6)]);
    t.when(place("Ann", "A2", 5)).unwrap();
    assert_eq!(t.value("Ann", "A2"), Some(5));
    assert_eq!(t.value("Bob", "A2"), None, "sheets are separate");
}

#[test]
fn a_placement_needs_a_die_matching_the_pearl() {
    let mut t = given_two().after(&[roll(2, 5, 6)]);
    assert_eq!(
        t.message(place("Ann", "A1", 5)),
        "box A1 has pearl 1: expected a 1 among the dice 2-5-6, but found none"
    );
}

#[test]
fn the_value_must_come_from_a_die_other_than_the_pearl_die() {
    // given a roll with one 2, when Ann writes 2 into a pearl-2 box, then no
    // second 2 exists for the value.
    let mut t = given_two().after(&[roll(2, 5, 6)]);
    assert!(matches!(
        t.when(place("Ann", "A2", 2)),
        Err(RuleError::NoValueDie { .. })
    ));
}

#[test]
fn a_double_lets_a_pearl_be_coloured_and_the_third_die_goes_to_the_sun() {
    let mut t = given_two().after(&[roll(2, 6, 2)]);
    t.when(place("Ann", "A2", 2)).unwrap();
    assert_eq!(
        t.message(sun("Ann", 2)),
        "expected a sun entry of 6, the die left after the placement, but found 2"
    );
    t.when(sun("Ann", 6)).unwrap();
    assert_eq!(t.score("Ann").pearls, 1);
}

#[test]
fn a_triple_is_three_equal_dice_used_once_each() {
    let mut t = given_two().after(&[roll(4, 4, 4)]);
    t.when(place("Ann", "S1", 4)).unwrap();
    t.when(sun("Ann", 4)).unwrap();
    assert_eq!(t.player("Ann").sun_total, 4);
    assert_eq!(t.score("Ann").pearls, 1);
}

#[test]
fn a_filled_box_cannot_be_written_again() {
    let mut t = given_two().after(&[
        roll(1, 1, 3),
        place("Ann", "A1", 1),
        no_crab("Ann"),
        sun("Ann", 3),
        sun("Bob", 1),
        roll(1, 1, 1),
    ]);
    assert_eq!(
        t.message(place("Ann", "A1", 1)),
        "expected an empty box, but A1 already holds 1"
    );
}

#[test]
fn one_placement_per_round() {
    let mut t = given_two().after(&[roll(4, 5, 6), place("Ann", "S1", 5)]);
    assert_eq!(
        t.message(place("Ann", "S2", 6)),
        "expected a sun entry from Ann, but found placed"
    );
}

// Constraints

#[test]
fn less_needs_a_lower_value_than_the_box_after_it() {
    let mut t = given_two().after(&[roll(2, 3, 1), place("Ann", "A2", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(1, 4, 6)]);
    assert_eq!(
        t.message(place("Ann", "A1", 4)),
        "box A1 needs a value below 3 as A2 holds 3, but found 4"
    );
}

#[test]
fn less_needs_a_higher_value_than_the_box_before_it() {
    let mut t = given_two().after(&[roll(2, 3, 6), place("Ann", "A2", 3), sun("Ann", 6)]);
    t = t.after(&[sun("Bob", 6), roll(3, 2, 6)]);
    assert_eq!(
        t.message(place("Ann", "A3", 2)),
        "box A3 needs a value above 3 as A2 holds 3, but found 2"
    );
}

#[test]
fn an_empty_neighbour_constrains_nothing() {
    // given A2 empty, when Ann writes 6 into A1 (which must be below A2),
    // then it is legal: only filled boxes constrain.
    let mut t = given_two().after(&[roll(1, 6, 2)]);
    t.when(place("Ann", "A1", 6)).unwrap();
}

#[test]
fn greater_needs_the_first_box_higher() {
    let mut t = given_two().after(&[roll(4, 2, 1), place("Ann", "S1", 2), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(5, 3, 1)]);
    assert_eq!(
        t.message(place("Ann", "S2", 3)),
        "box S2 needs a value below 2 as S1 holds 2, but found 3"
    );
    t.when(place("Ann", "S2", 1)).unwrap();
}

// Sailboats: the rule option where the rulebooks disagree

fn sailboats(rule: Sailboats) -> Options {
    Options {
        sailboats: rule,
        ..Options::default()
    }
}

#[test]
fn symbol_sailboats_keep_the_printed_sign() {
    // given the English rule and S1 = 3 (S1 > S2), when Ann writes 6 into
    // S2, then it is refused and only values below 3 are offered.
    let mut t = given(&["Ann", "Bob"], sailboats(Sailboats::Symbol));
    t = t.after(&[roll(4, 3, 1), place("Ann", "S1", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(5, 6, 2)]);
    assert_eq!(
        t.message(place("Ann", "S2", 6)),
        "box S2 needs a value below 3 as S1 holds 3, but found 6"
    );
    assert!(t.legal().contains(&place("Ann", "S2", 2)));
    assert!(!t.legal().contains(&place("Ann", "S2", 6)));
}

#[test]
fn different_sailboats_only_need_different_numbers() {
    // given the German rule and S1 = 3, when Ann writes 6 into S2, then it
    // is legal, as is 2; only a 3 is refused.
    let mut t = given(&["Ann", "Bob"], sailboats(Sailboats::Different));
    t = t.after(&[roll(4, 3, 1), place("Ann", "S1", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(5, 6, 3)]);
    assert!(t.legal().contains(&place("Ann", "S2", 6)));
    assert_eq!(
        t.message(place("Ann", "S2", 3)),
        "box S2 needs a value other than 3 as S1 holds 3, but found 3"
    );
    t.when(place("Ann", "S2", 6)).unwrap();
    assert_eq!(t.value("Ann", "S2"), Some(6));
}

#[test]
fn different_sailboats_leave_other_zones_alone() {
    // given the German rule, when Ann writes 4 into A1 with A2 = 3 (A1 < A2
    // in a koinobori), then it is still refused.
    let mut t = given(&["Ann", "Bob"], sailboats(Sailboats::Different));
    t = t.after(&[roll(2, 3, 1), place("Ann", "A2", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(1, 4, 6)]);
    assert_eq!(
        t.message(place("Ann", "A1", 4)),
        "box A1 needs a value below 3 as A2 holds 3, but found 4"
    );
}

#[test]
fn different_sailboats_also_bind_crab_copies_and_bonus_digits() {
    // given the German rule and S1 = 3, then a bonus digit may go into S2
    // above 3 (the English rule would refuse it), but not a 3.
    let mut t = given(&["Ann", "Bob"], sailboats(Sailboats::Different));
    t = t.after(&[roll(4, 3, 1), place("Ann", "S1", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(6, 6, 6), sun("Ann", 6), sun("Bob", 6)]);
    t = t.after(&[roll(6, 6, 6), sun("Ann", 6)]);
    assert_eq!(t.player("Ann").turn.bonus_pending, 1, "1 + 6 + 6 passes 10");
    assert!(t.legal().contains(&bonus("Ann", "S2", 5)));
    assert!(!t.legal().contains(&bonus("Ann", "S2", 3)));
    t.when(bonus("Ann", "S2", 5)).unwrap();
}

#[test]
fn the_template_reads_sailboat_signs_as_different_under_the_german_rule() {
    let t = given(&["Ann", "Bob"], sailboats(Sailboats::Different));
    let template = t.state.template();
    assert_eq!(template.sailboats(), Sailboats::Different);
    let s1 = template.box_index("S1").unwrap();
    let s2 = template.box_index("S2").unwrap();
    assert!(
        template
            .constraints()
            .contains(&template::Constraint::Different(s1, s2))
    );
    assert!(
        template
            .raw()
            .constraints
            .iter()
            .any(|c| matches!(c, template::RawConstraint::Greater(_))),
        "the embedded template stays as written"
    );
}

#[test]
fn same_needs_every_filled_box_of_the_set_equal() {
    let mut t = given_two().after(&[roll(4, 3, 1), place("Ann", "B1", 3), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(6, 5, 1)]);
    assert_eq!(
        t.message(place("Ann", "B3", 5)),
        "box B3 needs the value 3 as B1 holds 3, but found 5"
    );
}

#[test]
fn distinct_needs_every_filled_box_of_the_set_different() {
    let mut t = given_two().after(&[roll(2, 4, 1), place("Ann", "C1", 4), sun("Ann", 1)]);
    t = t.after(&[sun("Bob", 1), roll(3, 4, 1)]);
    assert_eq!(
        t.message(place("Ann", "C2", 4)),
        "box C2 needs a value other than 4 as C1 holds 4, but found 4"
    );
}

// Crab

#[test]
fn a_crab_copies_the_value_to_an_orthogonal_neighbour_in_another_zone() {
    // given Ann writes 1 in crab box A1, when she copies it down to B1 (zone
    // cabin), then B1 holds 1 as a crab copy, though no die showed pearl 4.
    let mut t = given_two().after(&[roll(1, 1, 5), place("Ann", "A1", 1)]);
    t.when(crab("Ann", "A1", "B1")).unwrap();
    assert_eq!(t.value("Ann", "B1"), Some(1));
    assert_eq!(t.how("Ann", "B1"), How::Crab);
}

#[test]
fn a_crab_copy_must_respect_the_target_constraints() {
    let mut t = given_two().after(&[roll(1, 2, 5), place("Ann", "A1", 2)]);
    assert_eq!(
        t.message(crab("Ann", "A1", "A2")),
        "box A2 needs a value above 2 as A1 holds 2, but found 2"
    );
}

#[test]
fn a_crab_copy_must_go_to_a_neighbour() {
    let mut t = given_two().after(&[roll(1, 2, 5), place("Ann", "A1", 2)]);
    assert_eq!(
        t.message(crab("Ann", "A1", "C2")),
        "expected a box next to A1 (A2, B1), but found C2"
    );
}

#[test]
fn a_crab_decision_comes_before_the_sun_entry() {
    let mut t = given_two().after(&[roll(1, 2, 5), place("Ann", "A1", 2)]);
    assert_eq!(
        t.message(sun("Ann", 5)),
        "expected a crab copy from A1 or a decline from Ann, but found sun_entered"
    );
    t.when(no_crab("Ann")).unwrap();
    t.when(sun("Ann", 5)).unwrap();
}

#[test]
fn a_crab_decision_with_no_copy_possible_says_why() {
    // given B2 holds 5 (so B1 must hold 5 too) and Ann writes 2 in crab box
    // A1, whose neighbours are A2 (needs above 2) and B1 (needs 5), when she
    // declines or copies, then she is told no neighbour can take the 2.
    let mut t = given_two().after(&[
        roll(5, 5, 3),
        place("Ann", "B2", 5),
        no_crab("Ann"),
        sun("Ann", 3),
        sun("Bob", 3),
        roll(1, 2, 4),
        place("Ann", "A1", 2),
    ]);
    let why = "expected no crab decision from Ann: no neighbour of crab box A1 can take 2";
    assert_eq!(
        t.message(no_crab("Ann")),
        format!("{why}, but found crab_declined")
    );
    assert_eq!(
        t.message(crab("Ann", "A1", "B1")),
        format!("{why}, but found crab_copied")
    );
    t.when(sun("Ann", 4)).unwrap();
}

#[test]
fn a_crab_copy_colours_the_target_pearl_and_ends_without_a_crab_there() {
    // given B2 (pearl 5, crab) written with 5, when Ann copies it to B3
    // (pearl 6, no crab), then B3 holds 5 and no further copy is offered.
    let mut t = given_two().after(&[roll(5, 5, 3), place("Ann", "B2", 5)]);
    t.when(crab("Ann", "B2", "B3")).unwrap();
    assert_eq!(t.player("Ann").turn.crab_from, None);
    assert_eq!(
        t.score("Ann").pearls,
        1,
        "B2 pearl 5 is coloured; B3 pearl 6 is not"
    );
    // given A1 (pearl 1, crab) written with 4, when Ann copies the 4 into
    // B1 (pearl 4), then B1's pearl is coloured though no die was used there.
    let mut t = given_two().after(&[roll(1, 4, 3), place("Ann", "A1", 4)]);
    assert_eq!(t.score("Ann").pearls, 0);
    t.when(crab("Ann", "A1", "B1")).unwrap();
    assert_eq!(t.score("Ann").pearls, 1);
}

#[test]
fn a_crab_copy_into_a_crab_box_may_copy_again() {
    // given B1 has a crab too, when Ann copies from A1 into B1, then B1
    // offers its own copy, and the chain reaches C1.
    let mut t = given_solo_sheet(|sheet| {
        sheet["boxes"][4]["icons"] = serde_json::json!(["crab"]); // B1
    })
    .after(&[roll(1, 2, 6), place("Ann", "A1", 2)]);
    t.when(crab("Ann", "A1", "B1")).unwrap();
    assert_eq!(
        t.player("Ann").turn.crab_from,
        t.state.template().box_ix("B1")
    );
    t.when(crab("Ann", "B1", "C1")).unwrap();
    assert_eq!(t.value("Ann", "C1"), Some(2));
    assert_eq!(t.score("Ann").pearls, 1, "C1 has pearl 2");
    t.when(sun("Ann", 6)).unwrap();
}

#[test]
fn a_crab_without_a_legal_target_offers_nothing() {
    // given B2 = 5 (so B1 needs 5), when Ann writes 6 in crab box A1, then
    // A2 (needs above 6) and B1 (needs 5) refuse it: no crab decision.
    let mut t = given(&["Ann"], solo()).after(&[
        roll(5, 5, 1),
        place("Ann", "B2", 5),
        no_crab("Ann"),
        sun("Ann", 1),
        roll(1, 6, 1),
    ]);
    t.when(place("Ann", "A1", 6)).unwrap();
    assert_eq!(t.player("Ann").turn.crab_from, None);
    t.when(sun("Ann", 1)).unwrap();
}

// Frog

#[test]
fn a_frog_box_frees_the_sun_entry_to_any_value() {
    let mut t = given_two().after(&[roll(3, 4, 1), place("Ann", "A3", 4)]);
    t.when(sun("Ann", 6)).unwrap();
    assert_eq!(t.player("Ann").sun_total, 6);
}

#[test]
fn a_frog_reached_by_a_crab_copy_also_frees_the_sun() {
    // given A2 has a frog, when Ann writes 2 in crab box B2 and copies it up
    // into A2, then her sun entry may be any value.
    let mut t = given_solo_sheet(|sheet| {
        sheet["boxes"][1]["icons"] = serde_json::json!(["frog"]); // A2
    })
    .after(&[roll(5, 2, 6), place("Ann", "B2", 2)]);
    t.when(crab("Ann", "B2", "A2")).unwrap();
    t.when(sun("Ann", 1)).unwrap();
}

#[test]
fn without_a_frog_the_sun_entry_is_the_third_die() {
    let mut t = given_two().after(&[roll(4, 5, 1), place("Ann", "S1", 5)]);
    assert!(matches!(
        t.when(sun("Ann", 6)),
        Err(RuleError::SunValue { .. })
    ));
}

// Skipping

#[test]
fn voluntary_skipping_enters_any_one_die_on_the_sun() {
    let mut t = given_two().after(&[roll(1, 2, 6)]);
    t.when(sun("Ann", 6)).unwrap();
    assert_eq!(
        t.message(sun("Bob", 3)),
        "expected a sun entry of one of the dice 1-2-6, but found 3"
    );
}

#[test]
fn only_when_blocked_refuses_a_skip_while_a_placement_exists() {
    let options = Options {
        skip_placement: SkipPlacement::OnlyWhenBlocked,
        ..solo()
    };
    let mut t = given(&["Ann"], options).after(&[roll(1, 2, 6)]);
    assert_eq!(
        t.message(sun("Ann", 6)),
        "expected a placement, as skipping is allowed only when blocked and Ann could write 2 in A1, but found a sun entry without one"
    );
}

#[test]
fn only_when_blocked_allows_a_skip_when_no_placement_exists() {
    let options = Options {
        skip_placement: SkipPlacement::OnlyWhenBlocked,
        ..solo()
    };
    // given C1 = 2 and C2 = 3 (both gulls filled), no pearl-2 or pearl-3
    // box is left empty but A2 and A3... fill those first.
    let mut t = given(&["Ann"], options).after(&[
        roll(2, 2, 1),
        place("Ann", "C1", 2),
        sun("Ann", 1),
        roll(3, 3, 1),
        place("Ann", "C2", 3),
        sun("Ann", 1),
        roll(2, 6, 1),
        place("Ann", "A2", 6),
        sun("Ann", 1),
    ]);
    // A3 (pearl 3) must be above 6: impossible. A roll of 3-3-2 allows no
    // placement: pearl 3 → A3 (needs > 6) or C2 (filled); pearl 2 → A2, C1 filled.
    t = t.after(&[roll(3, 3, 2)]);
    assert!(
        legal_events(&t.state)
            .iter()
            .all(|e| matches!(e, Event::SunEntered(_)))
    );
    t.when(sun("Ann", 3)).unwrap();
}

// Sun track

#[test]
fn reach_or_pass_grants_a_threshold_crossed_without_hitting_it() {
    let mut t = given(&["Ann"], solo()).after(&[roll(6, 6, 6), sun("Ann", 6)]);
    assert_eq!(t.player("Ann").gains.seashells, 1, "0 → 6 passes 5");
    t.when(roll(1, 1, 1)).unwrap();
}

#[test]
fn exact_grants_a_threshold_only_when_the_total_hits_it() {
    let options = Options {
        sun_bonus: SunBonus::Exact,
        ..solo()
    };
    let t = given(&["Ann"], options).after(&[roll(6, 6, 6), sun("Ann", 6)]);
    assert_eq!(t.player("Ann").gains.seashells, 0, "6 is not 5");
    let t = given(&["Ann"], options).after(&[roll(5, 5, 5), sun("Ann", 5)]);
    assert_eq!(t.player("Ann").gains.seashells, 1, "5 is 5");
}

#[test]
fn a_bonus_digit_must_be_resolved_before_the_next_roll() {
    let mut t = given(&["Ann"], solo()).after(&[
        roll(6, 6, 6),
        sun("Ann", 6),
        roll(6, 6, 6),
        sun("Ann", 6),
    ]);
    assert_eq!(
        t.player("Ann").turn.bonus_pending,
        1,
        "0 → 6 → 12 passes 10"
    );
    assert_eq!(
        t.message(roll(1, 2, 3)),
        "expected Ann to finish round 2 with a bonus digit or a decline, but found the next roll"
    );
    t.when(bonus("Ann", "A1", 1)).unwrap();
    assert_eq!(t.how("Ann", "A1"), How::Bonus);
    assert_eq!(t.score("Ann").pearls, 1, "a bonus digit colours a pearl");
    // A1 is a crab: the copy comes after the bonus, before the round closes.
    assert!(t.player("Ann").turn.crab_from.is_some());
    t.when(crab("Ann", "A1", "B1")).unwrap();
    t.when(roll(1, 2, 3)).unwrap();
}

#[test]
fn a_finished_player_acting_while_the_round_waits_on_another_is_told_who_it_waits_on() {
    // given Bob has declined his bonus digit while Ann's is still pending,
    let mut t = given_two().after(&[
        roll(6, 6, 6),
        sun("Ann", 6),
        sun("Bob", 6),
        roll(6, 6, 6),
        sun("Bob", 6),
        no_bonus("Bob"),
        sun("Ann", 6),
    ]);
    // when Bob writes a bonus digit, then the round waits on Ann, not on a roll.
    assert_eq!(
        t.message(bonus("Bob", "A1", 1)),
        "expected a bonus digit or a decline from Ann: Bob has finished round 2, which waits on Ann, but found bonus_placed"
    );
    // and once every player has finished, the next roll is what is expected.
    t.when(no_bonus("Ann")).unwrap();
    assert_eq!(
        t.message(bonus("Bob", "A1", 1)),
        "expected the next roll, as Bob has finished round 2, but found bonus_placed"
    );
}

#[test]
fn a_bonus_digit_may_be_declined() {
    let mut t = given(&["Ann"], solo()).after(&[
        roll(6, 6, 6),
        sun("Ann", 6),
        roll(6, 6, 6),
        sun("Ann", 6),
    ]);
    t.when(no_bonus("Ann")).unwrap();
    assert_eq!(t.player("Ann").gains.bonus_digits, 1);
    t.when(roll(1, 2, 3)).unwrap();
}

#[test]
fn a_bonus_digit_respects_the_constraints() {
    let mut t = given(&["Ann"], solo()).after(&[
        roll(2, 3, 6),
        place("Ann", "A2", 3),
        sun("Ann", 6),
        roll(6, 6, 6),
        sun("Ann", 6),
    ]);
    assert_eq!(
        t.message(bonus("Ann", "A1", 4)),
        "box A1 needs a value below 3 as A2 holds 3, but found 4"
    );
}

// Zones and groups

#[test]
fn completing_a_zone_circles_its_flag_and_a_group_its_reward() {
    let t = given(&["Ann"], solo()).after(&[
        roll(1, 1, 1),
        place("Ann", "A1", 1),
        no_crab("Ann"),
        sun("Ann", 1),
        roll(2, 2, 1),
        place("Ann", "A2", 2),
        sun("Ann", 1),
        roll(3, 3, 1),
        place("Ann", "A3", 3),
        sun("Ann", 1),
    ]);
    let line = t.score("Ann");
    assert_eq!(line.flags, 4, "arrows flag");
    assert_eq!(line.pearls, 3);
    assert_eq!(t.player("Ann").gains.seashells, 1, "the sock's seashell");
    assert_eq!(line.seashell_majority, 5, "alone with the most seashells");
    assert_eq!(line.total, 4 + 3 + 5);
}

// Scoring

#[test]
fn the_seashell_majority_is_shared_by_ties_and_needs_one_seashell() {
    let t = given_two().after(&[roll(1, 1, 1), sun("Ann", 1), sun("Bob", 1)]);
    assert_eq!(t.score("Ann").seashell_majority, 0, "nobody has a seashell");
    let t = given_two().after(&[roll(6, 6, 6), sun("Ann", 6), sun("Bob", 6)]);
    assert_eq!(t.score("Ann").seashell_majority, 5);
    assert_eq!(t.score("Bob").seashell_majority, 5);
    assert_eq!(t.score("Ann").rank, 1);
    assert_eq!(t.score("Bob").rank, 1, "ties share the rank");
}

#[test]
fn ranks_skip_after_a_tie() {
    let t = given(&["Ann", "Bob", "Cy"], Options::default()).after(&[
        roll(6, 6, 1),
        sun("Ann", 6),
        sun("Bob", 6),
        sun("Cy", 1),
    ]);
    let ranks: Vec<u32> = score(&t.state).iter().map(|l| l.rank).collect();
    assert_eq!(ranks, [1, 1, 3]);
}

// End of the game

#[test]
fn the_game_ends_after_the_round_in_which_a_sun_total_reaches_the_limit() {
    let mut t = given_two();
    for _ in 0..3 {
        t = t.after(&[roll(6, 6, 1), sun("Ann", 6), sun("Bob", 1)]);
        if t.player("Ann").turn.bonus_pending > 0 {
            t = t.after(&[no_bonus("Ann")]);
        }
    }
    // Ann: 18. Next round she reaches 24 ≥ 20, but Bob still plays it.
    t = t.after(&[roll(6, 6, 6), sun("Ann", 6)]);
    assert!(t.state.ended().is_none(), "the round is not over");
    t = t.after(&[sun("Bob", 6)]);
    assert_eq!(
        t.state.ended().map(ToString::to_string),
        Some("Ann reached 20 on the sun".into())
    );
    assert!(t.legal().is_empty());
    assert!(matches!(
        t.when(roll(1, 2, 3)),
        Err(RuleError::GameOver { .. })
    ));
}

#[test]
fn the_game_ends_after_the_last_round() {
    let mut t = given(&["Ann"], solo());
    for _ in 0..8 {
        t = t.after(&[roll(1, 1, 1), sun("Ann", 1)]);
    }
    assert_eq!(
        t.state.ended().map(ToString::to_string),
        Some("round 8 was the last".into())
    );
}

// Players

#[test]
fn a_game_of_one_must_ask_for_the_solo_variant() {
    // given one player and no solo option, then the start is refused and
    // the message says how to ask for solo.
    let template: template::RawTemplate = serde_json::from_str(SHEET).unwrap();
    let start = common::start(&["Ann"], Options::default(), template.clone());
    assert_eq!(
        setup(&start).unwrap_err().to_string(),
        "expected 2 to 12 players, or 1 with the rule option solo=true, but found 1"
    );
    setup(&common::start(&["Ann"], solo(), template)).unwrap();
}

#[test]
fn the_solo_variant_is_for_one_player_only() {
    let template: template::RawTemplate = serde_json::from_str(SHEET).unwrap();
    let start = common::start(&["Ann", "Bob"], solo(), template);
    assert_eq!(
        setup(&start).unwrap_err().to_string(),
        "expected 1 player under the rule option solo=true, but found 2"
    );
}

#[test]
fn in_a_solo_game_one_seashell_wins_the_majority() {
    let t = given(&["Ann"], solo()).after(&[roll(6, 6, 6), sun("Ann", 6)]);
    assert_eq!(t.player("Ann").gains.seashells, 1);
    assert_eq!(t.score("Ann").seashell_majority, 5);
}

// Rounds

#[test]
fn players_act_in_any_order_within_a_round() {
    let mut t = given(&["Ann", "Bob", "Cy"], Options::default()).after(&[roll(4, 5, 6)]);
    t.when(sun("Cy", 4)).unwrap();
    t.when(place("Ann", "S1", 5)).unwrap();
    t.when(place("Bob", "S2", 4)).unwrap();
    t.when(sun("Bob", 6)).unwrap();
    t.when(sun("Ann", 6)).unwrap();
    t.when(roll(1, 1, 1)).unwrap();
}

#[test]
fn nothing_happens_before_the_first_roll() {
    let mut t = given_two();
    assert_eq!(
        t.message(sun("Ann", 3)),
        "expected the roll that opens round 1, but found sun_entered"
    );
}

#[test]
fn a_player_who_finished_the_round_waits_for_the_others() {
    let mut t = given_two().after(&[roll(1, 2, 3), sun("Ann", 3)]);
    assert_eq!(
        t.message(sun("Ann", 2)),
        "expected a placement or a sun entry from Bob: Ann has finished round 1, which waits on Bob, but found sun_entered"
    );
}
