// For a Few Extra Meters: the race track as SVG, for the web app's game and replay pages.
//
// render(container, view, ctx) draws, from view.board (see view.py):
// - a panel: whose turn it is, this turn's dice as a sum ("5 + 2 + 3 = 10"), what stopping
//   or a 6 would do, and a big die to "roll again";
// - a winding road of numbered squares from START to FINISH, every runner as a coloured
//   disc with its letter (reads without colour), and while a player decides a dashed "ghost"
//   runner where stopping now would land, with the squares it would walk tinted;
// - a legend of the runners (letter, name, where they stand).
// The legal choices of ctx.hints are highlighted on the board (ghost = stop, big die = roll),
// clickable and keyboard-reachable (Tab, then Enter or Space). The page keeps its own choice
// buttons: render returns {ownsChoices: false}. No libraries, no build step.
import {Motion, safely} from "/static/motion.js";
import {adoptStyle, el, svg as s, t as tr} from "/static/shell.js";

const TILE = 60;          // a square's side, in SVG units
const GAP = 8;            // road visible between two squares of a row
const PITCH = TILE + GAP;
const ROW = TILE + 36;    // from one row to the next: the rows are separate stretches of road
const ROAD = TILE + 14;   // the road's width
const PAD = 12;           // around the track
const TOP = 40;           // room above the first row for the "Stop here" flag

// The runners' places at the last drawing, so that a runner that moved runs there square
// by square; the runs of the current drawing start once the board is in the page.
const motion = new Motion();
let runs = [];

// A keyboard user who acted on a target gets the focus back on the same target when it
// comes back (after the roll, the die to roll again is there again).
let focusWanted = null;

