// Shared page shell: dice, board (the game's board module or plain text), seats, log.
// Used by the game page and the replay page. No build step: plain ES modules.

import {shapeMark} from "/static/marks.js";

const boardModules = new Map();

// Languages. The page's language is, in order: ?lang= in the address, the one chosen before
// (kept in localStorage by the header's switch), the browser's (navigator.languages),
// English. Its catalogue (/i18n/<lang>.json: the server's own translations, the shared
// catalogue merged with every game's) is loaded before any page module runs (top-level
// await), so t() is ready.
export const LANGUAGES = {en: "English", fr: "Français", de: "Deutsch", it: "Italiano", ja: "日本語"};
const LANG_KEY = "dicegames:lang";

function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch { /* storage off: not kept */ }
  for (const code of [asked, stored, ...(navigator.languages || [navigator.language])]) {
    const short = String(code || "").slice(0, 2).toLowerCase();
    if (short in LANGUAGES) return short;
  }
  return "en";
}

/** The language of this page (a key of LANGUAGES). */
export const LANG = pickLanguage();
if (new URLSearchParams(location.search).get("lang")?.slice(0, 2) === LANG) {
  try { localStorage.setItem(LANG_KEY, LANG); } catch { /* storage off */ }
}
const catalogue = LANG === "en" ? {} : await fetch(`/i18n/${LANG}.json`)
  .then((answer) => (answer.ok ? answer.json() : {})).catch(() => ({}));

/** `message` (English, the catalogue's id) in the page's language, with its {placeholders}
 *  filled from `params`. */
export function t(message, params = {}) {
  const text = catalogue[message] || message;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `share` (0 to 1) as a percentage written the page language's way ("55,6 %" in French),
 *  with `digits` decimals: the CLDR formats the server writes with Babel
 *  (dicegames.i18n.percent). */
export function percent(share, digits = 1) {
  return new Intl.NumberFormat(LANG, {style: "percent", minimumFractionDigits: digits,
    maximumFractionDigits: digits}).format(share);
}

/** `value` with `digits` decimals, written the page language's way ("1.234,5" in German). */
export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(LANG, {minimumFractionDigits: digits,
    maximumFractionDigits: digits}).format(value);
}

/** Translate the page's own HTML (elements marked data-i18n, the attributes named by
 *  data-i18n-attrs) and put the language switch in the header. */
function translatePage() {
  document.documentElement.lang = LANG;
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.textContent.replace(/\s+/g, " ").trim());
  }
  for (const node of document.querySelectorAll("[data-i18n-attrs]")) {
    for (const name of node.dataset.i18nAttrs.split(/\s+/)) {
      if (node.hasAttribute(name)) node.setAttribute(name, t(node.getAttribute(name).replace(/\s+/g, " ").trim()));
    }
  }
  const header = document.querySelector("header.top");
  if (!header || header.querySelector("#lang")) return;
  const select = el("select", {id: "lang", class: "lang", "aria-label": t("Language")},
    ...Object.entries(LANGUAGES).map(([code, name]) =>
      el("option", {value: code, lang: code, selected: code === LANG, text: name})));
  select.addEventListener("change", () => {
    try { localStorage.setItem(LANG_KEY, select.value); } catch { /* kept in the address */ }
    const address = new URL(location.href);
    address.searchParams.set("lang", select.value);
    location.replace(address.href);
  });
  header.append(select);
}
translatePage();

/** Create an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = value;  // CSSOM: no inline style attribute
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
    if (value === undefined || value === null || value === false) continue;
    if (key === "style") node.style.cssText = value;  // CSSOM: no inline style attribute
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

const adopted = new Set();
/** Apply a board module's stylesheet to the document, once per text. The pages' content
 *  security policy allows no inline ``<style>`` element or ``style`` attribute, so the sheet
 *  is a constructed one (``adoptedStyleSheets``), and ``el``/``svg`` set ``style`` through
 *  the CSSOM. */
export function adoptStyle(css) {
  if (adopted.has(css)) return;
  adopted.add(css);
  if (!("adoptedStyleSheets" in document)) {  // a browser from before 2023: the board unstyled
    console.warn("this browser cannot apply the board's styles (no adoptedStyleSheets)");
    return;
  }
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** Pip positions (on a 3×3 grid) of each die face; the boards draw their dice with them. */
export const PIPS = {1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]]};

/** One die as SVG: pips for faces 1-6, else a coloured die with its `mark` and `shape`
 * (or the label's first letter). */
export function drawDie(die) {
  const face = Number(die.value);
  const box = svg("svg", {viewBox: "0 0 40 40", class: "die" + (die.used ? " used" : ""),
    role: "img", "aria-label": die.used ? t("die showing {face} (used)", {face: die.label})
      : t("die showing {face}", {face: die.label})});
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
    box.append(pips(face, ink));
  } else {
    // A die with a mark shows the board's own (Monza's R Y G B W P, the same in every
    // language) and its colour's shape beside it; otherwise the label's first letter.
    const shape = shapeMark(die.shape, 28.5, 20, 14, ink, ink === "#fff" ? "#0008" : "none", 0.8);
    const text = svg("text", {x: shape ? 14 : 20, y: 27, "text-anchor": "middle", "font-size": 20,
      "font-weight": "bold", fill: ink, stroke: ink === "#fff" ? "#0008" : "none",
      "stroke-width": 0.6});
    text.textContent = die.mark || String(die.label || die.value).slice(0, 1).toUpperCase();
    box.append(text);
    if (shape) box.append(shape);
  }
  return box;
}

