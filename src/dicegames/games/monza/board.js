// Monza's board: the three-lane circuit as inline SVG, drawn from the view's data alone
// (a user's own circuit file is drawn like the shipped one). The track is cut into rows
// that fit the container's width and read like lines of a book; the wide start zone opens
// the first row. Every square shows its colour, its colour's letter (R Y G B W P, the dice's
// too, in every language) and shape (view.py's SHAPES, drawn by /static/marks.js), tyres
// are grey with tyres drawn on them, targets carry a chequered finish line, and each car
// has its colour and its player's number, so the board reads without colour too.
// The legal moves of ctx.hints glow on the board and are clicked (or focused with Tab and
// chosen with Enter or Space); the page's choice buttons stay (render returns ownsChoices
// false). Fully redrawn on every call; no libraries, no build step.
import {Motion, fewestSteps, safely} from "/static/motion.js";
import {shapeMark} from "/static/marks.js";
import {adoptStyle, el, svg, t} from "/static/shell.js";

/** The colours' names in the page's language. */
const COLOUR_WORDS = {red: t("red"), yellow: t("yellow"), green: t("green"), blue: t("blue"),
  white: t("white"), purple: t("purple")};
const colourWord = (colour) => COLOUR_WORDS[colour] || colour;


const FILL = {red: "#e53935", yellow: "#fbc02d", green: "#43a047", blue: "#1e88e5",
  white: "#f4f4ef", purple: "#8e24aa", tyre: "#55534e"};
const INK = {red: "#fff", yellow: "#1f1d1a", green: "#fff", blue: "#fff", white: "#1f1d1a",
  purple: "#fff", tyre: "#fff"};

const LANE = 3.1;        // height of a lane, in track units
const START_W = 5.6;     // the start zone's width (first row)
const INDENT = 1.4;      // the left margin of the other rows (the "continues" arrow)
const ROW_GAP = 2.3;     // between rows: the road back to the left
const TOP = 0.5;
const PX_PER_UNIT = 13;  // at least this many pixels per unit: squares stay big enough to tap

const CSS = `
.monza-board { display: grid; gap: .45rem; }
.monza-turn { display: flex; align-items: center; gap: .5rem;
  font-size: 1.05rem; font-weight: 600; }
.monza-turn > span:not(.mz-pill) { flex: 1 1 auto; min-width: 0; }
.monza-turn .mz-pill { flex: none; }
.monza-turn .mz-pill { font-size: .8rem; font-weight: 700; padding: .1rem .55rem;
  border-radius: 1rem; background: var(--accent); color: var(--accent-fg); }
.monza-turn .mz-pill.last { background: #c62828; color: #fff; }
.monza-cars { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap;
  gap: .3rem .5rem; font-size: .9rem; }
.monza-cars li { display: flex; align-items: center; gap: .3rem; padding: .1rem .5rem .1rem .2rem;
  border: 1px solid var(--line); border-radius: 1rem; background: var(--card); }
.monza-cars li.now { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent) inset; }
.monza-cars .mz-where { color: var(--muted); }
.monza-cars svg, .monza-turn svg { width: 2.1rem; height: 1.3rem; flex: none; }
.monza-board > svg.mz-track { width: 100%; height: auto; display: block; background: var(--card);
  border: 1px solid var(--line); border-radius: .8rem; }
.monza-key { margin: 0; font-size: .8rem; color: var(--muted); }
.monza-key .mz-swatch { display: inline-flex; align-items: center; gap: .2rem; margin-right: .5rem;
  white-space: nowrap; color: var(--fg); }
.monza-key .mz-swatch svg { width: 1.6rem; height: 1.1rem; flex: none; }
.mz-track text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  pointer-events: none; }
.mz-track .mz-pick { cursor: pointer; }
.mz-track .mz-marks { pointer-events: none; }
.mz-track .mz-car { pointer-events: none; }
.mz-track .mz-car.mz-pick { pointer-events: auto; }
.mz-track .mz-pick:focus { outline: none; }
.mz-track .mz-glow { fill: none; stroke: #111; stroke-width: .5; }
.mz-track .mz-ants { fill: none; stroke: #fff; stroke-width: .24; stroke-dasharray: .55 .4;
  animation: mz-march 1s linear infinite; }
.mz-track .mz-pick:hover .mz-glow, .mz-track .mz-pick:focus-visible .mz-glow { stroke: var(--accent); stroke-width: .7; }
.mz-track .mz-pick:focus .mz-glow { stroke: var(--accent); stroke-width: .7; }
.mz-track .mz-pick.suggested .mz-glow { stroke: var(--ok); stroke-width: .8; }
.mz-track .mz-dim { opacity: .6; }
@keyframes mz-march { to { stroke-dashoffset: -.95; } }
.mz-track .mz-turn-ring { fill: none; stroke: var(--fg); stroke-width: .2; stroke-dasharray: .5 .35;
  animation: mz-march 1.6s linear infinite; }
@media (prefers-reduced-motion: reduce) {
  .mz-track .mz-ants, .mz-track .mz-turn-ring { animation: none; } }
`;

