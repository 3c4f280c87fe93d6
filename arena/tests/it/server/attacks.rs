//! The HTTP layer against hostile clients: bodies sent a byte a second,
//! bodies far over the limit (announced or chunked), probing for which
//! groups exist, and a fault of the server's own that must not tell the
//! client its insides.

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::Path,
    process::Stdio,
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use serde_json::{json, Value};

use super::{add_student, answer, finished, get, peak_memory, post_json, wait_for, Server};
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
