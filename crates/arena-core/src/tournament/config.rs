//! The tournament file (TOML), documented field by field in
//! docs/tournaments.md. Unknown keys and bad values are errors that name the
//! key and its line; paths are relative to the file's own folder.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{bail, Context, Result};
use serde::{de::Error as _, Deserialize, Deserializer};

use super::grade::{GradeSettings, Pass};
pub use crate::games::rules::GameRules;
use crate::{
    game::GameId,
    game_rules::{Budgets, GameOptions, OptionValue},
    play::clock::{parse_grace, Clock},
    play::time_control::TimeControl,
    players::external::Program,
    players::isolation::{environment, run_as::UserIds},
    players::{folders, gradescope, Level, PlayerSpec},
    sandbox::Sandbox,
};

/// The file as written.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct TournamentFile {
    pub name: Option<String>,
    #[serde(default = "default_game")]
    pub game: String,
    /// Required for two-player games; single-player games play `duplicate`
    /// unless told `grade`.
    pub format: Option<Format>,
    /// Games per pairing (round-robin, swiss, gauntlet; seat-swapped pairs) or per
    /// level (grade) of two-player games.
    pub games_per_pairing: Option<u32>,
    /// Single-player games: worlds each player plays (the same for all).
    pub games_per_player: Option<u32>,
    /// Swiss: its rounds (default ceil(log2 entrants) + 2, at most
    /// entrants - 1).
    pub rounds: Option<u32>,
    pub seed: u64,
    /// Games run at once (default: one per core).
    pub concurrency: Option<usize>,
    /// Where results go (default: `results/<file name>` beside the file).
    pub output: Option<PathBuf>,
    /// Keep each player's memory across its pairings in this folder
    /// (beside the file; `arena tournament run --memory` overrides it):
    /// learners' games (Hexapawn) only.
    pub memory: Option<PathBuf>,
    /// Players: built-in names (`easy`, `medium`, `hard`), library paths,
    /// `python:PATH`, `cmd:COMMAND`, or `{ command = "...", dir = "..." }`.
    #[serde(default)]
    pub players: Vec<PlayerEntry>,
    /// Folders scanned for players: each `.so` file in the folder, or in a
    /// subfolder (one subfolder per student group), is a player, and so is
    /// each subfolder holding a course `PlayerAI.py`.
    #[serde(default)]
    pub player_folders: Vec<PathBuf>,
    /// Gradescope exports of submissions ("Export Submissions", unpacked):
    /// each submission is a player, named by its submitters; one without
    /// a player is left out, saying why.
    #[serde(default)]
    pub gradescope_exports: Vec<PathBuf>,
    /// Gauntlet: the fixed opponents; grade: the levels, built-in level
    /// names only (default: easy, medium, hard).
    pub opponents: Option<Vec<String>>,
    /// Grade, two-player games: the wins needed against each level.
    pub wins_to_pass: Option<Vec<u32>>,
    /// Grade, single-player games: how far below each level's mean score a
    /// student's mean may be and pass.
    pub score_margin: Option<Vec<f64>>,
    #[serde(default)]
    pub settings: SettingsFile,
    #[serde(default)]
    pub replays: ReplaysFile,
}

/// One entry of `players`: a string, or a table for a command that needs
/// its own working directory.
#[derive(Debug)]
pub enum PlayerEntry {
    Text(String),
    Command(CommandEntry),
}

/// A player as a table: `{ player = "hard", tc = "0.5s" }` (any player a
/// string names, under its own time control), or `{ command = "./my_bot
/// --fast", dir = "bots/mine" }` (`dir`, relative to the file, default the
/// file's folder, is where the command runs), which may have a `tc` too.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct CommandEntry {
    pub player: Option<String>,
    pub command: Option<String>,
    pub dir: Option<PathBuf>,
    /// The player's own time control (`0.5s`, `60s+1s`), instead of the
    /// settings' (`settings.time_per_turn`).
    pub tc: Option<String>,
    /// The name the standings show it by, instead of its own (its file's
    /// or folder's): `arena serve finalize` names each player by its group.
    pub name: Option<String>,
    /// Values of parameters the player declares, `{ depth = 2, mobility =
    /// 1.5 }`, as `--param` sets them (checked when it is loaded).
    pub params: Option<BTreeMap<String, toml::Value>>,
}

impl<'de> Deserialize<'de> for PlayerEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PlayerEntry, D::Error> {
        match toml::Value::deserialize(deserializer)? {
            toml::Value::String(text) => Ok(PlayerEntry::Text(text)),
            table @ toml::Value::Table(_) => {
                CommandEntry::deserialize(table).map(PlayerEntry::Command).map_err(D::Error::custom)
            }
            other => Err(D::Error::custom(format!(
                "a player is a string (\"hard\", \"bots/libx.so\", \"python:PATH\", \"cmd:COMMAND\") or a table {{ player = \"...\", tc = \"...\" }} or {{ command = \"...\", dir = \"...\" }}, not a {}",
                other.type_str()
            ))),
        }
    }
}

