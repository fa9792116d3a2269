"""Moves made by another server process, played into this process's copy of the match.

Every stored move is announced on PostgreSQL's LISTEN/NOTIFY channel when its transaction
commits (:mod:`dicegames.web.cluster_schema`); each process listens on one connection
(:class:`dicegames.web.cluster.Cluster`) and hands each :class:`Notice` of a match it holds
in memory to :func:`catch_up`, under the match's lock. Most notices need no database read:

- a process's own move (it hears its own notifications too) is already in memory: the
  notice's move equals the one held at that index;
- the next move (index = the version held) carries its seat and notation: it is played at
  once, as a replay plays it;
- an undo of the last move held is taken back at once.

Anything else (a notice that arrives after later changes, an undo followed by another move
at the same index, missed notices after the listening connection was lost) reads the
stored moves from the lowest index concerned (:data:`ReadMoves`) and reconciles: the moves
held that differ from the stored ones are taken back, then the stored ones played. The
viewers are then woken by the hub as after any change.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from dicegames.web.live import LiveMatch

StoredMove = tuple[int | None, str, bool]
"""A stored move: ``(seat, notation, several)``, as :class:`~.store.StoredMatch` has them."""

ReadMoves = Callable[[str, int], Awaitable[list[StoredMove] | None]]
"""``read(match_id, start)``: the stored moves of a match from index ``start`` on (None:
no such match)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification of the moves' channel: a move stored (``insert``) or taken back
    (``delete``) at ``index`` of match ``match_id``; an insert's move as stored."""

    match_id: str
    index: int
    op: str
    move: StoredMove | None = None

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice a payload holds (None: not one of ours, or malformed)."""
        try:
            data = json.loads(payload)
            match_id, index, op = data["m"], data["i"], data["op"]
        except (ValueError, KeyError, TypeError):
            return None
        if not (isinstance(match_id, str) and isinstance(index, int) and index >= 0
                and op in ("insert", "delete")):
            return None
        move: StoredMove | None = None
        if op == "insert":
            seat, text, several = data.get("s"), data.get("t"), data.get("v")
            if not ((seat is None or isinstance(seat, int)) and isinstance(text, str)
                    and isinstance(several, bool)):
                return None
            move = (seat, text, several)
        return cls(match_id, index, op, move)


def _held(match: LiveMatch, index: int) -> StoredMove:
    entry = match.session.moves[index]
    return entry.seat, entry.text, entry.several


def _take_back(match: LiveMatch) -> None:
    match.session.undo()
    match.forget_last()


def _play(match: LiveMatch, move: StoredMove) -> None:
    seat, text, _several = move
    match.note(match.session.apply(text, seat))


async def catch_up(match: LiveMatch, notice: Notice | None, read: ReadMoves) -> bool:
    """Bring ``match`` (whose lock the caller holds) to the stored moves that ``notice``
    announces (None: check every move, e.g. after notices may have been missed); True when
    anything changed in memory.

    Raises:
        DiceGamesError: a stored move the rules refuse (another version of the rules
            wrote it); the match is then left as far as it could be played.
    """
    version = match.version
    if notice is not None:
        if notice.op == "insert" and notice.move is not None:
            if notice.index < version and _held(match, notice.index) == notice.move:
                return False  # already held (our own move, or read with an earlier notice)
            if notice.index == version:
                _play(match, notice.move)
                return True
        elif notice.index == version:
            return False  # the undo is already taken back here
        elif notice.index == version - 1 and notice.op == "delete":
            _take_back(match)
            return True
    start = 0 if notice is None else min(notice.index, version)
    stored = await read(match.id, start)
    if stored is None:
        return False
    same = 0
    while (same < len(stored) and start + same < match.version
           and _held(match, start + same) == stored[same]):
        same += 1
    changed = False
    while match.version > start + same:
        _take_back(match)
        changed = True
    for move in stored[same:]:
        _play(match, move)
        changed = True
    return changed
