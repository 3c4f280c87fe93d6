//! `arena measure server`: the server under load on loopback. Many students
//! submit at once while others poll the leaderboard and its page; measured:
//! how long the uploads and the pages take while games are played, and how
//! many submissions are graded a minute (docs/benchmarks.md). With
//! `--watchers N`, N pages watch games live from a process of their own
//! (`watchers.rs`), and the server's threads' CPU is told apart from the
//! bench's clients' (`cpu.rs`).

mod cpu;
pub mod watchers;

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

use crate::{client::Client, course::accounts, Options};

/// What to load the server with.
pub struct Load {
    /// The library every student submits.
    pub library: PathBuf,
    /// The class: students with a graded submission each before the run.
    pub students: usize,
    /// League games stored among them before the run (synthetic results).
    pub league_games: usize,
    /// Students who submit again at once during the run.
    pub submissions: usize,
    /// Open leaderboard pages, each polling as the page does (every 2 s,
    /// with the tag it has).
    pub pages: usize,
    /// The least time to measure for, in seconds.
    pub seconds: u64,
    /// Submissions graded at once (default: the server's).
    pub grading_slots: Option<usize>,
    /// The nice value of the server's games (`--games-nice`).
    pub games_nice: i32,
    /// The nice value of the server's pages (`--pages-nice`).
    pub pages_nice: i32,
    /// Busy loops run beside the server, in processes of their own.
    pub busy_loops: usize,
    /// Pages watching one game live (staff's: any game), each reading its
    /// feed to the end, then the next game's; in a process of their own.
    pub watchers: usize,
}

/// Request times, by what was asked.
#[derive(Default)]
struct Times {
    leaderboard: Vec<Duration>,
    page: Vec<Duration>,
    submission_api: Vec<Duration>,
    not_modified: usize,
}

