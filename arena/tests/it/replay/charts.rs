//! The viewer's think-time chart in a real browser: each turn's bar is its
//! time as a share of what it could use (a bank's time left, at most its
//! cap; a budget per turn), recomputed here from the replay file; a click
//! on the chart jumps to the turn under it. The advantage chart's own test
//! is `analysis.rs`'s.

use serde_json::Value;

use crate::support::{
    arena,
    browser::{chromium, run_chromium},
    stderr,
};

/// Reads the think-time chart, then clicks 35% of the way along it.
const DRIVER: &str = r##"<script>
window.addEventListener("load", () => setTimeout(() => {
  const box = document.getElementById("timeline"), r = box.querySelector("svg").getBoundingClientRect();
  const report = { titles: Array.from(box.querySelectorAll(".turn > title")).map((t) => t.textContent),
    bars: box.querySelectorAll(".bar").length, late: box.querySelectorAll(".bar.late").length,
    limit: box.querySelectorAll(".limit").length, advantage: document.getElementById("advantage").hidden };
  const x = r.left + r.width * 0.35, y = r.top + r.height / 2;
  document.elementFromPoint(x, y).dispatchEvent(new MouseEvent("click", { clientX: x, clientY: y, bubbles: true }));
  report.at = document.body.dataset.turn;
  report.turns = document.body.dataset.turns;
  report.now = Array.from(box.querySelectorAll(".turn.now")).map((g) => g.dataset.turn);
  report.info = document.getElementById("turn-info").textContent;
  const pre = document.createElement("pre");
  pre.id = "test-report";
  pre.textContent = JSON.stringify(report);
  document.body.appendChild(pre);
}, 100));
</script></body>"##;

/// The viewer of `file` driven by [`DRIVER`]: its report.
fn drive(browser: &std::path::Path, file: &std::path::Path) -> Value {
    let page = file.with_extension("html");
    let output = arena(&["replay", file.to_str().unwrap(), "--html", page.to_str().unwrap()], &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let html = std::fs::read_to_string(&page).unwrap().replacen("</body>", DRIVER, 1);
    std::fs::write(&page, html).unwrap();
    let url = format!("file://{}", page.display());
    // Tall enough that the chart is in the window (a click is aimed at it).
    let flags = ["--dump-dom".into(), "--virtual-time-budget=5000".into(), "--window-size=1200,1600".into()];
    let output = run_chromium(browser, &flags, &url);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom.split("<pre id=\"test-report\">").nth(1).and_then(|r| r.split("</pre>").next());
    let report = report.unwrap_or_else(|| panic!("no report: {dom}"));
    serde_json::from_str(&report.replace("&quot;", "\"").replace("&amp;", "&")).unwrap()
}

/// "1.00 s", "500.0 ms", as the viewer writes a time.
fn shown(us: u64) -> String {
    match us {
        us if us < 1000 => format!("{us} \u{b5}s"),
        us if us < 1_000_000 => format!("{:.1} ms", us as f64 / 1e3),
        us => format!("{:.2} s", us as f64 / 1e6),
    }
}

#[test]
fn the_think_time_chart_shows_each_turn_against_its_bank_or_budget_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    // A bank with a cap: the built-in levels take microseconds, so the
    // turns' times are set here (a replay's times are never verified).
    let file = dir.path().join("bank.json");
    let control = "2s+50ms,cap=1s";
    let args = ["play", "easy", "hard", "--seed", "31", "--time-per-turn", control, "--replay"];
    let output = arena(&[&args[..], &[file.to_str().unwrap()]].concat(), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let times = [400_000u64, 900_000, 700_000, 1_000, 1_200_000];
    let (base, increment, cap) = (2_000_000u64, 50_000u64, 1_000_000u64);
    let mut banks = [base; 2];
    let mut expected = Vec::new();
    let turns = replay["turns"].as_array_mut().unwrap();
    for (i, turn) in turns.iter_mut().enumerate() {
        let seat = turn["seat"].as_u64().unwrap() as usize - 1;
        let used = times.get(i).copied().unwrap_or(10);
        let (before, limit) = (banks[seat], banks[seat].min(cap));
        banks[seat] = before.saturating_sub(used) + increment;
        turn["time_us"] = used.into();
        turn["bank_left_us"] = banks[seat].into();
        let share = (100.0 * used as f64 / limit as f64).round();
        expected.push(format!(
            "turn {}: {} of {} (bank {}) ({share}%)",
            i + 1,
            shown(used),
            shown(limit),
            shown(before)
        ));
    }
    let turns = turns.len();
    std::fs::write(&file, replay.to_string()).unwrap();
    let report = drive(&browser, &file);
    assert_eq!(
        report["titles"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect::<Vec<_>>(),
        expected
    );
    assert_eq!(report["bars"], turns);
    // Turn 5: 1.2 s of a 1 s cap is late.
    assert_eq!(report["late"], 1);
    assert_eq!(report["limit"], 1);
    // Without an analysis there is no advantage chart.
    assert_eq!(report["advantage"], true);
    // A click 35% along jumps to the turn under it, and marks it.
    let at: usize = report["at"].as_str().unwrap().parse().unwrap();
    assert_eq!(at, (turns as f64 * 0.35).floor() as usize + 1, "{report}");
    assert_eq!(report["now"], serde_json::json!([at.to_string()]));
    assert!(report["info"].as_str().unwrap().contains("Time used"), "{report}");

    // A budget per turn: each turn against it.
    let file = dir.path().join("budget.json");
    let args = ["play", "--game", "hexapawn", "hard", "easy", "--games", "1", "--seed", "3"];
    let output =
        arena(&[&args[..], &["--time-per-turn", "200ms", "--replay", file.to_str().unwrap()]].concat(), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    replay["plies"][0]["time_us"] = 150_000.into();
    std::fs::write(&file, replay.to_string()).unwrap();
    let report = drive(&browser, &file);
    assert_eq!(report["titles"][0], "turn 1: 150.0 ms of 200.0 ms (75%)", "{report}");
    assert_eq!(report["late"], 0);
}
