//! The arena library's modules must not depend on each other in a circle
//! (docs/ARCHITECTURE.md, "Layering"). Reads the sources: every path a
//! module names (`crate::X`, `super::X`, `self::X`) is an edge from its
//! node (its top-level module; a game's folder is `games::<game>`) to X's,
//! and so is every use of the games table's dispatch (`with_game!`,
//! `with_rules!`, `game_table!`: an edge to `games`, whose folders they
//! name); the strongly connected components of that graph are the cycles.
//! No module is exempt. The one expansion of the table that is not a use
//! of the games is `GameId`'s (`game.rs`), which reads their names only.
//! The cycles still to take apart would be listed in KNOWN: a new one
//! fails, and so does a known one that is gone (shrink the list, so that it
//! never grows back).

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

/// Cycles between top-level modules still to be taken apart, each sorted.
const KNOWN: &[&[&str]] = &[];

#[test]
fn no_new_cycles_between_modules() {
    let src = core_src();
    let graph = module_graph(&src);
    assert!(graph.contains_key("referee") && graph.contains_key("tournament"), "read {graph:?}");
    let cycles = cycles(&graph);
    let known: BTreeSet<Vec<String>> =
        KNOWN.iter().map(|c| c.iter().map(|m| m.to_string()).collect()).collect();
    let new: Vec<_> = cycles.difference(&known).collect();
    let gone: Vec<_> = known.difference(&cycles).collect();
    let show = |c: &Vec<String>| {
        let edges: Vec<String> = c
            .iter()
            .flat_map(|a| graph[a].iter().filter(|b| c.contains(b)).map(move |b| format!("{a} -> {b}")))
            .collect();
        format!("[{}] ({})", c.join(", "), edges.join(", "))
    };
    assert!(
        new.is_empty(),
        "modules depend on each other in a circle: {}\n(take the cycle apart: move what both need into a module below them)",
        new.iter().map(|c| show(c)).collect::<Vec<_>>().join("; ")
    );
    assert!(gone.is_empty(), "known cycles that are gone: remove them from KNOWN: {gone:?}");
}

/// Top-level module -> the top-level modules it names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect(src, &mut files);
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        // The binary (main.rs, cli/) sits above the library; lib.rs only declares.
        if first == "cli" || first == "main.rs" || first == "lib.rs" {
            continue;
        }
        let module = node_of(relative);
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let edges = graph.entry(module.clone()).or_default();
        let named = named_modules(code).into_iter().chain(relative_modules(relative, code));
        for target in named.chain(table_uses(code)) {
            if target != module {
                edges.insert(target);
            }
        }
    }
    graph
}

/// The modules `super::X` and `self::X` name in `code`, the file at
/// `relative`, as nodes.
fn relative_modules(relative: &Path, code: &str) -> BTreeSet<String> {
    let mut path: Vec<String> =
        relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    // `a/mod.rs` is module `a`, `a/b.rs` module `a::b`.
    let last = path.pop().unwrap_or_default();
    if last != "mod.rs" {
        path.push(last.trim_end_matches(".rs").to_string());
    }
    let mut found = BTreeSet::new();
    let code = without_comments(code);
    for (at, _) in code.match_indices("super::").chain(code.match_indices("self::")) {
        if code[..at].ends_with("super::") || code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            continue; // the rest of a chain, or part of a longer name
        }
        let mut target = path.clone();
        let mut rest = &code[at..];
        while let Some(after) = rest.strip_prefix("super::") {
            target.pop();
            rest = after;
        }
        rest = rest.strip_prefix("self::").unwrap_or(rest);
        let items: Vec<String> = match rest.strip_prefix('{') {
            Some(group) => top_level_items(group),
            None => vec![rest.to_string()],
        };
        for item in items {
            let name: String =
                item.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let mut full = target.clone();
            if name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                full.push(name);
            }
            if let Some(node) = node_of_path(&full) {
                found.insert(node);
            }
        }
    }
    found
}

