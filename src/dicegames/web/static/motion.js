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
 * node stays on its first point meanwhile); `hop` lifts the piece on an arc (a capture), and
 * `grow` is the size it starts at (1: its own; a horse going home is bigger there).
 * Returns the Animation, or null where Web Animations are missing. */
export function travel(node, points, {delay = 0, stepMs = STEP_MS, origin = null, hop = 0,
  grow = 1, duration = null} = {}) {
  if (typeof node.animate !== "function" || points.length < 2) return null;
  const [ox, oy] = origin || points.at(-1);
  const last = points.length - 1;
  const scaled = hop || grow !== 1;
  if (scaled) {
    // Scale the piece about its own centre, not the drawing's corner.
    node.style.transformBox = "fill-box";
    node.style.transformOrigin = "center";
  }
  const frames = points.map(([x, y], i) => {
    const arc = Math.sin(Math.PI * i / last);
    const scale = (grow + (1 - grow) * i / last) * (1 + (hop ? 0.25 * arc : 0));
    return {offset: i / last, transform: `translate(${round(x - ox)}px, ${round(y - oy - arc * hop)}px)`
      + (scaled ? ` scale(${round(scale)})` : "")};
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

/** The fewest steps from `from` to `to` (ids, both included), `steps(id)` giving the ids one
 * step on; [from, to] when `to` cannot be reached that way (a replay stepped back). */
export function fewestSteps(from, to, steps) {
  const back = new Map([[from, null]]);
  const queue = [from];
  while (queue.length && !back.has(to)) {
    const id = queue.shift();
    for (const next of steps(id)) {
      if (!back.has(next)) { back.set(next, id); queue.push(next); }
    }
  }
  if (!back.has(to)) return [from, to];
  const ids = [to];
  while (back.get(ids[0]) !== null) ids.unshift(back.get(ids[0]));
  return ids;
}

/** Run `animate` (a board's motion); a failure there is logged and the board stays drawn,
 * its pieces simply at their places. */
export function safely(animate) {
  try {
    animate();
  } catch (error) {
    console.error("board motion failed", error);
  }
}

const round = (v) => Math.round(v * 100) / 100;

/** Where a board's pieces stood at its last drawing, to animate the next one from there.
 *
 * A board calls begin(ctx, scope) at each drawing: `scope` names what positions are
 * comparable (the board's layout: a change of size, player count or board forgets them).
 * Then for each piece, moved(id, where) gives where it stood before when it stands elsewhere
 * now (else null) and remembers where it stands now; play(id, node, points, options) makes
 * it travel (see travel). A drawing that comes while a piece travels (the same state drawn
 * again, a resize of a few pixels) lets it go on: resume(id, node) picks its travel up where
 * it was. On a picture, or with reduced motion, nothing is remembered and nothing moves. */
export class Motion {
  constructor() {
    this.scope = null;
    this.places = new Map();
    this.flights = new Map();  // id -> {points, options, started, ends} of a travel under way
    this.active = false;
    this.fresh = true;
  }

  begin(ctx, scope) {
    this.active = !(ctx && ctx.picture) && !reducedMotion();
    if (!this.active) {
      // A picture is not a step of the game: leave the remembered places alone; reduced
      // motion forgets them, so turning it off later starts cleanly.
      if (!(ctx && ctx.picture)) { this.places.clear(); this.flights.clear(); }
      return false;
    }
    this.fresh = scope !== this.scope;
    if (this.fresh) {
      this.scope = scope;
      this.places.clear();
      this.flights.clear();
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

  /** Make `node` (piece `id`) travel through `points` (see travel); returns how long. */
  play(id, node, points, options = {}) {
    const animation = travel(node, points, options);
    if (!animation) return 0;
    const timing = animation.effect.getComputedTiming();
    const started = performance.now();
    this.flights.set(id, {points, options, started, ends: started + timing.endTime});
    return timing.endTime;
  }

  /** Let piece `id`, drawn anew as `node` on the same place, go on with its travel. */
  resume(id, node) {
    const flight = this.active && this.flights.get(id);
    if (!flight) return;
    const now = performance.now();
    if (now >= flight.ends) { this.flights.delete(id); return; }
    const animation = travel(node, flight.points, flight.options);
    if (animation) animation.currentTime = now - flight.started;
  }
}
