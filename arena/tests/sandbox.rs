//! The sandbox (docs/security.md), tested with real players that try to
//! escape: a Rust library (arena/tests/fixtures/escape-player) and its
//! Python twin (arena/tests/python/escape_player.py). Each tries, inside
//! get_move, what ESCAPE_MODE says and panics with what happened, so the
//! game's recorded failure says whether it was blocked; afterwards the
//! test checks the world: files unchanged, no connection, no process left.

mod support;

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::Output,
    sync::atomic::{AtomicU32, Ordering},
};

use support::{arena, library, stderr, stdout, workspace_root, write_file};

/// The two escapers, as the arena names them.
fn escapers() -> [String; 2] {
    let python = workspace_root().join("arena/tests/python/escape_player.py");
    [library("escape-player").display().to_string(), format!("python:{}", python.display())]
}

/// Plays 2 games of `player` against Easy with ESCAPE_MODE/ESCAPE_TARGET
/// set, and returns the arena's output.
fn escape(player: &str, mode: &str, target: &str, extra: &[&str]) -> Output {
    let package = workspace_root().join("players/python/src").display().to_string();
    let mut args = vec!["play", player, "easy", "--games", "2", "--time-per-turn", "10s"];
    args.extend_from_slice(extra);
    arena(&args, &[("ESCAPE_MODE", mode), ("ESCAPE_TARGET", target), ("PYTHONPATH", &package)])
}

/// What the escaper reported, from the games' failures: both games were
/// played (Easy won them) and each says the same.
fn reports(output: &Output) -> Vec<String> {
    let text = stdout(output);
    assert!(output.status.success(), "the arena failed: {text}{}", stderr(output));
    let reports: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|line| {
            assert!(line.contains("easy wins"), "{line}");
            let start = line.find("escape ").unwrap_or_else(|| panic!("no report in: {line}"));
            line[start..].to_string()
        })
        .collect();
    assert_eq!(reports.len(), 2, "{text}");
    reports
}

/// A folder laid out like a class tournament: another group's player and
/// the results with a journal, each with known contents.
struct Decoys {
    _dir: tempfile::TempDir,
    secret: PathBuf,
    journal: PathBuf,
}

impl Decoys {
    fn new() -> Decoys {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("other-group")).unwrap();
        std::fs::create_dir_all(dir.path().join("results")).unwrap();
        let secret = write_file(&dir.path().join("other-group"), "PlayerAI.py", "SECRET STRATEGY\n");
        let journal = write_file(&dir.path().join("results"), "journal.jsonl", "{\"game\":0}\n");
        Decoys { _dir: dir, secret, journal }
    }

    fn assert_unchanged(&self) {
        assert_eq!(std::fs::read_to_string(&self.secret).unwrap(), "SECRET STRATEGY\n");
        assert_eq!(std::fs::read_to_string(&self.journal).unwrap(), "{\"game\":0}\n");
    }
}

fn joined(paths: &[&Path]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(":")
}

#[test]
fn reading_another_players_files_or_the_journal_is_denied() {
    let decoys = Decoys::new();
    for player in escapers() {
        for report in reports(&escape(&player, "read", &joined(&[&decoys.secret, &decoys.journal]), &[])) {
            assert!(!report.contains("SUCCEEDED"), "{player}: {report}");
            assert_eq!(report.matches("blocked: ").count(), 2, "{player}: {report}");
            assert!(report.contains("Permission denied"), "{player}: {report}");
        }
    }
}

#[test]
fn without_the_sandbox_the_same_read_succeeds() {
    // The contrast that shows the test above can fail.
    let decoys = Decoys::new();
    let output = escape(&escapers()[0], "read", &joined(&[&decoys.secret]), &["--sandbox", "off"]);
    for report in reports(&output) {
        assert!(report.contains("SUCCEEDED reading"), "{report}");
    }
}

#[test]
fn writing_outside_its_scratch_folder_is_denied() {
    let decoys = Decoys::new();
    let fresh = decoys.secret.parent().unwrap().parent().unwrap().join("new-file");
    let own_folder = workspace_root().join("arena/tests/python/escaped.txt");
    for player in escapers() {
        let targets = joined(&[&decoys.secret, &decoys.journal, &fresh, &own_folder]);
        for report in reports(&escape(&player, "write", &targets, &[])) {
            assert!(!report.contains("SUCCEEDED") && !report.contains("unusable"), "{player}: {report}");
            assert_eq!(report.matches("blocked: ").count(), 4, "{player}: {report}");
        }
        decoys.assert_unchanged();
        assert!(!fresh.exists() && !own_folder.exists(), "{player} created a file");
    }
}

#[test]
fn connecting_to_a_local_listener_fails() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let address = listener.local_addr().unwrap().to_string();
    for player in escapers() {
        for report in reports(&escape(&player, "connect", &address, &[])) {
            assert!(report.starts_with("escape connect: blocked: "), "{player}: {report}");
        }
    }
    let accepted = listener.accept();
    assert!(accepted.is_err(), "the listener saw a connection: {accepted:?}");
}

