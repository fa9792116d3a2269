// Replay page: step through any match, move by move (buttons, slider, arrow keys).
import {api, drawBoard, drawDice, drawLog, drawSeats, statusLine, t} from "/static/shell.js";
import {drawReviewGraph, mistakeSentence} from "/static/review-graph.js";

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/matches/${encodeURIComponent(matchId)}`;
let last = 0;
let step = 0;
let token = 0;
let review = null;
let seatColours = null;

// The review graph (static/review-graph.js): axes, each player's line by name, the flagged
// moves beside it; choosing a move there shows it here.
function drawCurve() {
  drawReviewGraph($("review-graph"), review, {step, last, show,
    colourOf: (seat) => seatColours?.[seat] || null});
}

// The note on the move just shown, when the review flagged it.
function drawNote() {
  const move = review?.moves.find((m) => m.flagged && m.index + 1 === step);
  $("review-note").textContent = move ? mistakeSentence(review, move) : "";
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
  const flagged = review.mistakes ? review.mistakes.length : 0;
  $("review-status").textContent = busy
    ? t("Reviewing… move {done} of {total}", {done: review.done, total: review.total})
    : review.status === "failed" ? review.error
    : flagged === 1 ? t("Reviewed: 1 flagged move.")
    : t("Reviewed: {count} flagged moves.", {count: flagged});
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
    $("game").dataset.shown = step;  // this move is drawn in full (the tests wait for it)
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