/// The node of module path `path` (`games::trap::replay` -> `games::trap`).
fn node_of_path(path: &[String]) -> Option<String> {
    match path {
        [games, game, ..] if games == "games" && GAME_FOLDERS.contains(&game.as_str()) => {
            Some(format!("games::{game}"))
        }
        [first, ..] => Some(first.clone()),
        [] => None,
    }
}

/// The game folders (`games/<game>/`), read from the sources once.
static GAME_FOLDERS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let games = core_src().join("games");
    std::fs::read_dir(games)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| &*e.file_name().to_string_lossy().into_owned().leak())
        .collect()
});

/// The games table's dispatch used in `code`: an edge to `games` (whose
/// folders it names). `GameId`'s expansion (callback `game_ids`) reads the
/// names only.
fn table_uses(code: &str) -> BTreeSet<String> {
    let code = without_comments(code);
    let dispatch = ["with_game!", "with_rules!", "with_game_arms!", "with_rules_arms!"];
    let expands =
        code.match_indices("game_table!").any(|(at, _)| !code[at..].starts_with("game_table!({ game_ids }"));
    match expands || dispatch.iter().any(|m| code.contains(m)) {
        true => BTreeSet::from(["games".to_string()]),
        false => BTreeSet::new(),
    }
}

/// `code` without its comment lines.
fn without_comments(code: &str) -> String {
    code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The items at the top level of a `{...}` group (its text after the `{`).
fn top_level_items(group: &str) -> Vec<String> {
    let (mut depth, mut item, mut items) = (0, String::new(), Vec::new());
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        if depth == 0 || c != '{' {
            item.push(c);
        }
    }
    items.push(item);
    items
}

/// A file's node: its top-level module, and for a game's folder
/// (`games/<game>/`) that game (`games::<game>`), apart from the table.
fn node_of(relative: &Path) -> String {
    let parts: Vec<String> =
        relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    match parts.as_slice() {
        [games, game, _, ..] if games == "games" => format!("games::{game}"),
        [first, ..] => first.trim_end_matches(".rs").to_string(),
        [] => unreachable!("a file has a name"),
    }
}

fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The top-level modules `code` names: `crate::x`, and each item of
/// `crate::{x, y::z, ...}`.
fn named_modules(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let code: String =
        code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Items at the group's top level: split on commas outside braces.
            let (mut depth, mut item) = (0, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.extend(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 || c != '{' {
                    item.push(c);
                }
            }
            found.extend(first_segment(&item));
        } else {
            found.extend(first_segment(rest));
        }
    }
    found
}

/// The module a path starts with; `games::<game>` for a game's folder.
fn first_segment(path: &str) -> Option<String> {
    let ident = |text: &str| -> String {
        text.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
    };
    let name = ident(path);
    let is_module =
        |name: &str| name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) && name != "self";
    if !is_module(&name) {
        return None;
    }
    if name == "games" {
        let after = path.trim_start()["games".len()..].strip_prefix("::").map(ident).unwrap_or_default();
        if is_module(&after) && after != "table" {
            return Some(format!("games::{after}"));
        }
    }
    Some(name)
}

/// The graph's strongly connected components of more than one module.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    // Reachability by depth-first search from each node (a few dozen modules).
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(node) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut components = BTreeSet::new();
    for m in graph.keys() {
        let component: Vec<String> = graph
            .keys()
            .filter(|n| *n == m || (reachable[m].contains(*n) && reachable[n].contains(m)))
            .cloned()
            .collect();
        if component.len() > 1 {
            components.insert(component);
        }
    }
    components
}

