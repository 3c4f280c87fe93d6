// The staff page (staff.html).
"use strict";

let token = storedToken("arena-staff-token");
document.getElementById("token").value = token;
const $ = id => document.getElementById(id);
function showFinal(state) {
  const status = state.status;
  $("final-status").textContent = status === "done" ? "done: " + state.students + " student(s)"
    : status === "failed" ? "failed: " + state.error : status === "running" ? "running…" : "";
  if (status === "done" && state.fresh) $("final-status").textContent += " (" + state.fresh + ")";
  $("grades").disabled = status !== "done";
  $("gradebook").disabled = status !== "done";
  $("finalize").disabled = status === "running";
}
// The assignment the deadline, finalize and grades.csv are about.
const chosen = () => "?assignment=" + encodeURIComponent($("assignment").value);
let course = null;
function titleOf(name) {
  const a = course && course.assignments.find(a => a.name === name);
  return a ? a.title : name;
}
async function showAssignments() {
  if ($("assignment").options.length) return;
  course = await api("/api/assignments");
  for (const a of course.assignments) {
    const option = text("option", a.title + " (" + a.game + ")");
    option.value = a.name;
    $("assignment").append(option);
  }
}
async function refresh() {
  if (!token) return;
  try {
    await showAssignments();
    const roster = await api("/api/staff/roster");
    const selected = $("assignment").value;
    const shownAssignment = course.assignments.find(a => a.name === selected);
    $("budget").textContent = shownAssignment ? budget(shownAssignment) : "";
    $("graded-head").textContent = "Graded (" + titleOf(selected) + ")";
    const deadline = roster.deadlines[selected];
    $("deadline").textContent = deadline ? deadline + " UTC" : "none";
    const body = $("roster");
    body.textContent = "";
    for (const s of roster.students) {
      const row = document.createElement("tr");
      row.dataset.name = s.name;
      const latest = s.latest ? "#" + s.latest[0] + " " + titleOf(s.latest[2]) + " " + s.latest[1] : "";
      const marks = (s.staff ? " (staff)" : "") + (s.removed ? " (removed " + s.removed + " UTC)" : "");
      row.append(text("td", s.name + marks), text("td", s.group),
        text("td", String(s.submissions)), text("td", latest), text("td", (s.graded_in || []).includes(selected) ? "yes" : "no"));
      body.append(row);
    }
    const groups = await api("/api/staff/groups");
    $("groups").textContent = "";
    $("testing-groups").textContent = "";
    for (const g of groups.groups) {
      const row = document.createElement("tr");
      row.dataset.group = g.name;
      let made = g.submissions.map(([id, by, status, assignment]) =>
        "#" + id + " " + titleOf(assignment) + " by " + by + " " + status).join(", ");
      if (g.submission_count > g.submissions.length) made += ", … (" + g.submission_count + " in all)";
      row.append(text("td", g.name + (g.competes ? "" : " (staff testing)")), text("td", g.members.join(", ")),
        text("td", made), noteCell(g.notes[0]),
        storage(g.storage, groups.storage_at));
      // Staff's testing groups apart: they are in no league, board or finalize.
      (g.competes ? $("groups") : $("testing-groups")).append(row);
    }
    $("testing").hidden = !$("testing-groups").children.length;
    const queue = await api("/api/staff/queue");
    $("queue").textContent = "";
    for (const s of queue.submissions) {
      const row = document.createElement("tr");
      const status = s.status === "playing" ? "playing " + s.played + "/" + s.total
        : s.status === "waiting" ? s.waiting + " (" + goesOn(s.retry_at) + ")" : s.status;
      row.append(text("td", String(s.id)), text("td", titleOf(s.assignment)), text("td", s.group + " (" + s.student + ")"), text("td", status),
        text("td", s.created));
      $("queue").append(row);
    }
    showScrimmages((await api("/api/staff/scrimmages")).scrimmages);
    showFinal(await api("/api/staff/finalize"));
    const cores = await api("/api/staff/cores");
    showPool(cores.pool, cores.postponed);
    showDisk(cores.disk_full);
    showDemoSeats(groups.groups);
    $("error").textContent = "";
  } catch (e) {
    $("error").textContent = e.message;
  }
}
// Scrimmages, newest first: a waiting or playing one can be cancelled.
function showScrimmages(scrimmages) {
  $("scrimmages").textContent = "";
  for (const s of scrimmages) {
    const row = document.createElement("tr");
    row.dataset.scrimmage = s.id;
    const status = s.status === "playing" ? "playing " + s.played + "/" + s.total : s.status;
    row.append(text("td", String(s.id)), text("td", titleOf(s.assignment)), text("td", s.challenger), text("td", s.opponent),
      text("td", status), text("td", s.created));
    const cell = document.createElement("td");
    if (s.status === "queued" || s.status === "playing") {
      const cancel = text("button", "Cancel");
      cancel.addEventListener("click", async () => {
        try {
          await api("/api/staff/scrimmages/" + s.id + "/cancel", { method: "POST" });
        } catch (e) { $("error").textContent = e.message; }
        refresh();
      });
      cell.append(cancel);
    }
    row.append(cell);
    $("scrimmages").append(row);
  }
}
// Whole notes asked for, by submission: the groups' list has their start only.
const wholeNotes = {};
function noteCell(note) {
  const cell = text("td", "", "note");
  if (!note) return cell;
  const whole = wholeNotes[note.submission];
  cell.textContent = "#" + note.submission + ": " + (whole !== undefined ? whole : note.text + (note.cut ? " …" : ""));
  if (note.cut && whole === undefined) {
    const more = text("button", "whole note");
    more.addEventListener("click", async () => {
      try {
        wholeNotes[note.submission] = (await api("/api/staff/notes/" + note.submission)).note;
        refresh();
      } catch (e) { $("error").textContent = e.message; }
    });
    cell.append(" ", more);
  }
  return cell;
}
// A size as people read it.
function size(n) {
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : String(n)) + " " + units[i];
}
// A group's bytes on disk (measured every 30 s), its parts on hover.
function storage(bytes, at) {
  if (!bytes) return text("td", "measuring…");
  const cell = text("td", size(bytes.total), "storage");
  cell.title = "runs " + size(bytes.runs) + ", uploads " + size(bytes.uploads) + ", scrimmages "
    + size(bytes.scrimmages) + ", database " + size(bytes.database) + " (measured " + at + " UTC)";
  return cell;
}
// When a waiting grading goes on: at its time, or (the full disk's) once it can.
function goesOn(retryAt) {
  return retryAt ? "goes on at " + retryAt + " UTC" : "goes on once the disk has room";
}
// The core pool: games running and waiting by kind, the league's state,
// and the gradings postponed because the machine spoiled their games or
// the disk was full.
function showPool(pool, postponed) {
  $("pool").textContent = "";
  $("postponed").textContent = postponed.length === 0 ? ""
    : postponed.length + " grading(s) postponed: " + postponed.map(p => "#" + p.id + " (" + p.group + ", " + p.why + ")").join(", ");
  if (!pool) return;
  $("cores").textContent = pool.at_once + " game(s) at once"
    + (pool.at_once < pool.cores ? " (of " + pool.cores + ": the machine is overloaded)" : "");
  for (const [what, counts] of [["running", pool.running], ["waiting", pool.waiting]]) {
    const row = document.createElement("tr");
    row.append(text("td", what));
    for (const kind of ["grading", "scrimmage", "final", "league"]) row.append(text("td", String(counts[kind])));
    $("pool").append(row);
  }
  $("league-state").textContent = pool.league + (pool.league_held ? " (held now)" : "");
}
// The full disk: what waits, what to do, and what failed to be written.
function showDisk(full) {
  $("disk-full").hidden = !full;
  if (!full) return;
  $("disk-full").textContent = "The server's disk is full (since " + full.since + " UTC, " + full.seconds
    + " s): gradings, scrimmages and the league wait; uploads are refused (507). Free space on the data folder's"
    + " disk (arena serve prune removes old replays): work goes on by itself within " + (full.next_probe_in + 1)
    + " s of it. The write that failed: " + full.why;
}
for (const state of ["pause", "auto", "running"]) {
  $("league-" + state).addEventListener("click", async () => {
    try {
      await api("/api/staff/league", { method: "POST", headers: { Authorization: "Bearer " + token,
        "Content-Type": "application/json" }, body: JSON.stringify({ state: state === "pause" ? "paused" : state }) });
      refresh();
    } catch (e) { $("error").textContent = e.message; }
  });
}
$("assignment").addEventListener("change", refresh);
$("login").addEventListener("submit", event => {
  event.preventDefault();
  token = $("token").value.trim();
  localStorage.setItem("arena-staff-token", token);
  refresh();
});
$("deadline-form").addEventListener("submit", async event => {
  event.preventDefault();
  try {
    await api("/api/staff/deadline" + chosen(), { method: "POST", headers: { Authorization: "Bearer " + token,
      "Content-Type": "application/json" }, body: JSON.stringify({ deadline: $("deadline-input").value }) });
  } catch (e) {
    $("error").textContent = e.message;
  }
  refresh();
});
$("finalize").addEventListener("click", async () => {
  try { showFinal(await api("/api/staff/finalize" + chosen(), { method: "POST" })); } catch (e) { $("error").textContent = e.message; }
});
async function download(name, query) {
  const response = await fetch("/api/staff/" + name + (query || ""), { headers: { Authorization: "Bearer " + token } });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([await response.text()], { type: "text/csv" }));
  link.download = name;
  link.click();
}
// The demo table's seats (POST /api/staff/play): a person, a level of the
// chosen assignment, or a group's latest graded submission.
function showDemoSeats(groups) {
  const a = course.assignments.find(a => a.name === $("assignment").value);
  const seats = [["person", "a person (a page)"]];
  if (a) for (const l of a.levels) seats.push([l, "level " + l]);
  for (const g of groups) {
    if (g.submissions.length) seats.push(["group:" + g.name, "group " + g.name + "'s submission"]);
  }
  for (const [i, select] of [$("demo-seat-1"), $("demo-seat-2")].entries()) listChoices(select, seats, i);
}
// Opens the table: a link to each person's seat (hand one to a student,
// or open both to play both sides); a refusal in one line.
$("demo").addEventListener("submit", async event => {
  event.preventDefault();
  const line = $("demo-pages");
  line.textContent = "";
  line.className = "";
  const body = JSON.stringify({ assignment: $("assignment").value, seats: [$("demo-seat-1").value, $("demo-seat-2").value] });
  try {
    const opened = await api("/api/staff/play", { method: "POST", body, headers: { "Content-Type": "application/json" } });
    line.append("opened:");
    opened.pages.forEach((page, i) => {
      if (!page) return;
      const link = text("a", "seat " + (i + 1) + "'s page");
      link.href = page;
      link.target = "_blank";
      link.dataset.seat = String(i + 1);
      line.append(" ", link);
    });
  } catch (e) {
    line.textContent = e.message;
    line.className = "error";
  }
});
$("grades").addEventListener("click", () => download("grades.csv", chosen()));
$("gradebook").addEventListener("click", () => download("gradebook.csv"));
refresh();
setInterval(refresh, 2000);