/** An SVG text, hidden from assistive technology: every square, car and zone carries its
 * whole description in its own label, which a letter or a number inside would contradict. */
function text(x, y, content, attrs = {}) {
  const node = svg("text", {x: r2(x), y: r2(y), "aria-hidden": "true", ...attrs});
  node.textContent = content;
  return node;
}

const r2 = (v) => Math.round(v * 100) / 100;

/** A race car seen from above, pointing right, centred on (0, 0): colour + number. */
function car(colour, number, scale = 1) {
  const fill = FILL[colour] || "#888";
  const g = svg("g", {transform: `scale(${scale})`});
  for (const [x, y] of [[-0.95, -0.86], [0.55, -0.86], [-0.95, 0.56], [0.55, 0.56]]) {
    g.append(svg("rect", {x, y, width: 0.62, height: 0.3, rx: 0.1, fill: "#1b1b1b"}));
  }
  g.append(svg("path", {d: "M-1.35 -0.62 H0.75 Q1.45 -0.55 1.45 0 Q1.45 0.55 0.75 0.62 H-1.35 Q-1.5 0 -1.35 -0.62 Z",
    fill, stroke: "#1b1b1b", "stroke-width": 0.1}));
  g.append(svg("rect", {x: -1.55, y: -0.7, width: 0.32, height: 1.4, rx: 0.08, fill: "#1b1b1b"}));
  g.append(svg("circle", {cx: -0.1, cy: 0, r: 0.5, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 0.07}));
  g.append(text(-0.1, 0.25, String(number), {"text-anchor": "middle", "font-size": 0.72,
    "font-weight": 800, fill: "#1b1b1b"}));
  return g;
}

/** A small standalone car for the legend and the turn line. */
function carIcon(colour, number) {
  return svg("svg", {viewBox: "-1.7 -1 3.3 2", "aria-hidden": "true"}, car(colour, number));
}

/** The rows the circuit is cut into for a container `width` px wide. A row ends where each
 * lane has a square boundary near the row's length (lanes are staggered, so each lane breaks
 * at its own boundary): no square is ever cut in two, so every square stays whole to read
 * and to tap. A row holds the track units [u0, u1); lane `l` draws the squares whose start
 * lies in [from[l], to[l]). */
function layout(board, width) {
  const first = board.first;
  const span = board.length - first;
  const most = Math.max(16, width / PX_PER_UNIT);
  const count = Math.max(1, Math.ceil((span + START_W - INDENT) / (most - INDENT)));
  const per = Math.ceil((span + START_W - INDENT) / count);   // track units per row (not row 0)
  const total = per + INDENT + 0.4;
  // Each lane's break nearest the ideal one, at a square boundary of that lane.
  const breakAt = (lane, u) => {
    let best = board.length;
    for (const sq of lane.squares) {
      for (const b of [sq.start, sq.end]) {
        if (b > first && b < board.length && Math.abs(b - u) < Math.abs(best - u)) best = b;
      }
    }
    return best;
  };
  const out = [];
  let from = board.lanes.map(() => first);
  let ideal = first;
  for (let r = 0; r < count && Math.min(...from) < board.length; r++) {
    const x = r === 0 ? START_W : INDENT;
    ideal = r === count - 1 ? board.length : ideal + Math.round(total - 0.4 - x);
    const to = board.lanes.map((lane, l) =>
      (r === count - 1 ? board.length : Math.max(from[l], breakAt(lane, ideal))));
    out.push({u0: Math.min(...from), u1: Math.max(...to), from, to, x,
      y: TOP + r * (board.lanes.length * LANE + ROW_GAP)});
    from = to;
  }
  const last = out[out.length - 1];
  last.to = board.lanes.map(() => board.length);
  last.u1 = board.length;
  const height = last.y + board.lanes.length * LANE + 0.6;
  return {rows: out, width: Math.max(total, ...out.map((row) => row.x + row.u1 - row.u0 + 0.4)), height};
}

