//! `arena analyse REPLAY...`: every turn of each replay judged (its
//! mover's win chance or expected score before and after, the best action,
//! a mark), each player's accuracy, a lost game's turning point
//! (docs/analysis.md).

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{anyhow, bail, Result};

use arena_core::{
    analysis::{self, text, Budget, GameAnalysis},
    games::replays::GameReplay,
    play::fault::player_line,
};

/// The options of `arena analyse`.
#[derive(clap::Args, Debug)]
pub(crate) struct AnalyseArgs {
    /// Replay files (.json or .json.gz) of any game and any source: `arena
    /// play --replay`, `arena bench`, a tournament's, the server's.
    #[arg(required = true, value_name = "REPLAY")]
    pub files: Vec<PathBuf>,
    /// Print the analyses as JSON, one object per replay, one a line.
    #[arg(long)]
    pub json: bool,
    /// Write the HTML viewer of the (one) replay with its analysis to OUT:
    /// the advantage chart, the marks, "best was".
    #[arg(long, value_name = "OUT")]
    pub html: Option<PathBuf>,
    /// Positions Trap's search may visit per turn: more is slower and sees
    /// further (the win-chance curve is fitted at the default).
    #[arg(long, default_value_t = Budget::default().nodes, value_name = "N")]
    pub nodes: u64,
    /// Caves sampled per position for Wumpus World (rollouts of Hard on
    /// caves consistent with what the agent sensed): more is slower and
    /// less noisy (docs/analysis.md says how noisy).
    #[arg(long, default_value_t = Budget::default().rollouts, value_name = "N")]
    pub rollouts: u32,
}

/// Runs `arena analyse`: a replay that cannot be read, does not verify or
/// cannot be analysed is one error line; the others are still analysed
/// (exit 1 at the end).
pub(crate) fn run(args: &AnalyseArgs) -> Result<ExitCode> {
    if args.html.is_some() && args.files.len() != 1 {
        bail!("--html writes one replay's viewer: give one replay with it, not {}", args.files.len());
    }
    if args.nodes == 0 {
        bail!("--nodes 0: a search needs at least one node; the default is {}", Budget::default().nodes);
    }
    if args.rollouts == 0 {
        bail!(
            "--rollouts 0: an estimate needs at least one cave; the default is {}",
            Budget::default().rollouts
        );
    }
    let budget = Budget { nodes: args.nodes, rollouts: args.rollouts };
    let mut code = ExitCode::SUCCESS;
    for file in &args.files {
        let (analysis, replay) = match analysed(file, budget) {
            Ok(both) => both,
            Err(e) => {
                // A replay's words may be in it (a reason, a name): one line, cut.
                eprintln!("error: {}", player_line(format!("{e:#}")));
                code = ExitCode::FAILURE;
                continue;
            }
        };
        if args.json {
            let mut value = serde_json::to_value(&analysis).expect("plain data serialises");
            value["file"] = serde_json::Value::String(file.display().to_string());
            arena_core::outln!("{value}");
        } else {
            if args.files.len() > 1 {
                arena_core::outln!("{}:", file.display());
            }
            arena_core::outln!("{}", text::report(&analysis));
        }
        if let Some(out) = &args.html {
            std::fs::write(out, analysis::html::page(&replay, &analysis))
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", out.display()))?;
            eprintln!("wrote {}", out.display());
        }
    }
    Ok(code)
}

/// The replay in `file` and its analysis; an error is one line naming the
/// file once. A replay is judged only once it verifies: what it says was
/// played is then what its referee let be played (no illegal move, no turn
/// out of order or past its cap), and its turns are as many as its game's.
fn analysed(file: &Path, budget: Budget) -> Result<(GameAnalysis, GameReplay)> {
    let replay = GameReplay::read(file)?;
    super::replay::verified(file, &replay)?;
    let analysis = analysis::analyse(&replay, budget).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    Ok((analysis, replay))
}
