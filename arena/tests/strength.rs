//! The reference levels form a ladder: each beats the one below in clearly
//! more than half of its games (fixed seed, seat-swapped pairs).

use arena::{
    matches::{self, MatchConfig},
    players::{Hosting, Level, Player},
    referee::trap::TrapSettings,
};

fn win_share(stronger: Level, weaker: Level) -> f64 {
    let players = [Player::Builtin(stronger), Player::Builtin(weaker)];
    let config = MatchConfig {
        settings: TrapSettings::default(),
        games: 400,
        seed: 2021,
        hosting: Hosting::in_process(),
        first_game: 0,
    };
    let result = matches::play([&players[0], &players[1]], &config, &mut |_| {}, None);
    let t = &result.tallies[0];
    (t.wins as f64 + 0.5 * t.draws as f64) / config.games as f64
}

#[test]
fn medium_beats_easy() {
    let share = win_share(Level::Medium, Level::Easy);
    assert!(share > 0.6, "medium scored {share:.3} against easy");
}

#[test]
fn hard_beats_medium() {
    let share = win_share(Level::Hard, Level::Medium);
    assert!(share > 0.6, "hard scored {share:.3} against medium");
}
