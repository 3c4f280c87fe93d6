//! The players of a Gradescope export ("Export Submissions" of a
//! programming assignment): a folder holding `submission_metadata.yml` and
//! a folder per submission (`submission_<id>/`, the student's files as
//! handed in). What this relies on, and nothing more: the metadata's
//! top-level keys are the submissions' folder names, and each has a
//! `:submitters:` list whose items have `:name:` (and `:sid:`, `:email:`),
//! Ruby-symbol keys as Gradescope writes them. Everything else in the file
//! (scores, results, dates) is skipped unread, so the YAML is read by
//! indentation alone, not parsed whole (no YAML crate for three keys).
//!
//! Each submission is a player named by its submitters, its player found
//! by the hand-in rule (`hand_in.rs`); one that holds none is left out,
//! with why, and the others play.

use std::path::Path;

use anyhow::{bail, Context, Result};

use super::{hand_in, PlayerSpec};
use crate::players::external::Program;

/// The metadata file of an export.
pub const METADATA: &str = "submission_metadata.yml";

/// One person who submitted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Submitter {
    pub name: String,
    pub sid: String,
    pub email: String,
}

impl Submitter {
    /// How the standings name them: the name, else the SID, else the email.
    fn shown(&self) -> &str {
        [&self.name, &self.sid, &self.email].into_iter().find(|s| !s.is_empty()).map_or("", |s| s.as_str())
    }
}

/// The players of an export.
#[derive(Debug, Default)]
pub struct Export {
    /// Each submission's player and its name (its submitters), by folder name.
    pub players: Vec<(PlayerSpec, String)>,
    /// The submissions left out, each with why (one line).
    pub left_out: Vec<String>,
}

/// The players of the Gradescope export in `folder`.
pub fn export(folder: &Path) -> Result<Export> {
    if !folder.is_dir() {
        bail!(
            "{} is not a folder: give the folder Gradescope's Export Submissions unpacks to",
            folder.display()
        );
    }
    // The zip unpacks to one folder (`assignment_<id>_export/`): naming
    // the folder it was unpacked in is as good.
    let inner: Vec<_> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(METADATA).is_file())
        .collect();
    let folder = match inner.as_slice() {
        [only] if !folder.join(METADATA).is_file() => only.as_path(),
        _ => folder,
    };
    let metadata = folder.join(METADATA);
    let text = std::fs::read_to_string(&metadata).with_context(|| {
        format!("{} has no {METADATA}: is it a Gradescope export of submissions?", folder.display())
    })?;
    let submissions = metadata_submitters(&text);
    if submissions.is_empty() {
        bail!("{} lists no submission (no `submission_...:` with `:submitters:`)", metadata.display());
    }
    let mut export = Export::default();
    let mut taken: Vec<String> = Vec::new();
    for (name, submitters) in submissions {
        let names: Vec<&str> = submitters.iter().map(Submitter::shown).filter(|s| !s.is_empty()).collect();
        let mut shown = if names.is_empty() { name.clone() } else { names.join(", ") };
        if taken.contains(&shown) {
            // Two submissions by people of the same name: told apart.
            shown = format!("{shown} ({name})");
        }
        let submission = folder.join(&name);
        match player_of(&submission) {
            Ok(spec) => {
                taken.push(shown.clone());
                export.players.push((spec, shown));
            }
            Err(why) => export.left_out.push(format!("{name} ({shown}): {why}")),
        }
    }
    if export.players.is_empty() {
        bail!("no submission of {} holds a player: {}", folder.display(), export.left_out.join("; "));
    }
    Ok(export)
}

/// The player in the submission folder `folder`: its one library beside no
/// Python, or the Python player by the server's rule.
fn player_of(folder: &Path) -> Result<PlayerSpec, String> {
    if !folder.is_dir() {
        return Err("its folder is missing from the export".into());
    }
    let unreadable = |e: std::io::Error| format!("cannot read it: {e}");
    if let Some(library) = hand_in::only_library(folder).map_err(unreadable)? {
        return Ok(PlayerSpec::Library(library));
    }
    let inside = hand_in::find_player(folder).map_err(|why| why.replace("the archive", "it"))?;
    Ok(PlayerSpec::Program(Program::Python(folder.join(inside))))
}

