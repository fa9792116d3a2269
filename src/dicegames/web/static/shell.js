// Shared page shell: dice, board (the game's board module or plain text), seats, log.
// Used by the game page and the replay page. No build step: plain ES modules.

const boardModules = new Map();

/** Create an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
/** Create an SVG element: attributes (undefined, null and false are left out) and children
 *  (nodes or text). Shared by the page and the games' board modules. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

/** Pip positions (on a 3×3 grid) of each die face; the boards draw their dice with them. */
export const PIPS = {1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]]};

/** One die as SVG: pips for faces 1-6, else a coloured die with the label's first letter. */
export function drawDie(die) {
  const face = Number(die.value);
  const box = svg("svg", {viewBox: "0 0 40 40", class: "die" + (die.used ? " used" : ""),
    role: "img", "aria-label": `die showing ${die.label}${die.used ? " (used)" : ""}`});
  let fill = "#fffdf6";
  let ink = "#222";
  const isFace = Number.isInteger(face) && face >= 1 && face <= 6 && String(die.value) == face;
  // A colour die comes with its colour from the board's palette (view.dice[].colour).
  if (!isFace && die.colour) {
    fill = die.colour;
    ink = isLight(die.colour) ? "#222" : "#fff";
  }
  box.append(svg("rect", {x: 2, y: 2, width: 36, height: 36, rx: 7, fill,
    stroke: "#333", "stroke-width": 2}));
  if (isFace) {
    for (const [x, y] of PIPS[face]) box.append(svg("circle", {cx: x * 9 + 2, cy: y * 9 + 2, r: 3.6, fill: ink}));
  } else {
    const text = svg("text", {x: 20, y: 27, "text-anchor": "middle", "font-size": 20,
      "font-weight": "bold", fill: ink, stroke: ink === "#fff" ? "#0008" : "none",
      "stroke-width": 0.6});
    // One capital letter reads best on a small die (R, Y, G, B, W, P for Monza's colours).
    text.textContent = String(die.label || die.value).slice(0, 1).toUpperCase();
    box.append(text);
  }
  return box;
}

const lightness = new Map();
/** True for a light CSS colour (white, yellow), which needs dark writing on it. */
function isLight(colour) {
  if (!lightness.has(colour)) lightness.set(colour, measureLight(colour));
  return lightness.get(colour);
}

function measureLight(colour) {
  const probe = document.createElement("span");
  probe.style.color = colour;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g) || ["0", "0", "0"];
  probe.remove();
  const [r, g, b] = rgb.map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150;
}

let lastDice = "";
/** Draw the dice; a short roll animation when they changed (skipped for reduced motion). */
export function drawDice(container, dice) {
  const key = JSON.stringify(dice || []);
  const changed = key !== lastDice;
  lastDice = key;
  container.replaceChildren(...(dice || []).map(drawDie));
  if (changed && dice && dice.length) {
    container.classList.remove("rolling");
    void container.offsetWidth;
    container.classList.add("rolling");
  }
}

async function loadBoard(url) {
  if (!boardModules.has(url)) boardModules.set(url, import(url).catch(() => null));
  return boardModules.get(url);
}

// A board module lays itself out for its container's width (rows of a track, a sheet's
// columns), so the shell draws it again when that width changes by a phone's turn or a
// window's resize; the modules need no resize handling of their own.
const RESIZE_PX = 24;
const drawn = new WeakMap();  // board container -> {state, ctx, width} of its last drawing
let resizing = null;
let resizeTimer = null;

function redrawOnResize(container) {
  if (typeof ResizeObserver === "undefined") return;
  resizing = resizing || new ResizeObserver((entries) => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      for (const {target} of entries) {
        const last = drawn.get(target);
        if (last && Math.abs(target.clientWidth - last.width) >= RESIZE_PX) {
          drawBoard(target, last.state, last.ctx);
        }
      }
    }, 150);
  });
  resizing.observe(container);
}

