//! `arena bench sprt` (is NEW stronger than OLD? a sequential test, with a live
//! progress line and Ctrl-C to stop) and `arena measure sprt` (the test's
//! error rates and length, simulated). The test is `arena_core::strength::sprt`.

use std::process::ExitCode;

use anyhow::{anyhow, bail, Result};
use arena_core::{
    play::seeds,
    play::two_player::{MatchConfig, TwoPlayerGame},
    players::{Player, PlayerSpec},
    stats::EloEstimate,
    strength::sprt::{self, simulation, EloModel, Ending, Hypotheses, Outcome, Standing, Verdict},
    with_rules,
};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use super::{
    interrupt::{stop_on_interrupt, STOP},
    options::{load_bot, setup, GameArgs, GameId, Limits, PlayerControls, PlayerParams},
    play::{cores, display_names, serve_live, LAST_LOOK},
};

/// The test's hypotheses, as both commands take them.
#[derive(clap::Args)]
pub(crate) struct TestArgs {
    /// H0: NEW is at most this many Elo stronger.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// H1: NEW is at least this many Elo stronger (above --elo0).
    #[arg(long, default_value_t = 5.0, allow_negative_numbers = true)]
    elo1: f64,
    /// The chance of accepting H1 when H0 holds (a false "stronger").
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The chance of accepting H0 when H1 holds (a missed improvement).
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
}

impl TestArgs {
    fn hypotheses(&self, model: EloModel) -> Result<Hypotheses> {
        Hypotheses::new(self.elo0, self.elo1, self.alpha, self.beta, model).map_err(|e| anyhow!(e))
    }
}

/// `arena bench sprt`: the options (the help text is on `Command::Sprt`).
#[derive(clap::Args)]
pub(crate) struct SprtArgs {
    /// The game (two-player).
    #[arg(long, value_enum, default_value_t = GameId::DEFAULT)]
    game: GameId,
    /// The new version: a built-in bot, a library (.so), python:PATH or cmd:COMMAND.
    new: PlayerSpec,
    /// The version it is tested against.
    old: PlayerSpec,
    #[command(flatten)]
    test: TestArgs,
    /// What an Elo of --elo0 and --elo1 means. `logistic` (the default):
    /// the Elo every other command reports, a score s is -400 log10(1/s - 1)
    /// Elo. `normalized`: fishtest's, the score's distance from 50% in
    /// per-game standard deviations (times 800 / ln 10).
    #[arg(long, value_enum, default_value_t = EloModel::Logistic)]
    elo_model: EloModel,
    /// Stop without a verdict after this many games (inconclusive).
    #[arg(long, default_value_t = 20_000)]
    max_games: u32,
    /// Seed for the games' randomness (default: a fresh one, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores). The verdict and
    /// counts are the same whatever it is: pairs are counted in order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: Option<u16>,
    #[command(flatten)]
    limits: Limits,
    #[command(flatten)]
    controls: PlayerControls,
    /// `--param1` (or `--param`) sets the new version's parameters,
    /// `--param2` the old one's: the same player tested against itself with
    /// other values.
    #[command(flatten)]
    params: PlayerParams,
    /// Print one JSON object on stdout instead (docs/sprt.md).
    #[arg(long)]
    json: bool,
    /// Watch the games in a browser as they are played: serves the replay
    /// viewer on 127.0.0.1 at a free port (printed on stderr): the games in
    /// progress listed, pick one (docs/replays.md).
    #[arg(long)]
    live: bool,
    #[command(flatten)]
    options: GameArgs,
}

pub(crate) fn run(args: SprtArgs) -> Result<ExitCode> {
    let hypotheses = args.test.hypotheses(args.elo_model)?;
    if args.max_games < 2 {
        bail!("--max-games {}: the test plays pairs of games, so at least 2", args.max_games);
    }
    let setup = setup(args.game, &args.limits, &args.options)?;
    if setup.id().is_single_player() {
        bail!(
            "{} is a single-player game: arena bench sprt pits two players against each other \
             (compare single-player scores with arena bench)",
            setup.id()
        );
    }
    let hosting = args.limits.hosting()?;
    let budgets = args.limits.budgets();
    let params = args.params.params();
    let players = [
        load_bot(&args.new, params[0], &hosting, &budgets)?,
        load_bot(&args.old, params[1], &hosting, &budgets)?,
    ];
    let seed = args.seed.unwrap_or_else(seeds::fresh);
    let names = display_names(&players);
    let live =
        args.live.then(|| serve_live(&names, &[args.new.to_string(), args.old.to_string()])).transpose()?;
    stop_on_interrupt();
    let outcome = with_rules!(setup, G, settings => {
        let config = MatchConfig::<G> {
            settings,
            games: args.max_games,
            seed,
            hosting,
            first_game: 0,
            // A learner learns from every game, in order: one game at a time.
            concurrency: if G::LEARNS { 1 } else { args.concurrency.map_or_else(cores, usize::from) },
            controls: args.controls.controls(),
            live: live.as_ref().map(|(_, players)| players.clone()),
        };
        run_test::<G>(&players, &config, &hypotheses)
    }, solo => unreachable!("checked above: {settings:?} is two-player"));
    if let Some((server, _)) = &live {
        server.close(LAST_LOOK);
    }
    let report = Report { args: &args, hypotheses, seed, names, outcome: &outcome };
    if args.json {
        arena_core::outln!("{}", serde_json::to_string_pretty(&report.json())?);
    } else {
        arena_core::outln!("{}", report.text());
    }
    Ok(if outcome.ending == Ending::Interrupted { ExitCode::from(130) } else { ExitCode::SUCCESS })
}

