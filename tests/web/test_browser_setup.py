"""Where no Chromium can be had, the browser tests skip with a message, except in CI.

``find_chromium`` and ``in_ci`` are checked on made-up environments; then a real browser test
is run by pytest in a subprocess, pointed at a Chromium that does not exist: without ``CI``
it is skipped and says what to install, with ``CI=true`` it fails (a CI run never passes
without its browser tests). Neither waits on a browser.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from web.browser import CHROMIUM_ENV, find_chromium, in_ci

ROOT = Path(__file__).resolve().parents[2]
A_BROWSER_TEST = ("tests/web/test_browser.py::"
                  "test_second_device_plays_its_seat_from_its_link[sqlite]")


@pytest.mark.parametrize(("value", "expected"), [
    ("true", True), ("1", True), ("yes", True), ("TRUE", True),
    ("", False), ("0", False), ("false", False), ("no", False)])
def test_ci_is_any_value_but_empty_or_false(value: str, expected: bool) -> None:
    assert in_ci({"CI": value}) is expected
    assert in_ci({}) is False


def test_the_named_chromium_wins_and_a_bad_name_is_reported(tmp_path: Path) -> None:
    fake = tmp_path / "my-chromium"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    assert find_chromium({CHROMIUM_ENV: str(fake), "PATH": ""}) == (fake, "")
    missing = tmp_path / "none"
    path, reason = find_chromium({CHROMIUM_ENV: str(missing), "PATH": ""})
    assert path is None and reason == f"{CHROMIUM_ENV}={missing} is not an executable file"


def test_a_chromium_on_path_is_found_and_none_is_explained(tmp_path: Path) -> None:
    nowhere = (tmp_path / "usr-bin-chromium",)
    path, reason = find_chromium({"PATH": str(tmp_path)}, nowhere)
    assert path is None
    assert reason.startswith(f"no Chromium found (looked for {nowhere[0]}, chromium, ")
    assert "sudo apt-get install chromium" in reason and CHROMIUM_ENV in reason
    fake = tmp_path / "chromium-browser"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    assert find_chromium({"PATH": str(tmp_path)}, nowhere) == (fake, "")


def run_browser_test(ci: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """One real browser test in a fresh pytest, with a Chromium that does not exist."""
    env = dict(os.environ, CI=ci, **{CHROMIUM_ENV: str(tmp_path / "no-chromium")})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         A_BROWSER_TEST], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        check=False)


@pytest.mark.process
def test_without_chromium_browser_tests_skip_with_a_message(tmp_path: Path) -> None:
    done = run_browser_test("", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert f"browser tests skipped: {CHROMIUM_ENV}=" in done.stdout
    assert "is not an executable file" in done.stdout


@pytest.mark.process
def test_in_ci_a_missing_chromium_fails_the_browser_tests(tmp_path: Path) -> None:
    done = run_browser_test("true", tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "browser tests cannot run in CI" in done.stdout
    assert "skipped" not in done.stdout


def run_make_browser(ci: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``make browser`` where there is no Chromium and no apt-get (a PATH of two tools)."""
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed (make test, which runs this, needs it)")
    tools = tmp_path / "bin"
    if not tools.exists():
        tools.mkdir()
        for tool in ("tr", "id"):
            found = shutil.which(tool)
            assert found is not None
            (tools / tool).symlink_to(found)
    env = {"PATH": str(tools), "HOME": str(tmp_path), "CI": ci}
    return subprocess.run([make, "-s", "browser", f"CHROMIUM_PATH={tmp_path / 'none'}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.process
def test_make_browser_goes_on_without_apt_get_but_not_in_ci(tmp_path: Path) -> None:
    done = run_make_browser("", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "No Chromium found and no apt-get to install one." in done.stderr
    assert "The browser tests will be skipped" in done.stderr
    done = run_make_browser("true", tmp_path)
    assert done.returncode != 0
    assert "CI=true: the browser tests must run; install chromium." in done.stderr
