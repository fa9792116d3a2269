// EXTRA! board: the score sheets as SVG, drawn from view.board (games/extra/view.py).
//
// The viewer's own sheet (ctx.seat) is drawn large; the other players' sheets are small
// cards below it (a tap on one shows it large). On the viewer's sheet the cells that the
// legal choices would write in glow and can be picked: first the rows (one or two taps),
// then the EXTRA column, and as soon as only one choice is left it is played. Nobody has to
// read the 27 buttons of a first roll; the page's choice buttons stay, narrowed to the
// choices the tapped cells leave (ctx.narrow).
// No library, no build step; colours come from the page's CSS variables (dark mode works).
import {reducedMotion, safely} from "/static/motion.js";
import {adoptStyle, svg, t} from "/static/shell.js";


/** The cells picked so far (ids), kept while the same choices are on offer. */
let picked = {key: "", ids: []};
/** A sheet the viewer asked to see large (a tap on a small card), or null. */
let shownSeat = null;
/** Set when a pick was made with the keyboard: focus goes back to the sheet after redraw. */
let refocus = false;
/** Each sheet's crosses at the last drawing ({scope, seats: seat -> {rows, extras}}): a
 * cross that is new since is drawn stroke by stroke. */
let seen = {scope: null, seats: new Map()};
/** The new crosses of the current drawing, drawn once the sheet is in the page. */
let strokes = [];

const STYLE = `
.xb { display: grid; gap: .6rem; }
.xb svg { display: block; width: 100%; height: auto; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.xb-main { background: var(--card); border: 1px solid var(--line); border-radius: .8rem;
  clip-path: inset(0 round .8rem); }
.xb-minis { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .5rem; }
.xb-mini { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; cursor: pointer;
  clip-path: inset(-4px round .6rem); }
.xb-mini:has(.xb-cover:focus-visible) { outline: 3px solid var(--accent); outline-offset: 2px; }
.xb-cover { outline: none; }
.xb text { fill: var(--fg); }
.xb .muted { fill: var(--muted); }
.xb .neg { fill: color-mix(in srgb, var(--bad) 13%, var(--card)); }
.xb .pos { fill: color-mix(in srgb, var(--ok) 14%, var(--card)); }
.xb .zero { fill: var(--card); }
.xb .box { stroke: var(--line); stroke-width: 1.2; }
.xb .zero.box { stroke: var(--muted); stroke-width: 1.8; }
.xb .cross { stroke: var(--fg); stroke-width: 2.6; stroke-linecap: round; fill: none; }
.xb .lost { fill: var(--bad); }
.xb .gain { fill: var(--ok); }
.xb .target { fill: color-mix(in srgb, var(--accent) 30%, transparent); stroke: var(--accent);
  stroke-width: 2.5; animation: xb-pulse 1.4s ease-in-out infinite; }
.xb .chosen { stroke: var(--accent); stroke-width: 3; stroke-linecap: round; fill: none;
  stroke-dasharray: 4 3; }
.xb .hit { fill: transparent; cursor: pointer; outline: none; }
.xb .hit:hover { fill: color-mix(in srgb, var(--accent) 8%, transparent); }
.xb .hit:focus-visible { stroke: var(--accent); stroke-width: 3; fill: color-mix(in srgb, var(--accent) 10%, transparent); }
.xb .btn rect { fill: var(--card); stroke: var(--line); stroke-width: 1.5; }
.xb .btn { cursor: pointer; outline: none; }
.xb .btn:hover rect, .xb .btn:focus-visible rect { stroke: var(--accent); stroke-width: 3; }
.xb .prompt { fill: var(--accent); font-weight: 700; }
.xb .head { fill: color-mix(in srgb, var(--fg) 5%, var(--card)); }
@keyframes xb-pulse { 0%, 100% { opacity: 1; } 50% { opacity: .45; } }
@media (prefers-reduced-motion: reduce) { .xb .target { animation: none; } }
/* On a laptop the sheet and the small cards under it fit above the fold (the page's rule
   keeps the board below the seats, the status and the dice row). */
@media (min-width: 761px) { .board svg.xb-main { max-height: calc(100vh - 24rem); } }
/* On a phone the small cards are smaller, so the sheet's finger-sized rows and the cards fit
   one screen. */
@media (max-width: 760px) { .xb-minis { grid-template-columns: repeat(auto-fill, minmax(7.5rem, 8rem)); } }
`;

