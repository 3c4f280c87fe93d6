//! `--memory DIR`: a player's memory across matches. Each player has a
//! store in the folder, a file named for its spec (`store_name`): the
//! bytes it handed back at the end of its last match, given back to it at
//! the start of its next one. A store is bounded (`DEFAULT_BOUND`): an
//! oversize memory is refused, and the store keeps what it had. Under the
//! sandbox it is the only thing a player keeps: the arena reads and writes
//! the store, the player sees only bytes (a library through the ABI, a
//! worker or a program in `setup` and `memory` frames).

use std::{
    fs,
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
};

use sha2::{Digest, Sha256};

use crate::players::{external::Program, PlayerSpec};

/// A store's bound unless told otherwise: 1 MiB.
pub const DEFAULT_BOUND: usize = 1 << 20;

/// The stores' writes so far in this process: each writes to a name of its own.
static WRITES: AtomicU64 = AtomicU64::new(0);

/// The folder of the stores.
#[derive(Clone, Debug)]
pub struct MemoryDir {
    dir: PathBuf,
    bound: usize,
}

impl MemoryDir {
    /// The folder `dir` (made if missing), its stores bounded by `bound` bytes.
    pub fn open(dir: &Path, bound: usize) -> Result<MemoryDir, String> {
        fs::create_dir_all(dir).map_err(|e| {
            format!("--memory {}: cannot make the folder ({e}): name a folder you can write", dir.display())
        })?;
        Ok(MemoryDir { dir: dir.to_path_buf(), bound })
    }

    /// The file of the store named `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.memory"))
    }

    /// The memory in store `name` (None: there is none yet), or why it
    /// cannot be given (one line: oversize, unreadable).
    pub fn load(&self, name: &str) -> Result<Option<Vec<u8>>, String> {
        let path = self.path(name);
        match fs::read(&path) {
            Ok(bytes) if bytes.len() > self.bound => Err(format!(
                "memory {} holds {} bytes, over the bound of {}: not given (remove the file to start afresh)",
                path.display(),
                bytes.len(),
                self.bound
            )),
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("memory {}: cannot read it ({e})", path.display())),
        }
    }

    /// Replaces store `name` with `bytes`, whole or not at all; an oversize
    /// memory is refused (one line) and the store keeps what it had.
    pub fn keep(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, String> {
        let path = self.path(name);
        if bytes.len() > self.bound {
            return Err(format!(
                "the memory {name} handed back is {} bytes, over the bound of {}: not kept ({} keeps what it had)",
                bytes.len(),
                self.bound,
                path.display()
            ));
        }
        // A name of this write's own (this process, its nth write): matches
        // that keep the same store at once, in this process or others, each
        // write whole, and the last rename wins. Nothing reads, changes and
        // writes back a store, so no lock is needed beside it.
        let nth = WRITES.fetch_add(1, Ordering::Relaxed);
        let partial = self.dir.join(format!(".{name}.memory.{}-{nth}.partial", std::process::id()));
        let written = fs::write(&partial, bytes)
            .and_then(|()| fs::File::open(&partial)?.sync_all())
            .and_then(|()| fs::rename(&partial, &path));
        if let Err(e) = written {
            let _ = fs::remove_file(&partial);
            return Err(format!("memory {}: cannot write it ({e})", path.display()));
        }
        Ok(path)
    }
}

/// The store of the player `spec` names: the same spec, the same store,
/// run after run. A built-in is its name (`menace`); a path is its file or
/// folder name and a short hash of the whole path (two `bot.so` in two
/// folders are two players); a command, `cmd-` and a hash of it.
pub fn store_name(spec: &PlayerSpec) -> String {
    let hashed = |stem: &str, whole: &str| format!("{}-{}", clean(stem), short_hash(whole));
    let of_path = |path: &Path| {
        let whole = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let stem = whole.file_stem().map_or_else(|| "player".into(), |s| s.to_string_lossy().into_owned());
        hashed(&stem, &whole.to_string_lossy())
    };
    match spec {
        PlayerSpec::Builtin(level) => level.name().to_string(),
        PlayerSpec::Person => "human".to_string(),
        PlayerSpec::Library(path) => of_path(path),
        PlayerSpec::Program(Program::Python(path)) => of_path(path),
        PlayerSpec::Program(program) => hashed("cmd", &program.to_string()),
    }
}

/// The stores of a match's two players: one each, told apart when both
/// are the same spec (`menace` against `menace`: `menace`, `menace-2`).
pub fn store_names(specs: [&PlayerSpec; 2]) -> [String; 2] {
    let [one, two] = specs.map(store_name);
    if one == two {
        let second = format!("{two}-2");
        [one, second]
    } else {
        [one, two]
    }
}

fn clean(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

fn short_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().take(4).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::Level;

    #[test]
    fn a_store_is_named_for_its_spec_the_same_each_run() {
        assert_eq!(store_name(&PlayerSpec::Builtin(Level::Menace)), "menace");
        let a = store_name(&"a/libbot.so".parse().unwrap());
        assert!(a.starts_with("libbot-") && a.len() == "libbot-".len() + 8, "{a}");
        assert_eq!(a, store_name(&"a/libbot.so".parse().unwrap()));
        assert_ne!(a, store_name(&"b/libbot.so".parse().unwrap()));
        assert!(store_name(&"cmd:./bot --x".parse().unwrap()).starts_with("cmd-"));
        let menace = PlayerSpec::Builtin(Level::Menace);
        assert_eq!(store_names([&menace, &menace]), ["menace", "menace-2"]);
    }

    #[test]
    fn a_store_is_bounded_and_an_oversize_memory_leaves_it_as_it_was() {
        let dir = std::env::temp_dir().join(format!("arena-memory-test-{}", std::process::id()));
        let store = MemoryDir::open(&dir, 8).unwrap();
        assert_eq!(store.load("p"), Ok(None));
        store.keep("p", b"12345678").unwrap();
        assert_eq!(store.load("p"), Ok(Some(b"12345678".to_vec())));
        let err = store.keep("p", b"123456789").unwrap_err();
        assert!(err.contains("is 9 bytes, over the bound of 8: not kept"), "{err}");
        assert_eq!(store.load("p"), Ok(Some(b"12345678".to_vec())));
        fs::write(store.path("q"), b"123456789").unwrap();
        assert!(store.load("q").unwrap_err().contains("over the bound of 8: not given"));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writers_of_one_store_at_once_each_write_whole() {
        let dir = tempfile::tempdir().unwrap();
        let store = MemoryDir::open(dir.path(), DEFAULT_BOUND).unwrap();
        let written: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 64 << 10]).collect();
        std::thread::scope(|s| {
            for bytes in &written {
                let store = &store;
                s.spawn(move || {
                    for _ in 0..50 {
                        store.keep("p", bytes).unwrap();
                    }
                });
            }
        });
        assert!(written.contains(&store.load("p").unwrap().unwrap()), "one writer's memory, whole");
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["p.memory"], "no write left a file behind");
    }
}
