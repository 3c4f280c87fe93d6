//! Tests that need a process of their own. Most tests share the test
//! binary's process without noticing; a few cannot: they count what the
//! process holds (open descriptors, child processes), or they need
//! variables in its environment, which the arena reads there (what workers
//! are passed, PYTHONPATH). Such a test starts with `alone!()`: the test
//! run's process runs it again as this binary asked for that one test,
//! with the variables it needs given to that process (not set in this one,
//! where every other test would see them), and passes or fails with it.

use std::{ffi::OsStr, process::Command};

/// Set in a test binary run by `run`: the test it runs alone.
const ALONE: &str = "ARENA_TEST_ALONE";

/// `if !alone!() { return; }` (or `alone!(ENV)`, `(name, value)` pairs for
/// that process's environment) first in a test's body: true in the process
/// where the test runs alone, so the body goes on; false in the test run's
/// process, once the test has run and passed in its own (its output is
/// shown with this test's; a failure there fails this test).
#[macro_export]
macro_rules! alone {
    () => {
        $crate::alone!(std::iter::empty::<(&str, &str)>())
    };
    ($env:expr) => {{
        fn here() {}
        $crate::support::alone::run(std::any::type_name_of_val(&here), $env)
    }};
}

/// `alone!`'s work: `here` is the path of a function in the test's body,
/// `crate::module::test::here`.
pub fn run<K, V>(here: &str, env: impl IntoIterator<Item = (K, V)>) -> bool
where
    K: AsRef<OsStr>,
    V: AsRef<OsStr>,
{
    let path = here.strip_suffix("::here").expect("alone! is called in a test's body");
    // The test's name as the harness knows it: its path without the crate.
    let test = path.split_once("::").map_or(path, |(_, test)| test);
    if std::env::var(ALONE).as_deref() == Ok(test) {
        return true;
    }
    let output = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([test, "--exact", "--include-ignored", "--nocapture", "--test-threads", "1"])
        .env(ALONE, test)
        .env(super::LIBRARIES, super::libraries_dir())
        .envs(env)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{test} failed in a process of its own (its output is above)");
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{test} did not run in a process of its own: {stdout}"
    );
    false
}
