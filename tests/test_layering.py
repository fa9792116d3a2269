"""The layering: each game's ``rules.py`` is pure, its other parts load lazily, and nothing
outside ``dicegames/games/`` names a game.

A rules module may import the engine and its own game's data and rule helpers, never its
package's text or web presentation, its bots, encoder or estimator, or the generic bots
(``dicegames.bots``): those are the optional parts of the game's definition
(:mod:`dicegames.core.definition`), so solvers, kernels and training scripts can load the
rules alone, and no module of a game imports in a circle. Everything outside the games'
folders reaches a game through the registry, so a new game is one folder and one line.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import dicegames
from dicegames.core.definition import PARTS, GameDefinition
from dicegames.core.presenter import Presenter
from dicegames.core.registry import definitions

SRC = Path(dicegames.__file__).parent
GAMES_FOLDER = SRC / "games"
SHIPPED = [found for found in definitions() if found.path.parent == GAMES_FOLDER]
"""The registered games that dicegames ships (a test's toy game lives elsewhere)."""
GAMES = sorted(found.path.name for found in SHIPPED)

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

PRESENTATION = ("view", "render", "presenter", "bots", "search", "value", "encoder",
                "estimator")
"""Modules of a game folder that are presentation, bots or other optional parts, not rules."""

LAZY = ("presenter", "bots", "kernel", "encoder", "estimator", "strategy")
"""Modules of a game folder that only a definition's lazy part imports."""


def loaded_by_rules(game: str) -> list[str]:
    """The modules in ``sys.modules`` after a fresh interpreter imports ``game``'s rules."""
    output = subprocess.run([sys.executable, "-c", PROBE, str(SRC), game], check=True,
                            capture_output=True, text=True).stdout
    modules: list[str] = json.loads(output)
    return modules


def test_every_game_folder_is_registered() -> None:
    folders = sorted(p.parent.name for p in GAMES_FOLDER.glob("*/rules.py"))
    assert folders == GAMES
    assert len(GAMES) >= 5


@pytest.mark.parametrize("game", GAMES)
def test_rules_import_no_presentation_or_bots(game: str) -> None:
    modules = loaded_by_rules(game)
    assert f"dicegames.games.{game}.rules" in modules
    forbidden = [
        name for name in modules
        if name.startswith(("dicegames.bots", "dicegames.terminal", "dicegames.web",
                            "dicegames.envs", "dicegames.analysis", "rich"))
        or (name.startswith("dicegames.games.") and name.rsplit(".", 1)[1] in PRESENTATION)
    ]
    assert forbidden == []


def test_importing_dicegames_loads_no_optional_part() -> None:
    probe = "import json, sys, dicegames; print(json.dumps(sorted(sys.modules)))"
    modules: list[str] = json.loads(subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout)
    loaded = [name for name in modules if name.startswith("dicegames.games.")
              and name.rsplit(".", 1)[1] in LAZY]
    assert loaded == []


@pytest.mark.parametrize("found", definitions(), ids=lambda found: found.id)
def test_every_declared_part_loads_and_has_its_kind(found: GameDefinition) -> None:
    assert found.spec is found.rules.spec
    for name in PARTS:
        part = found.part(name)
        assert (part is None) == (not found.has(name))
        if part is not None and name == "presenter":
            assert isinstance(part, type) and issubclass(part, Presenter)
        elif part is not None:
            assert callable(part), name


# ----------------------------------------------------------------------- no game named


def _names() -> set[str]:
    """Every registered id and alias, and the folder of every shipped game."""
    found = {name for game in definitions() for name in (game.id, *game.spec.aliases)}
    return found | set(GAMES)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (a module's, class's,
    function's, or an attribute's: a bare string statement)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def _namings(path: Path, names: set[str], root: Path = SRC.parent) -> Iterator[str]:
    """Where the module at ``path`` names a game in code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    where = path.relative_to(root)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in skip and node.value.strip().lower() in names):
            yield f"{where}:{node.lineno}: the string {node.value!r}"
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[:2] == ["dicegames", "games"] and len(parts) > 2 and parts[2] in names:
                yield f"{where}:{node.lineno}: imports {module}"


def test_nothing_outside_the_games_names_a_game() -> None:
    names = _names()
    found = [line for path in sorted(SRC.rglob("*.py"))
             if GAMES_FOLDER not in path.parents for line in _namings(path, names)]
    assert found == []


def test_the_naming_check_sees_strings_and_imports(tmp_path: Path) -> None:
    # The check itself: a game's id in code and an import of a game's folder are seen; the
    # same id in a docstring is not.
    module = tmp_path / "dicegames" / "probe.py"
    module.parent.mkdir()
    game = SHIPPED[0]
    module.write_text(f'"""Docstring naming {game.id}."""\n'
                      f'import dicegames.games.{game.path.name}.rules\n'
                      f'X = "{game.id}"\n'
                      f'def f() -> None:\n    """{game.id}"""\n', encoding="utf-8")
    seen = list(_namings(module, _names(), tmp_path))
    assert len(seen) == 2, seen

