"""The compiled kernels' on-disk cache: keyed on every source, stale folders pruned safely.

numba freezes the global values a kernel reads into its compiled code, and its own cache
checks only the kernel's file; :mod:`dicegames.core.kernel_cache` keys the cache folder on
the whole package. The last test edits a tuning constant the Shortcut kernel reads (in a
copy of the package) and sees the compiled kernel play the new rule.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.core import kernel_cache
from dicegames.core.kernel_cache import (
    KEEP_OTHERS,
    PREFIX,
    UNUSED_FOR,
    cache_key,
    key_the_cache,
    package_files,
    prune,
)

PACKAGE = Path(dicegames.__file__).resolve().parent
DAY = 24 * 3600.0


class _Config:
    CACHE_DIR = "untouched"


class _FakeNumba:
    """Just what key_the_cache touches: the version and the cache folder setting."""

    __version__ = "0.68.1"

    def __init__(self) -> None:
        self.config = _Config()


def test_every_module_a_kernel_imports_is_in_the_key_and_no_other() -> None:
    covered = {path.relative_to(PACKAGE).as_posix() for path in package_files()}
    # The kernels, and the modules whose values they read (heuristics, data, the rules).
    assert {"core/kernel.py", "core/array_kernel.py", "games/shortcut/kernel.py",
            "games/shortcut/heuristics.py", "games/petits_chevaux/heuristics.py",
            "games/petits_chevaux/kernel_bots.py"} <= covered
    assert any(path.endswith(".json") for path in covered)
    # Runtime data (weights the kernels are handed as arrays, strength tables) is not code.
    assert "games/petits_chevaux/trained_weights.json" not in covered
    assert not any(path.endswith("strength.json") for path in covered)
    # A module no kernel imports does not recompile the kernels when it changes.
    assert not any(path.startswith(("web/", "terminal/", "analysis/")) for path in covered)
    assert "cli.py" not in covered


def fake_package(root: Path) -> Path:
    """A tiny package: a kernel and the module whose constant it reads."""
    package = root / "pkg"
    (package / "games" / "toy").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "games" / "toy" / "kernel.py").write_text("from .heuristics import STOP\n")
    (package / "games" / "toy" / "heuristics.py").write_text("STOP = 3\n")
    (package / "games" / "toy" / "board.json").write_text("[1, 2]\n")
    (package / "games" / "toy" / "presenter.py").write_text("WORDS = 1\n")  # no kernel reads it
    (package / "games" / "toy" / "trained_weights.json").write_text("[0.5]\n")  # runtime
    (package / "games" / "toy" / "strength.json").write_text("{}\n")  # runtime
    return package


def test_the_key_follows_sources_data_and_versions_not_runtime_data(tmp_path: Path) -> None:
    package = fake_package(tmp_path)
    versions = {"numba": "0.68.1", "python": "3.11.7"}

    def key(**changed: str) -> str:
        return cache_key(package_files(package), package, {**versions, **changed})

    first = key()
    assert re.fullmatch(r"[0-9a-f]{16}", first)
    assert key() == first
    heuristics = package / "games" / "toy" / "heuristics.py"
    heuristics.write_text("STOP = 4\n")  # not the kernel's file: a module it reads
    assert key() != first
    heuristics.write_text("STOP = 3\n")
    assert key() == first
    (package / "games" / "toy" / "board.json").write_text("[1, 3]\n")
    assert key() != first
    (package / "games" / "toy" / "board.json").write_text("[1, 2]\n")
    (package / "games" / "toy" / "presenter.py").write_text("WORDS = 2\n")
    assert key() == first  # a module no kernel imports
    (package / "games" / "toy" / "trained_weights.json").write_text("[0.25]\n")
    (package / "games" / "toy" / "strength.json").write_text('{"hard": 1}\n')
    assert key() == first  # runtime data: new weights or figures recompile nothing
    assert key(numba="0.68.2") != first
    assert key(python="3.12.0") != first
    assert key() == first


def test_the_cache_folder_is_keyed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    numba = _FakeNumba()
    folder = key_the_cache(numba, None)
    assert folder is not None and folder.is_dir()
    assert folder.parent == tmp_path / "numba"
    assert re.fullmatch(re.escape(PREFIX) + "[0-9a-f]{16}", folder.name)
    assert numba.config.CACHE_DIR == "untouched"  # set only while decorating (the backend)
    assert key_the_cache(_FakeNumba(), None) == folder
    # An edit anywhere in the package (here: a copy of it) gives another folder.
    copy = tmp_path / "copy" / "dicegames"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(kernel_cache, "PACKAGE", copy)
    assert key_the_cache(_FakeNumba(), None) == folder
    heuristics = next(copy.glob("games/*/heuristics.py"))
    heuristics.write_text(heuristics.read_text() + "\nEDITED = 1\n")
    other = key_the_cache(_FakeNumba(), None)
    assert other is not None and other != folder


def test_without_numba_cache_dir_the_folder_is_in_the_user_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = key_the_cache(_FakeNumba(), None)
    assert folder is not None and folder.parent == tmp_path / "dicegames"


def test_an_unusable_folder_means_no_cache_not_a_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(blocker))
    numba = _FakeNumba()
    assert key_the_cache(numba, None) is None
    assert numba.config.CACHE_DIR == "untouched"


def make_folder(base: Path, name: str, age: float, now: float) -> Path:
    folder = base / name
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "code.nbc").write_text("compiled")
    os.utime(folder, (now - age, now - age))
    return folder


def test_prune_removes_only_our_stale_folders(tmp_path: Path) -> None:
    now = time.time()
    base = tmp_path / "cache"
    base.mkdir()
    key = PREFIX + "0" * 16
    current = make_folder(base, key, 0, now)
    recent = [make_folder(base, f"{PREFIX}{n:016x}", 60.0 * n, now) for n in range(1, 5)]
    old = make_folder(base, PREFIX + "f" * 16, UNUSED_FOR + 60, now)
    legacy = make_folder(base, "numba-" + "a" * 16, UNUSED_FOR + 60, now)
    # Never touched: other names, a file with our name, a link with our name (nor its target).
    unrelated = make_folder(base, "numba", UNUSED_FOR + 60, now)
    odd = make_folder(base, PREFIX + "not-a-key", UNUSED_FOR + 60, now)
    (base / (PREFIX + "e" * 16)).write_text("a file")
    target = make_folder(tmp_path, "elsewhere", UNUSED_FOR + 60, now)
    link = base / (PREFIX + "d" * 16)
    link.symlink_to(target, target_is_directory=True)
    os.utime(link, (now - 2 * UNUSED_FOR, now - 2 * UNUSED_FOR), follow_symlinks=False)

    removed = prune(base, key, own=False, now=now)
    assert sorted(removed) == sorted([*recent[KEEP_OTHERS:], old])
    assert current.is_dir() and all(folder.is_dir() for folder in recent[:KEEP_OTHERS])
    assert legacy.is_dir()  # not dicegames' own folder: another program's numba- names
    assert unrelated.is_dir() and odd.is_dir() and (base / (PREFIX + "e" * 16)).is_file()
    assert link.is_symlink() and (target / "sub" / "code.nbc").is_file()

    assert prune(base, key, own=True, now=now) == [legacy]
    # Even the most recent others go once nobody used them for UNUSED_FOR.
    assert sorted(prune(base, key, own=True, now=now + UNUSED_FOR + 1)) == sorted(
        recent[:KEEP_OTHERS])
    assert current.is_dir() and link.is_symlink() and target.is_dir()


def test_prune_never_fails_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert prune(tmp_path / "missing", PREFIX + "0" * 16, own=True) == []
    now = time.time()
    stuck = make_folder(tmp_path, PREFIX + "1" * 16, UNUSED_FOR + 60, now)

    def refuse(path: Any, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(shutil, "rmtree", refuse)
    assert prune(tmp_path, PREFIX + "0" * 16, own=True, now=now) == []
    assert stuck.is_dir()


# ------------------------------------------------------------------ a tuning constant edited

CHOICES = """
import json, random, sys
import dicegames
from dicegames.core import kernel
game = dicegames.make(sys.argv[1], players=2)
found = kernel.kernel_for(game)
rng, dice, choices = kernel.seed_rng(5), random.Random(5), []
for _ in range(12):
    state = game.new_state()
    while not state.is_terminal and len(choices) < 400:
        if state.is_chance:
            outcomes = [outcome for outcome, _ in state.chance_outcomes()]
            state = state.apply(dice.choice(outcomes))
            continue
        values = found.encode(state.data)
        choices.append(found.choose(values, "medium", rng))
        legal = state.legal_actions()
        state = state.apply(legal[dice.randrange(len(legal))])