/// Plays the test with the progress line on stderr (a terminal's only).
fn run_test<G: TwoPlayerGame>(
    players: &[Player; 2],
    config: &MatchConfig<G>,
    hypotheses: &Hypotheses,
) -> Outcome {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{msg}").expect("a valid template"));
    let mut on_pair = |standing: &Standing| bar.set_message(progress_line(standing, hypotheses));
    let outcome = sprt::run([&players[0], &players[1]], config, hypotheses, &STOP, &mut on_pair);
    bar.finish_and_clear();
    outcome
}

/// "LLR 1.23 (-2.94, 2.94)  412 games  Elo +35.2 [+12.1, +58.3]  pairs 3 20 120 40 23".
pub(super) fn progress_line(standing: &Standing, hypotheses: &Hypotheses) -> String {
    let (lower, upper) = hypotheses.bounds();
    let p = &standing.evidence.pentanomial;
    format!(
        "LLR {:.2} ({lower:.2}, {upper:.2})  {} games  Elo {}  pairs {} {} {} {} {}",
        standing.llr,
        standing.games(),
        elo_text(&standing.elo),
        p.ll,
        p.ld,
        p.dd_or_wl,
        p.wd,
        p.ww
    )
}

/// "+35.2 [+12.1, +58.3]".
pub(super) fn elo_text(e: &EloEstimate) -> String {
    let one = |x: f64| {
        if x.is_finite() {
            format!("{:+.1}", x + 0.0)
        } else {
            format!("{}inf", if x > 0.0 { "+" } else { "-" })
        }
    };
    format!("{} [{}, {}]", one(e.elo), one(e.lower), one(e.upper))
}

/// What the test found, for people or as JSON.
struct Report<'a> {
    args: &'a SprtArgs,
    hypotheses: Hypotheses,
    seed: u64,
    names: [String; 2],
    outcome: &'a Outcome,
}

