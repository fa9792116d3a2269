// Replay page: step through any match, move by move (buttons, slider, arrow keys).
import {api, drawBoard, drawDice, drawLog, drawSeats, statusLine, t} from "/static/shell.js";

const $ = (id) => document.getElementById(id);
const matchId = decodeURIComponent(location.pathname.split("/").pop());
const base = `/api/matches/${encodeURIComponent(matchId)}`;
let last = 0;
let step = 0;
let token = 0;

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
  } catch (error) {
    $("error").textContent = error.message;
  }
}

async function main() {
  try {
    const state = await api(base);
    last = state.moves;
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
