"""The encoders: on random playouts of every game and player count, ids are unique, in
range and round-trip; observations have the declared size and stay in [0, 1]; and
docs/rl.md documents every field."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import dicegames
from dicegames import games, make
from dicegames.core import registry
from dicegames.core.chance import sample
from dicegames.core.definition import GameDefinition
from dicegames.core.registry import definition
from dicegames.envs.encoding import encoded_games, encoder_for, returns
from dicegames.games.extra.encoder import PAIRS, SLOTS, WAIT, slot_name

CONFIGS = [(spec.id, players) for spec in games() if spec.id in encoded_games()
           for players in range(spec.min_players, spec.max_players + 1)]

OPTIONS: dict[str, dict[str, object]] = {
    "monza": {"variant_last_colour": True},
    "petits-chevaux": {"compulsory_move": False},
    "extra": {"extra_columns": "4,3,3", "child_seats": "1"},
}
"""Options that bring out the rarer actions (advance and stay, pass anywhere, a child)."""

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
DICEGAMES = Path(dicegames.__file__).parent


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_random_playouts(game_id: str, players: int) -> None:
    game = make(game_id, players=players, **OPTIONS.get(game_id, {}))
    encoder = encoder_for(game)
    rng = random.Random(f"{game_id}/{players}")
    seen: set[int] = set()
    for _ in range(3):
        state = game.new_state()
        while not state.is_terminal:
            for seat in range(players):
                vector = encoder.observe(state, seat)
                assert vector.shape == (encoder.size,) and vector.dtype == np.float32
                assert vector.min() >= 0.0 and vector.max() <= 1.0
            if state.is_chance:
                outcomes = encoder.outcomes(state)
                assert all(0 <= i < encoder.num_outcomes for i in outcomes)
                assert len(outcomes) == len(state.chance_outcomes())  # no two share an id
                assert sum(p for _, p in outcomes.values()) == pytest.approx(1.0)
                for i, (outcome, _) in outcomes.items():
                    assert encoder.outcome_name(i) == str(outcome)
                state = state.apply_unchecked(sample(state.chance_outcomes(), rng))
                continue
            seat = state.current_players[0]
            legal = state.legal_actions(seat)
            ids = encoder.legal_ids(state, seat)
            assert len(ids) == len(legal) and ids == sorted(ids)  # distinct, ascending
            assert all(0 <= i < encoder.num_actions for i in ids)
            for i in ids:
                assert encoder.action(state, seat, i) in legal
                assert encoder.action_name(i)
            seen.update(ids)
            state = state.apply(encoder.action(state, seat, rng.choice(ids)), seat)
        if players > 1:
            assert sum(returns(state)) == pytest.approx(0.0)
    assert len(seen) > 1


def test_keys_tell_futures_apart() -> None:
    """Extra Meters' key caps what does not matter and keeps what does."""
    game = make("extra-meters", track_length=10)
    encoder = encoder_for(game)
    start = game.new_state()
    five_then_three = start.apply("5").apply("roll").apply("3")
    three_then_five = start.apply("3").apply("roll").apply("5")
    assert encoder.key(five_then_three) == encoder.key(three_then_five)
    assert encoder.key(five_then_three) != encoder.key(start.apply("5").apply("roll").apply("4"))
    past = five_then_three.apply("roll").apply("5")  # sum 13: stopping passes square 10
    further = past.apply("roll").apply("1")
    assert encoder.key(past).endswith("sum 11 of 3 dice")
    assert encoder.key(further).endswith("sum 11 of 4 dice")
    won = further.apply("stop")  # square 14: past the end, the game is over
    assert encoder.key(won) == "runners 11 0; seat 0 over; sum 0 of 0 dice"


def test_extra_action_ids() -> None:
    assert len(PAIRS) == 66 and SLOTS == 25 and WAIT == 1650
    game = make("extra")
    encoder = encoder_for(game)
    assert encoder.num_actions == 1651
    state = game.new_state().apply("1 2 2 3 5")
    decision = game.parse(state, "1+2 2+3 x5b", seat=0)
    action_id = encoder.action_id(decision)
    assert encoder.action_name(action_id) == "sums 3+5 x5b"
    assert encoder.action(state, 0, action_id) == decision
    assert [slot_name(v) for v in (0, 3, 7, 24)] == ["free", "x3", "x1a", "x6c"]
    assert encoder.action_name(WAIT) == "wait"


def test_monza_and_shortcut_ids_name_squares() -> None:
    monza = encoder_for(make("monza"))
    assert monza.num_actions == 2 + 2 * 67
    assert monza.action_name(0) == "pass" and monza.action_name(1) == "stay"
    assert monza.action_name(2).startswith("step to ")
    assert monza.action_name(2 + 67).startswith("advance to ")
    shortcut = encoder_for(make("shortcut"))
    assert shortcut.num_actions == 4 + 44
    assert [shortcut.action_name(i) for i in range(4)] == ["road", "shortcut", "push", "press"]


def test_a_game_without_an_encoder_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make("toy-race")
    known: dict[Any, GameDefinition] = dict(registry._BY_CLASS)
    known[type(game)] = GameDefinition(rules=type(game))  # the same game, without its encoder
    monkeypatch.setattr(registry, "_BY_CLASS", known)
    with pytest.raises(ValueError, match="toy-race has no learning environment yet; these games"):
        encoder_for(game)


@pytest.mark.parametrize("game_id", encoded_games())
def test_docs_name_every_field(game_id: str) -> None:
    text = DOCS.read_text(encoding="utf-8")
    if f"<!-- fields:{game_id} -->" not in text:
        assert definition(game_id).path.parent != DICEGAMES / "games", game_id
        pytest.skip(f"{game_id} is not a game dicegames ships: docs/rl.md does not cover it")
    section = text.split(f"<!-- fields:{game_id} -->")[1].split("<!--")[0]
    encoder = encoder_for(make(game_id))
    for field in encoder.fields:
        assert f"`{field.name}`" in section, f"docs/rl.md does not document {field.name}"
