//! Golden outputs: what `arena play`, `arena bench`, `arena tournament run`
//! and the replay files show a user, for fixed seeds, for every game, compared
//! byte for byte with the recorded files in `tests/golden/` (one per case).
//! It guards refactors that must not change any output: only the measured
//! times are masked (they differ run to run), and the paths that differ
//! between machines (the temporary folder, the library built by cargo).
//!
//! An output change that is intended is recorded again with
//!     ARENA_BLESS=1 cargo test -p arena --test it golden
//! then review the diff of `tests/golden/` before committing it. Without
//! ARENA_BLESS a difference fails, naming the case and its first differing
//! line.
//!
//! What the normalizer does to every output, and why:
//! - times: JSON keys `*_us`, `mean_*_ms`/`max_*_ms`, `used_ns` and CSV
//!   columns `*_us`/`*_ms` become `<T>`; in text, a number followed by a unit
//!   of time or a rate (`12 us`, `0.26 ms`, `1.5 s`, `3 min`, `2 h`,
//!   `1234 games/s`) becomes `<T>`. Settings (`time_per_turn_ms`,
//!   `startup_time_ms`, ...) are kept: they are not measured.
//! - the standings table `tournament run` prints aligns its time columns to
//!   the widest time, so its runs of spaces are collapsed to one.
//! - a journal is written in the order games finish (which varies with the
//!   threads): its games are compared in game-index order, header first.
//! - a tournament's fingerprint hashes its players' paths, so it is masked
//!   in the tournaments that name a library (its path differs per machine).
//! - paths: the library's becomes `<libeasy.so>` (also as the file-safe form
//!   used in file names), the case's temporary folder `<tmp>`.
//! - gzipped files are compared decompressed (the file keeps its `.gz` name).
//!
//! Every command that takes `--concurrency` also runs with `--concurrency 1`
//! and must give the same (normalized) outputs as with the default.

use std::{
    fmt::Write as _,
    io::Read,
    path::{Path, PathBuf},
    process::Command,
    sync::atomic::{AtomicUsize, Ordering},
};

use crate::support;

/// Where the recorded outputs live.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Stands for the path of the `easy` library (loaded in a worker) in the
/// cases' arguments and tournament files, and in the recorded outputs.
const LIB: &str = "<libeasy.so>";

/// What a case runs, in a fresh temporary folder (its working directory).
enum Kind {
    /// `arena ARGS`.
    Run(&'static [&'static str]),
    /// `arena tournament run t.toml` with this file.
    Tournament(&'static str),
}

struct Case {
    /// The recorded file: `tests/golden/<name>.txt`.
    name: &'static str,
    kind: Kind,
}

impl Case {
    /// Whether the command takes `--concurrency` (`play` and `tournament
    /// run` do, `bench` does not): it then also runs with `--concurrency 1`,
    /// and the outputs must be the same.
    fn takes_concurrency(&self) -> bool {
        match self.kind {
            Kind::Run(args) => args.first() == Some(&"play"),
            Kind::Tournament(_) => true,
        }
    }
}