fn default_game() -> String {
    GameId::DEFAULT.name().to_string()
}

#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    RoundRobin,
    Gauntlet,
    Grade,
    /// Single-player games: every player plays the same seeded worlds.
    Duplicate,
    /// Two-player games: rounds, each pairing entrants of similar score
    /// that have not met (`swiss.rs`).
    Swiss,
}

/// `[settings]`: the budgets and limits every game has, and the games' own
/// rules options (`options`: any other key, checked against the games'
/// declarations; serde cannot deny unknown fields beside a flattened map).
#[derive(Deserialize, Debug, Default)]
pub struct SettingsFile {
    pub time_per_turn: Option<String>,
    pub startup_time: Option<String>,
    /// How far past its budget a turn may go before it is lost.
    pub grace: Option<String>,
    pub memory_limit: Option<String>,
    /// Load libraries into the arena instead of worker processes.
    #[serde(default)]
    pub in_process: bool,
    /// Workers in the sandbox: `on` (the default) or `off`.
    #[serde(default)]
    pub sandbox: Sandbox,
    /// The clock turns are charged on: `wall` (the default) or `cpu`.
    #[serde(default)]
    pub clock: Clock,
    /// Variables of the arena's environment passed to the players.
    #[serde(default)]
    pub pass_env: Vec<String>,
    /// The games' rules options (`board_size = 5`, `preset = "project"`).
    #[serde(flatten)]
    pub options: BTreeMap<String, toml::Value>,
}

impl SettingsFile {
    /// The keys every game has, for the error naming an unknown one.
    const COMMON: [&'static str; 8] = [
        "time_per_turn",
        "startup_time",
        "grace",
        "memory_limit",
        "in_process",
        "sandbox",
        "clock",
        "pass_env",
    ];

    /// The rules options given, each of a key some game has.
    fn game_options(&self) -> Result<GameOptions> {
        let mut options = GameOptions::default();
        for (key, value) in &self.options {
            if !crate::games::rules::keys().contains(&key.as_str()) {
                let known =
                    SettingsFile::COMMON.into_iter().chain(crate::games::rules::keys()).collect::<Vec<_>>();
                bail!("settings.{key}: no such setting (the settings: {})", known.join(", "));
            }
            let value = OptionValue::from_toml(value).map_err(|e| anyhow::anyhow!("settings.{key}: {e}"))?;
            crate::games::rules::set_option(&mut options, key, value)
                .map_err(|e| anyhow::anyhow!("settings.{key}: {e}"))?;
        }
        Ok(options)
    }
}

/// `[replays]`: which games get a replay file (and an HTML viewer) in
/// `<output>/replays/`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct ReplaysFile {
    #[serde(default)]
    pub save: SaveReplays,
    /// With `save = "losses"`: only this player's losses.
    pub player: Option<String>,
    /// Write an HTML viewer beside each replay (default true).
    pub viewers: Option<bool>,
    /// Show each game's seed in its viewer (default true; a server's
    /// grading, whose seeds every submission shares, hides them).
    pub show_seed: Option<bool>,
    /// Name each player's source (a path, a built-in name) in its replays
    /// and live feeds (default true; a server's scrimmages, whose replays
    /// each side sees, hide the paths of its data folder and uploads).
    pub show_sources: Option<bool>,
    /// Keep what each player printed beside its turns, its notes (default
    /// true; a server's scrimmages, whose replays each side sees, keep none).
    pub notes: Option<bool>,
    /// The most the run's replays (and viewers) may take on disk: a size
    /// (`"5MiB"`) or bytes. Past it, further replays are left out.
    pub max_bytes: Option<toml::Value>,
}

/// Which games are saved as replays.
#[derive(Deserialize, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SaveReplays {
    #[default]
    None,
    All,
    /// Games an entrant lost (or, with `player`, that player lost).
    Losses,
}

/// The checked `[replays]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayPolicy {
    pub save: SaveReplays,
    /// A player's name or source (resolved once the players are loaded).
    pub player: Option<String>,
    pub viewers: bool,
    /// Show each game's seed in its viewer.
    pub show_seed: bool,
    /// Name each player's source in its replays and live feeds.
    pub show_sources: bool,
    /// Keep the players' notes in their replays.
    pub notes: bool,
    /// The most the output folder's replays may take, bytes (None: no bound).
    pub max_bytes: Option<u64>,
}

impl ReplayPolicy {
    /// No replays (what a file without `[replays]` means).
    pub fn none() -> ReplayPolicy {
        ReplayPolicy {
            save: SaveReplays::None,
            player: None,
            viewers: true,
            show_seed: true,
            show_sources: true,
            notes: true,
            max_bytes: None,
        }
    }
}

