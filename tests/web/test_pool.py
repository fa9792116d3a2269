"""The analysis pool with real worker processes: started by its first job (not by the app),
a job whose caller leaves is interrupted at once, a job past its deadline too, a failing job
is reported, the pool stays bounded."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from dicegames.web.pool import AnalysisPool, Busy, JobFailed
from web.client import AppClient
from web.games import game_ids
from web.jobs import fail, spin

TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


async def started(workers: int) -> AnalysisPool:
    pool = AnalysisPool(workers)
    pool.start()
    deadline = time.monotonic() + 60
    while pool.idle < workers and time.monotonic() < deadline:  # warming up
        await asyncio.sleep(0.05)
    return pool


def test_a_job_whose_caller_leaves_frees_its_worker_at_once() -> None:
    async def scenario() -> float:
        pool = await started(1)
        try:
            long = asyncio.ensure_future(pool.run(spin, 60.0,
                                                  deadline=time.monotonic() + 120))
            await asyncio.sleep(0.5)
            long.cancel()  # its client left
            began = time.monotonic()
            assert await pool.run(spin, 0.0, deadline=time.monotonic() + 10) == "done"
            return time.monotonic() - began
        finally:
            pool.close()

    assert asyncio.run(scenario()) < 5.0  # not the minute the abandoned job had left


def test_a_job_past_its_deadline_is_stopped_and_a_failing_one_reported() -> None:
    async def scenario() -> None:
        pool = await started(1)
        try:
            began = time.monotonic()
            with pytest.raises(TimeoutError):
                await pool.run(spin, 60.0, deadline=time.monotonic() + 0.5)
            assert time.monotonic() - began < 5.0
            with pytest.raises(JobFailed, match="ValueError: a bug in a bot"):
                await pool.run(fail, deadline=time.monotonic() + 10)
            assert await pool.run(spin, 0.0, deadline=time.monotonic() + 10) == "done"
        finally:
            pool.close()

    asyncio.run(scenario())


def test_jobs_wait_for_a_worker_until_their_deadline_and_urgent_ones_go_first() -> None:
    async def scenario() -> list[str]:
        pool = await started(1)
        order: list[str] = []

        async def job(name: str, urgent: bool, seconds: float = 0.1) -> None:
            await pool.run(spin, seconds, deadline=time.monotonic() + 30, urgent=urgent)
            order.append(name)

        try:
            busy = asyncio.ensure_future(job("first", False, 2.0))
            await asyncio.sleep(0.1)
            with pytest.raises(Busy):  # the only worker stays busy past this deadline
                await pool.run(spin, 0.0, deadline=time.monotonic() + 0.05)
            later = asyncio.ensure_future(job("slice", False))
            await asyncio.sleep(0.01)
            hint = asyncio.ensure_future(job("hint", True))
            await asyncio.gather(busy, later, hint)
            return order
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["first", "hint", "slice"]


def test_the_first_job_starts_the_workers() -> None:
    async def scenario() -> tuple[bool, str, bool]:
        pool = AnalysisPool(1)
        try:
            before = pool.started
            done = await pool.run(spin, 0.0, deadline=time.monotonic() + 60)
            return before, done, pool.started
        finally:
            pool.close()

    assert asyncio.run(scenario()) == (False, "done", True)


def test_the_app_starts_its_workers_with_the_first_hint_not_before(tmp_path: Path) -> None:
    with AppClient(tmp_path / "games.sqlite3") as client:
        match = client.post("/api/matches", {"game": game_ids()[0], "players": TWO_PEOPLE})
        client.get(f"/api/matches/{match['id']}")
        assert not client.hub.pool.started  # a server nobody asks for analysis: no workers
        tokens = ",".join(seat["token"] for seat in match["seats"])
        for _ in range(200):  # until a seat decides (the server rolls first)
            state = client.get(f"/api/matches/{match['id']}?token={tokens}")
            if state["node"]["deciding"]:
                break
            time.sleep(0.01)
        seat = state["node"]["deciding"][0]
        token = match["seats"][seat]["token"]
        hint = client.get(f"/api/matches/{match['id']}/hint?token={token}")
        assert hint["seat"] == seat
        assert client.hub.pool.started


def test_waiting_for_the_first_worker_ends_when_the_pool_closes() -> None:
    async def scenario() -> bool:
        pool = AnalysisPool(1)
        waiting = asyncio.ensure_future(pool.ready())
        await asyncio.sleep(0)  # it waits for the worker's warm-up
        pool.close()  # the server stops first
        return await asyncio.wait_for(waiting, 10)

    assert asyncio.run(scenario()) is True