/// Processes whose command line holds `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
        .filter(|line| line.contains(needle))
        .collect()
}

/// Processes whose command line holds `needle` once they have had a
/// moment to go: a killed namespace empties asynchronously.
fn processes_left(needle: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    loop {
        let left = processes_with(needle);
        if left.is_empty() || std::time::Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A sleep duration no other process uses: it names the daemon.
fn unique_sleep() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!("3599.{}{:03}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

#[test]
fn a_setsid_daemon_dies_with_its_worker() {
    for player in escapers() {
        let naptime = unique_sleep();
        for report in reports(&escape(&player, "setsid", &naptime, &[])) {
            assert!(report.starts_with("escape setsid: spawned"), "{player}: {report}");
        }
        assert_eq!(processes_left(&format!("sleep {naptime}")), Vec::<String>::new(), "{player}");
    }
}

#[test]
fn without_the_sandbox_a_setsid_daemon_survives() {
    // The contrast that shows the test above can fail; the daemon is then killed here.
    let naptime = unique_sleep();
    reports(&escape(&escapers()[0], "setsid", &naptime, &["--sandbox", "off"]));
    let left = processes_with(&format!("sleep {naptime}"));
    let _ = std::process::Command::new("pkill").args(["-f", &format!("sleep {naptime}")]).status();
    assert!(!left.is_empty(), "the daemon should have outlived its unsandboxed worker");
}

#[test]
fn a_fork_bomb_is_capped_and_cleaned_up() {
    for (player, needle) in escapers().iter().zip(["libescape_player.so", "escape_player.py"]) {
        for report in reports(&escape(player, "forkbomb", "", &[])) {
            let started: u32 = report
                .strip_prefix("escape forkbomb: blocked after ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{player}: {report}"));
            assert!(started < 600, "{player}: {report}");
        }
        assert_eq!(processes_left(needle), Vec::<String>::new(), "{player}");
    }
}

#[test]
fn ptrace_of_its_parent_is_denied() {
    for player in escapers() {
        for report in reports(&escape(&player, "ptrace", "", &[])) {
            assert!(
                report.starts_with("escape ptrace: blocked: Operation not permitted"),
                "{player}: {report}"
            );
        }
    }
}

#[test]
fn check_reports_every_protection() {
    let output = arena(&["check", &library("easy").display().to_string()], &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    for expected in [
        "sandbox     on",
        "  files     Landlock",
        "  network   none",
        "  processes a PID namespace",
        "  calls     seccomp",
    ] {
        assert!(text.contains(expected), "no '{expected}' in:\n{text}");
    }
    let off = stdout(&arena(&["check", &library("easy").display().to_string(), "--sandbox", "off"], &[]));
    assert!(off.contains("sandbox     off"), "{off}");
}

#[test]
fn a_tournament_goes_on_and_its_journal_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("results");
    let journal = output.join("journal.jsonl");
    let file = write_file(
        dir.path(),
        "class.toml",
        &format!(
            "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 7\noutput = \"results\"\nplayers = [\"{}\", \"easy\", \"medium\"]\n",
            library("escape-player").display()
        ),
    );
    let run = arena(
        &["tournament", "run", &file.display().to_string()],
        &[("ESCAPE_MODE", "write"), ("ESCAPE_TARGET", &journal.display().to_string())],
    );
    assert!(run.status.success(), "{}{}", stdout(&run), stderr(&run));
    let games = support::journal_games(&output);
    assert_eq!(games.len(), 6, "every game of the round robin is journaled once");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(!text.contains("escaped"), "the player wrote into the journal");
    assert!(text.contains("blocked: "), "the journal keeps the escaper's failure: {text}");
}

#[test]
fn the_tournament_file_sets_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let secret = write_file(dir.path(), "secret.txt", "x");
    let write = |sandbox: &str| {
        let body = format!(
            "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 1\noutput = \"out-{sandbox}\"\nplayers = [\"{}\", \"easy\"]\n[settings]\nsandbox = \"{sandbox}\"\n",
            library("escape-player").display()
        );
        write_file(dir.path(), &format!("{sandbox}.toml"), &body)
    };
    let env = [("ESCAPE_MODE", "read"), ("ESCAPE_TARGET", secret.to_str().unwrap())];
    let off = arena(&["tournament", "run", &write("off").display().to_string()], &env);
    assert!(off.status.success(), "{}", stderr(&off));
    assert!(journal_text(dir.path(), "off").contains("SUCCEEDED reading"));
    let on = arena(&["tournament", "run", &write("on").display().to_string()], &env);
    assert!(on.status.success(), "{}", stderr(&on));
    assert!(journal_text(dir.path(), "on").contains("blocked: "));
    let bad = arena(&["tournament", "run", &write("maybe").display().to_string()], &env);
    let said = stderr(&bad);
    assert!(
        !bad.status.success() && said.contains("maybe") && said.contains("on") && said.contains("off"),
        "{said}"
    );
    assert_eq!(said.lines().filter(|l| !l.trim().is_empty()).count(), 1, "one line: {said}");
}

fn journal_text(dir: &Path, sandbox: &str) -> String {
    std::fs::read_to_string(dir.join(format!("out-{sandbox}/journal.jsonl"))).unwrap_or_default()
}

/// As an unprivileged user the same holds, through a user namespace (and
/// RLIMIT_NPROC for the fork bomb). Runs when the tests run as root, as the
/// user `nobody`; as another user, every test here is already unprivileged.
/// The Python player runs on the system's /usr/bin/python3 (nobody cannot
/// enter root's home, where a pyenv Python lives), when there is one.
#[test]
fn as_an_unprivileged_user_the_sandbox_holds() {
    // SAFETY: plain syscall.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let open = || std::os::unix::fs::PermissionsExt::from_mode(0o755);
    let dir = tempfile::Builder::new().permissions(open()).tempdir().unwrap();
    let scratch = tempfile::Builder::new().permissions(open()).tempdir().unwrap();
    std::fs::set_permissions(scratch.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let secret = write_file(dir.path(), "secret.txt", "readable by anyone\n");
    std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o666)).unwrap();
    let system_python = Path::new("/usr/bin/python3");
    let [library_player, python_player] = escapers();
    let mut players = vec![(library_player, "libescape_player.so")];
    if system_python.is_file() {
        players.push((python_player, "escape_player.py"));
    }
    let package = workspace_root().join("players/python/src");
    for (player, needle) in players {
        let nobody = |mode: &str, target: &str| {
            let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arena"));
            command.args(["play", &player, "easy", "--games", "2", "--time-per-turn", "10s"]);
            command.env("ESCAPE_MODE", mode).env("ESCAPE_TARGET", target).env("TMPDIR", scratch.path());
            command.env("ARENA_PYTHON", system_python).env("PYTHONPATH", &package);
            std::os::unix::process::CommandExt::uid(&mut command, 65534);
            std::os::unix::process::CommandExt::gid(&mut command, 65534);
            command.current_dir(dir.path()).output().unwrap()
        };
        for report in reports(&nobody("read", secret.to_str().unwrap())) {
            assert!(
                report.contains("blocked: ") && report.contains("Permission denied"),
                "{player}: {report}"
            );
        }
        for report in reports(&nobody("write", secret.to_str().unwrap())) {
            assert!(report.contains("blocked: ") && !report.contains("unusable"), "{player}: {report}");
        }
        assert_eq!(std::fs::read_to_string(&secret).unwrap(), "readable by anyone\n");
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        for report in reports(&nobody("connect", &listener.local_addr().unwrap().to_string())) {
            assert!(report.starts_with("escape connect: blocked: "), "{player}: {report}");
        }
        assert!(listener.accept().is_err(), "{player}: the listener saw a connection");
        for report in reports(&nobody("forkbomb", "")) {
            assert!(report.starts_with("escape forkbomb: blocked after "), "{player}: {report}");
        }
        assert_eq!(processes_left(needle), Vec::<String>::new());
        let naptime = unique_sleep();
        for report in reports(&nobody("setsid", &naptime)) {
            assert!(report.starts_with("escape setsid: spawned"), "{player}: {report}");
        }
        assert_eq!(processes_left(&format!("sleep {naptime}")), Vec::<String>::new());
        for report in reports(&nobody("ptrace", "")) {
            assert!(
                report.starts_with("escape ptrace: blocked: Operation not permitted"),
                "{player}: {report}"
            );
        }
    }
}

