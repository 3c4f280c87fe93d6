//! Magic Forest's part of a replay: the run's parameters, every forest
//! drawn from the seed, every action with what its request showed and what
//! happened, the wanderer at the end; its re-simulation through the
//! referee; its terminal frames.

use std::time::Duration;

use player_api::magic_forest::{
    ActionKind, Forest, ForestAction, ForestConfig, ForestEvent, ForestRequest, ForestState,
};
use serde::{Deserialize, Serialize};

use super::MagicForest;
use crate::play::solo::SinglePlayerGame;
use crate::replay::{
    diff,
    fault::Recorded,
    frames::Frames,
    grid::{self, area, area_json, coord, coord_json, off_grid, CoordJson, DirJson},
    live::{self, LiveTurn},
    terminal::{self, Paint},
    GameBody, Replay, ReplayBody,
};
use crate::{
    games::magic_forest::record::{Ending, ForestRecord, ForestSettings, ForestStep},
    play::solo::{
        self,
        replay::{RulesRecord, SettingsRecord},
        Timed,
    },
};

/// The Magic Forest part of a replay.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ForestBody {
    pub settings: SettingsRecord<RulesJson>,
    /// The run's forests, smallest first (drawn from the seed).
    pub forests: Vec<ForestJson>,
    pub steps: Vec<StepRecord>,
    /// The wanderer after the last action.
    #[serde(rename = "final")]
    pub final_state: RequestRecord,
    /// Forests whose portal was reached, and deaths, over the run.
    pub cleared: u32,
    pub deaths: u32,
}

/// The run's parameters (player-api's `ForestConfig`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RulesJson {
    pub largest: u8,
    pub monster_chance: f64,
    pub trap_chance: f64,
    pub actions_per_tile: u32,
}

impl RulesRecord for RulesJson {
    const TIME_PER_STEP: &'static str = "time_per_action_ms";
}

/// One forest; tiles `[x, y]`, y counted from the bottom.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ForestJson {
    pub size: u8,
    pub monsters: Vec<CoordJson>,
    pub traps: Vec<CoordJson>,
    pub portal: CoordJson,
    pub start: CoordJson,
}

/// What a request showed the wanderer.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RequestRecord {
    /// Which forest of the run, from 0.
    pub forest: u8,
    pub size: u8,
    pub at: CoordJson,
    pub bones: bool,
    pub leaves: bool,
    pub died: bool,
    pub actions_left: u32,
    pub score: i32,
}

/// One action and what it did.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StepRecord {
    pub request: RequestRecord,
    pub action: ActionRecord,
    pub event: EventRecord,
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Under a time bank: what was left in it after this step, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct ActionRecord {
    /// `move` or `throw` (a stone).
    pub kind: KindJson,
    pub dir: DirJson,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum KindJson {
    Move,
    Throw,
}

/// What an action did.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventRecord {
    Moved,
    /// A move into the forest's edge.
    Edge,
    /// Stepped onto a live monster or a trap at `at`; back at the start.
    Died {
        at: CoordJson,
    },
    /// Reached the portal: the forest is cleared.
    Portal,
    /// A stone; `killed`: it hit a live monster.
    Stone {
        killed: bool,
    },
}

/// An action as a live feed carries it: its record, the wanderer after
/// it, and the run's counts.
pub fn live_step(step: &Timed<ForestStep>, state: &ForestState) -> LiveTurn {
    LiveTurn::new(
        StepRecord::of(step),
        vec![
            ("final", live::value(request_record(&state.request()))),
            ("cleared", live::value(state.cleared())),
            ("deaths", live::value(state.deaths())),
        ],
    )
}

impl StepRecord {
    fn of(s: &Timed<ForestStep>) -> StepRecord {
        StepRecord {
            request: request_record(&s.shown),
            action: ActionRecord {
                kind: match s.action.kind {
                    ActionKind::Move => KindJson::Move,
                    ActionKind::Throw => KindJson::Throw,
                },
                dir: s.action.dir.into(),
            },
            event: event_record(s.event),
            time_us: s.time.wall.as_micros() as u64,
            cpu_us: s.time.cpu.as_micros() as u64,
            bank_left_us: s.bank_left.map(|left| left.as_micros() as u64),
        }
    }
}

impl ForestBody {
    pub fn of(run: &ForestRecord, settings: &ForestSettings) -> ForestBody {
        let c = &run.config;
        let rules = RulesJson {
            largest: c.largest,
            monster_chance: c.monster_chance,
            trap_chance: c.trap_chance,
            actions_per_tile: c.actions_per_tile,
        };
        ForestBody {
            settings: SettingsRecord::new(rules, settings),
            forests: run.forests.iter().map(forest_json).collect(),
            steps: run.steps.iter().map(StepRecord::of).collect(),
            final_state: request_record(&final_state(run).request()),
            cleared: run.cleared,
            deaths: run.deaths,
        }
    }

