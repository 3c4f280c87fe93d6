//! Groups: the course's projects are by groups of 2 or 3. A submission is
//! its group's (every member sees it, no one else does); the hourly limit
//! counts per group; staff see the groups, who uploaded what, and the
//! contribution notes, which the public never sees.

use std::path::Path;

use serde_json::Value;

use super::{get, submit, Server};
use crate::support::{self, arena, library, stdout};

/// `arena serve add-group`: its `member,token` lines.
pub(super) fn add_group(data: &Path, args: &[&str]) -> Vec<(String, String)> {
    let out = arena(&[&["serve", "add-group", "--data", data.to_str().unwrap()], args].concat(), &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            let (member, token) = l.split_once(',').unwrap();
            (member.to_string(), token.to_string())
        })
        .collect()
}

/// `POST /api/submissions` with a library and a contribution note.
pub(super) fn submit_with_note(server: &Server, token: &str, library: &[u8], note: &str) -> (u16, Value) {
    let (content_type, body) =
        arena_server::client::multipart_with(&[("note", note)], "file", "libplayer.so", library);
    super::answer(
        super::agent()
            .post(format!("{}/api/submissions", server.url))
            .header("Content-Type", content_type)
            .header("Authorization", format!("Bearer {token}"))
            .send(&body[..]),
    )
}

#[test]
fn a_groups_members_share_its_submissions_and_its_hourly_limit_and_no_one_else_sees_them() {
    let data = tempfile::tempdir().unwrap();
    let pair = add_group(data.path(), &["--members", "tc1234,gd5678"]);
    assert_eq!(pair.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(), ["tc1234", "gd5678"]);
    assert!(pair.iter().all(|(_, token)| token.len() == 48), "{pair:?}");
    let trio = add_group(data.path(), &["team-3", "--members", "ann,ben,cat"]);
    assert_eq!(trio.len(), 3);
    let solo = super::add_student(data.path(), "solo");
    let staff = {
        let out =
            arena(&["serve", "add-student", "boss", "--staff", "--data", data.path().to_str().unwrap()], &[]);
        stdout(&out).trim().to_string()
    };
    let server = Server::start(data.path(), &["--per-hour", "2", "--round-robin", "off"]);
    let easy = std::fs::read(library("easy")).unwrap();
    let (first, second) = (&pair[0].1, &pair[1].1);

    let note = "tc1234: move search <b>and</b> heuristics; gd5678: throw search";
    let (code, body) = submit_with_note(&server, first, &easy, note);
    assert_eq!(code, 201, "{body}");
    let id = body["id"].as_i64().unwrap();

    // Both members see it, and their group.
    for token in [first, second] {
        let (code, mine) = get(&server, "/api/submissions", Some(token));
        assert_eq!(code, 200, "{mine}");
        assert_eq!(mine["group"]["name"], "tc1234_gd5678", "{mine}");
        assert_eq!(mine["group"]["members"], serde_json::json!(["gd5678", "tc1234"]), "{mine}");
        assert_eq!(mine["submissions"][0]["id"], id, "{mine}");
        assert_eq!(mine["submissions"][0]["student"], "tc1234", "who uploaded it: {mine}");
        assert_eq!(get(&server, &format!("/api/submissions/{id}"), Some(token)).0, 200);
    }
    // Another group, or a student alone, does not.
    for token in [&trio[0].1, &solo] {
        let (code, body) = get(&server, &format!("/api/submissions/{id}"), Some(token));
        assert_eq!(code, 404, "{body}");
        assert_eq!(get(&server, &format!("/api/submissions/{id}/replays"), Some(token)).0, 404);
        let (_, theirs) = get(&server, "/api/submissions", Some(token));
        assert_eq!(theirs["submissions"], serde_json::json!([]), "{theirs}");
    }

    // The hourly limit is the group's: the second member's upload is its
    // second, the first member's next its third.
    assert_eq!(submit(&server, Some(second), "file", &easy).0, 201);
    let (code, body) = submit(&server, Some(first), "file", &easy);
    assert_eq!(code, 429, "{body}");
    let (_, left) = get(&server, "/api/submissions", Some(second));
    assert_eq!(left["uploads"]["left"], 0, "{left}");
    // Another group's is its own.
    assert_eq!(submit(&server, Some(&trio[2].1), "file", &easy).0, 201);

    // Staff see the groups, who uploaded what, and the note; the roster
    // has each student's group.
    let (code, groups) = get(&server, "/api/staff/groups", Some(&staff));
    assert_eq!(code, 200, "{groups}");
    let pair_entry =
        groups["groups"].as_array().unwrap().iter().find(|g| g["name"] == "tc1234_gd5678").unwrap();
    assert_eq!(pair_entry["submissions"].as_array().unwrap().len(), 2, "{pair_entry}");
    assert_eq!(
        pair_entry["notes"][0],
        serde_json::json!({ "submission": id, "text": note, "cut": false }),
        "{pair_entry}"
    );
    let (_, roster) = get(&server, "/api/staff/roster", Some(&staff));
    let ann = roster["students"].as_array().unwrap().iter().find(|s| s["name"] == "ann").unwrap();
    assert_eq!((ann["group"].as_str(), ann["submissions"].as_u64()), (Some("team-3"), Some(1)), "{ann}");
    assert_eq!(get(&server, "/api/staff/groups", Some(first)).0, 403);

    // The public never sees a note.
    let (_, board) = get(&server, "/api/leaderboard", None);
    assert!(!board.to_string().contains("heuristics"), "{board}");

    // A member's page shows the group; the staff page its members, who
    // uploaded what, and the note as text (its markup never runs).
    if let Some(browser) = support::browser::chromium() {
        let page = super::dump(&browser, &format!("{}/me#token={second}", server.url));
        assert!(page.contains("logged in as gd5678, group tc1234_gd5678 (gd5678, tc1234)"), "{page}");
        assert!(page.contains("<td>libplayer.so (tc1234)</td>"), "who uploaded it: {page}");
        let page = super::dump(&browser, &format!("{}/staff#token={staff}", server.url));
        let row = page
            .split("<tr data-group=\"tc1234_gd5678\">")
            .nth(1)
            .and_then(|r| r.split("</tr>").next())
            .unwrap_or_else(|| panic!("{page}"));
        assert!(row.contains("<td>gd5678, tc1234</td>"), "{row}");
        assert!(row.contains(&format!("#{id} Trap by tc1234 ")), "{row}");
        assert!(row.contains("move search &lt;b&gt;and&lt;/b&gt; heuristics"), "escaped: {row}");
    }
}

