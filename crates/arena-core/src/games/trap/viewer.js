// Trap's board for the replay viewer: players as tokens, traps as crosses,
// the turn's move (from -> to) and its throw (dashed ring: the target;
// yellow: where the trap landed).
window.ArenaGames = window.ArenaGames || {};
window.ArenaGames.trap = {
  title: "Trap",
  legend:
    '<span><i style="background:var(--p1)"></i>player 1</span><span><i style="background:var(--p2)"></i>player 2</span>' +
    '<span><i style="background:var(--trap)"></i>trap</span><span><i style="outline:2px dashed var(--target);outline-offset:-2px"></i>aimed at</span>' +
    '<span><i style="background:var(--landed)"></i>landed</span>',
  settingsText(replay) {
    const s = replay.settings;
    return s.board_size + "\u00d7" + s.board_size + " board \u00b7 " + ArenaView.timeText(replay, "turn") + " \u00b7 draw after " + s.turn_cap + " turns";
  },
  // frames[0]: the start; frames[k]: the board after turn k (the state the
  // next request showed, or the final state).
  frames(replay) {
    const n = replay.turns.length;
    const frames = [{ state: replay.start, turn: null, seat: null, time_us: null, last: n === 0 }];
    replay.turns.forEach((turn, i) => {
      const next = replay.turns[i + 1];
      frames.push({ state: next ? next.state : replay.final, turn, seat: turn.seat, time_us: turn.time_us, bank_left_us: turn.bank_left_us, last: i === n - 1 });
    });
    return frames;
  },
  draw(board, frame, replay) {
    const n = frame.state.size;
    const { same, has } = ArenaView, label = ArenaView.labels(board);
    const turn = frame.turn;
    board.innerHTML = "";
    board.style.gridTemplateColumns = "18px repeat(" + n + ", auto)";
    label("");
    for (let c = 0; c < n; c++) label(String(c));
    for (let r = 0; r < n; r++) {
      label(String(r));
      for (let c = 0; c < n; c++) {
        const cell = document.createElement("div");
        const here = [r, c];
        const seat = same(frame.state.players[0], here) ? 1 : same(frame.state.players[1], here) ? 2 : 0;
        cell.className = "cell";
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.dataset.content = seat ? "p" + seat : has(frame.state.traps, here) ? "trap" : "empty";
        if (seat) {
          const token = document.createElement("div");
          token.className = "token s" + seat;
          token.textContent = String(seat);
          cell.appendChild(token);
          if (turn && turn.seat === seat) cell.classList.add("moved");
          if (frame.last && replay.result.winner === 2 - seat && (replay.result.reason === "trapped" || replay.result.reason === "boxed in")) cell.classList.add("stuck");
        } else if (cell.dataset.content === "trap") {
          cell.classList.add("trap");
        }
        if (turn && same(turn.from, here)) cell.classList.add("from");
        if (turn && turn.throw && same(turn.throw.target, here)) { cell.classList.add("target"); cell.dataset.mark = "target"; }
        if (turn && turn.throw && same(turn.throw.landed, here)) {
          cell.classList.add("landed");
          cell.dataset.mark = same(turn.throw.target, here) ? "hit" : "landed";
        }
        board.appendChild(cell);
      }
    }
  },
  describe(frame, replay, names) {
    const cell = (c) => "(" + c[0] + "," + c[1] + ")";
    const esc = ArenaView.esc;
    const rows = [];
    if (!frame.turn) {
      rows.push(["Position", "start"]);
      rows.push(["First to move", '<span class="p' + replay.first + '">' + esc(names[replay.first - 1]) + "</span>"]);
    } else {
      const t = frame.turn;
      rows.push(["Player", '<span class="who p' + t.seat + '">' + esc(names[t.seat - 1]) + " (player " + t.seat + ")</span>"]);
      rows.push(["Move", cell(t.from) + " \u2192 " + cell(t.move)]);
      if (t.throw) {
        const hit = t.throw.target[0] === t.throw.landed[0] && t.throw.target[1] === t.throw.landed[1];
        const pct = Math.round(t.throw.hit_chance * 100);
        rows.push(["Aimed at", cell(t.throw.target)]);
        rows.push(["Hit probability", pct + '%<div class="meter"><span style="width:' + pct + '%"></span></div>']);
        rows.push(["Landed on", cell(t.throw.landed) + " " + (hit ? '<span class="tag hit">hit</span>' : '<span class="tag miss">missed</span>')]);
      } else {
        rows.push(["Throw", "none: the move trapped the opponent"]);
      }
    }
    if (replay.failed_turn && frame.last) {
      const f = replay.failed_turn;
      const answer = f.reply ? "answered " + cell(f.reply.move) + (f.reply.trap ? ", trap " + cell(f.reply.trap) : "") : "no answer";
      rows.push(["Then failed", '<span class="p' + f.seat + '">' + esc(names[f.seat - 1]) + "</span>: " + esc(answer)]);
    }
    return rows;
  },
};
