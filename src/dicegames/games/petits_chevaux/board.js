// Jeu des Petits Chevaux: the cross board as inline SVG, drawn from view.board (see view.py).
// render(container, view, ctx) redraws everything on each call. The legal moves of
// ctx.hints glow on the board: a horse and the square it would land on are clickable and
// keyboard-reachable (Tab, then Enter or Space). The page keeps its own choice buttons.
import {Motion, STEP_MS, safely, straight} from "/static/motion.js";
import {adoptStyle, svg, t} from "/static/shell.js";

/** The colours' names in the page's language. */
const COLOUR_WORDS = {red: t("red"), blue: t("blue"), yellow: t("yellow"), green: t("green")};
const colourWord = (colour) => COLOUR_WORDS[colour] || colour;

const CELL = 40;
const PAD = 10;
const INK = {yellow: "#241c00"};  // text on a horse: dark on yellow, white on the others

const STYLE = `
.pc-board { display: block; width: 100%; max-width: 40rem; height: auto; margin: 0 auto;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; user-select: none;
  -webkit-tap-highlight-color: transparent; }
.pc-board text { pointer-events: none; }
.pc-sq { fill: var(--card); stroke: var(--fg); stroke-opacity: .28; stroke-width: 1.5; }
.pc-num { font-weight: 700; fill: var(--fg); opacity: .55; }
.pc-words { pointer-events: none; }
.pc-name { font-weight: 700; fill: var(--fg); }
.pc-sub { fill: var(--fg); opacity: .8; }
.pc-slot { fill: var(--card); stroke: var(--fg); stroke-opacity: .35; stroke-width: 2;
  stroke-dasharray: 5 4; }
.pc-horse, .pc-barrage { pointer-events: none; }
.pc-disc { stroke: #000; stroke-opacity: .55; stroke-width: 2.5; }
.pc-label { font-weight: 800; }
.pc-wall { stroke: #000; stroke-opacity: .7; stroke-width: 3.5; }
.pc-target { cursor: pointer; pointer-events: all; outline: none; }
.pc-glow { fill: none; stroke: var(--accent); stroke-width: 5; pointer-events: none;
  animation: pc-pulse 1.3s ease-in-out infinite; }
.pc-target:hover .pc-glow, .pc-target:focus .pc-glow, .pc-hot .pc-glow {
  stroke: var(--fg); stroke-width: 6; animation: none; }
.pc-target.suggested .pc-glow { stroke: var(--ok); stroke-width: 7; animation: none; }
.pc-target:focus-visible .pc-glow { stroke-dasharray: none; stroke-width: 7; }
.pc-ghost { fill: var(--card); fill-opacity: .9; stroke-width: 3; stroke-dasharray: 5 4; pointer-events: none; }
.pc-ghost-text { font-weight: 800; opacity: .9; }
@keyframes pc-pulse { 50% { stroke-opacity: .35; } }
@media (prefers-reduced-motion: reduce) { .pc-glow { animation: none; } }
`;

const x0 = (col) => PAD + col * CELL;
const y0 = (row) => PAD + row * CELL;
const mid = ([row, col]) => [x0(col) + CELL / 2, y0(row) + CELL / 2];
const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/** An arrow head (a triangle) at (x, y) pointing along (dx, dy). */
function arrow(x, y, dx, dy, size, attrs) {
  const px = -dy;
  const py = dx;
  const points = [[x + dx * size, y + dy * size],
    [x - dx * size * 0.6 + px * size * 0.8, y - dy * size * 0.6 + py * size * 0.8],
    [x - dx * size * 0.6 - px * size * 0.8, y - dy * size * 0.6 - py * size * 0.8]];
  return svg("polygon", {points: points.map((p) => p.join(",")).join(" "), ...attrs});
}

function squareShape(cell, attrs) {
  return svg("rect", {x: x0(cell[1]) + 1.5, y: y0(cell[0]) + 1.5, width: CELL - 3,
    height: CELL - 3, rx: 6, ...attrs});
}

/** A horse: a coloured disc with its letter and number (R2), readable without colour. */
function horseDisc(horse, cx, cy, r) {
  const g = svg("g", {class: "pc-horse", "data-id": horse.id});
  g.append(svg("circle", {cx, cy, r, fill: horse.css, class: "pc-disc pc-shape"}));
  g.append(svg("circle", {cx, cy, r: r * 0.78, fill: "none", stroke: "#fff",
    "stroke-opacity": 0.55, "stroke-width": r / 9}));
  g.append(svg("text", {x: cx, y: cy + r * 0.33, "text-anchor": "middle", class: "pc-label",
    "font-size": r * 0.92, fill: INK[horse.colour] || "#fff"}, horse.label));
  g.dataset.label = t("horse {horse}", {horse: horse.label});
  return g;
}

