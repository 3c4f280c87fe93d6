//! The server as a university VM runs it (docs/deploy.md): over HTTPS with
//! its own certificate (`--tls-cert`, `--tls-key`; `arena submit --ca`),
//! behind a reverse proxy (`--trust-proxy`; a real nginx when installed),
//! stopped by systemd (SIGTERM: nothing lost, nothing played twice), and
//! the systemd unit of `deploy/`.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::Stdio,
    time::{Duration, Instant},
};

use super::{add_student, finished, submit, wait_for, Server, SLOW};
use crate::support::{self, arena, library, stdout};

/// A self-signed certificate for localhost and 127.0.0.1, and its key, as
/// PEM files in `dir` (`NAME.pem`, `NAME.key`).
fn self_signed(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .expect("a certificate is made");
    let cert = support::write_file(dir, &format!("{name}.pem"), &made.cert.pem());
    let key = support::write_file(dir, &format!("{name}.key"), &made.signing_key.serialize_pem());
    (cert, key)
}

/// The one line of a failed command's error output.
fn one_error_line(out: &std::process::Output) -> String {
    assert!(!out.status.success(), "{}", stdout(out));
    let error = support::stderr(out);
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    error.trim().to_string()
}

#[test]
fn a_server_over_tls_grades_a_submission_sent_with_its_ca_and_refuses_plain_http() {
    let data = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(data.path(), "server");
    let alice = add_student(data.path(), "alice");
    let tls = ["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()];
    let server =
        Server::start(data.path(), &[&tls[..], &["--round-robin", "off", "--header-timeout", "1s"]].concat());
    assert!(server.url.starts_with("https://127.0.0.1:"), "{}", server.url);
    let easy = library("easy");
    let send = |url: &str, extra: &[&str]| {
        let mut args = vec!["submit", easy.to_str().unwrap(), "--server", url, "--token", &alice];
        args.extend_from_slice(extra);
        arena(&args, &[])
    };

    // Trusting the certificate: sent, graded, followed.
    let out = send(&server.url, &["--ca", cert.to_str().unwrap(), "--wait"]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("submission 1: "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("submission 1: done: "), "{text}");

    // The system's roots do not hold a self-signed certificate: one line says what to do.
    let error = one_error_line(&send(&server.url, &[]));
    assert!(error.contains("--ca FILE"), "{error}");
    // Another certificate given as the CA: refused, the file named.
    let (other, _) = self_signed(data.path(), "other");
    let error = one_error_line(&send(&server.url, &["--ca", other.to_str().unwrap()]));
    assert!(error.contains("its certificate is not signed by the one in"), "{error}");
    assert!(error.contains("other.pem"), "{error}");
    // A CA file that holds none, or is missing: named.
    let junk = support::write_file(data.path(), "junk.pem", "not a certificate\n");
    let error = one_error_line(&send(&server.url, &["--ca", junk.to_str().unwrap()]));
    assert!(error.contains("junk.pem holds no PEM certificate"), "{error}");
    let error = one_error_line(&send(&server.url, &["--ca", "/nonexistent/ca.pem"]));
    assert!(error.contains("cannot read the CA file /nonexistent/ca.pem"), "{error}");

    // Plain HTTP to the HTTPS port: refused, and the student told to use https.
    let plain = server.url.replace("https://", "http://");
    let error = one_error_line(&send(&plain, &[]));
    assert!(error.contains("use https://"), "{error}");
    // Nothing was counted but the one submission.
    let client = arena_server::client::Client::with_ca(&server.url, &alice, &cert).unwrap();
    let mine = client.submissions().unwrap();
    assert_eq!(mine["submissions"].as_array().unwrap().len(), 1, "{mine}");

    // A client that connects and never finishes its handshake is let go
    // after the headers' time (1 s here): it holds no connection's slot.
    let address = server.url.trim_start_matches("https://");
    let mut idle = std::net::TcpStream::connect(address).unwrap();
    idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 64];
    let read = idle.read(&mut buf);
    assert!(matches!(read, Ok(0)) || read.is_err(), "{read:?}");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(800) && waited < Duration::from_secs(8), "{waited:?}");
}

