"""The catalogues, one per folder: each game's messages in its own folder, merged at load.

- Every message of a game's catalogue is translated through the merged catalogue (the
  Python side) and served to the pages (``/i18n/<lang>.json``), and the shared catalogue
  alone lacks it: the game's folder really holds it.
- A message lives in exactly one catalogue; the rule that places it (one game's alone, or
  shared) and ``update`` moving a message with its translation are checked on small made-up
  catalogues.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from starlette.testclient import TestClient

from dicegames import i18n
from dicegames.core.registry import games
from dicegames.i18n import LANGUAGES, PACKAGE, catalogue_file, game_folder, table, translate
from dicegames.web.app import create_app
from registered import translated_games, untranslated_reason
from web.test_languages import catalogue_script

OTHERS = [lang for lang in LANGUAGES if lang != i18n.DEFAULT]


@pytest.fixture
def script() -> ModuleType:
    """scripts/i18n.py."""
    return catalogue_script()


def entries(path: Path, lang: str) -> dict[str, str]:
    """The translated entries of a ``.po`` file."""
    with path.open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle, locale=lang)
                if m.id and m.string}


@pytest.mark.parametrize("game_id", translated_games())
def test_a_games_own_messages_come_from_its_folder(game_id: str) -> None:
    folder = game_folder(game_id)
    for lang in OTHERS:
        own = entries(catalogue_file(folder, lang, ".po"), lang)
        assert own, f"{game_id} {lang}: its catalogue is empty"
        with catalogue_file(PACKAGE, lang).open("rb") as handle:
            shared = gettext.GNUTranslations(handle)
        for message, text in own.items():
            assert shared.gettext(message) == message, f"{message!r} is in the shared .mo too"
            assert translate(lang, message) == text
            assert table(lang)[message] == text


def test_the_pages_read_the_merged_catalogue(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path / "games.sqlite3", bot_delay=0))
    for lang in OTHERS:
        answer = client.get(f"/i18n/{lang}.json")
        assert answer.status_code == 200
        assert answer.json() == dict(table(lang))
    assert client.get("/i18n/en.json").json() == {}
    assert client.get("/i18n/xx.json").status_code == 404


def test_a_message_lives_in_one_catalogue(script: ModuleType) -> None:
    for lang in OTHERS:
        seen: dict[str, str] = {}
        for unit in script.units():
            for message in entries(unit.po(lang), lang):
                assert message not in seen, f"{lang}: {message!r} in {seen[message]} and " \
                                            f"{unit.name}"
                seen[message] = unit.name
    names = {unit.name for unit in script.units()}
    assert [spec.id for spec in games() if untranslated_reason(spec.id) is None
            and spec.id not in names] == []


def test_a_message_is_one_games_or_shared(script: ModuleType,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """One game's alone: that game's. The shared code's, or two games': shared."""
    used = [("shared", "by the pages"), ("one", "by the pages"), ("one", "one's own"),
            ("one", "by two games"), ("two", "by two games"), ("two", "two's own")]
    monkeypatch.setattr(script, "sources",
                        lambda: iter((unit, text, ("x.py", 1), False) for unit, text in used))
    assert script.owners() == {"by the pages": "shared", "one's own": "one",
                               "by two games": "shared", "two's own": "two"}


@pytest.fixture
def made_up(script: ModuleType, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    """A shared catalogue holding a message that now belongs to game ``one`` (which has no
    catalogue yet), the templates saying so, and every language translated."""
    folders = {"shared": tmp_path / "shared", "one": tmp_path / "one"}
    for lang in OTHERS:
        catalog = Catalog(locale=lang, domain=i18n.DOMAIN)
        catalog.add("Shared words", string=f"shared-{lang}")
        catalog.add("One's words", string=f"one-{lang}")
        path = catalogue_file(folders["shared"], lang, ".po")
        path.parent.mkdir(parents=True)
        with path.open("wb") as handle:
            write_po(handle, catalog)
    pots = {"shared": Catalog(), "one": Catalog()}
    pots["shared"].add("Shared words")
    pots["one"].add("One's words")
    monkeypatch.setattr(script, "units", lambda: tuple(
        script.Unit(name, folder) for name, folder in folders.items()))
    monkeypatch.setattr(script, "templates", lambda: pots)
    yield folders


def test_update_moves_a_message_with_its_translation(script: ModuleType,
                                                     made_up: dict[str, Path]) -> None:
    assert any("belongs to another catalogue" in problem for problem in script.problems())
    script.update()
    script.compile_all()
    assert script.problems() == []
    for lang in OTHERS:
        assert entries(catalogue_file(made_up["one"], lang, ".po"), lang) == {
            "One's words": f"one-{lang}"}
        assert entries(catalogue_file(made_up["shared"], lang, ".po"), lang) == {
            "Shared words": f"shared-{lang}"}


def test_check_reports_a_message_in_two_catalogues(script: ModuleType,
                                                    made_up: dict[str, Path]) -> None:
    script.update()
    script.compile_all()
    path = catalogue_file(made_up["one"], "fr", ".po")
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    catalog.add("Shared words", string="ailleurs")
    with path.open("wb") as handle:
        write_po(handle, catalog)
    assert "fr: 'Shared words' is in both shared and one" in script.problems()


def made_up_game(folder: Path, shared_message: str) -> None:
    """A compiled French catalogue in ``folder``: a message of its own, and another
    translation of a message the shared catalogue has."""
    catalog = Catalog(locale="fr", domain=i18n.DOMAIN)
    catalog.add("A made-up game's words", string="Les mots d'un jeu inventé")
    catalog.add(shared_message, string="autre chose")
    path = catalogue_file(folder, "fr")
    path.parent.mkdir(parents=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    path.write_bytes(buffer.getvalue())


def test_the_shared_catalogue_wins_over_a_games(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Merging reads each folder's ``.mo``: a game's new message is added, a message the
    shared catalogue has keeps the shared translation."""
    shared_message = next(iter(table("fr")))
    made_up_game(tmp_path, shared_message)
    monkeypatch.setattr(i18n, "catalogue_folders", lambda: (PACKAGE, tmp_path))
    i18n.reload()
    try:
        assert translate("fr", "A made-up game's words") == "Les mots d'un jeu inventé"
        assert translate("fr", shared_message) == table("fr")[shared_message] != "autre chose"
        assert translate("de", "A made-up game's words") == "A made-up game's words"
    finally:
        monkeypatch.undo()
        i18n.reload()
    assert translate("fr", "A made-up game's words") == "A made-up game's words"


def test_a_game_registered_later_is_merged_too(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The catalogues were read before the game came (one more game in the registry, whose
    folder has a catalogue): its messages are found at their first use."""
    assert translate("fr", "Options") == "Options"  # read before
    made_up_game(tmp_path, "Options")
    registered = i18n._registry_games()()
    monkeypatch.setattr(i18n, "catalogue_folders", lambda: (PACKAGE, tmp_path))
    monkeypatch.setattr(i18n, "_registry_games", lambda: lambda: (*registered, "a new game"))
    try:
        assert translate("fr", "A made-up game's words") == "Les mots d'un jeu inventé"
    finally:
        monkeypatch.undo()
        i18n.reload()