/** The chequered finish strip: `n` rows of two squares between y0 and y1 at x. */
function chequer(x, y0, y1, cell) {
  const g = svg("g", {"aria-hidden": "true"});
  const n = Math.max(2, Math.round((y1 - y0) / cell));
  const h = (y1 - y0) / n;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 2; j++) {
      g.append(svg("rect", {x: r2(x + j * cell), y: r2(y0 + i * h), width: r2(cell), height: r2(h),
        fill: (i + j) % 2 ? "#1b1b1b" : "#fff"}));
    }
  }
  return g;
}

/** A tyre (grey ring) centred at (x, y). */
function tyre(x, y, radius) {
  return svg("g", {"aria-hidden": "true"},
    svg("circle", {cx: r2(x), cy: r2(y), r: r2(radius), fill: "#2b2a27", stroke: "#8d8a82", "stroke-width": 0.12}),
    svg("circle", {cx: r2(x), cy: r2(y), r: r2(radius * 0.42), fill: "#8d8a82"}));
}

function describeSquare(sq) {
  if (sq.colour === "tyre") return t("{square}, tyre: no car may drive here", {square: sq.id});
  return sq.target ? t("{square}, {colour}, finish", {square: sq.id, colour: colourWord(sq.colour)})
    : `${sq.id}, ${colourWord(sq.colour)}`;
}

/** Make `node` a clickable, keyboard-reachable button for `hints` (the first is picked). */
function makePick(node, hints, ctx) {
  node.classList.add("mz-pick");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", hints.map((h) => h.label).join(" or "));
  node.dataset.move = hints[0].move;
  const act = () => ctx.pick(hints[0].move);
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(); }
  });
  node.append(svg("title", {}, document.createTextNode(hints.map((h) => h.label).join(" / "))));
}

// Where each car was last drawn, so a car that moved drives to its new square.
const motion = new Motion();

/** The squares a car drives through from `from` to `to` (ids; "start" is the start zone):
 * forward, the fewest legal steps (the next square in its lane, or an overlapping square of
 * a neighbouring lane that ends further on; from the start, the entries); pushed back, the
 * squares of its lane behind it, down to the start zone. */
function pathOf(board, from, to) {
  const squares = new Map();
  for (const lane of board.lanes) for (const sq of lane.squares) squares.set(sq.id, sq);
  const a = squares.get(from);
  const b = squares.get(to);
  if (a && (!b || b.start < a.start)) {
    const lane = board.lanes[a.lane].squares;
    const ids = lane.filter((sq) => sq.colour !== "tyre" && sq.start <= a.start
      && (!b || sq.start >= b.start)).sort((x, y) => y.start - x.start).map((sq) => sq.id);
    return b ? ids : [...ids, board.start];
  }
  const steps = (id) => {
    if (id === board.start) return [...squares.values()].filter((sq) => sq.entry).map((sq) => sq.id);
    const sq = squares.get(id);
    const lane = board.lanes[sq.lane].squares;
    const next = lane[lane.indexOf(sq) + 1];
    const side = [sq.lane - 1, sq.lane + 1].filter((l) => board.lanes[l]).flatMap((l) =>
      board.lanes[l].squares.filter((o) => o.start < sq.end && o.end > sq.start && o.end > sq.end));
    return [...(next ? [next] : []), ...side].filter((o) => o.colour !== "tyre").map((o) => o.id);
  };
  return fewestSteps(from, to, steps);
}

