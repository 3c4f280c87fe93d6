//! "Number of opponents defeated": the course's way of ranking groups,
//! counted over the games merged per pair of players.

use super::bradley_terry::pairings;

/// For each player, the number of distinct opponents it defeated: those
/// against whom its total score over all their games together is strictly
/// more than half the games (`2 * points > games`). Self-play is ignored.
///
/// Panics on a player index `>= players` or a score outside `[0, 1]`.
pub fn opponents_defeated(players: usize, games: &[(usize, usize, f64)]) -> Vec<u32> {
    let mut defeated = vec![0; players];
    for p in pairings(players, games) {
        if 2.0 * p.points_a > p.games {
            defeated[p.a] += 1;
        } else if 2.0 * p.points_a < p.games {
            defeated[p.b] += 1;
        }
    }
    defeated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponents_defeated_small_table() {
        // 0 vs 1: 0 scores 1 + 0.5 + 0 = 1.5 of 3 -> exactly half, nobody.
        // 0 vs 2: 0 scores 1 + 1 = 2 of 2 -> 0 defeated 2.
        // 1 vs 2: (1, 2, 0.5) -> 1 scores 0.5; (2, 1, 0.0) -> 1 scores 1:
        //   1.5 of 2 -> 1 defeated 2.
        // 3 vs 0: 3 scores 1 of 1 -> 3 defeated 0.
        // 3 vs 3: self-play, ignored.
        let games = [
            (0, 1, 1.0),
            (1, 0, 0.5),
            (1, 0, 1.0),
            (0, 2, 1.0),
            (2, 0, 0.0),
            (1, 2, 0.5),
            (2, 1, 0.0),
            (3, 0, 1.0),
            (3, 3, 1.0),
        ];
        assert_eq!(opponents_defeated(5, &games), vec![1, 1, 0, 1, 0]);
        assert_eq!(opponents_defeated(2, &[]), vec![0, 0]);
    }

    #[test]
    #[should_panic(expected = "only 2 players")]
    fn out_of_range_player_panics() {
        opponents_defeated(2, &[(0, 2, 1.0)]);
    }
}
