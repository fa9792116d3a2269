// Shortcut's board for the web app: the grid of road and grey squares as inline SVG.
//
// Everything comes from view.board (games/shortcut/view.py), so any board file draws:
// road squares with their numbers, the grey shortcut field (hatched, so it reads without
// colour), the start, the chequered finish, the cars (a letter on each), whose turn it is,
// and the legal choices: declarations as labelled signs beside the grid (hovering one shows
// where it may lead), destinations as glowing squares. Targets are clickable and keyboard-reachable; the page's
// choice buttons stay (render returns {ownsChoices: false}). Re-drawn fully on each call.
import {Motion, fewestSteps, safely} from "/static/motion.js";
import {adoptStyle, svg, t} from "/static/shell.js";

const C = 60; // one grid square, in viewBox units
const EDGE = 26; // room for the column letters and row numbers
const PANEL = 290; // the side (or bottom) panel: turn, cars, key
const NARROW = 560; // below this container width (px), a narrower panel with larger text
let keyboard = false; // the last pick was made with the keyboard: keep the focus on the board
const motion = new Motion(); // each car's last drawn place, to drive it to its new square
let lastPhase = null; // the turn's phase at the last drawing: how the car moved since

const STYLE = `
.sc { font-family: inherit; --grass: #cfe8c4; --grass-line: #a9cf9a; --tile: #fffdf6;
  --tile-line: #b9b09b; --grey: #a7a39b; --start: #bfe6ff; }
@media (prefers-color-scheme: dark) {
  .sc { --grass: #22392a; --grass-line: #2f4d38; --tile: #39352e; --tile-line: #5b5448;
    --grey: #6d6a64; --start: #1f4460; }
}
.sc text { pointer-events: none; }
.sc .num { font-weight: 700; fill: var(--fg); }
.sc .small { fill: var(--muted); }
.sc .target { cursor: pointer; outline: none; }
.sc .focus { fill: none; stroke: none; }
.sc .target .ring { fill: none; stroke: var(--accent); stroke-width: 5;
  animation: sc-glow 1.4s ease-in-out infinite; }
.sc .target:hover .ring, .sc .target:focus-visible .ring { stroke-width: 8; animation: none; }
.sc .target.suggested .ring { stroke: var(--ok); stroke-width: 8; animation: none; }
.sc .sign.suggested rect.pill { fill: var(--ok); }
.sc .target:focus-visible .focus { stroke: var(--fg); stroke-width: 3; stroke-dasharray: 6 4; fill: none; }
.sc .sign rect.pill { fill: var(--accent); stroke: var(--card); stroke-width: 2.5; }
.sc .sign-word { fill: var(--accent-fg); font-weight: 700; pointer-events: none; }
.sc .sign:hover rect.pill, .sc .sign:focus-visible rect.pill { stroke: var(--fg); stroke-width: 3.5; }
.sc .maybe { fill: none; stroke: var(--accent); stroke-width: 3; stroke-dasharray: 7 5; }
.sc .preview { display: none; pointer-events: none; }
.sc .preview.show { display: inline; }
.sc .preview circle { fill: var(--accent); stroke: var(--card); stroke-width: 2; }
.sc .preview text { fill: var(--accent-fg); font-weight: 700; }
.sc .mover { fill: none; stroke: var(--fg); stroke-width: 3; stroke-dasharray: 5 4;
  animation: sc-spin 6s linear infinite; transform-box: fill-box; transform-origin: center; }
@keyframes sc-glow { 50% { stroke-opacity: .35; } }
@keyframes sc-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .sc .target .ring, .sc .mover { animation: none; } }
/* A phone's screen holds the whole board; on a laptop the page's own rule (style.css) keeps
   it above the fold, below the seats, the status and the dice row. */
.sc { max-height: 80vh; }
`;

function text(x, y, content, attrs = {}) {
  const node = svg("text", {x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs});
  node.textContent = content;
  return node;
}

const WIDE = /[\u2E80-\uFFEF]/u;
const TOKENS = /[\u2E80-\uFFEF]|[^\s\u2E80-\uFFEF]+|\s+/gu;
const CLOSING = /^[、。，．）」』！？：]$/u;

/** Split text into lines of at most ``width`` characters, on spaces; a wide character
 *  (Japanese) counts two and a line may break after any, but not before closing punctuation. */
