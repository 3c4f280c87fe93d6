//! `arena tune`: SPSA over a player's declared parameters
//! (`arena_core::strength::tune`), with a live progress line, the journal, CSV and
//! plot in `--out`, the values printed as `--param` flags, and the closing
//! SPRT of the tuned values against the start; `--slurm` spreads each
//! iteration's pairs over a job array, and `--slurm-task` is one task of it.

use std::{
    cell::{Cell, RefCell},
    path::PathBuf,
    process::ExitCode,
    time::Duration,
};

use anyhow::{anyhow, bail, Context, Result};
use arena_core::{
    play::seeds,
    play::two_player::{MatchConfig, TwoPlayerGame},
    players::{Player, PlayerSpec},
    strength::sprt::{self, EloModel, Ending, Hypotheses, Verdict},
    strength::tune::{self, games, param, slurm, Schedule, TuneConfig, TunedParam},
    with_rules,
};
use indicatif::{ProgressBar, ProgressStyle};

use super::{
    interrupt::{stop_on_interrupt, STOP},
    options::{load, setup, GameArgs, GameId, Limits},
    play::cores,
    slurm::JobArgs,
};

/// What the player declares it accepts (`arena check PLAYER --params`).
fn declared(player: &Player) -> Vec<param::Declared> {
    player.params().iter().map(param::Declared::from).collect()
}

/// `base` with the tuned parameters set to `values` (in full: a float's
/// every digit), its other parameters as they were.
fn with_values(base: &Player, params: &[TunedParam], values: &[f64]) -> Result<Player> {
    let given: Vec<(String, String)> =
        params.iter().zip(values).map(|(p, &v)| (p.name.clone(), p.exact(v))).collect();
    base.with_params(&given).map_err(|e| anyhow!(e))
}

/// Who the perturbed players play: each other, or an opponent.
#[derive(Clone, Debug)]
pub(crate) enum Against {
    Myself,
    Opponent(PlayerSpec),
}

impl std::str::FromStr for Against {
    type Err = String;

    fn from_str(text: &str) -> Result<Against, String> {
        if text == "self" {
            Ok(Against::Myself)
        } else {
            text.parse().map(Against::Opponent)
        }
    }
}

impl std::fmt::Display for Against {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Against::Myself => write!(f, "self"),
            Against::Opponent(spec) => write!(f, "{spec}"),
        }
    }
}

/// `arena tune`'s options (the help text is on `Command::Tune`).
#[derive(clap::Args)]
pub(crate) struct TuneArgs {
    /// The game (two-player).
    #[arg(long, value_enum, default_value_t = GameId::DEFAULT)]
    game: GameId,
    /// The player whose parameters are tuned: a built-in bot, a library
    /// (.so), python:PATH or cmd:COMMAND.
    player: PlayerSpec,
    /// A parameter to tune, OpenBench's line: 'NAME, int|float, START, MIN,
    /// MAX, C_END, R_END' (C_END: the step tried at the end; R_END: the
    /// learning rate at the end; docs/tuning.md). Once per parameter.
    #[arg(long = "param", value_name = "LINE", required = true)]
    params: Vec<String>,
    /// Who the perturbed players play: `self` (theta+ against theta-, the
    /// default), or an opponent (each of them against it, on the same
    /// pairs).
    #[arg(long, value_name = "OPPONENT|self", default_value = "self")]
    against: Against,
    /// Seat-swapped game pairs per iteration (per perturbed player against
    /// an opponent).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
    pairs_per_iteration: u32,
    /// Iterations: the schedules shrink the steps to C_END and R_END at the last.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    iterations: u32,
    /// Seed (default: a fresh one, printed; a resumed tune takes its journal's).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores); the games, and
    /// so the trajectory, are the same whatever it is.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: Option<u16>,
    /// Keep the journal here (an interrupted tune run again resumes where it
    /// stopped), and write trajectory.csv and trajectory.svg.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Do not run the closing SPRT of the tuned values against the start.
    #[arg(long)]
    no_verify: bool,
    /// The closing SPRT's H0: the tuned values are at most this many Elo
    /// stronger than the start. Accepting H1 over a --verify-elo0 of 50
    /// confirms a gain of more than 50 Elo (wrongly at most 5% of the time).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    verify_elo0: f64,
    /// The closing SPRT's H1: the tuned values are at least this many Elo stronger.
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    verify_elo1: f64,
    /// The closing SPRT's most games (then inconclusive).
    #[arg(long, default_value_t = 2000)]
    verify_max_games: u32,
    /// Play each iteration's pairs as a Slurm job array (needs --out, on a
    /// file system every node sees); the same trajectory as here.
    #[arg(long, requires = "out")]
    slurm: bool,
    /// With --slurm: the array's tasks, each playing a share of the pairs.
    #[arg(long, default_value_t = 4, requires = "slurm", value_parser = clap::value_parser!(u32).range(1..))]
    workers: u32,
    #[command(flatten)]
    job: JobArgs,
    /// With --slurm: the arena binary the jobs run (default: this one).
    #[arg(long, requires = "slurm")]
    arena: Option<PathBuf>,
    /// (A task of --slurm's array: ITERATION:TASK.)
    #[arg(long, hide = true, requires = "out")]
    slurm_task: Option<String>,
    #[command(flatten)]
    limits: Limits,
    #[command(flatten)]
    options: GameArgs,
}