/** Two horses of one colour on one square: a walled block with both names, each half its
 *  own horse (so either can be picked). */
function barrageBlock(pair, cell) {
  const x = x0(cell[1]);
  const y = y0(cell[0]);
  const group = svg("g", {class: "pc-barrage"});
  group.append(svg("rect", {x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 5,
    fill: pair[0].css, class: "pc-wall"}));
  group.append(svg("line", {x1: x + 6, x2: x + CELL - 6, y1: y + CELL / 2, y2: y + CELL / 2,
    stroke: INK[pair[0].colour] || "#fff", "stroke-width": 1.5, "stroke-opacity": 0.8}));
  pair.forEach((horse, half) => {
    const g = svg("g", {class: "pc-horse", "data-id": horse.id});
    g.append(svg("rect", {x: x + 1, y: y + 1 + half * (CELL / 2 - 1), width: CELL - 2,
      height: CELL / 2 - 1, rx: 4, fill: "transparent", class: "pc-shape"}));
    g.append(svg("text", {x: x + CELL / 2, y: y + 16 + half * 17, "text-anchor": "middle",
      "font-size": 15, class: "pc-label", fill: INK[horse.colour] || "#fff"}, horse.label));
    g.dataset.label = t("horse {horse}, in a barrage with {other}", {horse: horse.label, other: pair[1 - half].label});
    group.append(g);
  });
  return group;
}

function drawStable(layer, stable, board, ctx) {
  const [top, left] = stable.box;
  const x = x0(left);
  const y = y0(top);
  const size = 6 * CELL;
  const playing = stable.seat !== null;
  const turn = playing && board.player === stable.seat;
  const won = playing && board.winner === stable.seat;
  const g = svg("g", {"data-id": stable.id, "data-label": t("{colour} corner stable", {colour: colourWord(stable.colour)})});
  g.append(svg("rect", {x: x + 6, y: y + 6, width: size - 12, height: size - 12, rx: 22,
    fill: stable.css, "fill-opacity": playing ? 0.24 : 0.08, stroke: stable.css,
    "stroke-opacity": playing ? 0.9 : 0.3, "stroke-width": 4, class: "pc-shape"}));
  if (turn || won) {
    // Whose turn: a thick band of the player's colour and a marker line.
    g.append(svg("rect", {x: x + 12, y: y + 12, width: size - 24, height: size - 24, rx: 17,
      fill: "none", stroke: stable.css, "stroke-width": 9}));
  }
  // The stable's writing lies beside it, not in it: a stable a horse leaves from is a
  // button named by that move, which the name and numbers inside would contradict.
  const words = svg("g", {class: "pc-words", "aria-hidden": "true"});
  if (!playing) {
    words.append(svg("text", {x: x + size / 2, y: y + size / 2 + 38, "text-anchor": "middle",
      "font-size": 110, fill: stable.css, opacity: 0.2}, "♞"));
  }
  const name = playing ? (ctx.names && ctx.names[stable.seat]) || t("Player {number}", {number: stable.seat + 1}) : "";
  const short = name.length > 14 ? name.slice(0, 13) + "…" : name;
  words.append(svg("text", {x: x + size / 2, y: y + 48, "text-anchor": "middle",
    "font-size": 25, class: "pc-name", opacity: playing ? 1 : 0.45},
    playing ? short : cap(colourWord(stable.colour))));
  let sub = playing ? `${cap(colourWord(stable.colour))} (${stable.letter})` : t("not playing");
  if (won) sub = t("★ wins! ★");
  else if (turn) sub = ctx.seat === stable.seat ? t("▶ your turn") : t("▶ playing now");
  words.append(svg("text", {x: x + size / 2, y: y + size - 22, "text-anchor": "middle",
    "font-size": 20, class: "pc-sub", "font-weight": turn || won ? 700 : 400,
    opacity: playing ? 0.9 : 0.45}, sub));
  if (playing) {
    for (let i = 0; i < 4; i++) {
      if (stable.waiting.includes(i + 1)) continue;  // the horse itself stands there
      const [cx, cy] = slotCentre(stable, i + 1);
      g.append(svg("circle", {cx, cy, r: 28, class: "pc-slot"}));
      words.append(svg("text", {x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20,
        class: "pc-num"}, stable.letter + (i + 1)));
    }
  }
  layer.append(g, words);
}

