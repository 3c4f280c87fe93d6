//! `arena grade autograder`: the zip a Gradescope programming
//! assignment's autograder is built from (arena-server's
//! `gradescope::autograder`).

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, Result};
use arena_core::sandbox::Sandbox;
use arena_server::{
    course::gradescope::autograder::{self, Autograder},
    course::Course,
    store::secret::Secret,
};

/// `arena grade autograder`: the options (the help text is on
/// `Command::GradescopeAutograder`).
#[derive(clap::Args)]
pub(crate) struct AutograderArgs {
    /// The course file (docs/server.md, "The course file").
    course: PathBuf,
    /// The course's assignment the autograder grades (default: its only one).
    #[arg(long, value_name = "NAME")]
    assignment: Option<String>,
    /// The zip to write.
    #[arg(short, long, value_name = "FILE", default_value = "autograder.zip")]
    output: PathBuf,
    /// Grade with the players' workers in the sandbox (`on`), or not
    /// (`off`: where Gradescope's container cannot sandbox; the student's
    /// code then runs as the user arena-player, which setup.sh creates).
    #[arg(long, value_enum, default_value_t = Sandbox::On)]
    sandbox: Sandbox,
    /// A file holding the secret of the grading seeds (64 hex digits);
    /// default: a new random one, so that no student can compute the games.
    #[arg(long, value_name = "FILE")]
    secret: Option<PathBuf>,
    /// The arena_player package folder to bundle (default: the one this
    /// arena carries; with ARENA_PYTHON_HOST=installed, python3's own).
    #[arg(long, value_name = "DIR")]
    python_host: Option<PathBuf>,
}

pub(crate) fn run(args: AutograderArgs) -> Result<ExitCode> {
    let (course, text) = Course::read(&args.course)?;
    let assignment = course.pick(args.assignment.as_deref()).map_err(anyhow::Error::msg)?;
    let secret = match &args.secret {
        Some(file) => Secret::read(file)?,
        None => Secret::new_random()?,
    };
    let binary = std::env::current_exe().context("cannot find this arena binary to bundle")?;
    let python_host = autograder::python_host(args.python_host.as_deref())?;
    autograder::write(
        &Autograder {
            course_text: &text,
            course: &course,
            assignment: &assignment.name,
            binary: &binary,
            python_host: &python_host,
            secret: &secret,
            sandbox: args.sandbox,
        },
        &args.output,
    )?;
    arena_core::outln!(
        "wrote {} (assignment {}): upload it as the assignment's autograder",
        args.output.display(),
        assignment.name
    );
    Ok(ExitCode::SUCCESS)
}