/// Each submission of the metadata `text` with its submitters, in the
/// file's order.
pub fn metadata_submitters(text: &str) -> Vec<(String, Vec<Submitter>)> {
    let mut out: Vec<(String, Vec<Submitter>)> = Vec::new();
    // Where we are: the submission, and the indentation of its
    // `:submitters:` key while in that list.
    let mut in_list: Option<usize> = None;
    // The indentation of the current item's keys.
    let mut item_keys: Option<usize> = None;
    for line in text.lines() {
        // A file saved on Windows ends its lines with \r\n.
        let line = line.trim_end();
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') || line.starts_with("---") {
            continue;
        }
        let indent = line.len() - content.len();
        if indent == 0 {
            in_list = None;
            item_keys = None;
            if let Some(key) = content.strip_suffix(':').map(unquote) {
                out.push((key, Vec::new()));
            }
            continue;
        }
        let Some((_, submitters)) = out.last_mut() else { continue };
        if let Some(list) = in_list {
            if let Some(rest) = content.strip_prefix("- ").or_else(|| (content == "-").then_some("")) {
                if indent >= list {
                    submitters.push(Submitter::default());
                    let keys = indent + 2 + (rest.len() - rest.trim_start().len());
                    item_keys = Some(keys);
                    if !rest.trim().is_empty() {
                        set_key(submitters, rest.trim_start());
                    }
                    continue;
                }
            }
            if indent > list && Some(indent) == item_keys {
                set_key(submitters, content);
                continue;
            }
            if indent <= list {
                in_list = None;
                item_keys = None;
            } else {
                // Deeper than an item's keys: a value of theirs, not ours.
                continue;
            }
        }
        if content.trim_end() == ":submitters:" {
            in_list = Some(indent);
        }
    }
    out
}

/// Sets the submitter key `line` (`:name: Ann Lee`) names on the last
/// submitter, if it is one of theirs.
fn set_key(submitters: &mut [Submitter], line: &str) {
    let Some(last) = submitters.last_mut() else { return };
    let Some((key, value)) = line.split_once(": ").or_else(|| line.strip_suffix(':').map(|k| (k, ""))) else {
        return;
    };
    let value = unquote(value);
    match key.trim() {
        ":name:" | ":name" => last.name = value,
        ":sid:" | ":sid" => last.sid = value,
        ":email:" | ":email" => last.email = value,
        _ => {}
    }
}

/// A YAML scalar's text: `'it''s'`, `"a \"b\""`, or plain (a trailing
/// comment dropped).
fn unquote(value: &str) -> String {
    let value = value.trim();
    if let Some(inner) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return inner.replace("''", "'");
    }
    if let Some(inner) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
                }
                Some(other) => out.push(other),
                None => {}
            }
        }
        return out;
    }
    value.split(" #").next().unwrap_or(value).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As Gradescope writes it: Ruby symbols, a group, quoted SIDs, and a
    /// submission's results (which hold a `:name:` of their own) to skip.
    const METADATA_TEXT: &str = "---
submission_101:
  :submitters:
  - :name: Ann Lee
    :sid: '100'
    :email: ann@example.edu
  :created_at: 2026-12-01 10:00:00.000000000 -08:00
  :score: 85.0
  :results:
    :tests:
    - :name: 'easy (6 wins of 10 games to pass)'
      :score: 30.0
submission_102:
  :submitters:
  - :name: \"Bo \\\"B\\\" Chan\"
    :sid: '200'
  - :sid: '201'
    :email: cy@example.edu
    :name: 'Cy O''Neil'
  :score: 0.0
submission_103:
  :submitters: []
";

    #[test]
    fn the_metadata_gives_each_submission_its_submitters_and_nothing_else() {
        let read = metadata_submitters(METADATA_TEXT);
        let names: Vec<(&str, Vec<&str>)> = read
            .iter()
            .map(|(folder, people)| (folder.as_str(), people.iter().map(|p| p.name.as_str()).collect()))
            .collect();
        assert_eq!(
            names,
            [
                ("submission_101", vec!["Ann Lee"]),
                ("submission_102", vec!["Bo \"B\" Chan", "Cy O'Neil"]),
                ("submission_103", vec![]),
            ]
        );
        assert_eq!(
            read[0].1[0],
            Submitter { name: "Ann Lee".into(), sid: "100".into(), email: "ann@example.edu".into() }
        );
        assert_eq!(read[1].1[1].sid, "201");
        assert_eq!(metadata_submitters(&METADATA_TEXT.replace('\n', "\r\n")), read, "Windows line ends");
    }
}
