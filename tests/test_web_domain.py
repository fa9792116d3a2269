"""The web app as thin handlers over a domain: the hub raises domain errors, never HTTP.

- The domain modules (the hub, the store, the typed requests...) do not import the HTTP
  error type, and every domain error class has its status and code in ``web/errors.py``,
  the one place that maps them (the table's codes are the ones docs/web-api.md lists).
- The registry and the options raise the ``OptionError`` subclass of each mistake where it
  is found (no front end reads the message to tell them apart).
- Requests are checked into typed values at the door (:mod:`dicegames.web.commands`).
- The hub itself, driven in process without a server, refuses with those domain errors.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import dicegames.core.record
import dicegames.web
import dicegames.web.hub
from dicegames.core import errors as core_errors
from dicegames.core.errors import (
    BadOptionValue,
    DiceGamesError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    PlayerCount,
    RecordError,
    UnknownGame,
    UnknownOption,
)
from dicegames.core.names import BadName
from dicegames.core.options import OptionSpec
from dicegames.core.record import to_record
from dicegames.core.registry import configure, games, make
from dicegames.core.session import DICE_MODES, Session
from dicegames.web import domain
from dicegames.web.app import create_app
from dicegames.web.commands import Act, AskHint, CreateMatch, EnterDice, Join, Undo, Upload
from dicegames.web.errors import NOT_REFUSALS, REFUSALS, ApiError, refusal
from dicegames.web.hub import Hub
from dicegames.web.live import LiveMatch

WEB = Path(dicegames.web.__file__).parent
DOCS = Path(__file__).resolve().parent.parent / "docs" / "web-api.md"

DOMAIN_MODULES = ("hub", "store", "database", "commands", "domain", "live", "reviews",
                  "work", "resident", "pool")
"""The web package's domain modules: they decide, and know nothing of HTTP."""

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


# ------------------------------------------------------------ the layering of errors


