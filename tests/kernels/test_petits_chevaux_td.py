"""Petits Chevaux' ``trained`` network (:mod:`dicegames.games.petits_chevaux.kernel_trained`)
and its TD(lambda) training (:mod:`.kernel_td`): its inputs, its choice, and a small training
run of its trainer (``scripts/train_petits_chevaux_td.py``), reproducible from its seed.

The checks run in one plain-Python process (``DICEGAMES_KERNEL=python``): the training loop
is not one of the kernel's entry points, and compiling it here would cost minutes of CPU
for a few games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECKS = r'''
import dataclasses, importlib.util, json, random, sys
from pathlib import Path

import dicegames
from dicegames.core.chance import sample
from dicegames.core.kernel import HAVE_NUMBA, kernel_for
from dicegames.games.petits_chevaux import kernel_trained as td
from dicegames.games.petits_chevaux import trained as model
from dicegames.games.petits_chevaux.data import Phase
from dicegames.games.petits_chevaux.kernel_rules import HORSES, STRIDE, legal_moves

assert not HAVE_NUMBA  # the plain-Python path, as asked
root, out = Path(sys.argv[1]), Path(sys.argv[2])
spec = importlib.util.spec_from_file_location(
    "train_td", root / "scripts/train_petits_chevaux_td.py")
trainer = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = trainer  # its dataclass looks its module up while it is built
spec.loader.exec_module(trainer)

# The layout: the hidden units follow from the length, and nothing else is a network.
assert td.hidden_of(td.layout(3)) == 3 and td.hidden_of(td.layout(3) + 1) == -1
assert td.layout is model.layout and td.INPUTS == model.INPUTS

# The inputs are seen from the mover's side: seat 2's horses are relative seat 0 for seat 2.
game = dicegames.make("petits-chevaux", players=4)
kernel = kernel_for(game)
rng = random.Random(3)
state = game.new_state()
for _ in range(400):  # a position some way into a random game
    if state.is_terminal:
        break
    if state.is_chance:
        state = state.apply(sample(state.chance_outcomes(), rng))
    else:
        state = state.apply(rng.choice(state.legal_actions(state.turn.seat)))
a = kernel.encode(state.data)
index, dense = [0] * td.HORSE_SLOTS, [0.0] * td.DENSE
for me in range(4):
    td.features(a, kernel.cfg, kernel.paths, me, False, index, dense, [0.0] * 4)
    for r in range(4):
        seat = (me + r) % 4
        assert index[4 * r:4 * r + 4] == [r * STRIDE + a[HORSES + 4 * seat + h]
                                          for h in range(4)]
    assert dense[4] == 0.0 and all(0.0 <= d for d in dense[:4])

# A winning move is taken whatever the network says; else the best-valued move.
weights = [0.0] * td.layout(2)
codes, targets = [0] * 6, [0] * 6
data = kernel.decode(a)
rows = (((57, 60, 61, 62),) + data.horses[1:])  # seat 0: three horses home, one at 57
won = kernel.encode(dataclasses.replace(data, horses=rows, player=0, phase=Phase.MOVE, roll=2))
n = legal_moves(won, kernel.cfg, kernel.paths, codes, targets)
assert td.trained_choose(won, kernel.cfg, kernel.paths, weights, 2, codes, n, list(won),
                         [0] * 16, [0.0] * 9, [0.0] * 2) == 1  # horse 1 to 59 wins

# Two runs from one seed learn the same weights; the weights did change.
first = trainer.train(5, hidden=2, warm=2, games=2, eval_games=4, alpha=0.1, lam=0.7,
                      log=False)
second = trainer.train(5, hidden=2, warm=2, games=2, eval_games=4, alpha=0.1, lam=0.7,
                       log=False)
assert first.weights == second.weights and first.win_rate == second.win_rate
import numpy as np
start = np.random.default_rng(5).normal(0.0, 0.1, td.layout(2))
assert list(start) != first.weights
assert len(first.history) == 2 and first.games == 4
assert trainer.main(["--seed", "5", "--hidden", "2", "--warm", "1", "--games", "1",
                     "--eval-games", "4", "--save", str(out)]) == 0
assert len(trainer.load(str(out))) == td.layout(2)
assert trainer.main(["--seed", "5", "--players", "3", "--hidden", "1", "--warm", "1",
                     "--games", "1", "--eval-games", "3", "--save", str(out)]) == 0
assert len(trainer.load(str(out))) == td.layout(2)  # 4's network kept
assert len(trainer.load(str(out), 3)) == td.layout(1)
print("ok")
'''


def test_the_network_and_a_small_training_run(tmp_path: Path) -> None:
    """The inputs from the mover's side, a winning move first, and two tiny training runs
    from one seed that learn the same weights, saved and read back."""
    env = dict(os.environ, DICEGAMES_KERNEL="python",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    out = tmp_path / "td.json"
    done = subprocess.run([sys.executable, "-c", CHECKS, str(ROOT), str(out)], env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-3000:]
    saved = json.loads(out.read_text())
    assert saved["format"] == 2  # the level's own weights format
    assert saved["networks"]["4"]["hidden"] == 2
    assert saved["networks"]["4"]["measured"]["games"] == 4
    assert saved["networks"]["3"]["hidden"] == 1  # --players 3 added, 4's network kept


def test_a_wrong_weights_file_is_refused(tmp_path: Path) -> None:
    """The trainer's ``--start`` refuses a file for another network, with non-finite
    weights, or missing, with a message naming the file."""
    import importlib.util

    import pytest

    spec = importlib.util.spec_from_file_location(
        "train_td_load", ROOT / "scripts/train_petits_chevaux_td.py")
    assert spec is not None and spec.loader is not None
    trainer = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = trainer
    spec.loader.exec_module(trainer)
    from dicegames.games.petits_chevaux import trained as model

    path = tmp_path / "w.json"
    good = json.loads(model.weights_text({4: [0.0] * model.layout(1)}))
    path.write_text(json.dumps(good))
    assert trainer.load(str(path)) == [0.0] * model.layout(1)
    with pytest.raises(ValueError, match=r"w\.json.*no network for 2 players"):
        trainer.load(str(path), 2)
    path.write_text(json.dumps(dict(good, inputs=model.INPUTS + 1)))
    with pytest.raises(ValueError, match=r"w\.json.*inputs"):
        trainer.load(str(path))
    four = dict(good["networks"]["4"], weights=good["networks"]["4"]["weights"] + [0.0])
    path.write_text(json.dumps(dict(good, networks={"4": four})))
    with pytest.raises(ValueError, match=r"w\.json.*numbers"):
        trainer.load(str(path))
    with pytest.raises(ValueError, match="not a weights file to add a network to"):
        trainer.save(str(path), 3, [0.0] * model.layout(1), {})
    path.write_text(model.weights_text({4: [0.0] * model.layout(1)}).replace("0.0", "NaN", 1))
    with pytest.raises(ValueError, match="finite"):
        trainer.load(str(path))
    with pytest.raises(ValueError, match="cannot read"):
        trainer.load(str(tmp_path / "missing.json"))
