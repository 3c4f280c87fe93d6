//! Keeping a player's panics inside its library: a panic that unwound
//! across the ABI would abort the arena (a sabi_trait boundary ends the
//! process; `catch_unwind` in the host cannot help), so every call into a
//! player is caught on the library's side and comes back as an error value
//! with the panic's message and location.

use std::{
    cell::RefCell,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::Once,
};

use abi_stable::std_types::RResult;

use super::PlayerError;

/// Wraps a player so that every call catches panics. Used by
/// [`export_player!`](crate::export_player) inside libraries, and by the arena for built-in bots.
pub struct CatchPanics<P>(pub P);

/// The body of every constructor [`export_player!`](crate::export_player) generates: records panic
/// locations from now on, and builds the player object with `make`, catching
/// a panic in the player's constructor too.
#[doc(hidden)]
pub fn construct<B>(make: impl FnOnce() -> B) -> RResult<B, PlayerError> {
    record_panic_locations();
    catch(make)
}

/// What a v2 constructor is made with, as a player reads it: every
/// parameter `declared` has, at its default where the arena gave none.
#[doc(hidden)]
pub fn setup_of(setup: super::SetupV2, declared: fn() -> Vec<crate::params::Param>) -> crate::params::Setup {
    crate::params::Setup::from(setup).with_defaults(&declared())
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs a panic hook that keeps the message and location of the last
/// panic on this thread instead of printing it, so the arena can report
/// "panicked: index out of bounds at src/lib.rs:12:9". Inside a player
/// library this hook is the library's own (a cdylib has its own std).
fn record_panic_locations() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let message = info.payload_as_str().unwrap_or("a non-string panic payload");
            let text = match info.location() {
                Some(at) => format!("{message} at {}:{}:{}", at.file(), at.line(), at.column()),
                None => message.to_string(),
            };
            LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
        }));
    });
}

pub(super) fn catch<T>(call: impl FnOnce() -> T) -> RResult<T, PlayerError> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(value) => RResult::ROk(value),
        Err(payload) => {
            let recorded = LAST_PANIC.with(|last| last.borrow_mut().take());
            let message = recorded.unwrap_or_else(|| {
                payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a non-string panic payload".to_string())
            });
            RResult::RErr(message.into())
        }
    }
}
