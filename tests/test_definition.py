"""Game definitions and the registry: lazy parts, lookups, plug-ins, presenters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import dicegames
from dicegames.core import registry
from dicegames.core.definition import PARTS, GameDefinition, load_reference
from dicegames.core.errors import OptionError, PlayerCount, UnknownGame
from dicegames.core.presenter import Presenter
from toygame import DEFINITION, ToyPresenter, ToyRace


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Copies of the registry's tables, put back after the test (and no presenter kept
    from it)."""
    for table in ("_DEFINITIONS", "_ALIASES", "_BY_CLASS"):
        monkeypatch.setattr(registry, table, dict(getattr(registry, table)))
    registry.presenter_of.cache_clear()
    yield
    registry.presenter_of.cache_clear()


def test_a_part_given_as_a_reference_is_imported_on_first_use() -> None:
    found = GameDefinition(rules=ToyRace, presenter="toygame:ToyPresenter",
                           solver="no.such.module:thing")
    assert found.has("presenter") and found.has("solver") and not found.has("kernel")
    assert found.declared() == ("presenter", "solver")
    assert found.part("presenter") is ToyPresenter
    assert found.part("kernel") is None
    with pytest.raises(ModuleNotFoundError):
        found.part("solver")  # only now: nothing was imported when it was declared
    with pytest.raises(KeyError, match="the parts are: presenter, bots"):
        found.part("colour")


def test_a_definition_knows_its_spec_id_and_folder() -> None:
    assert DEFINITION.spec is ToyRace.spec and DEFINITION.id == "toy-race"
    assert (DEFINITION.path / "rules.md").is_file()
    shipped = registry.definition("extra-meters")
    assert shipped.path.name == "extra_meters" and (shipped.path / "board.js").is_file()
    assert set(shipped.declared()) == set(PARTS)  # Extra Meters has every part
    with pytest.raises(TypeError, match="Game subclass"):
        GameDefinition(rules=dict)  # type: ignore[arg-type]


def test_references_name_a_module_and_an_attribute() -> None:
    assert load_reference("toygame:ToyRace.spec") is ToyRace.spec
    with pytest.raises(ValueError, match="module:attribute"):
        load_reference("toygame")


def test_lookups_by_id_alias_class_and_game() -> None:
    assert registry.definition(" TOYRACE ") is DEFINITION
    assert registry.game_class("toy-race") is ToyRace
    game = dicegames.make("toyrace", players=3)
    assert registry.definition_of(game) is DEFINITION
    with pytest.raises(UnknownGame, match="unknown game 'chess'; the games are: extra-meters"):
        registry.definition("chess")
    assert issubclass(UnknownGame, OptionError) and issubclass(PlayerCount, OptionError)
    with pytest.raises(PlayerCount, match="toy-race is for 2 to 4 players, not 5"):
        dicegames.make("toy-race", players=5)


@pytest.mark.usefixtures("scratch_registry")
def test_register_refuses_a_taken_id_or_alias_and_ignores_a_repeat() -> None:
    assert registry.register(DEFINITION) is DEFINITION
    assert registry.register(ToyRace) is DEFINITION  # the same rules: the known definition

    class Other(ToyRace):
        spec = ToyRace.spec

    with pytest.raises(ValueError, match="'toy-race' is already registered"):
        registry.register(Other)
    registry.unregister("toy-race")
    assert "toy-race" not in [spec.id for spec in dicegames.games()]
    with pytest.raises(UnknownGame):
        registry.definition("toyrace")


@pytest.mark.usefixtures("scratch_registry")
def test_presenters_are_the_games_or_the_generic_one_and_kept() -> None:
    game = dicegames.make("toy-race")
    assert type(registry.presenter_of(game)) is ToyPresenter
    assert registry.presenter_of(dicegames.make("toy-race")) is registry.presenter_of(game)

    class Bare(ToyRace):
        """The toy's rules registered with no presenter."""

    bare = Bare(2, game.options)
    assert registry.definition_of(bare) is DEFINITION  # found by its base class
    registry.unregister("toy-race")
    registry.register(GameDefinition(rules=ToyRace))
    plain: Any = registry.presenter_of(ToyRace(2, game.options))
    assert type(plain) is Presenter
    assert plain.view(game.new_state())["board"] is None
    assert str(game.new_state()) == plain.render(game.new_state())


def run_python(code: str, games: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` with ``DICEGAMES_GAMES=games`` (tests/ is on the path)."""
    env = {**os.environ, "DICEGAMES_GAMES": games}
    return subprocess.run([sys.executable, "-W", "always", "-c", code], env=env,
                          capture_output=True, text=True, timeout=60, check=True)


def test_the_environment_registers_more_games_and_skips_broken_references() -> None:
    code = "import json, dicegames; print(json.dumps([s.id for s in dicegames.games()]))"
    done = run_python(code, "toygame:DEFINITION, nosuchmodule:DEFINITION")
    ids = json.loads(done.stdout)
    assert ids[-1] == "toy-race" and ids.count("toy-race") == 1 and len(ids) >= 6
    assert "cannot register the game of DICEGAMES_GAMES 'nosuchmodule:DEFINITION'" in done.stderr
