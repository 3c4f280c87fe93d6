//! The Expert reference level (beyond the course), exported as a player
//! library (libexpert.so).

player_api::export_player! {
    name: "expert",
    author: "arena reference bots",
    trap: reference_bots::trap::Expert::default(),
}
