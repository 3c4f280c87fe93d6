//! The sandbox (docs/security.md), tested with real players that try to
//! escape: a Rust library (arena/tests/fixtures/escape-player) and its
//! Python twin (arena/tests/python/escape_player.py). Each tries, inside
//! get_move, what ESCAPE_MODE says and panics with what happened, so the
//! game's recorded failure says whether it was blocked; afterwards the
//! test checks the world: files unchanged, no connection, no process left.
//! The arena passes ESCAPE_MODE and ESCAPE_TARGET to its workers only
//! because it is told to (`--pass-env`): a worker's environment is not the
//! arena's.

use std::{
    net::TcpListener,
    path::{Path, PathBuf},
    process::Output,
    sync::atomic::{AtomicU32, Ordering},
};

use super::{processes_left, processes_with};
use crate::support::{
    self, arena, library, stderr, stdout,
    unprivileged::{self, set_mode},
    workspace_root, write_file,
};

/// The two escapers, as the arena names them.
fn escapers() -> [String; 2] {
    let python = workspace_root().join("arena/tests/python/escape_player.py");
    [library("escape-player").display().to_string(), format!("python:{}", python.display())]
}

/// The Python escaper as a `cmd:` player: the arena_player package run by hand.
fn command_escaper() -> String {
    let python = workspace_root().join("arena/tests/python/escape_player.py");
    format!("cmd:python3 -m arena_player {}", python.display())
}

/// The repository's arena_player package, for PYTHONPATH.
fn package() -> String {
    workspace_root().join("players/python/src").display().to_string()
}

/// The options that pass the escaper its orders.
const PASS_ORDERS: [&str; 4] = ["--pass-env", "ESCAPE_MODE", "--pass-env", "ESCAPE_TARGET"];

/// Plays 2 games of `player` against Easy with ESCAPE_MODE/ESCAPE_TARGET
/// set (and passed), and returns the arena's output.
fn escape(player: &str, mode: &str, target: &str, extra: &[&str]) -> Output {
    escape_with(player, mode, target, extra, &[])
}

