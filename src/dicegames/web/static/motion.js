// Motion shared by the boards: a piece that moved travels along its path, square by square,
// from where it was drawn last; a piece sent back (a capture, a push) travels after the
// movers have arrived. The boards redraw fully on every state, so each remembers where its
// pieces stood in a Motion and animates the freshly drawn pieces from there.
//
// Nothing moves for prefers-reduced-motion, nor on a picture (the home page's cards,
// ctx.picture). Animations are Web Animations on a transform only: they never block a click
// or a key, and a piece is at its true place in the page (its final place) at all times for
// hit-testing and the accessibility tree. No libraries.

/** Milliseconds a piece takes per square of its path, and the longest any travel takes. */
export const STEP_MS = 95;
export const MAX_MS = 1100;

/** True when the system asks for reduced motion (then nothing on the boards moves). */
export function reducedMotion() {
  return Boolean(globalThis.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** How long a travel through `points` takes (at least one step, at most MAX_MS). */
export function travelTime(points, stepMs = STEP_MS) {
  return Math.min(MAX_MS, Math.max(1, points.length - 1) * stepMs);
}

/** Animate `node` through `points` ([x, y] in its drawing's units, the last one where the
 * node is drawn): keyframes evenly spaced, one per square, so the piece visibly passes each
 * square. `origin` is the point the node's own drawing sits at ([0, 0] for a node placed by
 * its transform; the last point, by default, for a node drawn in place). `delay` waits (the
 * node stays on its first point meanwhile); `hop` lifts the piece on an arc (a capture).
 * Returns the Animation, or null where Web Animations are missing. */
export function travel(node, points, {delay = 0, stepMs = STEP_MS, origin = null, hop = 0,
  duration = null} = {}) {
  if (typeof node.animate !== "function" || points.length < 2) return null;
  const [ox, oy] = origin || points.at(-1);
  const last = points.length - 1;
  const frames = points.map(([x, y], i) => {
    const lift = hop ? Math.sin(Math.PI * i / last) * hop : 0;
    const scale = hop ? 1 + 0.25 * Math.sin(Math.PI * i / last) : 1;
    return {offset: i / last, transform: `translate(${round(x - ox)}px, ${round(y - oy - lift)}px)`
      + (hop ? ` scale(${round(scale)})` : "")};
  });
  const animation = node.animate(frames, {duration: duration ?? travelTime(points, stepMs),
    delay, easing: "linear", fill: "backwards"});
  node.classList.add("moving");
  animation.finished.then(() => node.classList.remove("moving"), () => {});
  return animation;
}

/** Points between a and b (a and b included), `n` steps apart: a straight path made of
 * steps, for a piece going where no squares lie between (back to a stable, into a zone). */
export function straight(a, b, n) {
  const points = [];
  for (let i = 0; i <= n; i++) points.push([a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n]);
  return points;
}

const round = (v) => Math.round(v * 100) / 100;

/** Where a board's pieces stood at its last drawing, to animate the next one from there.
 *
 * A board calls begin(ctx, scope) at each drawing: `scope` names what positions are
 * comparable (the board's layout: a change of size, player count or board forgets them).
 * Then for each piece, moved(id, where) gives where it stood before when it stands elsewhere
 * now (else null) and remembers where it stands now. On a picture, or with reduced motion,
 * nothing is remembered and nothing has moved. */
export class Motion {
  constructor() {
    this.scope = null;
    this.places = new Map();
    this.active = false;
    this.fresh = true;
  }

  begin(ctx, scope) {
    this.active = !(ctx && ctx.picture) && !reducedMotion();
    if (!this.active) {
      // A picture is not a step of the game: leave the remembered places alone; reduced
      // motion forgets them, so turning it off later starts cleanly.
      if (!(ctx && ctx.picture)) this.places.clear();
      return false;
    }
    if (scope !== this.scope) {
      this.scope = scope;
      this.places.clear();
      this.fresh = true;
    } else {
      this.fresh = false;
    }
    return true;
  }

  /** The place `id` stood at before, when it moved since the last drawing; else null. */
  moved(id, where) {
    if (!this.active) return null;
    const key = JSON.stringify(where);
    const before = this.places.get(id);
    this.places.set(id, {key, where});
    if (this.fresh || !before || before.key === key) return null;
    return before.where;
  }
}
