//! The league's results: every game between live entrants, merged per pair
//! as it is stored (O(log k) a game for an entrant with k opponents,
//! nothing recounted), over dense slots that the fit and the schedule index
//! directly. Kept per entrant, by opponent: a league of 10,000 whose
//! entrants each met a hundred others holds a million tallies, where a
//! matrix of every pair would hold a hundred million (1.6 GB).
//!
//! An entrant holds a slot from `add` to `retire`. Retiring drops its games
//! from the ledger (and from its opponents' counts): in a live league a
//! student's newer submission replaces the older one, whose games no longer
//! count. A retired id cannot come back, so a late result of a retired
//! entrant is refused rather than counted for someone else; its slot is
//! reused by the next entrant added.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::stats::Pairing;

use super::EntrantId;

/// Why the ledger refused a request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LedgerError {
    /// `add` of an entrant already in the league.
    AlreadyLive(EntrantId),
    /// `add` of an entrant that was retired: ids are never reused.
    Retired(EntrantId),
    /// A game or a retirement of an entrant not in the league (never added,
    /// or retired since: a game that was in flight when it was retired).
    NotLive(EntrantId),
    /// A game of an entrant against itself.
    SameEntrant(EntrantId),
    /// A score outside `[0, 1]`.
    BadScore(f64),
}

impl std::fmt::Display for LedgerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LedgerError::AlreadyLive(id) => write!(f, "entrant {id} is already in the league"),
            LedgerError::Retired(id) => write!(f, "entrant {id} was retired and cannot come back"),
            LedgerError::NotLive(id) => write!(f, "entrant {id} is not in the league"),
            LedgerError::SameEntrant(id) => write!(f, "entrant {id} cannot play itself"),
            LedgerError::BadScore(s) => write!(f, "score {s} is not within [0, 1]"),
        }
    }
}

impl std::error::Error for LedgerError {}

/// One entrant's games against another, and its points in them.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct PairTally {
    games: u32,
    points: f64,
}

/// The results of the live entrants, merged per pair.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    /// Slot -> the live entrant holding it (`None`: free).
    slots: Vec<Option<EntrantId>>,
    slot_of: HashMap<EntrantId, usize>,
    /// Free slots, reused lowest first.
    free: BTreeSet<usize>,
    retired: HashSet<EntrantId>,
    /// By slot: its results against each slot it met (both directions
    /// kept, so an entry is one entrant's whole record), in slot order.
    tally: Vec<BTreeMap<usize, PairTally>>,
    /// Each slot's games against live entrants.
    games: Vec<u32>,
    /// Games between live entrants.
    total_games: u64,
}

impl Ledger {
    pub fn new() -> Self {
        Ledger::default()
    }

    /// Enters `id` into the league, without games.
    pub fn add(&mut self, id: EntrantId) -> Result<(), LedgerError> {
        if self.slot_of.contains_key(&id) {
            return Err(LedgerError::AlreadyLive(id));
        }
        if self.retired.contains(&id) {
            return Err(LedgerError::Retired(id));
        }
        let slot = match self.free.pop_first() {
            Some(slot) => slot,
            None => {
                self.grow();
                self.free.pop_first().expect("growing frees slots")
            }
        };
        self.slots[slot] = Some(id);
        self.slot_of.insert(id, slot);
        Ok(())
    }

    /// Takes `id` out of the league with all its games.
    pub fn retire(&mut self, id: EntrantId) -> Result<(), LedgerError> {
        let slot = self.slot_of.remove(&id).ok_or(LedgerError::NotLive(id))?;
        for (other, tally) in std::mem::take(&mut self.tally[slot]) {
            self.games[other] -= tally.games;
            self.total_games -= u64::from(tally.games);
            self.tally[other].remove(&slot);
        }
        self.games[slot] = 0;
        self.slots[slot] = None;
        self.free.insert(slot);
        self.retired.insert(id);
        Ok(())
    }

    /// Stores one game between live entrants `a` and `b`: `score_a` is
    /// `a`'s score (1 a win, 0.5 a draw, 0 a loss). Which seat each had
    /// does not matter to the ratings; the league plays seat-swapped pairs.
    pub fn record(&mut self, a: EntrantId, b: EntrantId, score_a: f64) -> Result<(), LedgerError> {
        if !(0.0..=1.0).contains(&score_a) {
            return Err(LedgerError::BadScore(score_a));
        }
        if a == b {
            return Err(LedgerError::SameEntrant(a));
        }
        let sa = self.slot(a).ok_or(LedgerError::NotLive(a))?;
        let sb = self.slot(b).ok_or(LedgerError::NotLive(b))?;
        let ab = self.tally[sa].entry(sb).or_default();
        ab.games += 1;
        ab.points += score_a;
        let ba = self.tally[sb].entry(sa).or_default();
        ba.games += 1;
        ba.points += 1.0 - score_a;
        self.games[sa] += 1;
        self.games[sb] += 1;
        self.total_games += 1;
        Ok(())
    }

