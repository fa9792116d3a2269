"""The documentation stays true: rules pages match the code, every option and bot is documented."""

from __future__ import annotations

from pathlib import Path

import pytest

import dicegames
from dicegames.bots import bot_levels
from dicegames.docs import rules_page

ROOT = Path(__file__).resolve().parent.parent
GAME_IDS = [spec.id for spec in dicegames.games()]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_page_file_is_up_to_date(game_id: str) -> None:
    path = ROOT / "docs" / "rules" / f"{game_id}.md"
    assert path.exists(), f"{path} is missing: run `make docs`"
    assert path.read_text(encoding="utf-8") == rules_page(game_id), (
        f"{path} is out of date: run `make docs`"
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_page_documents_every_option_bot_and_notation(game_id: str) -> None:
    page = rules_page(game_id)
    spec = next(s for s in dicegames.games() if s.id == game_id)
    for option in spec.options:
        assert f"`{option.name}`" in page
    for level in bot_levels(dicegames.make(game_id)):
        assert f"`{level.name}`" in page
    for heading in ("## How to play", "## Rulings", "## Notation", "## Options"):
        assert heading in page


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_legal_notation_of_an_opening_is_documented(game_id: str) -> None:
    """The notation table names each decision the first turn can offer."""
    game = dicegames.make(game_id)
    state = game.new_state()
    while state.is_chance:
        state = state.apply(state.chance_outcomes()[0][0])
    page = rules_page(game_id)
    for action in state.legal_actions(state.current_players[0]):
        assert f"`{action}`" in page


def test_unknown_game_is_an_option_error() -> None:
    with pytest.raises(dicegames.OptionError, match="extra-meters"):
        rules_page("monopoly")


def test_readme_opens_with_the_two_setup_commands() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:8]
    text = "\n".join(head)
    assert "make run" in text and "make test" in text


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The library example in the README works as printed (it saves a file: run it in tmp)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = text.split("```python\n")[1:]
    assert blocks, "the README has no Python example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block.split("```")[0], "README.md", "exec"), {})
    saved = dicegames.load(tmp_path / "game.json")
    assert saved.state.is_terminal
