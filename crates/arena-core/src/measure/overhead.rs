//! What the arena's own machinery costs: `arena measure isolation` (isolation),
//! `measure tournament` and `measure program` (below), playing the benchmarked
//! game (`benchmarked.rs`). Measures, in one run so the numbers compare as
//! ratios on the same machine:
//! - one request's round trip, in process and in a worker, trivial bot;
//! - a worker's start, sandboxed and not (what the sandbox costs);
//! - isolated random-vs-random games per second, games run in parallel;
//! - the arena's memory, threads and descriptors before and after a long
//!   run of isolated games (they must stay flat).

use std::{
    fmt::Write as _,
    thread,
    time::{Duration, Instant},
};

use crate::{
    game::{Agent, Game},
    game_rules::{Budgets, GameOptions},
    games::rules::GameRules,
    games::Benchmarked,
    measure::benchmarked::BenchmarkedGame,
    play::two_player::{self, MatchConfig},
    players::agent::AbiPlayer,
    players::external::Program,
    players::isolation::{Hosted, IsolatedPlayer, Worker, WorkerLimits},
    players::{Hosting, Level, Player},
    sandbox::Sandbox,
};

/// What to measure.
pub struct BenchConfig {
    pub requests: u32,
    pub games: u32,
    pub threads: usize,
    pub soak_games: u32,
    /// Worker starts timed, sandboxed and not.
    pub starts: u32,
    pub limits: WorkerLimits,
}

/// Runs the measurements and returns the report (Markdown).
pub fn run(config: &BenchConfig) -> Result<String, String> {
    let mut report = String::new();
    let in_process = round_trips::<Benchmarked>(&mut AbiPlayer::builtin(Level::Easy), config.requests);
    let isolated = |limits: &WorkerLimits| -> Result<Timings, String> {
        let mut agent = IsolatedPlayer::start::<Benchmarked>(
            &Hosted::Builtin(Level::Easy),
            limits,
            Duration::from_secs(10),
        )
        .map_err(|f| f.to_string())?;
        Ok(round_trips::<Benchmarked>(&mut agent, config.requests))
    };
    let unsandboxed = WorkerLimits { sandbox: Sandbox::Off, ..config.limits.clone() };
    let limits = &config.limits;
    let isolated_off = isolated(&unsandboxed)?;
    let isolated = isolated(limits)?;
    let _ = writeln!(report, "## Round trip per request (easy bot, {})\n", Benchmarked::REQUEST);
    let _ = writeln!(report, "| hosting | median | p90 | p99 |\n| --- | --- | --- | --- |");
    let shown = [("in process", &in_process), ("isolated worker, unsandboxed", &isolated_off)];
    let this = format!("isolated worker, sandbox {}", sandbox_name(limits.sandbox));
    for (name, t) in shown.into_iter().chain([(this.as_str(), &isolated)]) {
        let _ = writeln!(report, "| {name} | {} | {} | {} |", us(t.median), us(t.p90), us(t.p99));
    }
    let _ = writeln!(
        report,
        "\nIsolation overhead: {} per request (median, isolated - in process), over {} requests.\n",
        us(isolated.median.saturating_sub(in_process.median)),
        config.requests
    );

    let _ = writeln!(report, "## Worker start (spawn to hello, easy bot, {} starts)\n", config.starts);
    let _ = writeln!(report, "| worker | median | p90 |\n| --- | --- | --- |");
    let start_off = worker_starts(&unsandboxed, config.starts)?;
    let start_on = worker_starts(limits, config.starts)?;
    for (name, t) in [("unsandboxed", &start_off), (this.as_str(), &start_on)] {
        let _ = writeln!(report, "| {name} | {:.2} ms | {:.2} ms |", ms(t.median), ms(t.p90));
    }
    let _ = writeln!(
        report,
        "\nSandbox cost per worker start: {:.2} ms (median, sandboxed - unsandboxed).\n",
        ms(start_on.median) - ms(start_off.median)
    );

    let (rate_off, _) = parallel_games::<Benchmarked>(&unsandboxed, config.threads, config.games)?;
    let (games_per_second, elapsed) = parallel_games::<Benchmarked>(limits, config.threads, config.games)?;
    let _ = writeln!(report, "## Isolated games in parallel\n");
    let _ = writeln!(
        report,
        "easy vs easy, both in workers, {} games on {} threads: {:.2} s, **{:.0} games/s** ({this}); unsandboxed {rate_off:.0} games/s: ratio {:.2}\n",
        config.games,
        config.threads,
        elapsed.as_secs_f64(),
        games_per_second,
        games_per_second / rate_off
    );

    let before = Resources::now();
    let (soak_rate, soak_elapsed) = parallel_games::<Benchmarked>(limits, config.threads, config.soak_games)?;
    let after = Resources::now();
    let _ = writeln!(report, "## Soak: {} isolated games in a row\n", config.soak_games);
    let _ = writeln!(report, "| | before | after |\n| --- | --- | --- |");
    let _ = writeln!(report, "| resident memory | {} KiB | {} KiB |", before.rss_kib, after.rss_kib);
    let _ = writeln!(report, "| threads | {} | {} |", before.threads, after.threads);
    let _ = writeln!(report, "| open descriptors | {} | {} |", before.descriptors, after.descriptors);
    let _ = writeln!(report, "\n({:.2} s, {soak_rate:.0} games/s)", soak_elapsed.as_secs_f64());
    Ok(report)
}

