"""Files dicegames writes: atomically onto regular files only (``dicegames.core.files``).

Every writer (game records, best scores, the report and review pages) goes through
:func:`dicegames.core.files.write_bytes`. A regular file or a new name is replaced through
a temporary file; a symbolic link is followed (the link stays a link); a FIFO or character
device is written directly (never replaced by a regular file: as root, ``--out /dev/null``
used to replace the system's ``/dev/null``); a folder is refused with a clear error, exit
code 2 at the command line. Everything is made in a temporary folder: the character device
is a new node for the null device there (root only), never ``/dev/null`` itself.
"""

from __future__ import annotations

import json
import os
import select
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import dicegames
from dicegames.core.session import PlayerInfo, Session
from dicegames.scores import record_score

pytestmark = pytest.mark.process
"""These run the real command in processes of their own (left out by `make check`)."""

FINISHED = ["5", "stop", "1", "stop", "5", "roll", "2", "stop"]
"""A whole extra-meters game on a 10-square track."""


def finished_session() -> Session:
    """A finished two-player game (its record is a few hundred bytes)."""
    game = dicegames.make("extra-meters", track_length=10)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Bob")], seed=7)
    for move in FINISHED:
        session.apply(move)
    return session


def save_record(path: Path) -> bytes:
    """``dicegames.save`` (``play --save``); returns a part of what it wrote."""
    dicegames.save(finished_session(), path)
    return b'"moves"'


def save_score(path: Path) -> bytes:
    """The best-scores file; returns a part of what it wrote."""
    result = record_score("extra", {}, 5, path=path)
    assert result.warning is None, result.warning
    return b'"dicegames-scores"'


def write_page(path: Path) -> bytes:
    """The function the report and review pages are written with."""
    from dicegames.core.files import write_bytes

    write_bytes(path, b"<html>page</html>\n")
    return b"<html>page</html>"


WRITERS: dict[str, Callable[[Path], bytes]] = {
    "record": save_record, "scores": save_score, "page": write_page}
"""Each way dicegames writes a file, by name."""

ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


class FifoReader(threading.Thread):
    """Reads a FIFO until its writer closes it (opened at once, so writers never wait)."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.stop = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                if not select.select([self.handle], [], [], 0.05)[0]:
                    continue
                try:
                    chunk = os.read(self.handle, 65536)
                except BlockingIOError:
                    continue
                if chunk:
                    self.data += chunk
                elif self.data:
                    return  # the writer wrote and closed
                else:
                    time.sleep(0.01)  # no writer yet
        finally:
            os.close(self.handle)

    def result(self) -> bytes:
        """What was read, once the writer closed (or after 5 s)."""
        self.join(timeout=5)
        self.stop.set()
        self.join()
        return bytes(self.data)


def leftovers(folder: Path, *expected: str) -> list[str]:
    """Names in ``folder`` other than ``expected`` (temporary files left behind)."""
    return sorted(name for name in os.listdir(folder) if name not in expected)


@pytest.mark.parametrize("writer", WRITERS)
def test_a_symbolic_link_stays_a_link_and_its_target_is_written(tmp_path: Path,
                                                                 writer: str) -> None:
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    WRITERS[writer](real)
    real.chmod(0o640)
    link.symlink_to("real.json")
    part = WRITERS[writer](link)
    assert link.is_symlink() and os.readlink(link) == "real.json"
    assert part in real.read_bytes()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert leftovers(tmp_path, "real.json", "link.json") == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_dangling_link_creates_its_target(tmp_path: Path, writer: str) -> None:
    (tmp_path / "games").mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(Path("games") / "new.json")
    part = WRITERS[writer](link)
    assert link.is_symlink()
    assert part in (tmp_path / "games" / "new.json").read_bytes()
    assert leftovers(tmp_path / "games", "new.json") == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_fifo_is_written_directly_and_stays_a_fifo(tmp_path: Path, writer: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    parts: list[bytes] = []
    writing = threading.Thread(target=lambda: parts.append(WRITERS[writer](fifo)),
                               daemon=True)
    writing.start()
    writing.join(timeout=30)
    if writing.is_alive():  # stuck reading the FIFO as if it were a file: free it, fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        writing.join(timeout=30)
        pytest.fail("the writer waited on the FIFO (it read it, or it has no reader)")
    assert parts and parts[0] in reader.result()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(tmp_path, "pipe") == []


@pytest.mark.skipif(not ROOT, reason="making a character device needs root")
@pytest.mark.parametrize("writer", WRITERS)
def test_a_character_device_is_written_not_replaced(tmp_path: Path, writer: str) -> None:
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device, here
    WRITERS[writer](device)
    info = os.lstat(device)
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 3)
    assert leftovers(tmp_path, "null") == []


@pytest.mark.parametrize("writer", ["record", "page"])
def test_a_folder_is_refused_and_left_alone(tmp_path: Path, writer: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(OSError, match="out is a folder; give a file name"):
        WRITERS[writer](folder)
    assert folder.is_dir() and os.listdir(folder) == []
    assert leftovers(tmp_path, "out") == []


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    if len(str(path)) > 100:
        pytest.skip("the temporary folder's name is too long for a socket")
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        with pytest.raises(OSError, match="is a socket; dicegames writes to a file"):
            save_record(path)
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_link_loop_is_an_error_not_a_new_file(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError, match="Too many levels of symbolic links"):
        save_record(tmp_path / "a")
    assert (tmp_path / "a").is_symlink()
    assert leftovers(tmp_path, "a", "b") == []


def test_a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask(
        tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text("{}", encoding="utf-8")
    old.chmod(0o604)
    save_record(old)
    assert stat.S_IMODE(old.stat().st_mode) == 0o604
    umask = os.umask(0o022)
    os.umask(umask)
    save_record(tmp_path / "new.json")
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o666 & ~umask


@pytest.mark.skipif(not ROOT, reason="making a character device needs root")
def test_scores_linked_to_a_device_are_not_set_aside(tmp_path: Path) -> None:
    # A scores file linked to a null device (to keep no scores) is neither read, set aside
    # as corrupt, nor replaced by a regular file.
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    link = tmp_path / "scores.json"
    link.symlink_to("null")
    for _ in range(2):
        result = record_score("extra", {}, 5, path=link)
        assert result.warning is None and result.games == 1
    assert link.is_symlink() and stat.S_ISCHR(os.lstat(device).st_mode)
    assert leftovers(tmp_path, "null", "scores.json") == []


# --------------------------------------------------------------------------- the CLI


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``dicegames`` command in ``tmp_path``, its user data folder there too.

    HOME stays: the compiled kernels and matplotlib's font list are cached there.
    """
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUTF8="1",
               COLUMNS="100", LANG="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "dicegames", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