#[test]
fn a_self_signed_certificate_made_as_a_ca_is_named_as_the_fault() {
    // What `openssl req -x509` makes by default: basicConstraints CA:TRUE,
    // which no TLS client takes as a server's.
    let data = tempfile::tempdir().unwrap();
    let mut params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let cert = support::write_file(data.path(), "ca.pem", &cert.pem());
    let key = support::write_file(data.path(), "ca.key", &key.serialize_pem());
    let alice = add_student(data.path(), "alice");
    let server = Server::start(
        data.path(),
        &["--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()],
    );
    let out = arena(
        &["submit", "status", "--server", &server.url, "--token", &alice, "--ca", cert.to_str().unwrap()],
        &[],
    );
    let error = one_error_line(&out);
    assert!(error.contains("basicConstraints CA:TRUE"), "{error}");
    assert!(error.contains("CA:FALSE (docs/deploy.md)"), "{error}");
}

#[test]
fn a_bad_certificate_or_key_is_one_line_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(dir.path(), "server");
    let (_, other_key) = self_signed(dir.path(), "other");
    let junk = support::write_file(dir.path(), "junk.pem", "hello\n");
    let data = dir.path().join("data");
    let serve = |cert: &Path, key: &Path| {
        arena(
            &[
                "serve",
                "--data",
                data.to_str().unwrap(),
                "--listen",
                "127.0.0.1:0",
                "--tls-cert",
                cert.to_str().unwrap(),
                "--tls-key",
                key.to_str().unwrap(),
            ],
            &[],
        )
    };
    let missing = dir.path().join("missing.pem");
    let cases: [(&Path, &Path, &[&str]); 5] = [
        (&missing, &key, &["cannot read the TLS certificate", "missing.pem", "--tls-cert"]),
        (&cert, &missing, &["cannot read the TLS key", "missing.pem", "--tls-key"]),
        (&junk, &key, &["junk.pem holds no PEM certificate", "fullchain.pem"]),
        (&cert, &junk, &["junk.pem holds no PEM private key", "privkey.pem"]),
        (&cert, &other_key, &["other.key does not go with the certificate", "server.pem", "--tls-key"]),
    ];
    for (cert, key, words) in cases {
        let error = one_error_line(&serve(cert, key));
        for word in words {
            assert!(error.contains(word), "{word}: {error}");
        }
    }
    // One without the other: clap says which is missing.
    let out = arena(&["serve", "--tls-cert", cert.to_str().unwrap(), "--data", data.to_str().unwrap()], &[]);
    assert!(!out.status.success());
    assert!(support::stderr(&out).contains("--tls-key"), "{}", support::stderr(&out));
}

/// Sends SIGTERM to `server` and waits (up to a minute) for it to exit.
fn terminate(mut server: Server) -> std::process::ExitStatus {
    let pid = server.child.id() as libc::pid_t;
    // SAFETY: a signal to the child this test started (and has not reaped).
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let started = Instant::now();
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            return status;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "still running a minute after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_server_stopped_by_sigterm_mid_grading_exits_0_and_the_restart_plays_no_game_twice() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let slow = std::fs::read(library("bad-player")).unwrap();
    let log_path = data.path().join("server.log");
    let passed: Vec<&str> = SLOW.iter().flat_map(|(name, _)| ["--pass-env", *name]).collect();
    let start = || {
        let log = std::fs::OpenOptions::new().create(true).append(true).open(&log_path).unwrap();
        let env = [&SLOW[..], &[("RUST_LOG", "warn")]].concat();
        Server::start_logging(data.path(), &passed, &env, Stdio::from(log))
    };
    let server = start();
    let (code, accepted) = submit(&server, Some(&alice), "file", &slow);
    assert_eq!(code, 201, "{accepted}");
    let id = accepted["id"].as_i64().unwrap();
    let playing = wait_for(&server, &alice, id, |s| s["played"].as_i64().unwrap() > 0 || finished(s));
    assert_eq!(playing["status"], "playing", "stopped mid-grading: {playing}");
    let status = terminate(server);
    assert!(status.success(), "{status:?}");
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.contains("SIGTERM: stopping"), "{log}");
    assert!(log.contains("stopped"), "{log}");

    let server = start();
    let graded = wait_for(&server, &alice, id, finished);
    assert_eq!(graded["status"], "done", "{graded}");
    assert_eq!(graded["played"], 30);
    // Every game journaled once: the stopped run was resumed, not doubled.
    let journal = support::journal_games(&data.path().join("runs").join(id.to_string()).join("out"));
    assert_eq!(journal.len(), 30, "stopped at {playing}");
    let indices: std::collections::BTreeSet<usize> = journal.iter().map(|g| g.index).collect();
    assert_eq!(indices.len(), 30);
}

