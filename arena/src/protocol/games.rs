//! The four newer games on the wire (docs/protocol.md): what a request
//! carries (a view, a board, a percept, a game's settings) and what a reply
//! names (a cell, a move, an action), with the conversions both ways. The
//! arena converts out and back in `isolation/`; a worker converts in and
//! back in `worker.rs`.
//!
//! Names in replies are checked here with a message that says what would
//! have been right; whether an action is legal is the referee's business.

use player_api::{
    grid::{Coord, Dir},
    hexapawn::{HexMove, HexapawnAction, HexapawnBoard, HexapawnRequest, Square},
    intuitive::{Cell, CellSet, IntuitiveView},
    magic_forest::{ActionKind, ForestAction, ForestConfig, ForestRequest},
    wumpus::{ArrowRule, Goal, Percept, WumpusAction, WumpusConfig, WumpusPlacement, WumpusRequest},
    Seat,
};
use serde::{Deserialize, Serialize};

use super::{seat_from_number, WireCell};

/// A Wumpus World or Magic Forest square on the wire: `[x, y]`, x the
/// column from the left, y the row from the bottom (as in the textbook).
pub type WireCoord = [i64; 2];

fn cell_index([row, col]: WireCell, size: u8) -> Option<u8> {
    Cell::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?).index(size)
}

fn wire_cells(set: CellSet, size: u8) -> Vec<WireCell> {
    set.map(|i| {
        let cell = Cell::from_index(i, size);
        [cell.row.into(), cell.col.into()]
    })
    .collect()
}

fn cell_set(cells: &[WireCell], size: u8) -> Result<CellSet, String> {
    cells.iter().map(|&c| cell_index(c, size).ok_or(format!("{c:?} is off the board"))).collect()
}

/// What an Intuitive AI player sees: the open cells and their hints.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireView {
    pub size: u8,
    pub score: i8,
    /// The gold's cell once it is open.
    pub gold: Option<WireCell>,
    pub open: Vec<WireCell>,
    pub breeze: Vec<WireCell>,
    pub smell: Vec<WireCell>,
    pub glitter: Vec<WireCell>,
}

impl From<&IntuitiveView> for WireView {
    fn from(view: &IntuitiveView) -> WireView {
        let size = view.size();
        WireView {
            size,
            score: view.score(),
            gold: view.gold().map(|g| {
                let cell = Cell::from_index(g, size);
                [cell.row.into(), cell.col.into()]
            }),
            open: wire_cells(view.open(), size),
            breeze: wire_cells(view.breeze(), size),
            smell: wire_cells(view.smell(), size),
            glitter: wire_cells(view.glitter(), size),
        }
    }
}

impl WireView {
    /// The view, if it is a valid one.
    pub fn to_view(&self) -> Result<IntuitiveView, String> {
        let size = self.size;
        let gold = self.gold.map(|g| cell_set(&[g], size)).transpose()?.and_then(|g| g.nth_index(0));
        let open = cell_set(&self.open, size)?;
        let hints =
            [cell_set(&self.breeze, size)?, cell_set(&self.smell, size)?, cell_set(&self.glitter, size)?];
        IntuitiveView::from_parts(size, self.score, gold, open, hints)
            .ok_or_else(|| "hints or gold on closed cells, or a board size out of range".to_string())
    }
}

/// The cell a reveal names, as a `Cell` if it fits one: an answer such as
/// `[-1, 3]` fits none and is not an action at all.
pub fn reveal_cell([row, col]: WireCell) -> Result<Cell, String> {
    match (u8::try_from(row), u8::try_from(col)) {
        (Ok(row), Ok(col)) => Ok(Cell::new(row, col)),
        _ => Err(format!("reveal [{row}, {col}] is off the board")),
    }
}

pub fn wire_cell_of(cell: Cell) -> WireCell {
    [cell.row.into(), cell.col.into()]
}

/// A Hexapawn position: the pawns of each side, and whose move it is
/// (1 White, 2 Black).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireBoard {
    pub white: Vec<WireCell>,
    pub black: Vec<WireCell>,
    pub to_move: u8,
}

fn wire_square(square: Square) -> WireCell {
    [square.row.into(), square.col.into()]
}