/** The pips of `face` as one group (a tumbling die swaps them). */
function pips(face, ink) {
  return svg("g", {class: "pips"}, ...PIPS[face].map(([x, y]) =>
    svg("circle", {cx: x * 9 + 2, cy: y * 9 + 2, r: 3.6, fill: ink})));
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

const TUMBLE_MS = 650;
const FLIP_MS = 80;
let lastDice = null;

/** Draw the dice. Dice just rolled tumble (skipped for reduced motion): `rolled` says
 * whether a roll happened since the last drawing (the game page knows it from the log);
 * without it, dice whose faces changed count as rolled. When the dice of before are all
 * still there in front (Extra Meters adds a die a roll), only the new ones tumble. */
export function drawDice(container, dice, rolled) {
  const list = dice || [];
  const faces = list.map((die) => String(die.value));
  const before = lastDice;
  lastDice = faces;
  const boxes = list.map(drawDie);
  container.replaceChildren(...boxes);
  const kept = before !== null && before.length <= faces.length && before.every((f, i) => f === faces[i]);
  const roll = rolled ?? (before !== null && !(kept && before.length === faces.length));
  if (!roll || !faces.length || before === null || reducedMotion()) return;
  const first = kept && before.length < faces.length ? before.length : 0;
  boxes.slice(first).forEach((box, i) => tumble(box, list[first + i], i * 70));
}

function reducedMotion() {
  return Boolean(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** One die's tumble: it is tossed in, rolls over its edges (CSS .tumble) and shows other
 * faces while it turns, then lands on its own. Its label says the true face throughout. */
function tumble(box, die, delay) {
  box.style.setProperty("--delay", `${delay}ms`);
  box.classList.add("tumble");
  const shown = box.querySelector(".pips");
  if (!shown) return;
  const ink = shown.firstChild ? shown.firstChild.getAttribute("fill") : "#222";
  const face = Number(die.value);
  let current = shown;
  let flips = Math.floor((TUMBLE_MS * 0.6) / FLIP_MS);
  let previous = face;
  const flip = () => {
    if (!current.isConnected) return;
    let next = previous;
    while (next === previous) next = 1 + Math.floor(Math.random() * 6);
    previous = flips > 1 ? next : face;
    const drawn = pips(flips > 1 ? next : face, ink);
    current.replaceWith(drawn);
    current = drawn;
    if (--flips > 0) setTimeout(flip, FLIP_MS);
  };
  setTimeout(flip, delay + FLIP_MS / 2);
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
    const kind = p.kind.startsWith("bot:") ? t(" (bot, {level})", {level: t(p.kind.slice(4))}) : "";
    return el("li", {class: `seat seat-${p.seat} ${marks.join(" ")}`,
      "aria-current": deciding.has(p.seat) ? "true" : null},
      el("span", {class: "dot", "aria-hidden": "true",
        style: colours && colours[p.seat] ? `background: ${colours[p.seat]}` : null}),
      el("span", {text: p.name + kind + (mine ? t(" — you") : "")}),
      presenceBadge(state, p.seat),
      winners.has(p.seat) ? el("span", {class: "badge", text: t("winner")}) : null);
  }));
}

/** A person's seat shows whether they are here: connected, not yet joined, or away. */
function presenceBadge(state, seat) {
  const presence = state.presence && state.presence[String(seat)];
  if (!presence) return null;
  const words = {connected: t("connected"), invited: t("not yet joined"), away: t("away")};
  return el("span", {class: `badge presence presence-${presence}`, text: words[presence]});
}

/** The log, newest last, grouped by turn. */
export function drawLog(container, state) {
  const items = state.log.map((e) => el("li", {class: `ev ev-${e.kind}`,
    text: e.description}));
  if (state.log_size > state.log.length) {
    items.unshift(el("li", {class: "ev more", text: t("… {count} earlier events (see the record)",
      {count: state.log_size - state.log.length})}));
  }
  container.replaceChildren(...items);
  container.scrollTop = container.scrollHeight;
}

/** A line saying who decides now or how the game ended. */
export function statusLine(state, actingSeat) {
  if (state.result) return t("Game over.") + " " + (state.log.at(-1)?.description || "");
  const names = state.players.map((p) => p.name);
  if (state.node.kind === "chance") {
    const roller = names[state.node.turn.seat];
    return state.dice_mode === "manual"
      ? t("{name}'s roll: roll the real dice and enter them.", {name: roller})
      : t("{name} rolls…", {name: roller});
  }
  if (actingSeat !== null && actingSeat !== undefined) {
    return t("Your turn, {name}: choose.", {name: names[actingSeat]});
  }
  // A seat of this viewer that decides with no choice has only the forced pass left, which
  // the server plays at once: say so rather than "waiting" for the very person looking.
  const you = new Set(state.you || []);
  const stuck = state.node.deciding.filter((s) => you.has(s));
  if (stuck.length) {
    return t("{names}: no move is possible, the turn passes.",
      {names: stuck.map((s) => names[s]).join(", ")});
  }
  const who = state.node.deciding.map((s) => names[s]).join(", ");
  return t("Waiting for {names}.", {names: who});
}

/** GET or POST JSON; throws Error(message) with the server's message on a 4xx, its
 *  `code` the server's error code (`table_full`...). */
export async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST",
    headers: {"content-type": "application/json"}, body: JSON.stringify(body)};
  // The server answers in the page's language (option labels, rules, sentences).
  const address = new URL(path, location.href);
  if (!address.searchParams.has("lang")) address.searchParams.set("lang", LANG);
  const answer = await fetch(address.pathname + address.search, init);
  const data = await answer.json().catch(() => ({message: answer.statusText}));
  if (!answer.ok) throw Object.assign(new Error(data.message || answer.statusText), {code: data.error});
  return data;
}
