//! `arena replay FILE`: view a replay in the terminal, write its HTML
//! viewer, or verify it by re-simulation.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{anyhow, bail, Result};
use clap::ValueEnum;

use arena_core::{
    games::replays::GameReplay,
    play::fault::player_line,
    replay::{
        html,
        terminal::{self, Mode, Paint},
    },
};

/// The options of `arena replay`.
#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The replay file (.json or .json.gz), as `arena play --replay` or a
    /// tournament wrote it.
    pub file: PathBuf,
    /// Re-simulate the game through the referee with the recorded seed and
    /// actions, and check every state, landing and the result (exit 1 on
    /// the first difference).
    #[arg(long)]
    pub verify: bool,
    /// Write a self-contained HTML viewer to OUT (open it from disk).
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// Play the turns one after another instead of stepping with keys.
    #[arg(long)]
    pub animate: bool,
    /// Turns per second when animating.
    #[arg(long, default_value_t = 2.0)]
    pub speed: f64,
    /// Colours: auto (when stdout is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Color {
    Auto,
    Always,
    Never,
}

/// Runs `arena replay`.
pub(crate) fn run(args: &ReplayArgs) -> Result<ExitCode> {
    if !(args.speed.is_finite() && args.speed > 0.0 && args.speed <= 1000.0) {
        bail!("--speed {}: give turns per second, more than 0 and at most 1000", args.speed);
    }
    let replay = GameReplay::read(&args.file)?;
    let mut code = ExitCode::SUCCESS;
    if args.verify {
        match verified(&args.file, &replay) {
            Ok(line) => arena_core::outln!("{}: {line}", args.file.display()),
            Err(e) => {
                // The replay's words may be in it (a reason, a name): one line, cut.
                eprintln!("error: {}", player_line(e.to_string()));
                code = ExitCode::FAILURE;
            }
        }
    }
    if let Some(out) = &args.html {
        std::fs::write(out, html::page(&replay))
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
        eprintln!("wrote {}", out.display());
    }
    if !args.verify && args.html.is_none() {
        let stdout_tty = std::io::stdout().is_terminal();
        let color = match args.color {
            Color::Auto => stdout_tty,
            Color::Always => true,
            Color::Never => false,
        };
        let mode = match (stdout_tty, args.animate) {
            (false, _) => Mode::Print,
            (true, true) => Mode::Animate { speed: args.speed },
            (true, false) if std::io::stdin().is_terminal() => Mode::Interactive { speed: args.speed },
            (true, false) => Mode::Print,
        };
        terminal::show(&replay.plain()?.frames(Paint { color }), mode)?;
    }
    Ok(code)
}

/// The replay read from `file` re-simulated through the referee: its line,
/// or the first difference in one line naming the file (`--verify`, and
/// `arena analyse` before it judges a turn).
pub(crate) fn verified(file: &Path, replay: &GameReplay) -> Result<String> {
    replay.verify().map_err(|difference| anyhow!("{}: does not verify: {difference}", file.display()))
}
