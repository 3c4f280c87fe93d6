//! `ffi_player!`: how a version of the ABI declares one game's player
//! object (`v1.rs` uses it five times). What it generates is part of every
//! version that uses it: tests/abi_snapshots/ checks each version's output.

/// Declares one game's side of the ABI: the `#[sabi_trait]` trait, the owned
/// box type, `impl Ffi…Player for CatchPanics<P>` (each method calls the
/// player's method of the same name with `&argument`, through [`catch`]) and
/// the boxing function. A method listed as `fn m(arg: T) -> R;` becomes
/// `fn m(&mut self, arg: T) -> RResult<R, PlayerError>` in the trait; its
/// attributes (docs, `#[sabi(last_prefix_field)]`) go on the trait's method.
///
/// A version from v2 on ends the list with `memory: save_memory;`: the
/// method that hands the player's memory back at the end of a match, the
/// last of the prefix.
///
/// The trait is the ABI: its methods' order, types and the place of
/// `last_prefix_field` are checked by tests/abi_layout.rs, per version. A
/// released version's traits never change: a new method goes in a new
/// trait of a new version (`abi/mod.rs`).
macro_rules! ffi_player {
    (
        player: $player:ident,
        $(#[$($trait_attr:tt)*])*
        trait $ffi:ident {
            $(
                $(#[$($method_attr:tt)*])*
                fn $method:ident($arg:ident: $arg_ty:ty) -> $ret:ty;
            )*
            $(memory: $save:ident;)?
        }
        $(#[$($box_attr:tt)*])*
        type $box:ident = $object:ident;
        $(#[$($fn_attr:tt)*])*
        fn $boxing:ident;
    ) => {
        $(#[$($trait_attr)*])*
        #[sabi_trait]
        pub trait $ffi: Send {
            $(
                $(#[$($method_attr)*])*
                fn $method(&mut self, $arg: $arg_ty) -> RResult<$ret, PlayerError>;
            )*
            $(
                /// At the end of a match: the memory to keep for the player's
                /// next match (None: keep what it had).
                #[sabi(last_prefix_field)]
                fn $save(&mut self) -> RResult<ROption<RVec<u8>>, PlayerError>;
            )?
        }

        $(#[$($box_attr)*])*
        pub type $box = $object<'static, RBox<()>>;

        impl<P: $player> $ffi for CatchPanics<P> {
            $(
                fn $method(&mut self, $arg: $arg_ty) -> RResult<$ret, PlayerError> {
                    catch(|| self.0.$method(&$arg))
                }
            )*
            $(
                fn $save(&mut self) -> RResult<ROption<RVec<u8>>, PlayerError> {
                    catch(|| self.0.$save().map(RVec::from).into())
                }
            )?
        }

        $(#[$($fn_attr)*])*
        pub fn $boxing<P: $player + 'static>(player: P) -> $box {
            $object::from_value(CatchPanics(player), abi_stable::sabi_trait::TD_Opaque)
        }
    };
}