#[test]
fn the_reader_sees_grouped_and_plain_paths() {
    let code = "use crate::{\n    agent::{A, B},\n    fault::Fault,\n    seeds,\n};\nfn f() { crate::units::x(); }\n// crate::not_this\n";
    let found: Vec<String> = named_modules(code).into_iter().collect();
    assert_eq!(found, ["agent", "fault", "seeds", "units"]);
    let found: Vec<String> =
        named_modules("use crate::{games::trap::Trap, game::GameId};\ncrate::games::table!(x);")
            .into_iter()
            .collect();
    assert_eq!(found, ["game", "games", "games::trap"]);
    let relative = |file: &str, code: &str| -> Vec<String> {
        relative_modules(Path::new(file), code).into_iter().collect()
    };
    assert_eq!(
        relative("games/rules.rs", "use super::{trap::referee::X, GameId};"),
        ["games", "games::trap"]
    );
    assert_eq!(relative("games/trap/replay.rs", "use super::Trap;"), ["games::trap"]);
    assert_eq!(relative("games/trap/replay.rs", "use super::super::replays::Body;"), ["games"]);
    assert_eq!(relative("tournament/mod.rs", "use self::config::X; x.super_y()"), ["tournament"]);
    assert_eq!(table_uses("let x = with_game!(id, G => 1);"), BTreeSet::from(["games".to_string()]));
    assert!(table_uses("crate::game_table!({ game_ids }());").is_empty());
    assert!(!table_uses("crate::game_table!({ game_rules }());").is_empty());
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
            .collect();
    assert_eq!(cycles(&graph), BTreeSet::from([vec!["a".to_string(), "b".into(), "c".into()]]));
}

/// Process control (spawn, limits, poll, kill, reap) and the sandbox know
/// no game (docs/ARCHITECTURE.md, "Layering"): they name no game's types,
/// no referee, no game's glue. A game reaches a worker only as frames,
/// through `isolation::WireGame`.
#[test]
fn process_control_knows_no_game() {
    let file = core_src().join("isolation/process.rs");
    let text = std::fs::read_to_string(&file).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let game_modules = ["game", "games", "referee", "agent", "two_player", "solo", "replay", "report"];
    let named: Vec<String> = named_modules(code)
        .into_iter()
        .filter(|m| game_modules.contains(&m.as_str()) || m.starts_with("games::"))
        .collect();
    assert!(named.is_empty(), "{} names {named:?}: it must know no game", file.display());
    assert!(!code.contains("player_api::"), "{} names player_api's game types", file.display());
}

/// The boundary crates (`crates/`: the sandbox; ratings and matchmaking),
/// each re-exported by the arena under its module's old name: the compiler
/// keeps them from naming the arena, so they know no game as long as they
/// depend on no crate of this workspace (the arena, player-api, the bots).
/// And they stay crates: the arena has no module of the same name beside
/// them.
const BOUNDARY_CRATES: &[(&str, &[&str])] =
    &[("arena-sandbox", &["sandbox"]), ("arena-rating", &["stats", "matchmaking"])];

#[test]
fn the_boundary_crates_know_no_game() {
    for (krate, modules) in BOUNDARY_CRATES {
        for module in *modules {
            a_boundary_crate_knows_no_game(krate, module);
        }
    }
}

fn a_boundary_crate_knows_no_game(krate: &str, module_name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let src = core_src();
    // (An empty folder a checkout left behind is no module.)
    let mut module = Vec::new();
    if src.join(module_name).is_dir() {
        collect(&src.join(module_name), &mut module);
    }
    module.extend(Some(src.join(format!("{module_name}.rs"))).filter(|file| file.exists()));
    assert!(module.is_empty(), "{module_name} is crates/{krate}, not a module of the arena: {module:?}");
    let manifest = |path: &Path| -> toml::Table {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    // The workspace's own crates: its members (by their package names) and
    // what it names by path.
    let workspace = manifest(&root.join("Cargo.toml"));
    let mut own: BTreeSet<String> = workspace["workspace"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|member| {
            let package = manifest(&root.join(member.as_str().unwrap()).join("Cargo.toml"));
            package["package"]["name"].as_str().unwrap().to_string()
        })
        .collect();
    own.extend(
        workspace["workspace"]["dependencies"]
            .as_table()
            .unwrap()
            .iter()
            .filter(|(_, spec)| spec.get("path").is_some())
            .map(|(name, _)| name.clone()),
    );
    assert!(own.contains("player-api") && own.contains("arena"), "read {own:?}");
    let sandbox = manifest(&root.join("crates").join(krate).join("Cargo.toml"));
    let mut named = Vec::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        for (name, spec) in sandbox.get(table).and_then(|t| t.as_table()).into_iter().flatten() {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if own.contains(package) || spec.get("path").is_some() {
                named.push(format!("{table}.{name}"));
            }
        }
    }
    assert!(named.is_empty(), "{krate} depends on {named:?} of this workspace: it must know no game");
}

