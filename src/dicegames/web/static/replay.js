// Replay page: step through any match, move by move (buttons, slider, arrow keys).
import {api, decimal, drawBoard, drawDice, drawLog, drawSeats, statusLine, t} from "/static/shell.js";

/** A review's verdict on a move, in the page's language. */
const VERDICTS = {best: t("best"), good: t("good"), uncertain: t("uncertain"),
  inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder")};
const verdict = (move) => VERDICTS[move.verdict] || move.verdict;

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/matches/${encodeURIComponent(matchId)}`;
let last = 0;
let step = 0;
let token = 0;
let review = null;
let seatColours = null;
const COLOURS = ["#d1495b", "#00798c", "#edae49", "#66a182", "#8d96a3", "#2e4057"];
const SVG = "http://www.w3.org/2000/svg";
const colourOf = (seat) => seatColours?.[seat] || COLOURS[seat % COLOURS.length];

function svgEl(name, attributes) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

// The evaluation graph: each player's win chance after every reviewed move; a dot on each
// flagged move (click it to go there); a dashed line at the move shown.
function drawCurve() {
  const curve = $("curve");
  if (!review || !review.curve.length) return;
  curve.hidden = false;
  curve.replaceChildren();
  const x = (index) => 20 + 570 * index / Math.max(1, last);
  const y = (chance) => 150 - 140 * chance;
  curve.append(svgEl("line", {class: "axis", x1: 20, x2: 590, y1: y(0.5), y2: y(0.5)}));
  curve.append(svgEl("line", {class: "cursor", x1: x(step), x2: x(step), y1: 5, y2: 155}));
  review.players.forEach((name, seat) => {
    const points = review.curve.map((p) => `${x(p.index)},${y(p.chances[seat])}`);
    const line = svgEl("polyline", {class: "line", points: points.join(" "),
      stroke: colourOf(seat), "data-seat": seat});
    line.append(svgEl("title", {}));
    line.firstChild.textContent = name;
    curve.append(line);
  });
  for (const move of review.moves.filter((m) => m.flagged)) {
    const dot = svgEl("circle", {class: "flag", r: 5, cx: x(move.index + 1),
      cy: y(move.chances[move.seat]), fill: colourOf(move.seat),
      "data-index": move.index});
    dot.append(svgEl("title", {}));
    dot.firstChild.textContent = `${verdict(move)}: ${move.played_label || move.played}`;
    dot.addEventListener("click", () => show(move.index + 1));
    curve.append(dot);
  }
}

// The note on the move just shown, when the review flagged it.
function drawNote() {
  const move = review?.moves.find((m) => m.flagged && m.index + 1 === step);
  $("review-note").textContent = !move ? "" :
    t("{verdict}: {name} played “{played}”; “{best}” was better by {cost} points of win chance.",
      {verdict: `${verdict(move)[0].toUpperCase()}${verdict(move).slice(1)}`,
        // The server labels the moves in the page's language (the notation otherwise).
        name: review.players[move.seat], played: move.played_label || move.played,
        best: move.best_label || move.best,
        cost: decimal(100 * move.cost)});
}

async function loadReview() {
  $("review-start").hidden = true;
  try {
    review = await api(`${base}/review`);
  } catch (error) {
    $("review-status").textContent = error.message;
    return;
  }
  // A cancelled review (nobody asked for a while) resumes when asked again.
  const busy = ["queued", "running", "cancelled"].includes(review.status);
  const flagged = review.mistakes && review.mistakes.length;
  $("review-status").textContent = busy
    ? t("Reviewing… move {done} of {total}", {done: review.done, total: review.total})
    : review.status === "failed" ? review.error
    : flagged === 1 ? t("Reviewed by the {kind} estimate ({how}); 1 flagged move.",
      {kind: review.estimate.kind, how: review.estimate.description})
    : t("Reviewed by the {kind} estimate ({how}); {count} flagged moves.",
      {kind: review.estimate.kind, how: review.estimate.description, count: flagged});
  drawCurve();
  drawNote();
  if (busy) setTimeout(loadReview, 700);
}

async function show(wanted) {
  step = Math.max(0, Math.min(last, wanted));
  const mine = ++token;
  try {
    const state = await api(`${base}/states/${step}`);
    if (mine !== token) return;
    $("error").textContent = "";
    $("title").textContent = state.game.name;
    $("step").value = step;
    $("where").textContent = t("move {step} of {last}", {step, last});
    drawSeats($("seats"), state);
    $("status").textContent = step === last && state.result ? statusLine(state, null)
      : (state.log.at(-1)?.description || t("The start."));
    drawDice($("dice"), state.view.dice);
    await drawBoard($("board"), state, {hints: [], pick: () => {}, seat: null,
      names: state.players.map((p) => p.name), deciding: state.node.deciding});
    drawLog($("log"), state);
    seatColours = state.view?.seat_colours || null;
    drawCurve();
    drawNote();
  } catch (error) {
    $("error").textContent = error.message;
  }
}

async function main() {
  try {
    const state = await api(base);
    last = state.moves;
    if (state.result) {
      $("review-start").hidden = false;
      $("review-start").onclick = loadReview;
      if (new URLSearchParams(location.search).has("review")) loadReview();
    }
  } catch (error) {
    $("error").textContent = error.message;
    return;
  }
  $("step").max = last;
  $("record").href = `${base}/record`;
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(last);
  $("step").oninput = () => show(Number($("step").value));
  document.addEventListener("keydown", (event) => {
    if (event.target.id === "step") return;
    if (event.key === "ArrowRight") show(step + 1);
    if (event.key === "ArrowLeft") show(step - 1);
    if (event.key === "Home") show(0);
    if (event.key === "End") show(last);
  });
  show(0);
}

main();
