"""The games' layering: each ``rules.py`` is pure, and the package binds the presentation.

A rules module may import the engine and its own game's data and rule helpers, never its
package's text or web presentation, its bots, or the generic bots (``dicegames.bots``):
those sit on top of the rules (``game.py`` binds them), so solvers, kernels and training
scripts can load the rules alone, and no module of a game imports in a circle.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import dicegames
from dicegames.core.registry import game_class

SRC = Path(dicegames.__file__).parent
GAMES = sorted(p.parent.name for p in (SRC / "games").glob("*/rules.py"))

# Load one rules module in a fresh interpreter. The parent packages are stood in for by
# empty package objects (their real __init__ files import every game on purpose, to register
# them), so what lands in sys.modules is exactly what the rules module itself pulls in.
PROBE = """
import importlib, json, sys, types
src, game = sys.argv[1], sys.argv[2]
for name, path in (("dicegames", src), ("dicegames.games", src + "/games"),
                   ("dicegames.games." + game, src + "/games/" + game)):
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
importlib.import_module("dicegames.games." + game + ".rules")
print(json.dumps(sorted(sys.modules)))
"""

PRESENTATION = ("view", "render", "game", "bots", "search", "value")
"""Modules of a game folder that are presentation or bots, not rules."""


def loaded_by_rules(game: str) -> list[str]:
    """The modules in ``sys.modules`` after a fresh interpreter imports ``game``'s rules."""
    output = subprocess.run([sys.executable, "-c", PROBE, str(SRC), game], check=True,
                            capture_output=True, text=True).stdout
    modules: list[str] = json.loads(output)
    return modules


def test_every_game_folder_is_probed() -> None:
    assert GAMES == ["extra", "extra_meters", "monza", "petits_chevaux", "shortcut"]


@pytest.mark.parametrize("game", GAMES)
def test_rules_import_no_presentation_or_bots(game: str) -> None:
    modules = loaded_by_rules(game)
    assert f"dicegames.games.{game}.rules" in modules
    forbidden = [
        name for name in modules
        if name.startswith(("dicegames.bots", "dicegames.terminal", "dicegames.web", "rich"))
        or (name.startswith("dicegames.games.") and name.rsplit(".", 1)[1] in PRESENTATION)
    ]
    assert forbidden == []


@pytest.mark.parametrize("game", GAMES)
def test_old_import_path_gives_the_registered_class(game: str) -> None:
    rules = __import__(f"dicegames.games.{game}.rules", fromlist=["rules"])
    package = __import__(f"dicegames.games.{game}", fromlist=["game"])
    registered = game_class(rules.SPEC.id)
    name = registered.__name__
    assert getattr(rules, name) is registered is getattr(package, name)
    assert issubclass(registered, getattr(rules, f"{name}Rules"))
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = rules.Nothing
