//! The server's HTTP face: accepting connections under limits
//! (`connections.rs`; `stall.rs` cuts one that takes nothing it is sent),
//! who is asking (`auth.rs`), what a request carries, refused in the API's
//! words (`extract.rs`), the headers every answer carries
//! (`headers.rs`), what each audience sees of a submission (`views.rs`),
//! live feeds, who may watch them and how many each client may hold open
//! (`live.rs`, `watching.rs`, `streams.rs`), the
//! staff's API (`staff.rs`), a person's seat on a page (`play.rs`) and
//! the pages (`pages/`: static HTML and scripts). The students' API and the router are the crate's `lib.rs`.

pub(crate) mod auth;
pub mod connections;
pub(crate) mod extract;
pub(crate) mod headers;
pub mod live;
pub mod play;
pub(crate) mod staff;
pub(crate) mod stall;
pub mod streams;
pub mod views;
pub(crate) mod watching;
