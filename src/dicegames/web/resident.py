"""Which matches the server holds in memory, and when an idle one leaves.

A match is *idle* when dropping it loses nothing and disturbs nobody: no viewer is
connected, its driver (dice, bots, forced passes) is not running and no change holds its
lock. Everything a match holds is in the database (every change is committed before it is
acknowledged), so an idle match can be dropped and replayed on its next request.

- An idle match not used for :data:`IDLE_EVICT` seconds leaves (a sweeper task looks a
  few times per idle time; a match in use counts as used now).
- At most :data:`MATCHES_IN_MEMORY` idle matches stay: past that, the least recently used
  one leaves at once, so a burst of new or loaded matches cannot grow memory. Uploaded
  records also keep their own bound (:data:`RECORDS_IN_MEMORY`).
- A dropped match's revision and joined seats are remembered (they are not in the
  database): the reloaded match carries on from a higher revision, so a client never sees
  an old revision again for another state, and a seat that came shows "away", not
  "invited".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from dicegames.core.model import Seat
from dicegames.web.live import LiveMatch

IDLE_EVICT = 300.0
"""Seconds a match may sit idle in memory before it is dropped."""

MATCHES_IN_MEMORY = 32
"""How many idle matches stay in memory at most (the one just used counts as idle); matches
in use are never dropped and do not count."""

RECORDS_IN_MEMORY = 32
"""How many uploaded records stay in memory (the least recently used one without viewers
is dropped past this, and rebuilt from the database when asked for again)."""

REMEMBERED = 100_000
"""How many dropped matches' revision and joined seats are remembered (a few dozen bytes
each)."""

log = logging.getLogger("dicegames.web")


def is_idle(match: LiveMatch) -> bool:
    """True when dropping ``match`` loses nothing and disturbs nobody."""
    return (not match.viewers and (match.driver is None or match.driver.done())
            and not match.lock.locked())


class Resident:
    """The matches in memory, the least recently used first (see the module docstring)."""

    def __init__(self, idle_evict: float = IDLE_EVICT,
                 matches_in_memory: int = MATCHES_IN_MEMORY) -> None:
        self.idle_evict = idle_evict
        self.matches_in_memory = matches_in_memory
        self._matches: OrderedDict[str, LiveMatch] = OrderedDict()
        self._used: dict[str, float] = {}
        """When each match was last used (``time.monotonic()``)."""
        self._records: OrderedDict[str, None] = OrderedDict()
        self._remembered: OrderedDict[str, tuple[int, frozenset[Seat]]] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        self.evictions = 0
        """How many matches have been dropped (for tests)."""

    def matches(self) -> list[LiveMatch]:
        """Every match in memory now (a copy: dropping one meanwhile is safe)."""
        return list(self._matches.values())

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._matches

    def find(self, match_id: str) -> LiveMatch | None:
        """The match if it is in memory (it counts as used now), else None."""
        match = self._matches.get(match_id)
        if match is not None:
            self.touch(match)
        return match

    def peek(self, match_id: str) -> LiveMatch | None:
        """The match if it is in memory, without counting as a use (a move another
        process made is played into it, but does not keep it in memory)."""
        return self._matches.get(match_id)

    def holds(self, match: LiveMatch) -> bool:
        """True when ``match`` is the copy in memory (not one dropped since)."""
        return self._matches.get(match.id) is match

    def touch(self, match: LiveMatch) -> None:
        """``match`` (held) is being used now: the last to be dropped."""
        if self.holds(match):
            self._matches.move_to_end(match.id)
            self._used[match.id] = time.monotonic()
            if match.id in self._records:
                self._records.move_to_end(match.id)

    def keep(self, match: LiveMatch) -> None:
        """Hold ``match`` (new, or just replayed: then it takes back its remembered revision
        and joined seats), dropping the idle matches past the bounds."""
        remembered = self._remembered.pop(match.id, None)
        if remembered is not None:
            match.revision = max(match.revision, remembered[0] + 1)
            match.joined.update(remembered[1])
        self._matches[match.id] = match
        self.touch(match)
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        if match.status == "record":
            self._records[match.id] = None
            for old in list(self._records)[:-RECORDS_IN_MEMORY]:
                if not self._matches[old].viewers:
                    self.drop(self._matches[old])
        idle = [held for held in self._matches.values() if held is not match
                and is_idle(held)]  # the least recently used first
        for held in idle[:len(idle) + 1 - self.matches_in_memory]:
            self.drop(held)

    def drop(self, match: LiveMatch) -> None:
        """Drop ``match`` from memory, remembering its revision and joined seats."""
        del self._matches[match.id]
        self._used.pop(match.id, None)
        self._records.pop(match.id, None)
        self._remembered[match.id] = (match.revision, frozenset(match.joined))
        while len(self._remembered) > REMEMBERED:
            self._remembered.popitem(last=False)
        self.evictions += 1
        log.debug("match %s left memory (idle)", match.id)

    async def _sweep(self) -> None:
        """Every quarter of the idle time (at most 30 s), drop the matches idle for
        :attr:`idle_evict` seconds; stops when no match is held (:meth:`keep` restarts it)."""
        interval = min(max(self.idle_evict / 4, 0.05), 30.0)
        while self._matches:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for match in list(self._matches.values()):
                if not is_idle(match):
                    self._used[match.id] = now
                elif now - self._used.get(match.id, now) >= self.idle_evict:
                    self.drop(match)

    def close(self) -> None:
        """Stop the sweeper (the server is stopping)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
