//! No module of the workspace depends on itself through others
//! (docs/ARCHITECTURE.md, "Layering"). Reads the sources of every crate
//! (not comments or `#[cfg(test)]` code): each file is a module (`a/mod.rs`
//! is `a`, `a/b.rs` is `a::b`), and every path a module names (`crate::x`,
//! `super::x`, `self::x`, a child's `x::...`, and what a `use` brings in,
//! followed through the `use`s that re-export it to where it is defined)
//! is an edge to the module that holds it. A module and what it contains
//! are one concern (a folder's `mod.rs` gathers its parts, its parts use
//! what it gathers), so edges up or down one line of nesting do not count;
//! every other edge does, and no circle of them is allowed. In the core, a
//! use of the games table's dispatch (`with_game!`, `with_rules!`, an
//! expansion of `game_table!`) is an edge to `games`, whose folders it
//! names; `GameId`'s expansion (`game.rs`) reads the games' names only.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

/// A module's path in its crate (`["play", "clock"]`; the root is empty).
type Module = Vec<String>;

#[test]
fn no_module_of_any_crate_depends_on_itself() {
    let mut found = Vec::new();
    let mut read = BTreeMap::new();
    for (name, src) in workspace_sources() {
        let graph = module_graph(&src, name == "arena-core");
        read.insert(name.clone(), graph.len());
        for cycle in cycles(&graph) {
            let edges: Vec<String> = cycle
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| cycle.contains(b))
                        .map(move |b| format!("{} -> {}", a.join("::"), b.join("::")))
                })
                .collect();
            found.push(format!("{name}: {}", edges.join(", ")));
        }
    }
    for (krate, at_least) in [("arena-core", 100), ("arena-server", 40), ("player-api", 20), ("arena", 10)] {
        assert!(read.get(krate).is_some_and(|n| *n >= at_least), "read too few modules: {read:?}");
    }
    assert!(
        found.is_empty(),
        "modules depend on each other in a circle:\n{}\n(take the cycle apart: move what both need into a \
         module below them)",
        found.join("\n")
    );
}

/// Every crate of the workspace (its package name) and its sources.
fn workspace_sources() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let workspace: toml::Table = std::fs::read_to_string(root.join("Cargo.toml")).unwrap().parse().unwrap();
    workspace["workspace"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|member| {
            let folder = root.join(member.as_str().unwrap());
            let package: toml::Table =
                std::fs::read_to_string(folder.join("Cargo.toml")).unwrap().parse().unwrap();
            (package["package"]["name"].as_str().unwrap().to_string(), folder.join("src"))
        })
        .collect()
}

/// A crate's modules and the modules each depends on (not counting its own
/// ancestors and descendants).
fn module_graph(src: &Path, core: bool) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    collect(src, &mut files);
    let code: BTreeMap<Module, String> = files
        .iter()
        .map(|file| {
            (module_of(file.strip_prefix(src).unwrap()), code_of(&std::fs::read_to_string(file).unwrap()))
        })
        .collect();
    let modules: BTreeSet<Module> = code.keys().cloned().collect();
    // What each module's `use`s bind: a name -> the module that holds it.
    let bindings: BTreeMap<Module, BTreeMap<String, Module>> = code
        .iter()
        .map(|(module, code)| {
            let bound = used_paths(code)
                .into_iter()
                .filter_map(|(path, name)| Some((name, holder(&modules, module, &path)?)))
                .collect();
            (module.clone(), bound)
        })
        .collect();
    let mut graph = BTreeMap::new();
    for (module, code) in &code {
        let mut edges = BTreeSet::new();
        let named = used_paths(code)
            .into_iter()
            .map(|(path, _)| path)
            .chain(paths_in(code, &children(&modules, module)));
        for path in named {
            if let Some(target) = resolve(&modules, &bindings, module, &path) {
                edges.insert(target);
            }
        }
        if core && table_uses(code) {
            edges.insert(vec!["games".to_string()]);
        }
        edges.retain(|target| !target.starts_with(module) && !module.starts_with(target));
        graph.insert(module.clone(), edges);
    }
    graph
}

