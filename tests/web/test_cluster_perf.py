"""The cluster's cheap paths (:mod:`dicegames.web.fanout`): what a process hears of its own
changes costs no task and no lock, while anything it does not hold yet still catches up."""

from __future__ import annotations

import asyncio
from typing import Any

from dicegames.web.cluster import _LEAD, Cluster
from dicegames.web.fanout import Following, Notice
from dicegames.web.live import LiveMatch
from web.test_cluster_db import _match, _playthrough, _setup


class _Listening(Following):
    """Just the part of the hub that hears notices, over one match held in memory."""

    def __init__(self, match: LiveMatch) -> None:
        self.match = match
        self._catching: set[asyncio.Task[None]] = set()
        self.started: list[Notice | None] = []

    @property
    def resident(self) -> _Listening:  # type: ignore[override]
        return self

    def peek(self, match_id: str) -> LiveMatch | None:
        return self.match if match_id == self.match.id else None

    async def _catch_up(self, match: LiveMatch, notice: Notice | None) -> None:
        self.started.append(notice)


def test_a_process_hearing_its_own_changes_starts_no_catching_up() -> None:
    moves = _playthrough(5)

    async def scenario() -> None:
        hub = _Listening(_match(moves[:3]))
        hub.heard(Notice("m", 2, "insert", moves[2]))  # its own move, already held
        hub.heard(Notice("m", 3, "delete"))  # an undo already taken back here
        hub.heard(Notice("other", 0, "insert", moves[0]))  # a match not held here
        assert hub.started == [] and not hub._catching
        news = [Notice("m", 3, "insert", moves[3]),  # the next move, made elsewhere
                Notice("m", 2, "insert", (moves[2][0], "other", False)),  # another history
                Notice("m", 2, "delete"),  # the last move held, taken back elsewhere
                Notice("m", 1, "rename", text="Zoé")]
        for notice in news:
            hub.heard(notice)
        await asyncio.gather(*hub._catching)
        assert hub.started == news

    asyncio.run(scenario())


def test_the_sweep_renews_the_leases_of_matches_being_driven(pg_dsn: str) -> None:
    """A step that finds its lease held asks nothing: the sweep renews every such lease in
    its heartbeat's statement; a lease nobody steps on runs out as before."""
    _setup(pg_dsn).close()

    class Quiet:
        def heard(self, notice: Notice) -> None: ...
        async def orphaned(self, match_id: str) -> None: ...
        def resync(self) -> None: ...

    async def scenario() -> None:
        one, two = Cluster(pg_dsn, lease=0.6, sweep=0.1), Cluster(pg_dsn, lease=0.6)
        await one.start(Quiet())
        await two.start(Quiet())
        statements: list[str] = []
        execute = one.execute

        async def spied(sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
            statements.append(sql)
            return await execute(sql, params)

        one.execute = spied  # type: ignore[method-assign]
        try:
            assert await one.lead("m")
            for _ in range(30):  # 1.5 s of steps, 2.5 leases
                await asyncio.sleep(0.05)
                assert await one.lead("m")
                assert not await two.lead("m")
            assert statements.count(_LEAD) == 1  # taken once, then renewed by the sweep
            await asyncio.sleep(1.0)  # no step: the lease runs out
            assert await two.lead("m")
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())
