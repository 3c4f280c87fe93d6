//! The server's work, on plain threads (`threads.rs` starts them; `wake.rs`
//! is their shared signal, `work_log.rs` a log line as each piece starts
//! and ends): the grading slots (`grader.rs`; their lost games analysed
//! after the grade by `analysis.rs`; a run made and checked by
//! `grading.rs`, which `arena grade` shares through `one_submission.rs`),
//! where a run plays (`executor/`: here or on Slurm), the league
//! (`league/`), scrimmages (`scrimmage.rs`), the leaderboards (`board.rs`),
//! regrading under changed settings (`regrade.rs`), finalize
//! (`finalize.rs`), the runs' replays (`replays.rs`), work that waits
//! for the machine or the disk rather than fail (`waiting.rs`), the
//! full disk, a state the work waits in (`full_disk.rs`), and the threads'
//! priorities, pages before games (`nice.rs`).

pub mod analysis;
pub(crate) mod board;
pub(crate) mod demo_table;
pub mod executor;
pub mod finalize;
pub mod full_disk;
pub mod grader;
pub mod grading;
pub mod league;
pub mod nice;
pub mod one_submission;
pub mod person_games;
pub mod regrade;
pub mod replays;
pub mod scrimmage;
pub(crate) mod threads;
pub mod waiting;
pub mod wake;
pub mod work_log;
