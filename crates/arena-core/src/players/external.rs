//! Players that are programs: any command that speaks the protocol on its
//! stdin and stdout (`cmd:./my_bot`), or a Python player hosted by the
//! `arena_player` package (`python:path`, docs/python-players.md). They run
//! as workers (isolation/) under every limit a worker has.

use std::{
    ffi::OsString,
    fmt,
    io::Read,
    path::{Path, PathBuf},
    sync::Mutex,
};

use crate::{
    play::fault::Fault,
    players::{
        isolation::{environment, Launch},
        python_host,
    },
    sandbox::Scratch,
};

/// The variable that names the Python interpreter (default: `python3`).
pub const PYTHON_ENV: &str = "ARENA_PYTHON";

/// The file that makes a folder a course player.
pub const COURSE_FILE: &str = "PlayerAI.py";

/// The course's own modules. A folder whose parent holds any of them (the
/// course's layout: `test_players/HardAI.py` one folder below `Grid.py`)
/// imports them from there: arena_player puts the parent on `sys.path`
/// (load.py, by the same rule) and the sandbox lets it read the parent.
const COURSE_MODULES: [&str; 3] = ["Grid.py", "BaseAI.py", "Utils.py"];

/// The Python that runs Python players: `ARENA_PYTHON`, else the `python3`
/// beside the arena's binary (a virtual environment's, where the arena's
/// wheel put it: its numpy is there, whether or not it is activated), else
/// `python3` on PATH.
pub fn python() -> String {
    if let Ok(named) = std::env::var(PYTHON_ENV) {
        return named;
    }
    let beside = std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.join("python3")));
    match beside.filter(|p| p.is_file()) {
        Some(beside) => beside.display().to_string(),
        None => "python3".to_string(),
    }
}

/// A program player, as named on the command line or in a tournament file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Program {
    /// Any command; run in `dir` (default: the arena's working directory).
    Command { argv: Vec<String>, dir: Option<PathBuf> },
    /// A Python player: a folder holding a course `PlayerAI.py`, a course
    /// file (a class deriving from the course's `BaseAI`), or a file
    /// defining an `arena_player.TrapPlayer`. The path is kept as written:
    /// `FILE.py:CLASS` names one class of the file (`python_file`).
    Python(PathBuf),
}

impl Program {
    /// `cmd:COMMAND` or `python:PATH`; None for any other text.
    pub fn parse(text: &str) -> Option<Result<Program, String>> {
        if let Some(command) = text.strip_prefix("cmd:") {
            return Some(Program::command(command, None));
        }
        let path = text.strip_prefix("python:")?;
        Some(if path.is_empty() {
            Err("python: needs a path: python:FOLDER (holding PlayerAI.py), python:FILE.py or python:FILE.py:CLASS"
                .to_string())
        } else {
            Ok(Program::Python(PathBuf::from(path)))
        })
    }

    /// A command line split as a shell would (quotes group words), run in `dir`.
    pub fn command(line: &str, dir: Option<PathBuf>) -> Result<Program, String> {
        match shlex::split(line) {
            None => Err(format!("cmd:{line}: unbalanced quotes")),
            Some(argv) if argv.is_empty() => {
                Err("cmd: needs a command, e.g. cmd:./my_bot or cmd:python3 my_bot.py".to_string())
            }
            Some(argv) => Ok(Program::Command { argv, dir }),
        }
    }

    /// Whether a path without a prefix names a Python player: a `.py` file
    /// (with or without `:CLASS`) or a folder holding `PlayerAI.py`.
    pub fn is_python_path(path: &Path) -> bool {
        python_file(path).0.extension().is_some_and(|e| e == "py") || path.join(COURSE_FILE).is_file()
    }