/** Where each horse in a corner stable sits (the slot of its number). */
function slotCentre(stable, number) {
  const [top, left] = stable.box;
  const i = number - 1;
  return [x0(left) + 3 * CELL + (i % 2 ? 40 : -40), y0(top) + 96 + (i > 1 ? 66 : 0)];
}

function drawTrack(layer, board) {
  const count = board.track.length;
  board.track.forEach((square, index) => {
    const g = svg("g", {"data-id": square.id});
    const stable = board.stables.find((s) => s.colour === (square.start || square.entrance));
    if (square.start) {
      g.append(squareShape(square.cell, {class: "pc-sq pc-shape",
        style: `fill: ${stable.css}; fill-opacity: ${stable.seat === null ? 0.35 : 0.9}`}));
      const next = board.track[(index + 1) % count].cell;
      const [cx, cy] = mid(square.cell);
      g.append(arrow(cx, cy, next[1] - square.cell[1], next[0] - square.cell[0], 11,
        {fill: "#fff", "fill-opacity": 0.9}));
      g.dataset.label = t("{colour}'s start square", {colour: colourWord(square.start)});
    } else if (square.entrance) {
      g.append(squareShape(square.cell, {class: "pc-sq pc-shape",
        style: `stroke: ${stable.css}; stroke-opacity: ${stable.seat === null ? 0.4 : 1};
          stroke-width: 4`}));
      const first = stable.column[0].cell;
      const [cx, cy] = mid(square.cell);
      g.append(arrow(cx, cy, first[1] - square.cell[1], first[0] - square.cell[0], 9,
        {fill: stable.css, "fill-opacity": stable.seat === null ? 0.4 : 1}));
      g.dataset.label = t("{colour}'s stable entrance", {colour: colourWord(square.entrance)});
    } else {
      g.append(squareShape(square.cell, {class: "pc-sq pc-shape"}));
      g.dataset.label = t("track square {number}", {number: index});
    }
    layer.append(g);
  });
}

function drawColumns(layer, board) {
  for (const stable of board.stables) {
    for (const square of stable.column) {
      const g = svg("g", {"data-id": square.id,
        "data-label": t("{colour} stable square {number}", {number: square.number, colour: colourWord(stable.colour)})});
      g.append(squareShape(square.cell, {class: "pc-sq pc-shape",
        style: `fill: ${stable.css}; fill-opacity: ${stable.seat === null ? 0.12
          : square.winning ? 0.5 : 0.3}`}));
      const [cx, cy] = mid(square.cell);
      g.append(svg("text", {x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 19,
        class: "pc-num"}, String(square.number)));
      layer.append(g);
    }
  }
  // The centre: four triangles, each in the colour of the column that ends against it.
  const [cx, cy] = mid(board.centre);
  const h = CELL / 2;
  for (const stable of board.stables) {
    const [row, col] = stable.column.at(-1).cell;
    const dx = col - board.centre[1];
    const dy = row - board.centre[0];
    const a = [cx + dx * h + dy * h, cy + dy * h + dx * h];
    const b = [cx + dx * h - dy * h, cy + dy * h - dx * h];
    layer.append(svg("polygon", {points: `${cx},${cy} ${a.join(",")} ${b.join(",")}`,
      fill: stable.css, stroke: "var(--card)", "stroke-width": 1.5}));
  }
}

function drawHorses(layer, board) {
  const stables = new Map(board.stables.map((s) => [s.colour, s]));
  const bySquare = new Map();
  for (const horse of board.horses) {
    if (horse.place === "home") {
      const [cx, cy] = slotCentre(stables.get(horse.colour), horse.number);
      layer.append(horseDisc(horse, cx, cy, 26));
      placed.set(horse.id, [cx, cy]);
    } else {
      if (!bySquare.has(horse.square)) bySquare.set(horse.square, []);
      bySquare.get(horse.square).push(horse);
    }
  }
  for (const group of bySquare.values()) {
    if (group.length === 2) {
      layer.append(barrageBlock(group, group[0].cell));
      const [cx, cy] = mid(group[0].cell);
      group.forEach((horse, half) => placed.set(horse.id, [cx, cy - CELL / 4 + half * CELL / 2]));
    } else {
      const [cx, cy] = mid(group[0].cell);
      layer.append(horseDisc(group[0], cx, cy, 17.5));
      placed.set(group[0].id, [cx, cy]);
    }
  }
}

// ----------------------------------------------------------------------------- motion

