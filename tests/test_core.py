"""The engine's small parts: options, exact dice, the registry, results and errors."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import dicegames
from dicegames import (
    PASS,
    DiceGamesError,
    GameNotOver,
    GameOver,
    IllegalAction,
    Node,
    NotYourTurn,
    OptionError,
    OptionSpec,
    RecordError,
    Reroll,
    Result,
)
from dicegames.core import registry
from dicegames.core.chance import below, multisets, sample, uniform
from dicegames.core.game import normalize
from dicegames.core.options import parse_option_pairs, resolve_options

LENGTH = OptionSpec("length", "int", 50, "squares", minimum=10, maximum=200)
FAST = OptionSpec("fast", "bool", False, "a quicker game")
FINISH = OptionSpec("finish", "choice", "first", "when it ends", choices=("first", "same_round"))
BOARD = OptionSpec("board", "text", "", "a board file")


# ----------------------------------------------------------------------- options


@pytest.mark.parametrize(("given", "value"), [
    (10, 10), (200, 200), ("30", 30), (" 45 ", 45), ("+12", 12),
])
def test_int_options_take_whole_numbers_and_their_text(given: object, value: int) -> None:
    assert LENGTH.validate(given) == value


@pytest.mark.parametrize("given", [9, 201, "9", "thirty", "30.0", 30.0, True, None, [30], ""])
def test_int_options_refuse_anything_else_naming_the_range(given: object) -> None:
    with pytest.raises(OptionError) as info:
        LENGTH.validate(given)
    assert str(info.value) == (f"option length={given!r} is not allowed: length takes a "
                               f"whole number from 10 to 200")


@pytest.mark.parametrize(("given", "value"), [
    (True, True), (False, False), ("true", True), ("Yes", True), (" ON ", True), ("1", True),
    ("false", False), ("NO", False), ("off", False), ("0", False),
])
def test_bool_options_read_text(given: object, value: bool) -> None:
    assert FAST.validate(given) is value


@pytest.mark.parametrize("given", ["maybe", "", 1, 0, None, "tru"])
def test_bool_options_refuse_anything_else(given: object) -> None:
    with pytest.raises(OptionError, match="fast takes true or false"):
        FAST.validate(given)


@pytest.mark.parametrize(("given", "value"), [
    ("first", "first"), ("FIRST", "first"), (" Same_Round ", "same_round"),
])
def test_choice_options_ignore_case_and_spaces(given: str, value: str) -> None:
    assert FINISH.validate(given) == value


@pytest.mark.parametrize("given", ["last", "same round", "", 1, None])
def test_choice_options_refuse_others_naming_the_choices(given: object) -> None:
    with pytest.raises(OptionError, match="finish takes one of first, same_round"):
        FINISH.validate(given)


def test_text_options_take_any_text_only() -> None:
    assert BOARD.validate(" my board.json ") == " my board.json "
    with pytest.raises(OptionError, match="board takes text"):
        BOARD.validate(3)


def test_allowed_values_read_as_words() -> None:
    assert [spec.allowed() for spec in (LENGTH, FAST, FINISH, BOARD)] == [
        "a whole number from 10 to 200", "true or false", "one of first, same_round", "text"]


def test_resolve_options_fills_defaults_and_converts_text() -> None:
    specs = (LENGTH, FAST, FINISH)
    assert resolve_options("g", specs, {}) == {"length": 50, "fast": False, "finish": "first"}
    assert resolve_options("g", specs, {"length": "30", "fast": "yes"}) == {
        "length": 30, "fast": True, "finish": "first"}


def test_resolve_options_names_the_options_there_are() -> None:
    with pytest.raises(OptionError) as info:
        resolve_options("g", (LENGTH, FAST), {"colour": "red", "length": 20})
    assert str(info.value) == "g has no option 'colour'; its options are: length, fast"
    with pytest.raises(OptionError, match="its options are: none"):
        resolve_options("g", (), {"length": 20})


def test_option_pairs_split_on_the_first_equals_sign() -> None:
    assert parse_option_pairs([]) == {}
    assert parse_option_pairs(["length=30", " fast = yes ", "board=a=b.json", "x="]) == {
        "length": "30", "fast": "yes", "board": "a=b.json", "x": ""}


@pytest.mark.parametrize("pair", ["length", "=30", " =30", ""])
def test_malformed_option_pairs_are_refused(pair: str) -> None:
    with pytest.raises(OptionError) as info:
        parse_option_pairs(["fast=yes", pair])
    assert str(info.value) == f"option {pair!r} is not of the form name=value"


# ----------------------------------------------------------------------- dice


def test_uniform_gives_each_outcome_the_same_exact_chance() -> None:
    assert uniform(range(1, 4)) == ((1, Fraction(1, 3)), (2, Fraction(1, 3)),
                                    (3, Fraction(1, 3)))
    with pytest.raises(ValueError, match="at least one outcome"):
        uniform([])


def test_two_coin_dice_as_multisets() -> None:
    assert multisets((1, 2), 2) == (((1, 1), Fraction(1, 4)), ((1, 2), Fraction(1, 2)),
                                    ((2, 2), Fraction(1, 4)))


@pytest.mark.parametrize(("faces", "dice", "count"), [
    (range(1, 7), 5, 252), (("red", "yellow", "green", "blue", "white", "purple"), 6, 462),
    (range(1, 7), 1, 6), (range(1, 7), 2, 21),
])
def test_multisets_count_and_sum_to_one(faces: Any, dice: int, count: int) -> None:
    distribution = multisets(tuple(faces), dice)
    assert len(distribution) == count
    assert sum(p for _, p in distribution) == 1
    assert len({outcome for outcome, _ in distribution}) == count
    order = {face: index for index, face in enumerate(faces)}
    for outcome, _ in distribution:
        assert list(outcome) == sorted(outcome, key=order.__getitem__)


def test_multisets_agree_with_counting_every_ordering() -> None:
    faces, dice = (1, 2, 3, 4), 3
    counts = Counter(tuple(sorted(roll)) for roll in itertools.product(faces, repeat=dice))
    assert dict(multisets(faces, dice)) == {
        outcome: Fraction(n, len(faces) ** dice) for outcome, n in counts.items()}


class TicketMachine(random.Random):
    """A fake generator whose ``randrange`` hands out 0, 1, 2, ... in turn."""

    def __init__(self) -> None:
        super().__init__(0)
        self.next_ticket = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1, "sample draws one ticket from range(denominator)"
        ticket = self.next_ticket % start
        self.next_ticket += 1
        return ticket


def test_sample_maps_every_ticket_to_exactly_its_outcomes_share() -> None:
    distribution = multisets(tuple(range(1, 7)), 3)  # denominator 216
    machine = TicketMachine()
    drawn = Counter(sample(distribution, machine) for _ in range(216))
    assert {outcome: Fraction(n, 216) for outcome, n in drawn.items()} == dict(distribution)


def test_sample_is_reproducible_and_close_to_the_distribution() -> None:
    distribution = multisets(tuple(range(1, 7)), 2)
    first = [sample(distribution, random.Random(3)) for _ in range(5)]
    assert first == [sample(distribution, random.Random(3)) for _ in range(5)]
    rng = random.Random(12)
    draws = 36_000
    counts = Counter(sample(distribution, rng) for _ in range(draws))
    assert set(counts) == {outcome for outcome, _ in distribution}, "an outcome never came"
    for outcome, probability in distribution:
        # 0.01 is more than 8 standard deviations for every outcome here.
        assert abs(counts[outcome] / draws - float(probability)) < 0.01, outcome


def test_sample_and_below_draw_exactly_what_randrange_draws() -> None:
    """The fast draw for a plain ``random.Random`` repeats ``randrange``'s rejection loop,
    so seeded games are the same as when every draw went through ``randrange``."""
    fast, reference = random.Random(7), random.Random(7)
    for n in (*range(1, 70), 216, 462, 1000, 2**20 + 1):
        assert [below(fast, n) for _ in range(20)] == [reference.randrange(n) for _ in range(20)]
    for distribution in (uniform(range(1, 7)), uniform(range(1, 6)), multisets((1, 2, 3), 2),
                         multisets(tuple(range(1, 7)), 3)):
        outcomes = [outcome for outcome, _ in distribution]
        denominator = math.lcm(*(p.denominator for _, p in distribution))
        bounds = list(itertools.accumulate(p * denominator for _, p in distribution))
        for _ in range(200):
            ticket = reference.randrange(denominator)
            expected = outcomes[next(i for i, bound in enumerate(bounds) if ticket < bound)]
            assert sample(distribution, fast) == expected


def test_sample_refuses_probabilities_that_do_not_sum_to_one() -> None:
    with pytest.raises(ValueError, match="sum to 5/6, not 1"):
        sample(tuple((face, Fraction(1, 6)) for face in range(5)), random.Random(0))


# ----------------------------------------------------------------------- registry


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(OptionError) as info:
        dicegames.make("chess")
    ids = ", ".join(spec.id for spec in dicegames.games())
    assert str(info.value) == f"unknown game 'chess'; the games are: {ids}"
    assert "extra-meters" in ids


@pytest.mark.parametrize("players", [1, 9, True, "2", 2.0])
def test_player_counts_must_be_whole_numbers_in_range(players: Any) -> None:
    with pytest.raises(OptionError, match=r"extra-meters is for 2 to 8 players, not "):
        dicegames.make("extra-meters", players=players)


def test_games_are_found_by_id_or_alias_in_any_case() -> None:
    assert registry.game_class(" Meters ") is registry.game_class("extra-meters")
    assert "extra-meters" in [spec.id for spec in dicegames.games()]


def test_register_refuses_a_second_game_with_the_same_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_DEFINITIONS", dict(registry._DEFINITIONS))
    monkeypatch.setattr(registry, "_ALIASES", dict(registry._ALIASES))
    monkeypatch.setattr(registry, "_BY_CLASS", dict(registry._BY_CLASS))
    original = registry.game_class("extra-meters")
    # registering again changes nothing
    assert registry.register(original) is registry.definition("extra-meters")

    class Impostor(original):  # type: ignore[valid-type,misc]
        pass

    with pytest.raises(ValueError, match="'extra-meters' is already registered"):
        registry.register(Impostor)
    assert registry.game_class("extra-meters") is original


def test_games_compare_by_id_players_and_options() -> None:
    game = dicegames.make("extra-meters", players=3, track_length=30)
    assert game == dicegames.make("meters", players=3, track_length="30")
    assert hash(game) == hash(dicegames.make("meters", players=3, track_length=30))
    assert game != dicegames.make("extra-meters", players=3)
    assert game != dicegames.make("extra-meters", players=2, track_length=30)
    assert eval(repr(game), {"dicegames": dicegames}) == game
    assert game.new_state() != dicegames.make("extra-meters", players=3).new_state()


# ----------------------------------------------------------------------- results


def test_result_ranks_the_winners_first_then_by_score_with_ties() -> None:
    result = Result.from_scores([0], [10, 5, 5, 7], "A wins")
    assert result.ranks == (1, 3, 3, 2)
    assert result.winners == (0,)
    assert result.returns() == (1.0, 0.0, 0.0, 0.0)
    assert result.to_json() == {"winners": [0], "scores": [10, 5, 5, 7],
                                "ranks": [1, 3, 3, 2], "summary": "A wins"}


def test_a_shared_win_splits_the_return() -> None:
    result = Result.from_scores([2, 0], [12, 5, 11, 6])
    assert result.winners == (0, 2)
    assert result.ranks == (1, 3, 1, 2)
    assert result.returns() == (0.5, 0.0, 0.5, 0.0)


def test_a_winner_with_a_lower_score_still_ranks_first() -> None:
    result = Result.from_scores([1], [40, 30, 40])
    assert result.ranks == (2, 1, 2)


def test_without_winners_ranks_start_at_one_and_nobody_gains() -> None:
    result = Result.from_scores([], [-200, 30])
    assert result.ranks == (2, 1)
    assert result.returns() == (0.0, 0.0)


# ----------------------------------------------------------------------- errors and bits


def test_user_errors_are_value_errors_and_dicegames_errors() -> None:
    for kind in (OptionError, IllegalAction, NotYourTurn, GameOver, Reroll, RecordError):
        assert issubclass(kind, ValueError)
        assert issubclass(kind, DiceGamesError)
    for kind in (NotYourTurn, GameOver, Reroll):
        assert issubclass(kind, IllegalAction)
    assert issubclass(GameNotOver, DiceGamesError)
    assert not issubclass(GameNotOver, ValueError)


def test_record_errors_name_the_move_when_there_is_one() -> None:
    located = RecordError("'x' is not a legal move here", 3)
    assert str(located) == "bad game record: move 3: 'x' is not a legal move here"
    assert (located.index, located.reason) == (3, "'x' is not a legal move here")
    header = RecordError("not a dicegames record")
    assert str(header) == "bad game record: not a dicegames record"
    assert header.index is None


def test_a_decision_node_needs_a_seat() -> None:
    assert Node.decision(2, 0).players == (2, 0)
    with pytest.raises(ValueError, match="at least one deciding seat"):
        Node.decision()


def test_spec_option_lookup() -> None:
    spec = dicegames.make("extra-meters").spec
    assert spec.option("finish").choices == ("first", "same_round")
    with pytest.raises(KeyError):
        spec.option("colour")


def test_notation_is_normalized_and_pass_reads_pass() -> None:
    assert normalize("  Roll   AGAIN\t") == "roll again"
    assert str(PASS) == "pass"
    assert PASS == "pass"


def test_the_result_of_an_unfinished_game_is_refused() -> None:
    with pytest.raises(GameNotOver, match="not over yet"):
        dicegames.make("extra-meters").new_state().result  # noqa: B018


# ----------------------------------------------------------------------- frozen data


def test_builder_makes_the_same_frozen_object_as_the_class() -> None:
    from dataclasses import FrozenInstanceError, dataclass, field

    from dicegames.core.frozen import builder

    @dataclass(frozen=True, slots=True)
    class Data:
        cells: tuple[int, ...]
        turn: int = 1
        cache: object = field(default=None, compare=False)

    build = builder(Data)
    built = build((1, 2), 7, "kept")
    assert type(built) is Data
    assert built == Data((1, 2), 7) and hash(built) == hash(Data((1, 2), 7))
    assert (built.cells, built.turn, built.cache) == ((1, 2), 7, "kept")
    assert built != Data((1, 2), 8)
    with pytest.raises(FrozenInstanceError):
        built.turn = 8  # type: ignore[misc]


def test_builder_refuses_classes_without_slots() -> None:
    from dataclasses import dataclass

    from dicegames.core.frozen import builder

    @dataclass(frozen=True)
    class Loose:
        turn: int

    with pytest.raises(TypeError, match="Loose is not a dataclass with slots"):
        builder(Loose)
