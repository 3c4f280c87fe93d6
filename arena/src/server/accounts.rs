//! Tokens: a student's only credential, printed once when the student is
//! added and stored as its SHA-256 (a stolen database gives no token).

use std::{io::Read, path::Path};

use anyhow::{Context, Result};

use super::{db, store::sha256_hex};

/// A new random token: 24 bytes from the kernel, in hex.
pub fn new_token() -> Result<String> {
    let mut bytes = [0u8; 24];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .context("cannot read /dev/urandom for a token")?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// What is stored of `token`.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// Adds a student (or, with `staff`, a staff member) to the server's data
/// folder `dir`; their token, which is not stored.
pub fn add(dir: &Path, name: &str, staff: bool) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.len() > 64 || name.chars().any(|c| c.is_control()) {
        anyhow::bail!("'{name}' cannot be a name: use 1 to 64 printable characters");
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
    let db = db::open(dir)?;
    let token = new_token()?;
    db::add_student(&db, name, &token_hash(&token), staff)?;
    Ok(token)
}
