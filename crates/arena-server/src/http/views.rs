//! What each audience sees of a submission. A player's own words (an
//! exception's text, its output, a crash message) are hostile: they may
//! carry the secrets of whatever environment the player saw, or text meant
//! for someone else's page. So the public sees numbers and verdicts only;
//! a student sees their own player's words, cut to a bounded length; staff
//! see everything.

use serde_json::{json, Value};

use crate::store::db::Submission;

/// The most of a player's words shown to its owner, per message.
pub const OWNER_TEXT: usize = 2000;

/// A grade as the public may see it: per level the counts and whether it
/// passed, the failures by kind, the verdict (the arena's own words); no
/// game's reason.
pub fn public_grade(grade: &Value) -> Value {
    let levels: Vec<Value> = grade["levels"]
        .as_array()
        .map(|levels| {
            levels
                .iter()
                .map(|l| {
                    let mut level = json!({
                        "level": l["level"], "games": l["games"], "wins": l["wins"], "draws": l["draws"],
                        "losses": l["losses"], "needed": l["needed"], "passed": l["passed"],
                    });
                    // A single-player game's: the mean scores on the same worlds.
                    for key in ["mean", "level_mean", "margin"] {
                        if let Some(number) = l.get(key).filter(|v| v.is_number()) {
                            level[key] = number.clone();
                        }
                    }
                    level
                })
                .collect()
        })
        .unwrap_or_default();
    json!({
        "levels": levels,
        "passed_all": grade["passed_all"],
        "failures": grade["failures"],
        "verdict": grade["verdict"],
    })
}

/// A replay (a live game's start or end) as the public may see it: the
/// moves and the numbers; of the result, the failure's kind, never its
/// words (a panic's message, a crash's output); no player's source (a
/// path on the server); none of the players' notes.
pub fn public_replay(replay: &mut Value) {
    if let Some(replay) = replay.as_object_mut() {
        replay.remove("notes");
    }
    for player in replay["players"].as_array_mut().into_iter().flatten() {
        player["source"] = Value::String(String::new());
    }
    let result = &mut replay["result"];
    if let Some(fault) = result.get("fault").filter(|f| f.is_object()).cloned() {
        result["fault"] = json!({ "player": fault["player"], "kind": fault["kind"] });
        result["reason"] = fault["kind"].clone();
    }
}

/// `submission` as its owner sees it: its error and each lost game's
/// reason cut to [`OWNER_TEXT`] characters; no lost game's seed (every
/// submission of the assignment is graded on the same secret seeds).
pub fn for_owner(mut submission: Submission) -> Submission {
    if let Some(error) = submission.error.as_mut() {
        cut(error);
    }
    if let Some(levels) = submission.grade.as_mut().and_then(|g| g["levels"].as_array_mut()) {
        for lost in levels.iter_mut().filter_map(|l| l["lost"].as_array_mut()).flatten() {
            if let Some(lost) = lost.as_object_mut() {
                lost.remove("seed");
            }
            if let Some(reason) = lost["reason"].as_str() {
                let mut reason = reason.to_string();
                cut(&mut reason);
                lost["reason"] = Value::String(reason);
            }
        }
    }
    submission
}

