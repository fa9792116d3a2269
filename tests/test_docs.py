"""The documentation stays true: rules pages match the code, every option and bot is documented."""

from __future__ import annotations

import doctest
import io
import re
from pathlib import Path

import pytest

import dicegames
from dicegames.bots import bot_levels
from dicegames.docs import rules_page
from registered import shipped_games

ROOT = Path(__file__).resolve().parent.parent
GAME_IDS = shipped_games()
"""Every registered game; those from outside the package (the toy game) skipped: no page."""


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
    for heading in ("## How to play", "## Rulings", "### Notation", "## Options",
                    "## For developers"):
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


def readme_examples() -> list[str]:
    """The README's Python examples (its ```python blocks)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [block.split("```")[0] for block in text.split("```python\n")[1:]]


def test_readme_python_example_prints_what_it_says(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's Python examples (the library, positions, environments) run as doctests:
    every value they show is compared with what the code prints (one saves a file: run them
    in tmp)."""
    blocks = readme_examples()
    assert blocks, "the README has no Python example"
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    for number, block in enumerate(blocks, start=1):
        test = parser.get_doctest(block, {}, f"README.md example {number}", "README.md", 0)
        shown = [example for example in test.examples if example.want]
        assert len(shown) >= 2, f"README example {number} shows the values it prints"
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()
    assert len(blocks) >= 3  # the library, positions and environments examples
    saved = dicegames.load(tmp_path / "game.json")
    assert saved.state.is_terminal


def test_readme_links_stay_inside_the_repository() -> None:
    """A clone has only the repository: no link or path may point outside it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../" not in text and "shared/" not in text
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links to {target}, which is missing"


def test_readme_says_what_make_test_needs_on_each_system() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    develop = text.split("## Develop")[1]
    for fact in ("Python 3.11+", "apt-get", "Debian or Ubuntu", "skipped", "CI=true",
                 "DICEGAMES_CHROMIUM"):
        assert fact in develop, fact
    assert "Only Python 3.11+ and pip are needed" not in text


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rules_pages_name_their_source_in_words_not_by_outside_paths(game_id: str) -> None:
    page = rules_page(game_id)
    assert "Source: " in page
    assert not re.search(r"[0-9]{3}_[0-9a-f]{16}\.txt|RULINGS\.md|\.\./", page)
