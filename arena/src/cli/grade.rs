//! `arena grade`: one submission graded by a course file's assignment on
//! this machine, as the server grades it; a verdict per level and the
//! points, or with `--gradescope` Gradescope's results.json.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, Result};
use arena_core::players::isolation::run_as::PlayerUser;
use arena_core::sandbox::Sandbox;
use arena_server::{
    course::gradescope::{autograder, results, unprivileged},
    course::{Assignment, Course, Results},
    store::secret::Secret,
    work::grading::Here,
    work::one_submission,
};

/// `arena grade`: one submission, or `arena grade autograder` (the help
/// text is on `Command::Grade`).
#[derive(clap::Args)]
pub(crate) struct Grade {
    #[command(subcommand)]
    build: Option<Build>,
    #[command(flatten)]
    one: GradeArgs,
}

/// What `arena grade` builds, when it grades no submission.
#[derive(clap::Subcommand)]
enum Build {
    /// Build the zip a Gradescope autograder is made from
    ///
    /// setup.sh, run_autograder (which runs `arena grade --gradescope` on
    /// each submission), this arena binary, the course file, a secret for
    /// the grading seeds and the Python host of Python players
    /// (docs/gradescope.md).
    ///
    /// Example: arena grade autograder course.toml --assignment trap -o autograder.zip
    Autograder(super::gradescope::AutograderArgs),
}

/// `arena grade SUBMISSION`: the options.
#[derive(clap::Args)]
pub(crate) struct GradeArgs {
    /// The submission: a player library (.so), a Python player's folder
    /// (PlayerAI.py, or one .py file), a .zip or .tar.gz of one, or a
    /// folder holding one library (as Gradescope hands a submission in).
    #[arg(required = true)]
    submission: Option<PathBuf>,
    /// The course file (docs/server.md, "The course file").
    #[arg(long, value_name = "FILE", required = true)]
    course: Option<PathBuf>,
    /// The course's assignment to grade by (default: its only one).
    #[arg(long, value_name = "NAME")]
    assignment: Option<String>,
    /// Write Gradescope's results.json (a test per level, the score, a
    /// leaderboard) instead of the verdict; a submission that cannot be
    /// graded gets one too, with 0 points and the cause.
    #[arg(long)]
    gradescope: bool,
    /// Where --gradescope writes results.json (default:
    /// $ARENA_AUTOGRADER_ROOT/results/results.json, the root being
    /// /autograder unless the variable says otherwise).
    #[arg(long, value_name = "FILE", requires = "gradescope")]
    results: Option<PathBuf>,
    /// A file holding the secret the grading seeds come from (64 hex
    /// digits; an autograder zip carries its own). Without it the seeds
    /// are ones anyone with the course file can compute.
    #[arg(long, value_name = "FILE")]
    secret: Option<PathBuf>,
    /// Run the player's workers in the sandbox (docs/security.md); `off`
    /// only where something else isolates the submission. With
    /// --gradescope, `off` runs them as the user arena-player (or nobody),
    /// which needs root.
    #[arg(long, value_enum, default_value_t = Sandbox::On)]
    sandbox: Sandbox,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Keep the grading run (its tournament file, journal, reports and the
    /// lost games' replays) in this folder.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
}

pub(crate) fn run(grade: Grade) -> Result<ExitCode> {
    let args = match grade.build {
        Some(Build::Autograder(args)) => return super::gradescope::run(args),
        None => grade.one,
    };
    let (Some(submission), Some(course)) = (&args.submission, &args.course) else {
        anyhow::bail!("arena grade: name the submission and --course FILE (arena grade --help)");
    };
    let out = args
        .gradescope
        .then(|| args.results.clone().unwrap_or_else(|| autograder::results_path(&autograder::root())));
    // Staff's mistakes (the course, the assignment, the secret, a grader
    // that cannot keep the player off them) are errors; with --gradescope
    // the student still gets a results.json saying the autograder is
    // broken, not an empty results folder.
    let setup = (|| -> Result<(Assignment, Secret, Option<PlayerUser>)> {
        let (course, _) = Course::read(course)?;
        let assignment = course.pick(args.assignment.as_deref()).map_err(anyhow::Error::msg)?.clone();
        // An autograder runs everything as root: unsandboxed, the player
        // runs as a user of its own, or is not run at all.
        let run_as = match (&out, args.sandbox) {
            (Some(out), Sandbox::Off) => Some(unprivileged::player_user(args.secret.as_deref(), out)?),
            _ => None,
        };
        let secret = match &args.secret {
            Some(file) => Secret::read(file)?,
            None => Secret::from_bytes([0; 32]),
        };
        Ok((assignment, secret, run_as))
    })();
    let (assignment, secret, run_as) = match setup {
        Ok(setup) => setup,
        Err(e) => {
            if let Some(out) = &out {
                let text = format!(
                    "{{\"score\": 0, \"output\": {}}}\n",
                    serde_json::to_string(&format!("Not graded: the autograder is misconfigured: {e:#}"))?
                );
                let _ = write(out, &text);
            }
            return Err(e);
        }
    };
    let started = std::time::Instant::now();
    let how = Here {
        secret: &secret,
        concurrency: args.concurrency,
        sandbox: args.sandbox,
        run_as: run_as.as_ref(),
    };
    let graded = one_submission::grade(
        submission,
        &assignment,
        &how,
        args.keep.as_deref(),
        &mut arena_core::tournament::Quiet,
    );
    let Some(out) = out else { return verdict(&assignment, graded) };
    let written = match &graded {
        Ok(o) => results::graded(&assignment, &o.graded.grade, &o.graded.results, o.seconds),
        Err(e) => results::not_graded(&assignment, &format!("{e:#}"), started.elapsed().as_secs()),
    };
    write(&out, &(serde_json::to_string_pretty(&written)? + "\n"))?;
    eprintln!("{}", written.output.lines().next().unwrap_or_default());
    eprintln!("score {} written to {}", written.score, out.display());
    Ok(ExitCode::SUCCESS)
}

/// Prints a verdict per level and the points; exit 1 when not graded.
fn verdict(assignment: &Assignment, graded: Result<one_submission::Outcome>) -> Result<ExitCode> {
    let outcome = match graded {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("not graded: {e:#}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let grade = &outcome.graded.grade;
    for (i, level) in grade.levels.iter().enumerate() {
        let points = assignment.points.per_level.get(i).copied().unwrap_or(0.0);
        let mark = if level.passed { "passed" } else { "failed" };
        arena_core::outln!(
            "{:<8} {:<22} {mark} ({} points)",
            level.level,
            level.cell(),
            if level.passed { points } else { 0.0 }
        );
    }
    let passed: Vec<bool> = grade.levels.iter().map(|l| l.passed).collect();
    let points = assignment.points.of(&Results { passed, rank: None, defeated: 0, groups: 1 });
    arena_core::outln!("{}", grade.verdict);
    arena_core::outln!("points: {points} (the levels'; the class tournament's come after the deadline)");
    Ok(ExitCode::SUCCESS)
}

/// Writes `text` to `path`, creating its folder: whole or not at all (a
/// file beside it, renamed into place), so that Gradescope never reads
/// half a results.json.
fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, path))
        .with_context(|| format!("cannot write {}", path.display()))
}
