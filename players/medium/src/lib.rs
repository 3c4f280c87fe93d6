//! The Medium reference level, exported as a player library (libmedium.so).

player_api::export_player! {
    name: "medium",
    author: "arena reference bots",
    trap: reference_bots::trap::Medium,
    intuitive: reference_bots::intuitive::Medium::default(),
    hexapawn: reference_bots::hexapawn::Medium::default(),
    wumpus: reference_bots::wumpus::Medium::default(),
    forest: reference_bots::magic_forest::Medium::default(),
}