const STYLE = `
.em-board { display: flex; flex-direction: column; gap: .6rem; }
.em-panel { display: flex; gap: .8rem; align-items: center; justify-content: space-between;
  background: var(--card); border: 1px solid var(--line); border-radius: .9rem; padding: .7rem .9rem; }
.em-who { display: flex; gap: .6rem; align-items: center; min-width: 0; }
.em-who svg { width: 2.6rem; height: 2.6rem; flex: none; }
.em-head { font-size: 1.2rem; font-weight: 700; margin: 0; }
.em-sum { font-size: 1.5rem; font-weight: 700; margin: .1rem 0; letter-spacing: .02em; }
.em-sum .em-eq { color: var(--muted); font-weight: 400; }
.em-sum .em-total { color: var(--accent); }
.em-sum .em-so-far { color: var(--muted); font-size: .95rem; font-weight: 400; }
.em-detail { margin: 0; color: var(--muted); font-size: .95rem; }
.em-note { color: var(--fg); margin-top: .25rem; }
.em-roll { flex: none; display: flex; flex-direction: column; align-items: center; gap: .15rem;
  border: 2px solid transparent; border-radius: .9rem; padding: .3rem .5rem; background: none;
  color: var(--fg); font-weight: 700; font-size: .95rem; }
.em-roll svg { width: 4.2rem; height: 4.2rem; }
/* Idle: the die greyed, its words muted but still readable (4.5:1). */
.em-roll.em-idle { color: var(--muted); }
.em-roll.em-idle svg { opacity: .45; }
.em-roll.em-live { cursor: pointer; border-color: var(--accent);
  box-shadow: 0 0 0 4px color-mix(in srgb, var(--accent) 25%, transparent); }
.em-roll.em-live svg { animation: em-wiggle 2.4s ease-in-out infinite; }
.em-roll.em-live:hover, .em-roll.em-live:focus-visible { background: color-mix(in srgb, var(--accent) 12%, transparent); }
.em-roll:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
.em-track { width: 100%; height: auto; display: block; }
/* On a laptop the panel and the track fit the window together (the page's rule leaves room
   for the board alone). */
@media (min-width: 761px) { .board svg.em-track { max-height: calc(100vh - 24rem); } }
/* On a phone the panel stays compact (the roll button's words wrap under its die) and the
   panel, the track and the legend fit one screen together. */
@media (max-width: 760px) {
  .em-panel { padding: .5rem .6rem; gap: .5rem; }
  .em-who svg { width: 2rem; height: 2rem; }
  .em-head { font-size: 1.05rem; }
  .em-sum { font-size: 1.25rem; }
  .em-detail { font-size: .88rem; }
  .em-roll { max-width: 38%; text-align: center; font-size: .85rem; padding: .2rem .3rem; }
  .em-roll svg { width: 3.2rem; height: 3.2rem; }
  .board svg.em-track { max-height: calc(100vh - 19rem); }
}
.em-road { fill: none; stroke: #e8dcc0; stroke-linecap: round; stroke-linejoin: round; }
.em-road-line { fill: none; stroke: #fff8; stroke-dasharray: 10 12; stroke-width: 3; }
.em-tile { fill: var(--card); stroke: var(--line); stroke-width: 2; }
.em-ten { stroke: var(--muted); }
.em-num { fill: var(--muted); font-weight: 600; text-anchor: middle; dominant-baseline: central; }
.em-num.em-big { font-size: 24px; }
.em-num.em-small { font-size: 14px; text-anchor: start; dominant-baseline: auto; }
.em-num.em-tens { fill: var(--fg); font-weight: 800; }
.em-walk { fill-opacity: .28; }
.em-pawn text { fill: #fff; font-weight: 800; text-anchor: middle; dominant-baseline: central;
  paint-order: stroke; stroke: #0006; stroke-width: 1.5px; }
.em-ghost text { font-weight: 800; text-anchor: middle; dominant-baseline: central; }
.em-ring { fill: none; stroke: var(--accent); stroke-width: 4; animation: em-pulse 1.6s ease-in-out infinite; }
.em-glow { fill: none; stroke: var(--accent); stroke-width: 6; animation: em-pulse 1.6s ease-in-out infinite; }
.em-target { cursor: pointer; outline: none; }
.em-target:focus-visible .em-focus, .em-target:hover .em-focus { stroke: var(--fg); stroke-width: 4; stroke-dasharray: 8 5; }
.em-focus { fill: none; stroke: none; }
.em-flag rect, .em-flag path { fill: var(--accent); }
.em-flag-words { pointer-events: none; }
.em-flag text { fill: var(--accent-fg); font-weight: 700; font-size: 20px; text-anchor: middle; dominant-baseline: central; }
.em-label { font-weight: 800; font-size: 13px; text-anchor: middle; dominant-baseline: central; letter-spacing: .05em; }
.em-legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem .5rem; }
.em-legend li { display: flex; align-items: center; gap: .35rem; font-size: .92rem; padding: .15rem .55rem .15rem .2rem;
  border: 1px solid var(--line); border-radius: 1rem; background: var(--card); }
.em-legend li.em-now { border: 2px solid var(--accent); font-weight: 700; }
.em-legend svg { width: 1.5rem; height: 1.5rem; }
.em-legend .em-where { color: var(--muted); }
@keyframes em-pulse { 0%, 100% { stroke-opacity: 1; } 50% { stroke-opacity: .3; } }
@keyframes em-wiggle { 0%, 80%, 100% { transform: rotate(0); } 85% { transform: rotate(-12deg); } 92% { transform: rotate(10deg); } }
@media (prefers-color-scheme: dark) {
  .em-road { stroke: #3d372c; }
  .em-road-line { stroke: #fff3; }
}
@media (prefers-reduced-motion: reduce) {
  .em-ring, .em-glow, .em-roll.em-live svg { animation: none; }
}
`;

/** An SVG text element. */
function t(x, y, text, attrs = {}) {
  const node = s("text", {x, y, ...attrs});
  node.textContent = text;
  return node;
}

/** Where square `index` (0 = start, N + 1 = finish) sits: rows go left-right, then back. */
function cell(index, cols) {
  const row = Math.floor(index / cols);
  const col = row % 2 === 0 ? index % cols : cols - 1 - (index % cols);
  return {x: PAD + col * PITCH, y: TOP + row * ROW, row, col};
}

/** A runner's disc of radius `r` with its letter (and a star for a winner). */
function pawn(runner, cx, cy, r) {
  const group = s("g", {class: "em-pawn"});
  group.append(s("ellipse", {cx, cy: cy + r * 0.85, rx: r * 0.9, ry: r * 0.3, fill: "#0003"}));
  group.append(s("circle", {cx, cy, r, fill: runner.colour, stroke: "#fff", "stroke-width": Math.max(2, r / 7)}));
  group.append(t(cx, cy + 1, runner.letter, {"font-size": r * 1.15}));
  if (runner.winner) group.append(star(cx + r * 0.8, cy - r * 0.8, r * 0.55));
  return group;
}

