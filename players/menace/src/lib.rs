//! Gardner's matchbox Hexapawn learner, exported as a player library
//! (libmenace.so). It starts knowing nothing and learns within a match: the
//! arena keeps one instance for all the games of a match and tells it each
//! result. With `--memory DIR` it starts from the boxes of its last match.

player_api::export_player! {
    name: "menace",
    author: "arena reference bots",
    hexapawn(setup): reference_bots::hexapawn::Menace::from_setup(setup),
}
