"""Several seats deciding on one shared roll (the design EXTRA! needs), on a tiny inline game.

"Shared Roll": one die is rolled for the whole table, then every seat decides on that same
roll, in any order: ``keep`` adds the face to the seat's points, ``double`` adds twice the face
but the seat sits out the next roll (its only move there is ``pass``). When every seat has
decided, the next roll comes; the seats that have reached the target (10) by then share the
win. The game lives only in this module: it is registered under ``test-shared-roll`` just for
the tests that need the registry (records), and removed again afterwards, so the conformance
suite over the real games never sees it.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicegames
from dicegames import PASS, Game, IllegalAction, NotYourTurn, RecordError, Session, State
from dicegames.bots import MCTSBot, RandomBot
from dicegames.core import registry
from dicegames.core.chance import uniform
from dicegames.core.model import (
    CHANCE,
    TERMINAL,
    Agent,
    GameSpec,
    Node,
    Result,
    Seat,
    Special,
    TurnInfo,
)
from dicegames.core.options import OptionSpec
from test_conformance import random_walk


class Choice(StrEnum):
    """What a seat does with the shared roll; the value is the notation."""

    KEEP = "keep"
    DOUBLE = "double"


SharedAction = Choice | Special


@dataclass(frozen=True, slots=True)
class SharedData:
    """A Shared Roll position.

    Attributes:
        scores: points per seat.
        resting: seats that doubled on the previous roll and sit this one out.
        doubled: seats that doubled on this roll (they sit the next one out). A tuple of
            flags, not a list of seats, so the order of the decisions leaves no trace.
        face: the shared die, 0 while it is still to be rolled.
        deciding: the seats that have not yet decided on ``face``.
        rolls: rolls completed so far.
        winners: the seats that reached the target, once the game is over.
    """

    scores: tuple[int, ...]
    resting: tuple[bool, ...]
    doubled: tuple[bool, ...]
    face: int = 0
    deciding: tuple[Seat, ...] = ()
    rolls: int = 0
    winners: tuple[Seat, ...] = ()


class SharedRoll(Game[SharedData, SharedAction, int]):
    """The rules of Shared Roll (see the module docstring)."""

    spec = GameSpec(
        id="test-shared-roll",
        name="Shared Roll",
        pitch="A test game: everyone decides on the same roll.",
        min_players=2,
        max_players=4,
        default_players=3,
        options=(OptionSpec("target", "int", 10, "points needed to win", minimum=5,
                            maximum=30),),
    )

    @property
    def target(self) -> int:
        """The points needed to win."""
        value = self.options["target"]
        assert isinstance(value, int)
        return value

    def _initial(self) -> SharedData:
        return SharedData((0,) * self.players, (False,) * self.players, (False,) * self.players)

    def _node(self, data: SharedData) -> Node:
        if data.winners:
            return TERMINAL
        if data.face == 0:
            return CHANCE
        return Node.decision(*data.deciding)

    def _turn(self, data: SharedData) -> TurnInfo:
        return TurnInfo(data.rolls % self.players, data.rolls + 1)

    def _legal_actions(self, data: SharedData, seat: Seat) -> tuple[SharedAction, ...]:
        return (PASS,) if data.resting[seat] else (Choice.KEEP, Choice.DOUBLE)

    def _apply_action(self, data: SharedData, seat: Seat, action: SharedAction) -> SharedData:
        scores, doubled = list(data.scores), list(data.doubled)
        if action is Choice.KEEP:
            scores[seat] += data.face
        elif action is Choice.DOUBLE:
            scores[seat] += 2 * data.face
            doubled[seat] = True
        deciding = tuple(s for s in data.deciding if s != seat)
        data = replace(data, scores=tuple(scores), doubled=tuple(doubled), deciding=deciding)
        if deciding:
            return data
        winners = tuple(s for s, points in enumerate(scores) if points >= self.target)
        return replace(data, resting=data.doubled, doubled=(False,) * self.players, face=0,
                       rolls=data.rolls + 1, winners=winners)

    def _chance_outcomes(self, data: SharedData) -> tuple[tuple[int, Fraction], ...]:
        return uniform(range(1, 7))

    def _apply_outcome(self, data: SharedData, outcome: int) -> SharedData:
        return replace(data, face=outcome, deciding=tuple(range(self.players)))

    def _result(self, data: SharedData) -> Result:
        return Result.from_scores(data.winners, data.scores, f"{self.target} points reached")

    def render(self, state: State[SharedData, SharedAction, int],
               names: Sequence[str] | None = None) -> str:
        """Points per seat and the shared die."""
        data = state.data
        labels = names or [f"seat {s}" for s in range(self.players)]
        points = ", ".join(f"{labels[s]}: {p}" for s, p in enumerate(data.scores))
        return f"[bold]die[/]: {data.face or '-'}; {points}"


def shared_roll(players: int = 3, target: int = 10) -> SharedRoll:
    """The test game built directly, without the registry."""
    return SharedRoll(players, {"target": target})


def rolled(game: SharedRoll, face: int = 4) -> State[SharedData, SharedAction, int]:
    """The state after the first shared roll shows ``face``."""
    return game.new_state().apply(str(face))


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the test game for one test; the registry is restored afterwards."""
    # The registry has no public way to forget a game, so the test swaps in copies of its
    # private tables that monkeypatch puts back.
    monkeypatch.setattr(registry, "_DEFINITIONS", dict(registry._DEFINITIONS))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    monkeypatch.setattr(registry, "_BY_CLASS", dict(registry._BY_CLASS))
    registry.register(SharedRoll)
    yield


