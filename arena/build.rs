//! Names the commit the binary was built from, for `arena --version`
//! (`arena 0.1.0 (abc1234 2026-12-07)`): git's short hash and the commit's
//! date, read at build time. `ARENA_COMMIT` set says it instead (a build
//! from a source archive, which has no git); else "unknown".

use std::{path::PathBuf, process::Command};

fn main() {
    println!("cargo:rerun-if-env-changed=ARENA_COMMIT");
    let given = std::env::var("ARENA_COMMIT").ok().map(|c| c.trim().to_string()).filter(|c| !c.is_empty());
    let commit = given.or_else(from_git).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=ARENA_COMMIT={commit}");
}

/// `HASH DATE` of HEAD, and cargo told to build again when HEAD moves (a
/// commit, a checkout, a fetch that packs the refs).
fn from_git() -> Option<String> {
    let commit = git(&["log", "-1", "--format=%h %cs"])?;
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        // A path that does not exist would make cargo build again each time.
        let path = git(&["rev-parse", "--path-format=absolute", "--git-path", &name]).map(PathBuf::from);
        if let Some(path) = path.filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(commit)
}

/// git's answer, trimmed, or None when git is missing, fails or says nothing.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}
