//! A rating updated game by game, in O(1): each entrant's log-strength is a
//! belief (a mean and a variance) that each game moves, as Glicko does
//! (Glickman 1999) with a rating period of one game and no drift (a
//! submission's strength does not change). What a league shows between
//! two Bradley–Terry fits, which cost `O(pairs)` each: at 10,000 entrants
//! and a million games a fit is a tenth of a second, a game's update a few
//! nanoseconds.
//!
//! The belief starts where the fit's prior puts a player without games (one
//! virtual draw against the field: information 1/4, variance 4 nats²), and
//! a fit's ratings can be taken back as beliefs ([`Belief::of_rating`]), so
//! a league refits now and then and updates online in between.

use super::{elo::logistic, Rating, ELO_PER_NAT, Z95};

/// The variance of a belief without games: the Bradley–Terry fit's prior
/// of one virtual draw (`p (1 - p) = 1/4`) is information 1/4.
pub const PRIOR_VARIANCE: f64 = 4.0;

/// One entrant's belief about its log-strength (natural units: Elo / ELO_PER_NAT).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Belief {
    pub mean: f64,
    pub variance: f64,
}

impl Default for Belief {
    fn default() -> Belief {
        Belief::prior(0.0)
    }
}

impl Belief {
    /// No games yet, at log-strength `mean` (the field's mean).
    pub fn prior(mean: f64) -> Belief {
        Belief { mean, variance: PRIOR_VARIANCE }
    }

    /// The belief a fitted rating stands for (a rating without games, with
    /// an infinite interval, is the prior at its Elo).
    pub fn of_rating(rating: Rating) -> Belief {
        let mean = rating.elo / ELO_PER_NAT;
        if !rating.error.is_finite() {
            return Belief::prior(mean);
        }
        let sd = rating.error / (Z95 * ELO_PER_NAT);
        Belief { mean, variance: (sd * sd).min(PRIOR_VARIANCE) }
    }

    /// Both sides' beliefs after one game in which `a` scored `score_a` (1,
    /// 0.5 or 0) against `b`, each updated from the other's belief before
    /// the game.
    pub fn after_game(a: Belief, b: Belief, score_a: f64) -> (Belief, Belief) {
        (one_side(a, b, score_a), one_side(b, a, 1.0 - score_a))
    }

    /// As a rating: Elo and the half-width of its 95% interval.
    pub fn rating(&self) -> Rating {
        Rating { elo: self.mean * ELO_PER_NAT, error: Z95 * ELO_PER_NAT * self.variance.sqrt() }
    }
}

/// How much an opponent's uncertainty flattens the expected score
/// (Glicko's `g`, for a logistic of natural log-strengths).
fn flattening(variance: f64) -> f64 {
    1.0 / (1.0 + 3.0 * variance / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// `me`'s belief after scoring `score` against `them`: the expected score
/// flattened by `them`'s uncertainty, the information the game brings
/// (`g^2 E (1 - E)`) added to `me`'s, the mean moved by the surprise.
fn one_side(me: Belief, them: Belief, score: f64) -> Belief {
    let g = flattening(them.variance);
    let expected = logistic(g * (me.mean - them.mean));
    let variance = 1.0 / (1.0 / me.variance + g * g * expected * (1.0 - expected));
    Belief { mean: me.mean + variance * g * (score - expected), variance }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_and_both_grow_surer() {
        let (a, b) = Belief::after_game(Belief::default(), Belief::default(), 1.0);
        assert!(a.mean > 0.0 && b.mean < 0.0);
        assert!((a.mean + b.mean).abs() < 1e-12, "equal beliefs move by as much");
        assert!(a.variance < PRIOR_VARIANCE && b.variance < PRIOR_VARIANCE);
        // A draw between equals moves nobody.
        let (c, d) = Belief::after_game(Belief::default(), Belief::default(), 0.5);
        assert_eq!((c.mean, d.mean), (0.0, 0.0));
        assert!(c.variance < PRIOR_VARIANCE);
    }

    #[test]
    fn an_unsure_entrant_moves_more_than_a_sure_one() {
        let newcomer = Belief::default();
        let settled = Belief { mean: 0.0, variance: 0.01 };
        let (n, s) = Belief::after_game(newcomer, settled, 1.0);
        assert!(n.mean > 10.0 * -s.mean, "{n:?} {s:?}");
    }

    #[test]
    fn many_games_at_a_known_score_converge_on_its_elo() {
        // 75% against a settled field at 0: log(3) nats (190.8 Elo).
        let field = Belief { mean: 0.0, variance: 1e-6 };
        let mut me = Belief::default();
        for k in 0..4000 {
            me = Belief::after_game(me, field, if k % 4 == 3 { 0.0 } else { 1.0 }).0;
        }
        assert!((me.rating().elo - 190.8).abs() < 10.0, "{:?}", me.rating());
        // The interval as the games' information gives it: 1/sqrt(n p (1 - p)).
        let expected = Z95 * ELO_PER_NAT / (4000.0f64 * 0.75 * 0.25).sqrt();
        assert!((me.rating().error / expected - 1.0).abs() < 0.05, "{:?} vs {expected}", me.rating());
    }

    #[test]
    fn a_rating_round_trips_through_a_belief() {
        let rating = Rating { elo: -123.0, error: 45.0 };
        let back = Belief::of_rating(rating).rating();
        assert!((back.elo - rating.elo).abs() < 1e-9 && (back.error - rating.error).abs() < 1e-9);
        let unrated = Belief::of_rating(Rating { elo: 0.0, error: f64::INFINITY });
        assert_eq!(unrated, Belief::prior(0.0));
    }
}
