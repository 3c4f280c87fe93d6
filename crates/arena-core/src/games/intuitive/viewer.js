// Intuitive AI's board for the replay viewer: the grid as the player saw
// it (closed cells, hints, the gold), the cell just revealed, and at the
// end the hidden world (pits, monster) shown faintly.
window.ArenaGames = window.ArenaGames || {};
(function () {
  const css =
    ".board .cell.closed { background: #1b2233; color: #56627d; }" +
    ".board .cell.open { background: #2b3650; }" +
    ".board .cell.gold { background: #5a4a12; }" +
    ".board .cell.monster { background: #1f6b45; }" +
    ".board .cell.pit { background: #6b1f2a; }" +
    ".board .cell.just { box-shadow: 0 0 0 3px var(--landed), 0 0 18px rgba(255, 200, 61, .6); }" +
    ".board .cell.hidden { opacity: .55; }" +
    ".board .cell .hints { display: flex; gap: 3px; font-size: calc(var(--cell) * .3); color: #8fd3ff; }" +
    ".board .cell.gold { color: #ffd66b; } .board .cell.monster { color: #b9ffd6; } .board .cell.pit { color: #ffb3bd; }";
  // Letters, not emoji: every font has them.
  const glyph = { breeze: "B", smell: "S", glitter: "G", gold: "$", monster: "M", pit: "P" };
  window.ArenaGames["intuitive-ai"] = {
    title: "Intuitive AI",
    css,
    stepName: "Reveal",
    stepsNoun: "reveals",
    legend:
      "<span>" + glyph.breeze + " breeze (a pit next door)</span><span>" + glyph.smell + " smell (the monster)</span>" +
      "<span>" + glyph.glitter + " glitter (the gold)</span><span>" + glyph.gold + " gold</span><span>" + glyph.monster +
      " monster</span><span>" + glyph.pit + " pit</span><span><i style=\"background:var(--landed)\"></i>just revealed</span>",
    settingsText(replay) {
      const n = replay.settings.board_size;
      return n + "\u00d7" + n + " board, " + n + " pits \u00b7 " + ArenaView.timeText(replay, "reveal") + "";
    },
    // frames[0]: the start view; frames[k]: the view after reveal k (the
    // next request's, or the last view with the cell that ended the game).
    frames(replay) {
      const reveals = replay.reveals, n = reveals.length;
      const viewAt = (i) => (reveals[i] ? reveals[i].view : replay.failed ? replay.failed.view : null);
      const frames = [{ view: viewAt(0), reveal: null, seat: null, time_us: null, last: n === 0 }];
      reveals.forEach((r, i) => {
        frames.push({ view: viewAt(i + 1) || r.view, reveal: r, seat: 1, time_us: r.time_us, bank_left_us: r.bank_left_us, last: i === n - 1 });
      });
      return frames;
    },
    draw(board, frame, replay) {
      const n = replay.settings.board_size, view = frame.view, world = replay.world, r = frame.reveal;
      const { same, has } = ArenaView, label = ArenaView.labels(board);
      board.innerHTML = "";
      board.style.gridTemplateColumns = "18px repeat(" + n + ", auto)";
      label("");
      for (let c = 0; c < n; c++) label(String(c));
      for (let row = 0; row < n; row++) {
        label(String(row));
        for (let c = 0; c < n; c++) {
          const here = [row, c], cell = document.createElement("div");
          cell.className = "cell";
          cell.dataset.row = row;
          cell.dataset.col = c;
          let content = "closed", text = "?";
          if (r && frame.last && same(r.cell, here) && (r.shown === "monster" || r.shown === "pit")) {
            content = r.shown; text = glyph[r.shown];
          } else if (view.gold && same(view.gold, here)) {
            content = "gold"; text = glyph.gold;
          } else if (has(view.open, here)) {
            content = "open";
            const hints = ["breeze", "smell", "glitter"].filter((h) => has(view[h], here));
            cell.dataset.hint = hints.join("+") || "nothing";
            text = hints.map((h) => glyph[h]).join("");
          } else if (frame.last && (has(world.pits, here) || same(world.monster, here))) {
            // The game is over: show where the hazards were.
            content = has(world.pits, here) ? "pit" : "monster";
            text = glyph[content];
            cell.classList.add("hidden");
          }
          cell.dataset.content = content;
          cell.classList.add(content);
          if (r && same(r.cell, here)) cell.classList.add("just");
          const inner = document.createElement("span");
          inner.className = content === "open" ? "hints" : "";
          inner.textContent = text;
          cell.appendChild(inner);
          board.appendChild(cell);
        }
      }
    },
    describe(frame, replay) {
      const esc = ArenaView.esc, rows = [];
      if (!frame.reveal) {
        rows.push(["Start", "cell (" + replay.world.start.join(",") + ") open"]);
      } else {
        const r = frame.reveal;
        rows.push(["Revealed", "(" + r.cell.join(",") + ")"]);
        rows.push(["It held", esc(r.shown)]);
      }
      rows.push(["Score", String(frame.view.score)]);
      if (replay.failed && frame.last) {
        const f = replay.failed;
        rows.push(["Then failed", f.cell ? "answered (" + f.cell.join(",") + ")" : "no answer"]);
      }
      return rows;
    },
  };
})();
