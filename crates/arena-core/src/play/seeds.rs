//! Seeds: every game's seed is derived from the match (or tournament) seed
//! and the game's index, so any single game can be replayed on its own.

/// The seed of game `index` of a match seeded with `base`.
///
/// SplitMix64 over the pair: nearby bases and indices give unrelated seeds.
pub fn derive(base: u64, index: u64) -> u64 {
    let mut z = base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of the own generator of the player in seat `seat` (0 or 1;
/// a single-player game's player is seat 0) of a game seeded `game`.
///
/// One-way (SHA-256), unlike [`derive`], whose mix can be run backwards: a
/// player that knows its own seed must not learn the game's, from which
/// the referee draws the game's luck (Trap's throws, a world's layout).
pub fn player(game: u64, seat: u8) -> u64 {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(b"arena player seed\0")
        .chain_update(game.to_le_bytes())
        .chain_update([seat])
        .finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// The own seeds of a two-player game's players, seat 1's first.
pub fn players(game: u64) -> [u64; 2] {
    [player(game, 0), player(game, 1)]
}

/// A fresh seed for a run that was given none (it is printed, so the run
/// can be repeated).
pub fn fresh() -> u64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    derive(nanos, std::process::id() as u64) % 1_000_000_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_are_distinct_and_repeatable() {
        let seeds: std::collections::HashSet<u64> = (0..10_000).map(|i| derive(7, i)).collect();
        assert_eq!(seeds.len(), 10_000);
        assert_eq!(derive(7, 3), derive(7, 3));
        assert_ne!(derive(7, 3), derive(8, 3));
    }

    #[test]
    fn player_seeds_differ_by_seat_and_game_and_are_not_the_derived_ones() {
        let [one, two] = players(7);
        assert_ne!(one, two);
        assert_eq!(one, player(7, 0));
        assert_ne!(player(8, 0), one);
        // Not the invertible mix used for the games' own seeds.
        assert_ne!(one, derive(7, u64::MAX));
        // python3: sha256(b"arena player seed\0" + (7).to_bytes(8, "little")
        // + bytes([0])), its first 8 bytes little-endian.
        assert_eq!(one, 632737263731176254);
    }
}
