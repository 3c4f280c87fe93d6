//! Embeds the sources the arena carries with it: player-api's, for `arena
//! new` (`players/scaffold.rs`), which writes them into a new player's
//! crate, and the `arena_player` package, the host of Python players
//! (`players/python_host.rs`), which every `python:` worker runs. The lists
//! are made here from the folders, so a file added to either goes with the
//! binary unlisted.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    embed(&manifest.join("../../player-api/src"), "rs", &out.join("player_api_files.rs"), Watch::Folder);
    // Python writes its bytecode (`__pycache__`) into the package's folder
    // whenever a test imports it from there: watched as a folder, every
    // test run would make the next build compile the arena again. A new
    // module is imported by an edited one, which is watched.
    let host = manifest.join("../../players/python/src/arena_player");
    embed(&host, "py", &out.join("python_host_files.rs"), Watch::Files);
}

/// What makes the list be made again: any change below the folder, or a
/// change to one of the files listed.
enum Watch {
    Folder,
    Files,
}

/// Writes to `list` a `&[(path, contents)]` of the files ending in
/// `.extension` below `folder`, by their path in it, sorted.
fn embed(folder: &Path, extension: &str, list: &Path, watch: Watch) {
    let folder = folder.canonicalize().unwrap_or_else(|_| panic!("{} is in the workspace", folder.display()));
    let mut files = Vec::new();
    collect(&folder, extension, &mut files);
    files.sort();
    match watch {
        Watch::Folder => println!("cargo:rerun-if-changed={}", folder.display()),
        Watch::Files => files.iter().for_each(|file| println!("cargo:rerun-if-changed={}", file.display())),
    }
    let mut text = String::from("&[\n");
    for file in files {
        let relative =
            file.strip_prefix(&folder).expect("below the folder").to_string_lossy().replace('\\', "/");
        text.push_str(&format!("    ({relative:?}, include_str!({:?})),\n", file.display().to_string()));
    }
    text.push_str("]\n");
    fs::write(list, text).expect("OUT_DIR is writable");
}

fn collect(dir: &Path, extension: &str, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("the embedded folder is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, extension, files);
        } else if path.extension().is_some_and(|e| e == extension) {
            files.push(path);
        }
    }
}
