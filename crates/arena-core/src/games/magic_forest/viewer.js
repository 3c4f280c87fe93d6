// Magic Forest's board for the replay viewer: the wanderer's current
// forest (monsters, traps, the portal, the start), the wanderer, what each
// action did (a death is marked where it happened; a monster a stone
// killed is faded), and which forest of the run it is.
window.ArenaGames = window.ArenaGames || {};
(function () {
  const css =
    ".board .cell.tile-portal { background: #1f6b45; }" +
    ".board .cell.tile-start { background: #2b3650; }" +
    ".board .cell.died { box-shadow: 0 0 0 3px var(--p2), 0 0 18px rgba(255, 93, 93, .6); }" +
    ".board .cell.killed { opacity: .4; }" +
    ".board .cell.tile-monster { color: var(--p2); } .board .cell.tile-trap { color: #d98cff; } .board .cell.tile-portal { color: #b9ffd6; }" +
    ".board .token.wanderer { background: var(--p1); }" +
    ".board .forest-title { grid-column: 1 / -1; text-align: center; color: var(--muted); font-size: 13px; }";
  // Letters, not emoji: every font has them.
  const icon = { monster: "M", trap: "T", portal: "O", wanderer: "@" };
  const step = (at, dir) => {
    const d = { north: [0, 1], east: [1, 0], south: [0, -1], west: [-1, 0] }[dir];
    return [at[0] + d[0], at[1] + d[1]];
  };
  const eventText = (e) => ({
    moved: "moved", edge: "bumped into the edge", portal: "reached the portal: forest cleared",
    died: "died at (" + (e.at || []).join(",") + "), back to the start",
    stone: e.killed ? "the stone killed a monster" : "the stone hit nothing",
  })[e.type];
  window.ArenaGames["magic-forest"] = {
    title: "Magic Forest",
    css,
    stepName: "Action",
    stepsNoun: "actions",
    legend:
      "<span>" + icon.wanderer + " wanderer</span><span>" + icon.monster + " monster</span><span>" + icon.trap + " trap</span>" +
      "<span>" + icon.portal + ' portal</span><span><i style="background:#2b3650"></i>start</span>',
    settingsText(replay) {
      const s = replay.settings;
      return replay.forests.length + " forests, 3\u00d73 to " + s.largest + "\u00d7" + s.largest + " \u00b7 " +
        ArenaView.timeText(replay, "action") + " \u00b7 " + s.actions_per_tile + " actions per tile";
    },
    // frames[0]: the start; frames[k]: the wanderer after action k (the
    // next request, or the final state), with the monsters killed so far.
    frames(replay) {
      const steps = replay.steps, n = steps.length;
      let killed = [];
      const first = n ? steps[0].request : replay.final;
      const frames = [{ at: first, step: null, killed, seat: null, time_us: null, last: n === 0 }];
      steps.forEach((s, i) => {
        const at = steps[i + 1] ? steps[i + 1].request : replay.final;
        if (s.event.type === "stone" && s.event.killed) killed = killed.concat([step(s.request.at, s.action.dir)]);
        if (at.forest !== s.request.forest) killed = [];
        frames.push({ at, step: s, killed, seat: 1, time_us: s.time_us, bank_left_us: s.bank_left_us, last: i === n - 1 });
      });
      return frames;
    },
    draw(board, frame, replay) {
      const f = replay.forests[frame.at.forest], n = f.size;
      const died = frame.step && frame.step.event.type === "died" ? frame.step.event.at : null;
      const { same, has } = ArenaView, label = ArenaView.labels(board);
      board.innerHTML = "";
      board.style.gridTemplateColumns = "18px repeat(" + n + ", auto)";
      board.dataset.forest = String(frame.at.forest);
      const title = document.createElement("div");
      title.className = "forest-title";
      title.textContent = "Forest " + (frame.at.forest + 1) + " of " + replay.forests.length + " (" + n + "\u00d7" + n + ")";
      board.appendChild(title);
      for (let y = n - 1; y >= 0; y--) {
        label(String(y));
        for (let x = 0; x < n; x++) {
          const here = [x, y], cell = document.createElement("div");
          cell.className = "cell";
          cell.dataset.x = x;
          cell.dataset.y = y;
          let content = "empty";
          if (has(f.monsters, here)) content = "monster";
          else if (has(f.traps, here)) content = "trap";
          else if (same(f.portal, here)) content = "portal";
          else if (same(f.start, here)) content = "start";
          cell.classList.add("tile-" + content);
          if (content === "monster" && has(frame.killed, here)) cell.classList.add("killed");
          if (died && same(died, here)) cell.classList.add("died");
          const isWanderer = same(frame.at.at, here);
          cell.dataset.content = isWanderer ? "wanderer" : content;
          if (isWanderer) {
            const token = document.createElement("div");
            token.className = "token wanderer";
            token.textContent = icon.wanderer;
            cell.appendChild(token);
          } else if (icon[content]) {
            cell.appendChild(document.createTextNode(icon[content]));
          }
          board.appendChild(cell);
        }
      }
      label("");
      for (let x = 0; x < n; x++) label(String(x));
    },
    describe(frame, replay) {
      const esc = ArenaView.esc, a = frame.at, rows = [];
      rows.push(["Forest", (a.forest + 1) + " of " + replay.forests.length + " (" + a.size + "\u00d7" + a.size + ")"]);
      if (frame.step) {
        const act = frame.step.action;
        rows.push(["Action", (act.kind === "throw" ? "throw a stone " : "move ") + act.dir]);
        rows.push(["What happened", esc(eventText(frame.step.event))]);
      }
      const senses = [a.bones && "bones", a.leaves && "leaves", a.died && "just died"].filter(Boolean);
      rows.push(["Senses", senses.length ? senses.join(", ") : "nothing"]);
      rows.push(["Actions left here", String(a.actions_left)]);
      rows.push(["Score", String(a.score)]);
      return rows;
    },
  };
})();
