//! The Expert reference level (beyond the course), exported as a player
//! library (libexpert.so): Trap's search bot and Intuitive AI's optimal
//! policy. The other games have no level beyond Hard.

player_api::export_player! {
    name: "expert",
    author: "arena reference bots",
    // Trap's evaluation weights (Intuitive AI's Expert takes none).
    params: reference_bots::trap::Expert::params(),
    trap(setup): reference_bots::trap::Expert::from_setup(setup),
    intuitive: reference_bots::intuitive::Expert::default(),
}