function label(x, y, text, attrs = {}) {
  return svg("text", {x, y, "font-size": 13, "text-anchor": "middle", ...attrs}, String(text));
}

function cross(x, y, size, cls = "cross") {
  const m = size * 0.22;
  return svg("path", {class: cls, d: `M${x + m} ${y + m}L${x + size - m} ${y + size - m}` +
    `M${x + size - m} ${y + m}L${x + m} ${y + size - m}`});
}

/** A cross written just now: its two strokes drawn one after the other (pen on paper). */
function newCross(x, y, size, delay) {
  const m = size * 0.22;
  const group = svg("g", {class: "new-cross"});
  const lines = [[x + m, y + m, x + size - m, y + size - m], [x + size - m, y + m, x + m, y + size - m]];
  lines.forEach(([x1, y1, x2, y2], i) => {
    const line = svg("path", {class: "cross", d: `M${x1} ${y1}L${x2} ${y2}`, pathLength: 1,
      "stroke-dasharray": 1});
    group.append(line);
    strokes.push({line, delay: delay + i * STROKE_MS});
  });
  return group;
}

const STROKE_MS = 170;

/** The crosses of each sheet before this drawing (none remembered: nothing is new), and
 * remember the ones of this drawing. Nothing is new on a picture or with reduced motion. */
function crossesBefore(board, ctx) {
  const scope = `${board.sheets.length}/${board.layout.sums.join(",")}`;
  const still = ctx.picture || reducedMotion();
  const before = still || seen.scope !== scope ? new Map() : seen.seats;
  if (!ctx.picture) {
    seen = {scope: still ? null : scope, seats: new Map(board.sheets.map((sheet) => [sheet.seat,
      {rows: sheet.rows.map((row) => row.crosses), extras: sheet.extras.map((c) => c.marks)}]))};
  }
  return before;
}

function signed(score) {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0";
}

function nameOf(ctx, seat) {
  return (ctx.names && ctx.names[seat]) || t("Player {number}", {number: seat + 1});
}

/** A clickable, keyboard-reachable SVG element: Enter and Space act like a click. */
function actionable(node, name, act, target) {
  if (target) node.dataset.target = target;  // the id it picks (tests find targets by it)
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", name);
  node.addEventListener("click", () => act(false));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(true); }
  });
  return node;
}

// ------------------------------------------------------------------------- choosing

/** The hints still possible with the picked cells, grouped by the cells they write. */
function candidates(hints, ids) {
  return hints.filter((hint) => ids.every((id) => hint.targets.includes(id)));
}

function sameCells(a, b) {
  return a.targets.length === b.targets.length && a.targets.every((id) => b.targets.includes(id));
}

/** Add ``id`` to the picked cells; play the choice when only one is left. */
function choose(id, state, keyboard) {
  const ids = [...picked.ids, id];
  const left = candidates(state.hints, ids);
  if (!left.length) return;
  if (left.every((hint) => sameCells(hint, left[0])) && left[0].targets.every((t) => ids.includes(t))) {
    picked = {key: picked.key, ids: []};
    state.ctx.pick(left[0].move);
    return;
  }
  picked = {key: picked.key, ids};
  refocus = keyboard;
  render(state.container, state.view, state.ctx);
}

function startAgain(state, keyboard) {
  picked = {key: picked.key, ids: []};
  refocus = keyboard;
  render(state.container, state.view, state.ctx);
}