/// `escape` with more variables in the arena's environment.
fn escape_with(player: &str, mode: &str, target: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut args = vec!["play", player, "easy", "--games", "2", "--time-per-turn", "10s"];
    args.extend_from_slice(&PASS_ORDERS);
    args.extend_from_slice(extra);
    let package = package();
    let mut all = vec![("ESCAPE_MODE", mode), ("ESCAPE_TARGET", target), ("PYTHONPATH", package.as_str())];
    all.extend_from_slice(env);
    arena(&args, &all)
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
    // Copies of the escapers: the processes left are found by their path,
    // which no other test's processes (running the escapers) hold.
    let folder = tempfile::tempdir().unwrap();
    let lib = folder.path().join("libescape_player.so");
    std::fs::copy(library("escape-player"), &lib).unwrap();
    let python = folder.path().join("escape_player.py");
    std::fs::copy(workspace_root().join("arena/tests/python/escape_player.py"), &python).unwrap();
    let players = [(lib.display().to_string(), lib), (format!("python:{}", python.display()), python)];
    for (player, copy) in &players {
        let needle = copy.to_str().unwrap();
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
fn its_cores_and_priority_are_not_its_own_to_change() {
    for player in escapers() {
        for report in reports(&escape(&player, "reschedule", "", &[])) {
            assert!(
                report.starts_with("escape reschedule: blocked: Operation not permitted"),
                "{player}: {report}"
            );
        }
    }
}

/// The variables a worker may have: the allow-list (isolation/environment.rs),
/// what the arena sets for Python players, the orders passed here, and what
/// Python itself adds (its locale coercion sets LC_CTYPE).
fn expected_variable(name: &str) -> bool {
    let allowed = [
        "PATH",
        "LANG",
        "LANGUAGE",
        "TZ",
        "PYTHONPATH",
        "HOME",
        "TMPDIR",
        "PYTHONDONTWRITEBYTECODE",
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "PYTHONHASHSEED",
        "ESCAPE_MODE",
        "ESCAPE_TARGET",
    ];
    allowed.contains(&name) || name.starts_with("LC_")
}

/// The environment a player reported (`env` mode: `[NAME=VALUE; ...]`).
fn reported_environment(report: &str) -> Vec<(String, String)> {
    let listed = report
        .strip_prefix("escape env: environment: [")
        .and_then(|rest| rest.split_once(']'))
        .unwrap_or_else(|| panic!("{report}"))
        .0;
    listed
        .split("; ")
        .map(|pair| pair.split_once('=').unwrap_or_else(|| panic!("{pair} in {report}")))
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
}

#[test]
fn the_arenas_environment_reaches_no_player_unless_passed() {
    let secret = format!("hunter2-{}", std::process::id());
    let home = std::env::var("HOME").unwrap_or_default();
    let env = [("ARENA_TEST_SECRET", secret.as_str()), ("ARENA_TOKEN", secret.as_str())];
    let [library_player, python_player] = escapers();
    for player in [library_player, python_player, command_escaper()] {
        for sandbox in ["on", "off"] {
            let unpassed = escape_with(&player, "env", "", &["--sandbox", sandbox], &env);
            for report in reports(&unpassed) {
                let shown = format!("{player}, --sandbox {sandbox}: {report}");
                assert!(!report.contains(&secret), "the secret reached the player: {shown}");
                let vars = reported_environment(&report);
                let unexpected: Vec<&String> =
                    vars.iter().map(|(name, _)| name).filter(|name| !expected_variable(name)).collect();
                assert!(unexpected.is_empty(), "unexpected variables {unexpected:?}: {shown}");
                let value = |name: &str| vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
                let scratch = value("HOME").unwrap_or_else(|| panic!("no HOME: {shown}"));
                assert_ne!(scratch, home, "HOME is the arena's: {shown}");
                assert_eq!(value("TMPDIR"), Some(scratch.clone()), "{shown}");
                assert!(scratch.contains("arena-scratch-"), "HOME is not its scratch folder: {shown}");
            }
            let extra = ["--sandbox", sandbox, "--pass-env", "ARENA_TEST_SECRET"];
            for report in reports(&escape_with(&player, "env", "", &extra, &env)) {
                let vars = reported_environment(&report);
                let passed = ("ARENA_TEST_SECRET".to_string(), secret.clone());
                assert!(vars.contains(&passed), "{player}, --sandbox {sandbox}: not passed: {report}");
                assert!(!report.contains("ARENA_TOKEN"), "{player}: only what is named is passed: {report}");
            }
        }
    }
}

#[test]
fn a_pass_env_name_that_is_not_a_variable_is_refused_in_one_line() {
    let output = arena(&["play", "easy", "easy", "--pass-env", "SECRET=1"], &[]);
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("'SECRET=1' is not a variable name") && said.contains("--pass-env"), "{said}");
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(
        dir.path(),
        "t.toml",
        "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", \"medium\"]\n[settings]\npass_env = [\"HOME\"]\n",
    );
    let output = arena(&["tournament", "run", file.to_str().unwrap()], &[]);
    let said = stderr(&output);
    assert!(said.contains("line 5: settings.pass_env[0]: 'HOME' cannot be passed: "), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
}

/// `export PYTHONPATH=$PYTHONPATH:/x` with PYTHONPATH unset gives an empty
/// entry, which Python reads as its working directory. Asked about itself
/// in the arena's folder, the interpreter would then have named that folder
/// as one to read, and every Python player could read what the arena's
/// folder holds (other players, the server's database).
#[test]
fn an_empty_pythonpath_entry_does_not_open_the_arenas_folder() {
    let folder = tempfile::tempdir().unwrap();
    let secret = write_file(folder.path(), "arena.db", "SECRET GRADES\n");
    let python = workspace_root().join("arena/tests/python/escape_player.py");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arena"));
    command.args(["play", &format!("python:{}", python.display()), "easy", "--games", "2"]).args(PASS_ORDERS);
    command.env("ESCAPE_MODE", "read").env("ESCAPE_TARGET", &secret);
    command.env("PYTHONPATH", format!(":{}", package())).env("RUST_LOG", "arena_core=debug");
    let output = command.current_dir(folder.path()).output().unwrap();
    for report in reports(&output) {
        assert!(report.contains("blocked: ") && report.contains("Permission denied"), "{report}");
    }
    let log = stderr(&output);
    let reads: Vec<&str> = log.lines().filter(|l| l.contains("a sandboxed worker may read")).collect();
    assert!(!reads.is_empty(), "no read list in the log: {log}");
    let arena_folder = format!("\"{}\"", folder.path().canonicalize().unwrap().display());
    for line in reads {
        assert!(!line.contains(&arena_folder), "the arena's folder is readable: {line}");
        assert!(line.contains("players/python/src"), "PYTHONPATH's folder is not readable: {line}");
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
            "format = \"round-robin\"\ngames_per_pairing = 2\nseed = 7\noutput = \"results\"\nplayers = [\"{}\", \"easy\", \"medium\"]\n[settings]\npass_env = [\"ESCAPE_MODE\", \"ESCAPE_TARGET\"]\n",
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
    let run = |sandbox: &str| {
        let file = write(sandbox).display().to_string();
        arena(&[&["tournament", "run", &file][..], &PASS_ORDERS].concat(), &env)
    };
    let off = run("off");
    assert!(off.status.success(), "{}", stderr(&off));
    assert!(journal_text(dir.path(), "off").contains("SUCCEEDED reading"));
    let on = run("on");
    assert!(on.status.success(), "{}", stderr(&on));
    assert!(journal_text(dir.path(), "on").contains("blocked: "));
    let bad = run("maybe");
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

/// What `nobody` runs, copied into a fresh folder it can enter (the
/// checkout may be where only root can: under /root, or in a 0700 `mktemp
/// -d` folder): the arena binary, the escaper library, the Python escaper
/// and the arena_player package; and the folders it plays in.
struct NobodysCopy {
    _dir: tempfile::TempDir,
    arena: PathBuf,
    library: PathBuf,
    python_player: PathBuf,
    package: PathBuf,
    /// Where it runs (0755), holding a secret anyone may read.
    work: PathBuf,
    /// Its TMPDIR (0777), where its workers' scratch folders go.
    scratch: PathBuf,
}

impl NobodysCopy {
    /// The copy, or why it cannot be made here.
    fn new() -> Result<NobodysCopy, String> {
        let dir = unprivileged::folder_others_can_enter()?;
        let root = dir.path();
        let arena = copy_file(Path::new(env!("CARGO_BIN_EXE_arena")), root.join("arena"), 0o755)?;
        let library = copy_file(&library("escape-player"), root.join("libescape_player.so"), 0o644)?;
        let escaper = workspace_root().join("arena/tests/python/escape_player.py");
        let python = make_folder(root.join("python"), 0o755)?;
        let python_player = copy_file(&escaper, python.join("escape_player.py"), 0o644)?;
        let package = root.join("package");
        copy_tree(&workspace_root().join("players/python/src"), &package)?;
        let work = make_folder(root.join("work"), 0o755)?;
        let scratch = make_folder(root.join("scratch"), 0o777)?;
        Ok(NobodysCopy { _dir: dir, arena, library, python_player, package, work, scratch })
    }
}

fn copy_file(from: &Path, to: PathBuf, mode: u32) -> Result<PathBuf, String> {
    std::fs::copy(from, &to)
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
    set_mode(&to, mode)?;
    Ok(to)
}

fn make_folder(path: PathBuf, mode: u32) -> Result<PathBuf, String> {
    std::fs::create_dir_all(&path).map_err(|e| format!("cannot make {}: {e}", path.display()))?;
    set_mode(&path, mode)?;
    Ok(path)
}

/// Copies the folder `from` to `to` (Python's caches left out): folders
/// 0755, files 0644.
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    make_folder(to.to_path_buf(), 0o755)?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "__pycache__") {
            continue;
        }
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            copy_file(&path, target, 0o644)?;
        }
    }
    Ok(())
}