function drawTrack(board, ctx, width) {
  const moving = [];
  const pushed = [];
  const resumed = [];
  const {rows, width: w, height} = layout(board, width);
  const animate = motion.begin(ctx, `${rows.length}/${r2(w)}/${board.cars.length}`);
  // Short circuits on wide screens: no bigger than about 30 px per unit.
  const root = svg("svg", {class: "mz-track", viewBox: `0 0 ${r2(w)} ${r2(height)}`,
    style: `max-width: ${Math.round(w * 30)}px`,
    role: "group", "aria-label": t("{name}: the circuit", {name: board.name})});
  const byTarget = new Map();
  for (const hint of ctx.hints || []) {
    for (const id of hint.targets) {
      if (!byTarget.has(id)) byTarget.set(id, []);
      byTarget.get(id).push(hint);
    }
  }
  const choosing = byTarget.size > 0;
  const lanesH = board.lanes.length * LANE;

  // The road: an asphalt band under each row, and the way back to the next row.
  const roads = svg("g", {"aria-hidden": "true"});
  rows.forEach((row, r) => {
    roads.append(svg("rect", {x: r2(row.x - 0.25), y: r2(row.y - 0.25), width: r2(row.u1 - row.u0 + 0.5),
      height: r2(lanesH + 0.5), rx: 0.6, fill: "var(--line)"}));
    if (r + 1 < rows.length) {
      const next = rows[r + 1];
      const xe = row.x + row.u1 - row.u0 + 0.05;
      const ym = row.y + lanesH + ROW_GAP / 2;
      roads.append(svg("path", {d: `M${r2(xe)} ${r2(row.y + lanesH - 0.4)} Q${r2(xe)} ${r2(ym)} ${r2(xe - 1.2)} ${r2(ym)} H${r2(next.x - 0.2)} Q${r2(0.35)} ${r2(ym)} ${r2(0.35)} ${r2(next.y + 0.9)}`,
        fill: "none", stroke: "var(--muted)", "stroke-width": 0.16, "stroke-dasharray": "0.6 0.45",
        "stroke-linecap": "round"}));
      roads.append(svg("path", {d: `M${r2(0.15)} ${r2(next.y + lanesH / 2 - 0.6)} L${r2(0.95)} ${r2(next.y + lanesH / 2)} L${r2(0.15)} ${r2(next.y + lanesH / 2 + 0.6)} Z`,
        fill: "var(--muted)"}));
    }
  });
  root.append(roads);

  // The start zone at the head of the first row.
  const row0 = rows[0];
  const zone = svg("g", {"data-id": board.start, role: "img", "aria-label": t("the start zone")});
  zone.append(svg("rect", {x: 0.25, y: r2(row0.y - 0.25), width: r2(START_W - 0.85), height: r2(lanesH + 0.5),
    rx: 0.6, fill: "var(--bg)", stroke: "var(--line)", "stroke-width": 0.12}));
  zone.append(chequer(START_W - 1.2, row0.y - 0.2, row0.y + lanesH + 0.2, 0.35));
  zone.append(text((START_W - 1.0) / 2 + 0.05, row0.y + 0.85, t("START"), {"text-anchor": "middle",
    "font-size": 0.78, "font-weight": 800, fill: "var(--fg)", "letter-spacing": 0.05}));
  root.append(zone);

  // The squares, each whole in the row that holds its lane's stretch of track.
  const centres = new Map();
  const squares = svg("g");
  const marks = svg("g", {class: "mz-marks", "aria-hidden": "true"});
  for (const lane of board.lanes) {
    for (const sq of lane.squares) {
      const group = svg("g", {"data-id": sq.id, "data-colour": sq.colour});
      const row = rows.find((r) => sq.start >= r.from[sq.lane] && sq.start < r.to[sq.lane])
        || rows[rows.length - 1];
      const p = {x0: row.x + sq.start - row.u0 + 0.08, x1: row.x + sq.end - row.u0 - 0.08,
        y0: row.y + sq.lane * LANE + 0.08, y1: row.y + (sq.lane + 1) * LANE - 0.08};
      const hints = byTarget.get(sq.id);
      const body = svg("g", {class: choosing && !hints ? "mz-dim" : null});
      body.append(svg("rect", {x: r2(p.x0), y: r2(p.y0), width: r2(p.x1 - p.x0), height: r2(p.y1 - p.y0),
        rx: 0.45, fill: FILL[sq.colour] || "#999",
        stroke: sq.colour === "white" ? "#a9a49a" : "#0003", "stroke-width": 0.1}));
      if (sq.colour === "tyre") {
        const count = Math.max(1, Math.floor((p.x1 - p.x0) / 1.7));
        for (let i = 0; i < count; i++) {
          const cx = p.x0 + (p.x1 - p.x0) * (i + 0.5) / count;
          body.append(tyre(cx, (p.y0 + p.y1) / 2 - 0.4, 0.55), tyre(cx, (p.y0 + p.y1) / 2 + 0.55, 0.55));
        }
      }
      if (sq.target) {
        body.append(chequer(p.x1 - 0.75, p.y0 + 0.02, p.y1 - 0.02, 0.32));
      }
      const ink = INK[sq.colour] || "#fff";
      // The square's writing (letter, shape, name) lies on a layer of its own above the
      // squares: a marked square is a button named by its move, which a letter and a name
      // inside it would contradict.
      const mark = svg("g", {class: choosing && !hints ? "mz-mark mz-dim" : "mz-mark",
        "data-square": sq.id, "data-hue": sq.colour});
      if (sq.letter) {
        mark.append(text(p.x0 + 0.5, p.y0 + 1.42, sq.letter, {"font-size": 1.15,
          "font-weight": 800, fill: ink}));
      }
      // The colour's shape beside its letter (below it on a narrow square of a user's circuit).
      const wide = p.x1 - p.x0 >= 2.6;
      const shape = shapeMark(sq.shape, wide ? p.x0 + 1.95 : p.x0 + 0.9, wide ? p.y0 + 1.0 : p.y0 + 2.05,
        0.9, ink);
      if (shape) mark.append(shape);
      mark.append(text(sq.target ? p.x1 - 0.9 : p.x1 - 0.4, p.y1 - 0.4, sq.id,
        {"font-size": 0.62, "text-anchor": "end", fill: ink, "fill-opacity": 0.85}));
      marks.append(mark);
      if (sq.entry) {
        body.append(svg("path", {d: `M${r2(p.x0 + 0.12)} ${r2(p.y0 + 1.75)} l0.5 0.4 l-0.5 0.4 Z`,
          fill: ink, "fill-opacity": 0.8, "aria-hidden": "true"}));
      }
      group.append(body);
      if (hints) {
        for (const cls of ["mz-glow", "mz-ants"]) {
          group.append(svg("rect", {class: cls, x: r2(p.x0 + 0.14), y: r2(p.y0 + 0.14),
            width: r2(p.x1 - p.x0 - 0.28), height: r2(p.y1 - p.y0 - 0.28), rx: 0.38}));
        }
        makePick(group, hints, ctx);
      } else {
        group.setAttribute("role", "img");
        group.setAttribute("aria-label", describeSquare(sq));
      }
      squares.append(group);
      centres.set(sq.id, {x: (p.x0 + p.x1) / 2, y: (p.y0 + p.y1) / 2 + 0.15, w: p.x1 - p.x0});
    }
  }
  root.append(squares, marks);

  // The cars: on their squares (side by side when several share one), or in the start zone.
  const names = ctx.names || [];
  const inStart = board.cars.filter((c) => c.at === board.start);
  const elsewhere = new Map();
  for (const c of board.cars) {
    if (c.at !== board.start) {
      if (!elsewhere.has(c.at)) elsewhere.set(c.at, []);
      elsewhere.get(c.at).push(c);
    }
  }
  const place = [];
  // A grid in the zone below its title: as many rows as the lanes leave room for.
  const zoneW = START_W - 1.45;
  const top = row0.y + 1.15;
  const fit = Math.max(1, Math.min(3, Math.floor((lanesH - 1.15) / 1.4)));
  const cols = Math.max(1, Math.ceil(inStart.length / fit));
  const perCol = Math.ceil(inStart.length / cols) || 1;
  const slot = (lanesH - 1.25) / Math.max(perCol, Math.min(fit, 3));
  const scale = Math.min(0.8, zoneW / cols / 3.2, slot / 1.75);
  inStart.forEach((c, i) => {
    const col = Math.floor(i / perCol);
    const k = i % perCol + (cols === 1 && inStart.length < fit ? (fit - inStart.length) / 2 : 0);
    place.push({c, x: 0.3 + zoneW * (col + 0.5) / cols, y: top + slot * (k + 0.5), s: scale});
  });
  for (const [at, group] of elsewhere) {
    const centre = centres.get(at);
    if (!centre) continue;
    group.forEach((c, i) => {
      // Low in the square, so its colour letter (top left) stays readable.
      const s = group.length > 1 ? 0.62 : Math.min(0.82, centre.w / 3.1);
      place.push({c, x: centre.x + (i - (group.length - 1) / 2) * 1.9 * s + (group.length > 1 ? 0 : 0.15),
        y: centre.y + 0.55 + (group.length > 1 ? 0.25 * (i % 2 ? 1 : -1) : 0), s});
    });
  }
  const carsLayer = svg("g");
  for (const {c, x, y, s} of place) {
    const hints = byTarget.get(c.id);
    const who = names[c.seat] || t("Player {number}", {number: c.seat + 1});
    const g = svg("g", {"data-id": c.id, class: "mz-car"});
    g.style.transform = `translate(${r2(x)}px, ${r2(y)}px)`;
    const before = animate ? motion.moved(c.id, {at: c.at, x, y}) : null;
    if (before) {
      // Through the squares' centres (low in the square, where a car stands), from its old
      // spot to its new one; a car pushed back goes once the mover has arrived.
      let points = [];
      safely(() => {
        if (before.at !== c.at) {
          points = pathOf(board, before.at, c.at).map((id) => {
            const centre = centres.get(id);
            return centre ? [centre.x, centre.y + 0.55] : [START_W / 2, row0.y + LANE];
          });
        }
      });
      points[0] = [before.x, before.y];
      points[Math.max(1, points.length - 1)] = [x, y];
      const back = before.at !== c.at && (c.at === board.start
        || squareStart(board, c.at) < squareStart(board, before.at));
      (back ? pushed : moving).push({id: c.id, g, points});
    } else if (animate) {
      resumed.push({id: c.id, g});
    }
    if (board.decider === c.seat || (board.decider === null && board.phase !== "over" && board.player === c.seat)) {
      g.append(svg("ellipse", {class: "mz-turn-ring", cx: 0, cy: 0, rx: r2(1.75 * s), ry: r2(1.15 * s)}));
    }
    if (board.winners.includes(c.seat)) {
      g.append(svg("path", {d: "M-0.7 -1.95 L-0.45 -1.35 L0 -1.85 L0.45 -1.35 L0.7 -1.95 L0.6 -1.1 L-0.6 -1.1 Z",
        fill: "#fbc02d", stroke: "#1b1b1b", "stroke-width": 0.08, transform: `scale(${s})`}));
    }
    g.append(car(c.colour, c.seat + 1, s));
    if (hints) {
      for (const cls of ["mz-glow", "mz-ants"]) {
        g.append(svg("ellipse", {class: cls, cx: 0, cy: 0, rx: r2(1.8 * s), ry: r2(1.15 * s)}));
      }
      makePick(g, hints, ctx);
    } else {
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", c.at === board.start
        ? t("{name}'s {colour} car, number {number}, in the start zone", {name: who, colour: colourWord(c.colour), number: c.seat + 1})
        : t("{name}'s {colour} car, number {number}, on {square}", {name: who, colour: colourWord(c.colour), number: c.seat + 1, square: c.at}));
    }
    carsLayer.append(g);
  }
  root.append(carsLayer);
  return {root, moving, pushed, resumed};
}

