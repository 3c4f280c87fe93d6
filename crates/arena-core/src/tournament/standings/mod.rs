//! Standings of a tournament from its journal: points, opponents defeated,
//! Bradley–Terry Elo, a head-to-head pentanomial estimate for two players,
//! failures and times, computed here; how they are shown (a terminal
//! table, Markdown, CSV, JSON) is `standings/formats.rs`.
//!
//! The statistics themselves live in [`crate::stats`]; this module only
//! tallies games and ranks the players.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::record::GameResult;
use crate::stats::{
    bradley_terry, elo_from_pentanomial, opponents_defeated, EloEstimate, Pentanomial, Rating, Wdl,
};

pub use crate::play::fault::Failures;

mod formats;

/// A player of the tournament, as the player list gives it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    /// A path or a built-in name, as given.
    pub source: String,
}

/// One player's line.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based: by points, then opponents defeated, then Bradley–Terry Elo,
    /// then id (so ranks are distinct).
    pub rank: usize,
    /// Index in the player list.
    pub id: usize,
    pub name: String,
    pub source: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Win 1, draw 0.5.
    pub points: f64,
    /// Points per game (0.5 without games).
    pub score: f64,
    /// Distinct opponents against whom this player scored more than half
    /// the points over all their games together.
    pub opponents_defeated: u32,
    /// Rank by `opponents_defeated` alone, as the course ranks groups:
    /// 1 + the number of players who defeated strictly more opponents
    /// (equal counts share a rank: 1, 2, 2, 4). In a Swiss, its rank
    /// (`Standings::with_swiss`: there the groups defeated are those
    /// ranked below).
    pub rank_by_defeated: usize,
    /// Bradley–Terry Elo over all games (the mean of the players with games
    /// is 0); 0 without games.
    pub elo: f64,
    /// Half-width of its 95% interval; infinite (null in JSON) without games.
    pub elo_error: f64,
    /// This player's own faults, by kind.
    pub failures: Failures,
    /// Turns this player played (the time means are over these).
    pub turns: u64,
    /// Mean time per turn in microseconds (0 without turns).
    pub mean_turn_us: f64,
    /// Longest turn in microseconds.
    pub max_turn_us: u64,
    /// A Swiss's score and tie-break (absent in the other formats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swiss: Option<SwissCells>,
}

/// A player's line in a Swiss (`swiss.rs`): what it is ranked by.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct SwissCells {
    /// Pairings won, ½ per drawn pairing, 1 per bye.
    pub score: f64,
    /// The sum of its opponents' scores.
    pub buchholz: f64,
    pub byes: u32,
}

/// A Swiss's progress, beside its standings.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SwissRounds {
    /// Rounds whose every game is in.
    pub played: usize,
    pub rounds: usize,
}

impl Row {
    pub fn wdl(&self) -> Wdl {
        Wdl::new(self.wins, self.draws, self.losses)
    }
}

/// `player`'s results against `opponent` (one cell of the crosstable).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Versus {
    pub player: usize,
    pub opponent: usize,
    #[serde(flatten)]
    pub result: Wdl,
}

/// The head-to-head estimate when exactly two players have games: game
/// pairs on the same seed with the seats swapped, scored for `player`
/// (the better ranked of the two).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct HeadToHead {
    pub player: usize,
    pub opponent: usize,
    /// Complete seat-swapped pairs.
    pub pairs: u64,
    /// Games without their seat-swapped partner (left out of the estimate).
    pub unpaired_games: u32,
    pub pentanomial: Pentanomial,
    /// `player`'s Elo over `opponent` with its 95% interval (bounds may be
    /// infinite: null in JSON).
    pub estimate: EloEstimate,
    /// Half-width of the interval (infinite if a bound is).
    pub error: f64,
}

/// The whole table.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Standings {
    /// Games counted.
    pub games: usize,
    /// Journal records left out: a player id outside the player list, or a
    /// player against itself.
    pub ignored_games: usize,
    /// One per entrant, in rank order.
    pub rows: Vec<Row>,
    /// Each ordered pair of players with games between them, by ids.
    pub crosstable: Vec<Versus>,
    /// Only when exactly two players have games.
    pub head_to_head: Option<HeadToHead>,
    /// A Swiss's rounds (absent in the other formats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swiss: Option<SwissRounds>,
}

