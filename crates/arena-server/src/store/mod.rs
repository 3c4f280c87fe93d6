//! What the server keeps, in its data folder: the database (`db/`:
//! SQLite, WAL; `pool.rs` its connections off the async threads), uploaded
//! files by content (`files.rs`), Python players' archives unpacked with
//! care (`archive.rs`), the secret every seed comes from (`secret.rs`), the
//! folder in one file and back (`backup/`), what each group's data
//! takes (`storage.rs`) and whether the disk is full (`disk.rs`).

pub mod archive;
pub mod backup;
pub mod db;
pub mod disk;
pub mod files;
pub mod finals;
pub(crate) mod pool;
pub mod secret;
pub mod storage;
