// "How to play": a game's family summary in the page's language, with pictures of the real
// board drawn by the game's own board module (GET /api/games/{id}/howto). The game page's
// button opens it in a dialog over the game; the home page shows it at the head of a game's
// rules (drawHowto).
import {api, drawBoard, drawDice, el, t} from "/static/shell.js";

const $ = (id) => document.getElementById(id);
const answers = new Map();
let pictures = 0;

/** The summary of ``gameId`` (fetched once per page). */
function howtoOf(gameId) {
  if (!answers.has(gameId)) {
    answers.set(gameId, api(`/api/games/${encodeURIComponent(gameId)}/howto`).catch((error) => {
      answers.delete(gameId);
      throw error;
    }));
  }
  return answers.get(gameId);
}

/** Keep the ids of a picture's board apart from the game's own board on the same page
 *  (boards put an id on every square a move can be picked on): each id gets the picture's
 *  prefix, now and whenever the board is drawn again (a resize). */
function keepIdsApart(container) {
  const prefix = `howto-${++pictures}-`;
  const rename = () => {
    for (const node of container.querySelectorAll("[id]")) {
      if (!node.id.startsWith("howto-")) node.id = prefix + node.id;
    }
  };
  new MutationObserver(rename).observe(container, {childList: true, subtree: true});
  return rename;
}

/** One picture: the dice of the position (if any) and the board, with its caption. */
function drawPicture(block) {
  const state = block.picture;
  const board = el("div", {class: "board howto-board"});
  const dice = state.view?.dice?.length ? el("div", {class: "dice howto-dice", "aria-hidden": "true"}) : null;
  const caption = el("figcaption");
  caption.innerHTML = block.caption;  // rendered by the server with raw HTML disabled
  const figure = el("figure", {class: "howto-picture"}, dice, board, caption);
  const rename = keepIdsApart(figure);
  requestAnimationFrame(async () => {  // once in the page: the board reads its width
    if (dice) drawDice(dice, state.view.dice);
    await drawBoard(board, state, {picture: false, hints: [], pick: () => {}, seat: null,
      names: state.players.map((p) => p.name), deciding: state.node.deciding});
    rename();
  });
  return figure;
}

/** Fill ``container`` with the summary of ``gameId``; returns its title ("" when the game
 *  has no summary). */
export async function drawHowto(container, gameId) {
  const howto = await howtoOf(gameId);
  container.replaceChildren(...howto.blocks.map((block) => {
    if (block.picture) return drawPicture(block);
    const text = el("div", {class: "howto-text"});
    text.innerHTML = block.html;  // rendered by the server with raw HTML disabled
    return text;
  }));
  return howto.blocks.length ? howto.title : "";
}

/** The game page's dialog, made on first use. */
function dialog() {
  let box = $("howto-dialog");
  if (box) return box;
  const close = el("button", {type: "button", class: "howto-close", text: t("Close"),
    onclick: () => box.close()});
  box = el("dialog", {id: "howto-dialog", class: "howto-dialog", "aria-labelledby": "howto-title"},
    el("div", {class: "howto-head"}, el("h2", {id: "howto-title", text: t("How to play")}), close),
    el("div", {id: "howto-body", class: "howto-body", tabindex: 0, role: "region",
      "aria-labelledby": "howto-title"}));
  // Keys typed here are for the dialog, not the game's shortcuts behind it.
  box.addEventListener("keydown", (event) => { if (event.key !== "Escape") event.stopPropagation(); });
  box.addEventListener("click", (event) => { if (event.target === box) box.close(); });
  document.body.append(box);
  return box;
}

/** The game of this game page (a spectator's view of the match names it). */
async function gameOfThisPage() {
  const matchId = decodeURIComponent(location.pathname.split("/").pop());
  const state = await api(`/api/matches/${encodeURIComponent(matchId)}`);
  return state.game.id;
}

async function open(button) {
  const box = dialog();
  if (!box.dataset.game) {
    $("howto-body").replaceChildren(el("p", {class: "hint", text: t("Loading the rules…")}));
    box.showModal();
    try {
      const gameId = await gameOfThisPage();
      const title = await drawHowto($("howto-body"), gameId);
      $("howto-title").textContent = title || t("How to play");
      box.dataset.game = gameId;
    } catch (error) {
      $("howto-body").replaceChildren(el("p", {class: "error", role: "alert", text: error.message}));
    }
  } else {
    box.showModal();
  }
  box.addEventListener("close", () => button.focus(), {once: true});
}

const button = $("howto");
if (button) {
  button.hidden = false;
  button.addEventListener("click", () => open(button));
}