const fn run(name: &'static str, args: &'static [&'static str]) -> Case {
    Case { name, kind: Kind::Run(args) }
}

const fn tournament(name: &'static str, toml: &'static str) -> Case {
    Case { name, kind: Kind::Tournament(toml) }
}

// One case a line, unformatted, to read as a table.
#[rustfmt::skip]
const CASES: &[Case] = &[
    // `arena play`, text and JSON, every game, built-in bots.
    run("play-trap", &["play", "easy", "medium", "--seed", "1", "--games", "6"]),
    run("play-trap-json", &["play", "easy", "medium", "--seed", "1", "--games", "6", "--json"]),
    run("play-trap-only-game", &["play", "medium", "hard", "--seed", "1", "--only-game", "3"]),
    run("play-trap-watch", &["play", "hard", "easy", "--seed", "8", "--board-size", "5", "--watch"]),
    run("play-hexapawn", &["play", "--game", "hexapawn", "easy", "hard", "--seed", "3", "--games", "4"]),
    run("play-hexapawn-json", &["play", "--game", "hexapawn", "medium", "hard", "--seed", "3", "--games", "4", "--json"]),
    run("play-hexapawn-watch", &["play", "--game", "hexapawn", "easy", "medium", "--seed", "1", "--watch"]),
    run("play-intuitive-ai", &["play", "--game", "intuitive-ai", "medium", "--seed", "4", "--games", "5"]),
    run("play-intuitive-ai-json", &["play", "--game", "intuitive-ai", "hard", "--seed", "4", "--games", "5", "--json"]),
    run("play-intuitive-ai-watch", &["play", "--game", "intuitive-ai", "hard", "--seed", "4", "--watch"]),
    run("play-wumpus", &["play", "--game", "wumpus", "medium", "--seed", "4", "--games", "5"]),
    run("play-wumpus-json", &["play", "--game", "wumpus", "hard", "--seed", "4", "--games", "5", "--json"]),
    run("play-wumpus-project", &["play", "--game", "wumpus", "hard", "--seed", "4", "--games", "3", "--preset", "project"]),
    run("play-wumpus-watch", &["play", "--game", "wumpus", "hard", "--seed", "5", "--watch"]),
    run("play-magic-forest", &["play", "--game", "magic-forest", "medium", "--seed", "4", "--games", "5"]),
    run("play-magic-forest-json", &["play", "--game", "magic-forest", "hard", "--seed", "4", "--games", "5", "--json"]),
    run("play-magic-forest-small", &["play", "--game", "magic-forest", "easy", "--seed", "4", "--games", "3", "--largest-forest", "4"]),
    // The same with a library loaded from disk in a worker (the isolated path).
    run("play-trap-library", &["play", LIB, "hard", "--seed", "2", "--games", "4"]),
    run("play-trap-library-json", &["play", LIB, "hard", "--seed", "2", "--games", "4", "--json"]),
    run("play-hexapawn-library-json", &["play", "--game", "hexapawn", LIB, "medium", "--seed", "3", "--games", "4", "--json"]),
    run("play-intuitive-ai-library", &["play", "--game", "intuitive-ai", LIB, "--seed", "4", "--games", "3"]),
    run("play-wumpus-library-json", &["play", "--game", "wumpus", LIB, "--seed", "4", "--games", "2", "--json"]),
    run("play-magic-forest-library", &["play", "--game", "magic-forest", LIB, "--seed", "4", "--games", "3"]),
    // `arena bench`.
    run("bench-trap", &["bench", "medium", "--games", "4", "--seed", "5"]),
    run("bench-trap-library", &["bench", LIB, "--games", "4", "--seed", "5"]),
    run("bench-hexapawn", &["bench", "--game", "hexapawn", "medium", "--games", "4", "--seed", "6"]),
    run("bench-intuitive-ai", &["bench", "--game", "intuitive-ai", "medium", "--games", "20", "--seed", "6"]),
    run("bench-wumpus", &["bench", "--game", "wumpus", "medium", "--games", "20", "--seed", "6"]),
    run("bench-magic-forest-library", &["bench", "--game", "magic-forest", LIB, "--games", "5", "--seed", "6"]),
    // Replays written by `arena play --replay`, every game.
    run("replays-trap", &["play", "easy", LIB, "--seed", "7", "--games", "2", "--replay", "replays"]),
    run("replays-hexapawn", &["play", "--game", "hexapawn", "easy", "hard", "--seed", "7", "--games", "2", "--replay", "replays"]),
    run("replays-intuitive-ai", &["play", "--game", "intuitive-ai", "medium", "--seed", "7", "--games", "3", "--replay", "replays"]),
    run("replays-wumpus", &["play", "--game", "wumpus", "medium", "--seed", "7", "--games", "3", "--replay", "replays"]),
    run("replays-wumpus-one-file-gz", &["play", "--game", "wumpus", "hard", "--seed", "7", "--replay", "one.json.gz"]),
    run("replays-magic-forest", &["play", "--game", "magic-forest", "hard", "--seed", "7", "--games", "2", "--replay", "replays"]),
    // Over 64 KiB (78 KB): written gzipped into the folder.
    run("replays-magic-forest-gz", &["play", "--game", "magic-forest", "easy", "--seed", "4", "--largest-forest", "5", "--replay", "replays"]),
    // `arena tournament run`: stdout, stderr and every file of the output folder.
    tournament(
        "tournament-trap-round-robin",
        r#"name = "golden trap"
game = "trap"
format = "round-robin"
games_per_pairing = 4
seed = 11
output = "out"
players = ["easy", "medium", "hard"]

[settings]
time_per_turn = "1s"

[replays]
save = "losses"
player = "hard"
viewers = false
"#,
    ),
    tournament(
        "tournament-trap-grade-library",
        r#"name = "golden grade"
format = "grade"
seed = 14
output = "out"
players = ["medium", "<libeasy.so>"]

[settings]
time_per_turn = "1s"
"#,
    ),
    tournament(
        "tournament-hexapawn",
        r#"name = "golden hexapawn"
game = "hexapawn"
format = "round-robin"
games_per_pairing = 4
seed = 13
output = "out"
players = ["easy", "medium", "hard"]

[settings]
time_per_turn = "1s"

[replays]
save = "all"
viewers = false
"#,
    ),
    tournament(
        "tournament-wumpus",
        r#"name = "golden wumpus"
game = "wumpus"
games_per_player = 6
seed = 12
output = "out"
players = ["easy", "medium", "hard"]

[settings]
preset = "project"
time_per_turn = "1s"

[replays]
save = "losses"
player = "hard"
viewers = false
"#,
    ),
    tournament(
        "tournament-intuitive-ai",
        r#"name = "golden intuitive-ai"
game = "intuitive-ai"
format = "duplicate"
games_per_player = 10
seed = 15
output = "out"
players = ["easy", "medium", "hard"]

[settings]
time_per_turn = "1s"
"#,
    ),
    tournament(
        "tournament-magic-forest-library",
        r#"name = "golden magic-forest"
game = "magic-forest"
games_per_player = 3
seed = 16
output = "out"
players = ["medium", "<libeasy.so>"]

[settings]
largest_forest = 3
time_per_turn = "1s"

[replays]
save = "all"
viewers = false
"#,
    ),
];

/// The paths that differ between machines, and what they become.
struct Paths {
    replace: Vec<(String, String)>,
}

impl Paths {
    fn new(library: &Path, tmp: &Path) -> Paths {
        let mut replace = Vec::new();
        for (path, placeholder) in [(library, LIB), (tmp, "<tmp>")] {
            let mut forms = vec![path.to_path_buf()];
            if let Ok(canonical) = path.canonicalize() {
                forms.push(canonical);
            }
            for form in forms {
                let text = form.to_string_lossy().into_owned();
                // As written into file names (replay::files::file_safe).
                replace.push((file_safe(&text), placeholder.to_string()));
                replace.push((text, placeholder.to_string()));
            }
        }
        // Longest first, so that no path is half replaced.
        replace.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
        Paths { replace }
    }

    fn normalize(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (from, to) in &self.replace {
            text = text.replace(from.as_str(), to);
        }
        text
    }
}

/// A name as the arena makes it safe for a file name.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// Whether a JSON key holds a measured time.
fn is_time_key(key: &str) -> bool {
    key.ends_with("_us")
        || key == "used_ns"
        || (key.ends_with("_ms") && (key.starts_with("mean_") || key.starts_with("max_")))
}

/// Masks the numbers of timing keys (`"time_us": 12` -> `"time_us": <T>`) in
/// JSON text of any layout (pretty, compact, one turn per line), leaving the
/// rest byte for byte. Strings are skipped whole (escapes included).
fn mask_json_times(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            let next = text[i..].find('"').map_or(bytes.len(), |k| i + k);
            out.push_str(&text[i..next]);
            i = next;
            continue;
        }
        // A string: find its end.
        let mut end = i + 1;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let end = (end + 1).min(bytes.len());
        let key = &text[i + 1..end.saturating_sub(1).max(i + 1)];
        out.push_str(&text[i..end]);
        i = end;
        if !is_time_key(key) {
            continue;
        }
        // `"key"`, spaces, `:`, spaces, a number.
        let mut j = i;
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        if j >= bytes.len() || bytes[j] != b':' {
            continue;
        }
        j += 1;
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        let start = j;
        while j < bytes.len() && (bytes[j].is_ascii_digit() || b"-+.eE".contains(&bytes[j])) {
            j += 1;
        }
        if j > start {
            out.push_str(&text[i..start]);
            out.push_str("<T>");
            i = j;
        }
    }
    out
}

