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

/// `name` trimmed, if it can be a student's or a group's name.
fn checked_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() || name.len() > 64 || name.chars().any(|c| c.is_control()) {
        anyhow::bail!("'{name}' cannot be a name: use 1 to 64 printable characters");
    }
    Ok(name)
}

/// The database of data folder `dir`, created if needed.
fn open(dir: &Path) -> Result<rusqlite::Connection> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
    db::open(dir)
}

/// Adds a student (or, with `staff`, a staff member) to the server's data
/// folder `dir`, in a group of their own; their token, which is not stored.
pub fn add(dir: &Path, name: &str, staff: bool) -> Result<String> {
    let name = checked_name(name)?;
    let db = open(dir)?;
    let token = new_token()?;
    db::add_student(&db, name, &token_hash(&token), staff, None)?;
    Ok(token)
}

/// The default name of a group: its members' names joined by `_`, as the
/// course names a group's folder (`tc1234_gd5678`).
pub fn group_name(members: &[&str]) -> String {
    members.iter().map(|m| m.trim()).collect::<Vec<_>>().join("_")
}

/// A member and their new token (None: a student already, who keeps theirs).
pub type NewToken = (String, Option<String>);

/// Adds group `name` (None: its members' names joined by `_`) of
/// `members` to data folder `dir`: a member who is not a student yet is
/// added, with a token; one who is moves into it (only before either group
/// has submitted: `db::move_student`). The group's name, and each member
/// with their new token (None: a student already, who keeps theirs).
pub fn add_group(dir: &Path, name: Option<&str>, members: &[&str]) -> Result<(String, Vec<NewToken>)> {
    let members = members.iter().map(|m| checked_name(m)).collect::<Result<Vec<_>>>()?;
    if members.is_empty() {
        anyhow::bail!("a group has one member at least: name them with --members a,b,c");
    }
    if let Some(twice) = members.iter().enumerate().find(|(i, m)| members[..*i].contains(m)).map(|(_, m)| m) {
        anyhow::bail!("'{twice}' is named twice in --members");
    }
    let name = checked_name(&name.map_or_else(|| group_name(&members), str::to_string))?.to_string();
    let db = open(dir)?;
    let mut tokens = Vec::new();
    for member in members {
        let token = match db::student_by_name(&db, member)? {
            Some(_) => None,
            None => Some(new_token()?),
        };
        tokens.push((member.to_string(), token));
    }
    let hashes: Vec<Option<String>> = tokens.iter().map(|(_, t)| t.as_deref().map(token_hash)).collect();
    let rows: Vec<(&str, Option<&str>)> =
        tokens.iter().zip(&hashes).map(|((m, _), h)| (m.as_str(), h.as_deref())).collect();
    db::add_group(&db, &name, &rows)?;
    Ok((name, tokens))
}
