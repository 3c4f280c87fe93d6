//! The class tournament from a Gradescope export of submissions: each
//! submission's folder a player named by its submitters (from
//! `submission_metadata.yml`), one without a player left out, saying why,
//! while the others play.

use std::path::Path;

use crate::support::{self, arena, stderr, stdout};

/// A native Python Trap player (no numpy needed).
const MOBILE: &str = "from arena_player import TrapPlayer\n\n\
class Mobile(TrapPlayer):\n\
\x20   def room(self, state, cell):\n\
\x20       return len([n for n in state.neighbors(cell) if state.is_free(n)])\n\n\
\x20   def get_move(self, state):\n\
\x20       return max(state.legal_moves(), key=lambda c: self.room(state, c))\n\n\
\x20   def get_trap(self, state):\n\
\x20       free = [c for c in state.neighbors(state.opponent) if state.is_free(c)]\n\
\x20       return max(free, key=lambda c: self.room(state, c))\n";

/// As Gradescope writes it: Ruby-symbol keys, a group of two, an earlier
/// score and results to skip.
const METADATA: &str = "---
submission_9001:
  :submitters:
  - :name: Ann Lee
    :sid: '100'
    :email: ann@example.edu
  :created_at: 2026-12-01 10:00:00.000000000 -08:00
  :score: 90.0
  :results:
    :score: 90.0
    :tests:
    - :name: easy (6 wins of 10 games to pass)
      :score: 60.0
submission_9002:
  :submitters:
  - :name: Bo Chan
    :sid: '200'
  - :name: Cy Diaz
    :sid: '201'
  :created_at: 2026-12-01 11:00:00.000000000 -08:00
submission_9003:
  :submitters:
  - :name: Dee Evans
    :sid: '300'
submission_9004:
  :submitters:
  - :name: Eve Fox
    :sid: '400'
";

/// An export in `dir/export/assignment_77_export`: two Python players (a native one, a course
/// folder in a subfolder as a zip hand-in unpacks), one submission holding
/// no player and one whose player does not load.
fn export(dir: &Path) -> std::path::PathBuf {
    // As the export's zip unpacks: one folder in the one named.
    let export = dir.join("export/assignment_77_export");
    for folder in ["submission_9001", "submission_9002/bo_cy", "submission_9003", "submission_9004"] {
        std::fs::create_dir_all(export.join(folder)).unwrap();
    }
    support::write_file(&export, "submission_metadata.yml", METADATA);
    support::write_file(&export.join("submission_9001"), "mobile.py", MOBILE);
    let greedy = support::workspace_root().join("players/python/examples/course/greedy_player/PlayerAI.py");
    std::fs::copy(greedy, export.join("submission_9002/bo_cy/PlayerAI.py")).unwrap();
    support::write_file(&export.join("submission_9003"), "answers.txt", "we ran out of time");
    support::write_file(&export.join("submission_9004"), "PlayerAI.py", "class PlayerAI(:\n");
    export
}

#[test]
fn a_gradescope_export_plays_its_submissions_named_by_their_students_and_the_broken_ones_are_told() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path());
    let file = support::write_file(
        dir.path(),
        "class.toml",
        "name = \"class\"\ngame = \"trap\"\nformat = \"round-robin\"\ngames_per_pairing = 2\nseed = 3\n\
         gradescope_exports = [\"export\"]\n",
    );
    let out = arena(&["tournament", "run", file.to_str().unwrap(), "--json"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains(
            "left out: submission_9003 (Dee Evans): it holds no Python player: a course folder with PlayerAI.py, or one .py file"
        ),
        "{said}"
    );
    // A player that does not load forfeits its games; the others play.
    assert!(said.contains("forfeits its games: Eve Fox: it does not load: "), "{said}");
    assert!(said.contains("syntax error"), "{said}");
    let standings: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = standings["rows"].as_array().unwrap_or_else(|| panic!("{standings:#}"));
    let mut names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["Ann Lee", "Bo Chan, Cy Diaz", "Eve Fox"], "{standings:#}");
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap();
    assert_eq!(
        (&row("Eve Fox")["games"], &row("Eve Fox")["losses"]),
        (&4.into(), &4.into()),
        "{standings:#}"
    );
    assert_eq!(row("Eve Fox")["failures"]["unavailable"], 4, "{standings:#}");
    // The two that load played each other too: 2 games against Eve, 2 between them.
    assert_eq!(row("Ann Lee")["games"], 4, "{standings:#}");
    assert_eq!(row("Bo Chan, Cy Diaz")["games"], 4, "{standings:#}");
}

#[test]
fn a_folder_that_is_no_export_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("export")).unwrap();
    let file = support::write_file(
        dir.path(),
        "class.toml",
        "game = \"trap\"\nformat = \"round-robin\"\nseed = 3\ngradescope_exports = [\"export\"]\n",
    );
    let out = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    assert!(!out.status.success());
    let error = stderr(&out);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    assert!(error.contains("gradescope_exports: "), "{error}");
    assert!(
        error.contains("has no submission_metadata.yml: is it a Gradescope export of submissions?"),
        "{error}"
    );
}