/// Units that follow a measured duration or rate in text.
const TIME_UNITS: &[&str] = &["games/s", "min", "us", "ms", "s", "h"];

/// Masks durations and rates in text: a number, a space and a unit of time
/// (`12 us`, `0.26 ms`, `1234 games/s`) becomes `<T>`.
fn mask_text_times(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let starts_number = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || b"._".contains(&bytes[i - 1])));
        if !starts_number {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
            j += 1;
        }
        let rest = &text[j..];
        let unit = rest.strip_prefix(' ').and_then(|after| {
            TIME_UNITS.iter().find(|unit| {
                after.starts_with(**unit)
                    && !after[unit.len()..].chars().next().is_some_and(|c| c.is_alphanumeric())
            })
        });
        match unit {
            Some(unit) => {
                out.push_str(&text[copied..i]);
                out.push_str("<T>");
                i = j + 1 + unit.len();
                copied = i;
            }
            None => i = j,
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// A CSV with its time columns (`*_us`, `*_ms`) masked.
fn mask_csv_times(csv: &str) -> String {
    let mut lines = csv.lines();
    let Some(header) = lines.next() else { return csv.to_string() };
    let timed: Vec<bool> = header.split(',').map(|h| h.ends_with("_us") || h.ends_with("_ms")).collect();
    let mut out = format!("{header}\n");
    for line in lines {
        let cells: Vec<&str> = line
            .split(',')
            .enumerate()
            .map(|(k, v)| if timed.get(k) == Some(&true) { "<T>" } else { v })
            .collect();
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// A journal's lines, header first, then the games in index order (the
/// file has them in the order they finished).
fn sort_journal(text: &str) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let mut games: Vec<(u64, &str)> = lines
        .map(|line| {
            let value: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("journal line not JSON ({e}): {line}"));
            (value["index"].as_u64().expect("a journaled game has an index"), line)
        })
        .collect();
    games.sort_by_key(|(index, _)| *index);
    let mut out = format!("{header}\n");
    for (_, line) in games {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Masks a journal's fingerprint (`"fingerprint":"8f15..."`).
fn mask_fingerprint(text: &str) -> String {
    let key = "\"fingerprint\":\"";
    match text.find(key) {
        Some(at) => {
            let start = at + key.len();
            let end = start + text[start..].find('"').unwrap_or(0);
            format!("{}<fingerprint: hashes the library's path>{}", &text[..start], &text[end..])
        }
        None => text.to_string(),
    }
}

/// The text of one output, normalized: paths, then times.
fn normalize(text: &str, paths: &Paths) -> String {
    mask_text_times(&mask_json_times(&paths.normalize(text)))
}

fn collapse_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let mut last_space = false;
        for c in line.chars() {
            if c == ' ' && last_space {
                continue;
            }
            last_space = c == ' ';
            out.push(c);
        }
    }
    out
}

/// Appends a section: its title and the text, ending with a newline.
fn section(out: &mut String, title: &str, text: &str) {
    let _ = writeln!(out, "=== {title}");
    out.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        out.push_str("\n[no newline at end]\n");
    }
}

