//! `human` at a page (`arena play ... --live`): Trap and Hexapawn played
//! to their end by clicks in headless Chromium, and a seat's endpoints
//! refuse any other token (issue 49).

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use crate::support::{browser::chromium, devtools::Browser};

/// `arena play ARGS --live`, started: the process and its seat's address.
fn seated(args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .arg("--live")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (found, address) = mpsc::channel();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("play: your seat is at ") {
                let _ = found.send(rest.split_whitespace().next().unwrap_or_default().to_string());
            }
            // Shown with the test's output if it fails.
            eprintln!("arena: {line}");
        }
    });
    let url = address.recv_timeout(Duration::from_secs(30)).expect("the seat's address on stderr");
    (child, url)
}

/// Clicks a highlighted square, if there is one: a pawn, then one of its
/// squares (not another pawn of the same side).
fn click_once(browser: &mut Browser) -> bool {
    let clicked = browser.eval(
        "(() => { const picked = document.querySelector('#board button.picked');
             let can = [...document.querySelectorAll('#board button.can')];
             if (picked) { const other = can.filter(b => !b.classList.contains('picked') && b.textContent !== picked.textContent); if (other.length) can = other; }
             if (!can.length) return false;
             can[(can.length * 7 + 3) % can.length].click(); return true; })()",
    );
    clicked == serde_json::Value::Bool(true)
}

/// Clicks highlighted squares until the page says the game is over.
pub(crate) fn click_to_the_end(browser: &mut Browser) -> String {
    let over = "document.getElementById('news').innerText.includes('game over')";
    let started = Instant::now();
    let mut clicks = 0;
    loop {
        assert!(started.elapsed() < Duration::from_secs(90), "the game did not end by clicks");
        browser.wait_for(
            &format!("document.querySelector('#board button.can') || {over}"),
            Duration::from_secs(30),
        );
        if browser.eval(over) == serde_json::Value::Bool(true) {
            break;
        }
        if click_once(browser) {
            clicks += 1;
        }
        std::thread::sleep(Duration::from_millis(60));
    }
    assert!(clicks > 0);
    browser.eval("document.getElementById('news').innerText").as_str().unwrap_or_default().to_string()
}

fn finished(mut child: Child) -> String {
    use std::io::Read;
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    assert!(child.wait().unwrap().success(), "{out}");
    out
}

#[test]
fn trap_and_hexapawn_are_played_to_the_end_by_clicks() {
    let Some(chromium) = chromium() else { return };
    let mut browser = Browser::start(&chromium);
    let (child, url) = seated(&["play", "human", "easy", "--seed", "5", "--in-process"]);
    browser.open(&url);
    // The throw shows its odds: each square's chance, and where a miss lands.
    browser.wait_for("document.querySelector('#board button.can')", Duration::from_secs(30));
    browser.eval("document.querySelector('#board button.can').click()");
    browser
        .wait_for("document.getElementById('ask').innerText.includes('your throw')", Duration::from_secs(30));
    let notes = browser.eval(
        "[...document.querySelectorAll('#board small')].filter(s => s.textContent.endsWith('%')).length",
    );
    assert!(notes.as_u64().unwrap() > 40, "{notes}");
    // A person plays without an engine's hints: its game's feed is not analysed.
    let base = url.split("/play/").next().unwrap();
    let start = crate::replay::live::read_events(&format!("{base}/game/0/feed"), |seen| !seen.is_empty());
    assert_eq!(start[0].name, "start", "{start:?}");
    assert!(!start[0].data.contains("\"analysed\""), "{}", start[0].data);
    let news = click_to_the_end(&mut browser);
    assert!(news.contains("player 2 (easy) moves"), "the opponent's turns are shown: {news}");
    let out = finished(child);
    assert!(out.contains("game 1/1") && out.contains("human (P1) vs easy (P2)"), "{out}");
    assert!(!out.contains("resigned"), "{out}");

    let (child, url) =
        seated(&["play", "--game", "hexapawn", "human", "hard", "--seed", "2", "--in-process"]);
    browser.open(&url);
    let news = click_to_the_end(&mut browser);
    assert!(news.contains("Black (hard) moves"), "{news}");
    let out = finished(child);
    assert!(out.contains("game 1/1"), "{out}");
}