/// Per-player counters while reading the journal.
#[derive(Default, Clone, Copy)]
struct PlayerTally {
    wdl: Wdl,
    failures: Failures,
    turns: u64,
    total_us: u64,
    max_us: u64,
}

/// Adds a game scored `score` (1, 0.5 or 0) to a W/D/L count.
fn add(wdl: &mut Wdl, score: f64) {
    if score == 1.0 {
        wdl.wins += 1;
    } else if score == 0.0 {
        wdl.losses += 1;
    } else {
        wdl.draws += 1;
    }
}

/// The standings of `entrants` after `results` (in any order, possibly
/// incomplete).
pub fn compute(entrants: &[Entrant], results: &[GameResult]) -> Standings {
    let n = entrants.len();
    let valid: Vec<&GameResult> = results
        .iter()
        .filter(|g| {
            let [a, b] = g.seats;
            a < n && b < n && a != b && g.winner.is_none_or(|w| w == a || w == b)
        })
        .collect();

    let mut tally = vec![PlayerTally::default(); n];
    let mut cross: BTreeMap<(usize, usize), Wdl> = BTreeMap::new();
    let mut pair_games: Vec<(usize, usize, f64)> = Vec::with_capacity(valid.len());
    for g in &valid {
        let [a, b] = g.seats;
        pair_games.push((a, b, g.score_of(a)));
        for (seat, (me, them)) in [(a, b), (b, a)].into_iter().enumerate() {
            let score = g.score_of(me);
            let t = &mut tally[me];
            add(&mut t.wdl, score);
            add(cross.entry((me, them)).or_default(), score);
            let clock = g.clock[seat];
            t.turns += u64::from(clock.turns);
            t.total_us += clock.total_us;
            t.max_us = t.max_us.max(clock.max_us);
        }
        if let Some(fault) = &g.fault {
            if fault.player < n {
                tally[fault.player].failures.add(&fault.kind);
            }
        }
    }

    let ratings: Vec<Rating> = bradley_terry(n, &pair_games);
    let defeated = opponents_defeated(n, &pair_games);

    let mut rows: Vec<Row> = (0..n)
        .map(|id| {
            let t = &tally[id];
            let played = t.wdl.games() > 0;
            Row {
                rank: 0,
                id,
                name: entrants[id].name.clone(),
                source: entrants[id].source.clone(),
                games: t.wdl.games() as u32,
                wins: t.wdl.wins,
                draws: t.wdl.draws,
                losses: t.wdl.losses,
                points: t.wdl.points(),
                score: t.wdl.score(),
                opponents_defeated: defeated[id],
                rank_by_defeated: 1 + defeated.iter().filter(|&&d| d > defeated[id]).count(),
                elo: if played { ratings[id].elo } else { 0.0 },
                elo_error: if played { ratings[id].error } else { f64::INFINITY },
                failures: t.failures,
                turns: t.turns,
                mean_turn_us: if t.turns > 0 { t.total_us as f64 / t.turns as f64 } else { 0.0 },
                max_turn_us: t.max_us,
                swiss: None,
            }
        })
        .collect();
    // Elo to a thousandth for the tie-break, so that players the fit rates
    // equal (up to rounding noise) fall through to the id.
    let elo_key = |r: &Row| (r.elo * 1000.0).round();
    rows.sort_by(|x, y| {
        y.points
            .total_cmp(&x.points)
            .then(y.opponents_defeated.cmp(&x.opponents_defeated))
            .then(elo_key(y).total_cmp(&elo_key(x)))
            .then(x.id.cmp(&y.id))
    });
    for (k, row) in rows.iter_mut().enumerate() {
        row.rank = k + 1;
    }

    let with_games: Vec<usize> = rows.iter().filter(|r| r.games > 0).map(|r| r.id).collect();
    let head_to_head = match with_games[..] {
        [player, opponent] => Some(head_to_head(player, opponent, &valid)),
        _ => None,
    };

    Standings {
        games: valid.len(),
        ignored_games: results.len() - valid.len(),
        rows,
        crosstable: cross
            .into_iter()
            .map(|((player, opponent), result)| Versus { player, opponent, result })
            .collect(),
        head_to_head,
        swiss: None,
    }
}