/// `a/mod.rs` is module `a`, `a/b.rs` is `a::b`, `lib.rs` and `main.rs` the root.
fn module_of(relative: &Path) -> Module {
    let mut path: Module =
        relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = path.pop().unwrap_or_default();
    let crate_root = path.is_empty() && (last == "lib.rs" || last == "main.rs");
    if last != "mod.rs" && !crate_root {
        path.push(last.trim_end_matches(".rs").to_string());
    }
    path
}

/// The names of `module`'s child modules.
fn children(modules: &BTreeSet<Module>, module: &Module) -> BTreeSet<String> {
    modules
        .iter()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .map(|m| m.last().unwrap().clone())
        .collect()
}

/// The module that holds what `path` names from `module` (the longest
/// module the path starts with, in the crate), if the path is the crate's.
fn holder(modules: &BTreeSet<Module>, module: &Module, path: &[String]) -> Option<Module> {
    let in_crate = match path.first().map(String::as_str) {
        Some("crate" | "$crate" | "super" | "self") => true,
        Some(first) => children(modules, module).contains(first),
        None => false,
    };
    let full = full_path(module, path);
    let holder = (0..=full.len()).rev().map(|n| full[..n].to_vec()).find(|m| modules.contains(m));
    holder.filter(|_| in_crate)
}

/// Where what `path` names is defined: its holder, followed through the
/// `use`s that bind the next name there (a re-export), a few hops at most.
fn resolve(
    modules: &BTreeSet<Module>,
    bindings: &BTreeMap<Module, BTreeMap<String, Module>>,
    module: &Module,
    path: &[String],
) -> Option<Module> {
    let mut at = holder(modules, module, path)?;
    let mut full = full_path(module, path);
    for _ in 0..4 {
        let next = full.get(at.len()).filter(|_| full.starts_with(&at));
        match next.and_then(|name| bindings.get(&at)?.get(name)) {
            Some(bound) if *bound != at => {
                full = bound.iter().cloned().chain(full[at.len() + 1..].iter().cloned()).collect();
                at = bound.clone();
            }
            _ => break,
        }
    }
    Some(at)
}

/// `path` from `module` as a path from the crate's root (as far as it can
/// be known: `crate::`, `super::`, `self::` and child paths).
fn full_path(module: &Module, path: &[String]) -> Vec<String> {
    match path.first().map(String::as_str) {
        Some("crate" | "$crate") => path[1..].to_vec(),
        Some("super" | "self") => {
            let mut base = module.clone();
            let mut rest = path;
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => drop(base.pop()),
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
            base.into_iter().chain(rest.iter().cloned()).collect()
        }
        _ => module.iter().chain(path).cloned().collect(),
    }
}

/// Every `use` of `code` (a statement that begins a line), expanded:
/// (the path, the name it binds).
fn used_paths(code: &str) -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let after_pub = match trimmed.strip_prefix("pub") {
            Some(rest) if rest.starts_with('(') => rest.split_once(')').map_or("", |(_, r)| r).trim_start(),
            Some(rest) => rest.trim_start(),
            None => trimmed,
        };
        if let Some(tree) = after_pub.strip_prefix("use ") {
            let at = offset + (line.len() - tree.len());
            if let Some(end) = code[at..].find(';') {
                let tree: String = code[at..at + end].split_whitespace().collect::<Vec<_>>().join("\u{1}");
                expand(&tree, &[], &mut found);
            }
        }
        offset += line.len();
    }
    found
}

