// Shared by the server's pages (leaderboard, student, staff).
"use strict";

// An element holding `content` as text (never as HTML), of class `cls`.
function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

// The token kept in this browser under `key`: taken from the page's
// address first (#token=..., a link staff can hand out), then removed
// from the address.
function storedToken(key) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) {
    localStorage.setItem(key, fromLink);
    history.replaceState(null, "", location.pathname);
  }
  return localStorage.getItem(key) || "";
}

// A call to the API with the page's `token`: its JSON, or an Error with
// the server's reason.
async function api(path, options) {
  const headers = Object.assign({ Authorization: "Bearer " + token }, options && options.headers);
  const response = await fetch(path, Object.assign({}, options, { headers }));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || response.status + " " + response.statusText);
  return body;
}

// What an assignment's games are played under: the time per turn and the clock.
function budget(a) {
  return a.time_per_turn + " per turn, on the " + a.clock + " clock";
}

// Fills `select` with `choices` ([value, label]) unless they are the ones
// it lists: the value chosen stays if still offered, else `fallback`'s.
function listChoices(select, choices, fallback = 0) {
  const key = choices.map(c => c[0]).join("\n");
  if (select.dataset.listed === key) return;
  const before = select.value;
  select.textContent = "";
  for (const [value, label] of choices) {
    const option = text("option", label);
    option.value = value;
    select.append(option);
  }
  if (choices.some(c => c[0] === before)) select.value = before;
  else if (choices.length) select.value = choices[Math.min(fallback, choices.length - 1)][0];
  select.dataset.listed = key;
}