/// Pairs the games between `player` and `opponent` that share a seed and
/// have the seats swapped (by schedule index within each seed), and
/// estimates `player`'s Elo from the pairs.
fn head_to_head(player: usize, opponent: usize, games: &[&GameResult]) -> HeadToHead {
    // seed -> (games with `player` in seat 1, games with `player` in seat 2)
    let mut by_seed: BTreeMap<u64, (Vec<&GameResult>, Vec<&GameResult>)> = BTreeMap::new();
    let mut considered = 0u32;
    for g in games {
        let entry = by_seed.entry(g.seed).or_default();
        if g.seats == [player, opponent] {
            entry.0.push(g);
        } else if g.seats == [opponent, player] {
            entry.1.push(g);
        } else {
            continue;
        }
        considered += 1;
    }
    let mut scores = Vec::new();
    for (mut first, mut second) in by_seed.into_values() {
        first.sort_by_key(|g| g.index);
        second.sort_by_key(|g| g.index);
        for (x, y) in first.iter().zip(&second) {
            scores.push(x.score_of(player) + y.score_of(player));
        }
    }
    let pentanomial =
        Pentanomial::from_pair_scores(&scores).expect("pair scores are multiples of 0.5 within [0, 2]");
    let estimate = elo_from_pentanomial(pentanomial);
    HeadToHead {
        player,
        opponent,
        pairs: pentanomial.pairs(),
        unpaired_games: considered - 2 * scores.len() as u32,
        pentanomial,
        estimate,
        error: estimate.error(),
    }
}

impl Standings {
    /// The standings of a Swiss: each row with its Swiss score and
    /// Buchholz (`records`, by player id, after the `played` complete
    /// rounds of `rounds`), ranked by them as the pairing ranks
    /// (`pairing::order`: score, Buchholz, game points, entry order).
    /// `rank_by_defeated` becomes the rank too: in a Swiss, the groups
    /// defeated are those ranked below.
    pub fn with_swiss(
        mut self,
        records: &[crate::tournament::pairing::Record],
        played: usize,
        rounds: usize,
    ) -> Standings {
        let order = crate::tournament::pairing::order(records);
        let buchholz = crate::tournament::pairing::buchholz(records);
        let place: Vec<usize> = {
            let mut place = vec![0; records.len()];
            order.iter().enumerate().for_each(|(k, &id)| place[id] = k);
            place
        };
        for row in &mut self.rows {
            let record = &records[row.id];
            row.swiss =
                Some(SwissCells { score: record.score, buchholz: buchholz[row.id], byes: record.byes });
        }
        self.rows.sort_by_key(|r| place[r.id]);
        for (k, row) in self.rows.iter_mut().enumerate() {
            row.rank = k + 1;
            row.rank_by_defeated = k + 1;
        }
        self.swiss = Some(SwissRounds { played, rounds });
        self
    }

    /// The row of player `id`.
    pub fn row(&self, id: usize) -> Option<&Row> {
        self.rows.iter().find(|r| r.id == id)
    }

    /// `player`'s W/D/L against `opponent`, if they played.
    pub fn versus(&self, player: usize, opponent: usize) -> Option<Wdl> {
        self.crosstable.iter().find(|v| v.player == player && v.opponent == opponent).map(|v| v.result)
    }