function squareStart(board, id) {
  for (const lane of board.lanes) for (const sq of lane.squares) if (sq.id === id) return sq.start;
  return -1;
}

function where(c, board) {
  if (c.at === board.start) return t("at the start");
  if (c.target) return t("{square}: finished!", {square: c.at});
  return t("{square} · {count} to go", {square: c.at, count: c.to_go});
}

function turnLine(board, ctx) {
  const names = ctx.names || [];
  const name = (seat) => names[seat] || t("Player {number}", {number: seat + 1});
  const line = el("div", {class: "monza-turn", role: "status"});
  if (board.phase === "over") {
    const all = board.winners.map(name);
    const winners = all.length <= 1 ? all.join("")
      : t("{names} and {last}", {names: all.slice(0, -1).join(", "), last: all.at(-1)});
    line.append(...board.winners.map((s) => carIcon(board.cars[s].colour, s + 1)),
      el("span", {text: board.winners.length > 1 ? t("{names} win the race!", {names: winners})
        : t("{names} wins the race!", {names: winners})}));
    return line;
  }
  const seat = board.decider ?? board.player;
  const c = board.cars[seat];
  const you = ctx.hints && ctx.hints.length && ctx.seat === seat;
  let words;
  if (board.phase === "roll") words = t("{name} rolls the six colour dice", {name: name(seat)});
  else if (board.phase === "variant") {
    const params = {name: name(seat), colour: colourWord(c.colour), last: colourWord(board.last)};
    words = you ? t("You may move the {colour} car one free square (the last die was {last})", params)
      : t("{name} may move the {colour} car one free square (the last die was {last})", params);
  } else if (board.phase === "stuck") {
    words = c.target ? t("{name} waits on the finish", {name: name(seat)}) : t("No die fits for {name}", {name: name(seat)});
  } else if (you) words = t("Tap a marked square: each step uses a die of that square's colour");
  else words = t("{name} drives the {colour} car {number}", {name: name(seat), colour: colourWord(c.colour), number: seat + 1});
  line.append(carIcon(c.colour, seat + 1), el("span", {text: words}));
  if (board.finishing) line.append(el("span", {class: "mz-pill last", text: t("Last round!")}));
  return line;
}

