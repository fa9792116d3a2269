"""What ``import dicegames`` and ``dicegames --help`` load: no numba, no numpy, no web app.

numba and numpy are imported when a kernel first runs (``core/kernel_backend.py``), and each
command imports its own modules when it runs (``cli.py``), so starting the package or asking
for help stays light. The speed itself is measured by ``scripts/bench.py`` ("start-up"),
never asserted here: this test checks which modules are loaded, in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("numba", "numpy", "llvmlite", "starlette", "uvicorn", "matplotlib", "dask")
"""Top-level packages neither start-up may import."""

LOADED = """
import contextlib, io, json, sys
if sys.argv[1] == "help":
    from dicegames.cli import main
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        code = main(["--help"])
    assert code == 0 and "usage: dicegames" in shown.getvalue(), shown.getvalue()
else:
    import dicegames
print(json.dumps(sorted(sys.modules)))
"""


def loaded(what: str) -> set[str]:
    """The top-level packages in ``sys.modules`` after ``what`` in a fresh interpreter."""
    env = dict(os.environ)
    env.pop("DICEGAMES_KERNEL", None)
    done = subprocess.run([sys.executable, "-c", LOADED, what], env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return {name.split(".")[0] for name in json.loads(done.stdout)}


@pytest.mark.parametrize("what", ["import", "help"])
def test_start_up_loads_no_numba_numpy_or_web_app(what: str) -> None:
    modules = loaded(what)
    assert "dicegames" in modules
    assert sorted(modules.intersection(HEAVY)) == []


def test_cli_help_loads_no_terminal_views() -> None:
    env = dict(os.environ)
    code = ("import sys, contextlib, io\nfrom dicegames.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['--help'])\n"
            "print(sorted(m for m in sys.modules if m.startswith('dicegames.terminal.')))")
    done = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "['dicegames.terminal.console']"