# ----------------------------------------------------------------------- the node itself


def test_every_seat_decides_on_the_same_roll() -> None:
    state = rolled(shared_roll(players=3))
    assert not state.is_chance
    assert state.current_players == (0, 1, 2)
    for seat in (0, 1, 2):
        assert state.legal_actions(seat) == (Choice.KEEP, Choice.DOUBLE)


def test_without_a_seat_the_engine_names_the_deciding_seats() -> None:
    state = rolled(shared_roll(players=3))
    attempts: list[Callable[[], object]] = [
        state.legal_actions, lambda: state.apply("keep"), lambda: state.game.parse(state, "keep")]
    for attempt in attempts:
        with pytest.raises(NotYourTurn, match=r"seats 0, 1, 2 all decide"):
            attempt()


def test_a_decision_takes_the_seat_out_of_the_deciders() -> None:
    game = shared_roll(players=3)
    state = rolled(game, 4).apply("double", seat=1)
    assert state.current_players == (0, 2)
    assert state.data.scores == (0, 8, 0)
    with pytest.raises(NotYourTurn, match=r"seat 1 may not act now; deciding now: 0, 2"):
        state.legal_actions(1)
    for twice in ("keep", Choice.DOUBLE):
        with pytest.raises(NotYourTurn):
            state.apply(twice, seat=1)
    state = state.apply(Choice.KEEP, seat=2)
    assert state.current_players == (0,)
    assert state.legal_actions() == state.legal_actions(0)  # one decider: no seat needed
    state = state.apply("keep")
    assert state.is_chance
    assert state.turn == dicegames.TurnInfo(1, 2)


def test_a_resting_seat_can_only_pass() -> None:
    state = rolled(shared_roll(players=2), 3).apply("double", 0).apply("keep", 1)
    state = state.apply("5")
    assert state.legal_actions(0) == (PASS,)
    assert state.legal_actions(1) == (Choice.KEEP, Choice.DOUBLE)
    with pytest.raises(IllegalAction, match="legal: pass"):
        state.apply("keep", seat=0)


def test_a_forced_pass_is_an_event_and_cannot_be_taken_back_by_its_seat() -> None:
    session = Session(shared_roll(players=2))
    for move, seat in (("3", None), ("double", 0), ("keep", 1), ("5", None)):
        session.apply(move, seat)
    (event,) = session.apply(PASS, 0)
    assert (event.kind, event.seat, event.text) == (dicegames.EventKind.PASS, 0, "pass")
    assert event.description == "Player 1 cannot move: the turn passes"
    assert session.moves[-1].to_record() == "0:pass"
    assert not session.can_undo(0)
    assert session.can_undo()


