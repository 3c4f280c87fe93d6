//! The Hard reference level, exported as a player library (libhard.so).

player_api::export_player! {
    name: "hard",
    author: "arena reference bots",
    trap: reference_bots::trap::Hard,
    intuitive: reference_bots::intuitive::Hard,
    hexapawn: reference_bots::hexapawn::Hard::default(),
    wumpus: reference_bots::wumpus::Hard::default(),
    forest: reference_bots::magic_forest::Hard::default(),
}
