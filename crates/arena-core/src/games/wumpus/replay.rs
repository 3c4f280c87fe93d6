//! Wumpus World's part of a replay: the rules (the configuration), the cave
//! drawn from the seed, every action with the percepts and state its
//! request showed, the state at the end; its re-simulation through the
//! referee; its terminal frames.

use std::time::Duration;

use player_api::wumpus::{
    ArrowRule, Goal, Percept, WumpusAction, WumpusConfig, WumpusPlacement, WumpusRequest, WumpusState,
    WumpusWorld,
};
use serde::{Deserialize, Serialize};

use super::Wumpus;
use crate::play::solo::SinglePlayerGame;
use crate::replay::{
    diff,
    fault::Recorded,
    frames::Frames,
    grid::{self, area, area_json, arrow, coord, coord_json, off_grid, CoordJson, DirJson},
    live::{self, LiveTurn},
    terminal::Paint,
    GameBody, Replay, ReplayBody,
};
use crate::{
    games::wumpus::{
        preset_name,
        record::{Ending, WumpusRecord, WumpusSettings, WumpusStep},
    },
    play::solo::{
        self,
        replay::{RulesRecord, SettingsRecord},
        Timed,
    },
};

/// The Wumpus World part of a replay.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WumpusBody {
    pub settings: SettingsRecord<RulesJson>,
    /// The cave (drawn from the seed).
    pub world: CaveRecord,
    pub steps: Vec<StepRecord>,
    /// The agent after the last action.
    #[serde(rename = "final")]
    pub final_state: AgentRecord,
}

/// The rules.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RulesJson {
    /// `aima` or `project` when the rules are a preset's.
    pub preset: Option<String>,
    pub config: ConfigRecord,
}

impl RulesRecord for RulesJson {
    const TIME_PER_STEP: &'static str = "time_per_action_ms";
}

/// Every rule of the game (player-api's `WumpusConfig`).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct ConfigRecord {
    pub size: u8,
    pub wumpus: Placement,
    pub wumpus_chance: f64,
    pub pit_chance: f64,
    pub obstacle_chance: f64,
    pub arrows: Arrows,
    pub arrow_cost: i32,
    pub start_score: i32,
    pub goal: GoalJson,
    pub start_facing: DirJson,
    pub action_cap: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    One,
    EachSquare,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Arrows {
    One,
    OnePerWumpus,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum GoalJson {
    ClimbWithGold,
    GrabGold,
}

/// Where everything is; squares `[x, y]`, y counted from the bottom.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CaveRecord {
    pub pits: Vec<CoordJson>,
    pub wumpuses: Vec<CoordJson>,
    pub obstacles: Vec<CoordJson>,
    pub gold: CoordJson,
}

/// What a request showed: the percepts and the agent.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct AgentRecord {
    /// Of `stench`, `breeze`, `glitter`, `bump`, `scream`, the ones sensed.
    pub percept: Vec<String>,
    pub at: CoordJson,
    pub facing: DirJson,
    pub arrows: u8,
    pub has_gold: bool,
    /// Actions taken so far.
    pub actions: u32,
    pub score: i32,
}

/// One action.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct StepRecord {
    pub request: AgentRecord,
    pub action: ActionJson,
    pub time_us: u64,
    /// CPU time the player used, in microseconds (older replays: 0).
    #[serde(default)]
    pub cpu_us: u64,
    /// Under a time bank: what was left in it after this step, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_left_us: Option<u64>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum ActionJson {
    Forward,
    TurnLeft,
    TurnRight,
    Grab,
    Shoot,
    Climb,
}

/// An action as a live feed carries it: its record, and the agent after it.
pub fn live_step(step: &Timed<WumpusStep>, state: &WumpusState) -> LiveTurn {
    LiveTurn::new(StepRecord::of(step), vec![("final", live::value(agent_record(&state.request())))])
}

impl StepRecord {
    fn of(s: &Timed<WumpusStep>) -> StepRecord {
        StepRecord {
            request: agent_record(&s.shown),
            action: action_json(s.action),
            time_us: s.time.wall.as_micros() as u64,
            cpu_us: s.time.cpu.as_micros() as u64,
            bank_left_us: s.bank_left.map(|left| left.as_micros() as u64),
        }
    }
}

impl WumpusBody {
    pub fn of(game: &WumpusRecord, settings: &WumpusSettings) -> WumpusBody {
        let config = game.config;
        let rules =
            RulesJson { preset: preset_name(&config).map(str::to_string), config: config_record(&config) };
        WumpusBody {
            settings: SettingsRecord::new(rules, settings),
            world: cave_record(&game.world),
            steps: game.steps.iter().map(StepRecord::of).collect(),
            final_state: agent_record(&final_state(game).request()),
        }
    }

    pub fn settings(&self) -> WumpusSettings {
        self.settings.settings(config_from(&self.settings.rules.config))
    }
}

