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

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dicegames.core.model import Seat
from dicegames.web.grace import closes_turn
from dicegames.web.live import LiveMatch

if TYPE_CHECKING:
    from dicegames.web.cluster import Cluster
    from dicegames.web.resident import Resident

log = logging.getLogger("dicegames.web")

StoredMove = tuple[int | None, str, bool]
"""A stored move: ``(seat, notation, several)``, as :class:`~.store.StoredMatch` has them."""

ReadMoves = Callable[[str, int], Awaitable[list[StoredMove] | None]]
"""``read(match_id, start)``: the stored moves of a match from index ``start`` on (None:
no such match)."""


RELOAD_CLOSE = 1012
"""The close code of the viewers of a match that could not catch up with the store and was
dropped from memory (1012, "service restart": connect again, now). Without it they would
keep a socket to the dropped copy, which nothing wakes any more: no pushes until they
reconnected by themselves. The page connects again at once and gets the match replayed
from the store."""

RELOAD_REASON = "the match is reloaded from the store: connect again"
"""The close reason sent with :data:`RELOAD_CLOSE` (at most 123 bytes)."""

OPS = ("insert", "delete", "rename", "rematch")
"""The notices: a move stored or taken back (sent by the moves' trigger), a seat taken in
the lobby under a new name, a rematch started (sent by :meth:`Following.announce`)."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification of the channel: a move stored (``insert``) or taken back
    (``delete``) at ``index`` of match ``match_id`` (an insert's move as stored); seat
    ``index`` renamed ``text`` (``rename``); the rematch ``text`` started (``rematch``)."""

    match_id: str
    index: int
    op: str
    move: StoredMove | None = None
    text: str = ""

    @classmethod
    def parse(cls, payload: str) -> Notice | None:
        """The notice a payload holds (None: not one of ours, or malformed)."""
        try:
            data = json.loads(payload)
            match_id, index, op = data["m"], data.get("i", 0), data["op"]
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        if not (isinstance(match_id, str) and isinstance(index, int) and index >= 0
                and op in OPS):
            return None
        seat, text, several = data.get("s"), data.get("t"), data.get("v")
        if op == "insert":
            if not ((seat is None or isinstance(seat, int)) and isinstance(text, str)
                    and isinstance(several, bool)):
                return None
            return cls(match_id, index, op, (seat, text, several))
        if op in ("rename", "rematch") and not isinstance(text, str):
            return None
        return cls(match_id, index, op, None, text or "")

    def payload(self) -> str:
        """The notice as the channel carries it."""
        return json.dumps({"m": self.match_id, "i": self.index, "op": self.op,
                           "t": self.text})


def _held(match: LiveMatch, index: int) -> StoredMove:
    entry = match.session.moves[index]
    return entry.seat, entry.text, entry.several


def _take_back(match: LiveMatch) -> None:
    match.session.undo()
    match.forget_last()


def _play(match: LiveMatch, move: StoredMove) -> None:
    seat, text, _several = move
    match.note(match.session.apply(text, seat))


def _already_held(match: LiveMatch, notice: Notice) -> bool:
    """True when ``match`` already is as ``notice`` leaves it: a move this process stored
    itself (every process hears its own notices too), or an undo already taken back here.

    Checked as the notice arrives, without the match's lock (nothing awaits in between, so
    the moves held can't change meanwhile): the common case, a process hearing its own
    move, then costs no task and no lock. :func:`catch_up` makes the same decision, so
    skipping it changes nothing.
    """
    version = match.version
    if notice.op == "insert":
        return (notice.move is not None and notice.index < version
                and _held(match, notice.index) == notice.move)
    return notice.op == "delete" and notice.index == version


async def catch_up(match: LiveMatch, notice: Notice | None, read: ReadMoves) -> bool:
    """Bring ``match`` (whose lock the caller holds) to the stored moves that ``notice``
    announces (None: check every move, e.g. after notices may have been missed); True when
    anything changed in memory.

    Raises:
        DiceGamesError: a stored move the rules refuse (another version of the rules
            wrote it); the match is then left as far as it could be played.
    """
    version = match.version
    if notice is not None and notice.op == "rename":
        if notice.index < len(match.session.players):
            match.rename(notice.index, notice.text)
            return True
        return False
    if notice is not None and notice.op == "rematch":
        changed = match.rematch != notice.text
        match.rematch = notice.text
        return changed
    if notice is not None:
        if notice.op == "insert" and notice.move is not None:
            if notice.index < version and _held(match, notice.index) == notice.move:
                return False  # already held (our own move, or read with an earlier notice)
        elif notice.index == version:
            return False  # the undo is already taken back here
    # Anything else is read from the store, never played from the notice alone: a notice
    # may be stale by the time it is handled (a move announced, then taken back by an undo
    # whose own notice is still queued; an undo announced, then a new move stored at its
    # index), and playing it would put a move the store no longer holds in memory, or take
    # back one it does, until the next notice (seen in the websocket fuzz on PostgreSQL: an
    # undo's ack one version too high).
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


