//! Attacks on groups and accounts: a member moved while their upload is in
//! flight, staff's testing submissions among the class's, names that hide
//! or reorder text, and contribution notes without end.

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::Path,
    time::{Duration, Instant},
};

use serde_json::Value;

use super::{finished, get, groups::add_group, groups::submit_with_note, submit, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// `arena serve add-student NAME --staff` (with `extra`): the token.
fn add_staff(data: &Path, name: &str, extra: &[&str]) -> String {
    let dir = data.to_str().unwrap();
    let out = arena(&[&["serve", "add-student", name, "--staff", "--data", dir], extra].concat(), &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    stdout(&out).trim().to_string()
}

/// The data folder's database, to check the rows behind the answers.
fn database(data: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(data.join("arena.db")).unwrap()
}

/// One value a query of `data`'s database gives.
fn one<T: rusqlite::types::FromSql>(data: &Path, sql: &str) -> T {
    database(data).query_row(sql, [], |row| row.get(0)).unwrap()
}

/// An upload over a raw connection, its body sent slowly: the headers and
/// half the body at once, the rest in pieces when told to finish.
struct SlowUpload {
    stream: TcpStream,
    rest: Vec<u8>,
}

impl SlowUpload {
    fn start(server: &Server, token: &str, bytes: &[u8]) -> SlowUpload {
        let (content_type, body) = arena_server::client::multipart("file", "libplayer.so", bytes);
        let mut stream = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
        write!(
            stream,
            "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .unwrap();
        let half = body.len() / 2;
        stream.write_all(&body[..half]).unwrap();
        SlowUpload { stream, rest: body[half..].to_vec() }
    }

    /// Sends the rest of the body, in pieces; the answer's status and JSON.
    fn finish(mut self) -> (u16, Value) {
        for piece in self.rest.chunks(256 << 10) {
            self.stream.write_all(piece).unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut answer = String::new();
        self.stream.read_to_string(&mut answer).unwrap();
        let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = answer.split_once("\r\n\r\n").unwrap().1;
        (status, serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}")))
    }
}

/// Waits until the server has counted `student`'s `n`th upload: it does
/// before it reads the upload's body.
fn wait_for_uploads(data: &Path, student: &str, n: i64) {
    let started = Instant::now();
    let sql = format!(
        "SELECT COUNT(*) FROM uploads WHERE student = (SELECT id FROM students WHERE name = '{student}')"
    );
    while one::<i64>(data, &sql) < n {
        assert!(started.elapsed() < Duration::from_secs(30), "the upload was never counted");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_member_moved_while_their_upload_is_sent_gets_it_in_the_new_group_or_a_clear_409() {
    let data = tempfile::tempdir().unwrap();
    let mal = super::add_student(data.path(), "mal");
    let ned = super::add_student(data.path(), "ned");
    let pat = super::add_student(data.path(), "pat");
    let quin = super::add_student(data.path(), "quin");
    let server = Server::start(data.path(), &["--per-hour", "2", "--round-robin", "off"]);
    let easy = std::fs::read(library("easy")).unwrap();
    let refused = |token: &str| assert_eq!(submit(&server, Some(token), "file", b"no player").0, 400);

    // ned has used one of his group's two places; mal, a group of one,
    // starts an upload and is moved into a group with ned while it is
    // sent, her group of one deleted by the move.
    refused(&ned);
    let upload = SlowUpload::start(&server, &mal, &easy);
    wait_for_uploads(data.path(), "mal", 1);
    add_group(data.path(), &["--members", "mal,ned"]);
    assert_eq!(one::<i64>(data.path(), "SELECT COUNT(*) FROM groups WHERE name = 'mal'"), 0, "deleted");
    let (code, accepted) = upload.finish();
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    // The new group's: by mal, seen by ned, charged to the new group,
    // which has no place left now (ned's refused upload and mal's).
    let (uploader, group): (String, String) = database(data.path())
        .query_row(
            "SELECT st.name, g.name FROM submissions s JOIN students st ON st.id = s.student
             JOIN groups g ON g.id = s.group_id WHERE s.id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((uploader.as_str(), group.as_str()), ("mal", "mal_ned"));
    let charged: String = one(
        data.path(),
        &format!("SELECT g.name FROM uploads u JOIN groups g ON g.id = u.group_id WHERE u.submission = {id}"),
    );
    assert_eq!(charged, "mal_ned");
    let (_, theirs) = get(&server, "/api/submissions", Some(&ned));
    assert_eq!(theirs["submissions"][0]["id"], id, "{theirs}");
    assert_eq!(theirs["uploads"]["left"], 0, "{theirs}");
    assert_eq!(submit(&server, Some(&mal), "file", &easy).0, 429);

    // quin's group has used both its places; pat is moved into it mid-upload:
    // the upload is refused in one line, counted, and stored nowhere.
    refused(&quin);
    refused(&quin);
    let upload = SlowUpload::start(&server, &pat, &easy);
    wait_for_uploads(data.path(), "pat", 1);
    add_group(data.path(), &["--members", "pat,quin"]);
    let (code, body) = upload.finish();
    assert_eq!(code, 409, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with(
            "you were moved to group 'pat_quin' while this upload was sent, and it has made 2 uploads in the last hour"
        ),
        "{error}"
    );
    assert_eq!(error.lines().count(), 1);
    let submissions: i64 = one(data.path(), "SELECT COUNT(*) FROM submissions");
    assert_eq!(submissions, 1, "only mal's");
    let why: String = one(
        data.path(),
        "SELECT u.refused FROM uploads u JOIN students st ON st.id = u.student WHERE st.name = 'pat'",
    );
    assert_eq!(why, error);
    let (_, theirs) = get(&server, "/api/submissions", Some(&pat));
    assert_eq!(
        (theirs["group"]["name"].as_str(), theirs["submissions"].as_array().map(Vec::len)),
        (Some("pat_quin"), Some(0))
    );
    assert_eq!(theirs["uploads"]["left"], 0, "{theirs}");

    // A move after an upload committed is refused: the group's history stays.
    let out =
        arena(&["serve", "add-group", "--members", "mal,zed", "--data", data.path().to_str().unwrap()], &[]);
    assert!(
        support::stderr(&out).contains("group 'mal_ned' has submitted already"),
        "{}",
        support::stderr(&out)
    );
}

#[test]
fn staff_testing_stays_off_the_leaderboard_the_league_scrimmages_and_finalize_unless_it_competes() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let alice = super::add_student(data.path(), "alice");
    let bob = super::add_student(data.path(), "bob");
    let boss = add_staff(data.path(), "boss", &[]);
    let reference = add_staff(data.path(), "ref", &["--compete"]);
    let server = Server::start(data.path(), &[]);
    let mut ids = std::collections::BTreeMap::new();
    for (name, token, level) in [
        ("alice", &alice, "easy"),
        ("bob", &bob, "hard"),
        ("boss", &boss, "medium"),
        ("ref", &reference, "easy"),
    ] {
        let (code, accepted) = submit(&server, Some(token), "file", &std::fs::read(library(level)).unwrap());
        assert_eq!(code, 201, "{accepted}");
        let id = accepted["id"].as_i64().unwrap();
        // Staff see their own grading.
        let graded = wait_for(&server, token, id, finished);
        assert_eq!(graded["status"], "done", "{graded}");
        ids.insert(name, id);
    }
    // The league of the three competing groups plays its 30 games; boss is
    // on neither the leaderboard nor in the league.
    let started = Instant::now();
    let board = loop {
        let (_, board) = get(&server, "/api/leaderboard", None);
        if board["round_robin"]["standings"]["games"] == 30 {
            break board;
        }
        assert!(started.elapsed() < Duration::from_secs(180), "{board}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let groups: Vec<&str> =
        board["groups"].as_array().unwrap().iter().map(|g| g["group"].as_str().unwrap()).collect();
    assert_eq!(groups, ["alice", "bob", "ref"], "{board}");
    let mut ranked: Vec<&str> = board["round_robin"]["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    ranked.sort();
    assert_eq!(ranked, ["alice", "bob", "ref"], "{board}");
    assert!(!board.to_string().contains("boss"), "{board}");
    let boss_games: i64 =
        one(data.path(), &format!("SELECT COUNT(*) FROM games WHERE a = {0} OR b = {0}", ids["boss"]));
    assert_eq!(boss_games, 0);
    let (_, cross) = get(&server, "/api/leaderboard/crosstable", None);
    assert!(!cross.to_string().contains("boss"), "{cross}");

    // Scrimmages: boss is no one's opponent, and challenges no one.
    let challenge = |token: &str, opponent: &str| {
        super::answer(
            super::agent()
                .post(format!("{}/api/scrimmages", server.url))
                .header("Authorization", format!("Bearer {token}"))
                .header("Content-Type", "application/json")
                .send(serde_json::json!({ "opponent": opponent }).to_string()),
        )
    };
    let (code, body) = challenge(&alice, "boss");
    assert_eq!(
        (code, body["error"].as_str()),
        (404, Some("no group named 'boss' has a graded submission for trap")),
        "{body}"
    );
    let (code, body) = challenge(&boss, "alice");
    assert_eq!(code, 403, "{body}");
    assert!(body["error"].as_str().unwrap().starts_with("your group is staff's, for testing"), "{body}");
    assert_eq!(challenge(&alice, "ref").0, 201, "a competing staff group plays");
    // Staff see which group is for testing.
    let (_, listed) = get(&server, "/api/staff/groups", Some(&boss));
    let competes: Vec<(&str, bool)> = listed["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["name"].as_str().unwrap(), g["competes"].as_bool().unwrap()))
        .collect();
    assert_eq!(competes, [("alice", true), ("bob", true), ("boss", false), ("ref", true)]);
    drop(server);

    // finalize: the three competing groups play; the students get grades.
    let out = arena(&["serve", "finalize", "--data", dir], &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(stdout(&out).starts_with("final results of 3 group(s), 2 student(s)"), "{}", stdout(&out));
    let standings =
        std::fs::read_to_string(data.path().join("final/trap/round-robin/standings.csv")).unwrap();
    assert_eq!(standings.lines().count(), 4, "{standings}");
    let grades = std::fs::read_to_string(data.path().join("final/trap/grades.csv")).unwrap();
    let gradebook = std::fs::read_to_string(data.path().join("final/gradebook.csv")).unwrap();
    // alice and bob (the gradebook: under its Points Possible row).
    for (text, rows) in [(&grades, 3), (&gradebook, 4)] {
        assert!(!text.contains("boss"), "{text}");
        assert_eq!(text.lines().count(), rows, "alice and bob: {text}");
    }
}

#[test]
fn names_that_hide_or_reorder_text_are_refused_and_notes_lose_such_characters() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().to_str().unwrap();
    let refused = |args: &[&str], code: &str| {
        let out = arena(&[&["serve"], args, &["--data", dir]].concat(), &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = support::stderr(&out);
        assert_eq!(error.trim().lines().count(), 1, "{error}");
        assert!(error.contains(&format!("it holds {code}, a control or formatting character")), "{error}");
        assert!(error.trim_end().ends_with("remove it"), "{error}");
        error
    };
    let error = refused(&["add-student", "mallory\u{202E}exe.txt"], "U+202E");
    assert!(error.contains("'mallory\\u{202E}exe.txt' cannot be a name"), "shown escaped: {error}");
    refused(&["add-student", "boss\u{2067}", "--staff"], "U+2067");
    refused(&["add-group", "--members", "ann,b\u{200B}en"], "U+200B");
    refused(&["add-group", "team\u{7}", "--members", "ann"], "U+0007");
    let roster = support::write_file(data.path(), "roster.csv", "name,group\ncy,A\nd\u{061C}ee,A\n");
    refused(&["add-student", "--roster", roster.to_str().unwrap()], "U+061C");
    assert!(
        !data.path().join("arena.db").exists()
            || one::<i64>(data.path(), "SELECT COUNT(*) FROM students") == 0
    );

    let ann = super::add_student(data.path(), "ann");
    let boss = add_staff(data.path(), "boss", &[]);
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (content_type, body) = arena_server::client::multipart_with(
        &[("note", "ann: \u{202E}search\u{202C}\r\nann: throw\u{200B}s\t")],
        "file",
        "mallory\u{202E}os.exe",
        &std::fs::read(library("easy")).unwrap(),
    );
    let (code, accepted) = super::answer(
        super::agent()
            .post(format!("{}/api/submissions", server.url))
            .header("Content-Type", content_type)
            .header("Authorization", format!("Bearer {ann}"))
            .send(&body[..]),
    );
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let (_, note) = get(&server, &format!("/api/staff/notes/{id}"), Some(&boss));
    assert_eq!(note["note"], "ann: search\nann: throws", "{note}");
    let (_, mine) = get(&server, &format!("/api/submissions/{id}"), Some(&ann));
    assert_eq!(mine["file_name"], "malloryos.exe", "{mine}");
}

/// A Python player's folder as the course hands it in, zipped: small, so
/// that hundreds of uploads are quick.
fn python_hand_in(folder: &str) -> Vec<u8> {
    let player = std::fs::read(
        support::workspace_root().join("players/python/examples/course/greedy_player/PlayerAI.py"),
    )
    .unwrap();
    let mut bytes = Vec::new();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut bytes));
    zip.start_file(format!("{folder}/PlayerAI.py"), zip::write::SimpleFileOptions::default()).unwrap();
    std::io::Write::write_all(&mut zip, &player).unwrap();
    zip.finish().unwrap();
    bytes
}

#[test]
fn a_groups_notes_are_bounded_in_the_database_and_in_the_staff_api() {
    let data = tempfile::tempdir().unwrap();
    let ann = super::add_student(data.path(), "ann");
    let boss = add_staff(data.path(), "boss", &[]);
    let server = Server::start(data.path(), &["--per-hour", "1000", "--round-robin", "off"]);
    let player = python_hand_in("ann");
    let note = |i: usize| format!("{i:03} {}", "n".repeat(19_990));
    let mut ids = Vec::new();
    for i in 0..300 {
        let (code, body) = submit_with_note(&server, &ann, &player, &note(i));
        assert_eq!(code, 201, "{body}");
        ids.push(body["id"].as_i64().unwrap());
    }
    // Before: 6,008,216 bytes (every note whole, every submission listed).
    let (code, groups) = get(&server, "/api/staff/groups", Some(&boss));
    assert_eq!(code, 200);
    let size = groups.to_string().len();
    eprintln!("/api/staff/groups after 300 uploads with 20 KB notes: {size} bytes");
    assert!(size < 4 << 10, "{size} bytes");
    let group = &groups["groups"][0];
    assert_eq!((group["name"].as_str(), group["submission_count"].as_u64()), (Some("ann"), Some(300)));
    assert_eq!(group["submissions"].as_array().unwrap().len(), 20, "the latest 20");
    let notes = group["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 3, "the latest 3");
    assert_eq!(notes[0]["submission"], ids[299]);
    assert_eq!(notes[0]["cut"], true);
    assert_eq!(notes[0]["text"].as_str().unwrap(), &note(299)[..500]);
    // The whole note on demand, for staff only.
    let (code, whole) = get(&server, &format!("/api/staff/notes/{}", ids[299]), Some(&boss));
    assert_eq!((code, whole["note"].as_str()), (200, Some(note(299).as_str())));
    assert_eq!(get(&server, &format!("/api/staff/notes/{}", ids[299]), Some(&ann)).0, 403);
    assert_eq!(get(&server, "/api/staff/notes/100000", Some(&boss)).0, 404);
    // The group's notes are kept to 64 KiB, the latest: older ones say
    // they were dropped.
    let kept: i64 = one(data.path(), "SELECT SUM(length(CAST(note AS BLOB))) FROM submissions");
    assert!(kept <= 64 * 1024 + 300 * 100, "{kept} bytes");
    let (_, oldest) = get(&server, &format!("/api/staff/notes/{}", ids[0]), Some(&boss));
    assert_eq!(oldest["note"], "[note dropped: a group's latest notes are kept, 64 KiB in all]");
    let (_, third) = get(&server, &format!("/api/staff/notes/{}", ids[297]), Some(&boss));
    assert_eq!(third["note"].as_str(), Some(note(297).as_str()), "the latest three are whole");
    // Nor does a group's own list grow with its notes.
    let (_, mine) = get(&server, "/api/submissions", Some(&ann));
    assert!(mine.to_string().len() < 200 << 10, "{} bytes", mine.to_string().len());
}
