//! `arena bench-server`: the server under load on loopback. Many students
//! submit at once while others poll the leaderboard and its page; measured:
//! how long the uploads and the pages take while games are played, and how
//! many submissions are graded a minute (docs/benchmarks.md).

use std::{
    fmt::Write as _,
    path::PathBuf,
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::{bail, Context, Result};

use super::{accounts, client::Client, Options};

/// What to load the server with.
pub struct Load {
    /// The library every student submits.
    pub library: PathBuf,
    /// Students submitting at once (one submission each).
    pub submissions: usize,
    /// Clients polling the leaderboard (and its page) until all are graded.
    pub pollers: usize,
}

/// Runs the load on a fresh server (in this process, on a free loopback
/// port, its data in a temporary folder); the report.
pub fn run(load: &Load) -> Result<String> {
    let size = std::fs::metadata(&load.library)
        .with_context(|| {
            format!("cannot read {}: build it first (cargo build --release -p easy)", load.library.display())
        })?
        .len();
    let data = std::env::temp_dir().join(format!("arena-bench-server-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let tokens = (0..load.submissions)
        .map(|i| accounts::add(&data, &format!("student-{i:03}"), false))
        .collect::<Result<Vec<String>>>()?;
    let (sender, receiver) = std::sync::mpsc::channel();
    let options = Options {
        data: data.clone(),
        listen: "127.0.0.1:0".parse()?,
        max_upload: size + 1,
        per_hour: u32::MAX,
        // Measured: the grading; the round robin would go on after it.
        grading: super::grader::Grading { round_robin: false, ..Default::default() },
        http: super::http::Limits::default(),
    };
    std::thread::spawn(move || {
        let result = super::serve_then(options, |address, _| {
            let _ = sender.send(Ok(address));
        });
        if let Err(e) = result {
            let _ = sender.send(Err(e));
        }
    });
    let address = receiver.recv_timeout(Duration::from_secs(30)).context("the server did not start")??;
    let url = format!("http://{address}");

    let started = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let pages = Arc::new(Mutex::new((Vec::new(), Vec::new())));
    let pollers: Vec<_> = (0..load.pollers)
        .map(|_| {
            let (url, done, pages) = (url.clone(), done.clone(), pages.clone());
            std::thread::spawn(move || poll(&url, &done, &pages))
        })
        .collect();
    let uploads: Vec<_> = tokens
        .iter()
        .map(|token| {
            let (client, library) = (Client::new(&url, token), load.library.clone());
            std::thread::spawn(move || {
                let sent = Instant::now();
                let accepted = client.submit(&library)?;
                Ok::<_, anyhow::Error>((sent.elapsed(), accepted["id"].as_i64().unwrap_or_default(), client))
            })
        })
        .collect();
    let mut upload_times = Vec::new();
    let mut waiting = Vec::new();
    for upload in uploads {
        let (took, id, client) =
            upload.join().map_err(|_| anyhow::anyhow!("an upload thread panicked"))??;
        upload_times.push(took);
        waiting.push((id, client));
    }
    let accepted_after = started.elapsed();
    let mut failed = 0;
    for (id, client) in &waiting {
        loop {
            let submission = client.submission(*id)?;
            match submission["status"].as_str() {
                Some("done") => break,
                Some("failed") => {
                    failed += 1;
                    break;
                }
                _ => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }
    let graded_after = started.elapsed();
    done.store(true, Ordering::SeqCst);
    for poller in pollers {
        let _ = poller.join();
    }
    let _ = std::fs::remove_dir_all(&data);
    if failed > 0 {
        bail!(
            "{failed} of {} submissions failed their grading: is {} a working player?",
            load.submissions,
            load.library.display()
        );
    }

    let (leaderboard, page) = std::mem::take(&mut *pages.lock().unwrap_or_else(|e| e.into_inner()));
    let mut text = String::new();
    let _ = writeln!(
        text,
        "submissions server on loopback: {} students submit {} ({:.1} MB) at once; {} pollers read the leaderboard and its page until all are graded",
        load.submissions,
        load.library.file_name().unwrap_or_default().to_string_lossy(),
        size as f64 / 1e6,
        load.pollers
    );
    let _ = writeln!(
        text,
        "  uploads accepted:     {}  (all in {:.2} s)",
        percentiles(&mut upload_times),
        accepted_after.as_secs_f64()
    );
    let _ = writeln!(
        text,
        "  GET /api/leaderboard: {}  ({} requests)",
        percentiles(&mut leaderboard.clone()),
        leaderboard.len()
    );
    let _ = writeln!(
        text,
        "  GET / (the page):     {}  ({} requests)",
        percentiles(&mut page.clone()),
        page.len()
    );
    let minutes = graded_after.as_secs_f64() / 60.0;
    let _ = write!(
        text,
        "  graded {} submissions ({} games) in {:.1} s: {:.0} submissions/minute",
        load.submissions,
        load.submissions * 30,
        graded_after.as_secs_f64(),
        load.submissions as f64 / minutes
    );
    Ok(text)
}

/// Reads the leaderboard and its page in turn until `done`.
fn poll(url: &str, done: &AtomicBool, pages: &Mutex<(Vec<Duration>, Vec<Duration>)>) {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    while !done.load(Ordering::SeqCst) {
        for (path, page) in [("/api/leaderboard", false), ("/", true)] {
            let asked = Instant::now();
            let ok = agent
                .get(format!("{url}{path}"))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_to_string().ok())
                .is_some();
            let took = asked.elapsed();
            if ok {
                let mut pages = pages.lock().unwrap_or_else(|e| e.into_inner());
                if page {
                    pages.1.push(took)
                } else {
                    pages.0.push(took)
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// "p50 1.2 ms, p99 3.4 ms, max 5.6 ms".
fn percentiles(times: &mut [Duration]) -> String {
    if times.is_empty() {
        return "no requests".into();
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    format!("p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms", ms(at(0.5)), ms(at(0.99)), ms(times[times.len() - 1]))
}
