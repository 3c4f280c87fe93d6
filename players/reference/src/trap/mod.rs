//! Trap reference players, re-implemented from the course's level
//! descriptions (see `docs/rules/trap.md` and `shared/design/rules.md`).

mod easy;
pub mod expert;
mod hard;
mod medium;
mod pick;

pub use easy::Easy;
pub use expert::Expert;
pub use hard::Hard;
pub use medium::Medium;