/// Every file under `dir` (recursively), sorted, relative to `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// Runs a case (with `extra` arguments) in a fresh folder and returns its
/// normalized transcript: the command, exit status, stdout, stderr, then
/// every file it wrote.
fn transcript(case: &Case, extra: &[&str]) -> String {
    let library = support::library("easy");
    let library_text = library.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let paths = Paths::new(&library, dir.path());
    let mut out = format!("# golden case {}\n", case.name);

    let mut shown: Vec<String> = match case.kind {
        Kind::Run(args) => args.iter().map(|a| a.to_string()).collect(),
        Kind::Tournament(_) => ["tournament", "run", "t.toml"].map(String::from).to_vec(),
    };
    shown.extend(extra.iter().map(|a| a.to_string()));
    let _ = writeln!(out, "$ arena {}", shown.join(" "));
    let mut inputs = Vec::new();
    if let Kind::Tournament(toml) = case.kind {
        std::fs::write(dir.path().join("t.toml"), toml.replace(LIB, library_text)).unwrap();
        inputs.push(PathBuf::from("t.toml"));
        section(&mut out, "file t.toml (written by the test)", toml);
    }
    let args: Vec<String> = shown.iter().map(|a| a.replace(LIB, library_text)).collect();
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(&args)
        .current_dir(dir.path())
        .env_remove("RUST_LOG")
        .output()
        .expect("the arena binary runs");

    let _ = writeln!(out, "exit: {}", output.status.code().map_or("killed".to_string(), |c| c.to_string()));
    let mut stdout = normalize(&String::from_utf8_lossy(&output.stdout), &paths);
    if matches!(case.kind, Kind::Tournament(_)) {
        stdout = collapse_spaces(&stdout);
    }
    section(&mut out, "stdout", &stdout);
    section(&mut out, "stderr", &normalize(&String::from_utf8_lossy(&output.stderr), &paths));

    let names_library = matches!(case.kind, Kind::Tournament(toml) if toml.contains(LIB));
    for file in files_under(dir.path()).into_iter().filter(|f| !inputs.contains(f)) {
        let bytes = std::fs::read(dir.path().join(&file)).unwrap();
        let name = file.to_string_lossy().into_owned();
        let (bytes, how) = if name.ends_with(".gz") {
            let mut plain = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut plain).expect("a whole gzip file");
            (plain, " (decompressed)")
        } else {
            (bytes, "")
        };
        let mut text = String::from_utf8(bytes).unwrap_or_else(|_| panic!("{name} is not UTF-8"));
        let mut how = how.to_string();
        if name.ends_with(".csv") {
            text = mask_csv_times(&text);
        }
        if name.ends_with(".jsonl") {
            text = sort_journal(&text);
            how.push_str(" (games in index order)");
            if names_library {
                text = mask_fingerprint(&text);
            }
        }
        section(&mut out, &format!("file {}{how}", paths.normalize(&name)), &normalize(&text, &paths));
    }
    out
}

