//! The data folder's secret, from which every seed of a game that counts
//! is derived: grading, the league, scrimmages and finalize. Seeds written
//! in the source (or derived from public values) let a player compute
//! which games are graded, and from a game's seed its luck (Trap's throws,
//! the worlds of a single-player game); derived from 256 secret bits, no
//! player can recognise or predict a game. (A submission's smoke check
//! counts for nothing: it plays `arena check`'s public games, which a
//! student plays at home.)
//!
//! The secret is made at the folder's first start and kept in its database
//! (a backup keeps it with the grades it made); it is never served, and
//! no tournament file holds it (only the seeds made from it).

use anyhow::{bail, Context, Result};
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use crate::store::db;

/// The database setting that holds the secret, as 64 hex digits.
const SETTING: &str = "secret";

/// The variable that gives a new data folder a known secret (64 hex
/// digits): for tests and for setups that must be made again the same.
pub const VARIABLE: &str = "ARENA_SERVER_SECRET";

/// What a seed is for: seeds of different purposes never meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// An assignment's grading games: the same for every submission.
    Grading,
    /// A league pairing's games.
    League,
    /// A scrimmage's games.
    Scrimmage,
    /// An assignment's class tournament (`finalize`).
    Final,
}

impl Purpose {
    fn name(self) -> &'static str {
        match self {
            Purpose::Grading => "grading",
            Purpose::League => "league",
            Purpose::Scrimmage => "scrimmage",
            Purpose::Final => "final",
        }
    }
}

/// 256 secret bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Secret([u8; 32]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl Secret {
    pub fn from_bytes(bytes: [u8; 32]) -> Secret {
        Secret(bytes)
    }

    /// A new secret from the system's random source.
    pub fn new_random() -> Result<Secret> {
        Ok(Secret(random()?))
    }

    /// The secret in the file `path`, written as 64 hex digits (an
    /// autograder zip's `secret`).
    pub fn read(path: &std::path::Path) -> Result<Secret> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the secret file {}", path.display()))?;
        parse(&text).with_context(|| format!("the secret file {}", path.display()))
    }

    /// The secret of the data folder whose database is `db`: the one kept
    /// there, or a new one (from [`VARIABLE`] if set, else the system's
    /// random source), kept before it is used.
    pub fn of(db: &Connection) -> Result<Secret> {
        Ok(Secret::made(db)?.0)
    }

    /// [`Secret::of`], and whether it was made now.
    pub fn made(db: &Connection) -> Result<(Secret, bool)> {
        let given = match std::env::var(VARIABLE) {
            Ok(hex) => Some(parse(&hex).with_context(|| format!("{VARIABLE}: not a secret"))?),
            Err(_) => None,
        };
        if let Some(kept) = db::setting(db, SETTING)? {
            let kept = parse(&kept).context("the data folder's secret is damaged")?;
            if given.is_some_and(|given| given != kept) {
                bail!(
                    "{VARIABLE} is not the secret this data folder was made with: unset it (the folder \
                     keeps its own)"
                );
            }
            return Ok((kept, false));
        }
        let secret = match given {
            Some(given) => given,
            None => Secret(random()?),
        };
        // Another process may make one at the same time: the first kept wins.
        db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?1, ?2)", [SETTING, &secret.hex()])?;
        let kept = db::setting(db, SETTING)?.context("the secret was not kept")?;
        Ok((parse(&kept)?, true))
    }

    /// The seed of the games `identity` names (an assignment, a pairing, a
    /// scrimmage) for `purpose`: below 2^63, as a tournament file's
    /// integers are.
    pub fn seed(&self, purpose: Purpose, identity: &str) -> u64 {
        let digest = Sha256::new()
            .chain_update(self.0)
            .chain_update(purpose.name().as_bytes())
            .chain_update([0])
            .chain_update(identity.as_bytes())
            .finalize();
        u64::from_le_bytes(digest[..8].try_into().expect("8 bytes")) >> 1
    }

    /// The secret as 64 hex digits (a file an autograder zip carries).
    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

fn parse(hex: &str) -> Result<Secret> {
    let hex = hex.trim();
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("a secret is 64 hex digits");
    }
    let mut bytes = [0u8; 32];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("checked hex");
    }
    Ok(Secret(bytes))
}

/// 32 bytes from the kernel's random source.
fn random() -> Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    let mut filled = 0;
    while filled < bytes.len() {
        // SAFETY: writes at most the rest of a local buffer.
        let got = unsafe { libc::getrandom(bytes[filled..].as_mut_ptr().cast(), bytes.len() - filled, 0) };
        if got < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error).context("cannot draw the data folder's secret");
        }
        filled += got as usize;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let db = db::open(dir.path()).unwrap();
        (dir, db)
    }

    #[test]
    fn a_folder_makes_its_secret_once_and_keeps_it() {
        let (_dir, db) = folder();
        let first = Secret::of(&db).unwrap();
        assert_eq!(Secret::of(&db).unwrap(), first);
        let (_other, elsewhere) = folder();
        assert_ne!(Secret::of(&elsewhere).unwrap(), first, "256 random bits each");
        assert_eq!(db::setting(&db, SETTING).unwrap().unwrap().len(), 64);
    }

    #[test]
    fn seeds_differ_by_secret_purpose_and_identity_and_repeat() {
        let one = Secret::from_bytes([1; 32]);
        let two = Secret::from_bytes([2; 32]);
        let seed = one.seed(Purpose::Grading, "trap");
        assert_eq!(seed, one.seed(Purpose::Grading, "trap"));
        assert_ne!(seed, two.seed(Purpose::Grading, "trap"));
        assert_ne!(seed, one.seed(Purpose::League, "trap"));
        assert_ne!(seed, one.seed(Purpose::Grading, "hexapawn"));
        assert!(seed < 1 << 63);
        // Identities do not run into purposes: ("grading", "x") is not
        // ("gradin", "gx").
        assert_ne!(one.seed(Purpose::League, "1/2"), one.seed(Purpose::League, "12"));
    }

    #[test]
    fn a_damaged_or_malformed_secret_is_named() {
        assert!(parse("00").is_err());
        assert!(parse(&"g".repeat(64)).is_err());
        let secret = parse(&"0f".repeat(32)).unwrap();
        assert_eq!(secret.hex(), "0f".repeat(32));
        let (_dir, db) = folder();
        db.execute("INSERT INTO settings (key, value) VALUES (?1, 'nonsense')", [SETTING]).unwrap();
        let error = format!("{:#}", Secret::of(&db).unwrap_err());
        assert!(error.contains("damaged"), "{error}");
    }

    #[test]
    fn debug_output_never_shows_the_bits() {
        assert_eq!(format!("{:?}", Secret::from_bytes([7; 32])), "Secret(..)");
    }
}