pub(crate) fn run(args: TuneArgs) -> Result<ExitCode> {
    let params = param::parse_all(&args.params).map_err(|e| anyhow!(e))?;
    if !args.slurm {
        if let Some(given) = args.job.first_given() {
            bail!("{given} is a Slurm job option: add --slurm (and --out DIR), or leave it out");
        }
    }
    let setup = setup(args.game, &args.limits, &args.options)?;
    if setup.id().is_single_player() {
        bail!(
            "{} is a single-player game: arena tune plays game pairs between players (tune on a two-player game)",
            setup.id()
        );
    }
    let hosting = args.limits.hosting()?;
    let budgets = args.limits.budgets();
    let base = load(&args.player, &hosting, &budgets)?;
    param::check_declared(&params, &declared(&base), &args.player.to_string()).map_err(|e| anyhow!(e))?;
    let opponent = match &args.against {
        Against::Myself => None,
        Against::Opponent(spec) => Some(load(spec, &hosting, &budgets)?),
    };
    let make = |values: &[f64]| with_values(&base, &params, values);
    with_rules!(setup, G, settings => {
        let config = MatchConfig::<G> {
            settings,
            games: 0,
            seed: 0,
            hosting,
            first_game: 0,
            concurrency: if G::LEARNS { 1 } else { args.concurrency.map_or_else(cores, usize::from) },
            controls: [None, None],
            live: None,
        };
        let pairs = games::Pairs { player: &make, opponent: opponent.as_ref(), config, stop: &STOP };
        if let Some(task) = &args.slurm_task {
            return run_task(&args, task, &pairs);
        }
        let games_print =
            format!("game {}; settings {settings:?}; player {}; against {}", args.game, args.player, args.against);
        tune_and_verify::<G>(&args, params.clone(), games_print, &pairs)
    }, solo => unreachable!("checked above: {settings:?} is two-player"))
}

/// A task of `--slurm`'s array: its share of an iteration's pairs.
fn run_task<G: TwoPlayerGame>(args: &TuneArgs, task: &str, pairs: &games::Pairs<G>) -> Result<ExitCode> {
    let (k, task) = slurm::parse_task(task).map_err(|e| anyhow!(e))?;
    let out = args.out.as_ref().expect("required by clap");
    stop_on_interrupt();
    slurm::run_task(&slurm::Files::new(out), k, task, &mut |p, seed, share| {
        pairs.play_share(p, seed, share, &mut || {})
    })?;
    Ok(ExitCode::SUCCESS)
}

