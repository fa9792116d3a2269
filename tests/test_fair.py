"""Provably fair dice (issue: "Fairness: nobody can predict a roll"): the documented scheme,
the commitment, records that hide the secret until the end, and ``dicegames verify``
through the real command (exit 0 verified, 1 with one line naming what failed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Hashable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import dicegames
from dicegames.core.chance import multisets, sample, uniform
from dicegames.core.fair import HMAC_SCHEME, SEED_SCHEME, FairDice, digest
from dicegames.core.record import from_record, to_record
from dicegames.core.session import Session
from dicegames.core.verify import verify_record

SECRET = bytes(range(32))
"""A fixed secret for the test vectors (a real one comes from ``secrets``)."""


def documented_roll(secret: bytes, index: int, weights: list[Fraction]) -> int:
    """The ``hmac-sha256/1`` scheme redone from its description (docs/web-api.md), as a
    verifier in another language would: the index of the outcome of roll ``index``."""
    denominator = math.lcm(*(weight.denominator for weight in weights))
    cumulative, running = [], 0
    for weight in weights:
        running += int(weight * denominator)
        cumulative.append(running)
    bits = denominator.bit_length()
    attempt = 0
    while True:
        block = hmac.new(secret, f"roll/{index}/{attempt}".encode(), hashlib.sha256).digest()
        ticket = int(block.hex(), 16) >> (256 - bits)
        if ticket < denominator:
            return next(j for j, bound in enumerate(cumulative) if ticket < bound)
        attempt += 1


def test_the_hmac_scheme_is_the_documented_one() -> None:
    fair = FairDice(HMAC_SCHEME, digest(SECRET), SECRET, None)
    for distribution in (uniform(range(1, 7)), uniform(range(1, 6)),
                         multisets(("r", "y", "g", "b", "w", "p"), 6), multisets(range(1, 7), 5)):
        outcomes = [outcome for outcome, _ in distribution]
        weights = [p for _, p in distribution]
        for index in range(40):
            assert fair.roll(distribution, index) == outcomes[
                documented_roll(SECRET, index, weights)]
    # The test vector docs/web-api.md gives for verifiers in other languages.
    die = uniform(range(1, 7))
    assert [fair.roll(die, index) for index in range(10)] == [
        int(v) for v in "5634553241"]
    assert digest(SECRET) == hashlib.sha256(SECRET).hexdigest()


def test_rolls_are_fair_enough() -> None:
    die = uniform(range(1, 7))
    fair = FairDice.new()
    counts = {face: 0 for face in range(1, 7)}
    for index in range(6000):
        counts[fair.roll(die, index)] += 1  # type: ignore[index]
    assert all(850 < count < 1150 for count in counts.values()), counts


def test_a_creator_seed_rolls_as_the_server_always_did_and_its_commitment_hides_it() -> None:
    die = uniform(range(1, 7))
    seeded = FairDice.seeded(7)
    old = [sample(die, random.Random(f"7/{index}")) for index in range(30)]  # old roll_rng
    assert [seeded.roll(die, index) for index in range(30)] == old
    assert seeded.scheme == SEED_SCHEME and seeded.seeded_by == "creator"
    assert seeded.secret is not None and len(seeded.secret) == 32
    assert seeded.commitment == hashlib.sha256(seeded.secret + b"7").hexdigest()
    assert FairDice.seeded(7).commitment != seeded.commitment  # a fresh salt each time
    assert seeded.bot_rng(1).random() == random.Random(7 * 31 + 1).random()


def play(fair: FairDice, tamper: int | None = None, **options: object) -> Session:
    """A finished game of Extra Meters between two random players whose rolls come from
    ``fair``, except roll number ``tamper`` (1-based), which is another face."""
    game = dicegames.make("extra-meters", players=2, **{"track_length": 20, **options})
    session = Session(game, None, fair.seed, fair=fair)
    rng = random.Random(1)
    rolls = 0
    while not session.state.is_terminal:
        state = session.state
        if state.is_chance:
            rolls += 1
            outcome: Hashable = fair.roll(state.chance_outcomes(), len(session.moves))
            if rolls == tamper:
                outcome = next(o for o, _ in state.chance_outcomes() if o != outcome)
            session.apply(outcome)
        else:
            seat = state.current_players[0]
            session.apply(rng.choice(state.legal_actions(seat)), seat)
    return session


def run_verify(path: Path) -> subprocess.CompletedProcess[str]:
    """``dicegames verify PATH`` through the real entry point."""
    return subprocess.run([sys.executable, "-m", "dicegames", "verify", str(path)],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
                               "PYTHONUTF8": "1", "COLUMNS": "200", "LANG": "C.UTF-8"})


def write(tmp_path: Path, record: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def verdict_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a verification prints (stdout when verified, stderr otherwise)."""
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    assert "Traceback" not in lines[0]
    return lines[0]


