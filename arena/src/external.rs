//! Players that are programs: any command that speaks the protocol on its
//! stdin and stdout (`cmd:./my_bot`), or a Python player hosted by the
//! `arena_player` package (`python:path`, docs/python-players.md). They run
//! as workers (isolation.rs) under every limit a worker has.

use std::{
    ffi::OsString,
    fmt,
    path::{Path, PathBuf},
    sync::Mutex,
};

use crate::{fault::Fault, isolation::Launch};

/// The variable that names the Python interpreter (default: `python3`).
pub const PYTHON_ENV: &str = "ARENA_PYTHON";

/// The file that makes a folder a course player.
pub const COURSE_FILE: &str = "PlayerAI.py";

/// A program player, as named on the command line or in a tournament file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Program {
    /// Any command; run in `dir` (default: the arena's working directory).
    Command { argv: Vec<String>, dir: Option<PathBuf> },
    /// A Python player: a folder holding a course `PlayerAI.py`, a course
    /// `PlayerAI.py`, or a file defining an `arena_player.TrapPlayer`.
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
            Err("python: needs a path: python:FOLDER (holding PlayerAI.py) or python:FILE.py".to_string())
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
    /// or a folder holding `PlayerAI.py`.
    pub fn is_python_path(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "py") || path.join(COURSE_FILE).is_file()
    }

    /// How to start it: checks that what it names exists and finds the
    /// program to run. The error says what is missing and the fix.
    pub fn launch(&self) -> Result<Launch, String> {
        match self {
            Program::Command { argv, dir } => {
                let found = find_program(&argv[0], dir.as_deref())?;
                // A Python runs as itself (not through a launcher script such
                // as pyenv's shim), with its installation readable.
                let (program, installation) = if is_python(&found) {
                    let interpreter = interpreter(&found)?;
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
                let (folder, target) = python_target(path)?;
                let python = std::env::var(PYTHON_ENV).unwrap_or_else(|_| "python3".to_string());
                let found = find_program(&python, None).map_err(|why| {
                    format!("{why}: install Python 3 (3.10 or newer), or set {PYTHON_ENV} to the interpreter")
                })?;
                let interpreter = interpreter(&found)?;
                let env = [
                    // Leave no __pycache__ in students' folders.
                    ("PYTHONDONTWRITEBYTECODE", "1"),
                    // One core per player: numpy's BLAS would start a thread per core.
                    ("OPENBLAS_NUM_THREADS", "1"),
                    ("OMP_NUM_THREADS", "1"),
                ];
                Ok(Launch {
                    program: interpreter.executable,
                    args: vec!["-m".into(), "arena_player".into(), target.into()],
                    reads: [folder.clone()].into_iter().chain(interpreter.paths).collect(),
                    dir: Some(folder),
                    env: env.iter().map(|(k, v)| (k.into(), v.into())).collect(),
                })
            }
        }
    }

    /// Why the program could not start, as one line with the fix.
    pub fn explain(&self, launch: &Launch, fault: Fault) -> String {
        let python = launch.program.display();
        match fault {
            Fault::Unavailable(message) if message.contains("No module named arena_player") => format!(
                "{python} cannot find the arena_player package: install it with `{python} -m pip install ./players/python` (from the arena's folder)"
            ),
            Fault::Unavailable(message) => message,
            Fault::Timeout { budget, .. } => format!(
                "it sent no hello within the start-up time ({}): a program player sends hello first (docs/protocol.md)",
                crate::units::seconds(budget)
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

/// The folder a Python player runs in, and the path handed to arena_player.
fn python_target(path: &Path) -> Result<(PathBuf, PathBuf), String> {
    let shown = path.display();
    let absolute = path.canonicalize().map_err(|_| {
        format!("no Python player at {shown}: name a folder holding {COURSE_FILE}, or a .py file")
    })?;
    if absolute.is_dir() {
        if !absolute.join(COURSE_FILE).is_file() {
            return Err(format!(
                "{shown} holds no {COURSE_FILE}: name a course player's folder, or a player .py file"
            ));
        }
        return Ok((absolute.clone(), absolute));
    }
    if absolute.extension().is_none_or(|e| e != "py") {
        return Err(format!(
            "{shown} is not a Python file: name a folder holding {COURSE_FILE}, or a .py file"
        ));
    }
    let folder = absolute.parent().map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
    Ok((folder, absolute))
}

/// A Python installation as it sees itself: the interpreter to run (not a
/// launcher script such as pyenv's shims), and the folders it reads (its
/// prefixes and `sys.path`: the standard library, site-packages, the
/// arena_player package), which its sandbox must let it read.
#[derive(Clone, Debug)]
struct Interpreter {
    executable: PathBuf,
    paths: Vec<PathBuf>,
}

/// Whether a program is a Python interpreter (`python`, `python3.11`, ...).
fn is_python(program: &Path) -> bool {
    program.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("python"))
}

/// Asks `python` about itself, once per interpreter.
fn interpreter(python: &Path) -> Result<Interpreter, String> {
    static SEEN: Mutex<Vec<(PathBuf, Result<Interpreter, String>)>> = Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, known)) = seen.iter().find(|(p, _)| p == python) {
        return known.clone();
    }
    const ASK: &str = "import sys\nfor p in [sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix] + sys.path: print(p)";
    let answer = std::process::Command::new(python)
        .args(["-c", ASK])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))
        .and_then(|out| {
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let mut lines = text.lines().filter(|l| !l.is_empty()).map(PathBuf::from);
            match (out.status.success(), lines.next()) {
                (true, Some(executable)) => Ok(Interpreter { executable, paths: lines.collect() }),
                _ => Err(format!(
                    "{} does not run as Python 3: {}",
                    python.display(),
                    String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("no answer")
                )),
            }
        });
    seen.push((python.to_path_buf(), answer.clone()));
    answer
}

/// The program a command names: a path (relative to `dir`) if it holds a
/// slash, else a name found on PATH.
fn find_program(name: &str, dir: Option<&Path>) -> Result<PathBuf, String> {
    if name.contains('/') {
        let path = dir.map_or_else(|| PathBuf::from(name), |d| d.join(name));
        return if path.is_file() {
            Ok(path.canonicalize().unwrap_or(path))
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
        let missing = Program::Python(PathBuf::from("/no/such/folder")).launch().unwrap_err();
        assert!(missing.contains("no Python player at /no/such/folder"), "{missing}");
        let empty = tempfile::tempdir().unwrap();
        let no_course = Program::Python(empty.path().to_path_buf()).launch().unwrap_err();
        assert!(no_course.contains("holds no PlayerAI.py"), "{no_course}");
        let command = Program::command("no-such-program-anywhere", None).unwrap().launch().unwrap_err();
        assert_eq!(command, "cannot find no-such-program-anywhere on PATH");
        let relative = Program::command("./bot", Some(empty.path().to_path_buf())).unwrap();
        assert!(relative.launch().unwrap_err().starts_with("no program at "), "{relative}");
    }

    #[test]
    fn a_python_folder_runs_in_itself() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join(COURSE_FILE), "class PlayerAI: pass\n").unwrap();
        assert!(Program::is_python_path(folder.path()));
        assert!(Program::is_python_path(Path::new("bot.py")));
        assert!(!Program::is_python_path(Path::new("libbot.so")));
        let launch = Program::Python(folder.path().to_path_buf()).launch().unwrap();
        let canonical = folder.path().canonicalize().unwrap();
        assert_eq!(launch.dir.as_deref(), Some(canonical.as_path()));
        assert_eq!(launch.args, ["-m".into(), "arena_player".into(), OsString::from(&canonical)]);
    }
}