fn square([row, col]: WireCell) -> Option<Square> {
    Some(Square::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?))
}

impl From<&HexapawnBoard> for WireBoard {
    fn from(board: &HexapawnBoard) -> WireBoard {
        WireBoard {
            white: board.pawns(Seat::One).map(wire_square).collect(),
            black: board.pawns(Seat::Two).map(wire_square).collect(),
            to_move: board.to_move().number(),
        }
    }
}

impl WireBoard {
    pub fn to_board(&self) -> Result<HexapawnBoard, String> {
        let squares = |cells: &[WireCell]| -> Result<Vec<Square>, String> {
            cells.iter().map(|&c| square(c).ok_or(format!("{c:?} is off the board"))).collect()
        };
        let to_move = seat_from_number(self.to_move).ok_or(format!("bad seat {}", self.to_move))?;
        HexapawnBoard::from_squares(&squares(&self.white)?, &squares(&self.black)?, to_move)
            .ok_or_else(|| "not a Hexapawn position".to_string())
    }
}

/// A Hexapawn request's content.
pub fn wire_board(request: &HexapawnRequest) -> WireBoard {
    WireBoard::from(&request.board)
}

/// A Hexapawn answer: a move, or resigning.
pub fn hexapawn_reply(action: HexapawnAction) -> super::Reply {
    match action {
        HexapawnAction::Move(mv) => super::Reply::Move { from: wire_square(mv.from), to: wire_square(mv.to) },
        HexapawnAction::Resign => super::Reply::Resign,
    }
}

/// The move a reply names, if its squares fit any board.
pub fn hexapawn_move(from: WireCell, to: WireCell) -> Result<HexMove, String> {
    match (square(from), square(to)) {
        (Some(from), Some(to)) => Ok(HexMove::new(from, to)),
        _ => Err(format!("move {from:?} -> {to:?} is off the board")),
    }
}

/// A direction on the wire.
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

fn wire_coord(coord: Coord) -> WireCoord {
    [coord.x.into(), coord.y.into()]
}

fn coord([x, y]: WireCoord) -> Result<Coord, String> {
    match (u8::try_from(x), u8::try_from(y)) {
        (Ok(x), Ok(y)) => Ok(Coord::new(x, y)),
        _ => Err(format!("[{x}, {y}] is off the grid")),
    }
}

/// The rules of a Wumpus World game.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireWumpusConfig {
    pub size: u8,
    /// `one` or `each_square`.
    pub wumpus: String,
    pub wumpus_chance: f64,
    pub pit_chance: f64,
    pub obstacle_chance: f64,
    /// `one` or `one_per_wumpus`.
    pub arrows: String,
    pub arrow_cost: i32,
    pub start_score: i32,
    /// `climb_with_gold` or `grab_gold`.
    pub goal: String,
    pub start_facing: WireDir,
    pub action_cap: u32,
}

impl From<&WumpusConfig> for WireWumpusConfig {
    fn from(c: &WumpusConfig) -> WireWumpusConfig {
        let wumpus = match c.wumpus {
            WumpusPlacement::One => "one",
            WumpusPlacement::EachSquare => "each_square",
        };
        let arrows = match c.arrows {
            ArrowRule::One => "one",
            ArrowRule::OnePerWumpus => "one_per_wumpus",
        };
        let goal = match c.goal {
            Goal::ClimbWithGold => "climb_with_gold",
            Goal::GrabGold => "grab_gold",
        };
        WireWumpusConfig {
            size: c.size,
            wumpus: wumpus.into(),
            wumpus_chance: c.wumpus_chance,
            pit_chance: c.pit_chance,
            obstacle_chance: c.obstacle_chance,
            arrows: arrows.into(),
            arrow_cost: c.arrow_cost,
            start_score: c.start_score,
            goal: goal.into(),
            start_facing: c.start_facing.into(),
            action_cap: c.action_cap,
        }
    }
}