const motion = new Motion();
const placed = new Map();  // horse id -> [x, y] where this drawing puts it

/** The square ids a horse of `colour` passes from progress `a` to `b` (both included):
 * along the track, then up its stable column; backwards in a replay stepped back. */
function squaresBetween(board, colour, a, b) {
  const start = board.track.findIndex((square) => square.start === colour);
  const letter = board.stables.find((s) => s.colour === colour).letter.toLowerCase();
  const count = board.track.length;
  const id = (p) => p > count ? `s-${letter}${p - count}` : `t${(start + p - 1) % count}`;
  const ids = [];
  const step = b >= a ? 1 : -1;
  for (let p = a; p !== b + step; p += step) ids.push(id(p));
  return ids;
}

/** Each horse that moved travels from its old place: along the squares it passed, out of
 * its stable onto the start square, or, sent back (captured), on an arc to its stable once
 * the mover has arrived. */
function animateHorses(root, board, ctx) {
  if (!motion.begin(ctx, `${board.stables.map((s) => s.seat).join(",")}`)) return;
  const centres = new Map();
  for (const square of board.track) centres.set(square.id, mid(square.cell));
  for (const stable of board.stables) for (const s of stable.column) centres.set(s.id, mid(s.cell));
  const movers = [];
  const captured = [];
  for (const horse of board.horses) {
    const before = motion.moved(horse.id, {progress: horse.progress, at: placed.get(horse.id)});
    const node = root.querySelector(`.pc-horse[data-id="${horse.id}"]`);
    if (!node) continue;
    if (!before) { motion.resume(horse.id, node); continue; }
    const here = placed.get(horse.id);
    if (horse.progress === before.progress) {
      // Same square, another spot (a barrage formed or broken): a short slide.
      movers.push({id: horse.id, node, points: [before.at, here]});
    } else if (horse.place === "home") {
      captured.push({id: horse.id, node, points: straight(before.at, here, 8)});
    } else if (before.progress === 0) {
      movers.push({id: horse.id, node, points: [before.at, here], grow: 26 / 17.5});
    } else {
      const ids = squaresBetween(board, horse.colour, before.progress, horse.progress);
      const points = ids.map((id) => centres.get(id));
      points[0] = before.at;
      points[points.length - 1] = here;
      movers.push({id: horse.id, node, points});
    }
  }
  let arrived = 0;
  for (const {id, node, points, grow} of movers) {
    node.parentNode.append(node);  // on top of the other horses while it travels
    arrived = Math.max(arrived, motion.play(id, node, points, {grow}));
  }
  for (const {id, node, points} of captured) {
    // From a track horse's size to a waiting horse's (17.5 and 26: see drawHorses).
    motion.play(id, node, points, {delay: arrived, duration: 8 * STEP_MS, hop: CELL,
      grow: 17.5 / 26});
  }
}

/** A dashed outline of the horse on each empty square a move would land on. */
function drawGhosts(layer, board, hints) {
  const occupied = new Set(board.horses.map((h) => h.square));
  const horses = new Map(board.horses.map((h) => [h.id, h]));
  const cells = new Map();
  for (const square of board.track) cells.set(square.id, square.cell);
  for (const stable of board.stables) for (const s of stable.column) cells.set(s.id, s.cell);
  const done = new Set();
  for (const hint of hints) {
    const landing = hint.targets.at(-1);
    const horse = horses.get(hint.targets.find((t) => horses.has(t)));
    if (!horse || !cells.has(landing) || occupied.has(landing) || done.has(landing)) continue;
    done.add(landing);
    const [cx, cy] = mid(cells.get(landing));
    layer.append(svg("circle", {cx, cy, r: 15, class: "pc-ghost", stroke: horse.css}));
    layer.append(svg("text", {x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 13,
      class: "pc-ghost-text", fill: "var(--fg)"}, horse.label));
  }
}