    /// Whether `id` is in the league.
    pub fn is_live(&self, id: EntrantId) -> bool {
        self.slot_of.contains_key(&id)
    }

    /// The live entrants, in slot order.
    pub fn live(&self) -> impl Iterator<Item = EntrantId> + '_ {
        self.slots.iter().flatten().copied()
    }

    /// How many entrants are live.
    pub fn live_count(&self) -> usize {
        self.slot_of.len()
    }

    /// `id`'s games against live entrants; `None` if it is not live.
    pub fn games_of(&self, id: EntrantId) -> Option<u32> {
        self.slot(id).map(|s| self.games[s])
    }

    /// The games between live entrants `a` and `b`, and `a`'s points in
    /// them; `None` if either is not live.
    pub fn between(&self, a: EntrantId, b: EntrantId) -> Option<(u32, f64)> {
        let (sa, sb) = (self.slot(a)?, self.slot(b)?);
        let t = self.tally_of(sa, sb);
        Some((t.games, t.points))
    }

    /// Games between live entrants.
    pub fn total_games(&self) -> u64 {
        self.total_games
    }

    // What the fit and the schedule read, by slot.

    /// Slots, free ones included: the length of slot-indexed vectors.
    pub(super) fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub(super) fn slot(&self, id: EntrantId) -> Option<usize> {
        self.slot_of.get(&id).copied()
    }

    /// The entrant in `slot`, if any.
    pub(super) fn entrant(&self, slot: usize) -> Option<EntrantId> {
        self.slots.get(slot).copied().flatten()
    }

    /// The slots of live entrants, in order.
    pub(super) fn live_slots(&self) -> Vec<usize> {
        (0..self.slots.len()).filter(|&s| self.slots[s].is_some()).collect()
    }

    /// Games of the entrant in `slot` (0 for a free slot).
    pub(super) fn slot_games(&self, slot: usize) -> u32 {
        self.games[slot]
    }

    /// Games between the entrants in two slots.
    pub(super) fn games_between(&self, a: usize, b: usize) -> u32 {
        self.tally_of(a, b).games
    }

    /// Every pair of live entrants that met, by slot (`a < b`, in order):
    /// what the Bradley-Terry fit reads.
    pub(super) fn pairings(&self) -> Vec<Pairing> {
        let mut out = Vec::new();
        for (a, opponents) in self.tally.iter().enumerate() {
            for (&b, t) in opponents.range(a + 1..) {
                out.push(Pairing { a, b, games: f64::from(t.games), points_a: t.points });
            }
        }
        out
    }

    fn tally_of(&self, a: usize, b: usize) -> PairTally {
        self.tally[a].get(&b).copied().unwrap_or_default()
    }

    /// Doubles the slots (at least 8): amortised O(1) an entrant.
    fn grow(&mut self) {
        let old = self.slots.len();
        let new = (2 * old).max(8);
        self.tally.resize(new, BTreeMap::new());
        self.slots.resize(new, None);
        self.games.resize(new, 0);
        self.free.extend(old..new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: i64) -> EntrantId {
        EntrantId(n)
    }

    #[test]
    fn games_merge_per_pair_in_both_directions() {
        let mut ledger = Ledger::new();
        for n in 1..=3 {
            ledger.add(id(n)).unwrap();
        }
        ledger.record(id(1), id(2), 1.0).unwrap();
        ledger.record(id(2), id(1), 0.5).unwrap();
        ledger.record(id(1), id(3), 0.0).unwrap();
        assert_eq!(ledger.between(id(1), id(2)), Some((2, 1.5)));
        assert_eq!(ledger.between(id(2), id(1)), Some((2, 0.5)));
        assert_eq!(ledger.between(id(3), id(1)), Some((1, 1.0)));
        assert_eq!(ledger.between(id(2), id(3)), Some((0, 0.0)));
        assert_eq!([1, 2, 3].map(|n| ledger.games_of(id(n)).unwrap()), [3, 2, 1]);
        assert_eq!(ledger.total_games(), 3);
        let pairings = ledger.pairings();
        assert_eq!(pairings.len(), 2);
        let (s1, s2) = (ledger.slot(id(1)).unwrap(), ledger.slot(id(2)).unwrap());
        let p = pairings.iter().find(|p| [p.a, p.b] == [s1.min(s2), s1.max(s2)]).unwrap();
        assert_eq!((p.games, p.points_a), (2.0, if p.a == s1 { 1.5 } else { 0.5 }));
    }

    #[test]
    fn retiring_drops_the_games_and_frees_the_slot() {
        let mut ledger = Ledger::new();
        for n in 1..=3 {
            ledger.add(id(n)).unwrap();
        }
        ledger.record(id(1), id(2), 1.0).unwrap();
        ledger.record(id(1), id(3), 1.0).unwrap();
        ledger.record(id(2), id(3), 0.5).unwrap();
        let slot = ledger.slot(id(1)).unwrap();
        ledger.retire(id(1)).unwrap();
        assert_eq!(ledger.games_of(id(2)), Some(1));
        assert_eq!(ledger.games_of(id(3)), Some(1));
        assert_eq!(ledger.total_games(), 1);
        assert_eq!(ledger.pairings().len(), 1);
        assert_eq!(ledger.live().collect::<Vec<_>>().len(), 2);
        // Late results of the retired entrant are refused; it cannot come back.
        assert_eq!(ledger.record(id(1), id(2), 1.0), Err(LedgerError::NotLive(id(1))));
        assert_eq!(ledger.add(id(1)), Err(LedgerError::Retired(id(1))));
        assert_eq!(ledger.retire(id(1)), Err(LedgerError::NotLive(id(1))));
        // Its successor takes the slot with a clean record.
        ledger.add(id(4)).unwrap();
        assert_eq!(ledger.slot(id(4)), Some(slot));
        assert_eq!(ledger.games_of(id(4)), Some(0));
        assert_eq!(ledger.between(id(4), id(2)), Some((0, 0.0)));
    }

    #[test]
    fn growing_keeps_every_tally() {
        let mut ledger = Ledger::new();
        ledger.add(id(0)).unwrap();
        ledger.add(id(1)).unwrap();
        ledger.record(id(0), id(1), 1.0).unwrap();
        for n in 2..40 {
            ledger.add(id(n)).unwrap();
            ledger.record(id(n), id(n - 1), 0.5).unwrap();
        }
        assert!(ledger.capacity() >= 40);
        assert_eq!(ledger.between(id(0), id(1)), Some((1, 1.0)));
        assert_eq!(ledger.between(id(39), id(38)), Some((1, 0.5)));
        assert_eq!(ledger.games_of(id(5)), Some(2));
        assert_eq!(ledger.total_games(), 39);
    }

    #[test]
    fn refuses_what_is_not_a_game() {
        let mut ledger = Ledger::new();
        ledger.add(id(1)).unwrap();
        ledger.add(id(2)).unwrap();
        assert_eq!(ledger.add(id(1)), Err(LedgerError::AlreadyLive(id(1))));
        assert_eq!(ledger.record(id(1), id(1), 1.0), Err(LedgerError::SameEntrant(id(1))));
        assert_eq!(ledger.record(id(1), id(2), 1.5), Err(LedgerError::BadScore(1.5)));
        assert!(matches!(ledger.record(id(1), id(2), f64::NAN), Err(LedgerError::BadScore(_))));
        assert_eq!(ledger.record(id(1), id(9), 1.0), Err(LedgerError::NotLive(id(9))));
        assert_eq!(ledger.total_games(), 0);
    }

    #[test]
    fn a_league_of_ten_thousand_holds_only_the_pairs_that_met() {
        // Ten thousand entrants, each against its next five: 50,000 pairs,
        // merged and listed once each, retiring one drops its ten. (A
        // matrix of every pair would hold 10,000^2 tallies: 1.6 GB.)
        let mut ledger = Ledger::new();
        let n = 10_000;
        for k in 0..n {
            ledger.add(id(k)).unwrap();
        }
        for k in 0..n {
            for d in 1..=5 {
                ledger.record(id(k), id((k + d) % n), 1.0).unwrap();
            }
        }
        assert_eq!(ledger.total_games(), 50_000);
        let pairings = ledger.pairings();
        assert_eq!(pairings.len(), 50_000);
        assert!(pairings.windows(2).all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)), "in slot order");
        assert!(pairings.iter().all(|p| p.a < p.b && p.games == 1.0));
        assert_eq!(ledger.games_of(id(7)), Some(10));
        ledger.retire(id(7)).unwrap();
        assert_eq!(ledger.total_games(), 49_990);
        assert_eq!(ledger.pairings().len(), 49_990);
        assert_eq!(ledger.games_of(id(8)), Some(9));
    }
}