class Following:
    """The hub's part that follows the other processes (a mixin of
    :class:`~dicegames.web.hub.Hub`, which sets the attributes below): the
    :class:`~.cluster.ClusterHub` the cluster calls."""

    cluster: Cluster | None
    resident: Resident
    undo_grace: float
    _catching: set[asyncio.Task[None]]

    def _next_step(self, match: LiveMatch) -> tuple[str, Seat | None] | None:
        raise NotImplementedError

    async def get(self, match_id: str) -> LiveMatch:
        raise NotImplementedError

    def kick(self, match: LiveMatch) -> None:
        raise NotImplementedError

    async def announce(self, notice: Notice) -> None:
        """Tell the other processes of a change the moves' trigger does not announce (a
        seat renamed, a rematch); nothing without a cluster."""
        if self.cluster is not None:
            await self.cluster.announce(notice)

    def heard(self, notice: Notice) -> None:
        """A move was stored or taken back by some process (:mod:`.cluster`): a match held
        here catches up, in order, under its lock (:func:`~.fanout.catch_up`)."""
        match = self.resident.peek(notice.match_id)
        if match is not None and not _already_held(match, notice):
            task = asyncio.get_running_loop().create_task(self._catch_up(match, notice))
            self._catching.add(task)
            task.add_done_callback(self._catching.discard)

    def resync(self) -> None:
        """Check every match held here against the store (notices may have been missed)."""
        for match in self.resident.matches():
            self.recheck(match)

    def recheck(self, match: LiveMatch) -> None:
        """Check ``match`` against the store soon: just loaded, it may have missed the
        notices sent while it was read and replayed (nothing without a cluster)."""
        if self.cluster is None:
            return
        task = asyncio.get_running_loop().create_task(self._catch_up(match, None))
        self._catching.add(task)
        task.add_done_callback(self._catching.discard)

    async def _catch_up(self, match: LiveMatch, notice: Notice | None) -> None:
        """Play the stored moves ``notice`` announces into ``match``, then push them."""
        assert self.cluster is not None
        try:
            async with match.lock:
                if not self.resident.holds(match):
                    return
                changed = await catch_up(match, notice, self.cluster.moves_from)
                if changed and notice is not None and notice.op == "insert" and closes_turn(
                        match.session) and self._next_step(match) is not None:
                    match.grace.open(self.undo_grace)  # as Hub.act does where it was made
        except Exception as error:  # rules that refuse a stored move, the database away
            log.warning("match %s could not catch up with the store (%s): it is dropped "
                        "from memory and replayed on its next request", match.id, error)
            self._give_up(match)
            return
        if changed:
            match.wake_viewers()
            self.kick(match)

    def _give_up(self, match: LiveMatch) -> None:
        """``match`` could not follow the store: drop it from memory (its next request
        replays it from the store) and close its viewers' sockets with
        :data:`RELOAD_CLOSE`, so that their pages connect again to the new copy at once
        (nothing would push to them on the dropped one)."""
        if self.resident.holds(match):
            self.resident.drop(match)
        match.close_viewers(RELOAD_CLOSE, RELOAD_REASON)

    async def orphaned(self, match_id: str) -> None:
        """The match's lease expired (its driver's process died or stalled): load it and
        drive it here; a match with nothing due, or gone, has its lease cleared."""
        assert self.cluster is not None
        match = None
        try:
            match = await self.get(match_id)
            async with match.lock:
                await catch_up(match, None, self.cluster.moves_from)
        except Exception as error:
            log.warning("match %s, orphaned, cannot be taken over: %s", match_id, error)
            if match is not None:  # held, but perhaps only part of the way to the store
                self._give_up(match)
            await self.cluster.release(match_id)
            return
        match.wake_viewers()
        self.kick(match)
        if match.driver is None or match.driver.done():
            await self.cluster.release(match_id)