function wrap(content, width) {
  const size = (part) => [...part].reduce((n, c) => n + (WIDE.test(c) ? 2 : 1), 0);
  const lines = [];
  let line = "";
  for (const token of content.match(TOKENS) || []) {
    if (/^\s+$/.test(token)) { if (line) line += " "; continue; }
    if (line.trim() && size(line + token) > width && !CLOSING.test(token)) {
      lines.push(line.trimEnd());
      line = token;
    } else line += token;
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}

function shorten(name, width) {
  return name.length > width ? name.slice(0, width - 1) + "…" : name;
}

/** Make ``node`` act like a button: click, Enter and Space call pick(move). */
/** A sign's word, drawn over its pill but outside the button: the button is named by its
 * whole move (its label), which the word alone inside it would contradict in some
 * languages; clicks go through the word to the pill. */
function word(node) {
  node.setAttribute("class", "sign-word");
  node.setAttribute("aria-hidden", "true");
  return node;
}

function actionable(node, label, move, ctx) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.setAttribute("data-move", move);
  node.classList.add("target");
  node.append(svg("title", {}, label));
  node.addEventListener("click", () => { keyboard = false; ctx.pick(move); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      keyboard = true;
      ctx.pick(move);
    }
  });
}

/** A car token: a coloured disc with the seat's letter (reads without colour). */
function carToken(x, y, r, car, colour, current, piece = false) {
  const group = svg("g", {class: piece ? "car piece" : "car", "data-seat": car.seat,
    id: piece ? car.id : null});
  group.append(svg("circle", {cx: x, cy: y + r * 0.12, r, fill: "#0003"}));
  group.append(svg("circle", {cx: x, cy: y, r, fill: colour, stroke: "#222", "stroke-width": 2}));
  group.append(text(x, y + 1, car.letter, {"font-size": r * 1.15, "font-weight": 800,
    fill: "#fff", stroke: "#0006", "stroke-width": 0.8}));
  if (current) group.append(svg("circle", {class: "mover", cx: x, cy: y, r: r + 5}));
  return group;
}

function defs() {
  const hatch = svg("pattern", {id: "sc-hatch", width: 12, height: 12,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)"},
  svg("rect", {width: 12, height: 12, fill: "var(--grey)"}),
  svg("line", {x1: 0, y1: 0, x2: 0, y2: 12, stroke: "#0000002e", "stroke-width": 5}));
  const flag = svg("pattern", {id: "sc-chequer", width: 20, height: 20, patternUnits: "userSpaceOnUse"},
    svg("rect", {width: 20, height: 20, fill: "#fff"}),
    svg("rect", {width: 10, height: 10, fill: "#222"}),
    svg("rect", {x: 10, y: 10, width: 10, height: 10, fill: "#222"}));
  return svg("defs", {}, hatch, flag);
}

/** Where a car is, in a few words for the panel. */
function whereShort(car, cell, narrow) {
  if (cell.kind === "finish") return t("on the finish!");
  if (cell.kind === "grey") {
    return narrow ? t("shortcut {square}", {square: cell.name}) : t("shortcut field ({square})", {square: cell.name});
  }
  if (cell.kind === "start") {
    return narrow ? t("start, {count} to go", {count: car.to_go}) : t("at the start, {count} to go", {count: car.to_go});
  }
  return narrow ? t("sq. {number}, {count} to go", {number: cell.road, count: car.to_go})
    : t("square {number}, {count} to go", {number: cell.road, count: car.to_go});
}

/** A small white die showing five, for the "Roll again" button. */
function dieIcon(x, y) {
  const group = svg("g", {"aria-hidden": "true"},
    svg("rect", {x: x - 12, y: y - 12, width: 24, height: 24, rx: 5, fill: "#fffdf6", stroke: "#333", "stroke-width": 1.5}));
  for (const [dx, dy] of [[-6, -6], [6, -6], [0, 0], [-6, 6], [6, 6]]) {
    group.append(svg("circle", {cx: x + dx, cy: y + dy, r: 2.4, fill: "#222"}));
  }
  return group;
}

