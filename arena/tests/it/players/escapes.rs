//! A player's words reach the terminal without a terminal's control
//! characters (issue 67): a Python player's name, author and failure as
//! `arena check` and `arena play` print them. An instructor runs students'
//! players on their own terminal: an escape sequence there could retitle
//! the window, clear the screen or hide lines. And `arena new` echoes a
//! bad name escaped, on one line.

use crate::players::python::python_env;
use crate::support::{arena, stderr, stdout, write_file};

/// A native Python player whose name and author hold escapes, a carriage
/// return and a line break, and which fails its first move saying more.
const HOSTILE: &str = r#"from arena_player import TrapPlayer


class Hostile(TrapPlayer):
    name = "evil\x1b]0;pwned\x07\x1b[2J\r"
    author = "mallory\x1b[31m\nnext"

    def get_move(self, state):
        raise RuntimeError("no move\x1b]0;pwned\x07\x1b[2J")

    def get_trap(self, state):
        return state.legal_moves()[0]
"#;

/// What `arena ARGS` printed, both streams, with the hostile player.
fn printed(args: &[&str]) -> String {
    let env = python_env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let output = arena(args, &env);
    format!("{}{}", stdout(&output), stderr(&output))
}

fn assert_plain(text: &str) {
    assert!(!text.contains(['\x1b', '\x07', '\r']), "a control character reached the terminal: {text:?}");
}

#[test]
fn a_players_name_author_and_failure_reach_the_terminal_plain() {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "hostile.py", HOSTILE);
    let player = format!("python:{}", file.display());

    let check = printed(&["check", &player]);
    assert_plain(&check);
    assert!(check.contains("\nname        evil]0;pwned[2J\n"), "{check}");
    assert!(check.contains("\nauthor      mallory[31mnext\n"), "one line: {check}");
    assert!(check.contains("no move]0;pwned[2J"), "its failure, plain: {check}");

    let play = printed(&["play", &player, "easy", "--games", "2", "--seed", "1"]);
    assert_plain(&play);
    assert!(play.contains("evil]0;pwned[2J"), "{play}");
    assert!(play.contains("no move]0;pwned[2J"), "{play}");
}

#[test]
fn a_bad_name_for_a_new_player_is_one_line_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    for (flags, what) in [(&[][..], "crate name"), (&["--python"][..], "player name")] {
        let mut args = vec!["new", "my\nbot\x1b[2J", "--dir", folder];
        args.extend_from_slice(flags);
        let output = arena(&args, &[]);
        let err = stderr(&output);
        assert!(!output.status.success());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!(r"'my\nbot\u{{1b}}[2J' is not a usable {what}: use lowercase")),
            "{err}"
        );
    }
}
