//! Headless Chromium for the tests that check pages in a real browser
//! (the replay viewer, the server's pages). Without Chromium such a test
//! prints a notice and passes, unless ARENA_REQUIRE_BROWSER=1 (set by
//! .ci/run, which installs it).

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

/// Where Chromium is: `ARENA_CHROMIUM` or /usr/bin/chromium.
pub fn chromium() -> Option<PathBuf> {
    let candidates =
        [std::env::var_os("ARENA_CHROMIUM").map(PathBuf::from), Some("/usr/bin/chromium".into())];
    let found = candidates.into_iter().flatten().find(|p| p.is_file());
    if found.is_none() {
        let required = std::env::var("ARENA_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "ARENA_REQUIRE_BROWSER=1 but no chromium at /usr/bin/chromium (or ARENA_CHROMIUM)"
        );
        eprintln!("notice: chromium not found: this browser test is skipped (apt-get install chromium)");
    }
    found
}

/// How the tests run Chromium: headless, as root, and quiet on a machine
/// without a network (without the background-networking flags it keeps
/// trying to reach Google's hosts).
pub const FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// Runs headless Chromium on `url` with `extra` flags; killed after 120 s.
/// Its output is read as it comes (a page's DOM is larger than a pipe
/// holds: unread, Chromium would wait on it for ever).
pub fn run_chromium(browser: &Path, extra: &[String], url: &str) -> Output {
    use std::io::Read;
    let profile = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = FLAGS.map(String::from).to_vec();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    args.extend(extra.iter().cloned());
    args.push(url.to_string());
    let mut child = Command::new(browser)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let drain = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = from.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }
}