/// The first line where `actual` differs from `expected`, described.
fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    for number in 1.. {
        match (e.next(), a.next()) {
            (None, None) => return None,
            (x, y) if x == y => {}
            (x, y) => {
                return Some(format!(
                    "line {number}:\n  expected: {}\n  actual:   {}",
                    x.unwrap_or("<end of file>"),
                    y.unwrap_or("<end of file>")
                ))
            }
        }
    }
    unreachable!()
}

/// Runs every case (two at a time) and returns the failures.
fn check_all(bless: bool) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(case) = CASES.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let fail = |message: String| failures.lock().unwrap().push(message);
                    let actual = transcript(case, &[]);
                    let file = golden_dir().join(format!("{}.txt", case.name));
                    if bless {
                        std::fs::write(&file, &actual).unwrap();
                    } else {
                        match std::fs::read_to_string(&file) {
                            Err(e) => fail(format!(
                                "case {}: cannot read {} ({e}); record it with ARENA_BLESS=1",
                                case.name,
                                file.display()
                            )),
                            Ok(expected) => {
                                if let Some(diff) = first_difference(&expected, &actual) {
                                    fail(format!(
                                        "case {}: output differs from {} at {diff}",
                                        case.name,
                                        file.display()
                                    ));
                                }
                            }
                        }
                    }
                    if case.takes_concurrency() {
                        // Everything but the command line must be the same.
                        let one = transcript(case, &["--concurrency", "1"]);
                        let without_command = |t: &str| {
                            t.lines().filter(|l| !l.starts_with("$ arena ")).collect::<Vec<_>>().join("\n")
                        };
                        if let Some(diff) =
                            first_difference(&without_command(&actual), &without_command(&one))
                        {
                            fail(format!(
                                "case {}: --concurrency 1 differs from the default concurrency at {diff}",
                                case.name
                            ));
                        }
                    }
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
fn outputs_match_the_recorded_files() {
    let bless = std::env::var_os("ARENA_BLESS").is_some_and(|v| v != "0" && !v.is_empty());
    let dir = golden_dir();
    std::fs::create_dir_all(&dir).unwrap();
    // Cases are distinct files.
    let mut names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), CASES.len(), "two cases share a name");

    let mut failures = check_all(bless);
    // A recorded file whose case is gone.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "txt") && !names.contains(&stem.as_str()) {
            if bless {
                std::fs::remove_file(&path).unwrap();
            } else {
                failures.push(format!("{} belongs to no case: remove it (or ARENA_BLESS=1)", path.display()));
            }
        }
    }
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} golden failure(s) (if the change is intended: ARENA_BLESS=1 cargo test -p arena --test it golden):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_normalizer_masks_times_and_only_times() {
    let json =
        r#"{"time_per_turn_ms": 5000.0, "mean_turn_ms": 0.0006, "time_us": 108, "cpu_us":13, "score": 12}"#;
    assert_eq!(
        mask_json_times(json),
        r#"{"time_per_turn_ms": 5000.0, "mean_turn_ms": <T>, "time_us": <T>, "cpu_us":<T>, "score": 12}"#
    );
    assert_eq!(
        mask_text_times(
            "time per turn: mean 1 us, max 11 us; [2 us] 0.26 ms 1234 games/s 5 forests 33 turns p7 us"
        ),
        "time per turn: mean <T>, max <T>; [<T>] <T> <T> 5 forests 33 turns p7 us"
    );
    assert_eq!(mask_csv_times("a,mean_turn_us,b\n1,2.5,3\n"), "a,mean_turn_us,b\n1,<T>,3\n");
    assert_eq!(collapse_spaces("a   b  c\n d"), "a b c\n d");
}
