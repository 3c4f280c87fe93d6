//! The Expert reference level (beyond the course), exported as a player
//! library (libexpert.so): Trap's search bot and Intuitive AI's optimal
//! policy. The other games have no level beyond Hard.

player_api::export_player! {
    name: "expert",
    author: "arena reference bots",
    trap: reference_bots::trap::Expert::default(),
    intuitive: reference_bots::intuitive::Expert::default(),
}
