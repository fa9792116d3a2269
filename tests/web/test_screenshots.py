"""scripts/make_screenshots.py keeps working: run through its command line at a small scale
(one board, phone size, into a temporary folder), it writes a small PNG of the real page."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest

from web.browser import find_chromium
from web.conftest import no_browser

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_screenshots.py"


@pytest.mark.process
def test_the_script_writes_a_board_picture(tmp_path: Path) -> None:
    chromium, reason = find_chromium()
    if chromium is None:
        no_browser(reason)
    done = subprocess.run([sys.executable, str(SCRIPT), "--only", "petits-chevaux",
                           "--sizes", "phone", "--out", str(tmp_path)],
                          check=False, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    picture = tmp_path / "board-petits-chevaux-phone.png"
    assert [p.name for p in tmp_path.iterdir()] == [picture.name]
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (390, 844)
    assert 5_000 < len(data) < 150_000  # a real page, and compressed
    assert "1 picture," in done.stdout