/// The use tree `tree` under `prefix`, as (path, bound name) pairs.
fn expand(tree: &str, prefix: &[String], found: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim_matches('\u{1}');
    let (path, group) = match tree.find('{') {
        Some(at) => {
            (&tree[..at], Some(&tree[at + 1..tree.rfind('}').filter(|&end| end > at).unwrap_or(tree.len())]))
        }
        None => (tree, None),
    };
    let (path, alias) = match path.split_once("\u{1}as\u{1}") {
        Some((path, alias)) => (path, Some(alias.trim_matches('\u{1}'))),
        None => (path, None),
    };
    let mut full = prefix.to_vec();
    full.extend(
        path.split("::").map(|s| s.trim_matches('\u{1}')).filter(|s| !s.is_empty()).map(String::from),
    );
    match group {
        Some(group) => top_level_items(group).iter().for_each(|item| expand(item, &full, found)),
        None => {
            if full.last().is_some_and(|l| l == "self") {
                full.pop();
            }
            let name = alias.or(full.last().map(String::as_str)).unwrap_or_default().to_string();
            if name != "*" && name != "_" && !full.is_empty() {
                found.push((full, name));
            }
        }
    }
}

/// The paths `code` names outside its `use`s that start in the crate:
/// `crate::x`, `$crate::x`, `super::x`, `self::x`, and a child's `x::...`.
fn paths_in(code: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut at = 0;
    while at < bytes.len() {
        if !is_ident(bytes[at]) || (at > 0 && (is_ident(bytes[at - 1]) || bytes[at - 1] == b':')) {
            at += 1;
            continue;
        }
        let start = if at > 0 && bytes[at - 1] == b'$' { at - 1 } else { at };
        let mut end = at;
        while end < bytes.len()
            && (is_ident(bytes[end]) || (bytes[end] == b':' && bytes.get(end + 1) == Some(&b':')))
        {
            end += if bytes[end] == b':' { 2 } else { 1 };
        }
        let path: Vec<String> =
            code[start..end].split("::").filter(|s| !s.is_empty()).map(String::from).collect();
        let first = path.first().map(String::as_str).unwrap_or_default();
        if path.len() > 1
            && (["crate", "$crate", "super", "self"].contains(&first) || children.contains(first))
        {
            found.push(path);
        }
        at = end.max(at + 1);
    }
    found
}

/// Whether `code` uses the games table's dispatch (and so names every
/// game's folder). `GameId`'s expansion (callback `game_ids`) reads the
/// names only.
fn table_uses(code: &str) -> bool {
    let dispatch = ["with_game!", "with_rules!", "with_game_arms!", "with_rules_arms!"];
    let expands =
        code.match_indices("game_table!").any(|(at, _)| !code[at..].starts_with("game_table!({ game_ids }"));
    expands || dispatch.iter().any(|m| code.contains(m))
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
        item.push(c);
    }
    items.push(item);
    items
        .into_iter()
        .filter(|i| !i.trim_matches(|c: char| c == '\u{1}' || c.is_whitespace()).is_empty())
        .collect()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The graph's strongly connected components of more than one module.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> BTreeSet<Vec<Module>> {
    let reach = |from: &Module| {
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
    let reachable: BTreeMap<&Module, BTreeSet<Module>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut components = BTreeSet::new();
    for m in graph.keys() {
        let component: Vec<Module> = graph
            .keys()
            .filter(|n| {
                *n == m || (reachable[m].contains(*n) && reachable.get(n).is_some_and(|r| r.contains(m)))
            })
            .cloned()
            .collect();
        if component.len() > 1 {
            components.insert(component);
        }
    }
    components
}