/** The panel's message: what is happening now and what the viewer can do. */
function message(board, ctx, interactive) {
  const turn = board.turn;
  const who = ctx.names[turn.seat] || t("Player {number}", {number: turn.seat + 1});
  if (board.winner !== null && board.winner !== undefined) {
    const name = ctx.names[board.winner] || t("A car");  // its own call: Babel skips nested ones
    return t("{name} reached the finish and wins!", {name});
  }
  const dice = turn.rolls.length > 1 ? `${turn.rolls.join(" + ")} = ${turn.total}` : `${turn.total}`;
  const squares = turn.total === 1 ? t("1 square") : t("{count} squares", {count: turn.total});
  switch (turn.phase) {
    case "declare":
      return interactive ? t("Pick a sign: Road, Shortcut or Push.")
        : t("{name} picks: road, shortcut or push.", {name: who});
    case "road-roll": return t("{name} rolls the die for the road…", {name: who});
    case "shortcut-roll":
      return turn.rolls.length ? t("Shortcut: {dice} so far. Rolling again: 4-6 loses it all!", {dice})
        : t("Shortcut! Rolling: 1-3 to go, 4-6 stuck.");
    case "choose":
      return interactive ? t("Shortcut dice: {dice}. Tap a glowing square (up to {squares}), or roll again.", {dice, squares})
        : t("Shortcut dice: {dice}. {name} may move up to {squares}.", {dice, squares, name: who});
    case "push-to":
      return interactive ? t("Push: tap the square to push to.") : t("{name} pushes one square.", {name: who});
    default: return "";
  }
}

/** The cells a car passes from cell `from` to cell `to` (ids, both included): along the road
 * for a road roll, else the fewest legal steps (road forward, sideways onto the grey field,
 * any way across it), as the rules move a car. */
function pathOf(board, cells, from, to, phase) {
  const rank = (cell) => cell.kind === "start" ? 0 : cell.kind === "finish" ? 1e6 : cell.road;
  const a = cells.get(from);
  const b = cells.get(to);
  const onRoad = (cell) => cell.kind !== "grey";
  if (phase !== "choose" && phase !== "push-to" && onRoad(a) && onRoad(b) && rank(b) > rank(a)) {
    return board.cells.filter((cell) => onRoad(cell) && rank(cell) >= rank(a) && rank(cell) <= rank(b))
      .sort((x, y) => rank(x) - rank(y)).map((cell) => cell.id);
  }
  const at = new Map(board.cells.map((cell) => [`${cell.row},${cell.col}`, cell]));
  const road = board.cells.filter(onRoad).sort((x, y) => rank(x) - rank(y));
  const steps = (id) => {
    const cell = cells.get(id);
    if (cell.kind === "finish") return [];
    const near = [[-1, 0], [0, 1], [1, 0], [0, -1]].map(([dr, dc]) => at.get(`${cell.row + dr},${cell.col + dc}`))
      .filter(Boolean);
    if (cell.kind === "grey") return near.filter((n) => n.kind !== "start").map((n) => n.id);
    const next = road[road.indexOf(cell) + 1];
    return [...(next ? [next] : []), ...near.filter((n) => n.kind === "grey")].map((n) => n.id);
  };
  return fewestSteps(a.id, b.id, steps);
}

/** Drive each car that changed square from where it was drawn last, square by square. */
function slide(moved, board, cells, centre, ctx) {
  const phase = lastPhase;
  lastPhase = board.turn.phase;
  if (!motion.begin(ctx, `${board.name}/${board.width}x${board.height}/${board.cars.length}`)) return;
  for (const [token, car, x, y] of moved) {
    const before = motion.moved(car.id, {cell: car.cell, at: [x, y]});
    if (!before) { motion.resume(car.id, token); continue; }
    if (before.cell === car.cell) { motion.play(car.id, token, [before.at, [x, y]]); continue; }
    const points = pathOf(board, cells, before.cell, car.cell, phase).map((id) => centre(cells.get(id)));
    points[0] = before.at;
    points[points.length - 1] = [x, y];
    token.parentNode.append(token);  // on top while it drives
    motion.play(car.id, token, points, {stepMs: 120});
  }
}