/// A game is one folder and one line of the table (`games/mod.rs`): the
/// files outside `games/<game>/` that still name a game are listed here,
/// and the list may only shrink (a file that stops naming a game must
/// leave it; a new one fails). Naming a game, in code (`code_of`): its
/// module, its types, its name in text (`Trap`, `trap::`, `"trap"`, `Intuitive`, `Hexapawn`,
/// `Wumpus`, `Forest`, ...).
const NAMING_A_GAME: &[(&str, &[&str])] =
    &[("protocol.rs", &["magic-forest"]), ("replay/html/viewer.css", &["trap"])];

#[test]
fn only_the_table_names_a_game() {
    let mut files = Vec::new();
    collect_all(&core_src(), &mut files);
    collect_all(&server_src(), &mut files);
    let mut naming: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for file in files {
        let relative = source_name(&file);
        let in_a_game_folder = relative.starts_with("games/") && relative.matches('/').count() >= 2;
        if in_a_game_folder || relative == "games/mod.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let games = games_named(&code_of(&text));
        if !games.is_empty() {
            naming.insert(relative, games);
        }
    }
    let known: BTreeMap<String, Vec<&str>> =
        NAMING_A_GAME.iter().map(|(file, games)| (file.to_string(), games.to_vec())).collect();
    let listing = naming
        .iter()
        .map(|(file, games)| format!("    (\"{file}\", &{games:?}),"))
        .collect::<Vec<_>>()
        .join("\n");
    let grew: Vec<_> = naming
        .iter()
        .filter(|(file, games)| known.get(*file).is_none_or(|k| games.iter().any(|g| !k.contains(g))))
        .collect();
    assert!(
        grew.is_empty(),
        "these files name a game outside its folder: {grew:?}\n(move the code into games/<game>/, \
         or make it generic over the game traits); now:\n{listing}"
    );
    assert_eq!(naming, known, "fewer files name a game: shrink NAMING_A_GAME to\n{listing}");
}

/// What of a file is code: not its comments (examples and help text may
/// name games) nor its unit tests (a generic piece may be tested on a game).
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .filter(|line| {
            let line = line.trim_start();
            !(line.starts_with("//") || line.starts_with("/*") || line.starts_with('*'))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The games `text` names, by the table's names.
fn games_named(text: &str) -> Vec<&'static str> {
    let words: [(&str, &[&str]); 5] = [
        ("trap", &["Trap", "trap::", "trap_", "\"trap\"", "trap.js"]),
        ("intuitive-ai", &["Intuitive", "intuitive"]),
        ("hexapawn", &["Hexapawn", "hexapawn"]),
        ("wumpus", &["Wumpus", "wumpus"]),
        ("magic-forest", &["Forest", "forest"]),
    ];
    words
        .into_iter()
        .filter(|(_, spellings)| {
            spellings.iter().any(|w| {
                text.match_indices(w).any(|(at, _)| {
                    // "Trap" as a word or a type's start, not "Trapped"-like text.
                    let next = text[at + w.len()..].chars().next();
                    *w != "Trap" || !next.is_some_and(|c| c.is_ascii_lowercase())
                })
            })
        })
        .map(|(game, _)| game)
        .collect()
}

fn collect_all(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_all(&path, files);
        } else if path
            .extension()
            .is_some_and(|e| ["rs", "js", "html", "css"].contains(&&*e.to_string_lossy()))
        {
            files.push(path);
        }
    }
}