def test_an_unfinished_records_shows_the_commitment_and_no_secret_or_seed() -> None:
    fair = FairDice.seeded(918273645)
    session = Session(dicegames.make("extra-meters", players=2), None, fair.seed, fair=fair)
    session.apply(fair.roll(session.state.chance_outcomes(), 0))
    record = to_record(session)
    text = json.dumps(record)
    assert record["seed"] is None and "918273645" not in text
    assert record["fair"] == {"scheme": SEED_SCHEME, "commitment": fair.commitment,
                              "seeded_by": "creator", "secret": None}
    assert fair.secret is not None and fair.secret.hex() not in text
    # A terminal game's record keeps its seed, finished or not: it is its player's own.
    own = Session(dicegames.make("extra-meters", players=2), None, 11)
    assert to_record(own)["seed"] == 11 and "fair" not in to_record(own)


@pytest.mark.process
def test_verify_accepts_an_honest_finished_record(tmp_path: Path) -> None:
    for fair in (FairDice.new(), FairDice.seeded(5)):
        record = to_record(play(fair))
        assert fair.secret is not None and record["fair"]["secret"] == fair.secret.hex()
        assert hashlib.sha256(bytes.fromhex(record["fair"]["secret"]) + (
            b"" if fair.seed is None else str(fair.seed).encode())).hexdigest() == \
            record["fair"]["commitment"]
        done = run_verify(write(tmp_path, record))
        assert done.returncode == 0, done.stderr
        assert verdict_line(done).startswith("verified: all ")
        assert fair.commitment is not None and fair.commitment in done.stdout


@pytest.mark.process
def test_verify_names_a_tampered_roll(tmp_path: Path) -> None:
    record = to_record(play(FairDice.new(), tamper=4))
    from_record(record)  # a legal game: only the dice were not the committed ones
    done = run_verify(write(tmp_path, record))
    assert done.returncode == 1
    line = verdict_line(done)
    assert line.startswith("dicegames: error: not verified: roll 4 (move "), line
    assert verify_record(record).rolls == 4


@pytest.mark.process
def test_verify_rejects_a_changed_secret_or_commitment(tmp_path: Path) -> None:
    record = to_record(play(FairDice.new()))
    secret = record["fair"]["secret"]
    for fair in ({**record["fair"], "secret": ("0" if secret[0] != "0" else "1") + secret[1:]},
                 {**record["fair"], "commitment": hashlib.sha256(b"other").hexdigest()}):
        done = run_verify(write(tmp_path, {**record, "fair": fair}))
        assert done.returncode == 1
        assert "does not match the commitment" in verdict_line(done)
    seeded = to_record(play(FairDice.seeded(5)))
    done = run_verify(write(tmp_path, {**seeded, "seed": 6}))  # the seed is committed too
    assert done.returncode == 1 and "does not match the commitment" in verdict_line(done)


@pytest.mark.process
@pytest.mark.parametrize("case", ["unfinished", "terminal", "corrupt", "bad_fair", "missing",
                                  "no_secret"])
def test_verify_explains_what_it_cannot_verify(tmp_path: Path, case: str) -> None:
    honest = to_record(play(FairDice.new()))
    fragment = {
        "unfinished": "not finished", "terminal": "no dice commitment",
        "corrupt": "is not valid JSON", "bad_fair": "commitment must be 64",
        "missing": "cannot read", "no_secret": "no revealed secret"}[case]
    if case == "unfinished":
        session = play(FairDice.new())
        session.undo()
        assert session.fair is not None
        record = {**to_record(session), "fair": session.fair.public(True)}
        path = write(tmp_path, record)
    elif case == "terminal":
        path = write(tmp_path, {k: v for k, v in honest.items() if k != "fair"})
    elif case == "corrupt":
        path = tmp_path / "game.json"
        path.write_text(json.dumps(honest)[:-20], encoding="utf-8")
    elif case == "bad_fair":
        path = write(tmp_path, {**honest, "fair": {**honest["fair"], "commitment": "xyz"}})
    elif case == "missing":
        path = tmp_path / "nothing.json"
    else:
        path = write(tmp_path, {**honest, "fair": {**honest["fair"], "secret": None}})
    done = run_verify(path)
    assert done.returncode == 1
    line = verdict_line(done)
    assert line.startswith("dicegames: error: ") and fragment in line, line


@pytest.mark.process
def test_a_web_record_resumed_at_the_terminal_drops_the_commitment(tmp_path: Path) -> None:
    fair = FairDice.new()
    session = Session(dicegames.make("extra-meters", players=2), None, None, fair=fair)
    session.apply(fair.roll(session.state.chance_outcomes(), 0))
    path = write(tmp_path, to_record(session))  # downloaded mid-game: no seed, no secret
    done = subprocess.run(
        [sys.executable, "-m", "dicegames", "play", "--resume", str(path), "--seed", "11"],
        input="quit\n", capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "PYTHONUTF8": "1",
             "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
             "LANG": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    saved = json.loads(path.read_text(encoding="utf-8"))
    # The terminal rolls from here on with its own seed: the web commitment covers nothing.
    assert saved["seed"] == 11 and "fair" not in saved
    assert from_record(saved).moves == session.moves
