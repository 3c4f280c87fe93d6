//! Embeds player-api's sources for `arena new` (`players/scaffold.rs`), which
//! writes them into a new player's crate: the list is made here from the
//! folder, so a file added to player-api goes with new players unlisted.

use std::{
    env, fs,
    path::{Path, PathBuf},
};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let api = manifest.join("../../player-api/src").canonicalize().expect("player-api/src beside the core");
    println!("cargo:rerun-if-changed={}", api.display());
    let mut files = Vec::new();
    collect(&api, &mut files);
    files.sort();
    let mut list = String::from("&[\n");
    for file in files {
        let relative = file.strip_prefix(&api).expect("under src").to_string_lossy().replace('\\', "/");
        list.push_str(&format!("    ({relative:?}, include_str!({:?})),\n", file.display().to_string()));
    }
    list.push_str("]\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("player_api_files.rs");
    fs::write(&out, list).expect("OUT_DIR is writable");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("player-api/src is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}