#[test]
fn a_student_moves_to_a_group_only_before_either_group_submitted() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let fay = super::add_student(data.path(), "fay");
    let hal = super::add_student(data.path(), "hal");
    // Before any submission: fay moves, keeping her token; gil is new.
    let moved = add_group(data.path(), &["--members", "fay,gil"]);
    assert_eq!(moved[0], ("fay".to_string(), "-".to_string()));
    assert_eq!(moved[1].1.len(), 48);
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (_, mine) = get(&server, "/api/submissions", Some(&fay));
    assert_eq!(mine["group"]["name"], "fay_gil", "{mine}");
    assert_eq!(submit(&server, Some(&hal), "file", &std::fs::read(library("easy")).unwrap()).0, 201);
    drop(server);

    // hal's group has submitted: he stays, and nothing of the new group is made.
    let out = arena(&["serve", "add-group", "--members", "hal,ivy", "--data", dir], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", support::stderr(&out));
    let error = support::stderr(&out);
    assert!(error.contains("group 'hal' has submitted already: its members stay"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    let again = arena(&["serve", "add-student", "ivy", "--data", dir], &[]);
    assert!(again.status.success(), "ivy was not added by the refused group: {}", support::stderr(&again));

    // A name taken, a member named twice: one clear line each.
    for (args, expected) in [
        (&["--members", "jo,jo"][..], "'jo' is named twice in --members"),
        (&["fay_gil", "--members", "kim"][..], "there is already a group named 'fay_gil'"),
    ] {
        let out = arena(&[&["serve", "add-group", "--data", dir], args].concat(), &[]);
        assert_eq!(out.status.code(), Some(2));
        assert!(support::stderr(&out).contains(expected), "{}", support::stderr(&out));
    }
}

#[test]
fn a_roster_with_a_group_column_makes_its_groups() {
    let data = tempfile::tempdir().unwrap();
    let lines = super::add_roster(data.path(), "name,group\ntc1234,A\nsolo\ngd5678,A\n");
    assert_eq!(lines.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>(), ["tc1234", "gd5678", "solo"]);
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (_, mine) = get(&server, "/api/submissions", Some(&lines[1].1));
    assert_eq!(mine["group"]["name"], "tc1234_gd5678", "{mine}");
    let (_, alone) = get(&server, "/api/submissions", Some(&lines[2].1));
    assert_eq!(alone["group"]["members"], serde_json::json!(["solo"]), "{alone}");
}

#[test]
fn the_course_hand_in_a_folder_and_its_groups_note_is_a_submission_with_the_note() {
    let data = tempfile::tempdir().unwrap();
    let pair = add_group(data.path(), &["--members", "tc1234,gd5678"]);
    let staff = {
        let out =
            arena(&["serve", "add-student", "boss", "--staff", "--data", data.path().to_str().unwrap()], &[]);
        stdout(&out).trim().to_string()
    };
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    // As the course asks: the folder named by the members, and beside it
    // the text file of the same name.
    let player = std::fs::read(
        support::workspace_root().join("players/python/examples/course/greedy_player/PlayerAI.py"),
    )
    .unwrap();
    let mut bytes = Vec::new();
    {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("tc1234_gd5678/PlayerAI.py", options).unwrap();
        std::io::Write::write_all(&mut zip, &player).unwrap();
        zip.start_file("tc1234_gd5678.txt", options).unwrap();
        std::io::Write::write_all(&mut zip, b"tc1234: the move search\ngd5678: the throw search\n").unwrap();
        zip.finish().unwrap();
    }
    let (code, body) = submit(&server, Some(&pair[1].1), "file", &bytes);
    assert_eq!(code, 201, "{body}");
    let id = body["id"].as_i64().unwrap();
    let (_, mine) = get(&server, &format!("/api/submissions/{id}"), Some(&pair[0].1));
    assert_eq!(mine["player"], "tc1234_gd5678", "{mine}");
    assert_eq!(mine["note"], "tc1234: the move search\ngd5678: the throw search", "{mine}");
    let (_, groups) = get(&server, "/api/staff/groups", Some(&staff));
    let group = groups["groups"].as_array().unwrap().iter().find(|g| g["name"] == "tc1234_gd5678").unwrap();
    assert_eq!(group["notes"][0]["submission"], id, "{group}");
}

#[test]
fn a_course_file_sets_its_deadline_names_its_assignments_and_a_wrong_one_is_refused_in_one_line() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let staff = {
        let out = arena(&["serve", "add-student", "boss", "--staff", "--data", dir], &[]);
        stdout(&out).trim().to_string()
    };
    let course = support::write_file(
        data.path(),
        "course.toml",
        "[[assignment]]\nname = \"project\"\ngame = \"trap\"\ndeadline = \"2031-05-02 12:00\"\n\
         [assignment.points]\nper_level = [30, 30, 25]\nby_rank = [15, 10, 5]\n",
    );
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    let (_, roster) = get(&server, "/api/staff/roster", Some(&staff));
    assert_eq!(roster["deadline"], "2031-05-02 12:00:00", "{roster}");
    // Anyone sees the assignment; a submission names it, or another is refused.
    let (code, course) = get(&server, "/api/assignments", None);
    assert_eq!(code, 200, "{course}");
    assert_eq!(course["assignments"][0]["name"], "project", "{course}");
    assert_eq!(course["assignments"][0]["game"], "trap", "{course}");
    assert_eq!(course["assignments"][0]["deadline"], "2031-05-02 12:00:00", "{course}");
    let solo = super::add_student(data.path(), "solo");
    let easy = library("easy");
    let send = |assignment: &str| {
        arena(
            &[
                "submit",
                easy.to_str().unwrap(),
                "--server",
                &server.url,
                "--token",
                &solo,
                "--assignment",
                assignment,
            ],
            &[],
        )
    };
    let out = send("project");
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(stdout(&out).starts_with("submission 1: queued"), "{}", stdout(&out));
    let out = send("homework");
    assert_eq!(
        support::stderr(&out).trim(),
        "error: --assignment homework: the server has no such assignment (it has project)"
    );
    let (content_type, body) = arena_server::client::multipart_with(
        &[("assignment", "homework")],
        "file",
        "lib.so",
        &std::fs::read(&easy).unwrap(),
    );
    let (code, refused) = super::answer(
        super::agent()
            .post(format!("{}/api/submissions", server.url))
            .header("Content-Type", content_type)
            .header("Authorization", format!("Bearer {solo}"))
            .send(&body[..]),
    );
    assert_eq!(code, 400, "{refused}");
    assert_eq!(
        refused["error"],
        "the course has no assignment 'homework' (it has project): send it as the field `assignment`"
    );
    if let Some(browser) = support::browser::chromium() {
        let page = super::dump(&browser, &format!("{}/me#token={solo}", server.url));
        assert!(
            page.contains("course: project (trap; against easy, medium, hard, 10 games each; 5.00 s per turn, on the cpu clock; deadline 2031-05-02 12:00:00 UTC)"),
            "{page}"
        );
    }
    drop(server);

    // The data folder keeps the course: a restart without --course, and
    // `serve deadline`, use it.
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (_, course) = get(&server, "/api/assignments", None);
    assert_eq!(course["assignments"][0]["name"], "project", "{course}");
    drop(server);
    let out = arena(&["serve", "deadline", "2031-06-01 08:00", "--data", dir], &[]);
    assert_eq!(
        stdout(&out).trim(),
        "project: deadline 2031-06-01 08:00:00 UTC: later submissions are graded but do not count"
    );

    for (text, expected) in [
        (
            "[[assignment]]\nname = \"t\"\ngame = \"trap\"\n[assignment.grading]\nwins_to_pass = [7, 4, 20]\n",
            "line 5: assignment[0].grading.wins_to_pass: 20 wins out of 10 games per level cannot be had",
        ),
        (
            "[[assignment]]\nname = \"t\"\ngame = \"trap\"\n[assignment.settings]\nboard_size = 9\n",
            "line 5: assignment[0].settings.board_size",
        ),
        (
            "[[assignment]]\nname = \"a\"\ngame = \"trap\"\n[[assignment]]\nname = \"a\"\ngame = \"wumpus\"\n",
            "names another assignment too",
        ),
    ] {
        let file = support::write_file(data.path(), "bad.toml", text);
        let out = arena(&["serve", "--data", dir, "--course", file.to_str().unwrap()], &[]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        let error = support::stderr(&out);
        assert!(error.contains(expected), "expected {expected:?} in {error}");
        assert_eq!(error.trim().lines().count(), 1, "{error}");
    }
}
