//! The Easy reference level, exported as a player library (libeasy.so).

player_api::export_player! {
    name: "easy",
    author: "arena reference bots",
    trap: reference_bots::trap::Easy::default(),
    intuitive: reference_bots::intuitive::Easy::default(),
    hexapawn: reference_bots::hexapawn::Easy::default(),
    wumpus: reference_bots::wumpus::Easy::default(),
    forest: reference_bots::magic_forest::Easy::default(),
}