impl WireWumpusConfig {
    pub fn to_config(&self) -> Result<WumpusConfig, String> {
        let wumpus = match self.wumpus.as_str() {
            "one" => WumpusPlacement::One,
            "each_square" => WumpusPlacement::EachSquare,
            other => return Err(format!("unknown wumpus placement '{other}'")),
        };
        let arrows = match self.arrows.as_str() {
            "one" => ArrowRule::One,
            "one_per_wumpus" => ArrowRule::OnePerWumpus,
            other => return Err(format!("unknown arrow rule '{other}'")),
        };
        let goal = match self.goal.as_str() {
            "climb_with_gold" => Goal::ClimbWithGold,
            "grab_gold" => Goal::GrabGold,
            other => return Err(format!("unknown goal '{other}'")),
        };
        Ok(WumpusConfig {
            size: self.size,
            wumpus,
            wumpus_chance: self.wumpus_chance,
            pit_chance: self.pit_chance,
            obstacle_chance: self.obstacle_chance,
            arrows,
            arrow_cost: self.arrow_cost,
            start_score: self.start_score,
            goal,
            start_facing: self.start_facing.into(),
            action_cap: self.action_cap,
        })
    }
}

/// The rules of a Magic Forest run.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireForestConfig {
    pub largest: u8,
    pub monster_chance: f64,
    pub trap_chance: f64,
    pub actions_per_tile: u32,
}

impl From<&ForestConfig> for WireForestConfig {
    fn from(c: &ForestConfig) -> WireForestConfig {
        WireForestConfig {
            largest: c.largest,
            monster_chance: c.monster_chance,
            trap_chance: c.trap_chance,
            actions_per_tile: c.actions_per_tile,
        }
    }
}

impl From<&WireForestConfig> for ForestConfig {
    fn from(c: &WireForestConfig) -> ForestConfig {
        ForestConfig {
            largest: c.largest,
            monster_chance: c.monster_chance,
            trap_chance: c.trap_chance,
            actions_per_tile: c.actions_per_tile,
        }
    }
}

/// A game's rules in `new_game`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum WireConfig {
    Wumpus(WireWumpusConfig),
    Forest(WireForestConfig),
}

/// What the Wumpus World agent senses.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct WirePercept {
    pub stench: bool,
    pub breeze: bool,
    pub glitter: bool,
    pub bump: bool,
    pub scream: bool,
}

/// A Wumpus World step's state.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireWumpusState {
    pub percept: WirePercept,
    pub at: WireCoord,
    pub facing: WireDir,
    pub arrows: u8,
    pub has_gold: bool,
    pub actions: u32,
    pub score: i32,
}

/// A Magic Forest step's state.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WireForestState {
    pub at: WireCoord,
    pub size: u8,
    pub forest: u8,
    pub bones: bool,
    pub leaves: bool,
    pub died: bool,
    pub actions_left: u32,
    pub score: i32,
}

/// The state in a `step` request: whichever game is being played.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum WireStepState {
    Wumpus(WireWumpusState),
    Forest(WireForestState),
}

impl From<&WumpusRequest> for WireWumpusState {
    fn from(r: &WumpusRequest) -> WireWumpusState {
        let p = r.percept;
        WireWumpusState {
            percept: WirePercept {
                stench: p.stench,
                breeze: p.breeze,
                glitter: p.glitter,
                bump: p.bump,
                scream: p.scream,
            },
            at: wire_coord(r.at),
            facing: r.facing.into(),
            arrows: r.arrows,
            has_gold: r.has_gold,
            actions: r.actions,
            score: r.score,
        }
    }
}

impl WireWumpusState {
    pub fn to_request(&self) -> Result<WumpusRequest, String> {
        let p = self.percept;
        Ok(WumpusRequest {
            percept: Percept {
                stench: p.stench,
                breeze: p.breeze,
                glitter: p.glitter,
                bump: p.bump,
                scream: p.scream,
            },
            at: coord(self.at)?,
            facing: self.facing.into(),
            arrows: self.arrows,
            has_gold: self.has_gold,
            actions: self.actions,
            score: self.score,
        })
    }
}

impl From<&ForestRequest> for WireForestState {
    fn from(r: &ForestRequest) -> WireForestState {
        WireForestState {
            at: wire_coord(r.at),
            size: r.size,
            forest: r.forest,
            bones: r.bones,
            leaves: r.leaves,
            died: r.died,
            actions_left: r.actions_left,
            score: r.score,
        }
    }
}