def test_the_order_of_the_decisions_does_not_change_the_outcome() -> None:
    game = shared_roll(players=3)
    start = rolled(game, 5)
    choices = {0: Choice.DOUBLE, 1: Choice.KEEP, 2: Choice.DOUBLE}
    finals = set()
    for order in itertools.permutations(range(3)):
        state = start
        for seat in order:
            state = state.apply(choices[seat], seat)
        finals.add(state)
    assert len(finals) == 1
    (final,) = finals
    assert final.data.scores == (10, 5, 10)
    assert final.is_terminal
    assert final.result.winners == (0, 2)


@given(players=st.integers(2, 4), face=st.integers(1, 6), data=st.data())
def test_any_order_of_any_decisions_gives_one_state(players: int, face: int,
                                                    data: st.DataObject) -> None:
    game = shared_roll(players=players, target=30)
    start = rolled(game, face)
    choices = [data.draw(st.sampled_from(Choice)) for _ in range(players)]
    order = data.draw(st.permutations(range(players)))
    state = start
    for seat in order:
        state = state.apply(choices[seat], seat)
    in_seat_order = start
    for seat in range(players):
        in_seat_order = in_seat_order.apply(choices[seat], seat)
    assert state == in_seat_order
    assert hash(state) == hash(in_seat_order)


def test_the_shared_roll_game_keeps_the_engine_contract() -> None:
    for players in (2, 3, 4):
        game = shared_roll(players=players)
        for seed in range(10):
            walk = random_walk(game, random.Random(seed), thorough=seed < 2)
            assert walk.states[-1].is_terminal
            assert any(len(s.current_players) > 1 for s in walk.states)


# ----------------------------------------------------------------------- sessions and records


def test_session_writes_the_seat_in_front_of_a_shared_decision(registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=3), seed=1)
    session.apply("4")
    session.apply("double", seat=2)
    session.apply("keep", seat=0)
    session.apply("keep", seat=1)
    assert [entry.to_record() for entry in session.moves] == ["4", "2:double", "0:keep", "keep"]
    record = json.loads(json.dumps(dicegames.to_record(session)))
    assert record["moves"] == ["4", "2:double", "0:keep", "keep"]
    loaded = dicegames.from_record(record)
    assert loaded.states == session.states
    assert loaded.moves == session.moves


def test_events_of_a_shared_decision_name_the_seat(registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=2))
    session.apply("6")
    (event,) = session.apply("keep", seat=1)
    assert event.kind is dicegames.EventKind.MOVE
    assert event.seat == 1
    assert event.text == "keep"
    events = session.apply("double", seat=0)
    assert [e.kind for e in events] == [dicegames.EventKind.MOVE, dicegames.EventKind.GAME_OVER]
    assert events[-1].result is not None
    assert events[-1].result.winners == (0,)


def test_a_record_without_the_seat_at_a_shared_decision_names_the_move(
        registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=2))
    for move, seat in (("2", None), ("keep", 1), ("keep", 0), ("3", None), ("double", 0)):
        session.apply(move, seat)
    record = dicegames.to_record(session)
    assert record["moves"][4] == "0:double"
    for bad in ("double", "zero:double", ":double"):
        record["moves"][4] = bad
        with pytest.raises(RecordError) as info:
            dicegames.from_record(record)
        assert info.value.index == 4
        assert "seat:move" in str(info.value)
        assert str(info.value).startswith("bad game record: move 4:")


def test_a_record_naming_a_seat_that_may_not_act_names_the_move(registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=2))
    session.apply("2")
    session.apply("keep", 1)
    record = dicegames.to_record(session)
    record["moves"].append("1:keep")  # seat 1 has decided already: only seat 0 may act
    with pytest.raises(RecordError) as info:
        dicegames.from_record(record)
    assert info.value.index == 2
    record["moves"][1:] = ["7:keep"]  # there is no seat 7
    with pytest.raises(RecordError) as info:
        dicegames.from_record(record)
    assert info.value.index == 1
    assert "seat 7 may not act now" in str(info.value)


def test_a_seat_prefix_that_is_not_a_number_names_the_move(registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=2))
    session.apply("2")
    record = dicegames.to_record(session)
    record["moves"].append("²:keep")
    with pytest.raises(RecordError) as info:
        dicegames.from_record(record)
    assert info.value.index == 1


