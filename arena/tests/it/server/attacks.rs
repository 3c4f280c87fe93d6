//! What a student can do to the server (docs/security.md, "The server"):
//! bodies sent a byte a second or far over the limit (announced or
//! chunked), slow and idle connections, bodies without a valid token,
//! probing for which groups exist, a tar bomb, uploads raced past the
//! hourly limit, a player reaching for the server's environment; a fault
//! of the server's own must not tell the client its insides, and every
//! answer carries the security headers.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::Path,
    process::{Command, Stdio},
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use serde_json::{json, Value};

use super::{add_student, agent, answer, finished, get, post_json, submit, wait_for, Server};
use crate::support::{self, arena, library, stdout};

/// One assignment of Trap, graded on 2 games against Easy: a submission is
/// graded in moments.
const QUICK_COURSE: &str = r#"
name = "quick"

[[assignment]]
name = "project"
game = "trap"
[assignment.grading]
levels = ["easy"]
games = 2
wins_to_pass = [1]
"#;

/// The largest JSON body the server reads (`http::JSON_BODY_LIMIT`).
const JSON_LIMIT: usize = 16 * 1024;

/// An agent that gives up after 20 s (a server held by an attack must fail
/// the test, not hang it).
fn patient_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(20)))
        .build()
        .into()
}

/// A connection to `server` on which `head` (a request's line and headers,
/// each ending in CRLF, without the blank line) was sent.
fn send_head(server: &Server, head: &str) -> TcpStream {
    let mut stream = TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(b"\r\n").unwrap();
    stream
}

/// What the server answered on `stream`, read until it closed it (or
/// `within` passed): the status, the headers (lowercase) and the JSON body.
fn raw_answer(stream: &mut TcpStream, within: Duration) -> (u16, String, Value) {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut bytes = Vec::new();
    // A reset once the answer is in (the server closes with our unread
    // bytes in its buffer) ends the read, keeping what came.
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer: {text:?}"));
    let status =
        head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{head}"));
    let body = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {text}"));
    (status, head.to_ascii_lowercase(), body)
}

/// The `error` of a JSON answer.
fn error_of(body: &Value) -> &str {
    body["error"].as_str().unwrap_or_else(|| panic!("no error in {body}"))
}

#[test]
fn bodies_sent_a_byte_a_second_get_408_and_cannot_hold_the_server() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(
        data.path(),
        &["--body-timeout", "2s", "--max-connections", "4", "--round-robin", "off"],
    );
    // As many challenges as the server takes connections, each sending its
    // body a byte a second.
    let head = format!(
        "POST /api/scrimmages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: application/json\r\nContent-Length: 1000\r\n"
    );
    let mut slow: Vec<TcpStream> = (0..4).map(|_| send_head(&server, &head)).collect();
    let mut senders: Vec<TcpStream> = slow.iter().map(|s| s.try_clone().unwrap()).collect();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Stopped however this ends, a failed assertion included.
        let _stop = support::OnDrop(|| stop.store(true, Ordering::Relaxed));
        scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                for sender in &mut senders {
                    let _ = sender.write_all(b" ");
                }
                std::thread::sleep(Duration::from_secs(1));
            }
        });
        std::thread::sleep(Duration::from_millis(500));
        // A new client waits at most one body timeout for a connection.
        let started = Instant::now();
        let (code, _) = answer(patient_agent().get(format!("{}/api/assignments", server.url)).call());
        let waited = started.elapsed();
        assert_eq!(code, 200);
        // It did wait (the four held every connection), but not for long.
        assert!(waited > Duration::from_secs(1), "a new client waited {waited:?}: the attack did not hold");
        assert!(waited < Duration::from_secs(5), "a new client waited {waited:?}");
        for stream in &mut slow {
            let (code, head, body) = raw_answer(stream, Duration::from_secs(10));
            assert_eq!(code, 408, "{body}");
            assert!(error_of(&body).contains("within 2 s"), "{body}");
            assert!(head.contains("connection: close"), "{head}");
        }
        stop.store(true, Ordering::Relaxed);
    });
}

