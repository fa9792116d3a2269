"""The same seed gives the same figures here, in local processes and on a Dask cluster."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.analysis import simulate
from dicegames.analysis.charts import require_matplotlib
from dicegames.analysis.cluster import ClusterError, batches, dask_map, require_dask, run_tasks
from dicegames.analysis.report import build_report
from dicegames.core.errors import OptionError
from dicegames.core.record import save
from dicegames.terminal.analyse_view import review_file
from test_review import blunder_game

pytestmark = [pytest.mark.slow, pytest.mark.process]
"""Dask clusters and worker processes: long, in processes of their own (not in `make check`)."""

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """An in-process Dask cluster (threads, no processes): its scheduler's address."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as local:
        yield str(local.scheduler_address)


def _figures(report: Any) -> Any:
    data = report.to_json()
    data.pop("elapsed_s")
    data.pop("games_per_s")
    return data


def test_simulate_same_figures_here_in_processes_and_on_dask(cluster: str) -> None:
    game = dicegames.make("extra-meters")
    players = ["bot:medium", "bot:easy"]
    here = simulate(game, players, games=600, seed=11, rotate=True)
    processes = simulate(game, players, games=600, seed=11, rotate=True, jobs=2)
    dask = simulate(game, players, games=600, seed=11, rotate=True, scheduler=cluster)
    assert _figures(here) == _figures(processes) == _figures(dask)


def test_report_same_figures_in_processes_and_on_dask(cluster: str) -> None:
    game = dicegames.make("extra-meters", track_length=20)
    settings: dict[str, Any] = {"games": 40, "seed": 3, "bots": ["random", "optimal"]}
    here = build_report(game, **settings).to_json()
    dask = build_report(game, scheduler=cluster, **settings).to_json()
    processes = build_report(game, jobs=2, **settings).to_json()
    assert here == dask == processes


def test_reviews_of_many_records_same_on_dask(cluster: str, tmp_path: Path) -> None:
    paths = [str(save(blunder_game(), tmp_path / f"game{i}.json")) for i in range(3)]
    tasks = [(path, 8) for path in paths]
    here = list(run_tasks(review_file, tasks))
    assert here[0]["mistakes"] == [1]
    assert list(run_tasks(review_file, tasks, scheduler=cluster, per_batch=2)) == here


def test_batches_cover_the_tasks_in_order() -> None:
    assert [list(group) for group in batches(7, 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(run_tasks(abs, [-1, 2, -3], jobs=1)) == [1, 2, 3]


def test_missing_extras_name_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(OptionError, match=r"pip install 'dicegames\[analysis\]'"):
        require_dask()
    with pytest.raises(OptionError, match=r"pip install 'dicegames\[analysis\]'"):
        require_matplotlib()


def test_unreachable_scheduler_is_a_clear_error() -> None:
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        list(dask_map(abs, [1], "tcp://127.0.0.1:9", timeout=1))
