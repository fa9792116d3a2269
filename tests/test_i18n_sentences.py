"""Every sentence the games write for people, in every language (issue 14).

Differential over seeded random playouts of each game: at every step the move's sentence
(``describe``), the log's events, the choices' labels (``action_hints``), the board's words
(``view``) and, now and then, the terminal picture (``render``) are written in English and
in French, German and Italian, for a player with a name and for the player at the keyboard
("You" in each language). Each must

- use only messages the language's catalogue translates (none missing: no English left),
- fill every placeholder (no ``{name}`` left over, no KeyError), and
- differ from the English text whenever one of the messages it used is translated
  differently (so a message that is translated but not looked up would show).

The playouts must also reach most of each game's sentences (a floor on the share of the
game's presentation messages they used), so the check covers each kind of move.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract

from dicegames import i18n
from dicegames.core.game import State
from dicegames.core.registry import configure, presenter_of
from dicegames.core.session import Session
from dicegames.i18n import translate, translations, use

OTHERS = ("fr", "de", "it")
PACKAGE = Path(i18n.__file__).parent
LEFT_OVER = re.compile(r"\{\w*\}")

PLAYOUTS: list[tuple[str, int, dict[str, Any], int, float]] = [
    # game, players, options, games played, floor on the share of its messages used
    ("extra-meters", 3, {"finish": "same_round"}, 4, 0.95),
    ("shortcut", 2, {}, 6, 0.95),
    ("petits-chevaux", 2, {"three_sixes_penalty": True, "compulsory_move": False}, 2, 0.85),
    ("monza", 3, {"variant_last_colour": True}, 3, 0.8),
    ("extra", 2, {"children": True, "child_seats": "2"}, 6, 0.75),
    ("extra", 1, {}, 6, 0.5),
]
FOLDERS = {"extra-meters": "extra_meters", "petits-chevaux": "petits_chevaux"}


@contextmanager
def recording() -> Iterator[list[str]]:
    """The messages looked up inside the block (every ``_`` goes through ``translate``)."""
    used: list[str] = []
    original = i18n.translate

    def spy(lang: str, message: str, **params: object) -> str:
        used.append(message)
        return original(lang, message, **params)

    i18n.translate = spy
    try:
        yield used
    finally:
        i18n.translate = original


@cache
def catalogue(lang: str) -> frozenset[str]:
    """The messages ``lang``'s compiled catalogue translates."""
    table = getattr(translations(lang), "_catalog", {})
    return frozenset(key for key, value in table.items() if isinstance(key, str) and value)


@cache
def game_messages(game_id: str) -> frozenset[str]:
    """The messages of a game's presentation modules (render.py, view.py, presenter.py)."""
    folder = PACKAGE / "games" / FOLDERS.get(game_id, game_id)
    found: set[str] = set()
    for name in ("render.py", "view.py", "presenter.py"):
        with (folder / name).open("rb") as handle:
            for _line, message, _comments, _context in extract(
                    "python", handle, keywords={"_": None, "N_": None}):
                if isinstance(message, str):
                    found.add(message)
    return frozenset(found)