/// Where user namespaces are forbidden (here: a user namespace whose
/// `user.max_user_namespaces` is used up, as an unprivileged user inside
/// it), `--sandbox on` refuses with one line that names what is missing and
/// `--sandbox off`, and plays nothing; `--sandbox off` plays. Needs root to
/// set the stage (util-linux's unshare).
#[test]
fn without_user_namespaces_the_sandbox_refuses_in_one_line() {
    // SAFETY: plain syscall.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let scratch = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .tempdir()
        .unwrap();
    let run = |sandbox: &str| {
        let play = format!(
            "TMPDIR={} unshare -U --map-user=65534 --map-group=65534 {} play {} easy --games 2 --sandbox {sandbox}",
            scratch.path().display(),
            env!("CARGO_BIN_EXE_arena"),
            library("easy").display()
        );
        let script = format!("echo 1 > /proc/sys/user/max_user_namespaces && {play}");
        std::process::Command::new("unshare")
            .args(["-U", "--map-root-user", "sh", "-c", &script])
            .output()
            .unwrap()
    };
    let refused = run("on");
    let said = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{}{said}", stdout(&refused));
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("cannot make a user namespace") && said.contains("--sandbox off"), "{said}");
    assert!(!stdout(&refused).contains("game "), "no game is played unsandboxed");
    let unconfined = run("off");
    assert!(unconfined.status.success(), "{}", stderr(&unconfined));
    assert!(stdout(&unconfined).contains("2 games"), "{}", stdout(&unconfined));
}
