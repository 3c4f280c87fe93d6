//! Intuitive AI's part of a replay: the settings, the hidden world drawn
//! from the seed, every reveal with the view its request showed and what
//! the cell held, the request the game ended on; its re-simulation through
//! the referee; its terminal frames.

use std::time::Duration;

use player_api::intuitive::{Cell, IntuitiveRequest, IntuitiveView, IntuitiveWorld};
use serde::{Deserialize, Serialize};

use super::IntuitiveAi;
use crate::play::solo::SinglePlayerGame;
use crate::replay::{
    diff, fault::Recorded, frames::Frames, grid, live::LiveTurn, terminal::Paint, GameBody, Replay,
    ReplayBody,
};
use crate::{
    games::intuitive::record::{IntuitiveEnd, IntuitiveRecord, IntuitiveRules, IntuitiveSettings, Reveal},
    play::solo::{
        self,
        replay::{RulesRecord, SettingsRecord},
        Ending, Timed,
    },
};

/// A cell as `[row, col]`, row 0 at the top.
pub type CellJson = [u8; 2];

/// The Intuitive AI part of a replay.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct IntuitiveBody {
    pub settings: SettingsRecord<BoardRecord>,
    /// The hidden grid (drawn from the seed).
    pub world: WorldRecord,
    pub reveals: Vec<RevealRecord>,
    /// The request the game ended on without a reveal played (an illegal
    /// reveal, or a failure): None when the last reveal ended it.
    pub failed: Option<FailedReveal>,
}

/// The rules.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct BoardRecord {
    pub board_size: u8,
}

impl RulesRecord for BoardRecord {
    const TIME_PER_STEP: &'static str = "time_per_reveal_ms";
}

/// Where everything is.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WorldRecord {
    pub pits: Vec<CellJson>,
    pub gold: CellJson,
    pub monster: CellJson,
    /// The safe cell open at the start.
    pub start: CellJson,
}

/// What a request showed the player.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ViewRecord {
    /// Every open cell (the gold's included), row-major.
    pub open: Vec<CellJson>,
    pub breeze: Vec<CellJson>,
    pub smell: Vec<CellJson>,
    pub glitter: Vec<CellJson>,
    /// The gold's cell once found.
    pub gold: Option<CellJson>,
    pub score: i8,
}

/// One reveal.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RevealRecord {
    /// What the request showed.
    pub view: ViewRecord,
    pub cell: CellJson,
    /// What the cell held: `monster`, `pit`, `gold`, or its hint
    /// (`nothing`, `breeze`, `breeze+smell`, ...).
    pub shown: String,
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Under a time bank: what was left in it after this step, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

/// The request a game ended on.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FailedReveal {
    pub view: ViewRecord,
    /// The cell answered, when the referee rejected it (off the board,
    /// already open); None when the player failed to answer.
    pub cell: Option<CellJson>,
}

/// A reveal as a live feed carries it: its record (with the view its
/// request showed); nothing else of the replay changes until the end.
pub fn live_step(request: &IntuitiveRequest, reveal: &Timed<Reveal>) -> LiveTurn {
    LiveTurn::new(RevealRecord::of(reveal, view_record(&request.view)), Vec::new())
}

impl RevealRecord {
    /// `r`, made on `view`.
    fn of(r: &Timed<Reveal>, view: ViewRecord) -> RevealRecord {
        RevealRecord {
            view,
            cell: cell_json(r.cell),
            shown: r.shown.to_string(),
            time_us: r.time.wall.as_micros() as u64,
            cpu_us: r.time.cpu.as_micros() as u64,
            bank_left_us: r.bank_left.map(|left| left.as_micros() as u64),
        }
    }
}

impl IntuitiveBody {
    pub fn of(record: &IntuitiveRecord) -> IntuitiveBody {
        let size = record.settings.rules.size;
        let views = record.views();
        let view = |i: usize| view_record(views.get(i).unwrap_or(views.last().expect("the start view")));
        let failed_cell = match &record.ending {
            Ending::Rules(IntuitiveEnd::Illegal { cell, .. }) => Some(Some(cell_json(*cell))),
            Ending::Fault(_) => Some(None),
            Ending::Rules(IntuitiveEnd::Monster | IntuitiveEnd::Pit) => None,
        };
        IntuitiveBody {
            settings: SettingsRecord::new(BoardRecord { board_size: size }, &record.settings),
            world: world_record(&record.world),
            reveals: (record.reveals.iter().enumerate()).map(|(i, r)| RevealRecord::of(r, view(i))).collect(),
            failed: failed_cell.map(|cell| FailedReveal { view: view(record.reveals.len()), cell }),
        }
    }