/// `replays.max_bytes`: a size such as `"5MiB"`, or a number of bytes.
fn replay_budget(value: &toml::Value) -> Result<u64> {
    let bytes = match value {
        toml::Value::Integer(n) if *n >= 0 => Ok(*n as u64),
        toml::Value::String(text) => crate::report::units::parse_size(text),
        _ => Err(format!("{value} is not a size")),
    };
    bytes.map_err(|e| anyhow::anyhow!("replays.max_bytes: {e}: write it like \"5MiB\" or a number of bytes"))
}

/// A checked tournament, ready to schedule.
#[derive(Debug, Clone)]
pub struct Tournament {
    pub name: String,
    /// The game, with its own settings.
    pub game: GameRules,
    pub format: Format,
    /// Games per pairing (two-player formats; per level in a grade) or per
    /// player (single-player games).
    pub games_per_pairing: u32,
    /// A Swiss's rounds (0 in the other formats).
    pub rounds: u32,
    pub seed: u64,
    pub concurrency: usize,
    pub output: PathBuf,
    /// Where each player's memory is kept across its pairings, if it is.
    pub memory: Option<PathBuf>,
    /// Every player, in order: ids index this list.
    pub players: Vec<PlayerSpec>,
    /// Each player's own time control (`tc` in its entry), by id; None
    /// plays under the settings' (`budgets.turn`).
    pub controls: Vec<Option<TimeControl>>,
    /// Each player's name as its entry gives it (`name`), by id; None (or
    /// past the end): its own name.
    pub names: Vec<Option<String>>,
    /// Each player's parameters as its entry sets them (`params`: NAME,
    /// VALUE), by id; none past the end.
    pub params: Vec<Vec<(String, String)>>,
    /// Submissions of `gradescope_exports` left out (no player in them),
    /// each with why: said before the games, not an error.
    pub left_out: Vec<String>,
    /// Ids of the players that, if they do not load, forfeit their games
    /// instead of stopping the run (a Gradescope export's submissions).
    pub may_forfeit: Vec<usize>,
    /// Player ids that are opponents (gauntlet) or levels (grade), not entrants.
    pub fixed: Vec<usize>,
    /// The grade format's levels (the players `fixed`, in order) and pass
    /// marks; None in the other formats.
    pub grading: Option<GradeSettings>,
    /// The budgets every game has (the game's settings hold them too).
    pub budgets: Budgets,
    pub memory_limit: Option<u64>,
    pub in_process: bool,
    pub sandbox: Sandbox,
    /// Run the built-in bots in workers too (benchmarks; not in files).
    pub isolate_builtins: bool,
    /// Variables of the arena's environment passed to the players' workers.
    pub pass_env: Vec<String>,
    /// The unprivileged user unsandboxed workers run as (a Gradescope
    /// autograder's grading; not in files: `WorkerLimits::run_as`).
    pub run_as: Option<UserIds>,
    pub replays: ReplayPolicy,
}

