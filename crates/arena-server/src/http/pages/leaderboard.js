// The leaderboard page (leaderboard.html).
"use strict";

function showQueue(queue) {
  const box = document.getElementById("queue");
  box.textContent = "";
  if (queue.grading) {
    box.append("Grading a submission: " + queue.grading.played + "/" + queue.grading.total + " games ");
    const bar = document.createElement("progress");
    bar.max = queue.grading.total || 1;
    bar.value = queue.grading.played;
    box.append(bar);
    box.append(queue.waiting ? " (" + queue.waiting + " waiting)" : "");
  } else {
    box.append(queue.waiting ? queue.waiting + " submission(s) waiting" : "No grading running.");
  }
}
// The assignment shown: ?assignment=NAME, else the course's first.
const shown = new URLSearchParams(location.search).get("assignment");
const query = shown ? "?assignment=" + encodeURIComponent(shown) : "";
// Which page of a large field: a search (q) and the rows skipped. A class
// fits in one page; a field of thousands comes a page at a time.
// Both may come in the page's address (?q=NAME: a link to a group's rows).
const paging = {
  q: new URLSearchParams(location.search).get("q") || "",
  offset: Number(new URLSearchParams(location.search).get("offset")) || 0,
};
document.getElementById("q").value = paging.q;
function pageQuery() {
  const params = new URLSearchParams(query.slice(1));
  if (paging.q) params.set("q", paging.q);
  if (paging.offset) params.set("offset", String(paging.offset));
  const text = params.toString();
  return text ? "?" + text : "";
}
function showPaging(page) {
  const total = Math.max(page.groups, page.ranked);
  const shownRows = Math.min(page.limit, Math.max(0, total - page.offset));
  document.getElementById("where").textContent = total > page.limit || page.q
    ? (total ? (page.offset + 1) + "–" + (page.offset + shownRows) + " of " + total + (page.q ? " matching" : "") : "no group matches")
    : "";
  const prev = document.getElementById("prev"), next = document.getElementById("next");
  prev.hidden = page.offset === 0;
  next.hidden = page.offset + page.limit >= total;
  prev.onclick = () => { paging.offset = Math.max(0, page.offset - page.limit); refresh(); };
  next.onclick = () => { paging.offset = page.offset + page.limit; refresh(); };
}
document.getElementById("find").addEventListener("submit", (e) => e.preventDefault());
document.getElementById("q").addEventListener("input", (e) => {
  paging.q = e.target.value.trim();
  paging.offset = 0;
  refresh();
});
async function showAssignments() {
  const course = await (await fetch("/api/assignments")).json();
  const nav = document.getElementById("assignments");
  const current = course.assignments.find(a => a.name === shown) || course.assignments[0];
  nav.textContent = "";
  if (course.assignments.length > 1) {
    for (const a of course.assignments) {
      const link = text(a === current ? "strong" : "a", a.title);
      if (a !== current) link.href = "/?assignment=" + encodeURIComponent(a.name);
      nav.append(link, " ");
    }
  }
  const head = document.getElementById("head");
  head.textContent = "";
  head.append(text("th", "Group"));
  for (const level of current.levels) head.append(text("th", level[0].toUpperCase() + level.slice(1)));
  head.append(text("th", "Verdict"), text("th", "Graded"));
  const pass = current.single_player
    ? ": " + current.games_per_level + " worlds, a mean score against each level's on the same worlds"
    : ": " + current.games_per_level + " games against each level (passing at " + current.wins_to_pass.join(", ") + " wins)";
  document.getElementById("grading").textContent = " for " + current.title + pass;
  document.getElementById("budget").textContent = current.title + ": " + budget(current) + ".";
}
function showScores(scores) {
  const body = document.getElementById("score-rows");
  body.textContent = "";
  for (const r of scores.rows) {
    const row = document.createElement("tr");
    row.dataset.scoreGroup = r.group;
    row.append(text("td", String(r.rank)), text("td", r.group), text("td", r.mean.toFixed(2)));
    body.append(row);
  }
  for (const l of scores.levels) {
    const row = document.createElement("tr");
    row.append(text("td", ""), text("td", l.level + " (level)"), text("td", l.mean === null ? "" : l.mean.toFixed(2)));
    body.append(row);
  }
}
function showRows(groups) {
  const body = document.getElementById("rows");
  body.textContent = "";
  for (const s of groups) {
    const row = document.createElement("tr");
    row.dataset.group = s.group;
    row.append(text("td", s.group));
    for (const level of s.grade.levels) {
      const cell = level.mean === undefined || level.mean === null
        ? level.wins + "/" + level.games : level.mean.toFixed(1) + " vs " + level.level_mean.toFixed(1);
      row.append(text("td", cell, level.passed ? "pass" : "fail"));
    }
    row.append(text("td", s.grade.verdict, s.grade.passed_all ? "pass" : "fail"));
    row.append(text("td", s.finished || ""));
    body.append(row);
  }
}
function showRoundRobin(rr) {
  document.getElementById("pairing").textContent = rr.games_per_pairing;
  const standings = rr.standings;
  document.getElementById("rr-progress").textContent =
    rr.games_to_play ? standings.games + " games played (a full round robin would be " + rr.games_to_play + ")." : "";
  const body = document.getElementById("rr-rows");
  body.textContent = "";
  for (const r of standings.rows) {
    const row = document.createElement("tr");
    row.dataset.rrStudent = r.name;
    const elo = r.games ? Math.round(r.elo) + (r.elo_error === null ? "" : " ± " + Math.round(r.elo_error)) : "";
    row.append(text("td", String(r.rank)), text("td", r.name), text("td", String(r.wins)),
      text("td", String(r.draws)), text("td", String(r.losses)),
      text("td", r.games ? (100 * r.score).toFixed(0) + "%" : ""), text("td", elo));
    body.append(row);
  }
}
function showCrosstable(standings, one) {  // {rows, crosstable}; one: a group's row only
  const table = document.getElementById("crosstable");
  table.textContent = "";
  const rows = standings.rows;
  if (rows.length < 2) return;
  if (one) {
    // A large field: the group's results against each group it met.
    const me = rows.find(r => r.name === one);
    const byId = new Map(rows.map(r => [r.id, r]));
    const head = document.createElement("tr");
    head.append(text("th", "Against"), text("th", one + ": won-drawn-lost"));
    table.append(head);
    for (const v of standings.crosstable) {
      if (!me || v.player !== me.id) continue;
      const row = document.createElement("tr");
      row.dataset.crossStudent = (byId.get(v.opponent) || {}).name || "";
      row.append(text("td", row.dataset.crossStudent), text("td", v.wins + "-" + v.draws + "-" + v.losses));
      table.append(row);
    }
    return;
  }
  const cell = new Map(standings.crosstable.map(v => [v.player + "," + v.opponent, v]));
  const head = document.createElement("tr");
  head.append(text("th", ""));
  for (const r of rows) head.append(text("th", r.name));
  table.append(head);
  for (const r of rows) {
    const row = document.createElement("tr");
    row.dataset.crossStudent = r.name;
    row.append(text("th", r.name));
    for (const o of rows) {
      const v = cell.get(r.id + "," + o.id);
      row.append(text("td", r.id === o.id ? "" : v ? v.wins + "-" + v.draws + "-" + v.losses : "·"));
    }
    table.append(row);
  }
}
// The league's games in progress, each a link to its live viewer (anyone's).
async function showLive() {
  const response = await fetch("/api/live");
  if (!response.ok) return;
  const games = (await response.json()).games.filter((g) => g.kind === "league" && !g.ended);
  const list = document.getElementById("live-games");
  list.textContent = "";
  if (!games.length) list.append(text("li", "None."));
  for (const g of games) {
    const item = document.createElement("li"), link = text("a", g.title);
    link.href = g.url;
    item.append(link, document.createTextNode(" \u00b7 " + g.turns + " turns"));
    list.append(item);
  }
}
async function refresh() {
  try {
    if (!document.getElementById("head").dataset.shown) {
      await showAssignments();
      document.getElementById("head").dataset.shown = "yes";
    }
    const response = await fetch("/api/leaderboard" + pageQuery());
    const board = await response.json();
    if (!response.ok) throw new Error(board.error || response.statusText);
    showQueue(board.queue);
    showRows(board.groups);
    showPaging(board.page);
    document.getElementById("league").hidden = !board.round_robin;
    document.getElementById("scores").hidden = !board.scores;
    if (board.scores) showScores(board.scores);
    document.getElementById("error").textContent = "";
    if (!board.round_robin) return;
    showRoundRobin(board.round_robin);
    await showLive();
    // Apart: it grows with the square of the field (the browser asks with
    // the tag it has, and gets 304 while nothing changed). Beyond a class's
    // size it comes a group at a time: the one searched for.
    const rows = board.round_robin.standings.rows;
    const whole = board.page.field <= 200;
    const one = !whole && paging.q && rows.length === 1 ? rows[0].name : null;
    document.getElementById("cross-help").textContent = whole
      ? "Each row's wins, draws and losses against each column."
      : "Search for a group to see its results against each group it met.";
    if (!whole && !one) { showCrosstable({ rows: [] }); return; }
    const cross = await fetch("/api/leaderboard/crosstable" + (one
      ? (query ? query + "&" : "?") + "group=" + encodeURIComponent(one) : query));
    if (cross.ok) showCrosstable(await cross.json(), one);
    document.getElementById("error").textContent = "";
  } catch (e) {
    document.getElementById("error").textContent = "Cannot load the leaderboard: " + e.message;
  }
}
refresh();
setInterval(refresh, 2000);
