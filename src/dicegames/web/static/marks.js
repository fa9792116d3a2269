// Shapes that stand beside a colour, so a piece, a square or a die reads without colour (a
// colour-blind child, a grey printout): a view names the shape of each colour (Monza's
// view.py: red circle, yellow triangle, green square, blue diamond, white star, purple
// cross) and the dice row (shell.js), the dice entry (game.js) and the boards draw it from
// here. Every shape is a path one unit across, centred on (0, 0); no libraries.

const NS = "http://www.w3.org/2000/svg";

/** The shapes by name: an SVG path 2 wide and 2 high, centred on the origin. */
export const SHAPES = {
  circle: "M0.9 0A0.9 0.9 0 1 1 -0.9 0A0.9 0.9 0 1 1 0.9 0Z",
  triangle: "M0 -1L1.05 0.85H-1.05Z",
  square: "M-1 -1H1V1H-1Z",
  diamond: "M0 -1.1L1.1 0L0 1.1L-1.1 0Z",
  star: "M0 -1.1L0.26 -0.36L1.05 -0.34L0.42 0.14L0.65 0.9L0 0.45L-0.65 0.9L-0.42 0.14"
    + "L-1.05 -0.34L-0.26 -0.36Z",
  cross: "M-0.34 -1H0.34V-0.34H1V0.34H0.34V1H-0.34V0.34H-1V-0.34H-0.34Z",
};

/** The shape `name` as a `<path>` at (x, y), `size` units across, with the given fill and an
 * outline `line` units wide (null for an unknown name: a view without shapes draws as
 * before). */
export function shapeMark(name, x, y, size, fill, stroke = "none", line = 0) {
  const d = SHAPES[name];
  if (!d) return null;
  const path = document.createElementNS(NS, "path");
  const k = size / 2;
  path.setAttribute("d", d);
  path.setAttribute("transform", `translate(${round(x)} ${round(y)}) scale(${round(k)})`);
  path.setAttribute("fill", fill);
  path.setAttribute("stroke", stroke);
  path.setAttribute("stroke-width", String(round(line / Math.max(k, 0.001))));
  path.setAttribute("class", "mark-shape");
  path.setAttribute("aria-hidden", "true");
  return path;
}

const round = (v) => Math.round(v * 1000) / 1000;
