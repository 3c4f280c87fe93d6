//! A tune's journal, `<out>/tune.jsonl`: a header naming the tune (its
//! fingerprint: the parameter lines, the schedule, the pairs, the seed and
//! what decides the games), then one line per finished iteration, synced
//! before the next begins. A tune on a folder with a journal resumes after
//! its last line; an iteration cut short is played again, whole.

use std::{
    fs::File,
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use super::Iteration;
use crate::tournament::journal::open_locked;

pub const FILE_NAME: &str = "tune.jsonl";

/// The journal's first line.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Header {
    pub arena_tune: u32,
    /// The tune's seed (a resumed tune without `--seed` takes it from here).
    pub seed: u64,
    /// Everything else that decides the trajectory.
    pub fingerprint: String,
}

/// An open journal, positioned to append.
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Opens (or starts) the journal in `folder` for the tune `header`;
    /// returns it with the iterations already played.
    pub fn open(folder: &Path, header: &Header) -> Result<(Journal, Vec<Iteration>)> {
        let (file, path) = open_locked(folder, FILE_NAME, "another tune")?;
        let mut done = Vec::new();
        if file.metadata()?.len() > 0 {
            let (found, iterations, good_len) = read(&path)?;
            if found.seed != header.seed || found.fingerprint != header.fingerprint {
                bail!(
                    "{} is the journal of another tune (other --param lines, player, opponent, seed, iterations, pairs or settings): \
                     resume with the same command, or choose another --out",
                    path.display()
                );
            }
            // A tune killed mid-write leaves a partial last line: cut it off.
            file.set_len(good_len)?;
            done = iterations;
        } else {
            let mut writer = &file;
            writeln!(writer, "{}", serde_json::to_string(header)?)
                .and_then(|()| file.sync_all())
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        let mut file = file;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0))?;
        Ok((Journal { file, path }, done))
    }

    /// Appends an iteration and syncs it: when this returns, it is kept.
    pub fn append(&mut self, iteration: &Iteration) -> Result<()> {
        let line = format!("{}\n", serde_json::to_string(iteration)?);
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write to {}", self.path.display()))
    }
}

/// The header of the journal in `folder`, if there is one.
pub fn header_in(folder: &Path) -> Result<Option<Header>> {
    let path = folder.join(FILE_NAME);
    if !path.exists() {
        return Ok(None);
    }
    Ok(Some(read(&path)?.0))
}

/// A journal: its header, its complete iterations, and the length of the
/// file up to the end of the last complete line.
pub fn read(path: &Path) -> Result<(Header, Vec<Iteration>, u64)> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let header: Header = serde_json::from_str(line.trim_end()).with_context(|| {
        format!("{} is not a tune's journal (bad first line): choose another --out", path.display())
    })?;
    let mut good_len = line.len() as u64;
    let mut iterations: Vec<Iteration> = Vec::new();
    loop {
        line.clear();
        let n = reader.read_line(&mut line)?;
        if n == 0 || !line.ends_with('\n') {
            break;
        }
        match serde_json::from_str::<Iteration>(line.trim_end()) {
            Ok(it) if it.perturbation.k as usize == iterations.len() + 1 => iterations.push(it),
            Ok(it) => bail!(
                "{}: line {} is iteration {}, not {}: move the file away to start over",
                path.display(),
                iterations.len() + 2,
                it.perturbation.k,
                iterations.len() + 1
            ),
            Err(e) => bail!(
                "{}: line {} is damaged ({e}): move the file away to start over",
                path.display(),
                iterations.len() + 2
            ),
        }
        good_len += n as u64;
    }
    Ok((header, iterations, good_len))
}
