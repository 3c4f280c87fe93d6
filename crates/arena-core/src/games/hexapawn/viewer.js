// Hexapawn's board for the replay viewer: White's and Black's pawns on the
// 3x3 board, the move just played (the square left, the pawn moved).

// Gardner's picture of menace's boxes (its memory's documented shape,
// `{"learner": "menace", "boxes": [{"board", "to_move", "beads"}]}`): each
// position it met and the moves that still hold a bead, an empty box (it
// resigns there) marked. Anything else is not drawn; every string escaped.
function menaceBoxes(memory) {
  if (!memory || memory.learner !== "menace" || !Array.isArray(memory.boxes)) return null;
  const esc = ArenaView.esc;
  let beads = 0;
  const drawn = memory.boxes.map((box) => {
    const moves = Array.isArray(box.beads) ? box.beads : [];
    beads += moves.length;
    const board = String(box.board).split("/").map(esc).join("\n");
    return '<span class="menace-box' + (moves.length ? "" : " empty") + '" style="display:inline-block;margin:2px 8px 4px 0;vertical-align:top">' +
      '<code style="display:block;white-space:pre;line-height:1.1">' + board + "</code>" +
      (moves.length ? moves.map((m) => esc(String(m))).join("<br>") : "<em>empty</em>") + "</span>";
  });
  return '<span class="menace-boxes">' + memory.boxes.length + " boxes, " + beads + " beads left<br>" + drawn.join("") + "</span>";
}
window.ArenaGames = window.ArenaGames || {};
window.ArenaGames.hexapawn = {
  title: "Hexapawn",
  stepName: "Move",
  stepsNoun: "moves",
  legend:
    '<span><i style="background:var(--p1)"></i>White (player 1, moves up)</span><span><i style="background:var(--p2)"></i>Black (player 2)</span>' +
    '<span><i style="outline:2px dashed var(--muted);outline-offset:-2px"></i>square left</span>',
  settingsText(replay) {
    return "3\u00d73 board \u00b7 " + ArenaView.timeText(replay, "move") + "";
  },
  // frames[0]: the start; frames[k]: the board after move k.
  frames(replay) {
    const n = replay.plies.length;
    const frames = [{ board: replay.start, ply: null, seat: null, time_us: null, last: n === 0 }];
    replay.plies.forEach((ply, i) => {
      const next = replay.plies[i + 1];
      frames.push({ board: next ? next.board : replay.final, ply, seat: ply.seat, time_us: ply.time_us, bank_left_us: ply.bank_left_us, last: i === n - 1 });
    });
    return frames;
  },
  draw(board, frame) {
    const same = ArenaView.same, label = ArenaView.labels(board);
    board.innerHTML = "";
    board.style.gridTemplateColumns = "18px repeat(3, auto)";
    label("");
    for (let c = 0; c < 3; c++) label(String(c));
    frame.board.rows.forEach((row, r) => {
      label(String(r));
      [...row].forEach((symbol, c) => {
        const here = [r, c], cell = document.createElement("div");
        cell.className = "cell";
        cell.dataset.row = r;
        cell.dataset.col = c;
        cell.dataset.content = symbol === "W" ? "white" : symbol === "B" ? "black" : "empty";
        if (symbol !== ".") {
          const seat = symbol === "W" ? 1 : 2;
          const token = document.createElement("div");
          token.className = "token s" + seat;
          token.textContent = "\u265f";
          cell.appendChild(token);
          if (frame.ply && same(frame.ply.move[1], here)) cell.classList.add("moved");
        }
        if (frame.ply && same(frame.ply.move[0], here)) cell.classList.add("from");
        board.appendChild(cell);
      });
    });
  },
  describe(frame, replay, names) {
    const esc = ArenaView.esc;
    const side = (seat) => '<span class="who p' + seat + '">' + esc(names[seat - 1]) + " (" + (seat === 1 ? "White" : "Black") + ")</span>";
    const sq = (s) => "(" + s[0] + "," + s[1] + ")";
    const rows = [];
    if (!frame.ply) {
      rows.push(["Position", "start"]);
      rows.push(["First to move", side(1)]);
    } else {
      rows.push(["Player", side(frame.ply.seat)]);
      rows.push(["Move", sq(frame.ply.move[0]) + " \u2192 " + sq(frame.ply.move[1])]);
    }
    // A learner's boxes after the match (`arena play --memory`), on its last game.
    if (frame.last && Array.isArray(replay.memory)) {
      replay.memory.forEach((memory, i) => {
        const drawn = menaceBoxes(memory);
        if (drawn) rows.push([names[i] + "'s boxes after the match", drawn]);
      });
    }
    if (replay.failed && frame.last) {
      const f = replay.failed;
      const answer = f.resigned ? "resigned" : f.move ? "answered " + sq(f.move[0]) + " \u2192 " + sq(f.move[1]) : "no answer";
      rows.push(["Then", side(f.seat) + ": " + answer]);
    }
    return rows;
  },
};
