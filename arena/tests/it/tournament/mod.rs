//! `arena tournament`: files run, resumed after a kill, refused when
//! malformed, graded (run.rs); every game's tournaments, their duplicate
//! format and replays (games.rs); sharded on one machine (shards.rs) and
//! through a Slurm cluster (slurm.rs).

mod games;
mod run;
mod shards;
mod slurm;
