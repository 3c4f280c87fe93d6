//! A player's declaration of its parameters is checked as it loads
//! (issue 67), whatever the player is: a bad one is one line naming the
//! player and the parameter, never a protocol error. Numbers that are not
//! finite (a Python `float("nan")`, which JSON cannot hold, a program's
//! null), min > max, a default outside the range, an empty name, a name
//! `--param NAME=VALUE` could not set or a table could not show, a name
//! declared twice.

use crate::players::python::python_env;
use crate::support::{arena, stderr, write_file};

/// `arena check PLAYER --params` fails with one line holding `player` and
/// each of `expected`, and no control character.
fn refused(player: &str, expected: &[&str]) {
    let env = python_env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let output = arena(&["check", player, "--params"], &env);
    let err = stderr(&output);
    assert!(!output.status.success(), "{player}: accepted");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains(|c: char| c.is_control() && c != '\n'), "{err:?}");
    for part in [player].iter().chain(expected) {
        assert!(err.contains(part), "missing {part:?} in {err}");
    }
}

#[test]
fn a_python_players_bad_declaration_is_one_line_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"{"w": ("float", float("nan"), 0.0, 1.0)}"#,
            "parameter 'w' has default NaN: declare finite numbers",
        ),
        (r#"{"w": ("float", 0.5, 0.0, float("inf"))}"#, "parameter 'w' has max inf: declare finite numbers"),
        (
            r#"{"w": ("float", 0.5, -float("inf"), 1.0)}"#,
            "parameter 'w' has min -inf: declare finite numbers",
        ),
        (r#"{"w": ("float", 0.5, 1.0, 0.0)}"#, "parameter 'w' has min 1 > max 0: declare min <= max"),
        (
            r#"{"d": ("int", 9, 1, 5)}"#,
            "parameter 'd' has default 9 outside its range 1..5: declare a default in it",
        ),
        (
            r#"{"w": ("float", 0.5, 0.0, 1.0), "": ("int", 1, 0, 2)}"#,
            "parameter 2 has an empty name: name it",
        ),
        (r#"{"a=b": ("int", 1, 0, 2)}"#, "parameter 'a=b' is not a plain name: use letters, digits and _"),
        (r#"{"a\x1b[2J\nb": ("int", 1, 0, 2)}"#, r"parameter 'a\u{1b}[2J\nb' is not a plain name"),
    ];
    for (i, (declared, expected)) in cases.into_iter().enumerate() {
        let text = format!(
            "from arena_player import TrapPlayer\n\nARENA_PARAMS = {declared}\n\n\n\
             class P(TrapPlayer):\n    name = \"p\"\n\n    def get_move(self, state):\n        return state.legal_moves()[0]\n"
        );
        let file = write_file(dir.path(), &format!("p{i}.py"), &text);
        refused(&format!("python:{}", file.display()), &[expected]);
    }
}

#[test]
fn a_programs_bad_declaration_is_one_line_naming_the_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let param = |name: &str, default: &str| {
        format!(r#"{{"name": "{name}", "type": "float", "default": {default}, "min": 0, "max": 1}}"#)
    };
    let cases = [
        // serde_json's own spelling of a number that is not finite.
        (vec![param("w", "null")], "parameter 'w' has default NaN"),
        (
            vec![param("w", "0.5"), param("w", "1")],
            "parameter 'w' is declared twice: declare each parameter once",
        ),
    ];
    for (i, (params, expected)) in cases.into_iter().enumerate() {
        // Its hello, as bytes: what it declares is written as it is.
        let hello = format!(
            r#"{{"type": "hello", "protocol": 1, "name": "p", "author": "tests", "games": ["trap"], "params": [{}]}}"#,
            params.join(", ")
        );
        let script = format!(
            "import struct, sys\nhello = {hello:?}.encode()\n\
             sys.stdout.buffer.write(struct.pack(\"<I\", len(hello)) + hello)\nsys.stdout.buffer.flush()\nsys.stdin.read()\n"
        );
        let file = write_file(dir.path(), &format!("p{i}.py"), &script);
        refused(&format!("cmd:python3 {}", file.display()), &[expected]);
    }
}
