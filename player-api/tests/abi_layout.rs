//! Pins the ABI, a snapshot per released version: the type layouts
//! abi_stable compares when the arena loads a player library of that
//! version (the root module, and through it every game's `#[sabi_trait]`
//! player object) must never change. A library built against a released
//! version is checked against these layouts.
//!
//! Each snapshot, `tests/abi_snapshots/vN.txt`, is a walk of every `TypeLayout`
//! reachable the way abi_stable's checker reaches them (fields, phantom
//! fields, function pointer parameters and returns, extra checks), with what
//! the checker compares: names with generics, package and the part of its
//! version that must match, size, alignment, repr, non-zero-ness, tags,
//! extra checks, fields with their lifetimes, function signatures, enum
//! variants and discriminants, prefix-type field counts and accessibility.
//! Source lines and module paths are left out (abi_stable does not compare
//! them, and moving code would change them).
//!
//! A new version's snapshot is written with
//! `ARENA_BLESS=1 cargo test -p player-api --test abi_layout`, which writes
//! the missing ones only: a released version's is never rewritten
//! (player-api/src/abi/mod.rs has the rule).

use std::{
    collections::HashMap,
    fmt::Write as _,
    path::{Path, PathBuf},
};

use abi_stable::{
    abi_stability::stable_abi_trait::StableAbi,
    std_types::UTypeId,
    type_layout::{TLData, TLField, TLFields, TypeLayout},
};
use player_api::abi::AbiVersion;

/// A version's starting points, in the order their sections appear. The
/// games come first so that each section shows its own trait object and
/// vtable; the root module comes last and refers to them.
fn roots(version: AbiVersion) -> Vec<(&'static str, &'static TypeLayout)> {
    match version {
        AbiVersion::V1 => {
            use player_api::abi::v1::{
                ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerLibRef, TrapPlayerBox,
                WumpusPlayerBox,
            };
            vec![
                ("trap: TrapPlayerBox (FfiTrapPlayer)", <TrapPlayerBox as StableAbi>::LAYOUT),
                (
                    "intuitive: IntuitivePlayerBox (FfiIntuitivePlayer)",
                    <IntuitivePlayerBox as StableAbi>::LAYOUT,
                ),
                ("hexapawn: HexapawnPlayerBox (FfiHexapawnPlayer)", <HexapawnPlayerBox as StableAbi>::LAYOUT),
                ("wumpus: WumpusPlayerBox (FfiWumpusPlayer)", <WumpusPlayerBox as StableAbi>::LAYOUT),
                ("forest: ForestPlayerBox (FfiForestPlayer)", <ForestPlayerBox as StableAbi>::LAYOUT),
                ("root module: PlayerLibRef (PlayerLib)", <PlayerLibRef as StableAbi>::LAYOUT),
            ]
        }
        AbiVersion::V2 => {
            use player_api::abi::v2::{
                ForestPlayerBox, HexapawnPlayerBox, IntuitivePlayerBox, PlayerLibV2Ref, TrapPlayerBox,
                WumpusPlayerBox,
            };
            vec![
                ("trap: TrapPlayerBox (FfiTrapPlayerV2)", <TrapPlayerBox as StableAbi>::LAYOUT),
                (
                    "intuitive: IntuitivePlayerBox (FfiIntuitivePlayerV2)",
                    <IntuitivePlayerBox as StableAbi>::LAYOUT,
                ),
                (
                    "hexapawn: HexapawnPlayerBox (FfiHexapawnPlayerV2)",
                    <HexapawnPlayerBox as StableAbi>::LAYOUT,
                ),
                ("wumpus: WumpusPlayerBox (FfiWumpusPlayerV2)", <WumpusPlayerBox as StableAbi>::LAYOUT),
                ("forest: ForestPlayerBox (FfiForestPlayerV2)", <ForestPlayerBox as StableAbi>::LAYOUT),
                ("root module: PlayerLibV2Ref (PlayerLibV2)", <PlayerLibV2Ref as StableAbi>::LAYOUT),
            ]
        }
    }
}

/// Numbers every layout once, in the order first reached.
#[derive(Default)]
struct Walk {
    ids: HashMap<UTypeId, usize>,
    queue: Vec<&'static TypeLayout>,
}

impl Walk {
    /// The layout's number, giving it the next one (and queueing it) if new.
    fn id(&mut self, layout: &'static TypeLayout) -> usize {
        let next = self.queue.len();
        *self.ids.entry(layout.get_utypeid()).or_insert_with(|| {
            self.queue.push(layout);
            next
        })
    }

