"""The undo grace period: a person's last decision of a turn can still be taken back.

Once a person has made the decision that ends their turn, the next step is usually
automatic (the next player's roll, a bot's move) and used to follow within a third of a
second, taking the undo button away with it. So the match driver holds that step for a
grace period (:data:`UNDO_GRACE` seconds, ``dicegames serve --undo-grace``), or until
anything else changes the match (the person takes their move back, another person acts or
enters dice). Every viewer gets the seconds left (``undo_grace`` in the state), so the page
can show a countdown beside the undo button.

Only a person's decision opens a grace period: a table of bots alone never waits, and a
decision inside a turn (Extra Meters' "roll", a Petits Chevaux horse moved on a 6) does not
hold the roll that follows it: only the decision after which the turn passes on does.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from dicegames.core.model import PASS
from dicegames.core.session import Session

UNDO_GRACE = 3.0
"""Seconds ``dicegames serve`` holds the next automatic step after a person's last
decision of a turn (``--undo-grace``; the app and the tests' servers default to 0)."""


def closes_turn(session: Session) -> bool:
    """True when the session's last move is a person's decision (not a forced pass, not a
    bot's: ``bot:`` seats) that ended their turn in a game still going on."""
    moves = session.moves
    if not moves:
        return False
    last = moves[-1]
    if last.seat is None or last.text == str(PASS) or session.players[last.seat].is_bot:
        return False
    before, after = session.states[-2], session.state
    return not after.is_terminal and after.turn.number != before.turn.number


class Grace:
    """One match's grace period: when it ends, and a wake-up for the driver waiting on it.

    The hub opens it after a person's decision (:meth:`open`), every change of the match
    closes it (:meth:`close`, from :meth:`~dicegames.web.live.LiveMatch.note` and
    :meth:`~dicegames.web.live.LiveMatch.forget_last`) and wakes the driver.
    """

    def __init__(self) -> None:
        self._until: float | None = None
        self._changed = asyncio.Event()

    def open(self, seconds: float) -> None:
        """Hold the match's next automatic step for ``seconds`` from now (0: not at all)."""
        self._until = time.monotonic() + seconds if seconds > 0 else None

    def close(self) -> None:
        """The match changed: no step is held any more, and a waiting driver looks again."""
        self._until = None
        self._changed.set()

    def left(self) -> float:
        """Seconds left of the grace period (0 when there is none)."""
        if self._until is None:
            return 0.0
        left = self._until - time.monotonic()
        if left <= 0:
            self._until = None
            return 0.0
        return left

    def arm(self) -> None:
        """Forget earlier changes before waiting (the caller holds the match's lock, so no
        change comes between its look at the match and this)."""
        self._changed.clear()

    async def wait(self, seconds: float) -> None:
        """Until the match changes (since :meth:`arm`) or ``seconds`` have passed."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), seconds)

    def to_json(self, may_undo: bool) -> dict[str, Any]:
        """The viewer's part: ``undo_grace``, the seconds left (rounded to tenths) to take
        the last move back before the game goes on, or None; only for a viewer who may take
        it back (``may_undo``)."""
        left = self.left() if may_undo else 0.0
        return {"undo_grace": round(left, 1) if left > 0 else None}