#[test]
fn a_page_that_polls_late_still_sees_how_its_match_ended() {
    let (mut child, url) = seated(&["play", "human", "easy", "--seed", "5", "--in-process"]);
    let state = |query: &str| -> serde_json::Value {
        let text =
            ureq::get(format!("{url}/state{query}")).call().unwrap().body_mut().read_to_string().unwrap();
        serde_json::from_str(&text).unwrap()
    };
    // The page is open: it polls until it is asked.
    let started = Instant::now();
    let asked = loop {
        let shown = state("");
        if !shown["question"].is_null() {
            break shown["asked"].as_u64().unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(30), "never asked: {shown}");
        std::thread::sleep(Duration::from_millis(50));
    };
    let body = serde_json::json!({ "asked": asked, "line": "resign" }).to_string();
    let posted = ureq::post(format!("{url}/answer")).content_type("application/json").send(&body).unwrap();
    assert_eq!(posted.status(), 204);
    // Its next poll comes 3 s late (a busy machine's page): the arena is
    // still there to show it the end.
    std::thread::sleep(Duration::from_secs(3));
    let end = state("");
    assert!(end["news"].to_string().contains("game over") && end["over"] == true, "{end}");
    // An answer served is not yet an answer delivered: the arena stays
    // until the page says it drew the end.
    std::thread::sleep(Duration::from_secs(1));
    assert!(child.try_wait().unwrap().is_none(), "the arena left before the page drew the end");
    state(&format!("?seen={}", end["version"]));
    let out = finished(child);
    assert!(out.contains("resigned"), "{out}");
}

#[test]
fn a_page_cut_off_for_a_while_plays_on_when_the_arena_answers_again() {
    let Some(chromium) = chromium() else { return };
    let mut browser = Browser::start(&chromium);
    let (child, url) =
        seated(&["play", "--game", "hexapawn", "human", "easy", "--seed", "3", "--in-process"]);
    browser.open(&url);
    browser.wait_for("document.querySelector('#board button.can')", Duration::from_secs(30));
    browser.call("Network.enable", serde_json::json!({}));
    let cut = |browser: &mut Browser, offline: bool| {
        let conditions = serde_json::json!({ "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 });
        browser.call("Network.emulateNetworkConditions", conditions);
    };
    cut(&mut browser, true);
    browser.wait_for(
        "document.getElementById('left').innerText.includes('not answering')",
        Duration::from_secs(30),
    );
    // A move made meanwhile is not sent: the page asks it again later.
    assert!(click_once(&mut browser) && click_once(&mut browser));
    std::thread::sleep(Duration::from_secs(2));
    let ask = browser.eval("document.getElementById('ask').innerText");
    assert!(!ask.as_str().unwrap().contains("stopped"), "polls that fail for 2 s end nothing: {ask}");
    cut(&mut browser, false);
    let news = click_to_the_end(&mut browser);
    assert!(news.contains("game over"), "{news}");
    let out = finished(child);
    assert!(out.contains("game 1/1"), "{out}");
}

#[test]
fn a_seats_page_refuses_any_other_token_and_keyboard_play_works() {
    let Some(chromium) = chromium() else { return };
    let mut browser = Browser::start(&chromium);
    let (mut child, url) =
        seated(&["play", "--game", "magic-forest", "human", "--seed", "1", "--in-process"]);
    browser.open(&url);
    browser.wait_for("document.querySelectorAll('#choices button').length === 8", Duration::from_secs(30));
    let token = url.rsplit('/').next().unwrap();
    let wrong: String = token.chars().rev().collect();
    let statuses = browser.eval(&format!(
        "Promise.all([
            fetch('/play/{wrong}/state').then(r => r.status),
            fetch('/play/{wrong}/answer', {{method: 'POST', body: JSON.stringify({{asked: 1, line: 'up'}})}}).then(r => r.status),
            fetch('/play/{wrong}').then(r => r.status),
            fetch('/play/{token}/answer', {{method: 'POST', body: 'x'.repeat(5000)}}).then(r => r.status),
        ])"
    ));
    assert_eq!(statuses, serde_json::json!([403, 403, 403, 413]));
    // Keys: an arrow walks, Enter walks the same way again.
    let turn =
        |b: &mut Browser| b.eval("document.getElementById('text').innerText.match(/actions left (\\d+)/)[1]");
    let before = turn(&mut browser);
    browser.eval("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowUp'}))");
    browser.wait_for(
        &format!(
            "!document.getElementById('text').innerText.includes('actions left {}')",
            before.as_str().unwrap()
        ),
        Duration::from_secs(30),
    );
    browser.wait_for("document.querySelectorAll('#choices button').length === 8", Duration::from_secs(30));
    let after = turn(&mut browser);
    browser.eval(
        "document.activeElement.blur(); document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter'}))",
    );
    browser.wait_for(
        &format!(
            "!document.getElementById('text').innerText.includes('actions left {}')",
            after.as_str().unwrap()
        ),
        Duration::from_secs(30),
    );
    // Text from the game is shown as text.
    assert_eq!(
        browser.eval("document.querySelectorAll('#news script, #text script').length"),
        serde_json::json!(0)
    );
    child.kill().unwrap();
    let _ = child.wait();
}
