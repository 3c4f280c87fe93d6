// Wumpus World's cave for the replay viewer: the agent (an arrow the way
// it faces), pits, wumpuses, obstacles, the gold, the squares visited, and
// the percepts of each request. Row y = 0 is at the bottom, as in the rules.
window.ArenaGames = window.ArenaGames || {};
(function () {
  const css =
    ".board .cell.visited { background: #2b3650; }" +
    ".board .cell.obstacle { background: #4a4f5c; }" +
    ".board .cell.has-pit { color: #9aa3b8; } .board .cell.has-wumpus { color: var(--p2); } .board .cell.has-gold { color: #ffd66b; }" +
    ".board .cell .things { position: absolute; bottom: 2px; right: 4px; font-size: calc(var(--cell) * .28); }" +
    ".board .token.agent { background: var(--p1); font-size: calc(var(--cell) * .45); }" +
    ".percepts .tag { margin-right: 4px; background: rgba(76, 141, 255, .18); color: var(--text); }";
  // Letters, not emoji: every font has them.
  const icon = { pit: "P", wumpus: "W", gold: "$", obstacle: "#" };
  const arrow = { north: "\u2191", east: "\u2192", south: "\u2193", west: "\u2190" };
  window.ArenaGames.wumpus = {
    title: "Wumpus World",
    css,
    stepName: "Action",
    stepsNoun: "actions",
    legend:
      "<span>" + arrow.east + " the agent, facing</span><span>" + icon.pit + " pit</span><span>" + icon.wumpus + " wumpus</span>" +
      "<span>" + icon.gold + " gold</span><span>" + icon.obstacle + ' obstacle</span><span><i style="background:#2b3650"></i>visited</span>',
    settingsText(replay) {
      const s = replay.settings, c = s.config;
      return (s.preset ? s.preset + " rules" : "custom rules") + " \u00b7 " + c.size + "\u00d7" + c.size + " cave \u00b7 " +
        ArenaView.timeText(replay, "action") + " \u00b7 cap " + c.action_cap + " actions";
    },
    // frames[0]: the start; frames[k]: the agent after action k (the next
    // request, or the final state), with the squares visited so far.
    frames(replay) {
      const steps = replay.steps, n = steps.length;
      const first = n ? steps[0].request : replay.final;
      let visited = [first.at];
      const frames = [{ agent: first, step: null, visited, seat: null, time_us: null, last: n === 0 }];
      steps.forEach((step, i) => {
        const agent = steps[i + 1] ? steps[i + 1].request : replay.final;
        visited = visited.concat([agent.at]);
        frames.push({ agent, step, visited, seat: 1, time_us: step.time_us, bank_left_us: step.bank_left_us, last: i === n - 1 });
      });
      return frames;
    },
    draw(board, frame, replay) {
      const n = replay.settings.config.size, w = replay.world, agent = frame.agent;
      const { same, has } = ArenaView, label = ArenaView.labels(board);
      board.innerHTML = "";
      board.style.gridTemplateColumns = "18px repeat(" + n + ", auto)";
      for (let y = n - 1; y >= 0; y--) {
        label(String(y));
        for (let x = 0; x < n; x++) {
          const here = [x, y], cell = document.createElement("div");
          cell.className = "cell";
          cell.dataset.x = x;
          cell.dataset.y = y;
          const things = [];
          if (has(w.pits, here)) things.push("pit");
          if (has(w.wumpuses, here)) things.push("wumpus");
          if (has(w.obstacles, here)) things.push("obstacle");
          if (same(w.gold, here) && !agent.has_gold) things.push("gold");
          if (has(frame.visited, here)) cell.classList.add("visited");
          if (things.includes("obstacle")) cell.classList.add("obstacle");
          if (things.length) cell.classList.add("has-" + things[0]);
          const isAgent = same(agent.at, here);
          cell.dataset.content = (isAgent ? ["agent"] : []).concat(things).join(" ") || "empty";
          if (isAgent) {
            const token = document.createElement("div");
            token.className = "token agent";
            token.dataset.facing = agent.facing;
            token.textContent = arrow[agent.facing];
            cell.appendChild(token);
            if (things.length) {
              const small = document.createElement("span");
              small.className = "things";
              small.textContent = things.map((t) => icon[t]).join("");
              cell.appendChild(small);
            }
          } else {
            cell.appendChild(document.createTextNode(things.map((t) => icon[t]).join("")));
          }
          board.appendChild(cell);
        }
      }
      label("");
      for (let x = 0; x < n; x++) label(String(x));
    },
    describe(frame, replay) {
      const esc = ArenaView.esc, a = frame.agent, rows = [];
      if (frame.step) rows.push(["Action", esc(frame.step.action.replace("_", " "))]);
      rows.push(["At", "(" + a.at.join(",") + "), facing " + a.facing]);
      rows.push(["Senses", '<span class="percepts">' + (a.percept.length ? a.percept.map((p) => '<span class="tag">' + esc(p) + "</span>").join("") : "nothing") + "</span>"]);
      rows.push(["Arrows", String(a.arrows)]);
      rows.push(["Gold", a.has_gold ? "carried" : "not yet"]);
      rows.push(["Score", String(a.score)]);
      return rows;
    },
  };
})();