    /// Whether any player failed.
    pub fn any_failures(&self) -> bool {
        self.rows.iter().any(|r| r.failures.total() > 0)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Also the fixtures of `formats.rs`'s and `swiss.rs`'s tests.
    use super::*;
    use crate::{
        stats::elo_from_pentanomial,
        tournament::record::{FaultRecord, SeatClock},
    };

    pub(super) fn entrants(names: &[&str]) -> Vec<Entrant> {
        names.iter().map(|n| Entrant { name: n.to_string(), source: format!("players/{n}") }).collect()
    }

    /// Game `index` on `seed`, `seats` = [seat 1, seat 2], won by `winner`
    /// (None: a draw), no fault, no time.
    pub(crate) fn game(index: usize, seed: u64, seats: [usize; 2], winner: Option<usize>) -> GameResult {
        GameResult {
            index,
            seed,
            seats,
            winner,
            turns: 10,
            reason: if winner.is_some() { "trapped".into() } else { "turn cap".into() },
            fault: None,
            clock: [SeatClock::default(); 2],
            solo: None,
            replayed: 0,
            replay_left_out: false,
        }
    }

    /// `n` games between `a` (seat 1 in even games) and `b`, `a` winning the
    /// first `a_wins`, then `draws` draws, then `b` winning the rest.
    pub(super) fn series(
        start: usize,
        a: usize,
        b: usize,
        a_wins: usize,
        draws: usize,
        n: usize,
    ) -> Vec<GameResult> {
        (0..n)
            .map(|i| {
                let seats = if i % 2 == 0 { [a, b] } else { [b, a] };
                let winner = if i < a_wins {
                    Some(a)
                } else if i < a_wins + draws {
                    None
                } else {
                    Some(b)
                };
                game(start + i, 1000 + (start + i) as u64 / 2, seats, winner)
            })
            .collect()
    }

    pub(super) fn order(s: &Standings) -> Vec<usize> {
        s.rows.iter().map(|r| r.id).collect()
    }

    /// A (0), B (1), C (2), D (3) play 2 games per pair; E (4) has no games.
    /// A-B 2-0, A-C two draws, B-C 1-1, C-D 2-0, A-D 1-1, B-D 2-0.
    pub(super) fn field() -> (Vec<Entrant>, Vec<GameResult>) {
        let mut games = Vec::new();
        for (a, b, a_wins, draws) in
            [(0, 1, 2, 0), (0, 2, 0, 2), (1, 2, 1, 0), (2, 3, 2, 0), (0, 3, 1, 0), (1, 3, 2, 0)]
        {
            games.extend(series(games.len(), a, b, a_wins, draws, 2));
        }
        (entrants(&["A", "B", "C", "D", "E"]), games)
    }

    #[test]
    fn points_ranks_defeated_and_crosstable() {
        let (players, games) = field();
        let s = compute(&players, &games);
        assert_eq!(s.games, 12);
        assert_eq!(s.ignored_games, 0);
        // A: 2 + 1 + 1 = 4 (3-2-1). C: 1 + 1 + 2 = 4 (3-2-1). B: 0 + 1 + 2 = 3
        // (3-0-3). D: 1 + 0 + 0 = 1 (1-0-5). E: nothing.
        let wdlp = |id: usize| {
            let r = s.row(id).unwrap();
            (r.games, r.wins, r.draws, r.losses, r.points)
        };
        assert_eq!(wdlp(0), (6, 3, 2, 1, 4.0));
        assert_eq!(wdlp(1), (6, 3, 0, 3, 3.0));
        assert_eq!(wdlp(2), (6, 3, 2, 1, 4.0));
        assert_eq!(wdlp(3), (6, 1, 0, 5, 1.0));
        assert_eq!(wdlp(4), (0, 0, 0, 0, 0.0));
        assert!((s.row(0).unwrap().score - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(s.row(4).unwrap().score, 0.5);

        // Defeated: A beat B; B beat D; C beat D (A-C, A-D, B-C level).
        let defeated: Vec<u32> = (0..5).map(|id| s.row(id).unwrap().opponents_defeated).collect();
        assert_eq!(defeated, [1, 1, 1, 0, 0]);
        let by_defeated: Vec<usize> = (0..5).map(|id| s.row(id).unwrap().rank_by_defeated).collect();
        assert_eq!(by_defeated, [1, 1, 1, 4, 4]);

        // A and C: same points, same number defeated, and the same opponents
        // with the same total score, so the same Bradley-Terry rating: the
        // id decides.
        let (a, c) = (s.row(0).unwrap(), s.row(2).unwrap());
        assert!((a.elo - c.elo).abs() < 1e-6, "{} vs {}", a.elo, c.elo);
        assert_eq!(order(&s), [0, 2, 1, 3, 4]);
        assert_eq!(s.rows.iter().map(|r| r.rank).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);

        // Elo: the idle player 0 ± inf, the others finite.
        let e = s.row(4).unwrap();
        assert_eq!((e.elo, e.elo_error), (0.0, f64::INFINITY));
        assert!(s.rows[..4].iter().all(|r| r.elo.is_finite() && r.elo_error.is_finite()));
        assert!(
            s.row(0).unwrap().elo > s.row(1).unwrap().elo && s.row(1).unwrap().elo > s.row(3).unwrap().elo
        );

        // Crosstable: both directions of the six pairs, nothing for E.
        assert_eq!(s.crosstable.len(), 12);
        assert_eq!(s.versus(0, 1), Some(Wdl::new(2, 0, 0)));
        assert_eq!(s.versus(1, 0), Some(Wdl::new(0, 0, 2)));
        assert_eq!(s.versus(0, 2), Some(Wdl::new(0, 2, 0)));
        assert_eq!(s.versus(1, 2), Some(Wdl::new(1, 0, 1)));
        assert_eq!(s.versus(3, 2), Some(Wdl::new(0, 0, 2)));
        assert_eq!(s.versus(0, 3), Some(Wdl::new(1, 0, 1)));
        assert_eq!(s.versus(0, 4), None);
        assert_eq!(s.versus(4, 0), None);
        // More than two players with games: no head-to-head.
        assert!(s.head_to_head.is_none());
    }

    #[test]
    fn tie_breaks_defeated_then_elo_then_id() {
        // S (0) beats W (4) four times; Y (2) draws S twice; X (3) beats W
        // once; Z (1) draws W twice. S 5 points; X, Y, Z, W 1 point each.
        // X defeated W; Y, Z, W defeated nobody; among them Y drew the
        // strong S, Z drew the weak W.
        let (s_, z, y, x, w) = (0, 1, 2, 3, 4);
        let mut games = series(0, s_, w, 4, 0, 4);
        games.extend(series(4, y, s_, 0, 2, 2));
        games.extend(series(6, x, w, 1, 0, 1));
        games.extend(series(7, z, w, 0, 2, 2));
        let st = compute(&entrants(&["S", "Z", "Y", "X", "W"]), &games);
        let points: Vec<f64> = (0..5).map(|id| st.row(id).unwrap().points).collect();
        assert_eq!(points, [5.0, 1.0, 1.0, 1.0, 1.0]);
        let elo = |id: usize| st.row(id).unwrap().elo;
        // Defeated comes before Elo: X is ranked above Y despite a lower Elo.
        assert!(elo(x) < elo(y), "x {} y {}", elo(x), elo(y));
        assert!(elo(y) > elo(z) && elo(z) > elo(w));
        assert_eq!(order(&st), [s_, x, y, z, w]);

        // Exactly level: the lower id first; the idle player last.
        let st = compute(&entrants(&["idle", "P", "Q"]), &series(0, 2, 1, 0, 2, 2));
        assert_eq!(order(&st), [1, 2, 0]);
        assert_eq!(st.row(1).unwrap().elo, -st.row(2).unwrap().elo);
    }

    /// alpha (0) against beta (1): five seat-swapped pairs (2, 1, 1.5, 0.5
    /// and 2 points for alpha) and a game whose partner is not played yet.
    pub(super) fn head_to_head_games() -> Vec<GameResult> {
        let (a, b) = (0, 1);
        vec![
            // seed 10: alpha wins both: 2 points (ww).
            game(0, 10, [a, b], Some(a)),
            game(1, 10, [b, a], Some(a)),
            // seed 11: each wins as seat 1: 1 point (dd_or_wl).
            game(2, 11, [a, b], Some(a)),
            game(3, 11, [b, a], Some(b)),
            // seed 12: draw, win: 1.5 (wd).
            game(4, 12, [a, b], None),
            game(5, 12, [b, a], Some(a)),
            // seed 13: loss, draw: 0.5 (ld).
            game(6, 13, [a, b], Some(b)),
            game(7, 13, [b, a], None),
            // seed 14: the partner is not played yet: left out.
            game(8, 14, [a, b], Some(a)),
            // seed 15, journaled out of order: 2 points (ww).
            game(11, 15, [b, a], Some(a)),
            game(10, 15, [a, b], Some(a)),
        ]
    }

    #[test]
    fn head_to_head_pairs_games_by_seed_and_swapped_seats() {
        // alpha (0) against beta (1); gamma (2) has no games.
        let (a, b) = (0, 1);
        let games = head_to_head_games();
        let s = compute(&entrants(&["alpha", "beta", "gamma"]), &games);
        assert_eq!(order(&s), [0, 1, 2]);
        assert_eq!(s.row(a).unwrap().points, 8.0);
        let h = s.head_to_head.as_ref().expect("two players with games");
        assert_eq!((h.player, h.opponent), (a, b));
        assert_eq!(h.pentanomial, Pentanomial { ll: 0, ld: 1, dd_or_wl: 1, wd: 1, ww: 2 });
        assert_eq!((h.pairs, h.unpaired_games), (5, 1));
        // mu = (0.25 + 0.5 + 0.75 + 1 + 1) / 5 = 0.7 -> 400 log10(7/3) = 147.19.
        assert!((h.estimate.elo - 147.19).abs() < 0.01, "{:?}", h.estimate);
        assert_eq!(h.estimate, elo_from_pentanomial(h.pentanomial));
        // var = (0.2025 + 0.04 + 0.0025 + 2 * 0.09) / 5 = 0.085; se =
        // sqrt(0.085 / 5) = 0.13038; mu ± 0.25555 -> [-38.8, +532.9] Elo,
        // half-width 285.8.
        assert!((h.error - 285.8).abs() < 0.1, "{}", h.error);

        // The same games seen from beta's side when beta is ahead.
        let flipped: Vec<GameResult> =
            games.iter().map(|g| GameResult { winner: g.winner.map(|w| 1 - w), ..g.clone() }).collect();
        let h = compute(&entrants(&["alpha", "beta"]), &flipped).head_to_head.unwrap();
        assert_eq!((h.player, h.opponent), (b, a));
        assert_eq!(h.pentanomial, Pentanomial { ll: 0, ld: 1, dd_or_wl: 1, wd: 1, ww: 2 });
    }

    pub(super) fn clock(turns: u32, total_us: u64, max_us: u64) -> SeatClock {
        SeatClock { turns, total_us, max_us, ..SeatClock::default() }
    }

    /// Player 0 loses twice by its own fault (a timeout in seat 1, a crash
    /// in seat 2); player 1 wins both. Player 0's turns: 3 (300 us, max 200)
    /// and 1 (100 us): mean 100 us, max 200 us. Player 1's: 2 (4000 us, max
    /// 3000) and 2 (1200 us, max 900): mean 1300 us, max 3000 us.
    pub(super) fn faulty() -> Vec<GameResult> {
        let mut g0 = game(0, 7, [0, 1], Some(1));
        g0.fault = Some(FaultRecord { player: 0, kind: "timeout".into() });
        g0.reason = "timeout: 5.31 s > 5.00 s".into();
        g0.clock = [clock(3, 300, 200), clock(2, 4000, 3000)];
        let mut g1 = game(1, 7, [1, 0], Some(1));
        g1.fault = Some(FaultRecord { player: 0, kind: "crashed".into() });
        g1.clock = [clock(2, 1200, 900), clock(1, 100, 100)];
        vec![g0, g1]
    }

    #[test]
    fn failures_and_times_go_to_the_right_player() {
        let s = compute(&entrants(&["flaky", "steady"]), &faulty());
        let (flaky, steady) = (s.row(0).unwrap(), s.row(1).unwrap());
        assert_eq!(flaky.failures.get("timeout"), 1);
        assert_eq!(flaky.failures.get("crashed"), 1);
        assert_eq!(flaky.failures.total(), 2);
        assert_eq!(flaky.failures.compact(), "1 timeout, 1 crashed");
        assert_eq!(steady.failures.total(), 0);
        assert_eq!(steady.failures.compact(), "-");
        assert_eq!((flaky.turns, flaky.mean_turn_us, flaky.max_turn_us), (4, 100.0, 200));
        assert_eq!((steady.turns, steady.mean_turn_us, steady.max_turn_us), (4, 1300.0, 3000));
        assert!(s.any_failures());

        // A kind this version does not know is still counted.
        let mut odd = faulty();
        odd[0].fault.as_mut().unwrap().kind = "gremlin".into();
        let s = compute(&entrants(&["flaky", "steady"]), &odd);
        let f = s.row(0).unwrap().failures;
        assert_eq!((f.other, f.total(), f.compact()), (1, 2, "1 crashed, 1 other".to_string()));
    }

    #[test]
    fn out_of_range_and_self_play_records_are_ignored() {
        let mut games = series(0, 0, 1, 1, 0, 2);
        games.push(game(2, 5, [0, 9], Some(0)));
        games.push(game(3, 5, [1, 1], Some(1)));
        let s = compute(&entrants(&["a", "b"]), &games);
        assert_eq!((s.games, s.ignored_games), (2, 2));
        assert_eq!(s.row(0).unwrap().wdl(), Wdl::new(1, 0, 1));
    }
}