#[test]
fn a_forwarded_address_is_the_client_only_with_trust_proxy() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let easy = std::fs::read(library("easy")).unwrap();
    // What the server logs of a request with a wrong token and of an
    // upload, each with `X-Forwarded-For: forwarded`.
    let logged = |extra: &[&str], forwarded: &str| {
        let log_path = data.path().join("server.log");
        let log = std::fs::File::create(&log_path).unwrap();
        let env = [("RUST_LOG", "warn,arena_server=info")];
        let server = Server::start_logging(
            data.path(),
            &[&["--round-robin", "off"], extra].concat(),
            &env,
            Stdio::from(log),
        );
        let response = super::agent()
            .get(format!("{}/api/submissions", server.url))
            .header("Authorization", "Bearer not-a-token")
            .header("X-Forwarded-For", forwarded)
            .call()
            .unwrap();
        assert_eq!(response.status(), 401);
        let (content_type, body) = arena_server::client::multipart("file", "libplayer.so", &easy);
        let response = super::agent()
            .post(format!("{}/api/submissions", server.url))
            .header("Authorization", format!("Bearer {alice}"))
            .header("Content-Type", content_type)
            .header("X-Forwarded-For", forwarded)
            .send(&body[..])
            .unwrap();
        assert_eq!(response.status(), 201);
        server.kill();
        std::fs::read_to_string(&log_path).unwrap()
    };

    // Without --trust-proxy a spoofed header changes nothing.
    let log = logged(&[], "203.0.113.7");
    assert!(log.contains("unknown token from 127.0.0.1: GET /api/submissions"), "{log}");
    assert!(log.contains("received from alice at 127.0.0.1"), "{log}");
    assert!(!log.contains("203.0.113.7"), "{log}");

    // With it, the address the proxy added last is the client.
    let log = logged(&["--trust-proxy"], "198.51.100.1, 203.0.113.7");
    assert!(log.contains("unknown token from 203.0.113.7: GET /api/submissions"), "{log}");
    assert!(log.contains("received from alice at 203.0.113.7"), "{log}");
    assert!(!log.contains("198.51.100.1"), "the client's own claim is not taken: {log}");
    // A header that names no address: the peer.
    let log = logged(&["--trust-proxy"], "unknown");
    assert!(log.contains("unknown token from 127.0.0.1"), "{log}");
}

#[test]
fn the_systemd_unit_verifies() {
    let unit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/arena.service");
    let text = std::fs::read_to_string(&unit).unwrap();
    for line in [
        "User=arena",
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/arena",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "Restart=on-failure",
        "KillSignal=SIGTERM",
        "KillMode=mixed",
        "EnvironmentFile=/etc/arena/arena.conf",
    ] {
        assert!(text.lines().any(|l| l.trim() == line), "{line} missing from {}", unit.display());
    }
    let Ok(probe) = std::process::Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("skipped: systemd-analyze is not installed, the unit is not verified");
        return;
    };
    assert!(probe.status.success());
    // Verified as installed: its ExecStart's program must exist, so the
    // unit is checked with this arena binary in /usr/bin's place.
    let dir = tempfile::tempdir().unwrap();
    let local = text.replace("/usr/bin/arena", env!("CARGO_BIN_EXE_arena"));
    let copy = dir.path().join("arena.service");
    std::fs::File::create(&copy).unwrap().write_all(local.as_bytes()).unwrap();
    let out = std::process::Command::new("systemd-analyze")
        .args(["verify", "--man=no"])
        .arg(&copy)
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // Only the unit's own words count (the host's other units may warn).
    let own: Vec<&str> = said.lines().filter(|l| l.contains("arena.service")).collect();
    assert!(out.status.success() && own.is_empty(), "{said}");
}

