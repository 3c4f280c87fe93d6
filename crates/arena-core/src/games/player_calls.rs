//! A player's calls, alike in every game but for names: the player trait's
//! method for a turn and the ABI box's trait. A game's `mod.rs` names them
//! once (`local_game!`, `box_calls!`); each call is written here. Macros,
//! as each game's traits are its own, with their own method names.

/// `impl LocalGame for $game`: its players are `dyn $player`, each call
/// the player's method of that name, `$act` a turn's.
macro_rules! local_game {
    ($game:ty, dyn $player:path, act: $act:ident) => {
        impl $crate::play::referee::LocalGame for $game {
            type Player<'a> = dyn $player + 'a;

            fn local_new_game(player: &mut Self::Player<'_>, info: &Self::Info) {
                player.new_game(info)
            }

            fn local_act(player: &mut Self::Player<'_>, request: &Self::Request) -> Self::Action {
                player.$act(request)
            }

            fn local_game_over(player: &mut Self::Player<'_>, over: &Self::Over) {
                player.game_over(over)
            }
        }
    };
}

/// In `impl AbiGame`: the calls through the box, each the box trait
/// `$ffi`'s method of that name (`$act` a turn's, if the turn is one call),
/// a caught panic as its message.
macro_rules! box_calls {
    ($ffi:path, act: $act:ident) => {
        $crate::games::player_calls::box_calls!($ffi);

        fn box_act(player: &mut Self::PlayerBox, request: Self::Request) -> Result<Self::Action, String> {
            <Self::PlayerBox as $ffi>::$act(player, request).into_result().map_err(String::from)
        }
    };
    ($ffi:path) => {
        fn box_new_game(player: &mut Self::PlayerBox, info: Self::Info) -> Result<(), String> {
            <Self::PlayerBox as $ffi>::new_game(player, info).into_result().map_err(String::from)
        }

        fn box_game_over(player: &mut Self::PlayerBox, over: Self::Over) -> Result<(), String> {
            <Self::PlayerBox as $ffi>::game_over(player, over).into_result().map_err(String::from)
        }

        fn box_save_memory(player: &mut Self::PlayerBox) -> Result<Option<Vec<u8>>, String> {
            <Self::PlayerBox as $ffi>::save_memory(player)
                .into_result()
                .map(|memory| memory.into_option().map(|m| m.into_vec()))
                .map_err(String::from)
        }
    };
}

pub(crate) use {box_calls, local_game};