ANALYSE = ("analyse", "extra-meters", "--games", "10", "--seed", "3", "--option",
           "track_length=15", "--ladder", "random,optimal")
"""A report that takes a few seconds."""


def test_analyse_out_a_folder_is_a_usage_error_before_the_run(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    done = run(tmp_path, *ANALYSE, "--out", "reports")
    assert done.returncode == 2
    assert done.stderr.strip() == ("dicegames: error: --out reports is a folder; give a "
                                   "file name")
    assert os.listdir(tmp_path / "reports") == []


def test_analyse_out_dev_stdout_prints_the_page_alone(tmp_path: Path) -> None:
    # stdout is a pipe here: written directly. The messages move to stderr.
    done = run(tmp_path, *ANALYSE, "--out", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert done.stdout.lstrip().lower().startswith("<!doctype html>")
    assert done.stdout.rstrip().endswith("</html>")
    assert "Report written to /dev/stdout" in done.stderr
    assert "seat 1 wins" in done.stderr


def test_analyse_out_dev_stdout_appends_to_a_file_opened_for_appending(
        tmp_path: Path) -> None:
    # `dicegames analyse ... --out /dev/stdout >> pages.html`: the page goes through the
    # open stdout, so what the file held stays, and no temporary file replaces it.
    pages = tmp_path / "pages.html"
    pages.write_text("<!-- earlier -->\n", encoding="utf-8")
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUTF8="1")
    with pages.open("ab") as stdout:
        done = subprocess.run([sys.executable, "-m", "dicegames", *ANALYSE, "--out",
                               "/dev/stdout"], cwd=tmp_path, env=env, stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    text = pages.read_text(encoding="utf-8")
    assert text.startswith("<!-- earlier -->\n<!") and text.rstrip().endswith("</html>")
    assert "Report written to /dev/stdout" in done.stderr
    assert leftovers(tmp_path, "pages.html", "data") == []


def test_analyse_charts_need_out_to_be_a_file(tmp_path: Path) -> None:
    done = run(tmp_path, *ANALYSE, "--out", "/dev/stdout", "--charts", "png")
    assert done.returncode == 2
    assert "--charts writes files named after --out" in done.stderr
    assert done.stdout == ""


def test_analyse_out_a_link_writes_where_it_points(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    link = tmp_path / "link.html"
    link.symlink_to(Path("site") / "report.html")
    done = run(tmp_path, *ANALYSE, "--out", "link.html")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink()
    assert "<h2>Seat advantage</h2>" in (tmp_path / "site" / "report.html").read_text()
    assert f"Report written to {tmp_path / 'site' / 'report.html'}" in done.stdout


@pytest.mark.skipif(not ROOT, reason="making a character device needs root")
def test_analyse_out_a_device_leaves_the_device(tmp_path: Path) -> None:
    # The case (--out /dev/null as root), on a null device made here.
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    done = run(tmp_path, *ANALYSE, "--out", "null")
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert leftovers(tmp_path, "null", "data") == []


def test_review_html_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    dicegames.save(finished_session(), tmp_path / "game.json")
    (tmp_path / "pages").mkdir()
    done = run(tmp_path, "review", "game.json", "--html", "pages")
    assert done.returncode == 2
    assert "--html pages is a folder; give a file name" in done.stderr


def test_play_save_a_link_keeps_the_link(tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to("game.json")
    done = run(tmp_path, "play", "extra-meters", "--players", "bot:easy,bot:easy", "--seed",
               "1", "--option", "track_length=10", "--save", "link.json")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink()
    assert json.loads((tmp_path / "game.json").read_text())["result"] is not None