#[test]
fn json_bodies_over_the_limit_get_413_before_they_are_read() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let staff = {
        let out =
            arena(&["serve", "add-student", "boss", "--staff", "--data", data.path().to_str().unwrap()], &[]);
        assert!(out.status.success(), "{}", support::stderr(&out));
        stdout(&out).trim().to_string()
    };
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    assert_eq!(get(&server, "/api/scrimmages", Some(&alice)).0, 200);
    let before = peak_memory(server.child.id());

    // 64 MiB announced: refused at once, without the token's lookup or a
    // byte of the body read, on every JSON route.
    for (path, token) in [("/api/scrimmages", &alice), ("/api/staff/deadline", &staff)] {
        let started = Instant::now();
        let mut stream = send_head(
            &server,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n",
                64 << 20
            ),
        );
        let _ = stream.write_all(&[b' '; 4096]);
        let (code, head, body) = raw_answer(&mut stream, Duration::from_secs(10));
        assert_eq!(code, 413, "{path}: {body}");
        assert!(error_of(&body).contains(&format!("({JSON_LIMIT} bytes)")), "{body}");
        assert!(head.contains("connection: close"), "{head}");
        assert!(started.elapsed() < Duration::from_secs(2), "{path}: {:?}", started.elapsed());
    }

    // 64 MiB sent chunked (no length to refuse): cut where it passes the
    // limit, refused in the API's words, whichever way the route reads it.
    for (path, token) in [("/api/scrimmages", &alice), ("/api/staff/league", &staff)] {
        let mut stream = send_head(
            &server,
            &format!(
                "POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\
                 Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            ),
        );
        let mut sender = stream.try_clone().unwrap();
        let sending = std::thread::spawn(move || {
            let mut chunk = format!("{:x}\r\n{{\"opponent\": \"", 64 << 10).into_bytes();
            chunk.resize(chunk.len() + (64 << 10) - 14, b'a');
            chunk.extend_from_slice(b"\r\n");
            for _ in 0..1024 {
                if sender.write_all(&chunk).is_err() {
                    return;
                }
            }
        });
        let (code, head, body) = raw_answer(&mut stream, Duration::from_secs(10));
        assert_eq!(code, 413, "{path}: {body}");
        assert!(error_of(&body).contains(&format!("({JSON_LIMIT} bytes)")), "{body}");
        assert!(head.contains("content-type: application/json"), "{head}");
        drop(stream);
        sending.join().unwrap();
    }
    let grew = peak_memory(server.child.id()).saturating_sub(before);
    assert!(grew < 32 << 20, "the server grew by {} MiB", grew >> 20);
    // Still serving.
    assert_eq!(get(&server, "/api/scrimmages", Some(&alice)).0, 200);
}

