// The replay page's review graph: every player's win chance after each move, drawn with its
// axes (win chance 0 to 100 %, move number), a legend naming each player's line, a tooltip on
// every point, the flagged moves in a list beside the graph and a plain caption under it.
// The graph is drawn at the width it is shown at (its text stays readable on a phone) and
// again when that width changes.
import {LANG, el, svg, t} from "/static/shell.js";

/** A review's verdict on a move, in the page's language. */
const VERDICTS = {best: t("best"), good: t("good"), uncertain: t("uncertain"), inaccuracy: t("inaccuracy"),
  mistake: t("mistake"), blunder: t("blunder")};
export const verdictOf = (move) => VERDICTS[move.verdict] || move.verdict;
const capital = (text) => `${text.slice(0, 1).toLocaleUpperCase(LANG)}${text.slice(1)}`;

const percent = new Intl.NumberFormat(LANG, {style: "percent", maximumFractionDigits: 0});
const points = new Intl.NumberFormat(LANG, {minimumFractionDigits: 1, maximumFractionDigits: 1});
const COLOURS = ["#d1495b", "#00798c", "#edae49", "#66a182", "#8d96a3", "#2e4057"];
// Each player's line also has its own dash pattern, so lines differ without colour.
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "4 4", "1 4"];
const HEIGHT = 230;
const MARGIN = {left: 48, right: 14, top: 12, bottom: 42};

/** The sentence of the flagged move ``move`` (shown beside the graph and under the board). */
export function mistakeSentence(review, move) {
  // The server labels the moves in the page's language (the notation otherwise).
  return t("{verdict}: {name} played “{played}”; “{best}” was better by {cost} points of win chance.",
    {verdict: capital(verdictOf(move)), name: review.players[move.seat],
      played: move.played_label || move.played, best: move.best_label || move.best,
      cost: points.format(100 * move.cost)});
}

/** The caption under the graph: what the lines are and how sure the chances are, in plain
 *  sentences (the estimate's kind decides the second one). */
export function captionOf(review) {
  const sure = {
    exact: t("The chances are exact: this game is solved, and each one assumes best play from that move on."),
    learned: t("The chances come from a model the computer learned from many games: they are estimates."),
    rollouts: t("The chances come from games the computer played on from each move: they are estimates."),
  }[review.estimate?.kind] || "";
  return [t("Each line shows one player's chance to win after each move, from 0 to 100%."), sure,
    review.mistakes?.length ? t("The dots are the flagged moves, listed beside the graph: choose one to see it.") : ""]
    .filter(Boolean).join(" ");
}

/** Move-number ticks: round steps (1, 2, 5, 10, 20, 50...), at most about ``most`` of them. */
function ticks(last, most) {
  let step = 1;
  for (const next of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]) {
    step = next;
    if (last / next <= most) break;
  }
  const found = [];
  for (let value = 0; value <= last; value += step) found.push(value);
  return found;
}

const shown = new WeakMap();

/** Draw the review graph into ``figure`` (an empty <figure>, or one drawn before).
 *  ``options``: ``step`` (the move shown), ``last`` (the number of moves), ``colourOf(seat)``
 *  (the board's colour of a seat, or null) and ``show(step)`` (go to a move). */
export function drawReviewGraph(figure, review, options) {
  if (!review || !review.curve.length) return;
  figure.hidden = false;
  if (!figure.querySelector(".graph")) build(figure);
  shown.set(figure, {review, options});
  drawCurve(figure, review, options);
  drawLegend(figure, review, options);
  drawMistakes(figure, review, options);
  figure.querySelector("figcaption").textContent = captionOf(review);
}

function build(figure) {
  const graph = el("div", {class: "graph"},
    el("ul", {class: "legend", "aria-label": t("Players")}),
    svg("svg", {class: "curve", role: "img", "aria-label": t("Win chance of each player over the game")}),
    el("p", {class: "tip", role: "status", hidden: true}));
  const list = el("section", {class: "mistakes-box", "aria-labelledby": "mistakes-title"},
    el("h2", {id: "mistakes-title", text: t("Flagged moves")}),
    el("ol", {class: "mistakes"}),
    el("p", {class: "none hint", text: t("No move was flagged."), hidden: true}));
  figure.replaceChildren(el("div", {class: "graph-row"}, graph, list), el("figcaption"));
  let width = 0;
  new ResizeObserver(() => {
    const now = graph.clientWidth;
    const drawn = shown.get(figure);
    if (drawn && Math.abs(now - width) >= 8) drawCurve(figure, drawn.review, drawn.options);
    width = now;
  }).observe(graph);
}

function colour(options, seat) {
  return options.colourOf?.(seat) || COLOURS[seat % COLOURS.length];
}

