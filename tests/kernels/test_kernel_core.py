"""The kernel layer: the random generator, the registry, and the same bits on both paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

import dicegames
from dicegames.core import kernel
from dicegames.core.kernel import below, next_u32, pick, seed_rng, seed_words

SCRIPT = """
import json, dicegames
from dicegames.core import kernel
out = {"backend": kernel.BACKEND}
rng = kernel.seed_rng(2026)
out["u32"] = [kernel.next_u32(rng) for _ in range(5)]
out["below"] = [kernel.below(rng, n) for n in (1, 2, 3, 6, 7, 1000, 2**32)]
out["pick"] = [kernel.pick(rng, kernel.array([1, 0, 5, 2]), 8) for _ in range(20)]
for game_id, players, policies in PLAYOUTS:
    game = dicegames.make(game_id, players=players)
    k = kernel.kernel_for(game)
    result = k.playouts(game.new_state().data, policies, 150, 99)
    out[game_id] = [kernel.to_list(result.winners), kernel.to_list(result.scores),
                    kernel.to_list(result.turns), kernel.to_list(result.moves)]
print(json.dumps(out))
"""

PLAYOUTS = [("extra-meters", 3, ["random", "threshold", "exact"]),
            ("petits-chevaux", 4, ["random", "medium", "hard", "medium"]),
            ("shortcut", 3, ["random", "medium", "medium"]),
            ("monza", 3, ["medium", "random", "medium"]),
            ("extra", 3, ["medium", "random", "medium"])]
"""Each kernel's playouts checked for the same bits on both paths (seats, policies)."""


def run(force_python: bool) -> dict[str, object]:
    env = dict(os.environ)
    if force_python:
        env["DICEGAMES_KERNEL"] = "python"
    else:
        env.pop("DICEGAMES_KERNEL", None)
    code = f"PLAYOUTS = {PLAYOUTS!r}\n{SCRIPT}"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True, timeout=300)
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.slow
def test_numba_and_plain_python_give_the_same_bits() -> None:
    plain = run(force_python=True)
    assert plain.pop("backend") == "python"
    fast = run(force_python=False)
    backend = fast.pop("backend")
    assert backend == ("numba" if kernel.HAVE_NUMBA or kernel.FORCE_PYTHON else "python")
    assert fast == plain


def test_splitmix64_seeding_matches_the_reference() -> None:
    # splitmix64 from state 0: first output 0xE220A8397B1DCDAF (Vigna's reference code).
    words = seed_words(0)
    assert words[0] == 0x7B1DCDAF and words[1] == 0xE220A839
    assert seed_words(-1) == seed_words(2**64 - 1)
    assert seed_words(1) != seed_words(2)


def test_xoshiro128_starstar_step() -> None:
    rng = seed_rng(0)
    s = [int(x) for x in rng]
    mask = 0xFFFFFFFF

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (32 - k))) & mask

    expected = (rotl((s[1] * 5) & mask, 7) * 9) & mask
    assert next_u32(rng) == expected
    t = (s[1] << 9) & mask
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 11)
    assert [int(x) for x in rng] == s


def test_below_is_uniform_and_in_range() -> None:
    rng = seed_rng(7)
    counts = Counter(below(rng, 6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    # chi-square with 5 degrees of freedom: 25 is far beyond the 0.9999 quantile (25.7).
    assert sum((c - 10_000) ** 2 / 10_000 for c in counts.values()) < 25.7
    assert {below(rng, 1) for _ in range(10)} == {0}
    assert all(0 <= below(rng, 2**32) < 2**32 for _ in range(100))


def test_pick_follows_integer_weights() -> None:
    rng = seed_rng(3)
    weights = kernel.array([1, 0, 3])
    counts = Counter(pick(rng, weights, 4) for _ in range(40_000))
    assert counts[1] == 0
    assert abs(counts[2] / 40_000 - 0.75) < 0.01


def test_the_registry_finds_kernels_lazily() -> None:
    game = dicegames.make("extra-meters")
    found = kernel.kernel_for(game)
    assert found is not None and found.game_id == "extra-meters"
    assert kernel.kernel_class("no-such-game") is None


@pytest.mark.parametrize("forced", [True, False])
def test_why_not_compiled_names_the_reason(forced: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kernel, "HAVE_NUMBA", False)
    monkeypatch.setattr(kernel, "FORCE_PYTHON", forced)
    reason = kernel.why_not_compiled()
    assert ("DICEGAMES_KERNEL=python" in reason) if forced else ("dicegames[fast]" in reason)