/// `arena serve add-student NAME` with the quick course's data folder;
/// the server with it and `alice`'s token, her Easy submission graded.
fn quick_course_with_a_graded_alice(data: &Path) -> (Server, String) {
    let course = support::write_file(data, "course.toml", QUICK_COURSE);
    let alice = add_student(data, "alice");
    let server = Server::start(data, &["--course", course.to_str().unwrap(), "--round-robin", "off"]);
    let (code, accepted) =
        super::submit(&server, Some(&alice), "file", &std::fs::read(library("easy")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let graded = wait_for(&server, &alice, accepted["id"].as_i64().unwrap(), finished);
    assert_eq!(graded["status"], "done", "{graded}");
    (server, alice)
}

#[test]
fn no_such_group_and_a_group_with_nothing_graded_answer_alike_and_every_challenge_counts() {
    let data = tempfile::tempdir().unwrap();
    let bob = add_student(data.path(), "bob");
    let (server, alice) = quick_course_with_a_graded_alice(data.path());
    let challenge =
        |opponent: &str| post_json(&server, "/api/scrimmages", &alice, &json!({ "opponent": opponent }));

    // bob is a group with nothing graded; nobody is none at all.
    let (bob_code, bob_answer) = challenge("bob");
    let (nobody_code, nobody_answer) = challenge("nobody");
    assert_eq!((bob_code, nobody_code), (404, 404), "{bob_answer} {nobody_answer}");
    assert_eq!(error_of(&bob_answer), "no group named 'bob' has a graded submission for project");
    assert_eq!(error_of(&nobody_answer), error_of(&bob_answer).replace("'bob'", "'nobody'"));

    // A body that is not JSON counts too: four refused, so the fifth is
    // refused before its body is read, whatever it says.
    let bad = answer(
        patient_agent()
            .post(format!("{}/api/scrimmages", server.url))
            .header("Content-Type", "application/json")
            .header("Authorization", format!("Bearer {alice}"))
            .send(&b"{not json"[..]),
    );
    assert_eq!(bad.0, 400, "{}", bad.1);
    assert_eq!(challenge("nobody-else").0, 404);
    let (code, over) = challenge("bob");
    assert_eq!(code, 429, "{over}");
    assert!(error_of(&over).contains("4 challenges in the last hour, refused ones too"), "{over}");

    // Refused challenges are no one's scrimmages.
    for token in [&alice, &bob] {
        let (code, mine) = get(&server, "/api/scrimmages", Some(token));
        assert_eq!(code, 200, "{mine}");
        assert_eq!(mine["scrimmages"], json!([]), "{mine}");
    }
    // The count is in the database: a restart does not reset it.
    drop(server);
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let (code, over) = post_json(&server, "/api/scrimmages", &alice, &json!({ "opponent": "bob" }));
    assert_eq!(code, 429, "{over}");
}

#[test]
fn a_fault_of_the_servers_tells_the_client_an_id_and_the_log_what_went_wrong() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let log_path = data.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Server::start_logging(data.path(), &["--round-robin", "off"], &[], Stdio::from(log));
    assert_eq!(get(&server, "/api/scrimmages", Some(&alice)).0, 200);
    // The database fails to record a challenge, in words that name its insides.
    const DETAIL: &str = "disk I/O error at /srv/arena-secret/arena.db";
    let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
    db.execute_batch(&format!(
        "CREATE TRIGGER broken BEFORE INSERT ON challenges BEGIN SELECT RAISE(ABORT, '{DETAIL}'); END;"
    ))
    .unwrap();

    let (code, body) = post_json(&server, "/api/scrimmages", &alice, &json!({ "opponent": "bob" }));
    assert_eq!(code, 500, "{body}");
    let error = error_of(&body);
    let id = error
        .strip_prefix("internal error (logged as #")
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{body}"));
    assert!(id.len() == 8 && id.chars().all(|c| c.is_ascii_hexdigit()), "{body}");
    assert!(!body.to_string().contains("arena-secret"), "{body}");

    // The log has the id and what went wrong.
    let started = Instant::now();
    loop {
        let logged = std::fs::read_to_string(&log_path).unwrap();
        if let Some(line) = logged.lines().find(|l| l.contains(&format!("#{id}"))) {
            assert!(line.contains(DETAIL), "{line}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "#{id} not in the log: {logged}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Another fault, another id.
    let (code, again) = post_json(&server, "/api/scrimmages", &alice, &json!({ "opponent": "bob" }));
    assert_eq!(code, 500, "{again}");
    assert_ne!(error_of(&again), error, "{again}");
}

/// A Python course player (a .tar.gz of its folder) whose every move
/// raises an exception carrying the player's whole environment and HTML.
fn environment_thief() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("thief");
    std::fs::create_dir(&folder).unwrap();
    support::write_file(
        &folder,
        "PlayerAI.py",
        "import os\nfrom BaseAI import BaseAI\n\n\
         class PlayerAI(BaseAI):\n\
         \x20   def setPlayerNum(self, num):\n\
         \x20       self.num = num\n\
         \x20   def getMove(self, grid):\n\
         \x20       raise RuntimeError('<img src=x onerror=alert(1)>' + repr(dict(os.environ)))\n\
         \x20   def getTrap(self, grid):\n\
         \x20       raise RuntimeError(repr(dict(os.environ)))\n",
    );
    arena_server::client::pack(&folder).unwrap()
}

/// The peak resident memory of process `pid` (VmHWM), in bytes.
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib << 10
}

#[test]
fn the_servers_environment_never_reaches_a_student_and_player_text_stays_private() {
    const SECRET: &str = "s3cret-value-of-the-server-7c1e";
    let data = tempfile::tempdir().unwrap();
    let mallory = add_student(data.path(), "mallory");
    let server =
        Server::start_in(data.path(), &[], &[("ARENA_TEST_SECRET", SECRET), ("ARENA_TOKEN", SECRET)]);

    let (code, accepted) = submit(&server, Some(&mallory), "file", &environment_thief());
    assert_eq!(code, 201, "{accepted}");
    let failed = wait_for(&server, &mallory, 1, finished);
    assert_eq!(failed["status"], "failed", "{failed}");
    let error = failed["error"].as_str().unwrap();
    // Its owner sees its words (it is their own player), cut to a bound,
    // and nothing of the server's environment is in them.
    assert!(error.contains("RuntimeError"), "{error}");
    assert!(!error.contains(SECRET), "the server's environment reached the player: {error}");
    assert!(error.chars().count() <= arena_server::http::views::OWNER_TEXT + 40, "{}", error.len());

    // A graded submission whose lost games carry a player's words (as a
    // grade stores them): the public sees none of them, its owner does.
    let easy = std::fs::read(library("easy")).unwrap();
    let (code, _) = submit(&server, Some(&mallory), "file", &easy);
    assert_eq!(code, 201);
    let graded = wait_for(&server, &mallory, 2, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    let words = format!("crashed: RuntimeError: <script>alert('{SECRET}')</script>");
    server.kill();
    {
        let db = rusqlite::Connection::open(data.path().join("arena.db")).unwrap();
        let mut grade = graded["grade"].clone();
        let level = &mut grade["levels"][2];
        level["lost"] = serde_json::json!([{ "index": 29, "seed": 1, "seat": 2, "reason": words }]);
        db.execute("UPDATE submissions SET grade = ?1 WHERE id = 2", [grade.to_string()]).unwrap();
    }
    // The leaderboard is built from the database as the server starts.
    let server = Server::start_in(data.path(), &["--round-robin", "off"], &[]);
    let (code, board) = get(&server, "/api/leaderboard", None);
    assert_eq!(code, 200);
    let public = board.to_string();
    assert!(
        !public.contains(SECRET) && !public.contains("RuntimeError") && !public.contains("<script"),
        "{public}"
    );
    assert_eq!(board["groups"][0]["grade"]["levels"][2]["level"], "hard", "{board}");
    assert!(board["groups"][0]["grade"]["levels"][2]["wins"].is_number(), "{board}");
    let (_, own) = get(&server, "/api/submissions/2", Some(&mallory));
    assert_eq!(own["grade"]["levels"][2]["lost"][0]["reason"], words.as_str());
}

#[test]
fn a_tar_with_a_gigabyte_long_name_is_refused_in_little_memory_and_counts_against_the_limit() {
    use std::io::Write;
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "2"]);

    // A GNU long-name entry of 1 GiB (zeros after a name): about 1 MiB gzipped.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut header = tar::Header::new_gnu();
    header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
    header.set_entry_type(tar::EntryType::GNULongName);
    header.set_size(1 << 30);
    header.set_mode(0o644);
    header.set_cksum();
    gz.write_all(header.as_bytes()).unwrap();
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..1024 {
        gz.write_all(&zeros).unwrap();
    }
    let bomb = gz.finish().unwrap();
    assert!(bomb.len() < 8 << 20, "{}", bomb.len());

    let (code, body) = submit(&server, Some(&alice), "file", &bomb);
    assert_eq!(code, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("over 4 KiB"), "{body}");
    let peak = peak_memory(server.child.id());
    assert!(peak < 256 << 20, "the server's peak memory: {} MiB", peak >> 20);

    // Refused uploads count: one more is allowed, then 429.
    assert_eq!(submit(&server, Some(&alice), "file", b"not a library at all, nor an archive").0, 400);
    let (code, body) = submit(&server, Some(&alice), "file", &bomb);
    assert_eq!(code, 429, "{body}");
    let (_, mine) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(mine["uploads"]["left"], 0, "{mine}");
}

#[test]
fn uploads_sent_at_once_cannot_pass_the_hourly_limit_together() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--per-hour", "3", "--round-robin", "off"]);
    let easy = std::fs::read(library("easy")).unwrap();
    let codes: Vec<u16> = std::thread::scope(|scope| {
        let sent: Vec<_> =
            (0..8).map(|_| scope.spawn(|| submit(&server, Some(&alice), "file", &easy).0)).collect();
        sent.into_iter().map(|s| s.join().unwrap()).collect()
    });
    assert_eq!(codes.iter().filter(|&&c| c == 201).count(), 3, "{codes:?}");
    assert_eq!(codes.iter().filter(|&&c| c == 429).count(), 5, "{codes:?}");
}

