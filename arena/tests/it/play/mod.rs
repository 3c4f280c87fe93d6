//! The command line as a user meets it: `arena play` and `arena bench` for
//! Trap and the other games, the rest of the commands (cli.rs), every game's
//! play and bench output (games.rs), the clock a turn is charged on
//! (clock.rs) and how far past its budget it may go (grace.rs).

mod cli;
mod clock;
mod games;
mod grace;
mod person;
pub(crate) mod person_page;
mod sprt;
mod time_controls;