// ------------------------------------------------------------------------- the big sheet

const ROW_H = 27;
/** A row's (and an EXTRA strip's) height on a phone's narrow sheet: 44 px or more at the
 * width a 390 px phone gives the sheet, so each glowing row is a finger-sized target. */
const ROW_H_NARROW = 57;
const BOX = 24;
const STEP = 25;

function layoutFor(board, narrow, prompt) {
  const zoneBoxes = Math.max(...board.layout.negative);
  const x = {sum: 26, value: 62, zone: 80};
  x.zero = x.zone + zoneBoxes * STEP;
  x.mult = x.zero + STEP;
  x.score = x.mult + board.layout.factors.length * STEP + 56;
  x.extra = x.score + 18;
  const top = prompt ? 84 : 62;
  const gridTop = top + 26;
  const rowH = narrow ? ROW_H_NARROW : ROW_H;
  const gridBottom = gridTop + board.layout.sums.length * rowH;
  const width = narrow ? x.score + 10 : x.extra + 3 * 30 + 4;
  const height = narrow ? gridBottom + 14 + 3 * rowH + 8 : gridBottom + 12;
  return {x, top, gridTop, gridBottom, width, height, narrow, rowH};
}

/** Where each EXTRA column's head and boxes are: vertical beside the rows, or strips below. */
function extraGeometry(geo, column, j) {
  const boxes = [];
  if (!geo.narrow) {
    const x0 = geo.x.extra + j * 30;
    const head = {x: x0, y: geo.gridTop - 2, w: 26, h: 26};
    const room = geo.gridBottom - (head.y + head.h + 4);
    const h = Math.min(BOX, room / column.size - 2);
    for (let i = 0; i < column.size; i++) {
      boxes.push({x: x0 + 2, y: head.y + head.h + 4 + i * (h + 2), w: 22, h});
    }
    const last = boxes.at(-1);
    return {head, boxes, area: {x: x0 - 2, y: head.y - 17, w: 30, h: last.y + last.h - head.y + 19},
      letter: {x: x0 + 13, y: head.y - 6}};
  }
  const y0 = geo.gridBottom + 14 + j * geo.rowH + (geo.rowH - 34) / 2;
  const head = {x: 44, y: y0, w: 28, h: 28};
  const room = geo.width - 10 - (head.x + head.w + 6);
  const w = Math.min(BOX, room / column.size - 2);
  for (let i = 0; i < column.size; i++) {
    boxes.push({x: head.x + head.w + 6 + i * (w + 2), y: y0 + 2, w, h: 24});
  }
  const last = boxes.at(-1);
  return {head, boxes, area: {x: 4, y: y0 - 3 - (geo.rowH - 34) / 2, w: last.x + last.w + 4 - 4, h: geo.rowH},
    letter: {x: 22, y: y0 + 19}};
}