fn tune_and_verify<G: TwoPlayerGame>(
    args: &TuneArgs,
    params: Vec<TunedParam>,
    games_print: String,
    pairs: &games::Pairs<G>,
) -> Result<ExitCode> {
    let journaled = match &args.out {
        Some(out) => tune::journal::header_in(out)?,
        None => None,
    };
    let seed = args.seed.or(journaled.map(|h| h.seed)).unwrap_or_else(seeds::fresh);
    let config = TuneConfig {
        params,
        schedule: Schedule::new(args.iterations),
        pairs: args.pairs_per_iteration,
        seed,
        games_print,
    };
    eprintln!(
        "tuning {} on {} against {}: {} iterations of {} pairs, seed {seed}",
        args.player, args.game, args.against, args.iterations, args.pairs_per_iteration
    );
    stop_on_interrupt();
    let progress = Progress::new(&config);
    let tuned = if args.slurm {
        let out = std::path::absolute(args.out.as_ref().expect("required by clap"))?;
        let files = slurm::Files::new(&out);
        let job = args.job.clone().options()?;
        job.test("or tune on this machine (without --slurm)")?;
        let arena = match &args.arena {
            Some(path) => std::fs::canonicalize(path)
                .with_context(|| format!("--arena {}: no such file", path.display()))?,
            None => std::env::current_exe()
                .context("cannot tell where this arena binary is: pass --arena PATH")?,
        };
        slurm::write_script(&files, &job, &arena, &task_args(seed), &std::env::current_dir()?)?;
        let mut cluster = slurm::Cluster {
            files,
            workers: args.workers,
            every: Duration::from_millis(100),
            submitted: Box::new(|_, id, tasks| progress.job(id, tasks.len())),
            arrived: Box::new(|_, outcome| progress.games(outcome.games())),
            stop: &STOP,
        };
        tune::run(&config, args.out.as_deref(), &mut cluster, &mut |it| progress.iteration(it))?
    } else {
        let mut local = games::Local { pairs, on_game: Box::new(|| progress.games(1)) };
        tune::run(&config, args.out.as_deref(), &mut local, &mut |it| progress.iteration(it))?
    };
    progress.bar.finish_and_clear();
    let theta = tuned.theta(&config);
    if let Some(out) = &args.out {
        for (name, text) in [
            ("trajectory.csv", tune::trajectory::csv(&config, &tuned.trajectory)),
            ("trajectory.svg", tune::trajectory::svg(&config, &tuned.trajectory)),
        ] {
            let path = out.join(name);
            std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    let played: u32 = tuned.trajectory.iter().map(|it| it.outcome.games()).sum();
    arena_core::outln!("{}", summary(args, &config, &tuned, &theta, played));
    if !tuned.complete {
        return Ok(ExitCode::from(130));
    }
    if args.no_verify {
        return Ok(ExitCode::SUCCESS);
    }
    verify(args, &config, &theta, pairs)
}

/// The tune's command line as each task runs it: everything after `tune`
/// but the options the script sets itself (`--concurrency`, its CPUs) or
/// fixes (`--seed`: a task must not draw a fresh one).
fn task_args(seed: u64) -> Vec<String> {
    let all: Vec<String> = std::env::args().collect();
    let from = all.iter().position(|a| a == "tune").map_or(all.len(), |i| i + 1);
    let mut args = without(&all[from..], &["--concurrency", "--seed"]);
    args.extend(["--seed".to_string(), seed.to_string()]);
    args
}

/// `args` without the options `names` and their values (`--name V` or `--name=V`).
fn without(args: &[String], names: &[&str]) -> Vec<String> {
    let mut kept = Vec::with_capacity(args.len());
    let mut skip_value = false;
    for arg in args {
        if std::mem::take(&mut skip_value) {
            continue;
        }
        if names.contains(&arg.as_str()) {
            skip_value = true;
        } else if !names.iter().any(|n| arg.starts_with(&format!("{n}="))) {
            kept.push(arg.clone());
        }
    }
    kept
}

/// "tuned hard ... values: --param ..." and each parameter's start -> now.
fn summary(args: &TuneArgs, config: &TuneConfig, tuned: &tune::Tuned, theta: &[f64], played: u32) -> String {
    let mut lines = vec![if tuned.complete {
        format!(
            "tuned {} over {} iterations ({played} games{}), seed {}:",
            args.player,
            config.schedule.iterations,
            if tuned.resumed > 0 {
                format!(", {} iterations resumed from the journal", tuned.resumed)
            } else {
                String::new()
            },
            config.seed
        )
    } else {
        format!(
            "interrupted after {} of {} iterations: run the same command{} to resume; where it stands, seed {}:",
            tuned.trajectory.len(),
            config.schedule.iterations,
            if args.out.is_some() { "" } else { " with --out DIR (this run kept no journal)" },
            config.seed
        )
    }];
    let width = config.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for (p, &value) in config.params.iter().zip(theta) {
        lines.push(format!(
            "  {:<width$}  {} -> {} ({:.4}; range {} to {})",
            p.name,
            p.shown(p.start),
            p.shown(value),
            value,
            p.shown(p.min),
            p.shown(p.max)
        ));
    }
    lines.push(format!("values: {}", tune::as_flags(&config.params, theta)));
    if let Some(out) = &args.out {
        lines.push(format!(
            "trajectory: {} and {}",
            out.join("trajectory.csv").display(),
            out.join("trajectory.svg").display()
        ));
    }
    lines.join("\n")
}

/// The closing SPRT: the tuned values (rounded as the player takes them)
/// against the start, H0 elo <= 0, H1 elo >= --verify-elo1.
fn verify<G: TwoPlayerGame>(
    args: &TuneArgs,
    config: &TuneConfig,
    theta: &[f64],
    pairs: &games::Pairs<G>,
) -> Result<ExitCode> {
    let rounded: Vec<f64> =
        config.params.iter().zip(theta).map(|(p, &v)| p.shown(v).parse().unwrap_or(v)).collect();
    let (tuned, start) = ((pairs.player)(&rounded)?, (pairs.player)(&config.start())?);
    let hypotheses = Hypotheses::new(args.verify_elo0, args.verify_elo1, 0.05, 0.05, EloModel::Logistic)
        .map_err(|e| anyhow!(e.replace("--elo", "--verify-elo")))?;
    let seed = seeds::derive(config.seed, 0x5645_5249_4659);
    let match_config =
        MatchConfig { seed, games: args.verify_max_games.max(2), first_game: 0, ..pairs.config.clone() };
    eprintln!(
        "verifying: tuned against start (arena bench sprt, H0 elo <= {}, H1 elo >= {})",
        args.verify_elo0, args.verify_elo1
    );
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
    let outcome = sprt::run([&tuned, &start], &match_config, &hypotheses, &STOP, &mut |standing| {
        bar.set_message(super::sprt::progress_line(standing, &hypotheses))
    });
    bar.finish_and_clear();
    let s = &outcome.standing;
    let verdict = match outcome.ending {
        Ending::Verdict(Verdict::H1) if args.verify_elo0 > 0.0 => {
            format!(
                "H1 accepted: the tuned values are more than {} Elo stronger than the start",
                args.verify_elo0
            )
        }
        Ending::Verdict(Verdict::H1) => {
            "H1 accepted: the tuned values are stronger than the start".to_string()
        }
        Ending::Verdict(Verdict::H0) => {
            format!("H0 accepted: the tuned values are not {} Elo stronger than the start", args.verify_elo1)
        }
        Ending::MaxGames => format!("inconclusive after {} games (--verify-max-games)", s.games()),
        Ending::Interrupted => format!("interrupted after {} games: no verdict", s.games()),
    };
    arena_core::outln!(
        "verification (SPRT, seed {seed}): tuned vs start, {} games, LLR {:.2}, Elo {} (95%), {}: {verdict}",
        s.games(),
        s.llr,
        super::sprt::elo_text(&s.elo),
        format_args!(
            "{} wins {} draws {} losses",
            s.evidence.wdl.wins, s.evidence.wdl.draws, s.evidence.wdl.losses
        ),
    );
    Ok(if outcome.ending == Ending::Interrupted { ExitCode::from(130) } else { ExitCode::SUCCESS })
}

/// The live line on stderr: the iteration, each value, the games played.
struct Progress<'a> {
    bar: ProgressBar,
    config: &'a TuneConfig,
    games: Cell<u64>,
    line: RefCell<String>,
    job: RefCell<String>,
}

impl<'a> Progress<'a> {
    fn new(config: &'a TuneConfig) -> Progress<'a> {
        let bar = ProgressBar::new_spinner();
        bar.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
        let line = RefCell::new(Self::values(config, 0, &config.start()));
        Progress { bar, config, games: Cell::new(0), line, job: RefCell::new(String::new()) }
    }

    fn values(config: &TuneConfig, k: u32, theta: &[f64]) -> String {
        let values: Vec<String> =
            config.params.iter().zip(theta).map(|(p, v)| format!("{} {:.3}", p.name, v)).collect();
        format!("iteration {k}/{}  {}", config.schedule.iterations, values.join("  "))
    }

    fn games(&self, n: u32) {
        self.games.set(self.games.get() + u64::from(n));
        let job = self.job.borrow();
        self.bar.set_message(format!("{}  games {}{job}", self.line.borrow(), self.games.get()));
    }

    /// The Slurm array playing the iteration under way.
    fn job(&self, id: &str, tasks: usize) {
        *self.job.borrow_mut() = format!("  (Slurm job {id}: {tasks} tasks)");
        self.games(0);
    }

    fn iteration(&self, it: &tune::Iteration) {
        *self.line.borrow_mut() = Self::values(self.config, it.perturbation.k, &it.theta);
        self.games(0);
    }
}

#[cfg(test)]
mod tests {
    use super::without;

    #[test]
    fn a_tasks_command_line_drops_what_the_script_sets() {
        let args: Vec<String> =
            ["hard", "--concurrency", "2", "--param", "a, int, 1, 0, 2, 1, 0.1", "--seed=4", "--out", "o"]
                .map(String::from)
                .to_vec();
        assert_eq!(
            without(&args, &["--concurrency", "--seed"]),
            ["hard", "--param", "a, int, 1, 0, 2, 1, 0.1", "--out", "o"]
        );
    }
}
