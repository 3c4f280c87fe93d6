//! The HTML replay viewer in a real browser: headless Chromium loads a
//! generated viewer from disk, a small script injected by this test clicks
//! through the turns (buttons, slider, keys, play), and the board drawn at
//! each step is checked against the replay file. Also a screenshot, kept
//! under target/ (never the repo).
//!
//! Without Chromium the test prints a notice and passes, unless
//! ARENA_REQUIRE_BROWSER=1 (set by .ci/run, which installs it).

mod support;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use arena::replay::{trap::TrapBody, Body, Replay};
use serde_json::Value;
use support::{arena, stderr};

fn chromium() -> Option<PathBuf> {
    let candidates =
        [std::env::var_os("ARENA_CHROMIUM").map(PathBuf::from), Some("/usr/bin/chromium".into())];
    let found = candidates.into_iter().flatten().find(|p| p.is_file());
    if found.is_none() {
        let required = std::env::var("ARENA_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "ARENA_REQUIRE_BROWSER=1 but no chromium at /usr/bin/chromium (or ARENA_CHROMIUM)"
        );
        eprintln!("notice: chromium not found: the browser test of the replay viewer is skipped (apt-get install chromium)");
    }
    found
}

/// Runs headless Chromium on `url` with `extra` flags; killed after 120 s.
fn run_chromium(browser: &Path, extra: &[String], url: &str) -> Output {
    let profile = tempfile::tempdir().unwrap();
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .map(String::from)
    .to_vec();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    args.extend(extra.iter().cloned());
    args.push(url.to_string());
    let mut child = Command::new(browser)
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The test's driver: steps through the viewer with its own controls and
/// writes what is drawn after each step into <pre id="test-report">.
const DRIVER: &str = r##"<script>
(function () {
  const $ = (id) => document.getElementById(id);
  const report = [];
  const snap = (how) => report.push({
    how,
    counter: $("turn-counter").textContent,
    cells: Array.from(document.querySelectorAll("#board .cell")).map((c) =>
      [Number(c.dataset.row), Number(c.dataset.col), c.dataset.content, c.dataset.mark || ""]),
    result: $("result").textContent,
    slider: Number($("slider").value),
    info: $("turn-info").textContent,
  });
  snap("load");
  for (let i = 0; i < STEPS; i++) { $("next").click(); snap("next"); }
  $("prev").click(); snap("prev");
  $("last").click(); snap("last");
  $("next").click(); snap("next at the end");
  const slider = $("slider");
  slider.value = "2";
  slider.dispatchEvent(new Event("input"));
  snap("slider");
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
  snap("key");
  $("first").click();
  $("play").click();
  setTimeout(() => {
    snap("played");
    const pre = document.createElement("pre");
    pre.id = "test-report";
    pre.textContent = JSON.stringify(report);
    document.body.appendChild(pre);
  }, 1600);
})();
</script>
</body>"##;

/// What frame `k` must show: the players, the traps, the throw's marks.
fn expected_cells(body: &TrapBody, k: usize) -> Vec<(i64, i64, String, String)> {
    let state = match k {
        0 => &body.start,
        k if k < body.turns.len() => &body.turns[k].state,
        _ => &body.final_state,
    };
    let throw = k.checked_sub(1).and_then(|i| body.turns[i].throw);
    let n = i64::from(state.size);
    let mut cells = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let here = [row, col];
            let content = if state.players[0] == here {
                "p1"
            } else if state.players[1] == here {
                "p2"
            } else if state.traps.contains(&here) {
                "trap"
            } else {
                "empty"
            };
            let mark = match throw {
                Some(t) if t.landed == here && t.target == here => "hit",
                Some(t) if t.landed == here => "landed",
                Some(t) if t.target == here => "target",
                _ => "",
            };
            cells.push((row, col, content.to_string(), mark.to_string()));
        }
    }
    cells
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

#[test]
fn the_viewer_draws_every_turn_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let output = arena(&["play", "easy", "hard", "--seed", "31", "--replay", file.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = Replay::read(&file).unwrap();
    let Body::Trap(body) = &replay.body;
    let turns = body.turns.len();
    assert!(turns >= 6, "a game long enough to step through ({turns} turns)");
    let page = dir.path().join("view.html");
    let output = arena(&["replay", file.to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));

    let steps = 5;
    let html = std::fs::read_to_string(&page).unwrap();
    let driven = html.replacen("</body>", &DRIVER.replace("STEPS", &steps.to_string()), 1);
    let driven_path = dir.path().join("driven.html");
    std::fs::write(&driven_path, driven).unwrap();
    let url = format!("file://{}", driven_path.display());
    let output = run_chromium(&browser, &["--dump-dom".into(), "--virtual-time-budget=5000".into()], &url);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .split("<pre id=\"test-report\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!("no report in the page: {}\n{dom}", String::from_utf8_lossy(&output.stderr))
        });
    let report: Vec<Value> = serde_json::from_str(&unescape(report)).unwrap();

    let check = |snap: &Value, k: usize| {
        let how = &snap["how"];
        let counter = snap["counter"].as_str().unwrap();
        let want = if k == 0 { format!("Start \u{b7} 0 / {turns}") } else { format!("Turn {k} / {turns}") };
        assert_eq!(counter, want, "{how}");
        assert_eq!(snap["slider"], k, "{how}");
        let cells: Vec<(i64, i64, String, String)> = serde_json::from_value(snap["cells"].clone()).unwrap();
        assert_eq!(cells, expected_cells(body, k), "{how}: the board at turn {k}");
        let result = snap["result"].as_str().unwrap();
        if k == turns {
            let winner = &replay.players[replay.result.winner.unwrap()].name;
            assert!(
                result.contains(&format!("{winner} (player")) && result.contains(&replay.result.reason),
                "{result}"
            );
        } else {
            assert_eq!(result, "", "{how}: no result before the end");
        }
        if k > 0 {
            let info = snap["info"].as_str().unwrap();
            let throw = body.turns[k - 1].throw.unwrap();
            let pct = format!("Hit probability{}%", (throw.hit_chance * 100.0).round());
            assert!(info.contains(&pct), "{how}: {info}");
            let landed = format!("Landed on({},{})", throw.landed[0], throw.landed[1]);
            assert!(info.contains(&landed) && info.contains("Time used"), "{how}: {info}");
        }
    };
    let mut expected = vec![0];
    expected.extend(1..=steps);
    expected.extend([steps - 1, turns, turns, 2, 3]);
    assert_eq!(report.len(), expected.len() + 1);
    for (snap, &k) in report.iter().zip(&expected) {
        check(snap, k);
    }
    // Playing at 2 turns a second for 1.6 s of (virtual) time.
    let played = report.last().unwrap();
    let at: usize = played["slider"].as_u64().unwrap() as usize;
    assert!((2..=4).contains(&at), "played to turn {at}");
    check(played, at);

    // A screenshot for people to look at, kept under target/.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-viewer.png");
    let _ = std::fs::remove_file(&shot);
    let url = format!("file://{}#turn=5", page.display());
    let output = run_chromium(
        &browser,
        &[format!("--screenshot={}", shot.display()), "--window-size=1280,900".into()],
        &url,
    );
    let png = std::fs::read(&shot)
        .unwrap_or_else(|_| panic!("no screenshot: {}", String::from_utf8_lossy(&output.stderr)));
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "a drawn page, {} bytes", png.len());
}
