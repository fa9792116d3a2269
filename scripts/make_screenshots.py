"""Screenshots of the web app for docs/web.md, made from the real pages.

Starts a real server (``dicegames serve`` on a free loopback port, a temporary database),
opens its pages in a headless Chromium (Playwright, driving an installed Chromium, as the
web tests do) and writes PNGs: the first screen, its "Join a table" list, and the board of
each game the package ships (the registry's, in its order) in the middle of a game, on a
desktop and on a phone. A board's position comes from a game of random bots played from a
fixed seed, stopped at Ann's first decision after 40% of its moves, so the pictures are the
same at every run and show pieces under way, with Ann's choices glowing.

    .venv/bin/python scripts/make_screenshots.py                 # all, into docs/images/
    .venv/bin/python scripts/make_screenshots.py --only home --sizes desktop --out /tmp/x

With Pillow installed (the ``docs`` extra) each picture is reduced to a 256-colour palette
and compressed hard, about a third of Chromium's PNG; without it Chromium's PNG is kept.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dicegames.bots import RandomBot, bot_levels
from dicegames.core.match import RandomDice, play
from dicegames.core.model import Agent
from dicegames.core.registry import games, make
from dicegames.core.session import PlayerInfo, Session
from dicegames.i18n import PACKAGE, game_folder
from dicegames.web.server import spawn

GAMES = tuple(spec.id for spec in games() if game_folder(spec.id).is_relative_to(PACKAGE))
"""The games whose boards are shown: the package's own, in the order of the home page (a
game registered from elsewhere, e.g. through ``DICEGAMES_GAMES``, is left out)."""
PAGES = ("home", "lobby")
"""The other pictures: the first screen, and the home page's "Join a table" section."""
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1200, "height": 820}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
"""The page sizes a picture is taken at."""
NAMES = ("Ann", "Ben", "Cleo", "Dan")
SEED = 14
SHARE = 0.4
"""The board is shown at Ann's first decision after this share of the sample game's moves."""
OUT = Path(__file__).resolve().parents[1] / "docs" / "images"
CHROMIUM_ENV = "DICEGAMES_CHROMIUM"


def find_chromium() -> str:
    """The Chromium to drive: ``$DICEGAMES_CHROMIUM``, /usr/bin/chromium, or one on PATH."""
    named = os.environ.get(CHROMIUM_ENV, "").strip()
    found = named or next((path for path in ("/usr/bin/chromium", shutil.which("chromium"),
                                             shutil.which("chromium-browser"),
                                             shutil.which("google-chrome")) if path
                           and Path(path).is_file()), None)
    if not found:
        raise SystemExit(f"no Chromium found: install one (`make browser`, or apt-get install "
                         f"chromium) or set {CHROMIUM_ENV}=/path/to/chromium")
    return found


def mid_game(game_id: str) -> str:
    """The position text of ``game_id`` at Ann's (seat 0's) first decision after SHARE of a
    seeded game of random bots, with the game's default players."""
    game = make(game_id)
    names = list(NAMES[:game.players])
    session = Session(game, [PlayerInfo(name, "bot:random") for name in names], seed=SEED)
    bots: list[Agent] = [RandomBot(random.Random(SEED + seat)) for seat in range(game.players)]
    play(session, bots, RandomDice(random.Random(SEED)))
    states = session.states
    for state in states[int(len(states) * SHARE):]:
        if not state.is_chance and not state.is_terminal and 0 in state.current_players:
            return game.position(state)
    raise ValueError(f"{game_id}: no decision of seat 1 after {SHARE:.0%} of the sample game")


