//! The Medium reference level, exported as a player library (libmedium.so).

player_api::export_player! {
    name: "medium",
    author: "arena reference bots",
    trap: reference_bots::trap::Medium::default(),
    intuitive: reference_bots::intuitive::Medium::default(),
    hexapawn: reference_bots::hexapawn::Medium::default(),
}
