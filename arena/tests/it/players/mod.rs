//! Where players come from: libraries loaded from disk through the ABI
//! (plugins.rs), every released ABI version's among them (abi_versions.rs),
//! and Python players run by the `arena_player` package
//! (python.rs), also as the course lays them out and by a virtual
//! environment's interpreter (course_layout.rs). What any player declares
//! is checked as it loads (declarations.rs); its words reach the terminal
//! plain (escapes.rs).

mod abi_versions;
mod course_layout;
mod declarations;
mod escapes;
mod memory;
mod params;
mod plugins;
pub(crate) mod python;