    pub fn settings(&self) -> IntuitiveSettings {
        self.settings.settings(IntuitiveRules { size: self.settings.rules.board_size })
    }

    /// The world, checked against the rules.
    pub fn world(&self) -> Result<IntuitiveWorld, String> {
        let cell = |c: CellJson| Cell::new(c[0], c[1]);
        let pits: Vec<Cell> = self.world.pits.iter().map(|&c| cell(c)).collect();
        let (size, w) = (self.settings.rules.board_size, &self.world);
        IntuitiveWorld::from_parts(size, &pits, cell(w.gold), cell(w.monster), cell(w.start))
            .map_err(|e| format!("world: {e}"))
    }
}

fn cell_json(cell: Cell) -> CellJson {
    [cell.row, cell.col]
}

fn world_record(world: &IntuitiveWorld) -> WorldRecord {
    let cell = |i: u8| cell_json(Cell::from_index(i, world.size()));
    WorldRecord {
        pits: world.pits().map(cell).collect(),
        gold: cell(world.gold()),
        monster: cell(world.monster()),
        start: cell(world.start()),
    }
}

pub(super) fn view_record(view: &IntuitiveView) -> ViewRecord {
    let cells = |set: player_api::intuitive::CellSet| {
        set.map(|i| cell_json(Cell::from_index(i, view.size()))).collect::<Vec<_>>()
    };
    ViewRecord {
        open: cells(view.open()),
        breeze: cells(view.breeze()),
        smell: cells(view.smell()),
        glitter: cells(view.glitter()),
        gold: view.gold().map(|i| cell_json(Cell::from_index(i, view.size()))),
        score: view.score(),
    }
}

/// The board as the player saw it: `?` closed, `.` an open cell with no
/// hint, `b` `s` `g` breeze, smell, glitter (combined: the first letters),
/// `G` the gold; the cell just revealed is highlighted, and when `last`,
/// a cell that ended the game shows `M` (monster) or `P` (pit).
pub(super) fn board(
    size: u8,
    view: &ViewRecord,
    reveal: Option<&RevealRecord>,
    last: bool,
    paint: Paint,
) -> String {
    let has = |list: &[CellJson], c: CellJson| list.contains(&c);
    grid::drawn_down(size, 3, |r, c| {
        let here = [r, c];
        let just = reveal.is_some_and(|rv| rv.cell == here);
        let (glyph, style) = if just && last && reveal.is_some_and(|rv| rv.shown == "monster") {
            ("M".to_string(), MONSTER)
        } else if just && last && reveal.is_some_and(|rv| rv.shown == "pit") {
            ("P".to_string(), PIT)
        } else if view.gold == Some(here) {
            ("G".to_string(), GOLD)
        } else if has(&view.open, here) {
            let flags: String = [(&view.breeze, 'b'), (&view.smell, 's'), (&view.glitter, 'g')]
                .iter()
                .filter(|(list, _)| has(list, here))
                .map(|(_, letter)| *letter)
                .collect();
            if flags.is_empty() {
                (".".to_string(), OPEN)
            } else {
                (flags, HINT)
            }
        } else {
            ("?".to_string(), CLOSED)
        };
        let style = if just && style != MONSTER && style != PIT { JUST } else { style };
        paint.on(style, &format!("{glyph:>3}"))
    })
}

// ANSI styles of the board's glyphs.
const CLOSED: &str = "2";
const OPEN: &str = "37";
const HINT: &str = "36";
const GOLD: &str = "1;33";
const MONSTER: &str = "1;97;42";
const PIT: &str = "1;97;41";
const JUST: &str = "1;30;43";

impl GameBody for IntuitiveBody {
    type Game = IntuitiveAi;
    const STEPS_NOUN: &'static str = "reveals";

    fn steps(&self) -> usize {
        self.reveals.len()
    }

