// Turns on the game page: the undo button with the grace period's countdown, the status
// line in the second person for the viewer's own seat, and the end screen's words.
import {el, statusLine, t} from "/static/shell.js";

let countdown = null;  // the interval ticking the grace period's countdown

/** The undo button, and while the server holds the game for it (state.undo_grace: the
 * seconds left after the person's last decision of a turn) a countdown beside it, ticking
 * every quarter second, so a child sees how long they have to take the move back. */
export function drawUndo(button, state) {
  button.hidden = !state.can_undo;
  clearInterval(countdown);
  countdown = null;
  let note = document.getElementById("undo-grace");
  if (!note) {
    note = el("span", {id: "undo-grace", class: "undo-grace", role: "timer"});
    button.after(note);
  }
  const left = state.can_undo ? state.undo_grace : null;
  if (!left) {
    note.hidden = true;
    note.textContent = "";
    return;
  }
  const end = performance.now() + left * 1000;
  const tick = () => {
    const seconds = Math.ceil((end - performance.now()) / 1000);
    note.textContent = seconds > 0 ? t("The game goes on in {seconds} s", {seconds}) : "";
    if (seconds <= 0) clearInterval(countdown);
  };
  note.hidden = false;
  tick();
  countdown = setInterval(tick, 250);
}

/** The viewer's own seat when it is their only one: sentences about it are in the second
 * person ("You roll…"). On a device shared by several people each is named instead. */
export function ownSeat(state) {
  const people = (state.you || []).filter((seat) => !state.players[seat].kind.startsWith("bot:"));
  return people.length === 1 ? people[0] : null;
}

/** What the game is waiting for, in the second person when it is the viewer's own (and
 * only) seat: "You roll…" rather than "Mia rolls…"; everything else as shell.js's
 * statusLine says it (already "Your turn, Mia: choose."). */
export function turnLine(state, seat) {
  const own = ownSeat(state);
  if (own === null) return statusLine(state, seat);
  if (state.result) return t("Game over.") + " " + endHeadline(state);
  if (state.node.kind === "chance" && state.node.turn.seat === own) {
    return state.dice_mode === "manual" ? t("Your roll: roll the real dice and enter them.")
      : t("You roll…");
  }
  if (state.node.deciding.includes(own) && !(state.hints[String(own)] || []).length) {
    return t("You cannot move: the turn passes");
  }
  return statusLine(state, seat);
}

/** The end's first line: "You win: …" for the viewer who won, else the log's last line
 * ("Mia wins: …"). */
export function endHeadline(state) {
  const result = state.result;
  const own = ownSeat(state);
  const line = state.log.at(-1)?.description || "";
  if (own === null || !result.winners.includes(own)) return line;
  if (result.winners.length > 1) {
    return result.summary ? t("You share the win: {summary}", {summary: result.summary})
      : t("You share the win");
  }
  return result.summary ? t("You win: {summary}", {summary: result.summary}) : t("You win");
}

/** The end screen: who won and why in words, then each player by rank with their score
 * said in words ("4 steps from the finish", not "-4"). */
export function drawEnd(state, text, scores) {
  const result = state.result;
  text.textContent = endHeadline(state);
  let why = document.getElementById("end-why");
  if (!why) {
    why = el("p", {id: "end-why", class: "end-why"});
    text.after(why);
  }
  why.textContent = result.explanation || "";
  why.hidden = !result.explanation;
  const words = result.score_words || result.scores.map(String);
  const order = state.players.map((p) => p.seat).sort((a, b) => result.ranks[a] - result.ranks[b]);
  // Ranks as the rules give them: a shared place shows the same number.
  scores.replaceChildren(...order.map((seat) => el("li", {
    class: result.winners.includes(seat) ? "winner" : null,
    text: t("{rank}. {name}: {score}", {rank: result.ranks[seat], name: state.players[seat].name,
      score: words[seat]})})));
}
