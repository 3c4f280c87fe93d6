// The viewer's charts along the game, shared by every page that shows a
// replay (a file's viewer, `arena analyse --html`, the live viewer, the
// server's): the advantage chart (an analysis's win chance or expected
// score after each turn, its marks as dots) and the think-time chart (each
// turn's time against what it could use: its budget per turn, or its
// bank's time left, capped). Each draws an SVG into its box from the replay
// as it stands (a live game redraws it after each turn); a click jumps to
// the turn under it (`go(n)`); `now(n)` marks the turn shown.
window.ArenaCharts = (function () {
  "use strict";
  const W = 600;
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const unit = { us: 1, ms: 1e3, s: 1e6 };

  // A duration as a time control writes it ("5s", "250ms", "1.5us"), in
  // microseconds; null if it is not one.
  function micros(text) {
    const m = /^([\d.]+)(us|ms|s)$/.exec(String(text).trim());
    return m ? Number(m[1]) * unit[m[2]] : text.trim() === "0" ? 0 : null;
  }

  // A time control as replays write it: `5s` (a budget per turn), `60s+1s`
  // or `60s+1s,cap=5s` (a bank, its increment, its cap).
  function parseControl(text) {
    const [main, extra] = String(text).split(",");
    const [base, increment] = main.split("+");
    if (increment === undefined) return { perTurn: micros(base) };
    const cap = extra && extra.trim().startsWith("cap=") ? micros(extra.trim().slice(4)) : null;
    return { base: micros(base), increment: micros(increment) || 0, cap };
  }

  // How seat `seat` (1 or 2) was timed: its own control, the game's bank,
  // or the settings' budget per turn (time_per_<turn>_ms).
  function controlOf(replay, seat) {
    const s = replay.settings, own = s.seat_time_controls && s.seat_time_controls[seat - 1];
    const written = own || s.time_control;
    if (written) return parseControl(written);
    const key = Object.keys(s).find((k) => /^time_per_\w+_ms$/.test(k));
    return { perTurn: key ? s[key] * 1000 : null };
  }

  // For each frame (null for the start), what its turn could use before it
  // was late (`limit`, in µs) and, under a bank, the bank before it: a
  // bank's limit is its time left (recorded after each turn as
  // bank_left_us), at most its cap.
  function limits(replay, frames) {
    const banks = {};
    return frames.map((f, i) => {
      if (i === 0 || !f.seat) return null;
      const control = controlOf(replay, f.seat);
      if (control.base == null) return { limit: control.perTurn, bank: null };
      const before = f.seat in banks ? banks[f.seat] : control.base;
      banks[f.seat] = f.bank_left_us != null ? f.bank_left_us : Math.max(0, before - (f.time_us || 0)) + control.increment;
      return { limit: control.cap != null ? Math.min(control.cap, before) : before, bank: before };
    });
  }

  function formatTime(us) {
    if (us == null) return "\u2013";
    if (us < 1000) return Math.round(us) + " \u00b5s";
    if (us < 1e6) return (us / 1000).toFixed(1) + " ms";
    return (us / 1e6).toFixed(2) + " s";
  }

  // The turn under a click at `clientX` on `box`, of `last` turns.
  function turnAt(box, clientX, last) {
    const r = box.getBoundingClientRect();
    return Math.round(((clientX - r.left) / r.width) * last);
  }

  // The think-time chart: a bar per turn, its time as a share of its limit
  // (the dashed line; a turn past it is late, drawn full and red), in its
  // seat's colour. Without a known limit (an old replay), shares of the
  // longest turn. Its SVG's data-most is the largest share (a test reads it).
  function thinkTime(box, replay, frames, go) {
    const last = frames.length - 1, h = 64, top = 8, n = Math.max(1, last);
    const caps = limits(replay, frames);
    const longest = Math.max(1, ...frames.map((f) => f.time_us || 0));
    const y = (share) => h - (h - top) * Math.min(share, h / (h - top));
    let most = 0;
    const bars = frames.map((f, i) => {
      if (i === 0) return "";
      const used = f.time_us || 0, cap = caps[i] && caps[i].limit;
      const share = cap ? used / cap : used / longest;
      most = Math.max(most, share);
      const x = (W * (i - 1)) / n, w = Math.max(0.5, W / n - (n > 60 ? 0 : 1));
      const of = cap ? " of " + formatTime(cap) + (caps[i].bank != null ? " (bank " + formatTime(caps[i].bank) + ")" : "") +
        " (" + Math.round(100 * share) + "%)" : "";
      const yy = Math.min(h - 1, y(share));
      return '<g class="turn" data-turn="' + i + '"><title>turn ' + i + ": " + esc(formatTime(f.time_us) + of) + "</title>" +
        '<rect class="hit" x="' + x.toFixed(1) + '" y="0" width="' + (W / n).toFixed(1) + '" height="' + h + '"/>' +
        '<rect class="bar s' + esc(f.seat || 1) + (cap && used > cap ? " late" : "") + '" x="' + x.toFixed(1) + '" y="' + yy.toFixed(1) +
        '" width="' + w.toFixed(1) + '" height="' + (h - yy).toFixed(1) + '"/></g>';
    }).join("");
    const limitLine = caps.some((c) => c && c.limit) ? '<line class="limit" x1="0" x2="' + W + '" y1="' + top + '" y2="' + top + '"/>' : "";
    box.innerHTML = '<svg viewBox="0 0 ' + W + " " + h + '" preserveAspectRatio="none" data-most="' + most.toFixed(4) + '">' +
      limitLine + bars + "</svg>";
    box.onclick = (e) => {
      const turn = e.target.closest && e.target.closest(".turn");
      go(turn ? Number(turn.dataset.turn) : turnAt(box, e.clientX, last));
    };
  }

  // The advantage chart of `replay.analysis` (hidden without one): player
  // 1's win chance, or the expected score, after each turn; marks as dots.
  function advantage(box, replay, last, go) {
    const a = replay.analysis;
    box.hidden = !a;
    if (!a) return;
    const span = a.measure.kind === "win_chance" ? 1 : a.measure.span;
    const low = a.measure.kind === "win_chance" ? 0 : Math.min(0, ...a.turns.map((t) => t.after));
    // Player 1's view: a two-player turn by player 2 is seen from the other side.
    const own = (t, v) => (a.measure.kind === "win_chance" && t.player === 1 ? 1 - v : v);
    const h = 80, x = (n) => (W * n) / Math.max(1, last);
    const y = (v) => h - (h * (v - low)) / span;
    const points = a.turns.map((t) => x(t.turn).toFixed(1) + "," + y(own(t, t.after)).toFixed(1));
    const first = a.turns[0];
    if (first) points.unshift("0," + y(own(first, first.before)).toFixed(1));
    const marks = a.turns.filter((t) => t.mark).map((t) =>
      '<circle class="mark ' + esc(t.mark) + '" data-turn="' + t.turn + '" cx="' + x(t.turn).toFixed(1) + '" cy="' +
      y(own(t, t.after)).toFixed(1) + '" r="4"><title>turn ' + t.turn + ": " + esc(t.mark) + "</title></circle>").join("");
    box.innerHTML = '<svg viewBox="0 0 ' + W + " " + h + '" preserveAspectRatio="none">' +
      '<line x1="0" x2="' + W + '" y1="' + y(low + span / 2) + '" y2="' + y(low + span / 2) + '" class="mid"/>' +
      '<polyline points="' + points.join(" ") + '"/>' + marks + '<line class="now" x1="0" x2="0" y1="0" y2="' + h + '"/></svg>';
    box.onclick = (e) => go(turnAt(box, e.clientX, last));
  }

  // Marks turn `at` of `last` in both charts.
  function now(at, last) {
    const line = document.querySelector("#advantage .now");
    if (line) line.setAttribute("transform", "translate(" + (W * at) / Math.max(1, last) + ",0)");
    document.querySelectorAll("#timeline .turn").forEach((g) => g.classList.toggle("now", Number(g.dataset.turn) === at));
  }

  return { advantage, thinkTime, now, limits, formatTime };
})();