impl Tournament {
    /// Reads and checks the file at `path`.
    pub fn load(path: &Path) -> Result<Tournament> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the tournament file {}", path.display()))?;
        let file: TournamentFile = toml::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), one_line(&e, &text)))?;
        let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let stem = path.file_stem().map_or("tournament".into(), |s| s.to_string_lossy().into_owned());
        Tournament::from_file(file, &base, &stem).map_err(|e| {
            let message = format!("{e:#}");
            match line_of(&text, &message) {
                Some(line) => anyhow::anyhow!("{}: line {line}: {message}", path.display()),
                None => anyhow::anyhow!("{}: {message}", path.display()),
            }
        })
    }

    fn from_file(file: TournamentFile, base: &Path, stem: &str) -> Result<Tournament> {
        let Some(game) = GameId::parse(&file.game) else {
            bail!("game = \"{}\": unknown game; use one of {}", file.game, GameId::names(", "));
        };
        let single = game.is_single_player();
        let format = match (file.format, single) {
            (None, true) => Format::Duplicate,
            (Some(format @ (Format::Duplicate | Format::Grade)), true) => format,
            (Some(Format::Swiss), true) => bail!(
                "format = \"swiss\": {game} is a single-player game, and a Swiss pairs two players; use \"duplicate\" (the default) or \"grade\""
            ),
            (Some(other), true) => bail!(
                "format = \"{}\": {game} is a single-player game; use \"duplicate\" (the default) or \"grade\"",
                format_name(other)
            ),
            (Some(Format::Duplicate), false) => {
                bail!("format = \"duplicate\" is for single-player games; {game} plays round-robin, swiss, gauntlet or grade")
            }
            (Some(format), false) => format,
            (None, false) => {
                bail!("missing field `format`: use \"round-robin\", \"swiss\", \"gauntlet\" or \"grade\"")
            }
        };
        if single && file.games_per_pairing.is_some() {
            let what =
                if format == Format::Grade { "a single-player grade" } else { "a duplicate tournament" };
            bail!("games_per_pairing: {what} has no pairings; use games_per_player (the worlds each player plays)");
        }
        if !single && file.games_per_player.is_some() {
            bail!("games_per_player: only single-player games (duplicate, grade) have it; use games_per_pairing");
        }
        if format != Format::Grade {
            for (key, given) in
                [("wins_to_pass", file.wins_to_pass.is_some()), ("score_margin", file.score_margin.is_some())]
            {
                if given {
                    bail!("{key}: only the grade format has pass marks; remove it or use format = \"grade\"");
                }
            }
        }
        let mut players = Vec::new();
        let mut controls = Vec::new();
        let mut names = Vec::new();
        let mut params = Vec::new();
        for (i, entry) in file.players.iter().enumerate() {
            let (player, tc) = match entry {
                PlayerEntry::Text(text) => (spec(text, base), None),
                PlayerEntry::Command(CommandEntry { player, command, dir, tc, name, params: given }) => {
                    if let Some(given) = given {
                        let given: Result<Vec<(String, String)>> = given
                            .iter()
                            .map(|(key, value)| match value {
                                toml::Value::Integer(n) => Ok((key.clone(), n.to_string())),
                                toml::Value::Float(x) => Ok((key.clone(), x.to_string())),
                                other => bail!(
                                    "players[{i}].params.{key}: a parameter is a number, not a {}",
                                    other.type_str()
                                ),
                            })
                            .collect();
                        params.resize(i, Vec::new());
                        params.push(given?);
                    }
                    if let Some(name) = name {
                        if name.trim().is_empty() || name.chars().any(char::is_control) {
                            bail!("players[{i}].name: a name is some printable text");
                        }
                        names.resize(i, None);
                        names.push(Some(name.trim().to_string()));
                    }
                    let player = match (player, command) {
                        (Some(text), None) if dir.is_none() => spec(text, base),
                        (Some(_), None) => bail!("players[{i}]: dir is for a command; remove it"),
                        (None, Some(command)) => {
                            let dir = dir.as_ref().map_or_else(|| run_dir(base), |d| base.join(d));
                            if !dir.is_dir() {
                                bail!("players[{i}]: dir: {} is not a folder", dir.display());
                            }
                            Program::command(command, Some(dir))
                                .map(PlayerSpec::Program)
                                .map_err(anyhow::Error::msg)
                        }
                        _ => bail!("players[{i}]: give either player = \"...\" or command = \"...\""),
                    };
                    let tc = tc.as_deref().map(str::parse::<TimeControl>).transpose();
                    (player, tc.map_err(|e| anyhow::anyhow!("players[{i}].tc: {e}"))?)
                }
            };
            players.push(player.with_context(|| format!("players[{i}]"))?);
            controls.push(tc);
        }
        for folder in &file.player_folders {
            players.extend(folders::scan(&base.join(folder)).context("player_folders")?);
        }
        let mut left_out = Vec::new();
        let mut may_forfeit = Vec::new();
        for folder in &file.gradescope_exports {
            let export = gradescope::export(&base.join(folder)).context("gradescope_exports")?;
            for (player, name) in export.players {
                names.resize(players.len(), None);
                names.push(Some(name));
                may_forfeit.push(players.len());
                players.push(player);
            }
            left_out.extend(export.left_out);
        }
        let games_per_pairing = if single {
            match file.games_per_player {
                Some(0) => bail!("games_per_player = 0: use 1 or more"),
                Some(n) => n,
                None => 100,
            }
        } else {
            match (file.games_per_pairing, format) {
                (Some(0), Format::Grade) => bail!("games_per_pairing = 0: use 1 or more games per level"),
                (Some(0), _) => {
                    bail!("games_per_pairing = 0: use 1 or more (an even number keeps seats balanced)")
                }
                (Some(n), _) => n,
                (None, Format::Grade) => 10,
                (None, _) => 2,
            }
        };
        let mut fixed = Vec::new();
        let mut grading = None;
        match format {
            Format::RoundRobin | Format::Duplicate | Format::Swiss => {
                if file.opponents.is_some() {
                    bail!("opponents: only the gauntlet and grade formats have fixed opponents");
                }
            }
            Format::Gauntlet => {
                let names = file
                    .opponents
                    .unwrap_or_else(|| Level::ALL.iter().map(|l| l.name().to_string()).collect());
                for (i, text) in names.iter().enumerate() {
                    fixed.push(players.len());
                    players.push(spec(text, base).with_context(|| format!("opponents[{i}]"))?);
                }
            }
            Format::Grade => {
                let levels = grade_levels(file.opponents)?;
                let pass =
                    pass_marks(&levels, games_per_pairing, single, file.wins_to_pass, file.score_margin)?;
                for &level in &levels {
                    fixed.push(players.len());
                    players.push(PlayerSpec::Builtin(level));
                }
                grading = Some(GradeSettings { levels, pass });
            }
        }
        let entrants = players.len() - fixed.len();
        let needed = if matches!(format, Format::RoundRobin | Format::Swiss) { 2 } else { 1 };
        if entrants < needed {
            bail!(
                "players: {entrants} player(s) found; a {} needs at least {needed} (list them in `players`, `player_folders` or `gradescope_exports`)",
                format_name(format)
            );
        }
        let rounds = match (format, file.rounds) {
            (Format::Swiss, rounds) => swiss_rounds(rounds, entrants)?,
            (_, Some(_)) => {
                bail!("rounds: only the swiss format has rounds; remove it or use format = \"swiss\"")
            }
            (_, None) => 0,
        };
        let duration = |key: &str, value: &Option<String>, default: Duration| -> Result<Duration> {
            value.as_deref().map_or(Ok(default), |v| {
                crate::report::units::parse_duration(v).map_err(|e| anyhow::anyhow!("settings.{key}: {e}"))
            })
        };
        let defaults = Budgets::default();
        let turn = match &file.settings.time_per_turn {
            None => defaults.turn,
            Some(text) => text.parse().map_err(|e| anyhow::anyhow!("settings.time_per_turn: {e}"))?,
        };
        let budgets = Budgets {
            turn,
            startup: duration("startup_time", &file.settings.startup_time, defaults.startup)?,
            clock: file.settings.clock,
            grace: match &file.settings.grace {
                None => defaults.grace,
                Some(text) => parse_grace(text).map_err(|e| anyhow::anyhow!("settings.grace: {e}"))?,
            },
        };
        let options = file.settings.game_options()?;
        let rules =
            GameRules::build(game, &options, budgets).map_err(|e| anyhow::anyhow!(e.setting_line()))?;
        let memory_limit = match &file.settings.memory_limit {
            None => None,
            Some(text) => Some(
                crate::report::units::parse_bytes(text)
                    .map_err(|e| anyhow::anyhow!("settings.memory_limit: {e}"))?,
            ),
        };
        for (i, name) in file.settings.pass_env.iter().enumerate() {
            environment::check_pass_name(name).map_err(|e| anyhow::anyhow!("settings.pass_env[{i}]: {e}"))?;
        }
        let concurrency = match file.concurrency {
            Some(0) => bail!("concurrency = 0: use 1 or more"),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if file.replays.player.is_some() && file.replays.save != SaveReplays::Losses {
            bail!("replays.player: name a player only with save = \"losses\" (that player's lost games)");
        }
        let replays = ReplayPolicy {
            save: file.replays.save,
            player: file.replays.player,
            viewers: file.replays.viewers.unwrap_or(true),
            show_seed: file.replays.show_seed.unwrap_or(true),
            show_sources: file.replays.show_sources.unwrap_or(true),
            notes: file.replays.notes.unwrap_or(true),
            max_bytes: file.replays.max_bytes.as_ref().map(replay_budget).transpose()?,
        };
        // Players from folders, opponents and levels play under the settings' control.
        controls.resize(players.len(), None);
        Ok(Tournament {
            name: file.name.unwrap_or_else(|| stem.to_string()),
            game: rules,
            format,
            games_per_pairing,
            rounds,
            seed: file.seed,
            concurrency,
            output: base.join(file.output.unwrap_or_else(|| PathBuf::from("results").join(stem))),
            memory: file.memory.map(|dir| base.join(dir)),
            players,
            controls,
            names,
            params,
            fixed,
            grading,
            budgets,
            memory_limit,
            in_process: file.settings.in_process,
            sandbox: file.settings.sandbox,
            isolate_builtins: false,
            pass_env: file.settings.pass_env,
            run_as: None,
            replays,
            left_out,
            may_forfeit,
        })
    }

    /// Ids of the players that are entrants (not fixed opponents).
    pub fn entrants(&self) -> Vec<usize> {
        (0..self.players.len()).filter(|id| !self.fixed.contains(id)).collect()
    }
}

pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::RoundRobin => "round-robin",
        Format::Gauntlet => "gauntlet",
        Format::Grade => "grade",
        Format::Duplicate => "duplicate",
        Format::Swiss => "swiss",
    }
}

/// A Swiss's rounds for `entrants`: as given, or the default; at least 1,
/// fewer than the entrants.
fn swiss_rounds(rounds: Option<u32>, entrants: usize) -> Result<u32> {
    match rounds {
        None => Ok(super::pairing::default_rounds(entrants)),
        Some(0) => bail!("rounds = 0: a Swiss needs 1 round or more"),
        Some(r) if r as usize >= entrants => bail!(
            "rounds = {r}: {entrants} entrants meet each other in {} rounds; use fewer rounds (or format = \"round-robin\")",
            entrants - 1
        ),
        Some(r) => Ok(r),
    }
}

/// The grade format's levels, from `opponents`: built-in level names, each
/// once (default: the course's easy, medium, hard).
fn grade_levels(opponents: Option<Vec<String>>) -> Result<Vec<Level>> {
    let Some(names) = opponents else { return Ok(Level::ALL.to_vec()) };
    if names.is_empty() {
        bail!("opponents = []: a grade needs one level at least (easy, medium, hard or expert)");
    }
    let mut levels = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let Some(level) = Level::parse(name) else {
            bail!("opponents[{i}]: \"{name}\" is not a level; a grade is against built-in levels: easy, medium, hard or expert");
        };
        if levels.contains(&level) {
            // Unquoted: the error's line is the key's, not an earlier player's of that name.
            bail!("opponents[{i}]: {name} is there twice; name each level once");
        }
        levels.push(level);
    }
    Ok(levels)
}