/// As an unprivileged user the same holds, through a user namespace (and
/// RLIMIT_NPROC for the fork bomb). Runs when the tests run as root, as the
/// user `nobody`, on copies in a folder it can enter; as another user,
/// every test here is already unprivileged. The Python player runs on the
/// system's /usr/bin/python3 (nobody cannot enter root's home, where a
/// pyenv Python lives), when there is one.
#[test]
fn as_an_unprivileged_user_the_sandbox_holds() {
    if !unprivileged::is_root() {
        return;
    }
    // An unsandboxed Gradescope grading may end every process of `nobody`.
    let _turn = unprivileged::turn();
    let copies = match NobodysCopy::new() {
        Ok(copies) => copies,
        Err(why) => {
            eprintln!("as_an_unprivileged_user_the_sandbox_holds: skipped: {why}");
            return;
        }
    };
    let secret = write_file(&copies.work, "secret.txt", "readable by anyone\n");
    std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o666)).unwrap();
    let system_python = Path::new("/usr/bin/python3");
    // (The processes left are found by the copy's path, which no other
    // test's processes hold.)
    let mut players = vec![(copies.library.display().to_string(), copies.library.display().to_string())];
    if system_python.is_file() {
        let path = copies.python_player.display().to_string();
        players.push((format!("python:{path}"), path));
    }
    for (player, needle) in players {
        let nobody = |mode: &str, target: &str| {
            let mut command = std::process::Command::new(&copies.arena);
            command
                .args(["play", &player, "easy", "--games", "2", "--time-per-turn", "10s"])
                .args(PASS_ORDERS);
            command.env("ESCAPE_MODE", mode).env("ESCAPE_TARGET", target).env("TMPDIR", &copies.scratch);
            command.env("ARENA_PYTHON", system_python).env("PYTHONPATH", &copies.package);
            std::os::unix::process::CommandExt::uid(&mut command, 65534);
            std::os::unix::process::CommandExt::gid(&mut command, 65534);
            command.current_dir(&copies.work).output().unwrap()
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
        assert_eq!(processes_left(&needle), Vec::<String>::new());
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