/** Make every element a hint targets glow, clickable and reachable by keyboard. */
function wireTargets(root, hints, pick) {
  const moves = new Map();  // element id -> the hints that can be picked there
  for (const hint of hints) {
    for (const id of hint.targets) {
      if (!moves.has(id)) moves.set(id, []);
      moves.get(id).push(hint);
    }
  }
  const byMove = new Map();
  for (const node of root.querySelectorAll("[data-id]")) {
    const found = moves.get(node.dataset.id);
    if (!found) continue;
    const hint = found[0];
    const shape = node.querySelector(".pc-shape");
    if (shape) {
      const glow = shape.cloneNode(false);
      glow.setAttribute("class", "pc-glow");
      glow.removeAttribute("style");
      glow.removeAttribute("fill");
      node.append(glow);
    }
    const where = node.dataset.label ? ` (${node.dataset.label})` : "";
    const others = found.length === 2 ? t("; 1 other move here: use the buttons")
      : found.length > 2 ? t("; {count} other moves here: use the buttons", {count: found.length - 1}) : "";
    node.classList.add("pc-target");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", hint.label + where + others);
    node.dataset.move = hint.move;
    node.append(svg("title", {}, hint.label));
    node.addEventListener("click", () => pick(hint.move));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(hint.move);
      }
    });
    if (!byMove.has(hint.move)) byMove.set(hint.move, []);
    byMove.get(hint.move).push(node);
  }
  // Pointing at a horse (or focusing it) lights up where it would go, and the other way round.
  for (const nodes of byMove.values()) {
    const on = () => nodes.forEach((n) => n.classList.add("pc-hot"));
    const off = () => nodes.forEach((n) => n.classList.remove("pc-hot"));
    for (const node of nodes) {
      node.addEventListener("pointerenter", on);
      node.addEventListener("pointerleave", off);
      node.addEventListener("focus", on);
      node.addEventListener("blur", off);
    }
  }
}

function describe(board, ctx) {
  const names = ctx.names || [];
  const parts = [];
  for (const stable of board.stables) {
    if (stable.seat === null) continue;
    const who = names[stable.seat] || colourWord(stable.colour);
    const horses = board.horses.filter((h) => h.colour === stable.colour);
    const spots = horses.map((h) => h.place === "home" ? t("{horse} waiting", {horse: h.label})
      : h.place === "stable" ? t("{horse} on stable square {number}", {horse: h.label, number: h.progress - 56})
        : h.barrage ? t("{horse} on the track (barrage)", {horse: h.label})
          : t("{horse} on the track", {horse: h.label}));
    parts.push(`${who} (${colourWord(stable.colour)}): ${spots.join(", ")}`);
  }
  return t("Petits Chevaux board. {parts}.", {parts: parts.join(". ")});
}

/** A folded key under the board saying what the marks mean, for newcomers. */
function legend() {
  const box = document.createElement("details");
  box.className = "pc-legend";
  box.style.cssText = ("margin: .3rem auto 0; max-width: 40rem; font-size: .85rem; "
    + "color: var(--muted);");
  const title = document.createElement("summary");
  title.textContent = t("What the board shows");
  const text = document.createElement("p");
  text.style.cssText = "margin: .2rem 0 0;";
  text.textContent = t("Filled arrow: a start square. Framed arrow: the way into the stable. "
    + "1 to 6: the stable; fill squares 3 to 6 to win. Two horses of one colour on a square "
    + "make a barrage that nobody can pass. The moves you can play glow: click or tap the "
    + "horse, or the square where it would land (dashed).");
  box.append(title, text);
  return box;
}

/** Draw the board into ``container``; the page keeps its choice buttons. */
export function render(container, view, ctx) {
  const board = view.board;
  const hints = (ctx && ctx.hints) || [];
  const pick = (ctx && ctx.pick) || (() => {});
  const size = board.size * CELL + 2 * PAD;
  const root = svg("svg", {viewBox: `0 0 ${size} ${size}`, class: "pc-board", role: "group",
    "aria-label": describe(board, ctx || {})});
  adoptStyle(STYLE);
  root.append(svg("rect", {x: 1, y: 1, width: size - 2, height: size - 2, rx: 18,
    fill: "var(--bg)", stroke: "var(--line)", "stroke-width": 2}));
  const layers = ["stables", "track", "ghosts", "horses"].map(() => svg("g"));
  root.append(...layers);
  for (const stable of board.stables) drawStable(layers[0], stable, board, ctx || {});
  drawTrack(layers[1], board);
  drawColumns(layers[1], board);
  drawGhosts(layers[2], board, hints);
  placed.clear();
  drawHorses(layers[3], board);
  wireTargets(root, hints, pick);
  // Keep the keyboard focus on the same element across redraws when it is still a choice.
  const focused = container.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-id") : null;
  const key = legend();
  key.open = Boolean(container.querySelector("details.pc-legend")?.open);  // stays as left
  container.replaceChildren(root, key);
  safely(() => animateHorses(root, board, ctx || {}));
  if (focused) root.querySelector(`.pc-target[data-id="${focused}"]`)?.focus();
  return {ownsChoices: false};
}