/// A grade's pass marks, one per level: `wins_to_pass` for two-player
/// games (default: the course's, scaled to the games), `score_margin` for
/// single-player games (default 0: match the level's mean). An error
/// begins with the key it is about (the course file reads them too).
pub fn pass_marks(
    levels: &[Level],
    games: u32,
    single: bool,
    wins: Option<Vec<u32>>,
    margins: Option<Vec<f64>>,
) -> Result<Pass> {
    let one_per_level = |key: &str, n: usize| {
        if n != levels.len() {
            let names: Vec<&str> = levels.iter().map(|l| l.name()).collect();
            bail!(
                "{key}: {n} value(s) for {} level(s) ({}): give one per level",
                levels.len(),
                names.join(", ")
            );
        }
        Ok(())
    };
    match (single, wins, margins) {
        (true, Some(_), _) => {
            bail!("wins_to_pass: a single-player game's grade passes on mean scores; use score_margin")
        }
        (false, _, Some(_)) => {
            bail!("score_margin: a two-player game's grade passes on wins; use wins_to_pass")
        }
        (false, Some(wins), None) => {
            one_per_level("wins_to_pass", wins.len())?;
            if let Some(w) = wins.iter().find(|&&w| w > games) {
                bail!("wins_to_pass: {w} wins out of {games} games per level cannot be had; use at most {games} (or more games_per_pairing)");
            }
            Ok(Pass::Wins(wins))
        }
        (true, None, Some(margins)) => {
            one_per_level("score_margin", margins.len())?;
            if let Some(m) = margins.iter().find(|m| !m.is_finite() || **m < 0.0) {
                bail!("score_margin: {m} is not a margin; use 0 or more points");
            }
            Ok(Pass::Margin(margins))
        }
        (_, None, None) => Ok(GradeSettings::default_pass(levels, games, single)),
    }
}

/// A built-in name, a path relative to the file's folder, or a program
/// (`python:` paths are relative to the folder too; `cmd:` runs in it).
fn spec(text: &str, base: &Path) -> Result<PlayerSpec> {
    match text.parse::<PlayerSpec>() {
        Ok(PlayerSpec::Builtin(level)) => return Ok(PlayerSpec::Builtin(level)),
        Ok(PlayerSpec::Person) => {
            bail!("\"{text}\": a person plays with `arena play`, not in a tournament")
        }
        Ok(PlayerSpec::Program(Program::Python(path))) => {
            return Ok(PlayerSpec::Program(Program::Python(base.join(path))))
        }
        Ok(PlayerSpec::Program(Program::Command { argv, .. })) => {
            return Ok(PlayerSpec::Program(Program::Command { argv, dir: Some(run_dir(base)) }))
        }
        Err(why) if text.starts_with("cmd:") || text.starts_with("python:") => bail!("\"{text}\": {why}"),
        _ => {}
    }
    if Program::is_python_path(&base.join(text)) {
        return Ok(PlayerSpec::Program(Program::Python(base.join(text))));
    }
    if !(text.contains('/') || text.ends_with(".so")) {
        bail!("unknown player \"{text}\": name a built-in bot (easy, medium, hard), a library path ending in .so, python:PATH or cmd:COMMAND");
    }
    let path = base.join(text);
    if !path.is_file() {
        bail!("no player library at {} (\"{text}\")", path.display());
    }
    Ok(PlayerSpec::Library(path))
}

/// Where commands named in the file run: the file's folder.
fn run_dir(base: &Path) -> PathBuf {
    if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base.to_path_buf()
    }
}

/// The line a checked-value error is about: the line of the quoted value it
/// names (`players[1]: unknown player "gandalf"`), else of the key it names
/// (`settings.time_per_turn: ...`, `opponents = []: ...`).
fn line_of(text: &str, message: &str) -> Option<usize> {
    let quoted = message.split('"').nth(1).filter(|q| !q.is_empty()).map(|q| format!("\"{q}\""));
    let key = message.split(':').next().map(|k| {
        let k = k.split(['[', '=']).next().unwrap_or(k).trim();
        k.rsplit('.').next().unwrap_or(k)
    });
    let find = |needle: &str| text.lines().position(|l| l.contains(needle)).map(|i| i + 1);
    quoted.as_deref().and_then(find).or_else(|| {
        key.filter(|k| !k.is_empty() && !k.contains(' ')).and_then(|k| {
            // The key itself, not a longer one it begins (`player` in `players`).
            let is_key = |l: &str| {
                l.trim_start().strip_prefix(k).is_some_and(|rest| rest.trim_start().starts_with(['=', '[']))
            };
            text.lines().position(is_key).map(|i| i + 1)
        })
    })
}

