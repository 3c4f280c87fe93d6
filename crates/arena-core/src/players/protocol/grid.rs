//! The 4-neighbour grid on the wire (player_api::grid): a square as
//! `[x, y]` and a direction by name, shared by the games played on it.

use player_api::grid::{Coord, Dir};
use serde::{Deserialize, Serialize};

use super::Names;

/// A grid square on the wire: `[x, y]`, x the column from the left, y the
/// row from the bottom (as in the textbook).
pub type WireCoord = [i64; 2];

pub fn wire_coord(coord: Coord) -> WireCoord {
    [coord.x.into(), coord.y.into()]
}

/// The square a wire pair names, if it fits a `Coord` at all.
pub fn coord([x, y]: WireCoord) -> Result<Coord, String> {
    match (u8::try_from(x), u8::try_from(y)) {
        (Ok(x), Ok(y)) => Ok(Coord::new(x, y)),
        _ => Err(format!("[{x}, {y}] is off the grid")),
    }
}

/// A direction in a request.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum WireDir {
    North,
    East,
    South,
    West,
}

impl From<Dir> for WireDir {
    fn from(dir: Dir) -> WireDir {
        match dir {
            Dir::North => WireDir::North,
            Dir::East => WireDir::East,
            Dir::South => WireDir::South,
            Dir::West => WireDir::West,
        }
    }
}

impl From<WireDir> for Dir {
    fn from(dir: WireDir) -> Dir {
        match dir {
            WireDir::North => Dir::North,
            WireDir::East => Dir::East,
            WireDir::South => Dir::South,
            WireDir::West => Dir::West,
        }
    }
}

/// The directions by name, as a reply gives them (`"dir":"north"`).
pub const DIRS: Names<Dir> =
    Names(&[("north", Dir::North), ("east", Dir::East), ("south", Dir::South), ("west", Dir::West)]);