function drawSheet(state, sheet, isMine) {
  const {view, ctx} = state;
  const board = view.board;
  const L = board.layout;
  const hints = isMine ? state.hints : [];
  const left = candidates(hints, picked.ids);
  const prompt = promptText(state, sheet, isMine, left);
  const geo = layoutFor(board, state.narrow, Boolean(prompt));
  const {x} = geo;
  const root = svg("svg", {viewBox: `0 0 ${geo.width} ${geo.height}`, class: "xb-main",
    role: "group", "aria-label": t("{name}'s score sheet: {score} points", {name: nameOf(ctx, sheet.seat), score: sheet.score})});
  const glowing = new Set(left.flatMap((hint) => hint.targets).filter((id) => !picked.ids.includes(id)));
  const chosen = new Set(picked.ids);
  const colour = (view.seat_colours || [])[sheet.seat] || "var(--muted)";

  // Header: whose sheet, its total, where the player stands.
  root.append(svg("rect", {x: 0, y: 0, width: geo.width, height: 50, class: "head"}));
  root.append(svg("rect", {x: 0, y: 0, width: 10, height: 50, fill: colour}));
  const who = nameOf(ctx, sheet.seat) + (ctx.seat === sheet.seat ? t(" (you)") : "");
  root.append(label(22, 22, who, {"text-anchor": "start", "font-size": 19, "font-weight": 700}));
  root.append(label(22, 42, sheetStatus(board, sheet, ctx), {"text-anchor": "start", "font-size": 13, class: "muted"}));
  root.append(label(geo.width - 14, 30, signed(sheet.score), {"text-anchor": "end", "font-size": 28,
    "font-weight": 800, class: sheet.score < 0 ? "lost" : sheet.score > 0 ? "gain" : ""}));
  root.append(label(geo.width - 14, 45, t("points"), {"text-anchor": "end", "font-size": 11, class: "muted"}));
  if (board.winners && board.winners.includes(sheet.seat)) root.append(star(geo.width - 112, 25, 14));

  // The prompt: what to tap now.
  if (prompt) root.append(label(14, 70, prompt, {"text-anchor": "start", "font-size": 14, class: "prompt"}));
  if (isMine && picked.ids.length) {
    const btn = svg("g", {class: "btn"});
    btn.append(svg("rect", {x: geo.width - 104, y: 54, width: 96, height: 22, rx: 8}));
    btn.append(label(geo.width - 56, 69.5, t("↺ Start again"), {"font-size": 12}));
    root.append(actionable(btn, t("Start the choice again"), (keyboard) => startAgain(state, keyboard)));
  }

  // Column headings.
  const hy = geo.gridTop - 8;
  // "sum" from the sheet's left edge, "value" up to the zone: room for longer words
  // (somme, valeur) than centring them over their narrow columns gives.
  root.append(label(3, hy, t("sum"), {"font-size": 10, class: "muted", "text-anchor": "start"}));
  root.append(label(x.zone - 2, hy, t("value"), {"font-size": 10, class: "muted", "text-anchor": "end"}));
  root.append(label(x.zone + (x.zero - x.zone) / 2, hy, t("−200 zone"), {"font-size": 11, class: "muted"}));
  root.append(label(x.zero + BOX / 2, hy, "0", {"font-size": 12, "font-weight": 700}));
  L.factors.forEach((f, i) => root.append(label(x.mult + i * STEP + BOX / 2, hy, `×${f}`, {"font-size": 12, "font-weight": 700})));
  root.append(label(x.score - 4, hy, t("score"), {"font-size": 11, class: "muted", "text-anchor": "end"}));

  const acts = [];
  const was = state.before.get(sheet.seat);
  let delay = 0;
  const write = (bx, by, size, old) => {
    if (!was || old) return cross(bx, by, size);
    const drawn = newCross(bx, by, size, delay);
    delay += 2 * STROKE_MS;
    return drawn;
  };
  sheet.rows.forEach((row, i) => {
    const rowH = geo.rowH;
    const top = geo.gridTop + i * rowH;
    const y = top + (rowH - ROW_H) / 2;  // the boxes and words, centred in a taller row
    const k = L.negative[i];
    const boxes = L.boxes[i];
    if (i % 2 === 0) root.append(svg("rect", {x: 4, y: top - 1, width: x.score + 4 - 4, height: rowH, class: "head", opacity: 0.6}));
    root.append(svg("circle", {cx: x.sum, cy: y + ROW_H / 2 - 1, r: 12, fill: "var(--card)", stroke: "var(--fg)", "stroke-width": 1.5}));
    root.append(label(x.sum, y + ROW_H / 2 + 4, row.sum, {"font-size": 14, "font-weight": 700}));
    root.append(label(x.value, y + ROW_H / 2 + 4, L.values[i], {"font-size": 12, class: "muted"}));
    const cells = [];
    for (let b = 0; b < boxes; b++) {
      const bx = b < k ? x.zero - (k - b) * STEP : x.zero + (b - k) * STEP;
      const cls = b < k ? "neg" : b === k ? "zero" : "pos";
      cells.push(bx);
      root.append(svg("rect", {x: bx, y: y + 1, width: BOX, height: BOX - 1, rx: 4, class: `${cls} box`}));
      if (b < row.crosses) root.append(write(bx, y + 1, BOX, b < was?.rows[i]));
    }
    if (row.noted) {
      root.append(svg("circle", {cx: cells[0] + BOX / 2, cy: y + BOX / 2, r: 4, fill: "var(--fg)"}));
    }
    if (row.crosses) {
      root.append(label(x.score - 4, y + ROW_H / 2 + 4, signed(row.score), {"text-anchor": "end",
        "font-size": 14, "font-weight": 700, class: row.score < 0 ? "lost" : row.score > 0 ? "gain" : ""}));
    }
    if (row.full) root.append(label(x.score - 46, y + ROW_H / 2 + 3, t("full"), {"font-size": 9, class: "muted"}));
    // Highlights: the boxes the choices still possible would cross; the picked ones dashed.
    // The row itself (a cross lost, or only noted) comes first: it is what a first tap does.
    const ids = glowing.has(row.id) ? [row.id] : [];
    for (const cell of row.cells || []) {
      const bx = cells[cell.box];
      if (glowing.has(cell.id)) { root.append(svg("rect", {x: bx - 1, y, width: BOX + 2, height: BOX + 1, rx: 5, class: "target"})); ids.push(cell.id); }
      if (chosen.has(cell.id)) root.append(cross(bx, y + 1, BOX, "chosen"));
    }
    if (glowing.has(row.id)) {
      root.append(svg("rect", {x: x.zone - 4, y: top - 1, width: x.score - x.zone + 6, height: rowH, rx: 6, class: "target", "fill-opacity": 0.25}));
    }
    if (chosen.has(row.id)) root.append(label(x.score - 40, y + ROW_H / 2 + 4, "✓", {class: "prompt"}));
    if (ids.length) {
      const what = ids[0] === row.id ? (row.full ? t("the row is full, the cross is lost") : t("noted, no cross yet"))
        : t("cross box {number}", {number: Number(ids[0].split("-").at(-1)) + 1});
      acts.push(actionable(svg("rect", {x: 4, y: top - 1, width: x.score, height: rowH, rx: 6, class: "hit"}),
        t("Row {sum}: {what}", {sum: row.sum, what}), (keyboard) => choose(ids[0], state, keyboard), ids[0]));
    }
  });

  // The EXTRA columns: the number at the head, then the boxes; the last one ends the game.
  root.append(label(geo.narrow ? 30 : x.extra + 44, geo.narrow ? geo.gridBottom + 8 : geo.gridTop - 22, "EXTRA",
    {"font-size": 11, "font-weight": 700, class: "muted", "text-anchor": geo.narrow ? "start" : "middle"}));
  sheet.extras.forEach((column, j) => {
    const g = extraGeometry(geo, column, j);
    root.append(label(g.letter.x, g.letter.y, column.name.toUpperCase(), {"font-size": 12, "font-weight": 700, class: "muted"}));
    root.append(svg("rect", {x: g.head.x, y: g.head.y, width: g.head.w, height: g.head.h, rx: g.head.w / 2,
      fill: "var(--card)", stroke: column.number ? "var(--fg)" : "var(--line)", "stroke-width": 2,
      "stroke-dasharray": column.number ? null : "3 3"}));
    if (column.number) root.append(label(g.head.x + g.head.w / 2, g.head.y + g.head.h / 2 + 6, column.number, {"font-size": 17, "font-weight": 800}));
    else if (glowing.has(column.id) || chosen.has(column.id)) {
      const fifth = extraNumber(left, column.id);
      if (fifth) root.append(label(g.head.x + g.head.w / 2, g.head.y + g.head.h / 2 + 6, fifth, {"font-size": 17, "font-weight": 800, class: "prompt", opacity: 0.8}));
    }
    g.boxes.forEach((b, i) => {
      const last = i === g.boxes.length - 1;
      root.append(svg("rect", {x: b.x, y: b.y, width: b.w, height: b.h, rx: 3, class: "box zero",
        stroke: last ? "var(--fg)" : null, "stroke-width": last ? 2.4 : null}));
      if (i < column.marks) {
        root.append(write(b.x + (b.w - Math.min(b.w, b.h)) / 2, b.y + (b.h - Math.min(b.w, b.h)) / 2,
          Math.min(b.w, b.h), i < was?.extras[j]));
      }
      else if (last) root.append(label(b.x + b.w / 2, b.y + b.h / 2 + 3, t("end"), {"font-size": 8, class: "muted"}));
    });
    if (glowing.has(column.id) || chosen.has(column.id)) {
      const next = column.number ? g.boxes[Math.min(column.marks, g.boxes.length - 1)] : g.head;
      if (glowing.has(column.id)) {
        root.append(svg("rect", {x: g.area.x, y: g.area.y, width: g.area.w, height: g.area.h, rx: 8,
          class: "target", "fill-opacity": 0.2}));
        root.append(svg("rect", {x: next.x - 2, y: next.y - 2, width: next.w + 4, height: next.h + 4, rx: 5, class: "target"}));
      } else {
        root.append(svg("rect", {x: next.x - 2, y: next.y - 2, width: next.w + 4, height: next.h + 4, rx: 5, class: "chosen"}));
      }
    }
    if (glowing.has(column.id)) {
      const fifth = extraNumber(left, column.id);
      const letter = column.name.toUpperCase();
      const number = column.number || fifth || t("the fifth die");  // extracted on its own
      const text = column.number ? t("EXTRA column {letter}: cross {number}", {letter, number})
        : t("EXTRA column {letter}: write {number} at its head", {letter, number});
      acts.push(actionable(svg("rect", {x: g.area.x, y: g.area.y, width: g.area.w, height: g.area.h, rx: 8, class: "hit"}),
        text, (keyboard) => choose(column.id, state, keyboard), column.id));
    }
  });
  root.append(...acts);
  return root;
}

