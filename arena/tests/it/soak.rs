//! `scripts/suite-soak.sh`, the loop that runs the whole suite again and
//! again beside busy loops to bring out tests that fail now and then. Here
//! it runs small shell commands that print what `cargo test` prints, so its
//! counting, its verdict and its busy loops are checked in a second.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/suite-soak.sh")
}

fn soak(out: &Path, args: &[&str], command: &[&str]) -> Output {
    Command::new("bash")
        .arg(script())
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--")
        .args(command)
        .output()
        .expect("bash runs")
}

fn summary(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("summary.txt"))
        .expect("the summary is written")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The pids the log of a run beside busy loops names on its first line.
fn busy_pids(log: &str) -> Vec<u32> {
    // The header ends where the command begins, after the first ": ".
    let header = log.lines().next().unwrap_or_default().split(": ").next().unwrap();
    let Some(start) = header.find("(pids ") else { return Vec::new() };
    let pids = header[start + "(pids ".len()..].trim_end_matches(')');
    pids.split(' ').map(|p| p.parse().unwrap()).collect()
}

#[test]
fn every_other_run_has_busy_loops_beside_it_that_spin_while_it_runs_and_end_with_it() {
    let out = tempfile::tempdir().unwrap();
    // The command says which busy loops it finds alive while it runs.
    let check = r#"for p in $(sed -s -n "1s/.*(pids \([0-9 ]*\)).*/\1/p" "$0"/run*.log); do
            kill -0 "$p" && echo "busy loop $p alive"; done
        echo "test a::b ... ok"
        echo "test result: ok. 4 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out"
        echo "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out""#;
    let dir = out.path().to_str().unwrap();
    let run = soak(out.path(), &["--runs", "4", "--busy-loops", "2"], &["sh", "-c", check, dir]);
    assert!(run.status.success(), "{}", support::stderr(&run));

    let lines = summary(out.path());
    assert_eq!(lines.len(), 5, "{lines:?}");
    for (n, line) in lines[..4].iter().enumerate() {
        let busy = if (n + 1) % 2 == 0 { "yes" } else { "no" };
        assert!(line.starts_with(&format!("run {} ", n + 1)), "{line}");
        assert!(line.contains(&format!("busy={busy} ")), "{line}");
        assert!(line.contains("rc=0 passed=5 failed=0 ignored=2"), "{line}");
        assert!(!line.contains("FAILED"), "{line}");
    }
    assert!(lines[4].starts_with("4 runs (2 beside busy loops)"), "{}", lines[4]);
    assert!(lines[4].contains(": 0 failed"), "{}", lines[4]);

    for n in 1..=4 {
        let log = std::fs::read_to_string(out.path().join(format!("run{n}.log"))).unwrap();
        let pids = busy_pids(&log);
        let alive = log.lines().filter(|l| l.starts_with("busy loop ")).count();
        if n % 2 == 0 {
            assert_eq!((pids.len(), alive), (2, 2), "{log}");
        } else {
            assert_eq!((pids.len(), alive), (0, 0), "{log}");
        }
        for pid in pids {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "busy loop {pid} of run {n} outlived the script"
            );
        }
    }
}

#[test]
fn a_run_with_a_failed_test_or_a_failed_build_fails_the_soak_and_names_the_tests() {
    let out = tempfile::tempdir().unwrap();
    // Run 1 passes, run 2 has two failed tests, run 3 does not build.
    let flaky = r#"n=$(ls "$0"/run*.log | wc -l)
        case $n in
        1) echo "test result: ok. 3 passed; 0 failed; 0 ignored" ;;
        2) echo "test server::x ... FAILED"; echo "test play::y ... FAILED"
           echo "test result: FAILED. 1 passed; 2 failed; 0 ignored"; exit 101 ;;
        *) echo "error[E0425]: cannot find value"; exit 101 ;;
        esac"#;
    let dir = out.path().to_str().unwrap();
    let run = soak(out.path(), &["--runs", "3", "--busy-every", "0"], &["sh", "-c", flaky, dir]);
    assert_eq!(run.status.code(), Some(1), "{}", support::stderr(&run));

    let lines = summary(out.path());
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].contains("busy=no") && lines[0].ends_with("passed=3 failed=0 ignored=0"),
        "{}",
        lines[0]
    );
    assert!(lines[1].ends_with("failed=2 ignored=0 FAILED: play::y server::x"), "{}", lines[1]);
    assert!(lines[2].contains("rc=101") && lines[2].ends_with(" FAILED"), "{}", lines[2]);
    assert!(lines[3].starts_with("3 runs (0 beside busy loops)"), "{}", lines[3]);
    assert!(lines[3].contains(": 2 failed"), "{}", lines[3]);
}

#[test]
fn scripts_tests_nextest_output_is_counted_and_its_failed_tests_named() {
    let out = tempfile::tempdir().unwrap();
    // scripts/test's runner, nextest: a test's FAIL line (again in the
    // final list) and the Summary line; a skipped test is an ignored one.
    let nextest = r#"n=$(ls "$0"/run*.log | wc -l)
        case $n in
        1) echo "     Summary [ 9.1s] 5 tests run: 5 passed (1 slow), 1 skipped" ;;
        *) for i in 1 2; do
             echo "        FAIL [ 306.252s] (307/953) arena::it server::fairness::starved"
             echo "     SIGSEGV [   0.1s] arena-core play::z"
           done
           echo "     Summary [ 9.1s] 5 tests run: 3 passed, 2 failed, 0 skipped"; exit 100 ;;
        esac"#;
    let dir = out.path().to_str().unwrap();
    let run = soak(out.path(), &["--runs", "2", "--busy-every", "0"], &["sh", "-c", nextest, dir]);
    assert_eq!(run.status.code(), Some(1), "{}", support::stderr(&run));
    let lines = summary(out.path());
    assert!(lines[0].ends_with("rc=0 passed=5 failed=0 ignored=1"), "{}", lines[0]);
    assert!(
        lines[1].ends_with("passed=3 failed=2 ignored=0 FAILED: play::z server::fairness::starved"),
        "{}",
        lines[1]
    );
}

#[test]
fn a_bad_argument_gets_one_line_naming_it_and_runs_nothing() {
    let out = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--runs", "many"][..], "--runs takes a whole number, not 'many'"),
        (&["--runs", "0"][..], "--runs must be at least 1"),
        (&["--busy-loops", "-1"][..], "--busy-loops takes a whole number, not '-1'"),
        (&["--frobnicate"][..], "unknown argument '--frobnicate'"),
    ] {
        let run =
            soak(out.path(), args, &["sh", "-c", "echo ran > \"$0\"/ran", out.path().to_str().unwrap()]);
        let stderr = support::stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("suite-soak: ") && stderr.contains(says), "{args:?}: {stderr}");
        assert!(!out.path().join("ran").exists(), "{args:?} ran the command");
    }
    let file = out.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let run = soak(&file.join("logs"), &["--runs", "1"], &["true"]);
    let stderr = support::stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot create the folder") && stderr.contains("--out"), "{stderr}");
}
