"""Game records: a session as JSON, and back, with every move checked on the way in.

A record holds a format name and version, the game id and options, the players, how the
dice are rolled (``dice``: ``auto`` by the computer, ``manual`` physical dice typed in) and
the seed, the position the game started from when it did not start at the beginning
(version 2), the moves in notation and the result. A record written before ``dice`` existed
reads as ``manual`` when its seed is null (that is how physical-dice games were saved) and
``auto`` otherwise. A web match's record also holds ``fair``, its dice commitment
(:mod:`dicegames.core.fair`): until the game is over such a record shows the commitment and
neither the seed nor the secret, so nothing in it predicts a roll; once it is over the secret
(and the seed of a seeded match) is revealed, and ``dicegames verify`` checks every roll
against the commitment. Loading replays every move through the rules, so a
corrupt or tampered record is refused with :class:`RecordError` naming the move and the
reason. Files are written atomically, so an interrupted save never destroys an old record.
"""

from __future__ import annotations

import json
import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dicegames.core.errors import DiceGamesError, OptionError, PositionError, RecordError
from dicegames.core.fair import FairDice
from dicegames.core.files import write_text
from dicegames.core.names import BadName, check_name, text_problem
from dicegames.core.registry import configure
from dicegames.core.session import DICE_MODES, DiceMode, Event, PlayerInfo, Session

FORMAT = "dicegames-record"
VERSION = 2
"""The newest record version this code reads. Version 2 adds ``position`` (the position a
game started from); a record without one is written as version 1, readable by older code."""

MAX_MOVES = 10_000
"""The most moves (record entries, dice included) a record may hold. The longest of 120
games per game between random and easy bots, fewest and most players, was 1,313 entries
(four random players of Petits Chevaux); see docs/security.md."""

MAX_MOVE_TEXT = 200
"""The longest move in notation a record may hold (real moves have a few characters)."""

MAX_POSITION = 2000
"""The longest starting position a record may hold (EXTRA!'s six full sheets stay far
below it; the web app takes the same at match creation)."""

SEED_RANGE = range(-(2**63), 2**63)
"""The seeds a record may hold: whole numbers that fit 64 bits (as SQLite stores them)."""


def to_record(session: Session) -> dict[str, Any]:
    """The session as a JSON-ready record (finished or not).

    A session with committed dice (``session.fair``, a web match) gets its ``fair`` object,
    and its seed and secret only once the game is over: before that, nothing in the record
    predicts a roll. Any other session keeps its seed (its player's own, for resuming).
    """
    state = session.state
    fair = session.fair
    revealed = fair is None or state.is_terminal
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": 1 if session.position is None else VERSION,
        "game": session.game.spec.id,
        "options": dict(session.game.options),
        "players": [{"name": p.name, "kind": p.kind} for p in session.players],
        "dice": session.dice,
        "seed": session.seed if revealed else None,
        "saved": datetime.now(UTC).isoformat(timespec="seconds"),
        "moves": [entry.to_record() for entry in session.moves],
        "result": state.result.to_json() if state.is_terminal else None,
    }
    if session.position is not None:
        record["position"] = session.position
    if fair is not None:
        record["fair"] = fair.public(revealed)
    return record


def _header(data: object) -> tuple[dict[str, Any], list[PlayerInfo]]:
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, game, players and moves")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a dicegames record (format should be {FORMAT!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError("the record has no whole-number version")
    if version > VERSION:
        raise RecordError(f"record version {version} is newer than this dicegames "
                          f"(reads up to {VERSION}); update dicegames")
    for key, kind in (("game", str), ("options", dict), ("players", list), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"the record's {key!r} is missing or not a {kind.__name__}")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or seed not in SEED_RANGE):
        raise RecordError("the record's seed must be a whole number or null (a whole number "
                          "from -2**63 to 2**63-1)")
    if len(data["moves"]) > MAX_MOVES:
        raise RecordError(f"the record has {len(data['moves'])} moves; a record may hold at "
                          f"most {MAX_MOVES} (real games stay far below)")
    players = []
    for number, entry in enumerate(data["players"], start=1):
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and isinstance(entry.get("kind", "human"), str)):
            raise RecordError(f"player {number} must be an object with a name and a kind")
        kind = entry.get("kind", "human")
        try:
            name = check_name(entry["name"], f"player {number}'s name")
        except BadName as error:
            raise RecordError(str(error)) from None
        if kind != "human" and not kind.startswith("bot:"):
            raise RecordError(f"player {number}'s kind must be 'human' or 'bot:<level>', "
                              f"not {kind[:40]!r}")
        players.append(PlayerInfo(name, kind))
    return data, players