function legend(board, ctx) {
  const names = ctx.names || [];
  const seat = board.phase === "over" ? null : (board.decider ?? board.player);
  return el("ul", {class: "monza-cars", "aria-label": t("The cars")}, ...board.cars.map((c) =>
    el("li", {class: c.seat === seat ? "now" : null},
      carIcon(c.colour, c.seat + 1),
      el("strong", {text: names[c.seat] || t("Player {number}", {number: c.seat + 1})}),
      el("span", {class: "mz-where", text: `${colourWord(c.colour)} · ${where(c, board)}`}))));
}

/** The key under the track: each colour's square as drawn (colour, letter, shape) with its
 * name, then what tyres, chequers and ▶ mean. The colours are those of the board's squares,
 * in their first appearance's order. */
function key(board) {
  const seen = new Map();
  for (const lane of board.lanes) {
    for (const sq of lane.squares) if (sq.letter && !seen.has(sq.colour)) seen.set(sq.colour, sq);
  }
  const order = ["red", "yellow", "green", "blue", "white", "purple"];
  const colours = [...seen.values()].sort((a, b) => order.indexOf(a.colour) - order.indexOf(b.colour));
  return el("p", {class: "monza-key"},
    el("span", {text: t("Squares:")}), " ",
    ...colours.map((sq) => el("span", {class: "mz-swatch"}, swatchIcon(sq), colourWord(sq.colour))),
    " ", el("span", {text: t("Grey tyres: no entry. Chequered squares are the finish. "
      + "▶ marks the squares you enter from the start.")}));
}