/** A gold star: the winner's badge. */
function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    const radius = i % 2 === 0 ? r : r * 0.45;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return s("polygon", {points: points.join(" "), fill: "#ffc61a", stroke: "#7a5a00", "stroke-width": 1.2});
}

/** Spots for `count` pieces on one square, and their radius. */
function cluster(count) {
  if (count <= 1) return {r: 21, spots: [[0, 4]]};
  if (count === 2) return {r: 14, spots: [[-14, 4], [14, 4]]};
  if (count <= 4) return {r: 12.5, spots: [[-13, -8], [13, -8], [-13, 15], [13, 15]]};
  const spots = [];
  for (let i = 0; i < 9; i++) spots.push([(i % 3 - 1) * 18, (Math.floor(i / 3) - 1) * 17 + 4]);
  return {r: 9, spots};
}

/** A die face as SVG: the big "roll again" die. Its face is unknown until it is rolled, so
 * it shows a question mark (a face with pips would promise a number). */
function dieFace(size = 64) {
  const box = s("svg", {viewBox: `0 0 ${size} ${size}`, "aria-hidden": "true"});
  const u = size / 64;
  box.append(s("rect", {x: 4 * u, y: 6 * u, width: 56 * u, height: 56 * u, rx: 12 * u, fill: "#0002"}));
  box.append(s("rect", {x: 3 * u, y: 3 * u, width: 56 * u, height: 56 * u, rx: 12 * u,
    fill: "#fffdf6", stroke: "#333", "stroke-width": 2.5 * u}));
  box.append(t(31 * u, 32 * u, "?", {class: "em-unknown", "font-size": 38 * u, "font-weight": 800,
    "text-anchor": "middle", "dominant-baseline": "central", fill: "#222"}));
  return box;
}

/** A small disc with a runner's letter, for the panel and the legend. */
function badge(runner) {
  const box = s("svg", {viewBox: "0 0 40 40", "aria-hidden": "true"});
  box.append(s("circle", {cx: 20, cy: 20, r: 17, fill: runner.colour, stroke: "#fff", "stroke-width": 3}));
  box.append(t(20, 21, runner.letter, {"font-size": 20, "font-weight": 800, "text-anchor": "middle",
    "dominant-baseline": "central", fill: "#fff"}));
  return box;
}

/** Make `node` act like a button for `hint`: click, Enter or Space picks its move. */
function actionable(node, hint, ctx) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", hint.label);
  node.classList.add("em-target");
  const act = (byKey) => {
    focusWanted = byKey ? node.dataset.target : null;
    ctx.pick(hint.move);
  };
  node.addEventListener("click", () => act(false));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      act(true);
    }
  });
}

function nameOf(ctx, seat) {
  return (ctx.names && ctx.names[seat]) || tr("Player {number}", {number: seat + 1});
}

function joinNames(names) {
  return names.length <= 1 ? names.join("")
    : tr("{names} and {last}", {names: names.slice(0, -1).join(", "), last: names.at(-1)});
}