    fn type_ref(&mut self, layout: &'static TypeLayout) -> String {
        format!("{} #{}", layout.full_type(), self.id(layout))
    }

    fn fields(&mut self, out: &mut String, indent: &str, fields: TLFields) {
        for field in fields.iter() {
            self.field(out, indent, &field);
        }
    }

    fn field(&mut self, out: &mut String, indent: &str, field: &TLField) {
        let ty = self.type_ref(field.layout());
        writeln!(out, "{indent}{}: {ty}{}", field.name(), lifetimes(field.lifetime_indices().as_slice()))
            .unwrap();
        for function in field.function_range().iter() {
            let unsafety = if function.fn_qualifs.is_unsafe() { "unsafe " } else { "" };
            let bound = match function.bound_lifetimes.as_str() {
                "" => String::new(),
                bound => format!("for<{}> ", bound.replace(';', ", ")),
            };
            // The parameter names as abi_stable's checker reads (and compares)
            // them: `;`-separated, `param_N` where missing.
            let mut names = function.param_names.as_str().split(';');
            let params: Vec<String> = function
                .param_type_layouts
                .iter()
                .enumerate()
                .map(|(i, layout)| {
                    let name = names
                        .next()
                        .filter(|name| !name.is_empty())
                        .map_or(format!("param_{i}"), str::to_string);
                    format!("{name}: {}", self.type_ref(layout()))
                })
                .collect();
            let ret = match function.return_type_layout() {
                Some(layout) => self.type_ref(layout()),
                None => "()".to_string(),
            };
            writeln!(
                out,
                "{indent}    {bound}{unsafety}fn {}({}) -> {ret}{}",
                function.name,
                params.join(", "),
                lifetimes(function.paramret_lifetime_indices.as_slice()),
            )
            .unwrap();
        }
    }

    /// Describes one layout, numbering (and queueing) the layouts it reaches.
    fn describe(&mut self, out: &mut String, layout: &'static TypeLayout) {
        let id = self.id(layout);
        let (package, version) = layout.package_and_version();
        let version = match version.parsed() {
            // What abi_stable requires to match (VersionNumber::is_loosely_compatible).
            Ok(v) if v.major == 0 => format!("0.{}.x", v.minor),
            Ok(v) => format!("{}.x", v.major),
            Err(_) => format!("{version} (unparsed)"),
        };
        writeln!(out, "#{id} {}", layout.full_type()).unwrap();
        writeln!(
            out,
            "    {package} {version}, size {}, align {}, {:?}{}",
            layout.size(),
            layout.alignment(),
            layout.repr_attr(),
            if layout.is_nonzero() { ", non-zero" } else { "" },
        )
        .unwrap();
        let generics = layout.generics();
        if generics.lifetime_count() != 0 || !generics.const_params().is_empty() {
            writeln!(out, "    generics: {generics}").unwrap();
        }
        let tag = layout.tag().to_string();
        if tag != "null" {
            writeln!(out, "    tag: {}", indent_rest(&tag, "    ")).unwrap();
        }
        if let Some(checks) = layout.extra_checks() {
            writeln!(out, "    extra checks: {}", indent_rest(checks.to_string().trim_end(), "    "))
                .unwrap();
            for nested in checks.nested_type_layouts().iter() {
                let nested = self.type_ref(nested);
                writeln!(out, "        nested: {nested}").unwrap();
            }
        }
        let phantom = layout.phantom_fields();
        if !phantom.is_empty() {
            writeln!(out, "    phantom fields:").unwrap();
            self.fields(out, "        ", phantom);
        }
        match layout.data() {
            TLData::Primitive(primitive) => writeln!(out, "    primitive {primitive:?}").unwrap(),
            TLData::Opaque => writeln!(out, "    opaque").unwrap(),
            TLData::Struct { fields } => {
                writeln!(out, "    struct:").unwrap();
                self.fields(out, "        ", fields);
            }
            TLData::Union { fields } => {
                writeln!(out, "    union:").unwrap();
                self.fields(out, "        ", fields);
            }
            TLData::Enum(enum_) => {
                let exhaustiveness = match enum_.exhaustiveness.as_nonexhaustive() {
                    None => "exhaustive".to_string(),
                    Some(nonexhaustive) => format!("non-exhaustive {nonexhaustive:?}"),
                };
                writeln!(out, "    enum, {exhaustiveness}, discriminants {:?}:", enum_.discriminants)
                    .unwrap();
                let mut fields = enum_.fields.iter();
                for (name, &count) in enum_.variant_names_iter().zip(enum_.field_count.iter()) {
                    writeln!(out, "        {name}").unwrap();
                    for field in fields.by_ref().take(count.into()) {
                        self.field(out, "            ", &field);
                    }
                }
            }
            TLData::PrefixType(prefix) => {
                let accessible: Vec<bool> = prefix
                    .accessible_fields
                    .iter()
                    .take(prefix.fields.len())
                    .map(|a| a.is_accessible())
                    .collect();
                writeln!(
                    out,
                    "    prefix type: first suffix field {}, conditional prefix fields {:b}, accessible {:?}",
                    prefix.first_suffix_field,
                    prefix.conditional_prefix_fields.bits(),
                    accessible,
                )
                .unwrap();
                self.fields(out, "        ", prefix.fields);
            }
        }
    }
}

