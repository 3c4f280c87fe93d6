//! Tokens: a student's only credential, printed once when the student is
//! added and stored as its SHA-256 (a stolen database gives no token).

use std::{io::Read, path::Path};

use anyhow::{Context, Result};

use crate::{store::db, store::files::sha256_hex};

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

/// `name` trimmed, if it can be a student's or a group's name: every name
/// an account or a group is given passes here (`add`, `add_group`, a
/// roster's through them). No control or formatting character: a bidi
/// control shows the rest of a name reversed on every page and in every
/// CSV (`mallory\u{202E}exe.txt`), an invisible one makes two names look
/// the same.
pub fn checked_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        anyhow::bail!(
            "'{}' cannot be a name: it holds U+{:04X}, a control or formatting character (it can hide or \
             reorder text): remove it",
            escaped(name),
            c as u32
        );
    }
    if name.is_empty() || name.len() > 64 {
        anyhow::bail!("'{name}' cannot be a name: use 1 to 64 printable characters");
    }
    Ok(name)
}

/// Whether `c` is a control (Unicode category Cc) or formatting (Cf)
/// character: invisible, and some (the bidi controls U+202A-U+202E,
/// U+2066-U+2069, U+200E, U+200F, U+061C) reorder the text around them.
pub fn hidden(c: char) -> bool {
    // Cf, as of Unicode 15.1 (Rust's standard library has Cc only).
    const FORMAT: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];
    let code = c as u32;
    c.is_control() || FORMAT.iter().any(|&(first, last)| (first..=last).contains(&code))
}

/// `text` with its [`hidden`] characters written as `\u{202E}`: safe to
/// show in an error.
fn escaped(text: &str) -> String {
    text.chars().map(|c| if hidden(c) { format!("\\u{{{:04X}}}", c as u32) } else { c.to_string() }).collect()
}

/// `text` without its [`hidden`] characters but line breaks and tabs: a
/// contribution note's or an upload's file name as kept (shown to staff,
/// whom a reversed or hidden word would mislead).
pub fn without_hidden(text: &str) -> String {
    text.chars().filter(|&c| c == '\n' || c == '\t' || !hidden(c)).collect()
}

/// The database of data folder `dir`, created if needed.
fn open(dir: &Path) -> Result<rusqlite::Connection> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the data folder {}", dir.display()))?;
    db::open(dir)
}

/// Adds a student (or, with `staff`, a staff member) to the server's data
/// folder `dir`, in a group of their own (`compete`: it competes even if
/// they are staff: `db::competes`); their token, which is not stored.
pub fn add(dir: &Path, name: &str, staff: bool, compete: bool) -> Result<String> {
    let name = checked_name(name)?;
    let db = open(dir)?;
    let token = new_token()?;
    db::add_student(&db, name, &token_hash(&token), staff, db::Joining::Alone { compete })?;
    Ok(token)
}

/// Gives student `name` of data folder `dir` a new token (their old one
/// stops working at once; a removed student is let back in); the token,
/// which is not stored.
pub fn reset_token(dir: &Path, name: &str) -> Result<String> {
    let db = open(dir)?;
    let token = new_token()?;
    db::set_token(&db, name.trim(), &token_hash(&token))?;
    Ok(token)
}

/// Removes student `name` from data folder `dir`'s course: their token
/// stops working at once; their group's submissions and grades stay.
/// Whether they were active (false: removed before).
pub fn remove(dir: &Path, name: &str) -> Result<bool> {
    db::remove_student(&open(dir)?, name.trim())
}

/// Sets student `name`'s full name in data folder `dir` (as the course's
/// roster gives it: the gradebook exports show it).
pub fn set_full_name(dir: &Path, name: &str, full_name: &str) -> Result<()> {
    let full_name = full_name.trim();
    if let Some(c) = full_name.chars().find(|&c| hidden(c)) {
        anyhow::bail!(
            "'{}' cannot be a full name: it holds U+{:04X}, a control or formatting character: remove it",
            escaped(full_name),
            c as u32
        );
    }
    if full_name.len() > 200 {
        anyhow::bail!("the full name of '{name}' is longer than 200 bytes: shorten it");
    }
    let db = open(dir)?;
    db::set_full_name(&db, checked_name(name)?, Some(full_name).filter(|f| !f.is_empty()))
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
/// has submitted: `db::move_student`). `compete`: it competes even if its
/// members are all staff (`db::competes`). The group's name, and each
/// member with their new token (None: a student already, who keeps theirs).
pub fn add_group(
    dir: &Path,
    name: Option<&str>,
    members: &[&str],
    compete: bool,
) -> Result<(String, Vec<NewToken>)> {
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
    db::add_group(&db, &name, &rows, compete)?;
    Ok((name, tokens))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_a_control_or_formatting_character_is_refused_naming_it() {
        for (name, code) in [
            ("mallory\u{202E}exe.txt", "U+202E"),
            ("a\u{2066}b", "U+2066"),
            ("a\u{200F}b", "U+200F"),
            ("a\u{061C}b", "U+061C"),
            ("zero\u{200B}width", "U+200B"),
            ("bell\u{7}", "U+0007"),
            ("two\nlines", "U+000A"),
            ("tag\u{E0041}", "U+E0041"),
            ("bom\u{FEFF}", "U+FEFF"),
        ] {
            let error = checked_name(name).unwrap_err().to_string();
            assert!(
                error.contains(&format!("it holds {code}, a control or formatting character")),
                "{error}"
            );
            assert!(error.ends_with("remove it"), "{error}");
            assert!(!error.chars().any(hidden), "the error shows it escaped: {error:?}");
            assert_eq!(error.lines().count(), 1, "{error}");
        }
        let error = checked_name("mallory\u{202E}exe.txt").unwrap_err().to_string();
        assert!(error.starts_with("'mallory\\u{202E}exe.txt' cannot be a name"), "{error}");
        // Printable names pass, trimmed, whatever their script.
        for name in ["tc1234", "Zoë Ødegård", "王小明", "علي", "  ann  "] {
            assert_eq!(checked_name(name).unwrap(), name.trim());
        }
        assert!(checked_name(" ").is_err());
        assert!(checked_name(&"x".repeat(65)).is_err());
    }

    #[test]
    fn a_note_keeps_its_lines_and_loses_its_hidden_characters() {
        assert_eq!(
            without_hidden("ann: \u{202E}search\u{202C}\r\nben:\tthrow\u{200B}\0"),
            "ann: search\nben:\tthrow"
        );
    }
}