    /// How to start it: checks that what it names exists and finds the
    /// program to run (a Python is asked about itself with the variables
    /// its workers are passed, `pass_env`). The error says what is missing
    /// and the fix.
    pub fn launch(&self, pass_env: &[String]) -> Result<Launch, String> {
        match self {
            Program::Command { argv, dir } => {
                let found = find_program(&argv[0], dir.as_deref())?;
                // A Python runs as itself (not through a launcher script such
                // as pyenv's shim), with its installation readable.
                let (program, installation) = if is_python(&found) {
                    let interpreter = interpreter(&found, pass_env)?;
                    (interpreter.executable, interpreter.paths)
                } else {
                    (found, Vec::new())
                };
                let args: Vec<OsString> = argv[1..].iter().map(OsString::from).collect();
                // Sandboxed, it reads its program, its folder, and the files its arguments name.
                let base = dir.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
                let named = args.iter().map(|a| base.join(a)).filter(|p| p.exists());
                let reads = [program.clone()]
                    .into_iter()
                    .chain(installation)
                    .chain(dir.clone())
                    .chain(named)
                    .collect();
                Ok(Launch { program, args, dir: dir.clone(), env: Vec::new(), reads })
            }
            Program::Python(path) => {
                let target = PythonTarget::find(path)?;
                let python = python();
                let found = find_program(&python, None).map_err(|why| {
                    format!("{why}: install Python 3 (3.10 or newer), or set {PYTHON_ENV} to the interpreter")
                })?;
                let interpreter = interpreter(&found, pass_env)?;
                if interpreter.version < OLDEST_PYTHON {
                    let ((major, minor), (oldest_major, oldest_minor)) = (interpreter.version, OLDEST_PYTHON);
                    return Err(format!(
                        "{} is Python {major}.{minor}: Python players need {oldest_major}.{oldest_minor} or newer; set {PYTHON_ENV} to a newer interpreter",
                        found.display()
                    ));
                }
                let host = python_host::folder()?;
                let env = [
                    // Leave no __pycache__ in students' folders.
                    ("PYTHONDONTWRITEBYTECODE", "1"),
                    // One core per player: numpy's BLAS would start a thread per core.
                    ("OPENBLAS_NUM_THREADS", "1"),
                    ("OMP_NUM_THREADS", "1"),
                    // The same hash order (of a set of strings) in every run:
                    // the player's luck is the game's (arena_player/luck.py
                    // seeds the rest), so a game can be played again.
                    ("PYTHONHASHSEED", "0"),
                ];
                let mut env: Vec<(OsString, OsString)> =
                    env.iter().map(|(k, v)| (k.into(), v.into())).collect();
                // The host this arena carries, imported before any installed one.
                if let Some(host) = &host {
                    env.push(("PYTHONPATH".into(), environment::python_path_with(host)));
                }
                let args = ["-m".into(), "arena_player".into(), target.path.into()];
                Ok(Launch {
                    program: interpreter.executable,
                    args: args.into_iter().chain(target.class.map(OsString::from)).collect(),
                    reads: [target.folder.clone()]
                        .into_iter()
                        .chain(target.course_root)
                        .chain(host)
                        .chain(interpreter.paths)
                        .collect(),
                    dir: Some(target.folder),
                    env,
                })
            }
        }
    }

    /// Why the program could not start, as one line with the fix.
    pub fn explain(&self, launch: &Launch, fault: Fault) -> String {
        let python = launch.program.display();
        match fault {
            Fault::Unavailable(message) if message.contains("No module named arena_player") => {
                match python_host::folder() {
                    Ok(Some(host)) => format!(
                        "{python} cannot import the arena_player package this arena carries (in {}): that folder must be readable by the user running the arena",
                        host.display()
                    ),
                    _ => format!(
                        "{python} cannot find the arena_player package, and {env}=installed asks for its own: install it in that Python (`{python} -m pip install ./players/python` from the arena's folder), or unset {env} to run the one this arena carries",
                        env = python_host::HOST_ENV
                    ),
                }
            }
            Fault::Unavailable(message) => message,
            Fault::Timeout { budget, .. } => format!(
                "it sent no hello within the start-up time ({}): a program player sends hello first (docs/protocol.md)",
                crate::report::units::seconds(budget)
            ),
            Fault::Protocol(why) => format!(
                "it does not speak the protocol ({why}): a program player writes only protocol frames on stdout (docs/protocol.md) and prints everything else on stderr"
            ),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Program::Command { argv, dir } => {
                let line =
                    shlex::try_join(argv.iter().map(String::as_str)).unwrap_or_else(|_| argv.join(" "));
                write!(f, "cmd:{line}")?;
                match dir {
                    Some(dir) => write!(f, " (in {})", dir.display()),
                    None => Ok(()),
                }
            }
            Program::Python(path) => write!(f, "python:{}", path.display()),
        }
    }
}

/// What a `python:` path names, checked.
#[derive(Debug)]
struct PythonTarget {
    /// The folder it runs in (the folder named, or the file's).
    folder: PathBuf,
    /// The folder or file handed to arena_player.
    path: PathBuf,
    /// The class named after the file (`FILE.py:CLASS`), handed on too.
    class: Option<String>,
    /// The folder above, when it holds the course's modules (COURSE_MODULES).
    course_root: Option<PathBuf>,
}