/// Runs the load on a fresh server (in this process, on a free loopback
/// port, its data in a temporary folder); the report.
pub fn run(load: &Load) -> Result<String> {
    let library = std::fs::read(&load.library).with_context(|| {
        format!("cannot read {}: build it first (cargo build --release -p easy)", load.library.display())
    })?;
    // The server runs in this process until it exits, its threads writing
    // to its folder: the folder is removed by the next measurement, not
    // under the server's feet by this one.
    remove_stale_folders();
    let data = std::env::temp_dir().join(format!("{FOLDER_PREFIX}{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let preparing = Instant::now();
    let tokens = prepare_class(&data, &library, load.students, load.league_games)?;
    // The folder's secret before the server starts, as a server that
    // graded the class would have it: no warning of public grading seeds.
    crate::store::secret::Secret::of(&crate::store::db::open(&data)?)?;
    let staff = accounts::add(&data, "bench-staff", true, false)?;
    let prepared = preparing.elapsed();
    let (sender, receiver) = std::sync::mpsc::channel();
    let options = Options {
        course: Default::default(),
        course_text: None,
        data: data.clone(),
        listen: "127.0.0.1:0".parse()?,
        max_upload: library.len() as u64 + 1,
        per_hour: u32::MAX,
        grading: crate::work::grader::GraderOptions {
            slots: load.grading_slots.unwrap_or(crate::work::grader::GraderOptions::default().slots),
            games_nice: load.games_nice,
            ..Default::default()
        },
        http: crate::http::connections::Limits::default(),
        executor: Default::default(),
        cores: arena_core::play::cores::of_machine(),
        tls: None,
        trust_proxy: false,
        stop_on_signals: false,
        pages_nice: load.pages_nice,
    };
    let starting = Instant::now();
    // Named: its thread, and those it starts unnamed, answer HTTP (`cpu.rs`).
    std::thread::Builder::new().name("bench-server".into()).spawn(move || {
        let result = crate::serve_then(options, |address, _| {
            let _ = sender.send(Ok(address));
        });
        if let Err(e) = result {
            let _ = sender.send(Err(e));
        }
    })?;
    let address = receiver.recv_timeout(Duration::from_secs(120)).context("the server did not start")??;
    let started_in = starting.elapsed();
    let url = format!("http://{address}");

    // Other users' work on a shared machine, at their own (normal) priority.
    let busy = arena_core::measure::busy_loops::BusyLoops::start(load.busy_loops, None);
    // This thread asks for the submissions (as `arena submit --wait`): a client.
    crate::work::nice::set_or_say(
        CLIENTS_NICE,
        "bench's clients",
        "run the measurement as root, or the pages' times include the clients' own wait for a core",
    );
    let clients_nice = crate::work::nice::current();
    let rss_before = rss_kib();
    let sampler = cpu::Sampler::start();
    let started = Instant::now();
    let done = Arc::new(AtomicBool::new(false));
    let times = Arc::new(Mutex::new(Times::default()));
    let pages: Vec<_> = (0..load.pages)
        .map(|i| {
            let (url, done, times) = (url.clone(), done.clone(), times.clone());
            // Spread over the 2 s a page waits between polls.
            let offset = Duration::from_millis((2000 * i / load.pages.max(1)) as u64);
            bench_thread("bench-page", move || open_page(&url, offset, &done, &times))
        })
        .collect::<Result<Vec<_>>>()?;
    let watchers = match load.watchers {
        0 => None,
        n => Some(watchers::Watchers::start(&std::env::current_exe()?, &address.to_string(), &staff, n)?),
    };
    let uploads: Vec<_> = tokens
        .iter()
        .take(load.submissions)
        .map(|token| {
            let (client, library) = (Client::new(&url, token), load.library.clone());
            bench_thread("bench-upload", move || {
                let sent = Instant::now();
                let accepted = client.submit(&library, None)?;
                Ok::<_, anyhow::Error>((sent.elapsed(), accepted["id"].as_i64().unwrap_or_default(), client))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let mut upload_times = Vec::new();
    let mut waiting = Vec::new();
    for upload in uploads {
        let (took, id, client) =
            upload.join().map_err(|_| anyhow::anyhow!("an upload thread panicked"))??;
        upload_times.push(took);
        waiting.push((id, client));
    }
    let accepted_after = started.elapsed();
    // Each student follows their submission, as `arena submit --wait` does.
    let mut failed = 0;
    for (id, client) in &waiting {
        loop {
            let asked = Instant::now();
            let submission = client.submission(*id)?;
            times.lock().unwrap_or_else(|e| e.into_inner()).submission_api.push(asked.elapsed());
            match submission["status"].as_str() {
                Some("done") => break,
                Some("failed") => {
                    failed += 1;
                    break;
                }
                _ => std::thread::sleep(Duration::from_millis(500)),
            }
        }
    }
    let graded_after = started.elapsed();
    drop(busy);
    while started.elapsed() < Duration::from_secs(load.seconds) {
        std::thread::sleep(Duration::from_millis(100));
    }
    // With the watchers still there (compare a run without them).
    let rss_end = rss_kib();
    let measured = started.elapsed();
    let watchers_cpu = watchers.as_ref().and_then(|w| cpu::of_process(w.pid()));
    let spent = sampler.stop();
    done.store(true, Ordering::SeqCst);
    let seen = watchers.map(watchers::Watchers::stop).transpose()?;
    for page in pages {
        let _ = page.join();
    }
    if failed > 0 {
        bail!(
            "{failed} of {} submissions failed their grading: is {} a working player?",
            load.submissions,
            load.library.display()
        );
    }

    let mut times = std::mem::take(&mut *times.lock().unwrap_or_else(|e| e.into_inner()));
    let mut text = String::new();
    let _ = writeln!(
        text,
        "submissions server on loopback: {} students ({} league games stored), {} open pages polling every 2 s; \
         {} students submit {} ({:.1} MB) at once; games at nice {}, pages at {} (the bench's clients at {clients_nice}), {} busy loop(s) beside until graded",
        load.students,
        load.league_games,
        load.pages,
        load.submissions,
        load.library.file_name().unwrap_or_default().to_string_lossy(),
        library.len() as f64 / 1e6,
        load.games_nice,
        load.pages_nice,
        load.busy_loops,
    );
    let _ = writeln!(
        text,
        "  class prepared in {:.1} s; the server started in {:.2} s",
        prepared.as_secs_f64(),
        started_in.as_secs_f64()
    );
    let _ = writeln!(
        text,
        "  uploads accepted:       {}  (all in {:.2} s)",
        percentiles(&mut upload_times),
        accepted_after.as_secs_f64()
    );
    let _ = writeln!(
        text,
        "  GET /api/leaderboard:   {}  ({} requests, {} answered 304)",
        percentiles(&mut times.leaderboard),
        times.leaderboard.len(),
        times.not_modified
    );
    let _ = writeln!(
        text,
        "  GET / (the page):       {}  ({} requests)",
        percentiles(&mut times.page),
        times.page.len()
    );
    let _ = writeln!(
        text,
        "  GET /api/submissions/N: {}  ({} requests)",
        percentiles(&mut times.submission_api),
        times.submission_api.len()
    );
    if let Some(seen) = &seen {
        let _ = writeln!(
            text,
            "  {} watchers (a process of their own, nice 19; the newest game in progress, to its end, then \
             2 s later the next): {} feeds read whole, {} cut, {} events, {:.1} MB received ({:.0} kB a \
             watcher, {:.1} kB a feed); at most {} connected at once, {} at the end; their own CPU {:.2} s",
            load.watchers,
            seen.feeds,
            seen.cut,
            seen.events,
            seen.bytes as f64 / 1e6,
            seen.bytes as f64 / 1e3 / load.watchers as f64,
            seen.bytes as f64 / 1e3 / (seen.feeds + seen.cut).max(1) as f64,
            seen.most,
            seen.at_end,
            watchers_cpu.unwrap_or(seen.cpu_ms as f64 / 1e3),
        );
    }
    let cpu = |work: cpu::Work| spent.get(&work).copied().unwrap_or(0.0);
    let _ = writeln!(
        text,
        "  the server's CPU in {:.1} s: HTTP {:.2} s, live feeds {:.2} s, games, the board and the rest {:.2} s \
         (this bench's clients {:.2} s; workers' processes not counted)",
        measured.as_secs_f64(),
        cpu(cpu::Work::Http),
        cpu(cpu::Work::Feeds),
        cpu(cpu::Work::Games),
        cpu(cpu::Work::Bench),
    );
    let _ = writeln!(
        text,
        "  resident memory (the server, and this bench's clients): {:.1} MiB at the load's start, {:.1} MiB \
         at the end",
        rss_before as f64 / 1024.0,
        rss_end as f64 / 1024.0
    );
    let minutes = graded_after.as_secs_f64() / 60.0;
    let _ = write!(
        text,
        "  graded {} submissions ({} games) in {:.1} s: {:.0} submissions/minute",
        load.submissions,
        load.submissions * 30,
        graded_after.as_secs_f64(),
        load.submissions as f64 / minutes.max(1e-9)
    );
    Ok(text)
}

/// The data folders of earlier measurements, `<tmp>/arena-bench-server-<pid>`.
const FOLDER_PREFIX: &str = "arena-bench-server-";

/// Removes the data folders of measurements whose process has ended.
fn remove_stale_folders() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(FOLDER_PREFIX)) else { continue };
        let alive =
            pid.parse::<u32>().is_ok_and(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Adds a class to data folder `dir`: `students` students (`student-000`,
/// ...), each with a graded submission of `library` to the default course's
/// assignment, and `league_games` league games among them (results drawn
/// from a spread of strengths, as a class's); the students' tokens. What
/// the measurement starts from, and tests of a large field.
pub fn prepare_class(
    dir: &std::path::Path,
    library: &[u8],
    students: usize,
    league_games: usize,
) -> Result<Vec<String>> {
    use rand::{Rng, SeedableRng};
    let sha256 = crate::store::files::save(dir, library)?;
    let db = crate::store::db::open(dir)?;
    // A made-up class: not worth a wait on the disk per student.
    db.pragma_update(None, "synchronous", "OFF")?;
    let tokens = (0..students)
        .map(|i| {
            let token = accounts::new_token()?;
            let name = format!("student-{i:03}");
            let alone = crate::store::db::Joining::Alone { compete: false };
            crate::store::db::add_student(&db, &name, &accounts::token_hash(&token), false, alone)?;
            Ok(token)
        })
        .collect::<Result<Vec<String>>>()?;
    let tx = db.unchecked_transaction()?;
    let levels: Vec<serde_json::Value> = ["easy", "medium", "hard"]
        .iter()
        .zip([6, 4, 2])
        .map(|(level, needed)| {
            serde_json::json!({
                "level": level, "games": 10, "wins": needed, "draws": 0, "losses": 10 - needed,
                "needed": needed, "passed": true, "lost": [],
            })
        })
        .collect();
    let grade =
        serde_json::json!({ "levels": levels, "passed_all": true, "failures": {}, "verdict": "PASS" });
    // Graded under the default course's settings, as the server grades.
    let under = crate::course::Course::default().assignments[0].graded_under();
    let mut ids = Vec::new();
    for student in 1..=students as i64 {
        tx.execute(
            "INSERT INTO submissions (student, group_id, sha256, file_name, size, status, played, total, grade, finished, grading_turn, graded_under)
             VALUES (?1, (SELECT group_id FROM students WHERE id = ?1), ?2, 'libplayer.so', ?3, 'done', 30, 30, ?4,
                     datetime('now'), ?1, ?5)",
            rusqlite::params![student, sha256, library.len() as i64, grade.to_string(), under.to_string()],
        )?;
        ids.push(tx.last_insert_rowid());
    }
    // Strengths as a class's: an Elo spread of about 400.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let strength: Vec<f64> = ids.iter().map(|_| rng.random_range(-600.0..600.0)).collect();
    // As a league stores them: up to `league::GAMES` games a pairing, the
    // pairings spread so that every student has about as many (pairing k:
    // student k mod n against the one (k div n) + 1 further on), the whole
    // round robin when there are games enough.
    let n = ids.len();
    let per_pairing = crate::work::league::GAMES as usize;
    let pairings = (n * n.saturating_sub(1) / 2).min(league_games.div_ceil(per_pairing));
    let mut insert =
        tx.prepare("INSERT OR IGNORE INTO games (a, b, game, result, winner) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for g in 0..league_games.min(pairings * per_pairing) {
        let (k, game) = (g / per_pairing, g % per_pairing);
        let (x, y) = (k % n, (k % n + 1 + k / n) % n);
        let (a, b) = (x.min(y), x.max(y));
        let p = 1.0 / (1.0 + 10f64.powf((strength[b] - strength[a]) / 400.0));
        let seats = if game % 2 == 0 { [0, 1] } else { [1, 0] };
        let winner = if rng.random::<f64>() < p { 0 } else { 1 };
        let result = arena_core::tournament::record::GameResult {
            index: game,
            seed: game as u64 / 2,
            seats,
            winner: Some(winner),
            turns: 20,
            reason: "trapped".into(),
            fault: None,
            clock: Default::default(),
            solo: None,
            replayed: 0,
            replay_left_out: false,
        };
        insert.execute(rusqlite::params![
            ids[a],
            ids[b],
            game as i64,
            serde_json::to_string(&result)?,
            crate::work::league::stored_winner(result.winner)
        ])?;
    }
    drop(insert);
    tx.commit()?;
    Ok(tokens)
}

/// One open leaderboard page until `done`: loads `/` once, then polls the
/// leaderboard every 2 s with the tag it has, as a browser does.
fn open_page(url: &str, offset: Duration, done: &AtomicBool, times: &Mutex<Times>) {
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    std::thread::sleep(offset);
    let mut tag: Option<String> = None;
    let mut round = 0;
    while !done.load(Ordering::SeqCst) {
        // The page itself now and then (a reload).
        if round % 5 == 0 {
            let asked = Instant::now();
            if agent
                .get(format!("{url}/"))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_to_string().ok())
                .is_some()
            {
                times.lock().unwrap_or_else(|e| e.into_inner()).page.push(asked.elapsed());
            }
        }
        round += 1;
        let asked = Instant::now();
        let mut request = agent.get(format!("{url}/api/leaderboard"));
        if let Some(tag) = &tag {
            request = request.header("If-None-Match", tag);
        }
        if let Ok(mut response) = request.call() {
            let not_modified = response.status().as_u16() == 304;
            if let Some(new) = response.headers().get("etag").and_then(|v| v.to_str().ok()) {
                tag = Some(new.to_string());
            }
            if response.body_mut().read_to_string().is_ok() {
                let mut times = times.lock().unwrap_or_else(|e| e.into_inner());
                times.leaderboard.push(asked.elapsed());
                times.not_modified += usize::from(not_modified);
            }
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

/// The nice value of the bench's clients, where it may raise them: they
/// stand for browsers on other machines, whose own waits for a core are
/// not the server's to answer for (beside busy loops a client at nice 0
/// waited as long as the server did, and counted it as the server's).
const CLIENTS_NICE: i32 = -10;

/// Runs `work` on a thread named `name` (a bench's client: `cpu.rs`).
fn bench_thread<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<std::thread::JoinHandle<T>> {
    Ok(std::thread::Builder::new().name(name.into()).spawn(work)?)
}

/// This process's resident memory, in KiB (0 where /proc says nothing).
fn rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).unwrap_or(0)
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