print(json.dumps({"backend": kernel.BACKEND, "choices": choices}))
"""
"""The medium policy's choices at the decisions of a few random games (kernel codes)."""


def kernel_choices(source: Path, cache: Path, *, plain: bool) -> tuple[str, list[int]]:
    """Run :data:`CHOICES` on the package copy in ``source``, compiled or not."""
    env = dict(os.environ, PYTHONPATH=str(source), NUMBA_CACHE_DIR=str(cache))
    env.pop("DICEGAMES_KERNEL", None)
    if plain:
        env["DICEGAMES_KERNEL"] = "python"
    done = subprocess.run([sys.executable, "-c", CHOICES, "shortcut"], env=env, check=True,
                          capture_output=True, text=True, timeout=600)
    out = json.loads(done.stdout)
    return str(out["backend"]), list(out["choices"])


@pytest.mark.slow
def test_an_edited_tuning_constant_reaches_the_compiled_kernel(tmp_path: Path) -> None:
    """Shortcut's kernel reads STOP_AT from heuristics.py: edit it, and the next run of the
    compiled kernel plays the new rule (with numba's own cache, it kept the old one)."""
    pytest.importorskip("numba")
    source = tmp_path / "src"
    copy = source / "dicegames"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "numba"
    backend, before = kernel_choices(source, cache, plain=False)
    assert backend == "numba"

    heuristics = copy / "games" / "shortcut" / "heuristics.py"
    text = heuristics.read_text()
    assert "\nSTOP_AT = 3\n" in text
    heuristics.write_text(text.replace("\nSTOP_AT = 3\n", "\nSTOP_AT = 99\n"))
    _, after = kernel_choices(source, cache, plain=False)
    _, plain_after = kernel_choices(source, cache, plain=True)
    assert after == plain_after  # the compiled kernel plays what the edited source says
    assert after != before
    assert len(list(cache.glob(PREFIX + "*"))) == 2  # one folder per key