impl PythonTarget {
    fn find(path: &Path) -> Result<PythonTarget, String> {
        let (file, class) = python_file(path);
        let shown = path.display();
        let absolute = file.canonicalize().map_err(|_| {
            format!("no Python player at {shown}: name a folder holding {COURSE_FILE}, or a .py file")
        })?;
        let folder = if absolute.is_dir() {
            if !absolute.join(COURSE_FILE).is_file() {
                return Err(format!(
                    "{shown} holds no {COURSE_FILE}: name a course player's folder, or a player .py file"
                ));
            }
            absolute.clone()
        } else if absolute.extension().is_some_and(|e| e == "py") {
            absolute.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
        } else {
            return Err(format!(
                "{shown} is not a Python file: name a folder holding {COURSE_FILE}, or a .py file"
            ));
        };
        let course_root = folder
            .parent()
            .filter(|parent| COURSE_MODULES.iter().any(|m| parent.join(m).is_file()))
            .map(Path::to_path_buf);
        Ok(PythonTarget { folder, path: absolute, class, course_root })
    }
}

/// Splits `FILE.py:CLASS` into the file and the class name; any other path
/// (one that exists as written included) comes back whole.
fn python_file(path: &Path) -> (PathBuf, Option<String>) {
    let split = path.to_str().filter(|_| !path.exists()).and_then(|text| text.rsplit_once(':'));
    match split {
        Some((file, class)) if file.ends_with(".py") && player_api::params::is_identifier(class) => {
            (PathBuf::from(file), Some(class.to_string()))
        }
        _ => (path.to_path_buf(), None),
    }
}

/// A Python installation as it sees itself: the interpreter to run (not a
/// launcher script such as pyenv's shims; a virtual environment's python
/// reports its own path, so it runs in its environment), and the folders
/// it reads (its prefixes and `sys.path`: the standard library,
/// site-packages, the arena_player package, a virtual environment), which
/// its sandbox must let it read.
#[derive(Clone, Debug)]
struct Interpreter {
    executable: PathBuf,
    /// Its version, (major, minor).
    version: (u32, u32),
    paths: Vec<PathBuf>,
}

/// The oldest Python the host of Python players runs on (its pyproject's
/// `requires-python`).
const OLDEST_PYTHON: (u32, u32) = (3, 10);

/// Whether a program is a Python interpreter (`python`, `python3.11`, ...).
fn is_python(program: &Path) -> bool {
    program.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("python"))
}

/// Asks the Python that runs Python players about itself now (with the
/// variables a worker is passed, `pass_env`), rather than at the first
/// Python player's start: a server does it as it starts, at its own
/// priority. Asked first by a grading at the games' nice value beside a
/// busy machine, it waited minutes for a core (a pyenv shim forks dozens
/// of times), with no bound, and the grading stayed "checking". What it
/// finds, or that it finds nothing, is kept for that first player.
pub fn ask_python_now(pass_env: &[String]) {
    if let Ok(found) = find_program(&python(), None) {
        let _ = interpreter(&found, pass_env);
    }
}

/// Asks `python` about itself, once per interpreter (and `pass_env`).
///
/// Its answer becomes what every Python player may read, so it is asked as
/// a worker would ask it: in a worker's environment (`PYTHONPATH`
/// filtered, the variables in `pass_env`) and from an empty folder, so that no entry is the arena's
/// working directory (which an empty PYTHONPATH entry would put on
/// `sys.path`). Only absolute folders that exist and hold neither the
/// arena's working directory nor its home are kept
/// (`environment::search_folder`).
fn interpreter(python: &Path, pass_env: &[String]) -> Result<Interpreter, String> {
    type Asked = (PathBuf, Vec<String>);
    static SEEN: Mutex<Vec<(Asked, Result<Interpreter, String>)>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let asked = (python.to_path_buf(), pass_env.to_vec());
    if let Some((_, known)) = seen.iter().find(|(a, _)| *a == asked) {
        return known.clone();
    }
    let answer = launched_python(python).and_then(|executable| describe(&executable, python, pass_env));
    seen.push((asked, answer.clone()));
    answer
}