    pub fn config(&self) -> ForestConfig {
        let s = &self.settings.rules;
        ForestConfig {
            largest: s.largest,
            monster_chance: s.monster_chance,
            trap_chance: s.trap_chance,
            actions_per_tile: s.actions_per_tile,
        }
    }

    /// The run's forests (as drawn from its seed).
    pub fn forests(&self) -> Vec<Forest> {
        (self.forests.iter())
            .map(|f| Forest {
                size: f.size,
                monsters: area(&f.monsters),
                traps: area(&f.traps),
                portal: coord(f.portal),
                start: coord(f.start),
            })
            .collect()
    }

    pub fn settings(&self) -> ForestSettings {
        self.settings.settings(self.config())
    }
}

/// The wanderer after the run: the rules applied to every recorded action.
fn final_state(run: &ForestRecord) -> ForestState {
    let mut state = ForestState::new(&run.config, run.forests.clone());
    for step in &run.steps {
        state.apply(step.action);
    }
    if matches!(run.ending, Ending::Fault(_)) {
        state.forfeit();
    }
    state
}

fn forest_json(f: &Forest) -> ForestJson {
    ForestJson {
        size: f.size,
        monsters: area_json(f.monsters),
        traps: area_json(f.traps),
        portal: coord_json(f.portal),
        start: coord_json(f.start),
    }
}

fn request_record(r: &ForestRequest) -> RequestRecord {
    RequestRecord {
        forest: r.forest,
        size: r.size,
        at: coord_json(r.at),
        bones: r.bones,
        leaves: r.leaves,
        died: r.died,
        actions_left: r.actions_left,
        score: r.score,
    }
}

fn event_record(event: ForestEvent) -> EventRecord {
    match event {
        ForestEvent::Moved => EventRecord::Moved,
        ForestEvent::Edge => EventRecord::Edge,
        ForestEvent::Died { at } => EventRecord::Died { at: coord_json(at) },
        ForestEvent::Portal => EventRecord::Portal,
        ForestEvent::Stone { killed } => EventRecord::Stone { killed },
    }
}

pub(super) fn action_from(a: ActionRecord) -> ForestAction {
    match a.kind {
        KindJson::Move => ForestAction::walk(a.dir.into()),
        KindJson::Throw => ForestAction::throw(a.dir.into()),
    }
}

fn event_text(event: EventRecord) -> String {
    match event {
        EventRecord::Moved => "moved".to_string(),
        EventRecord::Edge => "the edge (stays)".to_string(),
        EventRecord::Died { at } => format!("died at ({},{}), back to the start", at[0], at[1]),
        EventRecord::Portal => "the portal: forest cleared".to_string(),
        EventRecord::Stone { killed: true } => "the stone killed a monster".to_string(),
        EventRecord::Stone { killed: false } => "the stone hit nothing".to_string(),
    }
}

/// The wanderer's current forest, top row first: `@` the wanderer, `M` a
/// monster (`m` one killed), `T` a trap, `O` the portal, `S` the start,
/// `x` where it just died, `.` the rest; then what it senses.
fn forest(
    body: &ForestBody,
    at: &RequestRecord,
    step: Option<&StepRecord>,
    killed: &[CoordJson],
    paint: Paint,
) -> String {
    let Some(f) = body.forests.get(at.forest as usize) else { return String::new() };
    let (monsters, traps) = (area(&f.monsters), area(&f.traps));
    let died = match step.map(|s| s.event) {
        Some(EventRecord::Died { at }) => Some(at),
        _ => None,
    };
    let mut text = format!("forest {} of {} ({}x{})\n", at.forest + 1, body.forests.len(), f.size, f.size);
    text.push_str(&grid::drawn(f.size, |here| {
        let (x, y) = (here.x, here.y);
        if coord(at.at) == here {
            paint.on(WANDERER, "@")
        } else if died == Some([x, y]) {
            paint.on(DIED, "x")
        } else if monsters.contains(here) && killed.contains(&[x, y]) {
            paint.on(KILLED, "m")
        } else if monsters.contains(here) {
            paint.on(MONSTER, "M")
        } else if traps.contains(here) {
            paint.on(TRAP, "T")
        } else if coord(f.portal) == here {
            paint.on(PORTAL, "O")
        } else if coord(f.start) == here {
            paint.on(START, "S")
        } else {
            paint.on(FREE, ".")
        }
    }));
    text.push_str(&format!(
        "\nsenses: {}   actions left {}   score {}",
        senses(at.bones, at.leaves, at.died),
        at.actions_left,
        at.score
    ));
    text
}

/// What the wanderer senses where it stands.
pub(super) fn senses(bones: bool, leaves: bool, died: bool) -> String {
    terminal::listed(&[(bones, "bones"), (leaves, "leaves"), (died, "just died")], "nothing")
}