fn sandbox_name(sandbox: Sandbox) -> &'static str {
    match sandbox {
        Sandbox::On => "on",
        Sandbox::Off => "off",
    }
}

/// Times `n` worker starts, spawn to hello (each worker then stopped).
fn worker_starts(limits: &WorkerLimits, n: u32) -> Result<Timings, String> {
    let mut times = Vec::with_capacity(n.max(1) as usize);
    for _ in 0..n.max(1) {
        let started = Instant::now();
        let worker = Worker::spawn(&Hosted::Builtin(Level::Easy), limits, Duration::from_secs(10))
            .map_err(|f| f.to_string())?;
        times.push(started.elapsed());
        drop(worker);
    }
    Ok(Timings::of(times))
}

struct Timings {
    median: Duration,
    p90: Duration,
    p99: Duration,
    /// All the timed requests together.
    total: Duration,
}

/// Times `n` answers to the game's round-trip request (after a warm-up).
fn round_trips<G: BenchmarkedGame>(agent: &mut dyn Agent<G>, n: u32) -> Timings {
    let budget = Duration::from_secs(5);
    let (info, request) = G::round_trip();
    agent.new_game(info, budget).expect("the bot starts");
    for _ in 0..100 {
        agent.act(request.clone(), budget).expect("warm-up turn");
    }
    let times: Vec<Duration> = (0..n.max(1))
        .map(|_| {
            let request = request.clone();
            let started = Instant::now();
            agent.act(request, budget).expect("a turn");
            started.elapsed()
        })
        .collect();
    Timings::of(times)
}

impl Timings {
    fn of(mut times: Vec<Duration>) -> Timings {
        let total = times.iter().sum();
        times.sort();
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        Timings { median: at(0.5), p90: at(0.9), p99: at(0.99), total }
    }
}

/// `arena measure program`: what the protocol costs program players. In one
/// run: the turn round trip of each program and of the arena's own worker
/// hosting Easy (the baseline), and each one's start-up (spawn to hello).
pub fn program(programs: &[Program], requests: u32, limits: &WorkerLimits) -> Result<String, String> {
    let startup = Duration::from_secs(10);
    let mut hosted = vec![("arena worker, easy (Rust)".to_string(), Hosted::Builtin(Level::Easy))];
    for program in programs {
        hosted.push((program.to_string(), Hosted::Program(program.launch(&limits.pass_env)?)));
    }
    let mut report = String::new();
    let _ = writeln!(report, "## Round trip per turn request ({requests} requests each)\n");
    let _ = writeln!(
        report,
        "| player | start-up | median | p90 | p99 | round trips/s |\n| --- | --- | --- | --- | --- | --- |"
    );
    for (name, hosted) in &hosted {
        let started = Instant::now();
        let mut agent = IsolatedPlayer::start::<Benchmarked>(hosted, limits, startup)
            .map_err(|f| format!("{name}: {f}"))?;
        let start_up = started.elapsed();
        let t = round_trips::<Benchmarked>(&mut agent, requests);
        let per_second = f64::from(requests.max(1)) / t.total.as_secs_f64();
        let _ = writeln!(
            report,
            "| {name} | {:.0} ms | {} | {} | {} | **{per_second:.0}** |",
            ms(start_up),
            us(t.median),
            us(t.p90),
            us(t.p99)
        );
    }
    Ok(report)
}

