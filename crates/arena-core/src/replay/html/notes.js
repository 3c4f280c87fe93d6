// A player's own notes (replay.notes: { turn, seat, text }, docs/replays.md)
// beside the turn shown: frame n is turn n - 1, and a note past the last
// turn (the turn that ended the game unplayed) is shown on the last frame.
// Notes are a player's words: drawn as text (textContent), never as HTML.
window.ArenaNotes = {
  show(box, replay, at, last, names) {
    const here = ((replay && replay.notes) || []).filter((n) => Math.min(n.turn + 1, last) === at);
    box.replaceChildren();
    box.hidden = here.length === 0;
    if (box.hidden) return;
    const title = document.createElement("div");
    title.className = "label";
    title.textContent = "Notes";
    box.append(title);
    for (const note of here) {
      const who = document.createElement("div");
      who.className = "who p" + (note.seat + 1);
      who.textContent = names[note.seat] || "player " + (note.seat + 1);
      const text = document.createElement("pre");
      text.textContent = note.text;
      box.append(who, text);
    }
  },
};
