//! docs/server.md's "Running a course" walkthrough, run as written: the
//! block between its markers, in a scratch folder, with the arena on the
//! PATH and two students' players where the block expects them.

use std::process::Command;

use crate::support::{self, library};

/// The walkthrough's script: the `sh` block between the markers.
fn walkthrough() -> String {
    let doc = std::fs::read_to_string(support::workspace_root().join("docs/server.md")).unwrap();
    let start = doc.find("<!-- walkthrough: start -->").expect("the walkthrough's start marker");
    let end = doc.find("<!-- walkthrough: end -->").expect("the walkthrough's end marker");
    let block = &doc[start..end];
    let open = block.find("```sh\n").expect("an sh block") + "```sh\n".len();
    let close = block[open..].find("```").expect("the block's end") + open;
    block[open..close].to_string()
}

#[test]
fn the_walkthrough_runs_from_an_empty_folder_to_the_gradebook() {
    let dir = tempfile::tempdir().unwrap();
    for (student, level) in [("ann", "hard"), ("bob", "easy")] {
        std::fs::create_dir(dir.path().join(student)).unwrap();
        std::fs::copy(library(level), dir.path().join(student).join("libmy_bot.so")).unwrap();
    }
    let arena_dir = std::path::Path::new(env!("CARGO_BIN_EXE_arena")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", arena_dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &walkthrough()])
        .current_dir(dir.path())
        .env("PATH", path)
        // Any free port: the script reads the address the server says.
        .env("PORT", "0")
        .env("RUST_LOG", "warn")
        // A known secret, so the games (and Hard's two wins over Easy, which
        // it loses about 1.75% of the time) are the same every run.
        .env(arena_server::store::secret::VARIABLE, super::TEST_SECRET)
        .env_remove("ARENA_TOKEN")
        .env_remove("ARENA_SERVER")
        .output()
        .unwrap();
    let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}\n{}\nserver: {log}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Two tokens handed out; both graded; a backup; the gradebook.
    let tokens = std::fs::read_to_string(dir.path().join("tokens.csv")).unwrap();
    assert_eq!(
        tokens.lines().filter(|l| l.starts_with("ann,") || l.starts_with("bob,")).count(),
        2,
        "{tokens}"
    );
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    for id in [1, 2] {
        assert!(said.contains(&format!("submission {id}: done: ")), "{said}");
    }
    assert!(std::fs::metadata(dir.path().join("backup.tar.gz")).unwrap().len() > 0);
    let canvas = std::fs::read_to_string(dir.path().join("canvas.csv")).unwrap();
    let rows: Vec<&str> = canvas.lines().collect();
    assert!(rows[0].starts_with("Student,ID,SIS User ID,SIS Login ID,Section,Trap (trap)"), "{canvas}");
    assert!(rows[1].starts_with("Points Possible,"), "{canvas}");
    // Hard beat Easy: ann has both levels' points and the group defeated.
    let ann = rows.iter().find(|r| r.contains(",ann,")).unwrap_or_else(|| panic!("{canvas}"));
    let points: f64 = ann.rsplit(',').next().unwrap().parse().unwrap();
    assert_eq!(points, 25.0, "{canvas}");
    assert!(rows.iter().any(|r| r.contains(",bob,")), "{canvas}");
}