/** The panel above the track: whose turn, the sum so far, and the big die. */
function panel(board, ctx, targets) {
  const runners = board.runners;
  const over = board.phase === "over" && board.winners.length;
  const current = runners[over ? board.winners[0] : board.player];
  const who = nameOf(ctx, board.player);
  const turn = board.turn;
  const yours = targets.size > 0;
  const lines = [];
  let head;
  if (board.phase === "over") {
    const winners = board.winners.map((seat) => nameOf(ctx, seat));
    head = winners.length === 1 ? tr("{names} wins!", {names: joinNames(winners)})
      : tr("{names} win!", {names: joinNames(winners)});
    lines.push(el("p", {class: "em-detail",
      text: tr("Past square {square} in round {round}.", {square: board.track_length, round: board.round})}));
  } else if (board.phase === "opening") {
    head = tr("{name}'s turn", {name: who});
    lines.push(el("p", {class: "em-detail", text: tr("Round {round}: the first roll of the turn…", {round: board.round})}));
  } else {
    head = yours ? tr("Your turn, {name}!", {name: who}) : board.phase === "rolling"
      ? tr("{name} rolls again…", {name: who}) : tr("{name} is thinking…", {name: who});
  }
  if (turn && board.phase !== "over") {
    const sum = el("p", {class: "em-sum", "aria-label": tr("dice so far: {dice} equals {sum}", {dice: turn.dice.join(" + "), sum: turn.sum})});
    turn.dice.forEach((die, i) => {
      if (i) sum.append(el("span", {class: "em-eq", text: " + "}));
      sum.append(el("span", {text: String(die)}));
    });
    if (turn.dice.length > 1) {
      sum.append(el("span", {class: "em-eq", text: " = "}), el("span", {class: "em-total", text: String(turn.sum)}));
    }
    sum.append(el("span", {class: "em-so-far", text: turn.sum === 1 ? tr(" square so far") : tr(" squares so far")}));
    lines.push(sum);
    if (board.phase === "decide") {
      const stop = turn.crosses ? tr("Stop now and you cross the finish!") : turn.from === 0
        ? tr("Stop now: from the start to square {to}.", {to: turn.landing})
        : tr("Stop now: from square {from} to square {to}.", {from: turn.from, to: turn.landing});
      const six = tr("Roll a 6 and you move only {squares}.", {squares: turn.six_moves});
      lines.push(el("p", {class: "em-detail", text: `${stop} ${six}`}));
    }
  }
  const across = runners.filter((r) => r.finished);
  if (board.finish === "same_round" && board.phase !== "over" && across.length) {
    const names = across.map((r) => nameOf(ctx, r.seat));
    lines.push(el("p", {class: "em-detail em-note", text: tr("{names} crossed the finish! The round is played to its end: every runner past the finish by then shares the win.",
      {names: joinNames(names)})}));
  }
  const left = el("div", {class: "em-who"}, badge(current),
    el("div", {}, el("p", {class: "em-head", text: head}), ...lines));
  const parts = [left];
  if (board.roll) {
    const hint = targets.get("roll");
    const die = el("div", {class: `em-roll ${hint ? "em-live" : "em-idle"}`, "data-target": "roll"},
      dieFace(), el("span", {text: tr("Roll again")}));
    if (hint) actionable(die, hint, ctx);
    else die.setAttribute("aria-hidden", "true");
    parts.push(die);
  }
  return el("div", {class: "em-panel"}, ...parts);
}