/// The agent after the game: the rules applied to every recorded action.
fn final_state(game: &WumpusRecord) -> WumpusState {
    let mut state = WumpusState::new(&game.config, game.world);
    for step in &game.steps {
        match state.check(step.action) {
            Ok(()) => {
                state.apply(step.action);
            }
            Err(why) => {
                state.forfeit(Some((step.action, why)));
            }
        }
    }
    if matches!(game.ending, Ending::Fault(_)) {
        state.forfeit(None);
    }
    state
}

fn config_record(c: &WumpusConfig) -> ConfigRecord {
    ConfigRecord {
        size: c.size,
        wumpus: match c.wumpus {
            WumpusPlacement::One => Placement::One,
            WumpusPlacement::EachSquare => Placement::EachSquare,
        },
        wumpus_chance: c.wumpus_chance,
        pit_chance: c.pit_chance,
        obstacle_chance: c.obstacle_chance,
        arrows: match c.arrows {
            ArrowRule::One => Arrows::One,
            ArrowRule::OnePerWumpus => Arrows::OnePerWumpus,
        },
        arrow_cost: c.arrow_cost,
        start_score: c.start_score,
        goal: match c.goal {
            Goal::ClimbWithGold => GoalJson::ClimbWithGold,
            Goal::GrabGold => GoalJson::GrabGold,
        },
        start_facing: c.start_facing.into(),
        action_cap: c.action_cap,
    }
}

pub(super) fn config_from(c: &ConfigRecord) -> WumpusConfig {
    WumpusConfig {
        size: c.size,
        wumpus: match c.wumpus {
            Placement::One => WumpusPlacement::One,
            Placement::EachSquare => WumpusPlacement::EachSquare,
        },
        wumpus_chance: c.wumpus_chance,
        pit_chance: c.pit_chance,
        obstacle_chance: c.obstacle_chance,
        arrows: match c.arrows {
            Arrows::One => ArrowRule::One,
            Arrows::OnePerWumpus => ArrowRule::OnePerWumpus,
        },
        arrow_cost: c.arrow_cost,
        start_score: c.start_score,
        goal: match c.goal {
            GoalJson::ClimbWithGold => Goal::ClimbWithGold,
            GoalJson::GrabGold => Goal::GrabGold,
        },
        start_facing: c.start_facing.into(),
        action_cap: c.action_cap,
    }
}

fn cave_record(world: &WumpusWorld) -> CaveRecord {
    CaveRecord {
        pits: area_json(world.pits),
        wumpuses: area_json(world.wumpuses),
        obstacles: area_json(world.obstacles),
        gold: coord_json(world.gold),
    }
}

fn percept_names(p: &Percept) -> Vec<String> {
    let flags = [
        (p.stench, "stench"),
        (p.breeze, "breeze"),
        (p.glitter, "glitter"),
        (p.bump, "bump"),
        (p.scream, "scream"),
    ];
    flags.iter().filter(|(on, _)| *on).map(|(_, name)| name.to_string()).collect()
}

fn agent_record(r: &WumpusRequest) -> AgentRecord {
    AgentRecord {
        percept: percept_names(&r.percept),
        at: coord_json(r.at),
        facing: r.facing.into(),
        arrows: r.arrows,
        has_gold: r.has_gold,
        actions: r.actions,
        score: r.score,
    }
}

fn action_json(action: WumpusAction) -> ActionJson {
    match action {
        WumpusAction::Forward => ActionJson::Forward,
        WumpusAction::TurnLeft => ActionJson::TurnLeft,
        WumpusAction::TurnRight => ActionJson::TurnRight,
        WumpusAction::Grab => ActionJson::Grab,
        WumpusAction::Shoot => ActionJson::Shoot,
        WumpusAction::Climb => ActionJson::Climb,
    }
}

pub(super) fn action_from(action: ActionJson) -> WumpusAction {
    match action {
        ActionJson::Forward => WumpusAction::Forward,
        ActionJson::TurnLeft => WumpusAction::TurnLeft,
        ActionJson::TurnRight => WumpusAction::TurnRight,
        ActionJson::Grab => WumpusAction::Grab,
        ActionJson::Shoot => WumpusAction::Shoot,
        ActionJson::Climb => WumpusAction::Climb,
    }
}