// ANSI styles of the forest's glyphs.
pub(super) const WANDERER: &str = "1;97;44";
const DIED: &str = "1;97;41";
const MONSTER: &str = "1;91";
pub(super) const KILLED: &str = "2;31";
const TRAP: &str = "1;35";
const PORTAL: &str = "1;30;42";
pub(super) const START: &str = "36";
pub(super) const FREE: &str = "2";

impl GameBody for ForestBody {
    type Game = MagicForest;
    const STEPS_NOUN: &'static str = "actions";

    fn steps(&self) -> usize {
        self.steps.len()
    }

    /// What serde cannot check: playable parameters, one forest per size,
    /// tiles inside their forest.
    fn check(&self) -> Result<(), String> {
        let config = self.config();
        config.check().map_err(|e| format!("settings: {e}"))?;
        let sizes: Vec<u8> = config.sizes().collect();
        let listed: Vec<u8> = self.forests.iter().map(|f| f.size).collect();
        if sizes != listed {
            return Err(format!("forests of sizes {listed:?}; the run has forests of sizes {sizes:?}"));
        }
        for (i, f) in self.forests.iter().enumerate() {
            let tiles = [f.monsters.clone(), f.traps.clone(), vec![f.portal, f.start]].concat();
            if let Some(t) = off_grid(&tiles, f.size) {
                return Err(format!("forests[{i}]: tile {t:?} is outside the {0}x{0} forest", f.size));
            }
        }
        let requests = self.steps.iter().map(|s| &s.request).chain([&self.final_state]);
        for (i, r) in requests.enumerate() {
            let Some(forest) = self.forests.get(r.forest as usize) else {
                return Err(format!("request {}: forest {} is not in the run", i + 1, r.forest));
            };
            if off_grid(&[r.at], forest.size).is_some() || r.size != forest.size {
                return Err(format!("request {}: {:?} is not a tile of forest {}", i + 1, r.at, r.forest));
            }
        }
        Ok(())
    }

    /// Re-simulates the run through the referee with the recorded seed and
    /// actions: the forests drawn, every request, every event, the ending and
    /// the score must come out the same.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        let body = self;
        let settings = body.settings();
        let seed = replay.seed;
        let drawn: Vec<ForestJson> =
            solo::world::<MagicForest>(&settings.rules, seed).iter().map(forest_json).collect();
        for (i, (want, got)) in body.forests.iter().zip(&drawn).enumerate() {
            diff::part(&format!("forest {} ({}x{})", i, want.size, want.size), want, got, seed)?;
        }
        let actions = body.steps.iter().map(|s| action_from(s.action)).collect();
        let run = solo::play::<MagicForest>(
            &settings,
            seed,
            &mut Recorded::<MagicForest>::new(&replay.result, actions, "action"),
        );
        let again = MagicForest::replay(&run, &settings, replay.players[0].clone());
        let resimulated = &again.body;
        diff::steps("action", &body.steps, &resimulated.steps, seed)?;
        diff::part("the final state", &body.final_state, &resimulated.final_state, seed)?;
        diff::part("forests cleared", &body.cleared, &resimulated.cleared, seed)?;
        diff::part("deaths", &body.deaths, &resimulated.deaths, seed)?;
        diff::part("the result", &replay.result, &again.result, seed)?;
        Ok(format!(
            "verified: {} actions in {} forests re-simulated with seed {seed}; the forests, every request and event, and the result match ({})",
            body.steps.len(),
            body.forests.len(),
            replay.summary()
        ))
    }

    /// The run for the terminal: the start, then the forest after each action.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
        let body = self;
        let name = replay.players.first().map_or("?", |p| p.name.as_str());
        let start = body.steps.first().map_or(&body.final_state, |s| &s.request);
        let mut killed: Vec<CoordJson> = Vec::new();
        let start = format!(
            "{name} in {} forests (3x3 to {n}x{n}), seed {}\n{}",
            body.forests.len(),
            replay.seed,
            forest(body, start, None, &killed, paint),
            n = body.settings.rules.largest,
        );
        let mut frames = Frames::start(replay, paint, "action", body.steps.len(), &start);
        for (i, step) in body.steps.iter().enumerate() {
            let after = body.steps.get(i + 1).map_or(&body.final_state, |s| &s.request);
            let target = coord(step.request.at).step(step.action.dir.into(), step.request.size);
            if let (EventRecord::Stone { killed: true }, Some(t)) = (step.event, target) {
                killed.push(coord_json(t));
            }
            if after.forest != step.request.forest {
                killed.clear();
            }
            let line = format!("{name}: {} -> {}", action_from(step.action), event_text(step.event));
            frames.step(
                &paint.on("1;94", &line),
                Duration::from_micros(step.time_us),
                &forest(body, after, Some(step), &killed, paint),
            );
        }
        frames.end()
    }
}
