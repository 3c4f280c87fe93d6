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
  return s.status + late;
}
function grade(s) {
  const cell = document.createElement("td");
  if (s.grade) {
    const levels = s.grade.levels.map(l => l.level + " " + l.wins + "/" + l.games + (l.passed ? " ✓" : " ✗"));
    cell.append(text("div", levels.join(", ")));
    cell.append(text("div", s.grade.verdict, s.grade.passed_all ? "pass" : "fail"));
  } else if (s.error) {
    cell.append(text("pre", s.error, "error"));
  }
  return cell;
}
// The lost games' viewers of graded submissions, fetched once each.
const lost = new Map();
async function lostGames(s) {
  if (!lost.has(s.id)) lost.set(s.id, (await api("/api/submissions/" + s.id + "/replays")).replays);
  return lost.get(s.id);
}
async function openReplay(url) {
  const response = await fetch(url, { headers: { Authorization: "Bearer " + token } });
  if (!response.ok) return say("Cannot open the replay: " + response.status);
  const page = URL.createObjectURL(new Blob([await response.text()], { type: "text/html" }));
  window.open(page, "_blank");
}
async function replays(s) {
  const cell = document.createElement("td");
  if (s.status !== "done") return cell;
  for (const game of await lostGames(s)) {
    const button = text("button", game.name.replace(/^game-0*/, "game "));
    button.dataset.replay = game.name;
    button.addEventListener("click", () => openReplay(game.url));
    cell.append(button, " ");
  }
  return cell;
}
async function showAssignments() {
  const course = await api("/api/assignments");
  const lines = course.assignments.map(a => a.title + " (" + a.game + "; against " + a.levels.join(", ")
    + ", " + a.games_per_level + " games each" + (a.deadline ? "; deadline " + a.deadline + " UTC" : "") + ")");
  document.getElementById("assignments").textContent = course.course + ": " + lines.join("; ");
}
async function refresh() {
  if (!token) return;
  try {
    await showAssignments();
    const mine = await api("/api/submissions");
    const group = mine.group.members.length > 1
      ? ", group " + mine.group.name + " (" + mine.group.members.join(", ") + ")" : "";
    document.getElementById("who").textContent = "logged in as " + mine.student + group;
    const body = document.getElementById("rows");
    body.textContent = "";
    for (const s of mine.submissions) {
      const row = document.createElement("tr");
      row.dataset.status = s.status;
      row.append(text("td", String(s.id)), text("td", s.file_name + (s.student !== mine.student ? " (" + s.student + ")" : "")),
        text("td", status(s)), grade(s), await replays(s));
      body.append(row);
    }
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
refresh();
setInterval(refresh, 2000);