def strings(value: object) -> Iterator[str]:
    """Every text inside JSON-like data."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def written(lang: str, make: Callable[[], object]) -> tuple[list[str], list[str]]:
    """The texts ``make()`` writes in ``lang``, and the messages it looked up."""
    with use(lang), recording() as used:
        texts = list(strings(make()))
    return texts, used


def compare(lang: str, make: Callable[[], object], what: str) -> list[str]:
    """Write with ``make`` in English and in ``lang``; check the three properties; return
    the messages used."""
    english, _used = written("en", make)
    local, used = written(lang, make)
    missing = sorted({m for m in used if m and m not in catalogue(lang)})
    assert missing == [], f"{lang} {what}: untranslated messages {missing}"
    for text in local:
        assert LEFT_OVER.search(text) is None, f"{lang} {what}: placeholder left in {text!r}"
    if any(translate(lang, m) != m for m in used if m):
        assert local != english, f"{lang} {what}: still English: {english}"
    return used


def playout(game_id: str, players: int, options: dict[str, Any],
            seed: int) -> Iterator[tuple[Session, int]]:
    """A seeded random game, move by move: the session after each move and its index."""
    game = configure(game_id, players, options)
    rng = random.Random(seed)
    session = Session(game, seed=seed)
    state: State[Any, Any, Any] = session.state
    while not state.is_terminal and len(session.moves) < 600:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            move = rng.choices([o for o, _p in outcomes], [float(p) for _o, p in outcomes])[0]
            session.apply(move)
        else:
            seat = state.current_players[0]
            session.apply(rng.choice(state.legal_actions(seat)), seat)
        yield session, len(session.moves) - 1
        state = session.state


@pytest.mark.parametrize(("game_id", "players", "options", "games", "floor"), PLAYOUTS,
                         ids=[f"{p[0]}-{p[1]}" for p in PLAYOUTS])
def test_every_sentence_is_written_in_every_language(
        game_id: str, players: int, options: dict[str, Any], games: int,
        floor: float) -> None:
    used: set[str] = set()
    for number in range(games):
        for session, index in playout(game_id, players, options, number):
            for lang in OTHERS:
                used |= check_step(session, index, lang, players)
    share = len(used & game_messages(game_id)) / len(game_messages(game_id))
    never = sorted(game_messages(game_id) - used)
    assert share >= floor, f"{game_id}: the playouts used {share:.0%} of its messages; " \
                           f"never: {json.dumps(never, ensure_ascii=False)}"


def check_step(session: Session, index: int, lang: str, players: int) -> set[str]:
    """Check everything written about move ``index`` of ``session`` in ``lang`` (see
    :func:`compare`); return the messages used."""
    game = session.game
    before = session.states[index]
    entry = session.moves[index]
    move = game.parse(before, entry.text, entry.seat)
    used: set[str] = set()
    shown = presenter_of(game)
    # Everyone called "You" in the language too: each sentence for the player at the
    # keyboard (the web page's name for its own seats).
    for names in (["Ann", "Ben", "Cleo", "Dan"][:players], [translate(lang, "You")] * players):
        used.update(compare(lang, partial(shown.describe, before, move, entry.seat, names),
                            "describe"))
    used.update(compare(lang, lambda: [(event.description, str(event.kind))
                                       for event in session.events_at(index)], "events"))
    if not before.is_chance and entry.seat is not None:
        seat = entry.seat
        used.update(compare(lang, lambda: shown.action_hints(before, seat), "action_hints"))
    used.update(compare(lang, lambda: [value for _key, value in _words(shown.view(before))],
                        "view"))
    if index % 25 == 0 or session.state.is_terminal:
        used.update(compare(lang, lambda: shown.render(session.states[index + 1]), "render"))
    return used


def _words(view: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The view's texts meant for people: ``where``, ``text`` and ``label`` values (ids,
    colours and notation are the same in every language)."""
    def walk(value: object) -> Iterator[tuple[str, str]]:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("where", "text", "label", "landing_where") and isinstance(item, str):
                    yield key, item
                else:
                    yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)
    return walk(view)


def test_a_translated_message_without_a_translation_is_caught() -> None:
    """The check itself: a message the catalogue lacks is reported (the test can fail)."""
    with pytest.raises(AssertionError, match="untranslated messages"):
        compare("fr", lambda: i18n._("A sentence nobody translated"), "probe")


def test_every_message_in_the_code_is_extracted() -> None:
    """Each ``_("...")`` / ``N_("...")`` literal of the package is in the catalogues'
    template: a message Babel cannot see (inside an f-string, or nested in another
    ``_()`` call's arguments) would never be translated."""
    from web.test_languages import english

    known = set(english())
    unseen = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "i18n.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "N_") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                    and node.args[0].value not in known):
                unseen.append(f"{path.relative_to(PACKAGE)}:{node.lineno} "
                              f"{node.args[0].value!r}")
    assert unseen == []