    /// What serde cannot check: the world follows the rules, cells are on
    /// the board, the counts agree.
    fn check(&self) -> Result<(), String> {
        self.world()?;
        let size = self.settings.rules.board_size;
        let on_board =
            |what: String, cells: &[CellJson]| match cells.iter().find(|c| c[0] >= size || c[1] >= size) {
                Some(c) => Err(format!("{what}: cell {c:?} is off the {size}x{size} board")),
                None => Ok(()),
            };
        let views = self.reveals.iter().map(|r| &r.view).chain(self.failed.as_ref().map(|f| &f.view));
        for (i, view) in views.enumerate() {
            for (name, cells) in [
                ("open", &view.open),
                ("breeze", &view.breeze),
                ("smell", &view.smell),
                ("glitter", &view.glitter),
            ] {
                on_board(format!("request {} view.{name}", i + 1), cells)?;
            }
        }
        for (i, reveal) in self.reveals.iter().enumerate() {
            on_board(format!("reveals[{i}].cell"), &[reveal.cell])?;
        }
        Ok(())
    }

    /// Re-simulates the game through the referee with the recorded seed and
    /// reveals: the world drawn, every view shown, every cell's content, the
    /// ending and the score must come out the same.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        let body = self;
        let settings = body.settings();
        let seed = replay.seed;
        let drawn = world_record(&solo::world::<IntuitiveAi>(&settings.rules, seed));
        diff::part("the world", &body.world, &drawn, seed)?;
        let cell = |c: &CellJson| Cell::new(c[0], c[1]);
        // A rejected last answer is played too, for the referee to judge again.
        let rejected = body.failed.as_ref().and_then(|f| f.cell.as_ref());
        let actions = body.reveals.iter().map(|r| &r.cell).chain(rejected).map(cell).collect();
        let mut recorded = Recorded::<IntuitiveAi>::new(&replay.result, actions, "reveal");
        let record = solo::play::<IntuitiveAi>(&settings, seed, &mut recorded);
        let again = IntuitiveAi::replay(&record, &settings, replay.players[0].clone());
        let mut resimulated = again.body;
        // The views the referee showed, not the ones the record implies.
        let views = resimulated
            .reveals
            .iter_mut()
            .map(|r| &mut r.view)
            .chain(resimulated.failed.as_mut().map(|f| &mut f.view));
        for (view, shown) in views.zip(&recorded.shown) {
            *view = view_record(&shown.view);
        }
        diff::steps("reveal", &body.reveals, &resimulated.reveals, seed)?;
        diff::part("the request the game ended on", &body.failed, &resimulated.failed, seed)?;
        diff::part("the result", &replay.result, &again.result, seed)?;
        Ok(format!(
            "verified: {} reveals re-simulated with seed {seed}; the world, every view, every cell and the result match ({})",
            body.reveals.len(),
            replay.summary()
        ))
    }

    /// The game for the terminal: the start, then the board after each reveal.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
        let body = self;
        let name = replay.players.first().map_or("?", |p| p.name.as_str());
        // Each reveal's board is the view the next request showed; the last
        // one adds the cell that ended the game.
        let start = body.reveals.first().map(|r| &r.view).or(body.failed.as_ref().map(|f| &f.view));
        let start = format!(
            "{name} on a {n}x{n} board, seed {}\n{}",
            replay.seed,
            start.map_or(String::new(), |v| board(body.settings.rules.board_size, v, None, false, paint)),
            n = body.settings.rules.board_size,
        );
        let mut frames = Frames::start(replay, paint, "reveal", body.reveals.len(), &start);
        for (i, reveal) in body.reveals.iter().enumerate() {
            let next = body.reveals.get(i + 1).map(|r| &r.view).or(body.failed.as_ref().map(|f| &f.view));
            let view = next.unwrap_or(&reveal.view);
            let line = format!("{name} reveals ({},{}): {}", reveal.cell[0], reveal.cell[1], reveal.shown);
            frames.step(
                &paint.on("1;94", &line),
                Duration::from_micros(reveal.time_us),
                &board(body.settings.rules.board_size, view, Some(reveal), next.is_none(), paint),
            );
        }
        if let Some(failed) = &body.failed {
            let answer =
                failed.cell.map_or("no answer".to_string(), |c| format!("answered ({},{})", c[0], c[1]));
            frames.under(&paint.on("1;91", &format!("{name} failed: {answer}")));
        }
        frames.end()
    }
}
