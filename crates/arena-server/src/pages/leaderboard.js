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
function showCrosstable(standings) {  // {rows, crosstable}
  const table = document.getElementById("crosstable");
  table.textContent = "";
  const rows = standings.rows;
  if (rows.length < 2) return;
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
    const response = await fetch("/api/leaderboard" + query);
    const board = await response.json();
    if (!response.ok) throw new Error(board.error || response.statusText);
    showQueue(board.queue);
    showRows(board.groups);
    document.getElementById("league").hidden = !board.round_robin;
    document.getElementById("scores").hidden = !board.scores;
    if (board.scores) showScores(board.scores);
    document.getElementById("error").textContent = "";
    if (!board.round_robin) return;
    showRoundRobin(board.round_robin);
    await showLive();
    // Apart: it grows with the square of the class (the browser asks with
    // the tag it has, and gets 304 while nothing changed).
    const cross = await fetch("/api/leaderboard/crosstable" + query);
    if (cross.ok) showCrosstable(await cross.json());
    document.getElementById("error").textContent = "";
  } catch (e) {
    document.getElementById("error").textContent = "Cannot load the leaderboard: " + e.message;
  }
}
refresh();
setInterval(refresh, 2000);