/** The track: road, squares, start and finish, runners, and the ghost while deciding. */
function track(board, ctx, targets, narrow) {
  const n = board.track_length;
  // On a phone, fewer and bigger squares per row (easier to read and tap): 7 for a short
  // track, at most 10 for a long one.
  const cols = narrow ? (n <= 60 ? 7 : Math.min(10, board.columns)) : board.columns;
  const cells = n + 2;
  const rows = Math.ceil(cells / cols);
  const width = PAD * 2 + cols * PITCH - GAP;
  const height = TOP + (rows - 1) * ROW + TILE + PAD;
  const place = (position) => cell(Math.min(position, n + 1), cols);
  const names = board.runners.map((r) => `${r.letter} ${nameOf(ctx, r.seat)}: ${r.where}`);
  const root = s("svg", {class: "em-track", viewBox: `0 0 ${width} ${height}`, role: "group",
    "aria-label": tr("The track, squares 1 to {last}. {runners}.", {last: n, runners: names.join("; ")})});
  const defs = s("defs", {});
  const check = s("pattern", {id: "em-check", width: 20, height: 20, patternUnits: "userSpaceOnUse"},
    s("rect", {width: 20, height: 20, fill: "#fff"}),
    s("rect", {width: 10, height: 10, fill: "#222"}), s("rect", {x: 10, y: 10, width: 10, height: 10, fill: "#222"}));
  defs.append(check);
  root.append(defs);

  // The road: one thick winding line through every square's centre.
  const points = [];
  for (let i = 0; i < cells; i++) {
    const c = cell(i, cols);
    points.push(`${c.x + TILE / 2},${c.y + TILE / 2}`);
  }
  root.append(s("polyline", {class: "em-road", points: points.join(" "), "stroke-width": ROAD}));
  root.append(s("polyline", {class: "em-road-line", points: points.join(" ")}));

  // What stopping now would do: the squares walked, tinted in the runner's colour.
  const turn = board.turn;
  const mover = board.runners[board.player];
  const walked = new Set();
  if (turn && board.phase !== "over") {
    for (let p = turn.from + 1; p <= Math.min(turn.landing, n + 1); p++) walked.add(p);
  }

  for (let i = 0; i < cells; i++) {
    const c = cell(i, cols);
    if (i === 0) {
      const start = tr("START");  // a message of its own: Babel skips calls nested in t(x, y, ...)
      root.append(s("rect", {x: c.x, y: c.y, width: TILE, height: TILE, rx: 10, fill: "#2e9d4f", stroke: "#1d6b35", "stroke-width": 2}));
      root.append(t(c.x + TILE / 2, c.y + 10, start, {class: "em-label", fill: "#fff", "font-size": 11.5}));
      continue;
    }
    if (i === n + 1) {
      root.append(s("rect", {x: c.x, y: c.y, width: TILE, height: TILE, rx: 10, fill: "url(#em-check)", stroke: "#222", "stroke-width": 2}));
      root.append(s("rect", {x: c.x + 3, y: c.y + 2, width: TILE - 6, height: 16, rx: 5, fill: "#fff", "fill-opacity": 0.95}));
      const finish = tr("FINISH");
      root.append(t(c.x + TILE / 2, c.y + 10.5, finish, {class: "em-label", fill: "#222", "font-size": 11.5}));
      continue;
    }
    const tens = i % 10 === 0;
    root.append(s("rect", {x: c.x, y: c.y, width: TILE, height: TILE, rx: 10, class: `em-tile${tens ? " em-ten" : ""}`}));
    if (walked.has(i)) {
      root.append(s("rect", {x: c.x, y: c.y, width: TILE, height: TILE, rx: 10, class: "em-walk", fill: mover.colour}));
    }
  }
  if (walked.has(n + 1)) {
    const c = cell(n + 1, cols);
    root.append(s("rect", {x: c.x, y: c.y, width: TILE, height: TILE, rx: 10, class: "em-walk", fill: mover.colour}));
  }

  // Who stands where (the ghost counts as one more piece on its square).
  const crowds = new Map();
  const add = (index, piece) => {
    if (!crowds.has(index)) crowds.set(index, []);
    crowds.get(index).push(piece);
  };
  for (const runner of board.runners) add(Math.min(runner.position, n + 1), {runner});
  const ghostAt = board.landing ? Math.min(board.landing.position, n + 1) : null;
  if (ghostAt !== null) add(ghostAt, {runner: mover, ghost: true});

  // Square numbers: big when free, small in the corner when someone stands there.
  for (let i = 1; i <= n; i++) {
    const c = cell(i, cols);
    const tens = i % 10 === 0 ? " em-tens" : "";
    if (crowds.has(i)) root.append(t(c.x + 5, c.y + 14, String(i), {class: `em-num em-small${tens}`}));
    else root.append(t(c.x + TILE / 2, c.y + TILE / 2 + 1, String(i), {class: `em-num em-big${tens}`}));
  }

  // Who moved since the last drawing (of the same track and runners).
  const animate = motion.begin(ctx, `${n}/${cols}/${board.runners.length}`);
  const movers = [];
  let ghostSpot = null;
  for (const [index, pieces] of crowds) {
    const c = cell(index, cols);
    const {r, spots} = cluster(pieces.length);
    const special = index === 0 || index === n + 1;
    const dy = special ? 8 : 0;
    pieces.forEach((piece, k) => {
      const [ox, oy] = spots[k % spots.length];
      const cx = c.x + TILE / 2 + ox;
      const cy = c.y + TILE / 2 + oy + dy;
      if (piece.ghost) {
        ghostSpot = {cx, cy, r};
        const ghost = s("g", {class: "em-ghost"});
        ghost.append(s("circle", {cx, cy, r, fill: "var(--card)"}));
        ghost.append(s("circle", {cx, cy, r, fill: piece.runner.colour, "fill-opacity": 0.15,
          stroke: piece.runner.colour, "stroke-width": 3, "stroke-dasharray": "6 4"}));
        ghost.append(t(cx, cy + 1, piece.runner.letter, {"font-size": r * 1.1, fill: piece.runner.colour}));
        root.append(ghost);
        return;
      }
      if (piece.runner.current) root.append(s("circle", {class: "em-ring", cx, cy, r: r + (pieces.length > 1 ? 3 : 5)}));
      const drawn = pawn(piece.runner, cx, cy, r);
      drawn.dataset.seat = piece.runner.seat;
      const before = animate ? motion.moved(piece.runner.seat, {index, at: [cx, cy]}) : null;
      if (!before) {
        root.append(drawn);
        if (animate) runs.push({id: piece.runner.seat, node: drawn, points: null});
      } else movers.push({drawn, before, to: index, at: [cx, cy]});
    });
  }
  // Runners that just moved run along the road from their old square (drawn on top).
  for (const mover of movers) {
    const points = [];
    const step = mover.to >= mover.before.index ? 1 : -1;
    for (let i = mover.before.index; i !== mover.to + step; i += step) {
      const c = cell(i, cols);
      points.push([c.x + TILE / 2, c.y + TILE / 2]);
    }
    points[0] = mover.before.at;
    points[points.length - 1] = mover.at;
    root.append(mover.drawn);
    runs.push({id: mover.drawn.dataset.seat, node: mover.drawn, points});
  }

  // The stop target: the ghost's square, with a flag when the viewer may pick it.
  if (board.landing && ghostSpot) {
    const c = cell(ghostAt, cols);
    const hint = targets.get("landing");
    const group = s("g", {"data-target": "landing"});
    if (hint) {
      group.append(s("rect", {class: "em-glow", x: c.x - 4, y: c.y - 4, width: TILE + 8, height: TILE + 8, rx: 13}));
      const label = turn.crosses ? tr("Stop: finish!") : tr("Stop here");
      const w = label.length * 11 + 24;
      const fx = Math.max(2, Math.min(width - w - 2, c.x + TILE / 2 - w / 2));
      group.append(s("g", {class: "em-flag"},
        s("rect", {x: fx, y: c.y - 36, width: w, height: 30, rx: 15}),
        s("path", {d: `M${c.x + TILE / 2 - 7},${c.y - 7} l7,7 l7,-7 z`})));
      group.append(s("rect", {class: "em-focus", x: c.x - 8, y: c.y - 8, width: TILE + 16, height: TILE + 16, rx: 15}));
      group.append(s("rect", {x: c.x - 4, y: c.y - 36, width: TILE + 8, height: TILE + 40, fill: "transparent"}));
      actionable(group, hint, ctx);
      // The flag's words lie over it but outside the button, which is named by its whole
      // move; a click on them reaches the flag below.
      root.append(group);
      const words = s("g", {class: "em-flag em-flag-words", "aria-hidden": "true"}, t(fx + w / 2, c.y - 21, label));
      root.append(words);
    } else {
      root.append(group);
    }
  }
  return root;
}