/** Draw the board; see the header. ``ctx`` = {hints, pick, names, seat, deciding}. */
export function render(container, view, ctx) {
  const board = view.board;
  const hadFocus = container.contains(document.activeElement);
  const hints = ctx.hints || [];
  const byTarget = new Map();
  for (const hint of hints) for (const id of hint.targets) if (!byTarget.has(id)) byTarget.set(id, hint);
  const interactive = hints.length > 0;
  const colours = view.seat_colours || [];
  const names = ctx.names || [];
  const cells = new Map(board.cells.map((cell) => [cell.id, cell]));
  const gridW = board.width * C;
  const gridH = board.height * C;
  const side = board.height >= board.width; // tall boards: the panel on the right
  const narrow = side && container.clientWidth > 0 && container.clientWidth < NARROW;
  const pw = narrow ? 200 : PANEL; // the panel's width
  const big = narrow ? 1.15 : 1; // its text, larger when the whole drawing is scaled down
  const chars = narrow ? 17 : 27; // characters per line of its message
  const ox = EDGE;
  const oy = EDGE;
  const panelX = side ? ox + gridW + 24 : ox;
  const panelY = side ? oy : oy + gridH + EDGE;
  const carsH = 46 * board.cars.length;
  const width = side ? panelX + pw + 4 : Math.max(ox + gridW + 8, pw * 2 + 34);
  const centre = (cell) => [ox + cell.col * C + C / 2, oy + cell.row * C + C / 2];

  const root = svg("svg", {viewBox: `0 0 ${width} 100`, class: "sc", role: "group",
    "aria-label": t("Shortcut board, {width} by {height} squares", {width: board.width, height: board.height}),
    style: "width: 100%; height: auto; display: block; margin: 0 auto;"});
  adoptStyle(STYLE);
  root.append(defs());

  // The field: grass under the whole grid, column letters and row numbers round it.
  root.append(svg("rect", {x: ox - 6, y: oy - 6, width: gridW + 12, height: gridH + 12, rx: 16,
    fill: "var(--grass)", stroke: "var(--grass-line)", "stroke-width": 3}));
  for (let c = 0; c < board.width; c++) {
    const letter = String.fromCharCode(97 + c);
    root.append(text(ox + c * C + C / 2, oy - 16, letter, {class: "small", "font-size": 15}));
  }
  for (let r = 0; r < board.height; r++) {
    root.append(text(ox - 16, oy + r * C + C / 2, String(board.height - r), {class: "small", "font-size": 15}));
  }

  // The road as one ribbon through the squares in order, so its direction reads at a glance.
  const road = board.cells.filter((cell) => cell.kind !== "grey")
    .sort((a, b) => rank(a) - rank(b));
  function rank(cell) {
    return cell.kind === "start" ? 0 : cell.kind === "finish" ? 1e6 : cell.road;
  }
  root.append(svg("polyline", {points: road.map((cell) => centre(cell).join(",")).join(" "),
    fill: "none", stroke: "var(--tile-line)", "stroke-width": 30, "stroke-linejoin": "round",
    "stroke-linecap": "round"}));

  const occupied = new Map();
  for (const car of board.cars) {
    if (!occupied.has(car.cell)) occupied.set(car.cell, []);
    occupied.get(car.cell).push(car);
  }
  const destinations = new Set(board.destinations);

  // The squares.
  for (const cell of board.cells) {
    const [x, y] = centre(cell);
    const group = svg("g", {id: `sc-${cell.id}`, class: `cell ${cell.kind}`, "data-cell": cell.name});
    const fill = {road: "var(--tile)", grey: "url(#sc-hatch)", start: "var(--start)",
      finish: "url(#sc-chequer)"}[cell.kind];
    group.append(svg("rect", {x: x - C / 2 + 3, y: y - C / 2 + 3, width: C - 6, height: C - 6,
      rx: 9, fill, stroke: cell.kind === "grey" ? "#0004" : "var(--tile-line)", "stroke-width": 2}));
    const busy = occupied.has(cell.id);
    if (!byTarget.has(cell.id)) group.append(svg("title", {}, cell.where));
    if (cell.kind === "road") {
      group.append(busy ? text(x - C / 2 + 12, y - C / 2 + 12, cell.text, {class: "num", "font-size": 13})
        : text(x, y, cell.text, {class: "num", "font-size": 22}));
    } else if (cell.kind === "start" || cell.kind === "finish") {
      const label = cell.kind === "start" ? t("START") : t("FINISH");
      const size = cell.kind === "start" ? 12 : 10.5;
      const ly = busy ? y - C / 2 + 12 : y;
      group.append(svg("rect", {x: x - 26, y: ly - 8, width: 52, height: 16, rx: 5,
        fill: "var(--card)", opacity: 0.92}));
      group.append(text(x, ly, label, {"font-size": size, "font-weight": 800, fill: "var(--fg)"}));
    }
    if (destinations.has(cell.id)) {
      const hint = byTarget.get(cell.id);
      if (hint) {
        group.append(svg("rect", {class: "ring", x: x - C / 2 + 3, y: y - C / 2 + 3,
          width: C - 6, height: C - 6, rx: 9}));
        group.append(svg("rect", {class: "focus", x: x - C / 2 - 2, y: y - C / 2 - 2,
          width: C + 4, height: C + 4, rx: 12, fill: "none"}));
        actionable(group, hint.label, hint.move, ctx);
      } else {
        group.append(svg("rect", {class: "maybe", x: x - C / 2 + 5, y: y - C / 2 + 5,
          width: C - 10, height: C - 10, rx: 8}));
      }
    }
    root.append(group);
  }

  // The cars, up to four on a square.
  const spots = {1: [[0, 0]], 2: [[-0.22, 0.06], [0.22, 0.06]],
    3: [[-0.2, -0.15], [0.2, -0.15], [0, 0.2]], 4: [[-0.2, -0.15], [0.2, -0.15], [-0.2, 0.22], [0.2, 0.22]]};
  const mover = board.winner === null || board.winner === undefined ? board.turn.seat : board.winner;
  const moved = [];
  for (const [id, cars] of occupied) {
    const [x, y] = centre(cells.get(id));
    const places = spots[Math.min(cars.length, 4)];
    const r = cars.length === 1 ? 18 : cars.length === 2 ? 13 : 11;
    const kind = cells.get(id).kind;
    // Leave the square's number or label readable: cars sit a little low (and right).
    const low = (kind === "start" || kind === "finish" ? 0.1 : 0) + (cars.length === 1 ? 0.07 : 0);
    const right = kind === "road" && cars.length === 1 ? 0.07 : 0;
    cars.forEach((car, i) => {
      const [dx, dy] = places[i % places.length];
      const [cx, cy] = [x + (dx + right) * C, y + (dy + low) * C];
      const token = carToken(cx, cy, r, car, colours[car.seat] || "var(--muted)",
        car.seat === mover, true);
      root.append(token);
      moved.push([token, car, cx, cy]);
    });
  }

  // Where each declaration may lead, shown on the grid while its sign (in the panel) is
  // hovered or focused.
  const previews = svg("g", {class: "previews"});
  const previewOf = (sign) => {
    const preview = previews.appendChild(svg("g", {class: "preview"}));
    for (const spot of sign.preview) {
      const [px, py] = centre(cells.get(spot.cell));
      preview.append(svg("rect", {class: "maybe", x: px - C / 2 + 5, y: py - C / 2 + 5,
        width: C - 10, height: C - 10, rx: 8}));
      preview.append(svg("circle", {cx: px + C / 2 - 12, cy: py + C / 2 - 12, r: 10}),
        text(px + C / 2 - 12, py + C / 2 - 11, spot.text, {"font-size": 13}));
    }
    return preview;
  };
  root.append(previews);

  // The panel: whose turn, what to do, the cars, and a key to the squares.
  let y = panelY + 4;
  let px = panelX;
  const panel = svg("g", {class: "panel"});
  const seat = board.winner ?? board.turn.seat;
  const who = names[seat] || t("Player {number}", {number: seat + 1});
  const won = board.winner !== null && board.winner !== undefined;
  const fit = narrow ? 9 : 15;
  const headline = won ? t("{names} wins!", {names: shorten(who, fit)}) : t("{name}'s turn", {name: shorten(who, fit)});
  panel.append(svg("rect", {x: px, y, width: pw, height: 44, rx: 12,
    fill: won ? "var(--ok)" : "var(--card)", stroke: won ? "var(--ok)" : "var(--accent)",
    "stroke-width": 3}));
  panel.append(carToken(px + 24, y + 22, 14, board.cars[seat], colours[seat] || "var(--muted)", false));
  panel.append(text(px + 46, y + 23, headline, {"text-anchor": "start", "font-size": 20 * big,
    "font-weight": 800, fill: won ? "#fff" : "var(--fg)"}));
  y += 60;
  for (const line of wrap(message(board, ctx, interactive), chars)) {
    panel.append(text(px + 4, y, line, {"text-anchor": "start", "font-size": 17.5 * big,
      fill: "var(--fg)"}));
    y += 23 * big;
  }
  // The declarations' signs, one under the other beside the grid, so that none hides a
  // square's number or a car; hovering or focusing one previews where it may lead.
  const declared = board.signs.filter((sign) => sign.cell && byTarget.has(sign.id));
  if (declared.length) y += 2;
  for (const sign of declared) {
    const hint = byTarget.get(sign.id);
    const bw = Math.min(pw, sign.text.length * 10.5 * big + 40);
    const group = svg("g", {id: `sc-${sign.id}`, class: "sign"},
      svg("rect", {class: "pill", x: px, y, width: bw, height: 38, rx: 19}),
      svg("rect", {class: "focus", x: px - 4, y: y - 4, width: bw + 8, height: 46, rx: 23}));
    const preview = previewOf(sign);
    const show = (on) => preview.classList.toggle("show", on);
    group.addEventListener("mouseenter", () => show(true));
    group.addEventListener("mouseleave", () => show(false));
    group.addEventListener("focus", () => show(true));
    group.addEventListener("blur", () => show(false));
    actionable(group, hint.label, hint.move, ctx);
    panel.append(group, word(text(px + bw / 2, y + 20, sign.text, {"font-size": 17 * big})));
    y += 48;
  }
  const press = board.signs.find((sign) => !sign.cell && byTarget.has(sign.id));
  if (press) {
    y += 8;
    const hint = byTarget.get(press.id);
    const bw = Math.min(pw, 190);
    const group = svg("g", {id: `sc-${press.id}`, class: "sign"},
      svg("rect", {class: "pill", x: px, y, width: bw, height: 44, rx: 22}),
      dieIcon(px + 24, y + 22),
      svg("rect", {class: "focus", x: px - 4, y: y - 4, width: bw + 8, height: 52, rx: 26}));
    actionable(group, hint.label, hint.move, ctx);
    panel.append(group, word(text(px + 24 + (bw - 24) / 2, y + 23, press.text, {"font-size": 19 * big})));
    y += 56;
  }
  // Below a wide board, the cars and the key make a second column.
  const firstColumn = y;
  if (side) y += 10;
  else { px += pw + 30; y = panelY + 4; }
  for (const car of board.cars) {
    const cell = cells.get(car.cell);
    const current = car.seat === seat;
    if (current) {
      panel.append(svg("rect", {x: px, y: y - 4, width: pw, height: 44, rx: 10,
        fill: "var(--accent)", opacity: 0.14}));
    }
    panel.append(carToken(px + 20, y + 18, 14, car, colours[car.seat] || "var(--muted)", false));
    panel.append(text(px + 42, y + 9, shorten(names[car.seat] || t("Player {number}", {number: car.seat + 1}), fit + 2)
      + (current && !won ? " ◀" : ""), {"text-anchor": "start", "font-size": 16 * big,
      "font-weight": 700, fill: "var(--fg)"}));
    panel.append(text(px + 42, y + 28, whereShort(car, cell, narrow), {"text-anchor": "start",
      "font-size": 14 * big, class: "small"}));
    y += carsH / board.cars.length;
  }
  y += 14;
  const key = narrow ? [["url(#sc-hatch)", t("Shortcut:"), t("1-3 go, 4-6 stuck")],
    ["var(--tile)", t("Road: exact"), t("count to finish")]]
    : [["url(#sc-hatch)", t("Shortcut field: 1-3 go,"), t("4-6 stuck")],
      ["var(--tile)", t("Road: roll a die,"), t("exact count to finish")]];
  for (const [fill, first, second] of key) {
    panel.append(svg("rect", {x: px + 6, y, width: 28, height: 28, rx: 6, fill,
      stroke: "var(--tile-line)", "stroke-width": 1.5}));
    panel.append(text(px + 42, y + 6, first, {"text-anchor": "start", "font-size": 14 * big, class: "small"}));
    panel.append(text(px + 42, y + 23 * big, second, {"text-anchor": "start", "font-size": 14 * big, class: "small"}));
    y += 44;
  }
  root.append(panel);

  const height = Math.max(oy + gridH + 10, y + 4, firstColumn + 4);
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  container.replaceChildren(root);
  safely(() => slide(moved, board, cells, centre, ctx));
  // A keyboard player keeps the focus on the board, on its first target, turn after turn.
  const first = root.querySelector(".target");
  if (first && (hadFocus || keyboard)) {
    first.focus({preventScroll: true});
    keyboard = false;
  }
  return {ownsChoices: false};
}
