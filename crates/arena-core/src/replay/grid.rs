//! The grid of Wumpus World and Magic Forest as replays write it: a square
//! as `[x, y]` (x the column from the left, y the row from the bottom, as
//! the rules count them), a set of squares as a list, a direction by name;
//! a grid drawn for a terminal, that way up or row 0 at the top.

use player_api::grid::{Area, Coord, Dir};
use serde::{Deserialize, Serialize};

/// A square as `[x, y]`.
pub type CoordJson = [u8; 2];

pub fn coord_json(c: Coord) -> CoordJson {
    [c.x, c.y]
}

pub fn coord(c: CoordJson) -> Coord {
    Coord::new(c[0], c[1])
}

/// The squares of `area`, row by row from the bottom.
pub fn area_json(area: Area) -> Vec<CoordJson> {
    area.squares().map(coord_json).collect()
}

pub fn area(squares: &[CoordJson]) -> Area {
    squares.iter().map(|&c| coord(c)).collect()
}

/// Whether every square lies on a `side` x `side` grid; else the first that does not.
pub fn off_grid(squares: &[CoordJson], side: u8) -> Option<CoordJson> {
    squares.iter().copied().find(|c| c[0] >= side || c[1] >= side)
}

/// A `size` x `size` grid drawn for a terminal, north up: each row's
/// number, then `cell(square)` for each square, then the column numbers
/// (no newline after them).
pub fn drawn(size: u8, mut cell: impl FnMut(Coord) -> String) -> String {
    let mut text = String::new();
    for y in (0..size).rev() {
        text.push_str(&format!("{y:>3}"));
        for x in 0..size {
            text.push(' ');
            text.push_str(&cell(Coord::new(x, y)));
        }
        text.push('\n');
    }
    text.push_str("   ");
    for x in 0..size {
        text.push_str(&format!(" {x}"));
    }
    text
}

/// A `size` x `size` grid drawn for a terminal, row 0 at the top: the
/// column numbers, each `width` wide after a space, then each row's number
/// and, after a space each, `cell(row, column)` (no newline at the end).
pub fn drawn_down(size: u8, width: usize, mut cell: impl FnMut(u8, u8) -> String) -> String {
    let mut text = String::from("   ");
    for c in 0..size {
        text.push_str(&format!(" {c:>width$}"));
    }
    for r in 0..size {
        text.push_str(&format!("\n{r:>3}"));
        for c in 0..size {
            text.push(' ');
            text.push_str(&cell(r, c));
        }
    }
    text
}

/// A direction: `north` is up (y + 1), `east` right.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DirJson {
    North,
    East,
    South,
    West,
}

impl From<Dir> for DirJson {
    fn from(dir: Dir) -> DirJson {
        match dir {
            Dir::North => DirJson::North,
            Dir::East => DirJson::East,
            Dir::South => DirJson::South,
            Dir::West => DirJson::West,
        }
    }
}

impl From<DirJson> for Dir {
    fn from(dir: DirJson) -> Dir {
        match dir {
            DirJson::North => Dir::North,
            DirJson::East => Dir::East,
            DirJson::South => Dir::South,
            DirJson::West => Dir::West,
        }
    }
}

/// The arrow a terminal draws for an agent facing `dir`.
pub fn arrow(dir: DirJson) -> &'static str {
    match dir {
        DirJson::North => "^",
        DirJson::East => ">",
        DirJson::South => "v",
        DirJson::West => "<",
    }
}