/// Whether the server closed `stream` (a read gives end of file or an error
/// within `within`).
fn closed_by_server(stream: &mut std::net::TcpStream, within: Duration) -> bool {
    use std::io::Read;
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn slow_and_idle_connections_are_closed_and_cannot_exhaust_the_servers_descriptors() {
    use std::{io::Write, net::TcpStream, os::unix::process::CommandExt};
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    // 256 descriptors, as in the attack.
    let mut command = Command::new(env!("CARGO_BIN_EXE_arena"));
    command
        .args(["serve", "--data", data.path().to_str().unwrap(), "--listen", "127.0.0.1:0"])
        .args(["--header-timeout", "1s", "--body-timeout", "2s", "--round-robin", "off"])
        .stdout(Stdio::piped());
    // SAFETY: setrlimit only, between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit { rlim_cur: 256, rlim_max: 256 };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().to_string();
    let server = Server { child, url };
    let address = server.url.trim_start_matches("http://").to_string();

    // Headers never finished, and connections that send nothing.
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(&address).unwrap();
            s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
            s
        })
        .collect();
    let mut idle: Vec<TcpStream> = (0..300).map(|_| TcpStream::connect(&address).unwrap()).collect();
    // The server is still reachable (within a few header timeouts).
    let started = Instant::now();
    let (code, _) = get(&server, "/api/submissions", Some(&alice));
    assert_eq!(code, 200);
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    for stream in slow.iter_mut().chain(idle.iter_mut().take(20)) {
        assert!(closed_by_server(stream, Duration::from_secs(10)), "a connection left open");
    }

    // A body never finished: 408 once the body timeout is over.
    let mut upload = TcpStream::connect(&address).unwrap();
    write!(
        upload,
        "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    upload.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = std::io::Read::read_to_string(&mut upload, &mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[test]
fn a_request_without_a_valid_token_is_refused_before_its_body_is_read() {
    use std::{
        io::{Read, Write},
        net::TcpStream,
    };
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path(), &[]);
    let address = server.url.trim_start_matches("http://").to_string();
    let before = peak_memory(server.child.id());
    // Three 60 MiB uploads announced; a little of each sent.
    let mut streams: Vec<TcpStream> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(&address).unwrap();
            write!(
                s,
                "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nope\r\n\
                 Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {}\r\n\r\n",
                60 << 20
            )
            .unwrap();
            s.write_all(&[b'x'; 4096]).unwrap();
            s
        })
        .collect();
    for stream in &mut streams {
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut answer = vec![0u8; 4096];
        let n = stream.read(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer[..n]);
        assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
        assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer}");
        assert!(closed_by_server(stream, Duration::from_secs(5)));
    }
    let grew = peak_memory(server.child.id()).saturating_sub(before);
    assert!(grew < 32 << 20, "the server grew by {} MiB", grew >> 20);
}