def opponent(game_id: str) -> str:
    """The bot the pictures seat: ``bot:medium``, or the game's first listed level when it
    has no medium one."""
    levels = [level.name for level in bot_levels(make(game_id)) if level.listed]
    return f"bot:{'medium' if 'medium' in levels or not levels else levels[0]}"


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def open_tables(base: str) -> None:
    """Two open tables for the lobby's picture, of the first two games shown: Ann, a free
    seat and a bot at the first (at least two seats, three when it allows), Ben and a free
    seat at the second. No seed: an open table takes none (the server draws a secret); the
    picture shows no dice."""
    invited = {"name": "Player 2", "kind": "human", "invited": True}
    first, second = GAMES[0], GAMES[1 % len(GAMES)]
    players = [{"name": "Ann", "kind": "human"}, invited]
    if make(first).spec.max_players >= 3:
        players.append({"name": "Cleo", "kind": opponent(first)})
    post(base + "/api/matches", {"game": first, "open": True, "players": players})
    post(base + "/api/matches", {"game": second, "open": True,
                                 "players": [{"name": "Ben", "kind": "human"}, invited]})


def board_page(base: str, game_id: str) -> str:
    """A match from the game's mid-game position, Ann against bots: Ann's seat link."""
    players = [{"name": "Ann", "kind": "human"}] + [
        {"name": name, "kind": opponent(game_id)} for name in NAMES[1:make(game_id).players]]
    match = post(base + "/api/matches", {"game": game_id, "players": players,
                                         "position": mid_game(game_id), "seed": SEED})
    return base + str(match["seats"][0]["link"])


def shrink(png: bytes) -> bytes:
    """A 256-colour, hard-compressed PNG (Pillow); the PNG as it is without Pillow."""
    try:
        from PIL import Image
    except ImportError:
        return png
    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True, compress_level=9)
    return out.getvalue() if out.tell() < len(png) else png


@contextmanager
def server() -> Iterator[str]:
    """A real server on a temporary database, its bots paused long enough to stay still."""
    with tempfile.TemporaryDirectory() as folder:
        process, url = spawn(Path(folder) / "shots.sqlite3", bot_delay=60.0)
        try:
            yield url
        finally:
            process.terminate()
            process.wait(10)


def shoot(out: Path, only: list[str], sizes: list[str]) -> list[Path]:
    """Write the pictures named in ``only`` (:data:`PAGES` and game ids) at ``sizes``;
    returns them."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with server() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(),
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        links = {game: board_page(base, game) for game in only if game in GAMES}
        if "lobby" in only:
            open_tables(base)
        errors: list[str] = []
        for size in sizes:
            # Still pictures: the page as it rests (no dice tumbling, no piece under way).
            context = browser.new_context(reduced_motion="reduce", **SIZES[size])
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            for name in only:
                if name == "home":
                    page.goto(base + "/")
                    page.locator(".picture svg").last.wait_for()
                elif name == "lobby":  # "Join a table", one table's name form open
                    page.goto(base + "/")
                    page.locator("#tables li").nth(1).wait_for()
                    page.locator("#tables button.join").first.click()
                else:
                    page.goto(links[name])
                    page.locator("#board svg").first.wait_for()
                    page.locator("#status").filter(has_text="Ann").wait_for()
                page.wait_for_load_state("networkidle")
                path = out / f"{name if name in PAGES else 'board-' + name}-{size}.png"
                shot = page.locator("#lobby") if name == "lobby" else page
                path.write_bytes(shrink(shot.screenshot()))
                written.append(path)
            context.close()
            if errors:
                raise RuntimeError(f"page errors: {errors}")
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNGs")
    parser.add_argument("--only", nargs="+", choices=[*PAGES, *GAMES], default=[*PAGES, *GAMES])
    parser.add_argument("--sizes", nargs="+", choices=list(SIZES), default=list(SIZES))
    args = parser.parse_args(argv)
    written = shoot(args.out, args.only, args.sizes)
    total = sum(path.stat().st_size for path in written)
    for path in written:
        print(f"{path}  {path.stat().st_size // 1024} KiB")
    print(f"{len(written)} picture{'' if len(written) == 1 else 's'}, {total / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