/// Cuts `text` to [`OWNER_TEXT`] characters, saying so.
fn cut(text: &mut String) {
    if let Some((end, _)) = text.char_indices().nth(OWNER_TEXT) {
        let dropped = text[end..].chars().count();
        text.truncate(end);
        text.push_str(&format!(" [... {dropped} more characters cut]"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graded(reason: &str, error: Option<&str>) -> Submission {
        Submission {
            id: 1,
            student: "alice".into(),
            group: "alice".into(),
            sha256: "00".into(),
            file_name: "lib.so".into(),
            size: 1,
            status: "done".into(),
            played: 30,
            total: 30,
            error: error.map(str::to_string),
            grade: Some(json!({
                "student": 0, "name": "alice", "passed_all": false, "verdict": "FAIL: needs 2 wins against hard, has 0",
                "failures": {"crashed": 1},
                "levels": [{"level": "hard", "opponent": 3, "games": 10, "wins": 0, "draws": 0, "losses": 10,
                            "needed": 2, "passed": false,
                            "lost": [{"index": 20, "seed": 7, "seat": 1, "reason": reason}]}],
            })),
            created: "2026-11-24 10:00:00".into(),
            finished: None,
            late: false,
            player: None,
            grading_turn: Some(1),
            note: None,
            graded_under: None,
            assignment: "project".into(),
            waiting: None,
            retry_at: None,
        }
    }

    #[test]
    fn a_public_replay_has_no_notes_and_no_player_words() {
        let mut replay = json!({
            "players": [{"name": "a", "source": "/data/uploads/ab.so"}, {"name": "b", "source": "easy"}],
            "result": {"winner": 1, "reason": "panicked: secret", "fault": {"player": 0, "kind": "panicked", "type": "panicked", "message": "secret"}},
            "notes": [{"turn": 0, "seat": 0, "text": "my plan <script>"}],
        });
        public_replay(&mut replay);
        let text = replay.to_string();
        assert!(replay.get("notes").is_none() && !text.contains("my plan"), "{text}");
        assert!(!text.contains("secret") && !text.contains("/data"), "{text}");
        assert_eq!(replay["result"]["reason"], "panicked");
    }

    #[test]
    fn the_public_sees_no_word_a_player_wrote() {
        let secret = "crashed: RuntimeError: {'ARENA_TOKEN': 'abc'} <script>alert(1)</script>";
        let public = public_grade(graded(secret, None).grade.as_ref().unwrap());
        let text = public.to_string();
        assert!(!text.contains("ARENA_TOKEN") && !text.contains("script"), "{text}");
        assert_eq!(public["levels"][0]["losses"], 10);
        assert_eq!(public["levels"][0]["passed"], false);
        assert_eq!(public["verdict"], "FAIL: needs 2 wins against hard, has 0");
        assert_eq!(public["failures"]["crashed"], 1);
    }

    #[test]
    fn the_public_sees_a_single_player_levels_means_as_numbers_only() {
        let grade = json!({
            "passed_all": true, "verdict": "PASS", "failures": {},
            "levels": [{"level": "easy", "games": 20, "wins": 9, "draws": 2, "losses": 9, "needed": 0,
                        "passed": true, "mean": 12.5, "level_mean": 10.0, "margin": 0.0,
                        "lost": [{"index": 3, "seed": 1, "seat": 1, "reason": "died: <b>secret</b>"}]}],
        });
        let public = public_grade(&grade);
        assert_eq!(public["levels"][0]["mean"], 12.5);
        assert_eq!(public["levels"][0]["level_mean"], 10.0);
        assert_eq!(public["levels"][0]["margin"], 0.0);
        assert!(!public.to_string().contains("secret"), "{public}");
        // A two-player grade has none of them.
        let duel = public_grade(graded("r", None).grade.as_ref().unwrap());
        assert!(duel["levels"][0].get("mean").is_none(), "{duel}");
    }

    #[test]
    fn an_owner_sees_their_players_words_cut_to_a_bound() {
        let long = "x".repeat(OWNER_TEXT + 500);
        let seen = for_owner(graded(&long, Some(&format!("é{long}"))));
        let reason = seen.grade.as_ref().unwrap()["levels"][0]["lost"][0]["reason"].as_str().unwrap();
        assert!(reason.starts_with(&"x".repeat(OWNER_TEXT)));
        assert!(reason.ends_with("[... 500 more characters cut]"), "{reason}");
        let error = seen.error.unwrap();
        assert!(error.starts_with('é') && error.ends_with("[... 501 more characters cut]"), "{error}");
        let short = for_owner(graded("timeout: 5.2 s > 5 s", Some("short")));
        assert_eq!(short.error.as_deref(), Some("short"));
        let lost = &short.grade.unwrap()["levels"][0]["lost"][0];
        assert_eq!(lost["reason"], "timeout: 5.2 s > 5 s");
        assert!(lost.get("seed").is_none(), "the grading seed stays the server's: {lost}");
        assert_eq!(lost["seat"], 1);
    }
}
