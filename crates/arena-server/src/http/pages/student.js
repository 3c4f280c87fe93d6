// The student page (student.html).
"use strict";

// The token: from a #token= link or typed in; kept in this browser only.
let token = storedToken("arena-token");
document.getElementById("token").value = token;

function say(message) {
  document.getElementById("error").textContent = message;
}
function status(s) {
  const late = s.late ? " (after the deadline: does not count)" : "";
  if (s.status === "playing") return "playing " + s.played + "/" + s.total + late;
  if (s.status === "superseded") return "superseded: a newer one of yours was waiting" + late;
  // Never failed for the machine's fault: it goes on by itself.
  if (s.status === "waiting") {
    const when = s.retry_at ? "goes on at " + s.retry_at + " UTC" : "goes on by itself";
    return s.waiting + " (not your player's fault; " + when + ")" + late;
  }
  return s.status + late;
}
function level(l) {
  // A single-player game's level: the mean score against the level's on the same worlds.
  if (l.mean !== undefined && l.mean !== null) {
    return l.level + " " + l.mean.toFixed(1) + " vs " + l.level_mean.toFixed(1) + (l.passed ? " ✓" : " ✗");
  }
  return l.level + " " + l.wins + "/" + l.games + (l.passed ? " ✓" : " ✗");
}
function grade(s) {
  const cell = document.createElement("td");
  if (s.grade) {
    const levels = s.grade.levels.map(level);
    cell.append(text("div", levels.join(", ")));
    cell.append(text("div", s.grade.verdict, s.grade.passed_all ? "pass" : "fail"));
    // A fault loses its game (each one's reason is in its replay): counted by kind.
    const faults = Object.entries(s.grade.failures || {}).filter(([, n]) => n > 0).map(([kind, n]) => n + " " + kind);
    if (faults.length) cell.append(text("div", "lost by its faults: " + faults.join(", "), "under"));
  } else if (s.error) {
    cell.append(failure(s.error));
  }
  if (s.graded_under) {
    cell.append(text("div", "graded at " + s.graded_under.time_per_turn + " a turn, " + s.graded_under.clock + " clock", "under"));
  }
  return cell;
}
// Why a submission failed, in one line: the error's first line, with the
// first problem its check found (a smoke game's fault, say `timeout`),
// which the check's report gives last, after its sandbox description.
function cause(error) {
  const lines = error.split("\n").map(l => l.trim()).filter(l => l);
  const problem = lines.find(l => l.startsWith("problem:"));
  const head = lines[0] || "";
  if (!problem || problem === head) return head;
  return head.replace(/:$/, "") + ": " + problem.slice("problem:".length).trim();
}
// A failure: its cause first, the whole report folded below it.
function failure(error) {
  const box = document.createElement("div");
  box.append(text("div", cause(error), "cause error"));
  if (error.trim().includes("\n")) {
    const details = document.createElement("details");
    details.append(text("summary", "details"), text("pre", error));
    box.append(details);
  }
  return box;
}
// The lost games' viewers of graded submissions, fetched until their
// analysis is done (it follows the grade), then kept.
const lost = new Map();
async function lostGames(s) {
  if (lost.has(s.id)) return lost.get(s.id);
  const answer = await api("/api/submissions/" + s.id + "/replays");
  if (answer.analysis !== "pending") lost.set(s.id, answer.replays);
  return answer.replays;
}
async function openReplay(url) {
  const response = await fetch(url, { headers: { Authorization: "Bearer " + token } });
  if (!response.ok) return say("Cannot open the replay: " + response.status);
  const page = URL.createObjectURL(new Blob([await response.text()], { type: "text/html" }));
  window.open(page, "_blank");
}
// A live game's viewer: opened as the replays are, the token in its
// address (#token=...) for its feed, which is the group's only.
async function openLive(url) {
  const response = await fetch(url);
  if (!response.ok) return say("Cannot watch the game: " + response.status);
  const page = URL.createObjectURL(new Blob([await response.text()], { type: "text/html" }));
  window.open(page + "#token=" + encodeURIComponent(token), "_blank");
}
// The group's games in progress (grading, scrimmages), each a button.
async function showLive() {
  const games = (await api("/api/live")).games.filter((g) => g.kind !== "league" && !g.ended);
  const box = document.getElementById("live-games");
  box.textContent = "";
  for (const g of games) {
    const button = text("button", (g.kind === "grading" ? "submission " : "scrimmage ") + g.of + ", " + g.title + " (" + g.turns + " turns)");
    button.dataset.live = String(g.id);
    button.addEventListener("click", () => openLive(g.url));
    box.append(button);
  }
  document.getElementById("watch").hidden = games.length === 0;
}
function replayButtons(cell, games) {
  // Wrapped onto as many lines as they take: never wider than the page.
  const buttons = document.createElement("div");
  buttons.className = "replays";
  for (const game of games) {
    const button = text("button", game.name.replace(/^game-0*/, "game "));
    button.dataset.replay = game.name;
    button.addEventListener("click", () => openReplay(game.url));
    buttons.append(button);
  }
  if (games.length) cell.append(buttons);
  return cell;
}
// Replays the run's size limit left out, said after the ones kept.
function leftOut(cell, n) {
  if (n) cell.append(text("div", n + " more not kept (the run's replays reached their size limit)", "under"));
  return cell;
}
// Where each lost game turned (its analysis, docs/analysis.md): "game 7
// (mine-vs-hard): turn 14, moved to (3,4): win chance 0.62 -> 0.18 ...".
function turningPoints(cell, games) {
  const turned = games.filter((g) => g.turning_point);
  if (!turned.length) return cell;
  const list = document.createElement("ul");
  list.className = "turning-points";
  for (const game of turned) {
    const m = /^game-0*(\d+)-?(.*)$/.exec(game.name);
    const label = m ? "game " + m[1] + (m[2] ? " (" + m[2] + ")" : "") : game.name;
    const item = text("li", label + ": " + game.turning_point);
    item.dataset.replay = game.name;
    list.append(item);
  }
  cell.append(list);
  return cell;
}
async function replays(s) {
  const cell = document.createElement("td");
  if (s.status !== "done") return cell;
  const games = await lostGames(s);
  return turningPoints(leftOut(replayButtons(cell, games), s.grade && s.grade.replays_left_out), games);
}
// The course's assignments, listed and offered in the forms' choices.
let course = null;
function options(select, assignments) {
  if (select.options.length === assignments.length) return;
  select.textContent = "";
  for (const a of assignments) {
    const option = text("option", a.title);
    option.value = a.name;
    select.append(option);
  }
}
async function showAssignments() {
  course = await api("/api/assignments");
  const lines = course.assignments.map(a => a.title + " (" + a.game + "; against " + a.levels.join(", ")
    + ", " + a.games_per_level + (a.single_player ? " worlds" : " games each")
    + "; " + budget(a)
    + (a.deadline ? "; deadline " + a.deadline + " UTC" : "") + ")");
  document.getElementById("assignments").textContent = course.course + ": " + lines.join("; ");
  options(document.getElementById("assignment"), course.assignments);
  options(document.getElementById("scrimmage-assignment"), course.assignments.filter(a => !a.single_player));
}
// The groups the chosen assignment lets this group challenge (those the
// leaderboard lists, but this group).
async function showOpponents() {
  const assignment = document.getElementById("scrimmage-assignment").value;
  const select = document.getElementById("opponent");
  if (!assignment) return;
  const listed = (await api("/api/scrimmages/opponents?assignment=" + encodeURIComponent(assignment))).opponents;
  const key = assignment + "\n" + listed.join("\n");
  if (select.dataset.listed === key) return;
  const chosen = select.value;
  select.textContent = "";
  for (const name of listed) {
    const option = text("option", name);
    option.value = name;
    select.append(option);
  }
  if (!listed.length) {
    // Nothing to pick (and, with an empty value, nothing sent).
    const none = text("option", "no other group has a graded submission yet");
    none.value = "";
    select.append(none);
  }
  if (listed.includes(chosen)) select.value = chosen;
  select.dataset.listed = key;
}
document.getElementById("scrimmage-assignment").addEventListener("change", () => showOpponents().catch(e => say(e.message)));
// The group's final results, once staff finalized an assignment.
async function showFinal() {
  const final = await api("/api/final");
  const body = document.getElementById("final-rows");
  body.textContent = "";
  for (const r of final.results) {
    const row = document.createElement("tr");
    row.dataset.final = r.assignment;
    const points = r.points === null ? "" : r.points + (r.possible === null ? "" : " of " + r.possible);
    const rank = r.rank === null ? "" : r.rank + " of " + r.groups;
    row.append(text("td", r.title), text("td", points), text("td", rank),
      text("td", r.groups_defeated === null ? "" : String(r.groups_defeated)));
    body.append(row);
  }
  document.getElementById("final").hidden = final.results.length === 0;
}
function titleOf(name) {
  const a = course && course.assignments.find(a => a.name === name);
  return a ? a.title : name;
}
// The group's lists come a page at a time, newest first (the server's
// `?before=&limit=`): each refresh fetches as many pages as asked for here,
// one at first; "older ones" asks for one more.
const pagesShown = { rows: 1, scrimmages: 1 };
for (const list of Object.keys(pagesShown)) {
  document.querySelector("#" + list + "-more button").addEventListener("click", () => {
    pagesShown[list] += 1;
    refresh();
  });
}
// `path`'s first `pagesShown[list]` pages: the first answer, with the rows
// of `key` of them all; and the line under the table says how many of how many.
async function pages(path, key, list) {
  const first = await api(path);
  let answer = first;
  const rows = first[key].slice();
  for (let page = 1; page < pagesShown[list] && answer.next; page++) {
    answer = await api(answer.next);
    rows.push(...answer[key]);
  }
  const more = document.getElementById(list + "-more");
  more.hidden = rows.length >= first.total;
  more.querySelector("span").textContent = "the newest " + rows.length + " of " + first.total + ";";
  more.querySelector("button").hidden = !answer.next;
  return Object.assign({}, first, { [key]: rows });
}
async function showScrimmages() {
  const mine = await pages("/api/scrimmages", "scrimmages", "scrimmages");
  const body = document.getElementById("scrimmages");
  body.textContent = "";
  for (const s of mine.scrimmages) {
    const row = document.createElement("tr");
    row.dataset.status = s.status;
    const result = s.result ? s.result.wins + "/" + s.result.draws + "/" + s.result.losses
      : s.status === "playing" ? s.played + "/" + s.total + " played" : (s.error || "");
    row.append(text("td", String(s.id)), text("td", titleOf(s.assignment)), text("td", s.challenger),
      text("td", s.opponent), text("td", s.status), text("td", result),
      leftOut(replayButtons(document.createElement("td"), s.replays), s.result && s.result.replays_left_out));
    body.append(row);
  }
}
async function refresh() {
  if (!token) return;
  try {
    await showAssignments();
    const mine = await pages("/api/submissions", "submissions", "rows");
    const group = mine.group.members.length > 1
      ? ", group " + mine.group.name + " (" + mine.group.members.join(", ") + ")" : "";
    document.getElementById("who").textContent = "logged in as " + mine.student + group;
    const body = document.getElementById("rows");
    body.textContent = "";
    for (const s of mine.submissions) {
      const row = document.createElement("tr");
      row.dataset.status = s.status;
      row.append(text("td", String(s.id)), text("td", titleOf(s.assignment)),
        text("td", s.file_name + (s.student !== mine.student ? " (" + s.student + ")" : "")),
        text("td", status(s)), grade(s), await replays(s));
      body.append(row);
    }
    await showLive();
    await showScrimmages();
    await showOpponents();
    showPlayChoices();
    await showFinal();
    say("");
  } catch (e) {
    say(e.message);
  }
}
document.getElementById("login").addEventListener("submit", event => {
  event.preventDefault();
  token = document.getElementById("token").value.trim();
  localStorage.setItem("arena-token", token);
  refresh();
});
document.getElementById("upload").addEventListener("submit", async event => {
  event.preventDefault();
  const file = document.getElementById("file").files[0];
  if (!file) return;
  const form = new FormData();
  form.append("assignment", document.getElementById("assignment").value);
  form.append("file", file, file.name);
  try {
    const accepted = await api("/api/submissions", { method: "POST", body: form });
    document.getElementById("sent").textContent = "submission " + accepted.id + " queued";
    say("");
  } catch (e) {
    say(e.message);
  }
  refresh();
});
document.getElementById("challenge").addEventListener("submit", async event => {
  event.preventDefault();
  const body = JSON.stringify({
    opponent: document.getElementById("opponent").value,
    assignment: document.getElementById("scrimmage-assignment").value,
  });
  try {
    const made = await api("/api/scrimmages", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    document.getElementById("challenged").textContent = "scrimmage " + made.id + " queued";
    say("");
  } catch (e) {
    say(e.message);
  }
  refresh();
});
// Playing yourself (POST /api/play): the two-player assignments, and
// against whom (the group's submission or one of the assignment's levels).
function showPlayChoices() {
  const assignments = course.assignments.filter(a => !a.single_player);
  options(document.getElementById("play-assignment"), assignments);
  const chosen = assignments.find(a => a.name === document.getElementById("play-assignment").value);
  const select = document.getElementById("play-opponent");
  const choices = chosen ? [["ours", "our submission"]].concat(chosen.levels.map(l => [l, "level " + l])) : [];
  listChoices(select, choices);
}
document.getElementById("play-assignment").addEventListener("change", showPlayChoices);
// Starts a game and opens its page (a link too, in case the browser blocks
// the new tab); a refusal (one at a time, a few an hour) is said in one line.
document.getElementById("play").addEventListener("submit", async event => {
  event.preventDefault();
  const line = document.getElementById("played");
  line.textContent = "";
  line.className = "";
  const body = JSON.stringify({
    assignment: document.getElementById("play-assignment").value,
    opponent: document.getElementById("play-opponent").value,
  });
  try {
    const started = await api("/api/play", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    const link = text("a", "your game's page");
    link.href = started.page;
    link.target = "_blank";
    link.id = "play-page";
    line.append("started: ", link);
    window.open(started.page, "_blank");
  } catch (e) {
    line.textContent = e.message;
    line.className = "error";
  }
});
refresh();
setInterval(refresh, 2000);