def _imports(module: str) -> set[str]:
    """Every name ``web/<module>.py`` imports, as ``module.name`` (and bare modules)."""
    tree = ast.parse((WEB / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("module", DOMAIN_MODULES)
def test_the_domain_modules_know_nothing_of_http_errors(module: str) -> None:
    imported = _imports(module)
    assert "dicegames.web.errors" not in imported, (
        f"web/{module}.py imports web/errors.py: it must raise domain errors "
        "(dicegames.web.domain, dicegames.core.errors), which web/errors.py maps")
    if module != "work":  # its unless_gone watches a Starlette request's connection
        assert not any(name.startswith("starlette") for name in imported), imported


def test_the_hub_raises_no_status_codes_and_reads_no_messages() -> None:
    """No ``ApiError(...)``, no number of an HTTP status, no classification of an error by
    its text (``str(error).startswith``, ``in str(error)``...)."""
    source = (WEB / "hub.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert "ApiError" not in names
    statuses = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                and isinstance(node.value, int) and 400 <= node.value < 600]
    assert statuses == []
    assert not re.search(r"str\(error\)\s*\.\s*(startswith|endswith|find)|in str\(error\)",
                         source)
    assert "option_code" not in source


def _error_classes() -> Iterator[type[DiceGamesError]]:
    """Every subclass of DiceGamesError loaded once the web app is imported."""
    pending = [DiceGamesError]
    while pending:
        cls = pending.pop()
        yield cls
        pending.extend(cls.__subclasses__())


def test_every_domain_error_class_has_its_status_and_code() -> None:
    """The engine's and the server's classes each have their own row (or are named as no
    refusal); anyone else's subclass answers as its nearest listed base, and an error of
    another concern (the command line's, the analysis's) is no refusal: a 500."""
    own = [cls for cls in _error_classes()
           if cls.__module__ in (core_errors.__name__, domain.__name__, BadName.__module__)]
    assert len(own) > 30
    missing = [cls.__qualname__ for cls in own if cls not in REFUSALS and cls not in NOT_REFUSALS]
    assert missing == [], "add these classes to web/errors.py's REFUSALS"

    class GameOwnOptionError(OptionError):
        pass

    class OtherConcern(DiceGamesError):
        pass

    answer = refusal(GameOwnOptionError("x"))
    assert answer is not None and (answer.status, answer.code) == (422, "bad_option")
    assert refusal(OtherConcern("x")) is None


def test_the_codes_are_the_documented_ones() -> None:
    """Each (status, code) of the table is in docs/web-api.md's table of refusals, in the
    row of its status."""
    rows = {int(status): set(re.findall(r"`(\w+)`", codes)) for status, codes in
            re.findall(r"^\| (\d{3}) \| ([^|]+) \|", DOCS.read_text(encoding="utf-8"), re.M)}
    undocumented = sorted({(status, code) for status, code in REFUSALS.values()
                           if code not in rows.get(status, set())})
    assert undocumented == []


@pytest.mark.parametrize(("error", "status", "code"), [
    (UnknownGame("x"), 422, "unknown_game"),
    (PlayerCount("x"), 422, "bad_player_count"),
    (UnknownOption("x"), 422, "bad_option"),
    (BadOptionValue("x"), 422, "bad_option"),
    (OptionError("x"), 422, "bad_option"),
    (IllegalAction("x"), 422, "illegal_move"),
    (NotYourTurn("x"), 409, "not_your_turn"),
    (GameOver("x"), 409, "game_over"),
    (RecordError("x", 3), 422, "bad_record"),
    (BadName("x"), 422, "bad_player"),
    (domain.GameNotFound("x"), 404, "unknown_game"),
    (domain.MatchNotFound("x"), 404, "unknown_match"),
    (domain.BadToken("x"), 403, "bad_token"),
    (domain.Stale("x"), 409, "stale"),
    (domain.BadRequest("x"), 400, "bad_request"),
    (domain.HintFailed("x"), 500, "server_error"),
])
def test_a_refusal_answers_its_class_status_code_and_sentence(
        error: DiceGamesError, status: int, code: str) -> None:
    answer = refusal(error)
    assert answer is not None
    assert (answer.status, answer.code, answer.message) == (status, code, str(error))
    assert answer.retry_after is None


def test_a_busy_refusal_keeps_its_retry_after() -> None:
    answer = refusal(domain.StoreBusy("locked", retry_after=1))
    assert answer is not None
    assert (answer.status, answer.code, answer.retry_after) == (503, "store_busy", 1)


def test_a_bug_is_no_refusal() -> None:
    assert refusal(core_errors.GameNotOver("asked too early")) is None


# -------------------------------------------------------- option errors where found


def test_the_registry_raises_each_option_mistake_as_its_own_class() -> None:
    spec = games()[0]
    with pytest.raises(UnknownGame):
        configure("no such game")
    with pytest.raises(PlayerCount):
        configure(spec.id, spec.max_players + 1)
    with pytest.raises(UnknownOption):
        configure(spec.id, None, {"no_such_option": 1})
    numbers = [(s, option) for s in games() for option in s.options if option.kind == "int"]
    assert numbers, "no registered game has a number option"
    owner, option = numbers[0]
    with pytest.raises(BadOptionValue):
        configure(owner.id, None, {option.name: "many"})


def test_an_option_value_refused_is_a_bad_option_value() -> None:
    spec = OptionSpec("size", "int", 3, "how big", minimum=1, maximum=5)
    for value in ("9", True, "١٠", 2.5):
        with pytest.raises(BadOptionValue):
            spec.validate(value)


# ------------------------------------------------------------- typed requests


def test_a_new_match_is_checked_into_a_typed_request() -> None:
    made = CreateMatch.from_json({"game": "g", "players": [
        {"name": "Ann", "kind": "human", "invited": True}, {"kind": "bot:easy"}],
        "options": {"size": 3}, "dice": "manual", "open": True, "position": "p"})
    assert made == CreateMatch("g", made.players, made.options, "manual", None, "p", True,
                               frozenset({0}))
    assert [(p.name, p.kind) for p in made.players] == [("Ann", "human"),
                                                       ("Bot easy", "bot:easy")]
    assert dict(made.options) == {"size": 3}
    with pytest.raises(TypeError):
        made.options["size"] = 4  # type: ignore[index]


@pytest.mark.parametrize(("body", "error"), [
    ({"game": 3}, domain.BadRequest),
    ({"players": []}, domain.BadRequest),
    ({"players": [{"kind": "robot"}]}, domain.BadPlayer),
    ({"players": [{"name": "\u0007"}]}, BadName),
    ({"options": []}, domain.BadRequest),
    ({"dice": "loaded"}, domain.BadDice),
    ({"seed": True}, domain.BadRequest),
    ({"seed": 2**63}, domain.BadRequest),
    ({"open": "yes"}, domain.BadRequest),
    ({"open": True}, domain.BadOpen),
    ({"open": True, "seed": 1, "players": [{"invited": True}, {}]}, domain.SeededTable),
    ({"players": [{"kind": "bot:easy", "invited": True}]}, domain.BadPlayer),
    ({"position": 7}, domain.BadRequest),
])
def test_a_malformed_new_match_is_refused_at_the_door(
        body: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        CreateMatch.from_json({"game": "g", "players": TWO_PEOPLE, **body})


def test_the_dice_modes_are_the_sessions() -> None:
    for mode in DICE_MODES:
        assert CreateMatch.from_json({"game": "g", "players": TWO_PEOPLE,
                                      "dice": mode}).dice == mode


@pytest.mark.parametrize(("parse", "body", "error"), [
    (Act.from_json, {"move": "x"}, domain.BadToken),
    (Act.from_json, {"token": "", "move": "x"}, domain.BadToken),
    (Act.from_json, {"token": "t"}, domain.BadRequest),
    (Act.from_json, {"token": "t", "move": "x" * 201}, domain.BadRequest),
    (Act.from_json, {"token": "t", "move": "a\u0000"}, domain.BadRequest),
    (Act.from_json, {"token": "t", "move": "x", "expect": True}, domain.BadRequest),
    (EnterDice.from_json, {"token": "t", "dice": 4}, domain.BadRequest),
    (Undo.from_json, {"token": 5}, domain.BadToken),
    (AskHint.from_json, {}, domain.BadToken),
    (Join.from_json, {"name": ""}, BadName),
])
def test_a_malformed_request_is_refused_at_the_door(
        parse: Callable[[dict[str, Any]], object], body: dict[str, Any],
        error: type[Exception]) -> None:
    with pytest.raises(error):
        parse(body)


def test_well_formed_requests_are_typed_values() -> None:
    assert Act.from_json({"token": "t", "move": "4", "expect": 2}) == Act("t", "4", 2)
    assert EnterDice.from_json({"token": "t", "dice": "2 5"}) == EnterDice("t", "2 5")
    assert Undo.from_json({"token": "t"}) == Undo("t", None)
    assert Join.from_json({"name": " Ann "}) == Join("Ann")
    assert Upload.from_json({"format": "x"}).record == {"format": "x"}


# ------------------------------------------------------- the hub, driven in process


def _with_hub(tmp_path: Path, work: Callable[[Hub], Awaitable[None]]) -> None:
    """Run ``work`` on the hub of a fresh app (no server, no bot pause), then close it."""
    app = create_app(tmp_path / "games.sqlite3", bot_delay=0)
    hub: Hub = app.state.hub

    async def run() -> None:
        try:
            await work(hub)
        finally:
            hub.close()
            await hub.store.aclose()

    asyncio.run(run())


def _new(game: str, players: int = 2, dice: str = "manual",
         **extra: object) -> CreateMatch:
    return CreateMatch.from_json({"game": game, "dice": dice, **extra, "players": [
        {"name": f"P{seat + 1}"} for seat in range(players)]})


async def _refused(call: Awaitable[object]) -> DiceGamesError:
    """The domain error ``call`` raises (it must raise one, never an HTTP refusal)."""
    try:
        await call
    except ApiError as error:  # pragma: no cover - the failure this test is about
        raise AssertionError(f"the hub answered HTTP {error.status} {error.code}") from None
    except DiceGamesError as error:
        return error
    raise AssertionError("nothing was refused")


def test_the_hub_refuses_new_matches_with_domain_errors(tmp_path: Path) -> None:
    spec = games()[0]

    async def work(hub: Hub) -> None:
        assert isinstance(await _refused(hub.create(_new("no such game"))), UnknownGame)
        assert isinstance(await _refused(hub.create(_new(spec.id, spec.max_players + 1))),
                          PlayerCount)
        assert isinstance(await _refused(hub.create(_new(spec.id, options={"nope": 1}))),
                          UnknownOption)
        bots = CreateMatch.from_json({"game": spec.id, "dice": "manual", "players": [
            {"kind": "bot:no-such-level"}, {"kind": "human"}]})
        assert isinstance(await _refused(hub.create(bots)), domain.BadPlayer)
        nobody = CreateMatch.from_json({"game": spec.id, "dice": "manual", "players": [
            {"kind": "bot:easy"}, {"kind": "bot:easy"}]})
        assert isinstance(await _refused(hub.create(nobody)), domain.BadDice)
        assert isinstance(await _refused(hub.create(_new(spec.id, position="\u0007"))),
                          core_errors.PositionError)
        assert isinstance(await _refused(hub.get("no-such-match")), domain.MatchNotFound)
        assert isinstance(await _refused(hub.upload(Upload({"format": "nonsense"}))),
                          RecordError)

    _with_hub(tmp_path, work)


def test_the_hub_refuses_changes_with_domain_errors(tmp_path: Path) -> None:
    """On each registered game: a stranger's token, a seat out of turn, dice in a match the
    server rolls for, an undo with nothing to take back, a stale version, a review too
    early; every refusal a domain error."""
    async def work(hub: Hub) -> None:
        for spec in games():
            seats = min(max(2, spec.min_players), spec.max_players)
            match = await hub.create(_new(spec.id, seats))
            token = match.seat_tokens[0]
            state = match.state
            assert isinstance(await _refused(hub.act(match, Act("stranger", "x"))),
                              domain.BadToken)
            waiting = [seat for seat in match.seat_tokens
                       if state.is_chance or seat not in state.current_players]
            if waiting:
                out_of_turn = Act(match.seat_tokens[waiting[0]], "x")
                assert isinstance(await _refused(hub.act(match, out_of_turn)), NotYourTurn)
            assert isinstance(await _refused(hub.undo(match, Undo(token))), domain.CannotUndo)
            stale = Undo(token, expect=match.version + 1)
            assert isinstance(await _refused(hub.undo(match, stale)), domain.Stale)
            assert isinstance(await _refused(hub.review(match)), domain.NotFinished)
            assert isinstance(await _refused(hub.cancel_review(match)), domain.NoReview)
            rolled = await hub.create(_new(spec.id, seats, dice="auto"))
            dice = EnterDice(rolled.seat_tokens[0], "1")
            assert isinstance(await _refused(hub.enter_dice(rolled, dice)), domain.AutoDice)
            await _settled(rolled)

    _with_hub(tmp_path, work)


async def _settled(match: LiveMatch) -> None:
    """Let the match's driver play its automatic steps before the hub closes."""
    if match.driver is not None:
        await asyncio.wait_for(match.driver, 30)


# ------------------------------------------------------------- the garbage collector


def test_checking_a_record_leaves_the_collector_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No request switches the process's collector off or freezes its heap (a record check
    used to do both: ``gc.disable()`` meanwhile, ``gc.freeze()`` after)."""
    checked = dicegames.core.record.from_record
    enabled: list[bool] = []

    def watched(*args: Any, **kwargs: Any) -> Session:
        enabled.append(gc.isenabled())
        return checked(*args, **kwargs)

    monkeypatch.setattr(dicegames.web.hub, "from_record", watched)
    session = Session(make(games()[0].id), None, 1)
    frozen = gc.get_freeze_count()

    async def work(hub: Hub) -> None:
        match = await hub.upload(Upload(to_record(session)))
        assert match.status == "record"
        assert gc.isenabled()

    _with_hub(tmp_path, work)
    assert enabled == [True]
    assert gc.get_freeze_count() == frozen


def test_the_server_process_freezes_its_start_up_heap_once() -> None:
    """What ``dicegames serve`` does before its first request (:func:`settle_heap`), seen
    in a process of its own."""
    script = ("import gc; from dicegames.web.server import GC_THRESHOLDS, settle_heap; "
              "settle_heap(); print(gc.get_freeze_count() > 10_000, "
              "gc.get_threshold() == GC_THRESHOLDS, gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.stdout.split() == ["True", "True", "True"]
