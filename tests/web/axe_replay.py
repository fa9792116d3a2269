"""Each game's replay checked by axe-core at every kind of move: the helper of
``test_accessibility_replay.py`` (light mode) and ``test_accessibility_replay_dark.py`` (dark
mode), two modules so that two test processes share the work (``--dist loadfile`` keeps a
module on one process: as one module with the rest of ``test_accessibility.py`` this was the
suite's longest stretch on one process, Petits Chevaux's long game between two easy bots
above all).

The replay steps through every move, but axe-core (a fifth of a second or more per run)
runs only at a move that shows a kind of element no checked move showed. An element's kind
(:data:`STEP_AND_CHECK`) is its tag and its attributes and own text, each as the set of its
words with every number replaced by ``#``: "R2 waiting, Y1 on the track" is
``R# Y# on the track waiting,``. So every kind of element, every attribute and every
word of text is checked at the first move it appears in (Petits Chevaux's replay: about 30
of 320 moves), not the same kinds again with a horse one square on. The first and the last
move are checked whole, whatever they show.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from playwright.sync_api import Browser, Page, expect

from polling import until
from web.games import skip_unless
from web.server import Server
from web.test_accessibility import AXE, RULES

CHANGING = ["#title", "#seats", ".stepper", "#status", "#dice", "#board", "#review", "#error",
            "#log"]
"""What the replay page redraws from one move to the next (replay.js ``show``): each move
after the first is checked within these (the header, the landmarks and the record link are
the same at every move, and the full-page checks at the first and last move hold them)."""
STEP_AND_CHECK = """async ([move, include, options]) => {
  const game = document.getElementById("game");
  const shape = (text) => [...new Set(text.replace(/\\d+(?:\\.\\d+)?/g, "#").split(/\\s+/))]
    .sort().join(" ");
  if (game.dataset.shown !== String(move)) {
    const step = document.getElementById("step");
    step.value = String(move);
    step.dispatchEvent(new Event("input", {bubbles: true}));
    const until = Date.now() + 15000;
    while (game.dataset.shown !== String(move)) {
      if (Date.now() > until) {
        throw new Error(`move ${move} was not drawn: `
          + document.getElementById("error").textContent);
      }
      await new Promise((done) => setTimeout(done, 5));
    }
  }
  const kinds = new Set();
  const roots = include ? include.flatMap((sel) => [...document.querySelectorAll(sel)])
    : [document.documentElement];
  for (const root of roots) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const attributes = [...el.attributes].map((a) => `${a.name}=${shape(a.value)}`).sort();
      const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => shape(n.textContent.trim())).join("|");
      kinds.add(`<${el.tagName} ${attributes.join(" ")}>${text}`);
    }
  }
  const checked = (window.axeKindsChecked ??= new Set());
  const novel = [...kinds].filter((kind) => !checked.has(kind));
  if (include && novel.length === 0) {
    return null;
  }
  novel.forEach((kind) => checked.add(kind));
  const result = await axe.run(include ? {include} : document, options);
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} at `
    + v.nodes.slice(0, 4).map((n) => n.target.join(", ")).join("; "));
}"""
"""Show a move of the replay (as the slider does, without a reload; replay.js marks
``#game[data-shown]`` once the move is drawn in full) and, when ``include`` is null (the whole
page) or its elements show a kind not checked yet (see the module docstring), run the
axe-core already injected into the page over ``include``: its violations, one line each;
null when every kind shown was checked already."""


def scheme_page(browser: Browser, scheme: Literal["light", "dark"]) -> Iterator[Page]:
    """A desktop page (1100 x 900) in ``scheme`` (light or dark), in a fresh context."""
    context = browser.new_context(viewport={"width": 1100, "height": 900}, color_scheme=scheme)
    try:
        yield context.new_page()
    finally:
        context.close()


def check_every_move(server: Server, seen: Page, game: str) -> int:
    """Play a game of ``game`` between two easy bots, then show each of its moves in turn in
    the one replay page, with axe-core injected once: the whole page at the first and the
    last move, the parts a move redraws (:data:`CHANGING`) at every move between that shows
    a kind of element not checked yet (:data:`STEP_AND_CHECK`); fail with every violation
    listed. Returns how many moves axe-core checked."""
    # The winner's badge on the last move failed color-contrast (white on green, 4.4:1).
    skip_unless(game, "bots")
    match = server.post("/api/matches", {"game": game, "seed": 6, "players": [
        {"name": "Ann", "kind": "bot:easy"}, {"name": "Bot", "kind": "bot:easy"}]})
    until(lambda: server.get(f"/api/matches/{match['id']}")["status"] == "finished" or None,
          "the bots to finish their game", 60)
    seen.goto(server.url + f"/replay/{match['id']}")
    step = seen.locator("#step")
    expect(step).not_to_have_attribute("max", "100")  # the replay's own length is set
    last = int(step.get_attribute("max") or 0)
    assert last > 0
    expect(seen.locator("#game")).to_have_attribute("data-shown", "0")
    seen.evaluate(AXE.axe_script)
    options = {**RULES, "resultTypes": ["violations"]}
    failures = []
    checked = 0
    for move in range(last + 1):
        include = None if move in (0, last) else CHANGING
        found = seen.evaluate(STEP_AND_CHECK, [move, include, options])
        if found is not None:
            checked += 1
            failures += [f"move {move} of {last}: {line}" for line in found]
    assert not failures, "\n".join(failures)
    expect(seen.locator("#game")).to_have_attribute("data-shown", str(last))
    expect(seen.locator(".badge", has_text="winner").first).to_be_visible()
    assert 2 <= checked <= last + 1
    print(f"{game}: axe-core checked {checked} of the replay's {last + 1} moves")
    return checked
