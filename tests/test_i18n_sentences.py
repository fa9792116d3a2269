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
messages in the game's folder they used), so the check covers each kind of move. Each game
declares its playouts (configurations that reach its rarer sentences, and the floor) in its
folder's ``examples.toml``; every registered game is played, a game without a catalogue
skipped with the reason (:mod:`registered`).
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from typing import Any

import pytest
from babel.messages.extract import extract

from dicegames import i18n
from dicegames.core.game import State
from dicegames.core.registry import configure
from dicegames.core.session import Session
from dicegames.i18n import PACKAGE, game_folder, table, translate, use
from registered import Playout, playout_params

OTHERS = tuple(lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT)
LEFT_OVER = re.compile(r"\{\w*\}")


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
    return frozenset(key for key, value in table(lang).items() if value)


@cache
def game_messages(game_id: str) -> frozenset[str]:
    """The messages of the Python modules in a game's folder (its presenter's sentences,
    labels and board words)."""
    found: set[str] = set()
    for path in sorted(game_folder(game_id).rglob("*.py")):
        with path.open("rb") as handle:
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


@pytest.mark.parametrize("declared", playout_params())
def test_every_sentence_is_written_in_every_language(declared: Playout) -> None:
    game_id, players = declared.game_id, declared.players
    used: set[str] = set()
    for number in range(declared.games):
        for session, index in playout(game_id, players, declared.options, number):
            for lang in OTHERS:
                used |= check_step(session, index, lang, players)
    mine = game_messages(game_id)
    share = len(used & mine) / len(mine) if mine else 1.0
    never = sorted(mine - used)
    assert share >= declared.coverage, (
        f"{game_id}: the playouts used {share:.0%} of its messages; "
        f"never: {json.dumps(never, ensure_ascii=False)}")


def check_step(session: Session, index: int, lang: str, players: int) -> set[str]:
    """Check everything written about move ``index`` of ``session`` in ``lang`` (see
    :func:`compare`); return the messages used."""
    game = session.game
    shown = session.presenter
    before = session.states[index]
    entry = session.moves[index]
    move = game.parse(before, entry.text, entry.seat)
    used: set[str] = set()
    # Everyone called "You" in the language too: each sentence for the player at the
    # keyboard (the web page's name for its own seats).
    people = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"][:players]
    for names in (people, [translate(lang, "You")] * players):
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
    if before.is_chance:  # where real dice are entered
        used.update(compare(lang, lambda: shown.dice_note(before), "dice_note"))
    final = session.states[index + 1]
    if final.is_terminal:  # the end screen: each score in words, and why the winners won
        used.update(compare(lang, lambda: [
            shown.explain_result(final, final.result, people),
            *(shown.describe_score(final, final.result, seat) for seat in range(players))],
            "end screen"))
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