/** The fifth die a column would get, when every choice still possible on it agrees. */
function extraNumber(left, columnId) {
  const numbers = new Set(left.filter((h) => h.targets.includes(columnId))
    .map((h) => (/x(\d)/.exec(h.move) || [])[1]).filter(Boolean));
  return numbers.size === 1 ? [...numbers][0] : null;
}

function sheetStatus(board, sheet, ctx) {
  if (board.phase === "over") {
    if (board.solo) return sheet.score >= 0 ? t("Game over: you beat the sheet, well done!") : t("Game over: below zero, try again!");
    return board.winners.includes(sheet.seat) ? t("Game over: winner!") : t("Game over");
  }
  const child = (sheet.child ? t(" · children's rules") : "") + (board.solo ? t(" · goal: 0 or more") : "");
  if (sheet.done) return t("Finished: an EXTRA column is full") + child;
  if (sheet.status === "deciding") return (sheet.seat === ctx.seat ? t("Your choice") : t("Choosing…")) + child;
  if (sheet.status === "decided") return t("Decided ✓ waiting for the others") + child;
  if (board.phase === "roll") return t("Roll {number}: {name} rolls the dice", {number: board.turn, name: nameOf(ctx, board.roller)}) + child;
  return t("Playing") + child;
}

function promptText(state, sheet, isMine, left) {
  const board = state.view.board;
  if (board.phase === "over") {
    const names = board.winners.map((seat) => nameOf(state.ctx, seat));
    if (board.solo) return board.winners.length ? t("You won: a total of 0 or more!") : t("A negative total: try again!");
    const best = Math.max(...board.sheets.map((s) => s.score));
    const joined = names.length <= 1 ? names.join("")
      : t("{names} and {last}", {names: names.slice(0, -1).join(", "), last: names.at(-1)});
    const params = {names: joined, points: signed(best), rolls: board.rolls_done};
    return names.length > 1 ? t("{names} win with {points} points after {rolls} rolls!", params)
      : t("{names} wins with {points} points after {rolls} rolls!", params);
  }
  if (!isMine && state.hints.length) return t("Tap your own sheet below to choose.");
  if (!isMine || !state.hints.length) return "";
  if (!picked.ids.length) {
    const free = state.hints.every((h) => / free$/.test(h.move));
    return free ? t("Free ride! Tap the two rows to cross.") : t("Tap a glowing row, then an EXTRA column.");
  }
  const rows = left.length && left.every((h) => h.targets.filter((t) => !t.includes("-x")).every((t) => picked.ids.includes(t)));
  if (rows) return t("{choice}: now tap an EXTRA column.", {choice: left[0].label.split(",")[0]});
  return picked.ids.some((id) => id.includes("-x")) ? t("Now tap the rows to cross.") : t("Now tap a second glowing row.");
}