/** Draw the board with the game's module; plain text when there is none (or it fails).
 *  Returns true when the module drew the choices itself ({ownsChoices: true}). */
export async function drawBoard(container, state, ctx) {
  const url = state.game.board_module;
  const module = url ? await loadBoard(url) : null;
  if (module && typeof module.render === "function") {
    try {
      const width = container.clientWidth;  // read before drawing: no extra layout
      const answer = module.render(container, state.view, ctx);
      const first = !drawn.has(container);
      drawn.set(container, {state, ctx, width});
      if (first) redrawOnResize(container);
      return Boolean(answer && answer.ownsChoices);
    } catch (error) {
      console.error("board module failed", error);
    }
  }
  drawn.delete(container);  // a resize must not draw an older board over the text
  container.replaceChildren(el("pre", {class: "text-board", text: state.text}));
  return false;
}

/** The players with the deciding ones marked. */
export function drawSeats(container, state) {
  const deciding = new Set(state.node.deciding);
  const winners = new Set(state.result ? state.result.winners : []);
  // A game whose pieces have their own colours (red and yellow in a 2-player Petits
  // Chevaux) names them in view.seat_colours, so the seat dots match the board.
  const colours = state.view && state.view.seat_colours;
  container.replaceChildren(...state.players.map((p) => {
    const mine = (state.you || []).includes(p.seat);
    const marks = [];
    if (deciding.has(p.seat)) marks.push("deciding");
    if (winners.has(p.seat)) marks.push("winner");
    if (mine) marks.push("mine");
    const kind = p.kind.startsWith("bot:") ? ` (bot, ${p.kind.slice(4)})` : "";
    return el("li", {class: `seat seat-${p.seat} ${marks.join(" ")}`,
      "aria-current": deciding.has(p.seat) ? "true" : null},
      el("span", {class: "dot", "aria-hidden": "true",
        style: colours && colours[p.seat] ? `background: ${colours[p.seat]}` : null}),
      el("span", {text: p.name + kind + (mine ? " — you" : "")}),
      winners.has(p.seat) ? el("span", {class: "badge", text: "winner"}) : null);
  }));
}

/** The log, newest last, grouped by turn. */
export function drawLog(container, state) {
  const items = state.log.map((e) => el("li", {class: `ev ev-${e.kind}`,
    text: e.description}));
  if (state.log_size > state.log.length) {
    items.unshift(el("li", {class: "ev more", text: `… ${state.log_size - state.log.length} earlier events (see the record)`}));
  }
  container.replaceChildren(...items);
  container.scrollTop = container.scrollHeight;
}

/** A line saying who decides now or how the game ended. */
export function statusLine(state, actingSeat) {
  if (state.result) return "Game over. " + (state.log.at(-1)?.description || "");
  const names = state.players.map((p) => p.name);
  if (state.node.kind === "chance") {
    const roller = names[state.node.turn.seat];
    return state.dice_mode === "manual" ? `${roller}'s roll: roll the real dice and enter them.`
      : `${roller} rolls…`;
  }
  if (actingSeat !== null && actingSeat !== undefined) return `Your turn, ${names[actingSeat]}: choose.`;
  // A seat of this viewer that decides with no choice has only the forced pass left, which
  // the server plays at once: say so rather than "waiting" for the very person looking.
  const you = new Set(state.you || []);
  const stuck = state.node.deciding.filter((s) => you.has(s));
  if (stuck.length) return `${stuck.map((s) => names[s]).join(", ")}: no move is possible, the turn passes.`;
  const who = state.node.deciding.map((s) => names[s]).join(", ");
  return `Waiting for ${who}.`;
}

/** GET or POST JSON; throws Error(message) with the server's message on a 4xx. */
export async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify(body)};
  const answer = await fetch(path, init);
  const data = await answer.json().catch(() => ({message: answer.statusText}));
  if (!answer.ok) throw new Error(data.message || answer.statusText);
  return data;
}