#[test]
fn every_answer_carries_the_security_headers() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &[]);
    let headers = |path: &str, token: Option<&str>| {
        let mut request = agent().get(format!("{}{path}", server.url));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        let response = request.call().unwrap();
        let get = |name: &str| {
            response.headers().get(name).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default()
        };
        (get("content-security-policy"), get("x-content-type-options"), get("cache-control"))
    };
    for page in ["/", "/me", "/staff"] {
        let (policy, sniff, _) = headers(page, None);
        assert!(policy.contains("script-src 'self' 'sha256-"), "{page}: {policy}");
        assert!(!policy.contains("script-src 'self' 'unsafe-inline'"), "{page}: {policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{page}: {policy}");
        assert_eq!(sniff, "nosniff");
    }
    let (policy, sniff, cache) = headers("/api/submissions", Some(&alice));
    assert_eq!(policy, "default-src 'none'; frame-ancestors 'none'");
    assert_eq!((sniff.as_str(), cache.as_str()), ("nosniff", "no-store"));
    let (_, _, cache) = headers("/api/leaderboard", None);
    assert_eq!(cache, "no-cache");
    // The pages hold no inline script: each script is the server's own file.
    let (_, page) = {
        let mut response = agent().get(format!("{}/me", server.url)).call().unwrap();
        (response.status(), response.body_mut().read_to_string().unwrap())
    };
    assert!(!page.contains("<script>"), "{page}");
}