fn lifetimes(indices: &[impl std::fmt::Debug]) -> String {
    if indices.is_empty() {
        String::new()
    } else {
        format!("  lifetimes {indices:?}")
    }
}

fn indent_rest(text: &str, indent: &str) -> String {
    text.lines().collect::<Vec<_>>().join(&format!("\n{indent}"))
}

/// A version's whole snapshot: one section per root, each describing the
/// layouts first reached from it (later sections refer to earlier ones by
/// number). The header is the same for every version (v1's file was
/// written with it before versions existed, and stays byte for byte).
fn render(version: AbiVersion) -> String {
    let mut out = String::from(
        "# player-api's ABI, as abi_stable checks it when the arena loads a library.\n\
         # Generated by tests/abi_layout.rs; rewrite only for a deliberate ABI change:\n\
         # ARENA_BLESS=1 cargo test -p player-api --test abi_layout\n\
         # Each layout is described once, under its number (#N); `name: Type #N` refers to it.\n\
         # Parameter names are as abi_stable's checker reads them (sabi_trait methods record\n\
         # theirs as one `_self,param_0,` string; the checker compares them as they are).\n",
    );
    let mut walk = Walk::default();
    for (title, root) in roots(version) {
        let start = walk.queue.len();
        let id = walk.id(root);
        writeln!(out, "\n=== {title} = #{id}").unwrap();
        let mut next = start;
        while next < walk.queue.len() {
            let layout = walk.queue[next];
            out.push('\n');
            walk.describe(&mut out, layout);
            next += 1;
        }
    }
    out
}

fn snapshots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("abi_snapshots")
}

fn snapshot_path(version: AbiVersion) -> PathBuf {
    snapshots_dir().join(format!("v{}.txt", version.number()))
}

#[test]
fn every_released_version_matches_its_snapshot() {
    let bless = std::env::var_os("ARENA_BLESS").is_some_and(|v| v == "1");
    for &version in AbiVersion::ALL {
        let actual = render(version);
        let path = snapshot_path(version);
        if bless && !path.exists() {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (a new version's snapshot is written with ARENA_BLESS=1)", path.display())
        });
        if actual != expected {
            let first = actual.lines().zip(expected.lines()).position(|(a, e)| a != e);
            let at = first.unwrap_or_else(|| actual.lines().count().min(expected.lines().count()));
            panic!(
                "ABI v{} differs from {} at line {}:\n  expected: {:?}\n  actual:   {:?}\n\
                 A released version is frozen: libraries built for it would no longer load. Undo the \
                 change, and add to the ABI as a new version beside it (player-api/src/abi/mod.rs).",
                version.number(),
                path.display(),
                at + 1,
                expected.lines().nth(at).unwrap_or("<end>"),
                actual.lines().nth(at).unwrap_or("<end>"),
            );
        }
    }
}

#[test]
fn every_snapshot_is_of_a_released_version() {
    // A snapshot is never dropped, and never written for a version that
    // does not exist (a version taken back would strand its libraries).
    let mut files: Vec<String> = std::fs::read_dir(snapshots_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut expected: Vec<String> = AbiVersion::ALL.iter().map(|v| format!("v{}.txt", v.number())).collect();
    expected.sort();
    assert_eq!(files, expected, "tests/abi_snapshots/ must hold one snapshot per released version");
}

#[test]
fn the_walk_is_the_same_twice_in_one_process() {
    for &version in AbiVersion::ALL {
        assert_eq!(render(version), render(version));
    }
}