/// Plays `games` isolated easy-vs-easy games split over the threads.
fn parallel_games<G: BenchmarkedGame>(
    limits: &WorkerLimits,
    threads: usize,
    games: u32,
) -> Result<(f64, Duration), String> {
    let hosting = Hosting { isolate_libraries: true, isolate_builtins: true, limits: Some(limits.clone()) };
    let players = [Player::Builtin(Level::Easy), Player::Builtin(Level::Easy)];
    let threads = threads.max(1);
    let started = Instant::now();
    let results: Vec<Result<(), String>> = thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let share = games / threads as u32 + u32::from((t as u32) < games % threads as u32);
                let config = MatchConfig::<G> {
                    settings: G::Settings::default(),
                    games: share,
                    seed: t as u64,
                    hosting: hosting.clone(),
                    first_game: 0,
                    concurrency: 1,
                    controls: [None; 2],
                    live: None,
                };
                let players = &players;
                scope.spawn(move || {
                    let result = two_player::play([&players[0], &players[1]], &config, &mut |_| {}, None);
                    match result.games.iter().find(|g| g.failure().is_some()) {
                        Some(game) => Err(format!("an isolated game failed: {}", G::reason(&game.record))),
                        None => Ok(()),
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a thread panicked".into()))).collect()
    });
    results.into_iter().collect::<Result<(), String>>()?;
    let elapsed = started.elapsed();
    Ok((games as f64 / elapsed.as_secs_f64(), elapsed))
}

/// `arena measure tournament`: a round robin of `players` Easy bots, run for
/// real into a scratch folder; reports where the time goes.
pub fn tournament(
    players: usize,
    games_per_pairing: u32,
    isolated: bool,
    concurrency: usize,
) -> Result<String, String> {
    use crate::tournament::{
        self as t,
        config::{Format, Tournament},
    };
    let scratch = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let game = GameRules::build(Benchmarked::ID, &GameOptions::default(), Budgets::default())
        .map_err(|e| e.flag_line())?;
    let tournament = Tournament {
        name: "bench".into(),
        game,
        format: Format::RoundRobin,
        games_per_pairing,
        rounds: 0,
        seed: 1,
        concurrency,
        output: scratch.clone(),
        memory: None,
        players: vec![crate::players::PlayerSpec::Builtin(Level::Easy); players],
        controls: vec![None; players],
        names: Vec::new(),
        params: Vec::new(),
        left_out: Vec::new(),
        may_forfeit: Vec::new(),
        fixed: Vec::new(),
        grading: None,
        budgets: Budgets::default(),
        memory_limit: None,
        in_process: !isolated,
        sandbox: crate::sandbox::Sandbox::On,
        isolate_builtins: isolated,
        pass_env: Vec::new(),
        run_as: None,
        replays: t::config::ReplayPolicy::none(),
    };
    let plan_started = Instant::now();
    let schedule = t::schedule::schedule(&tournament);
    let fingerprint = t::fingerprint(&tournament, &schedule);
    let plan = plan_started.elapsed();
    let started = Instant::now();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let outcome = t::run(tournament, &stop, &mut t::Quiet).map_err(|e| format!("{e:#}"))?;
    let total = started.elapsed();
    let report_started = Instant::now();
    let standings = t::standings::compute(&outcome.entrants, &outcome.results);
    let rendered = standings.markdown().len() + standings.csv().len() + standings.json().to_string().len();
    let report = report_started.elapsed();
    let _ = std::fs::remove_dir_all(&scratch);
    let games = outcome.results.len();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{players}-player round robin, {games_per_pairing} games per pairing: {games} games, {}, {concurrency} at a time",
        if isolated { "every player in a worker process" } else { "in process" }
    );
    let _ = writeln!(text, "| phase | time |\n| --- | --- |");
    let _ = writeln!(
        text,
        "| plan (schedule {} games + fingerprint {fingerprint}) | {:.1} ms |",
        schedule.len(),
        ms(plan)
    );
    let _ = writeln!(
        text,
        "| run: games + journal (fsync'd) + standings files | {:.1} ms ({:.0} games/s) |",
        ms(total),
        games as f64 / total.as_secs_f64()
    );
    let _ = writeln!(text, "| standings again: compute + render ({rendered} bytes) | {:.1} ms |", ms(report));
    Ok(text)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us(d: Duration) -> String {
    format!("{:.1} us", d.as_secs_f64() * 1e6)
}

/// The arena process's own resource counts, from /proc.
struct Resources {
    rss_kib: u64,
    threads: usize,
    descriptors: usize,
}

impl Resources {
    fn now() -> Resources {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
                .unwrap_or(0)
        };
        let count = |dir: &str| std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
        Resources {
            rss_kib: field("VmRSS:"),
            threads: count("/proc/self/task"),
            descriptors: count("/proc/self/fd"),
        }
    }
}