function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const a = Math.PI / 5 * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    points.push(`${(cx + d * Math.cos(a)).toFixed(1)},${(cy + d * Math.sin(a)).toFixed(1)}`);
  }
  const g = svg("g", {role: "img", "aria-label": t("winner")});
  g.append(svg("polygon", {points: points.join(" "), fill: "#f2b705", stroke: "var(--fg)", "stroke-width": 1.2}));
  return g;
}

// ------------------------------------------------------------------------- the small sheets

function drawMini(state, sheet) {
  const {view, ctx} = state;
  const board = view.board;
  const L = board.layout;
  const colour = (view.seat_colours || [])[sheet.seat] || "var(--muted)";
  const name = nameOf(ctx, sheet.seat) + (sheet.seat === ctx.seat ? " (you)" : "");
  const root = svg("svg", {viewBox: "0 0 170 128", class: "xb-mini"});
  root.append(svg("rect", {x: 0, y: 0, width: 170, height: 26, class: "head"}));
  root.append(svg("rect", {x: 0, y: 0, width: 7, height: 26, fill: colour}));
  root.append(label(13, 18, name.length > 14 ? name.slice(0, 13) + "…" : name, {"text-anchor": "start", "font-size": 13, "font-weight": 700}));
  root.append(label(164, 19, signed(sheet.score), {"text-anchor": "end", "font-size": 16, "font-weight": 800,
    class: sheet.score < 0 ? "lost" : sheet.score > 0 ? "gain" : ""}));
  const winner = board.winners && board.winners.includes(sheet.seat);
  let status = {deciding: t("choosing…"), decided: t("decided ✓"), stopped: t("finished"), playing: ""}[sheet.status];
  if (winner) status = t("winner!");
  if (winner) root.append(star(156, 118, 8));
  root.append(label(8, 122, status + (sheet.child ? t(" · children's rules") : ""), {"text-anchor": "start", "font-size": 10.5, class: "muted"}));
  // One little bar per row: its crosses against its boxes, the -200 zone shaded.
  sheet.rows.forEach((row, i) => {
    const bx = 8 + i * 14.2;
    const full = 44;
    const top = 32;
    const h = full * L.negative[i] / L.boxes[i];
    root.append(svg("rect", {x: bx, y: top, width: 11, height: full, class: "pos box", rx: 2}));
    root.append(svg("rect", {x: bx, y: top + full - h, width: 11, height: h, class: "neg", rx: 2}));
    const filled = full * row.crosses / L.boxes[i];
    if (row.crosses) root.append(svg("rect", {x: bx + 2.5, y: top + full - filled, width: 6, height: filled, fill: "var(--fg)", rx: 1.5}));
    root.append(label(bx + 5.5, top + full + 9, row.sum, {"font-size": 7.5, class: "muted"}));
  });
  // The EXTRA columns: the number and how full the column is.
  sheet.extras.forEach((column, j) => {
    const ex = 8 + j * 54;
    root.append(label(ex, 104, `${column.name.toUpperCase()} ${column.number ?? "–"}`, {"text-anchor": "start", "font-size": 10, "font-weight": 700}));
    root.append(svg("rect", {x: ex + 22, y: 96, width: 26, height: 8, class: "box zero", rx: 2}));
    root.append(svg("rect", {x: ex + 22, y: 96, width: 26 * Math.min(1, column.marks / column.size), height: 8, fill: "var(--fg)", rx: 2}));
  });
  const summary = status ? t("{name}: {score} points, {status}. Show this sheet large.", {name, score: sheet.score, status})
    : t("{name}: {score} points. Show this sheet large.", {name, score: sheet.score});
  // The card's button is a cover over the whole card, named by the summary: the writing on
  // the card (its numbers, the columns' letters) would contradict that name inside it.
  for (const writing of root.querySelectorAll("text")) writing.setAttribute("aria-hidden", "true");
  const cover = svg("rect", {x: 0, y: 0, width: 170, height: 128, fill: "transparent", class: "xb-cover"});
  root.append(actionable(cover, summary, (keyboard) => {
    shownSeat = sheet.seat;
    refocus = keyboard;
    render(state.container, state.view, state.ctx);
  }));
  const item = document.createElement("div");
  item.setAttribute("role", "listitem");
  item.append(root);
  return item;
}

