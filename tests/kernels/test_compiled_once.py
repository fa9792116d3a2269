"""A kernel's game loop is compiled once: playouts and rollouts call the same code.

``playouts`` runs the loop from compiled code, ``rollout`` from Python. numba types a bare
constant argument of a compiled call as a literal (``Literal[int](-1)``) and compiles the
callee once more for it, so a playout that passed ``NO_SEAT, 0`` compiled the whole loop a
second time beside rollout's ``int64`` one: half of Petits Chevaux's compile time. They pass
``int(NO_SEAT), int(NO_TURNS)`` (:data:`dicegames.core.array_kernel.NO_SEAT`).

Only a cold compile shows it (code loaded from the cache brings no second signature), so
the check compiles Shortcut's kernel, among the quickest to compile, in a process of
its own with an empty cache folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import dicegames
from dicegames.core import kernel
game = dicegames.make("shortcut")
found = kernel.kernel_for(game)
start = game.new_state().data
policies = [found.policies[0]] * game.players
found.playouts(start, policies, 2, seed=1)
found.rollout(found.encode(start), policies, seed=1)
print(kernel.BACKEND, len(type(found).compiled_run.signatures))
"""


@pytest.mark.slow
def test_playouts_and_rollouts_share_one_compiled_loop(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    env.pop("DICEGAMES_KERNEL", None)
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["numba", "1"], done.stdout + done.stderr