function drawLegend(figure, review, options) {
  figure.querySelector(".legend").replaceChildren(...review.players.map((name, seat) => {
    const sample = svg("svg", {class: "key", width: 28, height: 10, "aria-hidden": "true"},
      svg("line", {x1: 1, x2: 27, y1: 5, y2: 5, stroke: colour(options, seat),
        "stroke-width": 3, "stroke-dasharray": DASHES[seat % DASHES.length] || null}));
    return el("li", {}, sample, el("span", {text: name}));
  }));
}

function drawCurve(figure, review, {step, last, show, ...options}) {
  const chart = figure.querySelector("svg.curve");
  const width = Math.max(260, Math.round(figure.querySelector(".graph").clientWidth || 600));
  chart.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  chart.setAttribute("width", width);
  chart.setAttribute("height", HEIGHT);
  const right = width - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const x = (index) => MARGIN.left + (right - MARGIN.left) * index / Math.max(1, last);
  const y = (chance) => bottom - (bottom - MARGIN.top) * chance;
  const parts = [];
  // The win-chance axis: 0, 25, 50, 75 and 100 %, with light grid lines.
  for (const chance of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("line", {class: chance === 0 ? "axis" : "grid", x1: MARGIN.left, x2: right,
      y1: y(chance), y2: y(chance)}));
    parts.push(svg("text", {class: "tick", x: MARGIN.left - 6, y: y(chance),
      "text-anchor": "end", "dominant-baseline": "middle"}, percent.format(chance)));
  }
  parts.push(svg("line", {class: "axis", x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top,
    y2: bottom}));
  // The move axis: round move numbers, "Move" under them.
  for (const index of ticks(last, Math.max(2, Math.floor((right - MARGIN.left) / 48)))) {
    parts.push(svg("line", {class: "axis", x1: x(index), x2: x(index), y1: bottom, y2: bottom + 4}));
    parts.push(svg("text", {class: "tick", x: x(index), y: bottom + 16, "text-anchor": "middle"},
      String(index)));
  }
  parts.push(svg("text", {class: "title", x: (MARGIN.left + right) / 2, y: HEIGHT - 6,
    "text-anchor": "middle"}, t("Move")));
  parts.push(svg("text", {class: "title", x: 12, y: (MARGIN.top + bottom) / 2,
    "text-anchor": "middle", transform: `rotate(-90 12 ${(MARGIN.top + bottom) / 2})`},
  t("Win chance")));
  parts.push(svg("line", {class: "cursor", x1: x(step), x2: x(step), y1: MARGIN.top, y2: bottom}));
  const flagged = new Set(review.moves.filter((m) => m.flagged).map((m) => m.index + 1));
  const tip = figure.querySelector(".tip");
  review.players.forEach((name, seat) => {
    const stroke = colour(options, seat);
    parts.push(svg("polyline", {class: "line", "data-seat": seat, stroke,
      "stroke-dasharray": DASHES[seat % DASHES.length] || null,
      points: review.curve.map((p) => `${x(p.index)},${y(p.chances[seat])}`).join(" ")},
    svg("title", {}, name)));
  });
  // One point per player and move, with its tooltip; the flagged moves' points are larger.
  review.players.forEach((name, seat) => {
    const stroke = colour(options, seat);
    for (const point of review.curve) {
      const words = t("{name}, after move {move}: {chance} chance to win",
        {name, move: point.index, chance: percent.format(point.chances[seat])});
      const mover = review.moves.find((m) => m.index + 1 === point.index);
      const flag = flagged.has(point.index) && mover?.seat === seat;
      const dot = svg("circle", {class: flag ? "point flag" : "point", r: flag ? 5.5 : 3,
        cx: x(point.index), cy: y(point.chances[seat]), fill: stroke, "data-seat": seat,
        "data-index": point.index}, svg("title", {}, words));
      const tell = () => {
        tip.textContent = words;
        tip.hidden = false;
      };
      dot.addEventListener("pointerenter", tell);
      dot.addEventListener("pointerleave", () => { tip.hidden = true; });
      dot.addEventListener("click", () => { tell(); show(point.index); });
      parts.push(dot);
    }
  });
  chart.replaceChildren(...parts);
}

function drawMistakes(figure, review, {step, show}) {
  const moves = review.moves.filter((m) => m.flagged);
  figure.querySelector(".none").hidden = moves.length > 0 || review.status !== "done";
  figure.querySelector(".mistakes").replaceChildren(...moves.map((move) => el("li", {},
    el("button", {type: "button", class: "mistake", "data-index": move.index,
      "aria-current": move.index + 1 === step ? "true" : null,
      onclick: () => show(move.index + 1)},
    el("strong", {text: t("Move {move}", {move: move.index + 1})}), " ",
    el("span", {text: mistakeSentence(review, move)})))));
}