/// toml's errors span several lines (a source excerpt); keep them to one
/// line that starts with the line number (tournament and course files).
pub fn one_line(error: &toml::de::Error, text: &str) -> String {
    let message = error.message().trim().replace('\n', " ");
    match error.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Tournament> {
        let file: TournamentFile = toml::from_str(text)?;
        Tournament::from_file(file, Path::new(""), "t")
    }

    fn error(text: &str) -> String {
        format!("{:#}", load(text).expect_err(text))
    }

    #[test]
    fn a_grade_file_without_the_new_keys_is_the_courses_grading() {
        let t = load("format = \"grade\"\nseed = 1\nplayers = [\"hard\"]\n").unwrap();
        assert_eq!(t.games_per_pairing, 10);
        assert_eq!(t.fixed, [1, 2, 3]);
        let grading = t.grading.unwrap();
        assert_eq!(grading.levels, Level::ALL);
        assert_eq!(grading.pass, Pass::Wins(vec![6, 4, 2]));
        assert!(load("format = \"gauntlet\"\nseed = 1\nplayers = [\"hard\"]\n").unwrap().grading.is_none());
    }

    #[test]
    fn a_grade_takes_levels_games_and_pass_marks() {
        let t = load(
            "game = \"hexapawn\"\nformat = \"grade\"\nseed = 1\nplayers = [\"hard\"]\nopponents = [\"expert\", \"easy\"]\ngames_per_pairing = 4\n",
        )
        .unwrap();
        assert_eq!(t.games_per_pairing, 4);
        assert_eq!(t.players[1..], [PlayerSpec::Builtin(Level::Expert), PlayerSpec::Builtin(Level::Easy)]);
        let grading = t.grading.unwrap();
        assert_eq!(grading.levels, [Level::Expert, Level::Easy]);
        // The course's 0 and 6 of 10, scaled to 4 games and rounded up.
        assert_eq!(grading.pass, Pass::Wins(vec![0, 3]));
        let t = load("format = \"grade\"\nseed = 1\nplayers = [\"hard\"]\nopponents = [\"easy\"]\ngames_per_pairing = 4\nwins_to_pass = [4]\n").unwrap();
        assert_eq!(t.grading.unwrap().pass, Pass::Wins(vec![4]));
    }

    #[test]
    fn a_single_player_grade_plays_worlds_and_passes_on_margins() {
        let t = load("game = \"wumpus\"\nformat = \"grade\"\nseed = 1\nplayers = [\"hard\"]\n").unwrap();
        assert_eq!((t.format, t.games_per_pairing, t.fixed.len()), (Format::Grade, 100, 3));
        assert_eq!(t.grading.unwrap().pass, Pass::Margin(vec![0.0; 3]));
        let t = load(
            "game = \"magic-forest\"\nformat = \"grade\"\nseed = 1\nplayers = [\"hard\"]\ngames_per_player = 20\nopponents = [\"easy\", \"medium\"]\nscore_margin = [0, 2.5]\n",
        )
        .unwrap();
        assert_eq!(t.games_per_pairing, 20);
        let grading = t.grading.unwrap();
        assert_eq!(grading.levels, [Level::Easy, Level::Medium]);
        assert_eq!(grading.pass, Pass::Margin(vec![0.0, 2.5]));
    }

    #[test]
    fn bad_grade_keys_are_one_clear_error_naming_the_key() {
        let grade = "format = \"grade\"\nseed = 1\nplayers = [\"hard\"]\n";
        let wumpus = "game = \"wumpus\"\nformat = \"grade\"\nseed = 1\nplayers = [\"hard\"]\n";
        let cases = [
            (format!("{grade}opponents = [\"easy\", \"gandalf\"]\n"), "opponents[1]: \"gandalf\" is not a level; a grade is against built-in levels: easy, medium, hard or expert"),
            (format!("{grade}opponents = [\"bots/x.so\"]\n"), "opponents[0]: \"bots/x.so\" is not a level"),
            (format!("{grade}opponents = [\"easy\", \"hard\", \"easy\"]\n"), "opponents[2]: easy is there twice; name each level once"),
            (format!("{grade}opponents = []\n"), "opponents = []: a grade needs one level at least"),
            (format!("{wumpus}opponents = [\"medium\", \"medium\"]\n"), "opponents[1]: medium is there twice"),
            (format!("{grade}games_per_pairing = 0\n"), "games_per_pairing = 0: use 1 or more games per level"),
            (format!("{grade}games_per_player = 5\n"), "games_per_player: only single-player games (duplicate, grade) have it; use games_per_pairing"),
            (format!("{wumpus}games_per_pairing = 5\n"), "games_per_pairing: a single-player grade has no pairings; use games_per_player"),
            (format!("{wumpus}games_per_player = 0\n"), "games_per_player = 0: use 1 or more"),
            (format!("{grade}wins_to_pass = [6, 4]\n"), "wins_to_pass: 2 value(s) for 3 level(s) (easy, medium, hard): give one per level"),
            (format!("{grade}games_per_pairing = 4\nwins_to_pass = [5, 1, 1]\n"), "wins_to_pass: 5 wins out of 4 games per level cannot be had; use at most 4"),
            (format!("{grade}score_margin = [0, 0, 0]\n"), "score_margin: a two-player game's grade passes on wins; use wins_to_pass"),
            (format!("{wumpus}wins_to_pass = [1, 1, 1]\n"), "wins_to_pass: a single-player game's grade passes on mean scores; use score_margin"),
            (format!("{wumpus}score_margin = [1.0]\n"), "score_margin: 1 value(s) for 3 level(s) (easy, medium, hard): give one per level"),
            (format!("{wumpus}score_margin = [1.0, -2, 0]\n"), "score_margin: -2 is not a margin; use 0 or more points"),
            (format!("{wumpus}score_margin = [nan, 0, 0]\n"), "score_margin: NaN is not a margin"),
            (format!("{wumpus}score_margin = [inf, 0, 0]\n"), "score_margin: inf is not a margin"),
            ("format = \"gauntlet\"\nseed = 1\nplayers = [\"hard\"]\nwins_to_pass = [1, 1, 1]\n".into(), "wins_to_pass: only the grade format has pass marks; remove it or use format = \"grade\""),
            ("game = \"wumpus\"\nseed = 1\nplayers = [\"hard\"]\nscore_margin = [1, 1, 1]\n".into(), "score_margin: only the grade format has pass marks"),
            ("game = \"wumpus\"\nseed = 1\nplayers = [\"hard\"]\nopponents = [\"easy\"]\n".into(), "opponents: only the gauntlet and grade formats have fixed opponents"),
            ("game = \"wumpus\"\nformat = \"gauntlet\"\nseed = 1\nplayers = [\"hard\"]\n".into(), "format = \"gauntlet\": wumpus is a single-player game; use \"duplicate\" (the default) or \"grade\""),
        ];
        for (text, expected) in &cases {
            let message = error(text);
            assert!(message.starts_with(expected), "expected {expected:?}, got {message:?} for:\n{text}");
            assert_eq!(message.lines().count(), 1, "{message}");
        }
    }

    #[test]
    fn a_swiss_takes_rounds_or_its_default() {
        let players = "players = [\"easy\", \"medium\", \"hard\", \"easy\", \"medium\"]\n";
        let t = load(&format!("format = \"swiss\"\nseed = 1\n{players}")).unwrap();
        assert_eq!(
            (t.format, t.rounds, t.games_per_pairing),
            (Format::Swiss, 4, 2),
            "ceil(log2 5) + 2, cut to 4"
        );
        let t = load(&format!("format = \"swiss\"\nrounds = 2\nseed = 1\n{players}")).unwrap();
        assert_eq!(t.rounds, 2);
        assert_eq!(load(&format!("format = \"round-robin\"\nseed = 1\n{players}")).unwrap().rounds, 0);
        for (text, expected) in [
            (format!("format = \"swiss\"\nrounds = 5\nseed = 1\n{players}"), "rounds = 5: 5 entrants meet each other in 4 rounds; use fewer rounds (or format = \"round-robin\")"),
            ("format = \"swiss\"\nseed = 1\nplayers = [\"easy\"]\n".into(), "players: 1 player(s) found; a swiss needs at least 2"),
            ("game = \"magic-forest\"\nformat = \"swiss\"\nseed = 1\nplayers = [\"easy\"]\n".into(), "format = \"swiss\": magic-forest is a single-player game, and a Swiss pairs two players"),
        ] {
            assert!(error(&text).starts_with(expected), "{expected:?}: {}", error(&text));
        }
    }

    #[test]
    fn a_player_table_may_name_the_player() {
        let t = load(
            "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", { player = \"hard\", name = \" tc1234_gd5678 \" }]\n",
        )
        .unwrap();
        assert_eq!(t.names, [None, Some("tc1234_gd5678".to_string())]);
        let text =
            "format = \"round-robin\"\nseed = 1\nplayers = [\"easy\", { player = \"hard\", name = \"\" }]\n";
        assert_eq!(error(text), "players[1].name: a name is some printable text");
    }

    #[test]
    fn a_player_folder_error_names_the_key() {
        let text =
            "format = \"round-robin\"\nseed = 1\nplayers = [\"hard\"]\nplayer_folders = [\"nowhere\"]\n";
        assert_eq!(error(text), "player_folders: nowhere is not a folder");
    }
}
