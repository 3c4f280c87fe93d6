// The replay viewer, the same for every game. A game plugs in by adding
// ArenaGames[name] = { title, legend, settingsText(replay), frames(replay),
// draw(board, frame, replay), describe(frame, replay, names) }
// (see games/<game>/viewer.js), and optionally css (its board's styles),
// stepName ("Reveal") and stepsNoun ("reveals"); frames[0] is the start and
// each later frame one turn, with { seat: 1 | 2, time_us } for the timeline
// (seat 1 in one-player games). Its functions may use the helpers in
// window.ArenaView below. The budget of a turn is the settings'
// time_per_<turn>_ms; a one-player game's rows start with its player.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  window.ArenaView = {
    // `s` safe in HTML.
    esc,
    // Whether cells a and b (pairs) are the same one; whether `list` holds `cell`.
    same,
    has: (list, cell) => list.some((c) => same(c, cell)),
    // What adds a row's or a column's label to `board`.
    labels: (board) => (text) => {
      const l = document.createElement("div");
      l.className = "label";
      l.textContent = text;
      board.appendChild(l);
    },
    // The budget of one turn ("5 s", "300 ms").
    budgetText(replay) {
      const key = Object.keys(replay.settings).find((k) => /^time_per_\w+_ms$/.test(k));
      const ms = replay.settings[key];
      return ms >= 1000 ? ms / 1000 + " s" : ms + " ms";
    },
    // How a seat (1 or 2) is timed: its own control, the game's bank, or
    // the budget per `unit` ("5 s per turn", "a 60s+1s time bank").
    controlText(replay, seat, unit) {
      const s = replay.settings, own = s.seat_time_controls && s.seat_time_controls[seat - 1];
      const control = own || s.time_control;
      if (!control) return ArenaView.budgetText(replay) + " per " + unit;
      return control.includes("+") ? "a " + control + " time bank" : control + " per " + unit;
    },
    // The settings line's time: one control for all, or each seat's.
    timeText(replay, unit) {
      const own = replay.settings.seat_time_controls;
      if (!own) return ArenaView.controlText(replay, 1, unit);
      return own.map((_, i) => ArenaView.controlText(replay, i + 1, unit) + " (player " + (i + 1) + ")").join(", ");
    },
  };
  const data = $("replay-data");
  // A live game's feed (server-sent events: docs/replays.md), or none: a
  // finished replay, inline.
  const feed = data.dataset.live;
  const slider = $("slider");
  let replay = null, game = null, frames = [], last = 0, names = [];
  let at = 0, timer = null, speed = 2, live = false, steps = null, judging = false;
  const styled = {};

  // Shows `next`, a whole replay or one in progress; `keep` keeps the
  // turn shown (a feed's end), else the view follows the newest turn if it
  // showed the last one. `analysis` is kept from the replay it replaces (a
  // live game's, until its final one comes).
  function load(next, seed, analysis) {
    replay = next;
    if (analysis && !replay.analysis) replay.analysis = analysis;
    // Seeds are 64-bit: JSON.parse would round them, so the page (or the feed) carries the digits too.
    replay.seed = seed || replay.seed;
    game = window.ArenaGames && window.ArenaGames[replay.game];
    if (!game) {
      document.body.innerHTML = '<div class="error">This viewer cannot draw the game "' + esc(replay.game) + '".</div>';
      return false;
    }
    if (game.css && !styled[replay.game]) {
      styled[replay.game] = true;
      const style = document.createElement("style");
      style.textContent = game.css;
      document.head.appendChild(style);
    }
    names = replay.players.map((p) => p.name);
    document.title = (live ? "Live: " : "") + game.title + ": " + names.join(" vs ") + " (seed " + replay.seed + ")";
    $("game-title").textContent = game.title + (live ? " \u00b7 live" : "");
    $("players").innerHTML = names.map((n, i) => '<span class="p' + (i + 1) + '">' + esc(n) + "</span>").join(" vs ");
    $("legend").innerHTML = game.legend || "";
    $("meta").textContent = "seed " + replay.seed + " \u00b7 " + game.settingsText(replay) + " \u00b7 arena " + replay.arena;
    refresh();
    return true;
  }

  // Frames and the timeline, from the replay as it stands.
  function refresh() {
    frames = game.frames(replay);
    last = frames.length - 1;
    slider.max = String(last);
    drawCharts();
  }

  // The analysis beside the replay (`arena analyse --html`, the server's
  // lost games), by turn number.
  function analysed(n) {
    const a = replay.analysis;
    return a && a.turns.find((t) => t.turn === n);
  }
  // The charts along the game (charts.js): think time, and the advantage
  // with an analysis; a click jumps to a turn.
  function drawCharts() {
    const jump = (n) => { stop(); go(n); };
    ArenaCharts.thinkTime($("timeline"), replay, frames, jump);
    ArenaCharts.advantage($("advantage"), replay, last, jump);
  }
  const formatTime = ArenaCharts.formatTime;

  function resultText() {
    const r = replay.result;
    const steps = r.turns + " " + (game.stepsNoun || "turns");
    if (live) return "Live \u2014 " + steps + " so far";
    // One-player games: the outcome and the score.
    if (r.outcome) return r.outcome[0].toUpperCase() + r.outcome.slice(1) + " \u2014 score " + r.score + " \u2014 " + r.reason + " after " + steps;
    const verdict = r.winner == null ? "Draw" : names[r.winner] + " (player " + (r.winner + 1) + ") wins";
    return verdict + " \u2014 " + r.reason + " after " + steps;
  }

  function render() {
    const frame = frames[at];
    game.draw($("board"), frame, replay);
    $("turn-counter").textContent = at === 0 ? "Start \u00b7 0 / " + last : (game.stepName || "Turn") + " " + at + " / " + last;
    const rows = game.describe(frame, replay, names);
    if (names.length === 1) rows.unshift(["Player", '<span class="who p1">' + esc(names[0]) + "</span>"]);
    if (at > 0) {
      const timed = replay.settings.seat_time_controls || replay.settings.time_control;
      const of = timed ? ArenaView.controlText(replay, frame.seat, game.stepName ? game.stepName.toLowerCase() : "turn") : ArenaView.budgetText(replay);
      rows.push(["Time used", formatTime(frame.time_us) + " of " + esc(of)]);
      if (frame.bank_left_us != null) rows.push(["Bank left", formatTime(frame.bank_left_us)]);
    }
    const judged = analysed(at);
    if (judged) {
      const what = replay.analysis.measure.kind === "win_chance" ? "Win chance" : "Expected score";
      rows.push([what, judged.before.toFixed(2) + " \u2192 " + judged.after.toFixed(2)]);
      if (judged.mark) {
        rows.push(["Mark", '<span class="mark ' + esc(judged.mark) + '">' + esc(judged.mark) + "</span>"]);
        rows.push(["Best was", esc(judged.best) + " (" + judged.best_value.toFixed(2) + ")"]);
      }
    }
    ArenaCharts.now(at, last);
    $("turn-info").innerHTML = rows.map(([label, html]) =>
      '<div class="row"><span class="label">' + esc(label) + "</span><span>" + html + "</span></div>").join("");
    const result = $("result");
    result.textContent = at === last ? resultText() : "";
    result.className = "result" + (at === last ? " shown" : "");
    slider.value = String(at);
    $("play").textContent = timer ? "\u23f8 Pause" : "\u25b6 Play";
    document.body.dataset.turn = String(at);
    document.body.dataset.turns = String(last);
    document.body.dataset.state = live ? "live" : "over";
    ArenaNotes.show($("notes"), replay, at, last, names);
  }

  function go(n) { at = Math.max(0, Math.min(last, n)); render(); }
  function stop() { if (timer) { clearInterval(timer); timer = null; } render(); }
  function play() {
    if (timer) return stop();
    if (at === last) at = 0;
    timer = setInterval(() => { if (at >= last) stop(); else go(at + 1); }, 1000 / speed);
    render();
  }

  $("first").addEventListener("click", () => { stop(); go(0); });
  $("prev").addEventListener("click", () => { stop(); go(at - 1); });
  $("next").addEventListener("click", () => { stop(); go(at + 1); });
  $("last").addEventListener("click", () => { stop(); go(last); });
  $("play").addEventListener("click", play);
  slider.addEventListener("input", () => { const wanted = Number(slider.value); stop(); go(wanted); });
  $("speed").addEventListener("change", () => {
    speed = Number($("speed").value);
    if (timer) { clearInterval(timer); timer = null; play(); }
  });
  document.addEventListener("keydown", (e) => {
    const keys = { ArrowRight: () => $("next").click(), ArrowLeft: () => $("prev").click(), Home: () => $("first").click(),
      End: () => $("last").click(), " ": () => play() };
    if (replay && keys[e.key] && e.target.tagName !== "SELECT") { e.preventDefault(); keys[e.key](); }
  });

  if (!feed) {
    if (load(JSON.parse(data.textContent), data.dataset.seed)) {
      const wanted = /turn=(\d+)/.exec(location.hash);
      go(wanted ? Number(wanted[1]) : 0);
    }
    return;
  }

  // A live game: `start` is the replay before its first turn, each `turn`
  // appends a record to its list of turns (the one list that grows) and
  // sets the fields it changes, `end` is the replay file, whole. Frames
  // are made from the replay as for a file: the same code draws both.
  // With `analysed` at the start, `analysis` events bring the game's
  // analysis so far (the advantage chart grows), the final one after `end`.
  // For tests: the replay as it stands.
  window.ArenaLive = { replay: () => replay, frames: () => frames };
  // A replay's seed in digits: its first "seed" field (the envelope's, before
  // any name: a name's quotes are escaped, so it cannot match).
  const seedOf = (text) => { const m = /"seed": ?(\d+)/.exec(text); return m && m[1]; };
  $("game-title").textContent = "Waiting for a game\u2026";
  const handlers = {
    start(data) {
      const start = JSON.parse(data);
      live = true;
      steps = null;
      judging = !!start.analysed;
      delete document.body.dataset.analysed;
      if (!load(start.replay, seedOf(data))) return false;
      steps = start.list;
      stop();
      go(0);
    },
    turn(data) {
      if (!replay || !steps) return;
      const turn = JSON.parse(data), following = at === last;
      replay[steps].push(turn.record);
      Object.assign(replay, turn.set);
      replay.result.turns = replay[steps].length;
      refresh();
      go(following && !timer ? last : at);
    },
    end(data) {
      const following = at === last;
      live = false;
      if (!load(JSON.parse(data), seedOf(data), replay && replay.analysis)) return false;
      go(following ? last : at);
      // A page on one game stops here (or at its final analysis); one that
      // follows a run waits for the next game's start.
      if (!follows && !judging) return false;
    },
    analysis(data) {
      if (!replay) return;
      const judged = JSON.parse(data);
      replay.analysis = judged.analysis;
      // For tests: the turns judged so far, "final" once the game's last is in.
      document.body.dataset.analysed = judged.final ? "final" : String(judged.turns);
      drawCharts();
      render();
      if (judged.final && !follows) return false;
    },
    over() { return false; },
  };
  const follows = data.dataset.follow;
  // Read with fetch, not EventSource: a server's feed may need the token
  // the page was opened with (#token=..., as the server's pages pass it).
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  async function listen() {
    // A page opened as a blob (the server's student page does so) resolves
    // the feed's path against the origin that made it.
    const url = new URL(feed, location.protocol === "blob:" ? location.origin : location.href);
    const response = await fetch(url, { headers: token ? { Authorization: "Bearer " + token } : {} });
    if (!response.ok) {
      $("game-title").textContent = "This game cannot be watched (" + response.status + ")";
      return true;
    }
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let name = "message";
        const lines = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event: ")) name = line.slice(7);
          else if (line.startsWith("data: ")) lines.push(line.slice(6));
        }
        const handler = handlers[name];
        if (handler && lines.length && handler(lines.join("\n")) === false) {
          reader.cancel();
          return true;
        }
      }
    }
  }
  // A connection lost before the end is opened again (the game so far comes again).
  (async function watch() {
    let finished = false;
    try { finished = await listen(); } catch (e) { finished = false; }
    if (!finished && (live || !replay)) setTimeout(watch, 2000);
  })();
})();
