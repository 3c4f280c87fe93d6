//! How strong is a player, and which version or values are stronger:
//! `bench/` (`arena bench`: a player against the reference levels),
//! `sprt/` (`arena bench sprt`: is NEW stronger than OLD?) and `tune/`
//! (`arena tune`: SPSA over a player's declared parameters). All three
//! play their games with the match machinery (`play::two_player`).

pub mod bench;
pub mod sprt;
pub mod tune;
