// The games of a run, in progress first: each links to its live viewer.
// Polled every two seconds (a list changes as games start and end).
(function () {
  "use strict";
  const list = document.getElementById("games");
  const feeds = document.body.dataset.games || "games.json";
  function show(games) {
    list.textContent = "";
    if (!games.length) list.innerHTML = "<li>No game yet.</li>";
    games.sort((a, b) => a.ended - b.ended || b.id - a.id).forEach((g) => {
      const li = document.createElement("li"), a = document.createElement("a");
      a.href = "game/" + g.id;
      a.textContent = g.title;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" \u00b7 " + g.game + " \u00b7 " + g.turns + " turns" + (g.ended ? ", over" : ", playing")));
      if (g.ended) li.className = "ended";
      list.appendChild(li);
    });
  }
  function poll() {
    fetch(feeds).then((r) => r.json()).then(show).catch(() => {}).finally(() => setTimeout(poll, 2000));
  }
  poll();
})();
