//! `arena measure server`: the server under load grades every submission and reports its latencies;
//! its live watchers, in a process of their own, read feeds whole.

use crate::support::{self, arena, library, stdout};

#[test]
fn the_load_benchmark_grades_every_submission_and_reports_latencies() {
    let library = library("easy");
    let args = [
        "measure",
        "server",
        "--library",
        library.to_str().unwrap(),
        "--students",
        "6",
        "--league-games",
        "300",
        "--submissions",
        "4",
        "--pages",
        "3",
        "--seconds",
        "3",
        "--watchers",
        "3",
    ];
    let out = arena(&args, &[]);
    assert!(out.status.success(), "{}", support::stderr(&out));
    let report = stdout(&out);
    assert!(
        report.starts_with(
            "submissions server on loopback: 6 students (300 league games stored), 3 open pages"
        ),
        "{report}"
    );
    assert!(report.contains("4 students submit libeasy.so"), "{report}");
    for line in [
        "  uploads accepted:       p50 ",
        "  GET /api/leaderboard:   p50 ",
        "  GET / (the page):       p50 ",
        "  GET /api/submissions/N: p50 ",
    ] {
        assert!(report.contains(line), "{line:?} in {report}");
    }
    assert!(report.contains("  graded 4 submissions (120 games) in "), "{report}");
    let watched =
        report.lines().find(|l| l.starts_with("  3 watchers (a process of their own")).expect(&report);
    let feeds: usize =
        watched.split(": ").nth(1).and_then(|t| t.split(' ').next()?.parse().ok()).expect(watched);
    assert!(feeds > 0, "the watchers read games whole: {watched}");
    assert!(watched.contains(" 0 cut"), "{watched}");
    assert!(report.contains("  the server's CPU in "), "{report}");
}
