//! Each game's referee, played in process with scripted and reference
//! players: how games end, what players are told, determinism, and the
//! reference levels' strength (their time budgets: tests/budgets).

mod hexapawn;
mod intuitive;
mod magic_forest;
mod trap;
mod wumpus;