/** A colour's square in small, as on the track: its colour, letter and shape. */
function swatchIcon(sq) {
  const ink = INK[sq.colour] || "#fff";
  return svg("svg", {viewBox: "0 0 3 2", "aria-hidden": "true"},
    svg("rect", {x: 0.05, y: 0.05, width: 2.9, height: 1.9, rx: 0.35, fill: FILL[sq.colour] || "#999",
      stroke: sq.colour === "white" ? "#a9a49a" : "#0003", "stroke-width": 0.1}),
    text(0.32, 1.42, sq.letter, {"font-size": 1.15, "font-weight": 800, fill: ink}),
    shapeMark(sq.shape, 2.05, 1.0, 0.9, ink));
}

/** Draw the board; returns {ownsChoices: false}: the page's choice buttons stay. */
export function render(container, view, ctx) {
  const board = view && view.board;
  if (!board) {
    container.replaceChildren();
    return {ownsChoices: false};
  }
  const safe = {hints: [], names: [], seat: null, pick: () => {}, ...ctx};
  const width = container.clientWidth || 700;
  const wrap = el("div", {class: "monza-board"});
  const track = drawTrack(board, safe, width);
  adoptStyle(CSS);
  wrap.append(turnLine(board, safe), track.root,
    legend(board, safe),
    key(board));
  container.replaceChildren(wrap);
  safely(() => {
    let arrived = 0;
    for (const {id, g, points} of track.moving) {
      g.parentNode.append(g);  // on top while it drives
      arrived = Math.max(arrived, motion.play(id, g, points, {origin: [0, 0], stepMs: 160}));
    }
    for (const {id, g, points} of track.pushed) {
      motion.play(id, g, points, {origin: [0, 0], stepMs: 160, delay: arrived});
    }
    for (const {id, g} of track.resumed) motion.resume(id, g);
  });
  return {ownsChoices: false};
}
