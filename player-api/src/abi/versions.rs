//! The ABI's versions: which exist, what each added, and how the arena
//! tells which one a library was built for. A library exports a version
//! probe, a `u32` static under [`VERSION_SYMBOL`], beside its root module;
//! the arena reads it first, then checks the root module against that
//! version's layout. A library without a probe was built before versions
//! existed: it is v1.

use abi_stable::library::RawLibrary;

/// The symbol of a library's version probe (`export_player!` defines it).
/// It never changes, so that every arena can read every library's.
pub const VERSION_SYMBOL: &str = "arena_player_abi_version";

/// A version of the ABI this player-api can load: each one released, its
/// layout frozen in a module of its own (`v1.rs`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AbiVersion {
    /// The layout released with player-api 0.1.0, before versions had
    /// numbers (its libraries have no probe).
    V1 = 1,
    /// Parameters given at construction and declared by the library, and
    /// memory kept across matches (player-api 0.1.x, `v2.rs`).
    V2 = 2,
}

impl AbiVersion {
    /// Every released version, oldest first, numbered 1, 2, ... without a
    /// gap (a test holds it to that).
    pub const ALL: &'static [AbiVersion] = &[AbiVersion::V1, AbiVersion::V2];

    /// The version `export_player!` builds: the newest.
    pub const CURRENT: AbiVersion = AbiVersion::V2;

    /// Its number, as the probe holds it.
    pub const fn number(self) -> u32 {
        self as u32
    }

    /// The released version numbered `number`, if there is one.
    pub fn from_number(number: u32) -> Option<AbiVersion> {
        Self::ALL.iter().copied().find(|v| v.number() == number)
    }

    /// What this version added to the one before it, in words `arena check`
    /// shows as what an older library lacks (e.g. "parameters", "memory").
    pub fn adds(self) -> &'static [&'static str] {
        match self {
            AbiVersion::V1 => &[],
            AbiVersion::V2 => &["parameters", "memory"],
        }
    }

    /// What a library of this version lacks: what every later one added.
    /// It still loads and plays, with the defaults of what it lacks.
    pub fn lacks(self) -> Vec<&'static str> {
        Self::ALL.iter().filter(|v| **v > self).flat_map(|v| v.adds()).copied().collect()
    }

    /// The version of a library whose probe held `probe` (`None`: it has
    /// none, so it was built before probes, as v1). `Err` is a number no
    /// released version has: a newer arena's version, or no version at all.
    pub fn of_probe(probe: Option<u32>) -> Result<AbiVersion, u32> {
        let number = probe.unwrap_or(AbiVersion::V1.number());
        Self::from_number(number).ok_or(number)
    }
}

/// The number a loaded library's version probe holds, if it exports one.
pub fn probe(library: &RawLibrary) -> Option<u32> {
    // SAFETY: export_player! defines the symbol as a `u32` static; this
    // reads those four bytes while the library is loaded (unaligned, so that
    // a stray symbol of that name in another library cannot fault either).
    unsafe {
        let symbol = library.get::<*const u32>(VERSION_SYMBOL.as_bytes()).ok()?;
        Some(symbol.read_unaligned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_numbered_from_one_without_a_gap_and_the_newest_is_current() {
        for (i, version) in AbiVersion::ALL.iter().enumerate() {
            assert_eq!(version.number() as usize, i + 1, "{version:?}");
        }
        assert_eq!(AbiVersion::ALL.last(), Some(&AbiVersion::CURRENT));
    }

    #[test]
    fn a_library_without_a_probe_is_v1_and_an_unknown_number_is_kept_for_the_message() {
        assert_eq!(AbiVersion::of_probe(None), Ok(AbiVersion::V1));
        assert_eq!(AbiVersion::of_probe(Some(1)), Ok(AbiVersion::V1));
        assert_eq!(AbiVersion::of_probe(Some(2)), Ok(AbiVersion::V2));
        assert_eq!(AbiVersion::of_probe(Some(99)), Err(99));
        assert_eq!(AbiVersion::of_probe(Some(0)), Err(0));
    }

    #[test]
    fn the_current_version_lacks_nothing() {
        assert!(AbiVersion::CURRENT.lacks().is_empty());
        assert_eq!(AbiVersion::V1.lacks(), ["parameters", "memory"]);
    }
}