// ------------------------------------------------------------------------- entry point

function isNarrow(container) {
  return (container.clientWidth || 600) < 560;
}

/** Draw every sheet of ``view`` into ``container`` (a full redraw each call). */
export function render(container, view, ctx) {
  const board = view.board;
  const hints = ctx.hints || [];
  const key = `${board.turn}|${ctx.seat}|${hints.map((h) => h.move).join(",")}`;
  if (picked.key !== key) {
    picked = {key, ids: []};
    if (hints.length) shownSeat = null;  // a new choice: show the viewer's own sheet
  }
  const seats = board.sheets.map((s) => s.seat);
  let main = ctx.seat !== null && ctx.seat !== undefined && seats.includes(ctx.seat) ? ctx.seat : null;
  if (shownSeat !== null && seats.includes(shownSeat)) main = shownSeat;
  if (main === null) main = (board.winners && board.winners[0]) ?? 0;
  const narrow = isNarrow(container);
  strokes = [];
  const state = {container, view, ctx, hints, narrow, before: crossesBefore(board, ctx)};

  const wrap = document.createElement("div");
  wrap.className = "xb";
  adoptStyle(STYLE);
  const mine = main === ctx.seat;
  wrap.append(drawSheet(state, board.sheets[main], mine));
  const others = board.sheets.filter((s) => s.seat !== main);
  if (others.length) {
    const minis = document.createElement("div");
    minis.className = "xb-minis";
    minis.setAttribute("role", "list");
    minis.setAttribute("aria-label", t("The other players' sheets"));
    for (const sheet of others) minis.append(drawMini(state, sheet));
    wrap.append(minis);
  }
  container.replaceChildren(wrap);
  // The page's choice buttons narrow to the choices the tapped cells leave (all of them
  // before any tap), so a first row tapped turns 45 buttons into a few.
  if (ctx.narrow) ctx.narrow(picked.ids.length ? candidates(hints, picked.ids).map((h) => h.move) : null);
  safely(() => {
    for (const {line, delay} of strokes) {
      line.animate([{strokeDashoffset: 1}, {strokeDashoffset: 0}],
        {duration: STROKE_MS, delay, easing: "ease-out", fill: "backwards"});
    }
  });
  if (refocus) {
    refocus = false;
    const first = wrap.querySelector(".xb-main .hit, .xb-main .btn, .xb-cover");
    if (first) first.focus();
  }
  return {ownsChoices: false};
}
