//! `arena submit` as a student uses it: a submission followed by its id
//! (`--follow ID`), the group's submissions listed (`arena submit status`),
//! and what the server would refuse refused before it is sent (a folder
//! without a player, or over the server's limits; a player of another
//! game than the assignment's), so it costs no upload of the hour.

use std::path::{Path, PathBuf};

use super::{add_student, get, Server};
use crate::support::{self, arena, library, stdout};

/// `arena submit ARGS` against `server` as the student with `token`.
fn submit_cli(server: &Server, token: &str, args: &[&str]) -> std::process::Output {
    let mut all = vec!["submit"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--server", &server.url, "--token", token]);
    arena(&all, &[])
}

/// The one line of a failed command's error output.
fn one_error_line(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "{}", stdout(out));
    let error = support::stderr(out);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    error.trim().to_string()
}

/// The uploads `token`'s group may still start this hour, and its submissions.
fn uploads_left(server: &Server, token: &str) -> (u64, usize) {
    let (code, mine) = get(server, "/api/submissions", Some(token));
    assert_eq!(code, 200, "{mine}");
    (mine["uploads"]["left"].as_u64().unwrap(), mine["submissions"].as_array().unwrap().len())
}

#[test]
fn a_submission_is_followed_by_its_id_and_the_groups_submissions_are_listed() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let bob = add_student(data.path(), "bob");
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let easy = library("easy");

    // Sent without --wait: the exact command that follows it is printed.
    let out = submit_cli(&server, &alice, &[easy.to_str().unwrap()]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(stdout(&out), "submission 1: queued\n");
    let told = support::stderr(&out);
    let command = told
        .lines()
        .find_map(|line| line.strip_prefix("follow it with: "))
        .unwrap_or_else(|| panic!("{told}"));
    assert_eq!(command, format!("arena submit --follow 1 --server {} --token T", server.url));

    // That command, run: it waits for the grading and prints the grade.
    let words: Vec<&str> =
        command.split_whitespace().skip(1).map(|w| if w == "T" { &alice } else { w }).collect();
    let out = arena(&words, &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("submission 1: done: easy "), "{text}");
    assert!(last.contains("medium") && last.contains("hard") && last.contains("/10"), "{text}");
    // A graded one: its grade at once.
    let again = submit_cli(&server, &alice, &["--follow", "1"]);
    assert!(again.status.success(), "{}", support::stderr(&again));
    assert_eq!(stdout(&again).trim(), last);

    // A second one, and the list: newest first, each with its state.
    let out = submit_cli(&server, &alice, &[library("medium").to_str().unwrap()]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let out = submit_cli(&server, &alice, &["--follow", "2"]);
    assert!(stdout(&out).lines().last().unwrap().starts_with("submission 2: "), "{}", stdout(&out));
    let out = submit_cli(&server, &alice, &["status"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[0],
        "alice of group alice: 2 submission(s), newest first; 28 of 30 uploads left this hour"
    );
    assert!(
        lines[1].starts_with("    2  ") && lines[1].contains("  trap  libmedium.so  done: easy "),
        "{text}"
    );
    assert!(
        lines[2].starts_with("    1  ") && lines[2].contains("  trap  libeasy.so  done: easy "),
        "{text}"
    );

    // Another group's submission, or none, is refused in one line naming it.
    let error = one_error_line(&submit_cli(&server, &bob, &["--follow", "1"]));
    assert!(error.contains("your group has no submission 1"), "{error}");
    let out = submit_cli(&server, &bob, &["status"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
    assert!(stdout(&out).starts_with("bob of group bob: 0 submission(s),"), "{}", stdout(&out));
    // A path and --follow: one of them.
    let out = submit_cli(&server, &alice, &[easy.to_str().unwrap(), "--follow", "1"]);
    assert!(support::stderr(&out).contains("cannot be used with"), "{}", support::stderr(&out));
}

/// A folder `name` in `dir` holding `files` (name, text).
fn folder(dir: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let folder = dir.join(name);
    for (file, text) in files {
        let path = folder.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

#[test]
fn the_folder_check_before_sending_is_the_servers_rule() {
    // Each layout, checked by the client and by the server's own unpacking
    // of what the client packs: the same player, or both refuse.
    let dir = tempfile::tempdir().unwrap();
    let player = "class PlayerAI: pass\n";
    // Each: the folder's name, its files, and where its player is (None: refused).
    type Layout<'a> = (&'a str, &'a [(&'a str, &'a str)], Option<&'a str>);
    let layouts: [Layout; 7] = [
        ("course", &[("PlayerAI.py", player), ("helpers.py", ""), ("notes.txt", "")], Some("")),
        ("single", &[("bot.py", ""), ("README", "")], Some("bot.py")),
        // The player one folder down: not at the top of what is sent.
        ("nested", &[("inner/PlayerAI.py", player)], None),
        ("hand-in", &[("tc1/PlayerAI.py", player), ("tc1.txt", "notes")], None),
        ("two", &[("a.py", ""), ("b.py", "")], None),
        ("empty", &[("README", "")], None),
        ("deep", &[("x/y/PlayerAI.py", player)], None),
    ];
    for (name, files, expected) in layouts {
        let folder = folder(dir.path(), name, files);
        let client = arena_server::client::checked_upload(&folder);
        let unpacked = dir.path().join(format!("{name}-unpacked"));
        let bytes = arena_server::client::pack(&folder).unwrap();
        let server = arena_server::store::archive::unpack(
            &bytes,
            arena_server::store::archive::Kind::TarGz,
            &unpacked,
        )
        .and_then(|()| arena_server::store::archive::find_player(&unpacked));
        match expected {
            Some(inside) => {
                let upload = client.unwrap_or_else(|e| panic!("{name}: {e:#}"));
                assert_eq!(upload.player, Some(PathBuf::from(inside)), "{name}");
                assert_eq!(upload.bytes, bytes, "{name}: sent as packed");
                assert_eq!(server.unwrap(), Path::new(name).join(inside), "{name}");
            }
            None => {
                let why = format!("{:#}", client.err().unwrap_or_else(|| panic!("{name} passed")));
                let shown = folder.display().to_string();
                assert!(why.starts_with(&format!("the folder {shown} holds ")), "{name}: {why}");
                let server = server.unwrap_err();
                assert_eq!(why.replace(&format!("the folder {shown}"), "the archive"), server, "{name}");
            }
        }
    }
    // Nothing left to send once hidden files and caches are left out.
    let hidden =
        folder(dir.path(), "hidden", &[(".PlayerAI.py", player), ("__pycache__/PlayerAI.py", player)]);
    let why = format!("{:#}", arena_server::client::checked_upload(&hidden).err().unwrap());
    assert!(
        why.ends_with(
            "holds no file to send (hidden files and __pycache__ are left out): name the player's folder"
        ),
        "{why}"
    );
}

#[test]
fn a_folder_or_file_the_server_would_refuse_is_refused_before_it_counts() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "3", "--max-upload", "1000000"]);
    let dir = tempfile::tempdir().unwrap();
    let shown = |p: &Path| p.display().to_string();

    let none = folder(dir.path(), "notes", &[("README.md", "# notes"), ("data/x.txt", "1")]);
    let error = one_error_line(&submit_cli(&server, &alice, &[none.to_str().unwrap()]));
    assert_eq!(
        error,
        format!(
            "error: the folder {} holds no Python player: a course folder with PlayerAI.py, or one .py file",
            shown(&none)
        )
    );
    let two = folder(dir.path(), "two", &[("a.py", ""), ("b.py", "")]);
    let error = one_error_line(&submit_cli(&server, &alice, &[two.to_str().unwrap()]));
    assert!(error.contains("holds several .py files but no PlayerAI.py"), "{error}");

    // 1,000 files and a player: one too many.
    let many = folder(dir.path(), "many", &[("PlayerAI.py", "class PlayerAI: pass\n")]);
    for i in 0..1000 {
        std::fs::write(many.join(format!("level{i}.txt")), "").unwrap();
    }
    let error = one_error_line(&submit_cli(&server, &alice, &[many.to_str().unwrap()]));
    assert_eq!(
        error,
        format!(
            "error: {} holds 1001 files (hidden ones and __pycache__ left out), more than the 1000 the server \
             takes: send only the player's folder",
            shown(&many)
        )
    );
    // 65 MiB of data (a sparse file: no disk used).
    let big = folder(dir.path(), "big", &[("PlayerAI.py", "class PlayerAI: pass\n")]);
    std::fs::File::create(big.join("weights.bin")).unwrap().set_len(65 << 20).unwrap();
    let error = one_error_line(&submit_cli(&server, &alice, &[big.to_str().unwrap()]));
    assert!(error.contains("holds 65 MiB of files, more than the 64 MiB the server takes"), "{error}");

    // A file that is no library; a library over the server's --max-upload.
    let text = support::write_file(dir.path(), "player.py.txt", "print('hi')");
    let error = one_error_line(&submit_cli(&server, &alice, &[text.to_str().unwrap()]));
    assert!(error.starts_with(&format!("error: {}: not a player library", shown(&text))), "{error}");
    let easy = library("easy");
    assert!(std::fs::metadata(&easy).unwrap().len() > 1_000_000);
    let error = one_error_line(&submit_cli(&server, &alice, &[easy.to_str().unwrap()]));
    assert!(error.contains("bytes, more than the 1000000 this server accepts"), "{error}");

    // None of them was sent: the hour's uploads are all left.
    assert_eq!(uploads_left(&server, &alice), (3, 0));
}

/// A course of one Intuitive AI assignment.
const INTUITIVE: &str = "[[assignment]]\nname = \"intuitive-ai\"\ngame = \"intuitive-ai\"\n\
                         [assignment.grading]\nlevels = [\"easy\"]\ngames = 4\n";

#[test]
fn a_player_of_another_game_is_refused_naming_both_games() {
    let data = tempfile::tempdir().unwrap();
    let course = support::write_file(data.path(), "course.toml", INTUITIVE);
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--course", course.to_str().unwrap(), "--per-hour", "5"]);
    let trap = support::workspace_root().join("players/python/examples/course/greedy_player");
    let wrong =
        "this player plays trap; the assignment is intuitive-ai: submit a player that plays intuitive-ai";

    // `arena submit` loads the player here, asks its games, and refuses it.
    let error = one_error_line(&submit_cli(&server, &alice, &[trap.to_str().unwrap()]));
    assert_eq!(error, format!("error: {wrong}"));
    assert_eq!(uploads_left(&server, &alice), (5, 0));

    // Sent anyway, packed by hand (an archive goes as it is, for the
    // server to open): the server's check says the same.
    let packed = data.path().join("greedy_player.tar.gz");
    std::fs::write(&packed, arena_server::client::pack(&trap).unwrap()).unwrap();
    let out = submit_cli(&server, &alice, &[packed.to_str().unwrap(), "--wait"]);
    assert_eq!(out.status.code(), Some(1), "{}", support::stderr(&out));
    assert_eq!(support::stderr(&out), "", "nothing loaded here, nothing to note");
    assert_eq!(stdout(&out).lines().last().unwrap(), format!("submission 1: failed: {wrong}"));
    let (_, failed) = get(&server, "/api/submissions/1", Some(&alice));
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"], wrong, "{failed}");
    // ... and `--follow` prints it, failing.
    let out = submit_cli(&server, &alice, &["--follow", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", support::stderr(&out));
    assert_eq!(stdout(&out), format!("submission 1: failed: {wrong}\n"));

    // One that does not load here is sent, with a note: the server's
    // check says why it fails.
    let broken = folder(data.path(), "broken", &[("PlayerAI.py", "class PlayerAI(:\n")]);
    let out = submit_cli(&server, &alice, &[broken.to_str().unwrap()]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let told = support::stderr(&out);
    assert!(
        told.starts_with("note: the player's game is not checked here, as it does not load here (")
            && told.contains("syntax error")
            && told.lines().nth(1).unwrap().starts_with("follow it with: arena submit --follow 2 "),
        "{told}"
    );

    // A player of the assignment's game goes through the same check.
    let intuitive = support::workspace_root().join("players/python/examples/native/intuitive_cautious.py");
    let solo = dir_with(&intuitive);
    let out = submit_cli(&server, &alice, &[solo.path().join("intuitive").to_str().unwrap(), "--wait"]);
    assert!(out.status.success(), "{}\n{}", stdout(&out), support::stderr(&out));
    assert!(stdout(&out).lines().last().unwrap().contains("done: easy "), "{}", stdout(&out));
}

/// A folder `intuitive` holding a copy of the player file `file`.
fn dir_with(file: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("intuitive");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(file, folder.join(file.file_name().unwrap())).unwrap();
    dir
}
