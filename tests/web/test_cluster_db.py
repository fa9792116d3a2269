"""The cluster's database side on a real PostgreSQL (tests/pgcluster.py): the moves' guard
and notifications (:mod:`dicegames.web.cluster_schema`), leases
(:class:`dicegames.web.cluster.Cluster`) and catching up with moves made elsewhere
(:mod:`dicegames.web.fanout`).

The store's tables are made here in their simplest form (the columns the trigger reads),
so these tests hold whatever the store's migrations add around them.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import psycopg
import pytest

from dicegames.core.registry import configure
from dicegames.core.session import PlayerInfo, Session
from dicegames.web.cluster import Cluster
from dicegames.web.cluster_schema import CHANNEL, STALE_STATE
from dicegames.web.fanout import Notice, StoredMove, catch_up
from dicegames.web.live import LiveMatch
from dicegames.web.migrations import migrate_postgres


def _setup(dsn: str) -> psycopg.Connection[Any]:
    """A fresh database migrated as a server migrates it, with one match ``m``."""
    db = psycopg.connect(dsn, autocommit=True)
    migrate_postgres(db)
    db.execute("INSERT INTO matches (id, game, options, players, dice, created) "
               "VALUES ('m', 'toy', '{}', '[]', 'auto', 0)")
    return db


def _insert(db: psycopg.Connection[Any], idx: int, text: str = "x") -> None:
    db.execute("INSERT INTO moves (match_id, idx, seat, text, several, at) "
               "VALUES ('m', %s, 0, %s, 0, 0)", (idx, text))


def test_only_the_next_move_is_stored_and_only_the_last_taken_back(pg_dsn: str) -> None:
    db = _setup(pg_dsn)
    _insert(db, 0)
    _insert(db, 1)
    for idx in (1, 0, 3):  # already played, far back, a gap
        with pytest.raises(psycopg.Error) as refused:
            _insert(db, idx)
        assert refused.value.sqlstate == STALE_STATE
    with pytest.raises(psycopg.Error) as refused:
        db.execute("DELETE FROM moves WHERE match_id = 'm' AND idx = 0")
    assert refused.value.sqlstate == STALE_STATE
    db.execute("DELETE FROM moves WHERE match_id = 'm' AND idx = 1")
    _insert(db, 1, "y")
    assert db.execute("SELECT text FROM moves ORDER BY idx").fetchall() == [("x",), ("y",)]


def test_two_writers_at_one_version_one_wins(pg_dsn: str) -> None:
    """Two transactions append at the same version: the second waits for the first's
    lock on the match, then is refused; never both."""
    _setup(pg_dsn).close()
    first = psycopg.connect(pg_dsn)
    second = psycopg.connect(pg_dsn, autocommit=True)
    _insert(first, 0, "first")  # in an open transaction: holds the match's row

    async def race() -> str | None:
        def insert() -> str | None:
            try:
                _insert(second, 0, "second")
            except psycopg.Error as error:
                return error.sqlstate
            return None

        waiting = asyncio.get_running_loop().run_in_executor(None, insert)
        await asyncio.sleep(0.3)
        assert not waiting.done(), "the second writer must wait for the first's lock"
        first.commit()
        return await waiting

    assert asyncio.run(race()) == STALE_STATE
    rows = second.execute("SELECT idx, text FROM moves").fetchall()
    assert rows == [(0, "first")]


def test_a_stored_move_is_announced_on_commit_only(pg_dsn: str) -> None:
    db = _setup(pg_dsn)
    listener = psycopg.connect(pg_dsn, autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    with db.transaction():
        _insert(db, 0, "a")
        assert list(listener.notifies(timeout=0.2, stop_after=1)) == []
    heard = list(listener.notifies(timeout=2, stop_after=1))
    notice = Notice.parse(heard[0].payload)
    assert notice == Notice("m", 0, "insert", (0, "a", False))
    with pytest.raises(psycopg.Error), db.transaction():
        _insert(db, 1, "b")
        raise psycopg.Error("rolled back")
    assert list(listener.notifies(timeout=0.3, stop_after=1)) == []
    db.execute("DELETE FROM moves WHERE idx = 0")
    payload = json.loads(next(iter(listener.notifies(timeout=2, stop_after=1))).payload)
    assert (payload["m"], payload["i"], payload["op"]) == ("m", 0, "delete")


def test_one_process_leads_until_its_lease_expires(pg_dsn: str) -> None:
    _setup(pg_dsn).close()

    class Quiet:
        def heard(self, notice: Notice) -> None: ...
        async def orphaned(self, match_id: str) -> None: ...
        def resync(self) -> None: ...

    async def scenario() -> None:
        one, two = Cluster(pg_dsn, lease=0.6), Cluster(pg_dsn, lease=0.6)
        await one.start(Quiet())
        await two.start(Quiet())
        try:
            assert await one.lead("m")
            assert not await two.lead("m")
            await asyncio.sleep(0.7)  # one renews nothing: its lease expires
            assert await two.lead("m")
            assert not await one.lead("m")
            await two.release("m")
            one.forget("m")
            assert await one.lead("m")
        finally:
            await one.close()
            await two.close()

    asyncio.run(scenario())


def _match(moves: list[StoredMove]) -> LiveMatch:
    game = configure("toy-race", 2, {})
    session = Session(game, [PlayerInfo("A", "human"), PlayerInfo("B", "human")], 1,
                      "manual")
    match = LiveMatch("m", session, "manual", {0: "t0", 1: "t1"}, None)
    for seat, text, _several in moves:
        match.note(session.apply(text, seat))
    return match


def _playthrough(count: int) -> list[StoredMove]:
    """The first ``count`` moves of a toy game, always the first legal choice."""
    game = configure("toy-race", 2, {})
    session = Session(game, [PlayerInfo("A", "human"), PlayerInfo("B", "human")], 1,
                      "manual")
    moves: list[StoredMove] = []
    while len(moves) < count and not session.state.is_terminal:
        state = session.state
        if state.is_chance:
            outcome = state.chance_outcomes()[-1][0]
            session.apply(outcome)
        else:
            seat = state.current_players[0]
            session.apply(state.legal_actions(seat)[0], seat)
        entry = session.moves[-1]
        moves.append((entry.seat, entry.text, entry.several))
    return moves


def test_catching_up_plays_takes_back_and_reconciles() -> None:
    moves = _playthrough(6)
    stored: list[StoredMove] = list(moves[:4])
    reads: list[int] = []

    async def read(match_id: str, start: int) -> list[StoredMove] | None:
        reads.append(start)
        return stored[start:]

    async def scenario() -> None:
        match = _match(moves[:3])
        # our own move, heard: nothing to do, nothing read
        assert not await catch_up(match, Notice("m", 2, "insert", moves[2]), read)
        assert reads == []
        # the next move, from another process: read from the store (the notice may be
        # stale), then played
        assert await catch_up(match, Notice("m", 3, "insert", moves[3]), read)
        assert match.version == 4 and reads == [3]
        # taken back elsewhere
        del stored[3:]
        assert await catch_up(match, Notice("m", 3, "delete"), read)
        assert match.version == 3
        # missed notices: reads and plays what is stored
        stored[3:] = moves[3:6]
        assert await catch_up(match, None, read)
        assert [m.text for m in match.session.moves] == [m[1] for m in moves[:6]]
        # another history from move 2 on: taken back and replayed
        stored[2:] = []
        assert await catch_up(match, Notice("m", 2, "delete"), read)
        assert match.version == 2
        revision = match.revision
        assert not await catch_up(match, None, read)
        assert match.revision == revision

    asyncio.run(scenario())


def test_a_stale_notice_is_not_played() -> None:
    """A move announced, then taken back by an undo whose notice is still queued: the late
    insert notice must not put the move back in memory (the store no longer holds it); an
    undo announced, then a new move stored at its index: the late delete notice must not
    take the new move back. (Both happened in the websocket fuzz on PostgreSQL.)"""
    moves = _playthrough(5)
    stored: list[StoredMove] = list(moves[:3])

    async def read(match_id: str, start: int) -> list[StoredMove] | None:
        return stored[start:]

    async def scenario() -> None:
        match = _match(moves[:3])
        assert not await catch_up(match, Notice("m", 3, "insert", moves[3]), read)
        assert match.version == 3
        stored.append(moves[3])  # a new move at index 3 after an undo of another one
        match.note(match.session.apply(moves[3][1], moves[3][0]))
        assert not await catch_up(match, Notice("m", 3, "delete"), read)
        assert match.version == 4
        assert [m.text for m in match.session.moves] == [m[1] for m in moves[:4]]

    asyncio.run(scenario())


def test_only_a_dead_holders_expired_lease_is_taken_over(pg_dsn: str) -> None:
    """An expired lease of a live process only means its match had nothing due: left
    alone. Once its holder stops (no heartbeat), another process takes the match over."""
    _setup(pg_dsn).close()

    class Taker:
        def __init__(self) -> None:
            self.orphans: list[str] = []

        def heard(self, notice: Notice) -> None: ...
        def resync(self) -> None: ...

        async def orphaned(self, match_id: str) -> None:
            self.orphans.append(match_id)

    async def scenario() -> None:
        holder, other = Cluster(pg_dsn, lease=0.2, sweep=0.1), Cluster(pg_dsn, sweep=0.1)
        taker = Taker()
        await holder.start(Taker())
        await other.start(taker)
        try:
            assert await holder.lead("m")
            await asyncio.sleep(0.8)  # expired, but its holder is alive
            assert taker.orphans == []
            await holder.close()  # stops: its leases expire and its heartbeat goes
            for _ in range(50):
                if taker.orphans:
                    break
                await asyncio.sleep(0.1)
            assert "m" in taker.orphans
        finally:
            await holder.close()
            await other.close()

    asyncio.run(scenario())


def test_notices_of_names_and_rematches_round_trip() -> None:
    for notice in (Notice("m", 1, "rename", text="Cleo"), Notice("m", 0, "rematch", text="r")):
        assert Notice.parse(notice.payload()) == notice
    assert Notice.parse('{"m": "m", "op": "rename", "i": 1}') is None
    assert Notice.parse("not json") is None
    assert Notice.parse('{"m": "m", "op": "drop"}') is None


def test_failures_on_the_clusters_own_connections_are_counted(pg_dsn: str) -> None:
    """The leases' statement refused, the heartbeat refused, the listening connection cut:
    each is counted (the metrics add them to ``dicegames_store_errors_total``), and the
    process goes on (the listener connects again)."""
    db = _setup(pg_dsn)

    class Quiet:
        def heard(self, notice: Notice) -> None: ...
        async def orphaned(self, match_id: str) -> None: ...
        def resync(self) -> None: ...

    async def scenario() -> None:
        cluster = Cluster(pg_dsn, sweep=600.0)  # one sweep at the start, then none
        await cluster.start(Quiet())
        try:
            await asyncio.wait_for(cluster.listening.wait(), 10)
            await asyncio.sleep(0.2)
            assert cluster.errors == 0
            db.execute("ALTER TABLE leases RENAME TO leases_away")
            assert not await cluster.lead("m")
            assert cluster.errors == 1
            db.execute("ALTER TABLE leases_away RENAME TO leases")
            db.execute("ALTER TABLE processes RENAME TO processes_away")
            with pytest.raises(psycopg.Error):
                await cluster.heartbeat()
            assert cluster.errors == 2
            db.execute("ALTER TABLE processes_away RENAME TO processes")
            cut = db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE query = %s", (f"LISTEN {CHANNEL}",)).fetchall()
            assert cut == [(True,)]
            for _ in range(100):
                if cluster.errors == 3 and cluster.listening.is_set():
                    break
                await asyncio.sleep(0.05)
            assert cluster.errors == 3 and cluster.listening.is_set()
        finally:
            await cluster.close()
            db.close()

    asyncio.run(scenario())
