//! A replay file's words reach the terminal without a terminal's control
//! characters (issue 67): notes recorded live are made plain as they are
//! taken, but a file can be made by hand, and `arena replay` draws its
//! players' names, its notes and its result's reason.

use super::{sample, write_json};
use crate::support::{arena, stderr, stdout};

#[test]
fn a_hand_made_replays_escapes_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = sample();
    doc["players"][0]["name"] = "easy\x1b]0;pwned\x07\r\nsecond line".into();
    doc["notes"] = serde_json::json!([{"turn": 0, "seat": 1, "text": "thinking\x1b[2J\r\nhard"}]);
    let reason = doc["result"]["reason"].as_str().unwrap().to_string();
    doc["result"]["reason"] = format!("{reason}\x1b[31m").into();
    let file = write_json(dir.path(), "hostile.json", &doc);
    let plain = |output: &std::process::Output| {
        let text = format!("{}{}", stdout(output), stderr(output));
        assert!(!text.contains(['\x1b', '\x07', '\r']), "a control character reached the terminal: {text:?}");
        text
    };

    let shown = plain(&arena(&["replay", &file], &[]));
    assert!(shown.contains("easy]0;pwnedsecond line"), "a name stays on its line: {shown}");
    assert!(shown.contains("    2| thinking[2J\n    2| hard"), "{shown}");
    assert!(shown.contains(&format!("({reason}[31m)")), "{shown}");
    // The result's reason differs from the game's: --verify says so, plain.
    let verified = plain(&arena(&["replay", "--verify", &file], &[]));
    assert!(verified.contains("does not verify") && verified.contains("[31m"), "{verified}");
}
