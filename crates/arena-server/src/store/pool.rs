//! A few connections to the database, used off the async threads: a
//! request's query runs on the blocking pool (`spawn_blocking`), so a slow
//! query or a busy writer never stalls the threads that accept and answer
//! connections. WAL lets the readers run while one connection writes.

use std::{path::PathBuf, sync::Mutex};

use anyhow::Result;
use rusqlite::Connection;

use crate::store::db;

pub struct Pool {
    dir: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

/// Connections kept open between requests (more are opened when needed).
const KEPT: usize = 4;

impl Pool {
    pub fn new(dir: PathBuf) -> Pool {
        Pool { dir, idle: Mutex::new(Vec::new()) }
    }

    /// Runs `work` with a connection on the blocking pool; its answer.
    pub async fn run<T: Send + 'static>(
        self: &std::sync::Arc<Self>,
        work: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let pool = self.clone();
        tokio::task::spawn_blocking(move || {
            let connection = pool.take()?;
            let answer = work(&connection);
            pool.give_back(connection);
            answer
        })
        .await?
    }

    fn take(&self) -> Result<Connection> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            Some(connection) => Ok(connection),
            None => db::open(&self.dir),
        }
    }

    fn give_back(&self, connection: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < KEPT {
            idle.push(connection);
        }
    }
}