/// nginx, as installed (Debian's package puts it in /usr/sbin).
fn nginx() -> Option<PathBuf> {
    ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// A port free on loopback a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// An nginx started by the test, stopped when dropped.
struct Nginx(std::process::Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn behind_nginx_a_submission_is_graded_and_the_client_is_the_address_nginx_saw() {
    let Some(nginx) = nginx() else {
        assert!(
            std::env::var_os("ARENA_REQUIRE_NGINX").is_none(),
            "ARENA_REQUIRE_NGINX is set but nginx is not installed"
        );
        eprintln!("skipped: nginx is not installed (apt-get install nginx), the proxy test does not run");
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let (cert, key) = self_signed(data.path(), "proxy");
    let alice = add_student(data.path(), "alice");
    let log_path = data.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let env = [("RUST_LOG", "warn,arena_server=info")];
    let server = Server::start_logging(
        data.path(),
        &["--round-robin", "off", "--trust-proxy"],
        &env,
        Stdio::from(log),
    );
    let upstream = server.url.trim_start_matches("http://");

    // docs/deploy.md's server block, on a free port, in the test's folder.
    let prefix = data.path().join("nginx");
    std::fs::create_dir_all(&prefix).unwrap();
    let port = free_port();
    let p = prefix.display();
    let conf = format!(
        "daemon off;\nmaster_process off;\npid {p}/nginx.pid;\nerror_log {p}/error.log;\nevents {{}}\n\
         http {{\n  access_log off;\n  client_body_temp_path {p}/body;\n  proxy_temp_path {p}/proxy;\n\
         fastcgi_temp_path {p}/fastcgi;\n  uwsgi_temp_path {p}/uwsgi;\n  scgi_temp_path {p}/scgi;\n\
         server {{\n    listen 127.0.0.1:{port} ssl;\n    ssl_certificate {cert};\n    ssl_certificate_key {key};\n\
         client_max_body_size 65m;\n    proxy_read_timeout 300s;\n    proxy_send_timeout 300s;\n\
         location / {{\n      proxy_pass http://{upstream};\n      proxy_http_version 1.1;\n\
         proxy_set_header Host $host;\n      proxy_set_header X-Forwarded-For $remote_addr;\n\
         proxy_set_header X-Forwarded-Proto $scheme;\n    }}\n  }}\n}}\n",
        cert = cert.display(),
        key = key.display(),
    );
    let conf_path = support::write_file(&prefix, "nginx.conf", &conf);
    let _nginx = Nginx(
        std::process::Command::new(&nginx)
            .args([
                "-p",
                prefix.to_str().unwrap(),
                "-e",
                &format!("{p}/error.log"),
                "-c",
                conf_path.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx starts"),
    );
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        let errors = std::fs::read_to_string(prefix.join("error.log")).unwrap_or_default();
        assert!(started.elapsed() < Duration::from_secs(10), "nginx does not listen: {errors}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("https://127.0.0.1:{port}");

    // Through the proxy: sent, graded, followed.
    let easy = library("easy");
    let out = arena(
        &[
            "submit",
            easy.to_str().unwrap(),
            "--server",
            &url,
            "--token",
            &alice,
            "--ca",
            cert.to_str().unwrap(),
            "--wait",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", support::stderr(&out));
    assert!(stdout(&out).lines().last().unwrap().starts_with("submission 1: done: "), "{}", stdout(&out));

    // A header the client made up is replaced by the address nginx saw.
    let pem = std::fs::read(&cert).unwrap();
    let tls = ureq::tls::TlsConfig::builder()
        .root_certs(ureq::tls::RootCerts::new_with_certs(&[ureq::tls::Certificate::from_pem(&pem).unwrap()]))
        .build();
    let agent: ureq::Agent =
        ureq::Agent::config_builder().http_status_as_error(false).tls_config(tls).build().into();
    let response = agent
        .get(format!("{url}/api/submissions"))
        .header("Authorization", "Bearer not-a-token")
        .header("X-Forwarded-For", "203.0.113.7")
        .call()
        .unwrap();
    assert_eq!(response.status(), 401);
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(log.contains("received from alice at 127.0.0.1"), "{log}");
    assert!(log.contains("unknown token from 127.0.0.1: GET /api/submissions"), "{log}");
    assert!(!log.contains("203.0.113.7"), "{log}");
}

#[test]
fn a_request_under_way_at_sigterm_is_answered_and_no_new_connection_is_taken() {
    let data = tempfile::tempdir().unwrap();
    let alice = add_student(data.path(), "alice");
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let address = server.url.trim_start_matches("http://").to_string();
    let (content_type, body) =
        arena_server::client::multipart("file", "libplayer.so", &std::fs::read(library("easy")).unwrap());
    // An upload whose body is half sent when the server is told to stop.
    let mut upload = std::net::TcpStream::connect(&address).unwrap();
    write!(
        upload,
        "POST /api/submissions HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {alice}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let half = body.len() / 2;
    upload.write_all(&body[..half]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id() as libc::pid_t;
    // SAFETY: a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    // The listener closes at once: a new client is refused.
    let started = Instant::now();
    while std::net::TcpStream::connect(&address).is_ok() {
        assert!(started.elapsed() < Duration::from_secs(10), "{address} still accepts after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The upload under way is read to its end and accepted.
    upload.write_all(&body[half..]).unwrap();
    let mut answer = String::new();
    upload.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    upload.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    assert!(answer.contains("\"id\":1"), "{answer}");
    let status = terminate(server);
    assert!(status.success(), "{status:?}");
    // Restarted, the submission is there and graded.
    let server = Server::start(data.path(), &["--round-robin", "off"]);
    let graded = wait_for(&server, &alice, 1, finished);
    assert_eq!(graded["status"], "done", "{graded}");
}
