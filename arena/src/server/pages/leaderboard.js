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
function showRows(groups) {
  const body = document.getElementById("rows");
  body.textContent = "";
  for (const s of groups) {
    const row = document.createElement("tr");
    row.dataset.group = s.group;
    row.append(text("td", s.group));
    for (const level of s.grade.levels) {
      row.append(text("td", level.wins + "/" + level.games, level.passed ? "pass" : "fail"));
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
async function refresh() {
  try {
    const response = await fetch("/api/leaderboard");
    const board = await response.json();
    if (!response.ok) throw new Error(board.error || response.statusText);
    showQueue(board.queue);
    showRows(board.groups);
    showRoundRobin(board.round_robin);
    // Apart: it grows with the square of the class (the browser asks with
    // the tag it has, and gets 304 while nothing changed).
    const cross = await fetch("/api/leaderboard/crosstable");
    if (cross.ok) showCrosstable(await cross.json());
    document.getElementById("error").textContent = "";
  } catch (e) {
    document.getElementById("error").textContent = "Cannot load the leaderboard: " + e.message;
  }
}
refresh();
setInterval(refresh, 2000);