/// One client opening every live feed it can (a game of its own grading,
/// with its token, reopened as each is refused) holds its share of the
/// connections and no more: past it each feed is refused at once (`429`,
/// the connection closed), and meanwhile another client's page, list and
/// upload are answered at once.
#[test]
fn a_client_holding_live_feeds_holds_its_share_and_the_others_are_served() {
    let data = tempfile::tempdir().unwrap();
    let (alice, bob) = (add_student(data.path(), "alice"), add_student(data.path(), "bob"));
    // Slow moves (0.7 s of sleep each, which the CPU clock does not
    // charge): a grading game lasts seconds, its feed open meanwhile.
    let slow = [("BAD_PLAYER_MODE", "sleep"), ("BAD_PLAYER_SLEEP_MS", "700")];
    let args = ["--round-robin", "off", "--max-connections", "24", "--streams-per-client", "3"];
    let server = Server::start_with(data.path(), &args, &slow);
    let (code, accepted) =
        submit(&server, Some(&alice), "file", &std::fs::read(library("bad-player")).unwrap());
    assert_eq!(code, 201, "{accepted}");
    let started = Instant::now();
    let game = loop {
        let (_, list) = get(&server, "/api/live", Some(&alice));
        let playing = list["games"].as_array().and_then(|g| g.iter().find(|g| g["ended"] == false).cloned());
        if let Some(game) = playing {
            break game;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no game in progress: {list}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let address = server.url.trim_start_matches("http://").to_string();
    let open_feed = || {
        let mut stream = TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET /api/live/{}/feed HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {alice}\r\n\r\n",
            game["id"]
        )
        .unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
            head.push(byte[0]);
        }
        (String::from_utf8_lossy(&head).to_string(), stream)
    };
    let mut held = Vec::new();
    let mut refused = 0;
    // More than the server's connections: without a share per client, the
    // last of these would wait in the kernel's queue, and so would everyone.
    for _ in 0..30 {
        let (status, mut stream) = open_feed();
        match status.split_whitespace().nth(1) {
            Some("200") => held.push(stream),
            Some("429") => {
                refused += 1;
                assert!(
                    closed_by_server(&mut stream, Duration::from_secs(3)),
                    "a refused feed's connection left open"
                );
            }
            _ => panic!("a feed answered {status:?}"),
        }
    }
    assert_eq!((held.len(), refused), (3, 27), "three feeds held, the rest refused");
    // The attacker keeps asking while another client is served (a feed
    // it gets, once a held one's game ended, it drops at once).
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // Stopped however this ends: a failed assertion below must not leave
        // the scope waiting forever for a hammer that never stops.
        let _stop = support::OnDrop(|| stop.store(true, Ordering::Relaxed));
        let hammer = scope.spawn(|| {
            let mut refused = 0;
            while !stop.load(Ordering::Relaxed) {
                let (status, _) = open_feed();
                assert!(status.contains(" 429 ") || status.contains(" 200 "), "{status:?}");
                refused += usize::from(status.contains(" 429 "));
            }
            refused
        });
        for _ in 0..3 {
            let timed = Instant::now();
            let page = agent().get(format!("{}/", server.url)).call().unwrap();
            assert_eq!(page.status().as_u16(), 200);
            let (code, _) = get(&server, "/api/submissions", Some(&bob));
            assert_eq!(code, 200);
            let (code, upload) =
                submit(&server, Some(&bob), "file", &std::fs::read(library("easy")).unwrap());
            assert_eq!(code, 201, "{upload}");
            // Well under a second idle; 5 s allowed, as the rest of the
            // suite (busy loops, builds) loads the machine beside it. Queued
            // behind the feeds, these would wait as long as the attacker
            // asks: until `stop`, never.
            assert!(
                timed.elapsed() < Duration::from_secs(5),
                "served in {:?} beside the feeds",
                timed.elapsed()
            );
        }
        stop.store(true, Ordering::Relaxed);
        assert!(hammer.join().unwrap() > 0, "the attacker was refused while it held its share");
    });
    drop(held);
}
