//! The worker process: hosts one player and answers the arena's requests.
//! Started by the arena, never by hand: `arena-worker LIBRARY.so` or
//! `arena-worker --builtin LEVEL`.

fn main() -> std::process::ExitCode {
    arena::worker::main()
}
