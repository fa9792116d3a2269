"""The driver of a match: the steps nobody decides on, played by the server.

A driver task per match plays automatic dice, bot moves (thought out in the hub's bot
threads, the lock released meanwhile) and forced passes, each after a short pause so people
can follow, until a person must act; a later change starts it again (:meth:`Driving.kick`).

With several server processes on one database (:mod:`.cluster`), exactly one process drives
a match at a time: before each step the driver makes sure its process holds the match's
lease (:meth:`~.cluster.Cluster.lead`); a driver that finds another process holding it
stops, and the holder's moves reach this process as notices. When nothing more is due the
driver stops and its lease runs out.

A move the database refuses for a while (:class:`~.domain.StoreBusy`) is tried again,
waiting :data:`RETRY_FIRST` doubling up to :data:`RETRY_MOST` seconds; a move refused as
stale (another process moved the match on meanwhile) is dropped, and the driver looks again
once the match has caught up.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from dicegames.core.fair import FairDice
from dicegames.core.model import PASS, Seat
from dicegames.web.domain import Stale, StoreBusy
from dicegames.web.live import LiveMatch

if TYPE_CHECKING:
    from dicegames.web.cluster import Cluster

RETRY_FIRST = 0.1
"""Seconds a driver waits before trying again a move the database refused (doubling)."""

RETRY_MOST = 2.0
"""The longest wait between a driver's tries."""

log = logging.getLogger("dicegames.web")


class Driving:
    """The hub's driver part (a mixin of :class:`~dicegames.web.hub.Hub`, which sets the
    attributes below and gives :meth:`_apply`)."""

    bot_delay: float
    cluster: Cluster | None
    _bots: ThreadPoolExecutor

    async def _apply(self, match: LiveMatch, move: Hashable, seat: Seat | None) -> None:
        raise NotImplementedError

    def kick(self, match: LiveMatch) -> None:
        """Start the match's driver unless it is running (it stops when nothing is due)."""
        if match.status != "playing" or (match.driver is not None and not match.driver.done()):
            return
        match.driver = asyncio.get_running_loop().create_task(self._drive(match))
        match.driver.add_done_callback(_driver_ended)

    async def _drive(self, match: LiveMatch) -> None:
        """Play automatic rolls, bot moves and forced passes until a person must act (or,
        with several processes, while this process holds the match's lease)."""
        while True:
            async with match.lock:
                step = self._next_step(match)
                version = match.version
                state = match.state
                grace = match.grace.left()
                match.grace.arm()
            if step is None:  # no await since the look: a change from now on kicks anew
                return  # (a lease held runs out by itself: see .cluster)
            if self.cluster is not None and not await self.cluster.lead(match.id):
                return  # another process drives it; its moves come as notices
            if grace > 0:  # a person may still take their turn's last decision back
                await match.grace.wait(grace)
                continue
            kind, seat = step
            pause = self.bot_delay / 2 if kind == "roll" else self.bot_delay
            if pause > 0:
                await asyncio.sleep(pause)
            move: Hashable
            if kind == "roll":
                fair = match.session.fair or FairDice.legacy(match.session.seed)
                move = fair.roll(state.chance_outcomes(), version)
            elif kind == "pass":
                move = PASS
            else:
                assert seat is not None
                move = await asyncio.get_running_loop().run_in_executor(
                    self._bots, match.bots[seat].choose, state, seat)
            if await self._play(match, version, move, None if kind == "roll" else seat):
                match.wake_viewers()

    async def _play(self, match: LiveMatch, version: int, move: Hashable,
                    seat: Seat | None) -> bool:
        """Commit and play the driver's ``move`` unless the match moved on from ``version``
        meanwhile (then False); while the database refuses it, wait and try again."""
        wait, tries = RETRY_FIRST, 0
        while True:
            async with match.lock:
                if match.version != version:
                    return False
                try:
                    await self._apply(match, move, seat)
                except Stale:  # another process played meanwhile: its notice follows
                    return False
                except StoreBusy as busy:
                    tries += 1
                    if tries == 1:
                        log.warning("match %s waits for the database: %s", match.id,
                                    busy)
                else:
                    if tries:
                        log.warning("match %s goes on: its move was stored after %d tries",
                                    match.id, tries + 1)
                    return True
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MOST)

    def _next_step(self, match: LiveMatch) -> tuple[str, Seat | None] | None:
        """The step the server plays next: ``("roll", None)``, ``("bot", seat)``,
        ``("pass", seat)``, or None when a person must act (or the game is over)."""
        state = match.state
        if state.is_terminal or match.status != "playing":
            return None
        if state.is_chance:
            return ("roll", None) if match.dice == "auto" else None
        for seat in state.current_players:
            if seat in match.bots:
                return "bot", seat
        for seat in state.current_players:
            if state.legal_actions(seat) == (PASS,):
                return "pass", seat
        return None


def _driver_ended(task: asyncio.Task[None]) -> None:
    """Log a driver that failed (it never ends silently); the next change starts another."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a match's driver stopped", exc_info=task.exception())