/// The cave, top row first: the agent as an arrow the way it faces, `P` a
/// pit, `W` a wumpus, `#` an obstacle, `G` the gold (until grabbed), `,` a
/// square the agent has been on, `.` the rest; then the percepts and state.
fn cave(body: &WumpusBody, agent: &AgentRecord, visited: &[CoordJson], paint: Paint) -> String {
    let size = body.settings.rules.config.size;
    let w = &body.world;
    let (pits, wumpuses, obstacles) = (area(&w.pits), area(&w.wumpuses), area(&w.obstacles));
    let mut text = grid::drawn(size, |here| {
        let (x, y) = (here.x, here.y);
        if coord(agent.at) == here {
            paint.on(AGENT, arrow(agent.facing))
        } else if pits.contains(here) {
            paint.on(PIT, "P")
        } else if wumpuses.contains(here) {
            paint.on(WUMPUS, "W")
        } else if obstacles.contains(here) {
            paint.on(OBSTACLE, "#")
        } else if coord(w.gold) == here && !agent.has_gold {
            paint.on(GOLD, "G")
        } else if visited.contains(&[x, y]) {
            paint.on(VISITED, ",")
        } else {
            paint.on(FREE, ".")
        }
    });
    let percept = if agent.percept.is_empty() { "none".to_string() } else { agent.percept.join(", ") };
    text.push_str(&format!(
        "\nsenses: {percept}   arrows {}   gold {}   score {}",
        agent.arrows,
        if agent.has_gold { "carried" } else { "not yet" },
        agent.score
    ));
    text
}

// ANSI styles of the cave's glyphs.
pub(super) const AGENT: &str = "1;97;44";
const PIT: &str = "1;90";
const WUMPUS: &str = "1;91";
const OBSTACLE: &str = "37";
pub(super) const GOLD: &str = "1;33";
pub(super) const VISITED: &str = "36";
pub(super) const FREE: &str = "2";

impl GameBody for WumpusBody {
    type Game = Wumpus;
    const STEPS_NOUN: &'static str = "actions";

    fn steps(&self) -> usize {
        self.steps.len()
    }

    /// What serde cannot check: playable rules, squares in the cave.
    fn check(&self) -> Result<(), String> {
        let config = config_from(&self.settings.rules.config);
        config.check().map_err(|e| format!("settings.config: {e}"))?;
        let size = config.size;
        let squares = [
            ("world.pits", self.world.pits.clone()),
            ("world.wumpuses", self.world.wumpuses.clone()),
            ("world.obstacles", self.world.obstacles.clone()),
            ("world.gold", vec![self.world.gold]),
            ("final.at", vec![self.final_state.at]),
        ];
        let steps = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("steps[{i}].request.at"), vec![s.request.at]));
        for (what, list) in squares.into_iter().map(|(w, l)| (w.to_string(), l)).chain(steps) {
            if let Some(c) = off_grid(&list, size) {
                return Err(format!("{what}: square {c:?} is outside the {size}x{size} cave"));
            }
        }
        Ok(())
    }

    /// Re-simulates the game through the referee with the recorded seed and
    /// actions: the cave drawn, every request's percepts and state, the ending
    /// and the score must come out the same.
    fn verify<E: ReplayBody>(&self, replay: &Replay<E>) -> Result<String, String> {
        let body = self;
        let settings = body.settings();
        let seed = replay.seed;
        diff::part(
            "the cave",
            &body.world,
            &cave_record(&solo::world::<Wumpus>(&settings.rules, seed)),
            seed,
        )?;
        let actions = body.steps.iter().map(|s| action_from(s.action)).collect();
        let game = solo::play::<Wumpus>(
            &settings,
            seed,
            &mut Recorded::<Wumpus>::new(&replay.result, actions, "action"),
        );
        let again = Wumpus::replay(&game, &settings, replay.players[0].clone());
        let resimulated = &again.body;
        diff::steps("action", &body.steps, &resimulated.steps, seed)?;
        diff::part("the final state", &body.final_state, &resimulated.final_state, seed)?;
        diff::part("the result", &replay.result, &again.result, seed)?;
        Ok(format!(
            "verified: {} actions re-simulated with seed {seed}; the cave, every percept and state, and the result match ({})",
            body.steps.len(),
            replay.summary()
        ))
    }

    /// The game for the terminal: the start, then the cave after each action.
    fn frames<E: ReplayBody>(&self, replay: &Replay<E>, paint: Paint) -> Vec<String> {
        let body = self;
        let name = replay.players.first().map_or("?", |p| p.name.as_str());
        let rules = body.settings.rules.preset.clone().unwrap_or_else(|| "custom".to_string());
        let start = body.steps.first().map_or(&body.final_state, |s| &s.request);
        let mut visited = vec![start.at];
        let start = format!(
            "{name} in a {n}x{n} cave ({rules} rules), seed {}\n{}",
            replay.seed,
            cave(body, start, &visited, paint),
            n = body.settings.rules.config.size,
        );
        let mut frames = Frames::start(replay, paint, "action", body.steps.len(), &start);
        for (i, step) in body.steps.iter().enumerate() {
            let after = body.steps.get(i + 1).map_or(&body.final_state, |s| &s.request);
            visited.push(after.at);
            let line = format!("{name}: {}", action_from(step.action));
            frames.step(
                &paint.on("1;94", &line),
                Duration::from_micros(step.time_us),
                &cave(body, after, &visited, paint),
            );
        }
        frames.end()
    }
}