def _dice(record: dict[str, Any]) -> DiceMode:
    """The record's dice mode; inferred from the seed for records that predate it."""
    dice = record.get("dice")
    if dice is None:
        return "manual" if record.get("seed") is None else "auto"
    for mode in DICE_MODES:
        if dice == mode:
            return mode
    raise RecordError(f"the record's dice must be one of {', '.join(DICE_MODES)}, "
                      f"not {dice!r}")


def from_record(data: object, budget: float | None = None,
                events: list[list[Event]] | None = None) -> Session:
    """Rebuild a session from a record, replaying and checking every move.

    Nothing in a record makes this read a file: a custom board travels as its text (see
    :class:`~dicegames.core.options.OptionSpec`). ``budget`` bounds the checking time in
    seconds (the web app checks uploads with one); ``events``, when given, receives the
    events of each move (as :meth:`Session.apply` returns them), so a caller that shows a
    log need not replay the record again.

    Raises:
        RecordError: the record is malformed, names an unknown game or option, or one of
            its moves is illegal (``index`` says which), or its stored result disagrees
            with the replay, or checking it took longer than ``budget``.
    """
    record, players = _header(data)
    try:
        game = configure(record["game"], len(players), record["options"])
    except OptionError as error:
        raise RecordError(str(error)) from None
    deadline = None if budget is None else time.monotonic() + budget
    position = record.get("position")
    start = None
    if position is not None:
        if not isinstance(position, str) or len(position) > MAX_POSITION:
            raise RecordError("the record's 'position' must be a position text of at most "
                              f"{MAX_POSITION} characters (or absent)")
        problem = text_problem(position)
        if problem is not None:
            raise RecordError(f"the record's 'position' contains {problem}; a position is "
                              "plain text")
        try:
            start = game.from_position(position)
        except PositionError as error:
            raise RecordError(f"the record's position: {error}") from None
    fair = None
    if record.get("fair") is not None:
        fair = FairDice.from_json(record["fair"], record.get("seed"))
    session = Session(game, players, record.get("seed"), _dice(record), start=start,
                      fair=fair)
    for index, entry in enumerate(record["moves"]):
        if deadline is not None and index % 64 == 0 and time.monotonic() > deadline:
            raise RecordError(f"checking the record took longer than {budget:g} s; it "
                              f"stopped at move {index}", index)
        if not isinstance(entry, str) or len(entry) > MAX_MOVE_TEXT:
            shown = repr(entry)[:60]
            raise RecordError(f"{shown} is not a move in notation (text of at most "
                              f"{MAX_MOVE_TEXT} characters)", index)
        problem = text_problem(entry)
        if problem is not None:
            raise RecordError(f"the move contains {problem}; a move is plain text in "
                              "notation", index)
        seat: int | None = None
        text = entry
        if len(session.state.current_players) > 1:
            seat_text, sep, text = entry.partition(":")
            if not sep or not re.fullmatch(r"[0-9]+", seat_text.strip()):
                raise RecordError("several seats decide here: the move must read 'seat:move'",
                                  index)
            seat = int(seat_text)
        try:
            happened = session.apply(text, seat)
        except DiceGamesError as error:
            raise RecordError(str(error), index) from None
        if events is not None:
            events.append(happened)
    _check_result(record.get("result"), session)
    return session


def _check_result(stored: object, session: Session) -> None:
    state = session.state
    if stored is None:
        return
    if not state.is_terminal:
        raise RecordError("the record states a result, but its moves do not finish the game")
    result = state.result
    if not isinstance(stored, dict) or stored.get("winners") != list(result.winners) or (
        stored.get("scores") != list(result.scores)
    ):
        raise RecordError(
            f"the stored result does not match the replay (the moves give winners "
            f"{list(result.winners)}, scores {list(result.scores)})"
        )


def save(session: Session, path: str | os.PathLike[str]) -> Path:
    """Write the session's record to ``path`` and return the path.

    Written by :func:`dicegames.core.files.write_text`: atomically onto a file (a crash
    mid-write leaves any earlier file intact), through a symbolic link to its target, and
    directly into a device or FIFO (``--save /dev/stdout``); a folder is refused.

    Raises:
        OSError: the record cannot be written (a :class:`~dicegames.core.files.TargetError`
            for a folder, a socket or a block device).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_text(target, json.dumps(to_record(session), indent=1) + "\n")
    return target


def load(path: str | os.PathLike[str]) -> Session:
    """Read a record file and replay it.

    Raises:
        RecordError: the file cannot be read, is not JSON, or is not a valid record.
    """
    return from_record(read(path))


def read(path: str | os.PathLike[str]) -> object:
    """A record file's JSON, unchecked.

    Raises:
        RecordError: the file cannot be read, is not UTF-8 text, or is not JSON.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON (line {error.lineno}: {error.msg})") from None
    except RecursionError:
        raise RecordError(f"{path} nests JSON too deeply to be a record") from None
    return data
