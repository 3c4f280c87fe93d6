//! What the commands print on standard output. A reader that stops early
//! (`arena play --json | head -1`) ends the command quietly, as Unix tools
//! do. `println!` would panic instead ("failed printing to stdout: Broken
//! pipe"): Rust ignores SIGPIPE, which the arena needs, since a worker that
//! dies must be an error on its pipe, not a signal that kills the arena.

use std::{
    fmt,
    io::{self, Write},
};

/// Prints a line on standard output (see the module's comment).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => { $crate::report::output::print(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints on standard output (see the module's comment).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::report::output::print(format_args!($($arg)*)) };
}

/// Writes `text` to standard output and flushes it. If nobody reads any
/// more, ends the process with status 0; any other failure ends it with one
/// line on stderr. Results already obtained are on disk by then: a
/// tournament journals every game before it prints, and a journal's torn
/// last line is ignored on resume.
pub fn print(text: fmt::Arguments) {
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        end(error);
    }
}

fn end(error: io::Error) -> ! {
    // Workers die with the arena (PR_SET_PDEATHSIG); the cgroups of those
    // that already ended are removed now, the others by the next arena.
    crate::sandbox::cleanup();
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write to standard output: {error}");
    std::process::exit(2);
}