impl Report<'_> {
    fn text(&self) -> String {
        let Report { hypotheses: h, names: [new, old], outcome, .. } = self;
        let s = &outcome.standing;
        let (lower, upper) = h.bounds();
        let wdl = s.evidence.wdl;
        let p = s.evidence.pentanomial;
        let failures = |i: usize| match &s.first_failures[i] {
            None => format!("{}: none", self.names[i]),
            Some(first) => format!("{}: {} (first: {first})", self.names[i], s.failures[i].compact()),
        };
        let verdict = match outcome.ending {
            Ending::Verdict(Verdict::H1) => format!("H1 accepted: {new} is stronger than {old}"),
            Ending::Verdict(Verdict::H0) => {
                format!("H0 accepted: {new} is not stronger than {old} by {} Elo", h.elo1)
            }
            Ending::MaxGames => format!("inconclusive after {} games (--max-games)", s.games()),
            Ending::Interrupted => format!("interrupted after {} games: no verdict yet", s.games()),
        };
        [
            format!(
                "{new} vs {old}: {}, {} games ({} pairs), seed {}",
                self.args.game,
                s.games(),
                p.pairs(),
                self.seed
            ),
            format!(
                "LLR {:.2} (bounds {lower:.2}, {upper:.2}); H0: elo <= {}, H1: elo >= {} ({} Elo, alpha {}, beta {})",
                s.llr,
                h.elo0,
                h.elo1,
                h.model.name(),
                h.alpha,
                h.beta
            ),
            format!(
                "Elo {} (95%)  {new}: {} wins {} draws {} losses",
                elo_text(&s.elo),
                wdl.wins,
                wdl.draws,
                wdl.losses
            ),
            format!("pairs by {new}'s points 0, 0.5, 1, 1.5, 2: {} {} {} {} {}", p.ll, p.ld, p.dd_or_wl, p.wd, p.ww),
            format!("failures: {}; {}", failures(0), failures(1)),
            verdict,
        ]
        .join("\n")
    }

    fn json(&self) -> serde_json::Value {
        let Report { args, hypotheses: h, outcome, .. } = self;
        let s = &outcome.standing;
        let (lower, upper) = h.bounds();
        let p = s.evidence.pentanomial;
        let (verdict, ending) = match outcome.ending {
            Ending::Verdict(Verdict::H1) => ("H1", "bound"),
            Ending::Verdict(Verdict::H0) => ("H0", "bound"),
            Ending::MaxGames => ("inconclusive", "max_games"),
            Ending::Interrupted => ("inconclusive", "interrupted"),
        };
        let controls = args.controls.controls();
        let player = |i: usize, spec: &PlayerSpec| {
            json!({
                "name": self.names[i],
                "source": spec.to_string(),
                "time_control": controls[i].unwrap_or(args.limits.budgets().turn).to_string(),
                "failures": s.failures[i],
                "first_failure": s.first_failures[i],
            })
        };
        json!({
            "game": args.game.name(),
            "seed": self.seed,
            "new": player(0, &args.new),
            "old": player(1, &args.old),
            "elo_model": h.model.name(),
            "elo0": h.elo0,
            "elo1": h.elo1,
            "alpha": h.alpha,
            "beta": h.beta,
            "lower_bound": lower,
            "upper_bound": upper,
            "llr": s.llr,
            "llr_trinomial": s.llr_trinomial,
            "games": s.games(),
            "pairs": p.pairs(),
            "max_games": args.max_games,
            "pentanomial": [p.ll, p.ld, p.dd_or_wl, p.wd, p.ww],
            "wins": s.evidence.wdl.wins,
            "draws": s.evidence.wdl.draws,
            "losses": s.evidence.wdl.losses,
            "elo": s.elo.elo,
            "elo_lower": s.elo.lower,
            "elo_upper": s.elo.upper,
            "verdict": verdict,
            "ending": ending,
        })
    }
}

/// Measure `arena bench sprt`'s test on simulated games between players of
/// known Elo difference: how often it accepts H1 at elo0 (at most
/// alpha) and H0 at elo1 (at most beta), and its mean games to a
/// verdict, the pentanomial test beside the trinomial one
/// (docs/benchmarks.md, "SPRT"). Build with --release.
#[derive(clap::Args)]
pub(crate) struct BenchSprtArgs {
    /// Tests simulated at each true difference.
    #[arg(long, default_value_t = 1000)]
    runs: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    test: TestArgs,
    /// The true Elo differences, comma-separated (default: elo0 - width,
    /// elo0, the middle, elo1, elo1 + width; width = elo1 - elo0).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    true_elo: Vec<f64>,
    /// Draws at even strength, a share of games.
    #[arg(long, default_value_t = 0.1)]
    draw_rate: f64,
    /// How far an opening may favour seat 1, in score (0 to 0.5): the two
    /// games of a pair pull against each other by up to this much.
    #[arg(long, default_value_t = 0.2)]
    opening_bias: f64,
    /// A run without a verdict by then is inconclusive.
    #[arg(long, default_value_t = 200_000)]
    max_games: u64,
    /// The pseudo-count added to every outcome before the LLR (default:
    /// arena bench sprt's, 0.5); 0.001 is fishtest's, for zero counts only.
    #[arg(long)]
    prior: Option<f64>,
}

pub(crate) fn bench(args: BenchSprtArgs) -> Result<ExitCode> {
    let hypotheses = args.test.hypotheses(EloModel::Logistic)?;
    if !(0.0..=1.0).contains(&args.draw_rate) {
        bail!("--draw-rate {}: a share, 0 to 1", args.draw_rate);
    }
    if !(0.0..=0.5).contains(&args.opening_bias) {
        bail!("--opening-bias {}: a score, 0 to 0.5", args.opening_bias);
    }
    if args.runs == 0 {
        bail!("--runs 0 measures nothing: ask for at least one");
    }
    let mut config = simulation::Config::new(args.runs, args.seed, hypotheses);
    config.draw_rate = args.draw_rate;
    config.opening_bias = args.opening_bias;
    config.max_games = args.max_games;
    if let Some(prior) = args.prior {
        if !(prior > 0.0 && prior.is_finite()) {
            bail!("--prior {prior}: a pseudo-count above 0 (0.5 by default)");
        }
        config.prior = prior;
    }
    if !args.true_elo.is_empty() {
        config.true_elos = args.true_elo;
    }
    let started = std::time::Instant::now();
    let report = simulation::run(&config);
    arena_core::outln!("{report}");
    eprintln!("simulated in {:.1} s", started.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