impl WireForestState {
    pub fn to_request(&self) -> Result<ForestRequest, String> {
        Ok(ForestRequest {
            at: coord(self.at)?,
            size: self.size,
            forest: self.forest,
            bones: self.bones,
            leaves: self.leaves,
            died: self.died,
            actions_left: self.actions_left,
            score: self.score,
        })
    }
}

const WUMPUS_ACTIONS: [(&str, WumpusAction); 6] = [
    ("forward", WumpusAction::Forward),
    ("turn_left", WumpusAction::TurnLeft),
    ("turn_right", WumpusAction::TurnRight),
    ("grab", WumpusAction::Grab),
    ("shoot", WumpusAction::Shoot),
    ("climb", WumpusAction::Climb),
];

const DIRS: [(&str, Dir); 4] =
    [("north", Dir::North), ("east", Dir::East), ("south", Dir::South), ("west", Dir::West)];

fn names<T>(table: &[(&str, T)]) -> String {
    table.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

/// A Wumpus World action as a reply.
pub fn wumpus_reply(action: WumpusAction) -> super::Reply {
    let name =
        WUMPUS_ACTIONS.iter().find(|(_, a)| *a == action).map(|(n, _)| *n).expect("every action named");
    super::Reply::Action { action: name.into(), dir: None }
}

/// The Wumpus World action a reply names.
pub fn wumpus_action(name: &str, dir: Option<&str>) -> Result<WumpusAction, String> {
    if dir.is_some() {
        return Err(format!("action '{name}' takes no dir in Wumpus World"));
    }
    WUMPUS_ACTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| *a)
        .ok_or_else(|| format!("unknown action '{name}' (one of {})", names(&WUMPUS_ACTIONS)))
}

/// A Magic Forest action as a reply.
pub fn forest_reply(action: ForestAction) -> super::Reply {
    let kind = match action.kind {
        ActionKind::Move => "move",
        ActionKind::Throw => "throw",
    };
    let dir = DIRS.iter().find(|(_, d)| *d == action.dir).map(|(n, _)| *n).expect("every dir named");
    super::Reply::Action { action: kind.into(), dir: Some(dir.into()) }
}

/// The Magic Forest action a reply names.
pub fn forest_action(name: &str, dir: Option<&str>) -> Result<ForestAction, String> {
    let kind = match name {
        "move" => ActionKind::Move,
        "throw" => ActionKind::Throw,
        other => return Err(format!("unknown action '{other}' (one of move, throw)")),
    };
    let Some(dir) = dir else { return Err(format!("action '{name}' needs a dir ({})", names(&DIRS))) };
    let dir = DIRS
        .iter()
        .find(|(n, _)| *n == dir)
        .map(|(_, d)| *d)
        .ok_or_else(|| format!("unknown dir '{dir}' (one of {})", names(&DIRS)))?;
    Ok(ForestAction { kind, dir })
}

/// Where the Wumpus World agent starts, on the wire.
pub fn wire_start(start: Coord) -> WireCoord {
    wire_coord(start)
}

/// The start square a `new_game` names.
pub fn start_coord(start: WireCoord) -> Result<Coord, String> {
    coord(start)
}