/// The interpreter a launcher script runs here (pyenv's shim picks one by
/// the arena's environment and folder: PYENV_VERSION, `.python-version`),
/// as the user running the arena would get it; a program that is not a
/// script is the interpreter itself.
fn launched_python(python: &Path) -> Result<PathBuf, String> {
    let mut start = [0u8; 2];
    let is_script =
        std::fs::File::open(python).and_then(|mut f| f.read_exact(&mut start)).is_ok() && &start == b"#!";
    if !is_script {
        return Ok(python.to_path_buf());
    }
    let out = std::process::Command::new(python)
        .args(["-c", "import sys; print(sys.executable)"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match text.lines().next().filter(|l| out.status.success() && !l.is_empty()) {
        Some(executable) => Ok(PathBuf::from(executable)),
        None => Err(not_python(python, &out.stderr)),
    }
}

/// The interpreter `executable`'s own path and the folders it reads, as a
/// worker's python sees them (passed `pass_env`); `named` is how the user
/// named it.
fn describe(executable: &Path, named: &Path, pass_env: &[String]) -> Result<Interpreter, String> {
    const ASK: &str = "import sys\nprint('%d.%d' % sys.version_info[:2])\nfor p in [sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix] + sys.path: print(p)";
    // Empty, and a stand-in for a worker's scratch folder (its HOME: no user site-packages).
    let empty = Scratch::new()?;
    let out = std::process::Command::new(executable)
        .args(["-c", ASK])
        .current_dir(empty.path())
        .env_clear()
        .envs(environment::for_worker(empty.path(), pass_env))
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", named.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines().filter(|l| !l.is_empty());
    let version = lines
        .next()
        .and_then(|v| v.split_once('.'))
        .and_then(|(major, minor)| Some((major.parse().ok()?, minor.parse().ok()?)));
    match (out.status.success(), version, lines.next()) {
        (true, Some(version), Some(executable)) => {
            let private = environment::private_folders();
            let paths = lines.filter_map(|p| environment::search_folder(Path::new(p), &private)).collect();
            Ok(Interpreter { executable: executable.into(), version, paths })
        }
        _ => Err(not_python(named, &out.stderr)),
    }
}

/// Why `python` is not a usable Python, from what it said on stderr.
fn not_python(python: &Path, stderr: &[u8]) -> String {
    let said = String::from_utf8_lossy(stderr);
    format!("{} does not run as Python 3: {}", python.display(), said.lines().last().unwrap_or("no answer"))
}

/// The program a command names: a path (relative to `dir`) if it holds a
/// slash, else a name found on PATH.
fn find_program(name: &str, dir: Option<&Path>) -> Result<PathBuf, String> {
    if name.contains('/') {
        let path = dir.map_or_else(|| PathBuf::from(name), |d| d.join(name));
        return if path.is_file() {
            // Absolute (a worker may start in another folder), but not
            // resolved: a virtual environment's python is a symlink to the
            // base interpreter, and only run by its own path does it find
            // its environment (the pyvenv.cfg beside it).
            Ok(std::path::absolute(&path).unwrap_or(path))
        } else {
            Err(format!("no program at {}: check the path", path.display()))
        };
    }
    let search = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&search)
        .map(|folder| folder.join(name))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| format!("cannot find {name} on PATH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_and_quotes() {
        let parsed = Program::parse("cmd:python3 'my bot.py' --fast").unwrap().unwrap();
        let argv = vec!["python3".to_string(), "my bot.py".to_string(), "--fast".to_string()];
        assert_eq!(parsed, Program::Command { argv, dir: None });
        assert_eq!(parsed.to_string(), "cmd:python3 'my bot.py' --fast");
        assert_eq!(Program::parse("python:a/b").unwrap(), Ok(Program::Python(PathBuf::from("a/b"))));
        assert_eq!(Program::parse("./lib.so"), None);
        assert!(Program::parse("cmd:").unwrap().unwrap_err().contains("needs a command"));
        assert!(Program::parse("cmd:x 'y").unwrap().unwrap_err().contains("unbalanced quotes"));
        assert!(Program::parse("python:").unwrap().unwrap_err().contains("needs a path"));
    }

    #[test]
    fn missing_things_are_named_with_the_fix() {
        let missing = Program::Python(PathBuf::from("/no/such/folder")).launch(&[]).unwrap_err();
        assert!(missing.contains("no Python player at /no/such/folder"), "{missing}");
        let empty = tempfile::tempdir().unwrap();
        let no_course = Program::Python(empty.path().to_path_buf()).launch(&[]).unwrap_err();
        assert!(no_course.contains("holds no PlayerAI.py"), "{no_course}");
        let command = Program::command("no-such-program-anywhere", None).unwrap().launch(&[]).unwrap_err();
        assert_eq!(command, "cannot find no-such-program-anywhere on PATH");
        let relative = Program::command("./bot", Some(empty.path().to_path_buf())).unwrap();
        assert!(relative.launch(&[]).unwrap_err().starts_with("no program at "), "{relative}");
    }

    #[test]
    fn a_python_folder_runs_in_itself() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join(COURSE_FILE), "class PlayerAI: pass\n").unwrap();
        assert!(Program::is_python_path(folder.path()));
        assert!(Program::is_python_path(Path::new("bot.py")));
        assert!(!Program::is_python_path(Path::new("libbot.so")));
        let launch = Program::Python(folder.path().to_path_buf()).launch(&[]).unwrap();
        let canonical = folder.path().canonicalize().unwrap();
        assert_eq!(launch.dir.as_deref(), Some(canonical.as_path()));
        assert_eq!(launch.args, ["-m".into(), "arena_player".into(), OsString::from(&canonical)]);
    }

    #[test]
    fn a_class_after_a_py_file_is_split_off() {
        let split = |p: &str| python_file(Path::new(p));
        assert_eq!(
            split("c/test_players/HardAI.py:HardAI"),
            ("c/test_players/HardAI.py".into(), Some("HardAI".into()))
        );
        assert_eq!(split("bot.py:_Bot2"), ("bot.py".into(), Some("_Bot2".into())));
        for whole in ["bot.py", "a:b/bot.py", "bot.py:2fast", "bot.py:", "folder:Bot", "bot.py:a-b"] {
            assert_eq!(split(whole), (whole.into(), None), "{whole}");
        }
        assert!(Program::is_python_path(Path::new("test_players/HardAI.py:HardAI")));
        // A file really named so is taken as it is.
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("odd.py:Name");
        std::fs::write(&odd, "").unwrap();
        assert_eq!(python_file(&odd), (odd.clone(), None));
    }

    /// The course's layout in a temporary folder: Grid.py at the root,
    /// test_players/SomeAI.py below it.
    fn course_layout() -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("Grid.py"), "class Grid: pass\n").unwrap();
        std::fs::create_dir(root.path().join("test_players")).unwrap();
        let file = root.path().join("test_players/SomeAI.py");
        std::fs::write(&file, "from BaseAI import BaseAI\nclass SomeAI(BaseAI): pass\n").unwrap();
        (root, file)
    }

    #[test]
    fn a_course_test_player_reads_the_course_root_and_gets_its_class() {
        let (root, file) = course_layout();
        let canonical = root.path().canonicalize().unwrap();
        let named = PathBuf::from(format!("{}:SomeAI", file.display()));
        let launch = Program::Python(named).launch(&[]).unwrap();
        let file = canonical.join("test_players/SomeAI.py");
        assert_eq!(launch.dir, Some(canonical.join("test_players")));
        assert_eq!(launch.args[2..], [OsString::from(&file), "SomeAI".into()]);
        assert_eq!(launch.reads[..2], [canonical.join("test_players"), canonical.clone()]);
        // Without the course's modules above it, the folder above stays closed.
        std::fs::remove_file(canonical.join("Grid.py")).unwrap();
        let launch = Program::Python(file.clone()).launch(&[]).unwrap();
        assert_eq!(launch.args[2..], [OsString::from(&file)]);
        assert!(!launch.reads.contains(&canonical), "{:?}", launch.reads);
    }

    #[test]
    fn a_python_player_reads_nothing_that_holds_the_arenas_folder_or_home() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join(COURSE_FILE), "class PlayerAI: pass\n").unwrap();
        let launch = Program::Python(folder.path().to_path_buf()).launch(&[]).unwrap();
        let private = environment::private_folders();
        assert!(!private.is_empty());
        assert!(launch.reads.len() > 1, "its interpreter's folders: {:?}", launch.reads);
        for read in &launch.reads {
            assert!(read.is_absolute() && read.exists(), "{read:?}");
            assert!(!private.iter().any(|p| p.starts_with(read)), "{read:?} holds one of {private:?}");
        }
    }

    #[test]
    fn a_program_path_is_made_absolute_but_not_resolved() {
        // A virtual environment's bin/python is such a symlink.
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("python");
        std::os::unix::fs::symlink("/bin/sh", &link).unwrap();
        assert_eq!(find_program("./python", Some(dir.path())).unwrap(), link);
    }
}
