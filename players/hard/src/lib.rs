//! The Hard reference level, exported as a player library (libhard.so).

player_api::export_player! {
    name: "hard",
    author: "arena reference bots",
    // Trap's weights (the other games' Hard takes none).
    params: reference_bots::trap::Hard::params(),
    trap(setup): reference_bots::trap::Hard::from_setup(setup),
    intuitive: reference_bots::intuitive::Hard,
    hexapawn: reference_bots::hexapawn::Hard::default(),
    wumpus: reference_bots::wumpus::Hard::default(),
    forest: reference_bots::magic_forest::Hard::default(),
}