#[cfg(test)]
mod tests {
    use player_api::{
        intuitive::{IntuitiveGame, IntuitiveWorld},
        magic_forest::ForestState,
        wumpus::{WumpusState, WumpusWorld},
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::protocol::{decode, encode, Reply, Request};

    /// Through JSON frames and back, as the worker receives it.
    fn over_the_wire(request: &Request) -> Request {
        let mut frame = Vec::new();
        encode(request, &mut frame);
        decode::<Request>(&frame).unwrap().unwrap().0
    }

    #[test]
    fn views_in_play_survive_the_wire() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let size = rng.random_range(3..=8);
            let mut game = IntuitiveGame::new(IntuitiveWorld::generate(size, &mut rng));
            while !game.is_over() {
                let view = *game.view();
                let request = Request::Reveal { turn: 0, time_left_us: 1, state: WireView::from(&view) };
                let Request::Reveal { state, .. } = over_the_wire(&request) else { panic!() };
                assert_eq!(state.to_view(), Ok(view));
                let closed = view.closed().nth_index(rng.random_range(0..view.closed().len())).unwrap();
                let _ = game.reveal(Cell::from_index(closed, size));
            }
        }
    }

    #[test]
    fn impossible_views_are_refused() {
        let view = WireView {
            size: 4,
            score: 0,
            gold: None,
            open: vec![[0, 0]],
            breeze: vec![[1, 1]],
            smell: vec![],
            glitter: vec![],
        };
        assert!(view.to_view().is_err(), "a hint on a closed cell");
        assert!(WireView { open: vec![[0, 9]], breeze: vec![], ..view.clone() }.to_view().is_err());
        assert!(WireView { size: 20, breeze: vec![], ..view }.to_view().is_err());
    }

    #[test]
    fn boards_percepts_and_configs_survive_the_wire() {
        let board = HexapawnBoard::start().play(HexapawnBoard::start().legal_moves()[1]);
        assert_eq!(WireBoard::from(&board).to_board(), Ok(board));
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for config in [WumpusConfig::aima(), WumpusConfig::project()] {
            assert_eq!(WireWumpusConfig::from(&config).to_config(), Ok(config));
            let mut state = WumpusState::new(&config, WumpusWorld::generate(&config, &mut rng));
            while state.end().is_none() {
                let request = state.request();
                let wire = Request::Step {
                    time_left_us: 1,
                    state: WireStepState::Wumpus(WireWumpusState::from(&request)),
                };
                let Request::Step { state: WireStepState::Wumpus(back), .. } = over_the_wire(&wire) else {
                    panic!("a wumpus state came back as another game's")
                };
                assert_eq!(back.to_request(), Ok(request));
                let legal: Vec<_> = state.legal_actions().collect();
                state.apply(legal[rng.random_range(0..legal.len())]);
            }
        }
        let config = ForestConfig::default();
        assert_eq!(ForestConfig::from(&WireForestConfig::from(&config)), config);
        let mut state = ForestState::new(&config, ForestState::generate(&config, &mut rng));
        for _ in 0..200 {
            let request = state.request();
            let wire = Request::Step {
                time_left_us: 1,
                state: WireStepState::Forest(WireForestState::from(&request)),
            };
            let Request::Step { state: WireStepState::Forest(back), .. } = over_the_wire(&wire) else {
                panic!("a forest state came back as another game's")
            };
            assert_eq!(back.to_request(), Ok(request));
            if state.apply(ForestAction::walk(Dir::ALL[rng.random_range(0..4)])).1.is_some() {
                break;
            }
        }
    }

    #[test]
    fn every_action_survives_the_wire_and_wrong_names_say_what_is_right() {
        for action in WumpusAction::ALL {
            let Reply::Action { action: name, dir } = wumpus_reply(action) else { panic!() };
            assert_eq!(wumpus_action(&name, dir.as_deref()), Ok(action));
        }
        for kind in [ActionKind::Move, ActionKind::Throw] {
            for dir in Dir::ALL {
                let action = ForestAction { kind, dir };
                let Reply::Action { action: name, dir } = forest_reply(action) else { panic!() };
                assert_eq!(forest_action(&name, dir.as_deref()), Ok(action));
            }
        }
        assert_eq!(
            wumpus_action("jump", None),
            Err("unknown action 'jump' (one of forward, turn_left, turn_right, grab, shoot, climb)".into())
        );
        assert_eq!(
            forest_action("move", None),
            Err("action 'move' needs a dir (north, east, south, west)".into())
        );
        assert_eq!(
            forest_action("move", Some("up")),
            Err("unknown dir 'up' (one of north, east, south, west)".into())
        );
        assert_eq!(reveal_cell([-1, 3]), Err("reveal [-1, 3] is off the board".into()));
        assert_eq!(hexapawn_move([0, 0], [300, 1]), Err("move [0, 0] -> [300, 1] is off the board".into()));
    }

    #[test]
    fn a_trap_new_game_is_unchanged_on_the_wire() {
        let request = Request::NewGame {
            game: "trap".into(),
            seat: Some(1),
            size: Some(7),
            turn_budget_us: 5_000_000,
            seed: 1234,
            config: None,
            start: None,
            arrows: None,
        };
        let json =
            r#"{"type":"new_game","game":"trap","seat":1,"size":7,"turn_budget_us":5000000,"seed":1234}"#;
        assert_eq!(serde_json::to_string(&request).unwrap(), json);
    }
}