// ---- The server's crate (crates/arena-server) apart from the core
// (crates/arena-core, whose library is `arena`): where their sources are,
// and which crates may link the server's dependencies.

/// The core's sources (the arena library's modules).
fn core_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/arena-core/src")
}

/// The server's sources (the server, its client, its bench).
fn server_src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/arena-server/src")
}

/// A source file's name in the checks' lists: its path in the core's
/// `src/` (`protocol.rs`), or in the server's under `arena-server/`.
fn source_name(file: &Path) -> String {
    let name = match file.strip_prefix(core_src()) {
        Ok(relative) => relative.to_path_buf(),
        Err(_) => Path::new("arena-server").join(file.strip_prefix(server_src()).unwrap()),
    };
    name.to_string_lossy().replace('\\', "/")
}

/// What serves: async HTTP, SQLite, the HTTP client. Only the server's
/// crate links them; the core, and everything built on it but the server,
/// compiles without them.
const SERVER_DEPENDENCIES: &[&str] = &["tokio", "axum", "hyper", "hyper-util", "rusqlite", "ureq"];

#[test]
fn only_the_server_crate_links_the_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = |path: &Path| -> toml::Table {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    // Each dependency table's entries: (table, package), a renamed one by
    // its package, target-specific tables too.
    let dependencies = |package: &toml::Table| -> Vec<(String, String)> {
        let mut tables: Vec<(String, &toml::Value)> = Vec::new();
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            tables.extend(package.get(table).map(|t| (table.to_string(), t)));
            for (target, of) in package.get("target").and_then(|t| t.as_table()).into_iter().flatten() {
                tables.extend(of.get(table).map(|t| (format!("target.{target}.{table}"), t)));
            }
        }
        let mut found = Vec::new();
        for (table, entries) in tables {
            for (name, spec) in entries.as_table().into_iter().flatten() {
                let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
                found.push((table.clone(), package.to_string()));
            }
        }
        found
    };
    let core = manifest(&root.join("crates/arena-core/Cargo.toml"));
    assert_eq!(core["package"]["name"].as_str(), Some("arena-core"));
    let named: Vec<_> =
        dependencies(&core).into_iter().filter(|(_, p)| SERVER_DEPENDENCIES.contains(&p.as_str())).collect();
    assert!(named.is_empty(), "crates/arena-core names {named:?}: only crates/arena-server may");
    // Every crate of the workspace: the server's links them; the binary's
    // package (arena/) only through it, and its tests (which speak to a
    // server) as dev-dependencies.
    let workspace = manifest(&root.join("Cargo.toml"));
    let mut linking = Vec::new();
    for member in workspace["workspace"]["members"].as_array().unwrap() {
        let package = manifest(&root.join(member.as_str().unwrap()).join("Cargo.toml"));
        let name = package["package"]["name"].as_str().unwrap().to_string();
        let may = |table: &str| name == "arena-server" || (name == "arena" && table == "dev-dependencies");
        for (table, dependency) in dependencies(&package) {
            if SERVER_DEPENDENCIES.contains(&dependency.as_str()) && !may(&table) {
                linking.push(format!("{name}: {table}.{dependency}"));
            }
        }
        if name == "arena" {
            assert!(
                dependencies(&package).contains(&("dependencies".into(), "arena-server".into())),
                "the binary serves through crates/arena-server"
            );
        }
    }
    assert!(linking.is_empty(), "{linking:?}: only crates/arena-server links the server's dependencies");
    // And the server stays a crate: the core has no module of its own
    // beside it.
    let back: Vec<_> = ["server", "server.rs", "client.rs", "server_bench.rs"]
        .into_iter()
        .map(|name| core_src().join(name))
        .filter(|path| path.exists())
        .collect();
    assert!(back.is_empty(), "{back:?}: the server, its client and its bench are crates/arena-server");
}
