//! The command line as a user meets it: `arena play` and `arena bench` for
//! Trap and the other games, the rest of the commands (cli.rs), every game's
//! play and bench output (games.rs), and the clock a turn is charged on
//! (clock.rs).

mod cli;
mod clock;
mod games;
mod person;
pub(crate) mod person_page;
mod sprt;
mod time_controls;
