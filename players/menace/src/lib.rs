//! Gardner's matchbox Hexapawn learner, exported as a player library
//! (libmenace.so). It starts knowing nothing and learns within a match: the
//! arena keeps one instance for all the games of a match and tells it each
//! result.

player_api::export_player! {
    name: "menace",
    author: "arena reference bots",
    hexapawn: reference_bots::hexapawn::Menace::default(),
}