#[test]
fn the_reader_follows_paths_uses_and_re_exports() {
    let m = |path: &str| -> Module { path.split("::").filter(|s| !s.is_empty()).map(String::from).collect() };
    let modules: BTreeSet<Module> = [
        "",
        "play",
        "play::clock",
        "play::fault",
        "games",
        "games::trap",
        "games::trap::replay",
        "report::units",
        "report",
    ]
    .into_iter()
    .map(m)
    .collect();
    let used = used_paths("use crate::{\n    play::{clock::{self, Stopwatch}, fault::Fault as F},\n    report,\n};\nuse super::replay::Body;");
    let names: Vec<(String, String)> = used.iter().map(|(p, n)| (p.join("::"), n.clone())).collect();
    assert_eq!(
        names,
        [
            ("crate::play::clock".to_string(), "clock".to_string()),
            ("crate::play::clock::Stopwatch".into(), "Stopwatch".into()),
            ("crate::play::fault::Fault".into(), "F".into()),
            ("crate::report".into(), "report".into()),
            ("super::replay::Body".into(), "Body".into()),
        ]
    );
    let from_trap = m("games::trap");
    assert_eq!(holder(&modules, &from_trap, &m("super::trap::replay::Body")), Some(m("games::trap::replay")));
    assert_eq!(holder(&modules, &from_trap, &m("replay::Body")), Some(m("games::trap::replay")));
    assert_eq!(holder(&modules, &from_trap, &m("std::fmt")), None);
    let children = BTreeSet::from(["replay".to_string()]);
    let paths: Vec<String> =
        paths_in("fn f() { crate::report::units::x(); replay::y(); $crate::play::z!(); a::b(); }", &children)
            .iter()
            .map(|p| p.join("::"))
            .collect();
    assert_eq!(paths, ["crate::report::units::x", "replay::y", "$crate::play::z"]);
    // `report` re-exports `Stopwatch` from `play::clock`: a path through it is an edge to `play::clock`.
    let bindings =
        BTreeMap::from([(m("report"), BTreeMap::from([("Stopwatch".to_string(), m("play::clock"))]))]);
    assert_eq!(
        resolve(&modules, &bindings, &from_trap, &m("crate::report::Stopwatch")),
        Some(m("play::clock"))
    );
    assert_eq!(
        resolve(&modules, &bindings, &from_trap, &m("crate::report::units::parse")),
        Some(m("report::units"))
    );
    assert_eq!(module_of(Path::new("lib.rs")), m(""));
    assert_eq!(module_of(Path::new("games/trap/mod.rs")), m("games::trap"));
    assert_eq!(module_of(Path::new("games/trap/replay.rs")), m("games::trap::replay"));
    assert!(table_uses("let x = with_game!(id, G => 1);"));
    assert!(!table_uses("crate::game_table!({ game_ids }());"));
    assert!(table_uses("crate::game_table!({ game_rules }());"));
    let graph: BTreeMap<Module, BTreeSet<Module>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (m(k), v.into_iter().map(m).collect()))
            .collect();
    assert_eq!(cycles(&graph), BTreeSet::from([vec![m("a"), m("b"), m("c")]]));
}

/// The modules `file` (in the core) depends on.
fn core_dependencies(file: &str) -> BTreeSet<Module> {
    let graph = module_graph(&core_src(), true);
    graph[&module_of(Path::new(file))].clone()
}

/// The files of process control: a worker started (what it hosts, its
/// limits, its command) and run (spawn, poll, kill, reap).
const PROCESS_CONTROL: &[&str] = &["players/isolation/launch.rs", "players/isolation/process.rs"];

/// Process control (spawn, limits, poll, kill, reap) and the sandbox know
/// no game (docs/ARCHITECTURE.md, "Layering"): they name no game's types,
/// no referee, no game's glue. A game reaches a worker only as frames,
/// through `isolation::WireGame`.
#[test]
fn process_control_knows_no_game() {
    let game_modules = [
        "game",
        "games",
        "play::referee",
        "players::agent",
        "play::two_player",
        "play::solo",
        "replay",
        "report",
    ];
    for relative in PROCESS_CONTROL {
        let file = core_src().join(relative);
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let dependencies = core_dependencies(relative);
        let named: Vec<String> = dependencies
            .iter()
            .map(|m| m.join("::"))
            .filter(|m| game_modules.iter().any(|g| m == g || m.starts_with(&format!("{g}::"))))
            .collect();
        assert!(!dependencies.is_empty(), "read no path of {}", file.display());
        assert!(named.is_empty(), "{} names {named:?}: it must know no game", file.display());
        assert!(!code.contains("player_api::"), "{} names player_api's game types", file.display());
    }
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
    &[("players/protocol/mod.rs", &["magic-forest"]), ("replay/html/viewer.css", &["trap"])];

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
// (crates/arena-core): where their sources are,
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
/// `src/` (`players/protocol/mod.rs`), or in the server's under `arena-server/`.
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
