//! Uploads: bad requests refused in one line, the hourly limit, and `arena submit` of a library or a folder.

use super::{add_student, get, submit, Server};
use crate::support::{self, arena, library, stdout};

#[test]
fn bad_requests_get_one_clear_error_and_store_nothing() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--max-upload", "100K"]);

    let (code, body) = submit(&server, None, "file", b"x");
    assert_eq!(code, 401, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Authorization: Bearer"), "{body}");
    assert_eq!(submit(&server, Some("0123456789abcdef"), "file", b"x").0, 401);

    let (code, body) = submit(&server, Some(&alice), "file", b"def get_move(self): pass\n");
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("not a player library"), "{body}");

    let (code, body) =
        submit(&server, Some(&alice), "upload", &std::fs::read(library("easy")).unwrap()[..50_000]);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("multipart field `file`"), "{body}");

    // Over the limit (small enough for the socket's buffers: a client that
    // sends megabytes sees the connection closed once the limit is passed).
    let (code, body) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap()[..150_000]);
    assert_eq!(code, 413, "{body}");
    assert!(body["error"].as_str().unwrap().contains("larger than this server accepts"), "{body}");

    assert_eq!(get(&server, "/api/submissions/1", Some(&alice)).0, 404);
    let stored = data.path().join("files");
    assert!(!stored.exists() || std::fs::read_dir(&stored).unwrap().count() == 0, "nothing stored");

    // A course file or a game, not both.
    let dir = data.path().to_str().unwrap();
    let out = arena(&["serve", "--game", "wumpus", "--course", "course.toml", "--data", dir], &[]);
    assert!(!out.status.success());
    let error = support::stderr(&out);
    assert!(
        error.starts_with("error: the argument '--game <GAME>' cannot be used with '--course <FILE>'"),
        "{error}"
    );
    // A course file that is not there is one line naming it.
    let out = arena(&["serve", "--course", "missing.toml", "--data", dir], &[]);
    assert_eq!(support::stderr(&out).trim().lines().count(), 1, "{}", support::stderr(&out));
    assert!(
        support::stderr(&out).contains("cannot read the course file missing.toml"),
        "{}",
        support::stderr(&out)
    );

    // A second student of the same name is refused in one line.
    let out = arena(&["serve", "add-student", "alice", "--data", data.path().to_str().unwrap()], &[]);
    assert!(!out.status.success());
    assert_eq!(
        support::stderr(&out).trim(),
        "error: there is already a student named 'alice': pick another name"
    );
}

#[test]
fn a_student_over_the_hourly_limit_gets_429_and_arena_submit_follows_a_grading() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "2"]);
    let easy = library("easy");

    // `arena submit --wait`: accepted, followed, graded.
    let out = arena(
        &["submit", easy.to_str().unwrap(), "--server", &server.url, "--wait"],
        &[("ARENA_TOKEN", alice.as_str())],
    );
    assert!(out.status.success(), "{}", support::stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("submission 1: queued\n"), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("submission 1: done: easy "), "{text}");
    assert!(last.contains("medium") && last.contains("hard") && last.contains("/10"), "{last}");

    assert_eq!(submit(&server, Some(&alice), "file", &std::fs::read(&easy).unwrap()).0, 201);
    let (code, body) = submit(&server, Some(&alice), "file", &std::fs::read(&easy).unwrap());
    assert_eq!(code, 429, "{body}");
    assert!(body["error"].as_str().unwrap().starts_with("2 uploads in the last hour"), "{body}");

    // The command line says why, in one line, without sending the file.
    let out = arena(&["submit", easy.to_str().unwrap(), "--server", &server.url, "--token", &alice], &[]);
    assert!(!out.status.success());
    let error = support::stderr(&out);
    assert!(error.starts_with("error: no upload left this hour (2 an hour"), "{error}");
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    let out = arena(&["submit", easy.to_str().unwrap(), "--server", &server.url, "--token", "nope"], &[]);
    assert!(
        support::stderr(&out).contains("(401 Unauthorized): a valid token is needed"),
        "{}",
        support::stderr(&out)
    );
}

#[test]
fn a_python_player_folder_is_packed_graded_and_bad_archives_are_refused() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);

    // A course player's folder, packed by `arena submit` and graded.
    let folder = support::workspace_root().join("players/python/examples/course/greedy_player");
    let out = arena(
        &["submit", folder.to_str().unwrap(), "--server", &server.url, "--token", &alice, "--wait"],
        &[],
    );
    assert!(out.status.success(), "{}\n{}", stdout(&out), support::stderr(&out));
    let last = stdout(&out).lines().last().unwrap().to_string();
    assert!(last.starts_with("submission 1: done: easy "), "{last}");
    let (_, graded) = get(&server, "/api/submissions/1", Some(&alice));
    assert_eq!(graded["file_name"], "greedy_player.tar.gz");
    assert_eq!(graded["player"], "greedy_player");

    // Archives that would write outside their folder, or hold no player,
    // are refused at once, and nothing is stored for them.
    let mut traversal = Vec::new();
    {
        let mut zip = zip::ZipWriter::new(std::io::Cursor::new(&mut traversal));
        zip.start_file("../../PlayerAI.py", zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, b"class PlayerAI: pass\n").unwrap();
        zip.finish().unwrap();
    }
    let (code, body) = submit(&server, Some(&alice), "file", &traversal);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("outside its folder"), "{body}");
    let empty = arena_server::client::pack(&support::workspace_root().join("docs/rules")).unwrap();
    let (code, body) = submit(&server, Some(&alice), "file", &empty);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("no Python player"), "{body}");
    let players: Vec<_> = std::fs::read_dir(data.path().join("players")).unwrap().flatten().collect();
    assert_eq!(players.len(), 1, "only the graded player is unpacked: {players:?}");
}