def test_undo_gives_a_shared_decision_back(registered: None) -> None:
    session = Session(dicegames.make("test-shared-roll", players=3))
    session.apply("4")
    session.apply("keep", 0)
    session.apply("double", 2)
    assert session.can_undo(2)
    assert not session.can_undo(0)  # seat 2 has moved since
    event = session.undo()
    assert event.kind is dicegames.EventKind.UNDO
    assert event.seat == 2
    assert session.state.current_players == (1, 2)
    assert session.can_undo(0)


def test_play_with_bots_handles_shared_decisions_and_forced_passes() -> None:
    for seed in range(5):
        game = shared_roll(players=3)
        rng = random.Random(seed)
        session = Session(game, seed=seed)
        events: list[dicegames.Event] = []
        result = dicegames.play(session, [RandomBot(rng) for _ in range(3)],
                                dicegames.RandomDice(rng), events.append)
        assert result is not None
        assert result == session.state.result
        assert any(entry.several for entry in session.moves)
        passes = [e for e in events if e.kind is dicegames.EventKind.PASS]
        doubles = [entry for entry in session.moves[:-3] if entry.text == "double"]
        # Every double but those on the last roll makes its seat sit out (pass) once.
        assert len(passes) >= len(doubles)
        assert all(e.text == "pass" for e in passes)


def test_mcts_plays_a_shared_roll_game_legally() -> None:
    game = shared_roll(players=2)
    rng = random.Random(3)
    agents: list[Agent] = [MCTSBot(rng, simulations=40), RandomBot(rng)]
    session = Session(game)
    assert dicegames.play(session, agents, dicegames.RandomDice(rng)) is not None


def test_mcts_answers_for_the_seat_it_is_asked_about() -> None:
    game = shared_roll(players=2)
    data = SharedData(scores=(4, 4), resting=(True, False), doubled=(False, False), face=3,
                      deciding=(0, 1), rolls=1)
    state = game.state_from(data)
    assert state.legal_actions(0) == (PASS,)
    choice = MCTSBot(random.Random(1), simulations=50).choose(state, 1)
    assert choice in state.legal_actions(1)


# ----------------------------------------------------------------------- the checks can fail


class LeakyDice(SharedRoll):
    """Broken: the die's probabilities sum to 6/7."""

    def _chance_outcomes(self, data: SharedData) -> tuple[tuple[int, Fraction], ...]:
        return tuple((face, Fraction(1, 7)) for face in range(1, 7))


class EchoingChoices(SharedRoll):
    """Broken: the same action is listed twice."""

    def _legal_actions(self, data: SharedData, seat: Seat) -> tuple[SharedAction, ...]:
        return (PASS,) if data.resting[seat] else (Choice.KEEP, Choice.KEEP, Choice.DOUBLE)


class ForgetfulTurns(SharedRoll):
    """Broken: the turn count goes back to 1 every third roll."""

    def _turn(self, data: SharedData) -> TurnInfo:
        return TurnInfo(0, data.rolls % 3 + 1)


class DeafParser(SharedRoll):
    """Broken: any typed decision is read as ``keep``, so ``double`` does not parse back."""

    def _parse_action(self, data: SharedData, seat: Seat, text: str) -> SharedAction:
        return PASS if data.resting[seat] else Choice.KEEP


class Endless(SharedRoll):
    """Broken: the target can never be reached, so the game never ends."""

    @property
    def target(self) -> int:
        """Out of reach."""
        return 10**9


@pytest.mark.parametrize(("broken", "complaint"), [
    (LeakyDice, "sum to 6/7, not 1"),
    (EchoingChoices, "repeated legal actions"),
    (ForgetfulTurns, "the turn number went back"),
    (DeafParser, "double parses back as keep"),
    (Endless, "did not end within 500 moves"),
])
def test_the_conformance_walker_catches_a_broken_game(broken: type[SharedRoll],
                                                      complaint: str) -> None:
    game = broken(2, {"target": 10})
    with pytest.raises(AssertionError, match=complaint):
        for seed in range(3):
            random_walk(game, random.Random(seed), max_moves=500)