/** The runners in words: letter, name, and where each stands. */
function legend(board, ctx) {
  return el("ul", {class: "em-legend", "aria-label": "Runners"}, ...board.runners.map((runner) => {
    const now = runner.current && board.phase !== "over";
    const where = runner.winner ? `${runner.where} — winner!` : runner.where;
    return el("li", {class: now ? "em-now" : null}, badge(runner),
      el("span", {text: nameOf(ctx, runner.seat)}), el("span", {class: "em-where", text: where}));
  }));
}

/** Draw the whole board into `container` (fully, every call). */
export function render(container, view, ctx) {
  const board = view && view.board;
  const hints = (ctx && ctx.hints) || [];
  const safe = {...ctx, names: (ctx && ctx.names) || [], pick: (ctx && ctx.pick) || (() => {})};
  if (!board) {
    container.replaceChildren();
    return {ownsChoices: false};
  }
  const targets = new Map();
  for (const hint of hints) {
    for (const id of hint.targets || []) if (!targets.has(id)) targets.set(id, hint);
  }
  adoptStyle(STYLE);
  runs = [];
  // As a picture (the home page's card, ctx.picture), the track alone.
  const narrow = container.clientWidth > 0 && container.clientWidth < 560;
  const drawn = safe.picture ? [track(board, safe, targets, narrow)]
    : [panel(board, safe, targets), track(board, safe, targets, narrow), legend(board, safe)];
  const root = el("div", {class: "em-board"}, ...drawn);
  container.replaceChildren(root);
  safely(() => {
    for (const {id, node, points} of runs) {
      if (points) motion.play(Number(id), node, points, {stepMs: 110});
      else motion.resume(id, node);
    }
  });
  if (focusWanted && targets.has(focusWanted)) {
    const again = root.querySelector(`[data-target="${focusWanted}"]`);
    if (again) again.focus({preventScroll: true});
    focusWanted = null;
  }
  return {ownsChoices: false};
}
