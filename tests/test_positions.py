"""Positions as text: documented examples, typed facts, and a refusal of each kind of bad
position in each game (the round trip on random playouts is in test_conformance.py).
"""

from __future__ import annotations

import random
import re

import pytest

import dicegames
from dicegames import PositionError
from dicegames.core.registry import configure
from dicegames.docs import game_text
from dicegames.games.extra.position import ExtraFacts
from dicegames.games.extra_meters.position import ExtraMetersFacts
from dicegames.games.monza.position import MonzaFacts
from dicegames.games.petits_chevaux.position import PetitsChevauxFacts
from dicegames.games.shortcut.position import ShortcutFacts
from test_simultaneous import shared_roll

GAME_IDS = [spec.id for spec in dicegames.games()]

BAD: list[tuple[str, dict[str, object], str, str]] = [
    # --- every game: the field count, the seat count, the seat to move, the phase word
    ("extra-meters", {}, "12/7 2 decide 3,5", "has 5 fields (runners to-move phase dice turn)"),
    ("extra-meters", {}, "12/7/3 2 decide 3,5 4", "3 runners for a 2-player game"),
    ("extra-meters", {}, "12/7 3 decide 3,5 4", "seat 3 is out of range"),
    ("extra-meters", {}, "12/7 2 thinking 3,5 4", "'thinking' is not one of opening, decide"),
    ("extra-meters", {}, "12/7 1 decide 3,5 4", "turn 4 is seat 2's"),
    ("extra-meters", {}, "12/x 2 decide 3,5 4", "a runner's square 'x' is not a whole number"),
    ("extra-meters", {}, "12/7 2 decide 3,6 4", "a die (a 6 ends the turn) 6 is out of range"),
    ("extra-meters", {}, "12/7 2 decide - 4", "has rolled at least one die"),
    ("extra-meters", {}, "12/7 2 opening 3 4", "no dice are on the table in phase opening"),
    ("extra-meters", {}, "51/7 2 opening - 4", "runner 1 is past square 50"),
    ("extra-meters", {}, "51/52 2 over - 4", "exactly one runner past square 50"),
    ("extra-meters", {}, "1/7 1 opening - 5", "runner 1 stands on square 1 after 2 turns"),
    ("extra-meters", {"finish": "same_round"}, "51/20 1 over - 5", "after the last seat's turn"),
    ("shortcut", {}, "a13/a13 1 declare -", "has 5 fields (cars to-move phase rolls turn)"),
    ("shortcut", {}, "a13 1 declare - 1", "1 cars for a 2-player game"),
    ("shortcut", {}, "z9/a13 1 declare - 1", "'z9' is not a cell of the board"),
    ("shortcut", {}, "b2/a13 1 declare - 1", "'b2' is not a cell of the board"),
    ("shortcut", {}, "c7/c7 1 declare - 1", "both on the grey cell c7: a grey cell holds one car"),
    ("shortcut", {}, "e13/a12 1 declare - 1", "car 1 is on the finish e13"),
    ("shortcut", {}, "a12/a11 2 over - 2", "a finished game has the car of the seat to move"),
    ("shortcut", {}, "a12/a11 2 choose - 2", "has rolled at least one 1-3"),
    ("shortcut", {}, "a12/a11 2 choose 1,4 2", "4 is out of range"),
    ("shortcut", {}, "a12/a11 2 declare 2 2", "no shortcut dice are on the table"),
    ("shortcut", {}, "a12/c7 2 road - 2", "on the grey cell c7: the road is not open"),
    ("shortcut", {}, "a12/a11 2 push - 2", "at most one destination"),
    ("shortcut", {}, "a12/a11 1 declare - 2", "turn 2 is seat 2's"),
    ("petits-chevaux", {}, "0,0,0,0/0,0,0,0 1 roll - 0", "has 6 fields (horses to-move phase"),
    ("petits-chevaux", {}, "0,0,0/0,0,0,0 1 roll - 0 1", "red has 3 horses: each colour has 4"),
    ("petits-chevaux", {}, "0,0,0,0,0/0,0,0,0 1 roll - 0 1", "red has 5 horses"),
    ("petits-chevaux", {}, "0,0,0,0 1 roll - 0 1", "1 colours' horses for a 2-player game"),
    ("petits-chevaux", {}, "0,0,0,57/0,0,0,0 1 roll - 0 1", "red's horse place 57 is out of"),
    ("petits-chevaux", {}, "0,0,0,s7/0,0,0,0 1 roll - 0 1", "red's stable square 7 is out of"),
    ("petits-chevaux", {}, "0,0,s2,s2/0,0,0,0 1 roll - 0 1", "two red horses on stable square"),
    ("petits-chevaux", {}, "0,0,0,29/0,0,0,1 1 roll - 0 1", "r4 and y4 share track square 28"),
    ("petits-chevaux", {}, "0,5,5,5/0,0,0,0 1 roll - 0 1", "a square holds at most two"),
    ("petits-chevaux", {}, "s3,s4,s5,s6/0,0,0,0 1 roll - 0 9", "so the game is over"),
    ("petits-chevaux", {}, "s3,s4,s5,s6/0,0,0,0 2 over - 0 9", "a finished game has the seat"),
    ("petits-chevaux", {}, "0,0,0,1/0,0,0,0 1 move - 0 3", "the player moves with a die"),
    ("petits-chevaux", {}, "0,0,0,1/0,0,0,0 1 move 6 0 3", "the count of 6s in a row is 1"),
    ("petits-chevaux", {}, "0,0,0,1/0,0,0,0 1 roll 4 0 3", "no die is on the table"),
    ("petits-chevaux", {"three_sixes_penalty": True}, "0,0,0,1/0,0,0,0 1 move 6 3 3",
     "(a third 6 ends the turn) 3 is out of range"),
    ("petits-chevaux", {}, "0,0,0,1/0,0,0,0 1 draw - 0 1", "the draw for the first player"),
    ("monza", {}, "start/start 1 roll - - 0/0 -", "has 8 fields (cars to-move phase dice"),
    ("monza", {}, "start/start/start 1 roll - - 0/0 - 1", "3 cars for a 2-player game"),
    ("monza", {}, "q7/start 1 roll - - 0/0 - 1", "'q7' is not a square of the circuit"),
    ("monza", {}, "m12/start 1 roll - - 0/0 - 1", "m12 is a tyre square"),
    ("monza", {}, "m5/m5 1 roll - - 0/0 - 1", "both on m5: a square holds one car"),
    ("monza", {}, "m5/start 1 step RYyybgg y 0/0 - 1", "is not six dice"),
    ("monza", {}, "m5/start 1 step RYyybq y 0/0 - 1", "is not six dice"),
    ("monza", {}, "m5/start 1 step RYyybg - 0/0 - 1", "give the colour of the last one"),
    ("monza", {}, "m5/start 1 step RYyybg b 0/0 - 1", "no blue die is used this turn"),
    ("monza", {}, "m5/start 1 roll RYyybg y 0/0 - 1", "not rolled yet in phase roll"),
    ("monza", {}, "m5/start 2 roll - - 3/4 - 2", "seat 2 has not finished a move"),
    ("monza", {}, "m5/start 1 roll - - 0/0 - 2", "turn 2 is seat 2's"),
    ("monza", {}, "i22/start 2 roll - - 5/0 - 2", "the last round is on"),
    ("monza", {}, "m5/start 2 over - - 5/0 final 2", "with a car on a target"),
    ("monza", {}, "m5/start 2 variant RYyybg y 5/2 - 2", "variant_last_colour=true"),
    ("monza", {}, "start/start 1 stuck - - 0/0 - 1", "stuck before the roll only on a target"),
    ("extra", {}, "-;-,-,- 1 - - 1", "one per seat"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 - -", "has 5 fields (sheets roller roll decisions turn)"),
    ("extra", {}, "7=14;-,-,-/-;-,-,- 1 - - 9", "row 7 has 14 crosses but only 13 boxes"),
    ("extra", {}, "13=1;-,-,-/-;-,-,- 1 - - 9", "sum 13 is out of range"),
    ("extra", {}, "7=1;3x11,-,-/-;-,-,- 1 - - 20", "column a has 11 crosses but only 10 boxes"),
    ("extra", {}, "7=1;3x2,3x1,-/-;-,-,- 1 - - 9", "the EXTRA number 3 heads two columns"),
    ("extra", {}, "7=1;3x2,-/-;-,-,- 1 - - 9", "2 EXTRA columns"),
    ("extra", {}, "7=1;3x0,-,-/-;-,-,- 1 - - 9", "the crosses of column a 0 is out of range"),
    ("extra", {}, "7=1;3x10,4x9,-/-;-,-,- 1 - - 30", "two full EXTRA columns"),
    ("extra", {}, "7=9;3x2,-,-/-;-,-,- 1 - - 3", "more crosses than 2 rolls give"),
    ("extra", {}, "7=1;3x10,-,-/-;-,-,- 1 - - 20", "seat 1 has stopped"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 1223 - 1", "'1223' is not five dice"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 12235 - 1", "1 decisions for a 2-player game"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 12235 2+2,1+5,x3a/2+2,1+5,x3b 1", "every playing seat"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 12235 2+2,1+6,x3a/? 1", "is not a decision on the roll"),
    ("extra", {}, "-;-,-,-/-;-,-,- 1 - ?/? 1", "nobody decides before the roll"),
    ("extra", {}, "-;-,-,-;7/-;-,-,- 1 - - 1", "only a seat playing the children's rows"),
    ("extra", {"children": True, "children_rule": "rows"}, "7=1;3x1,-,-/-;-,-,- 1 - - 3",
     "is crossed only after its sum was noted"),
]


@pytest.mark.parametrize(("game_id", "options", "text", "fragment"), BAD,
                         ids=[f"{g}:{t}" for g, _, t, _ in BAD])
def test_bad_positions_are_refused_with_a_reason(game_id: str, options: dict[str, object],
                                                 text: str, fragment: str) -> None:
    game = configure(game_id, None, options)  # the default player count: 2 seats
    with pytest.raises(PositionError) as info:
        game.from_position(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seat_counts_the_game_does_not_allow_are_refused(game_id: str) -> None:
    spec = dicegames.make(game_id).spec
    text = dicegames.make(game_id, players=spec.max_players).position(
        dicegames.make(game_id, players=spec.max_players).new_state())
    first, _, rest = text.partition(" ")
    crowded = "/".join([first.split("/")[0]] * (spec.max_players + 1)) + " " + rest
    with pytest.raises(PositionError) as info:
        dicegames.from_position(game_id, crowded)
    assert f"{spec.min_players} to {spec.max_players} players" in str(info.value)
    game = dicegames.make(game_id, players=spec.max_players)
    with pytest.raises(PositionError):
        game.from_position(dicegames.make(game_id, players=spec.min_players).position(
            dicegames.make(game_id, players=spec.min_players).new_state()))


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_positions_are_refused(game_id: str, text: str) -> None:
    with pytest.raises(PositionError):
        dicegames.from_position(game_id, text)
    with pytest.raises(PositionError):
        dicegames.make(game_id).from_position(text)


def documented_positions(game_id: str) -> list[str]:
    """The example positions of a rules page: the first column of its Positions table."""
    section = game_text(game_id).split("## Positions", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([^`]+)` \|", section, re.MULTILINE)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_documented_examples_are_positions(game_id: str) -> None:
    examples = documented_positions(game_id)
    assert len(examples) >= 3, f"{game_id}'s rules page needs a table of example positions"
    for text in examples:
        state = dicegames.from_position(game_id, text)
        assert state.game.position(state) == text, "documented examples are canonical"


def test_extra_meters_facts() -> None:
    state = dicegames.from_position("extra-meters", "12/7 2 decide 3,5 4")
    facts = state.game.facts(state)
    assert isinstance(facts, ExtraMetersFacts)
    assert facts == ExtraMetersFacts(to_move=1, turn=4, phase="decide", over=False, winners=(),
                                     runners=(12, 7), dice=(3, 5))
    assert state.legal_actions(1) == state.legal_actions()
    assert [str(a) for a in state.legal_actions()] == ["roll", "stop"]
    after = state.apply("stop")
    moved = after.game.facts(after)
    assert isinstance(moved, ExtraMetersFacts)
    assert moved.runners == (12, 15)


def test_shortcut_facts() -> None:
    state = dicegames.from_position("shortcut", "a12/b7 2 choose 1,2 4")
    facts = state.game.facts(state)
    assert isinstance(facts, ShortcutFacts)
    assert (facts.cars, facts.rolls, facts.to_move, facts.phase) == (("a12", "b7"), (1, 2), 1,
                                                                     "choose")
    assert "b6" in [str(a) for a in state.legal_actions()]


def test_petits_chevaux_facts() -> None:
    state = dicegames.from_position("petits-chevaux", "0,0,12,s3/30,0,0,0 2 move 6 1 14")
    facts = state.game.facts(state)
    assert isinstance(facts, PetitsChevauxFacts)
    assert facts.colours == ("red", "yellow")
    red, yellow = facts.horses
    assert [h.progress for h in red] == [0, 0, 12, 59]
    assert (red[2].square, red[2].stable, red[3].square, red[3].stable) == (11, 0, None, 3)
    assert (yellow[0].colour, yellow[0].number, yellow[0].square) == ("yellow", 1, 1)
    assert (facts.roll, facts.sixes, facts.to_move) == (6, 1, 1)
    assert [str(a) for a in state.legal_actions()] == ["out", "y1"]


def test_monza_facts() -> None:
    state = dicegames.from_position("monza", "m5/start 1 step RYyybg y 0/0 - 3")
    facts = state.game.facts(state)
    assert isinstance(facts, MonzaFacts)
    assert facts.cars == ("m5", "start")
    assert facts.roll == ("red", "yellow", "yellow", "yellow", "green", "blue")
    assert facts.unused == ("yellow", "yellow", "green", "blue")
    assert (facts.last, facts.round_used, facts.final_round) == ("yellow", (0, 0), False)
    assert state.game.position(state) == "m5/start 1 step RYyygb y 0/0 - 3"


def test_extra_facts() -> None:
    text = "6=3,8=7;3x4,5x1,-/7=2;-,2x1,- 1 12235 ?/2+2,1+5,x3a 9"
    state = dicegames.from_position("extra", text)
    facts = state.game.facts(state)
    assert isinstance(facts, ExtraFacts)
    first, second = facts.sheets
    assert first.rows[6 - 2] == 3 and first.rows[8 - 2] == 7 and sum(first.rows) == 10
    assert (first.numbers, first.marks, first.stopped) == ((3, 5, 0), (4, 1, 0), False)
    assert (second.numbers, second.marks) == ((0, 2, 0), (0, 1, 0))
    assert facts.roll == (1, 2, 2, 3, 5)
    assert facts.decisions == (None, "2+2 1+5 x3a")
    assert state.current_players == (0,)


def test_a_position_started_game_plays_on_and_keeps_its_position() -> None:
    game = dicegames.make("petits-chevaux")
    state = game.from_position("s3,s4,s5,0/0,0,0,0 1 roll - 0 30")
    rng = random.Random(3)
    while not state.is_terminal:
        state = state.apply(rng.choice([o for o, _ in state.chance_outcomes()])
                            if state.is_chance else rng.choice(state.legal_actions()))
    assert game.from_position(game.position(state)) == state


def test_extra_children_rows_positions_round_trip() -> None:
    for options in ({"children": True, "children_rule": "rows"},
                    {"child_seats": "2", "children_rule": "rows"},
                    {"child_seats": "1,3"}):
        game = dicegames.make("extra", players=3, **options)
        rng = random.Random(7)
        state = game.new_state()
        while not state.is_terminal:
            assert game.from_position(game.position(state)) == state
            if state.is_chance:
                state = state.apply(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                seat = rng.choice(state.current_players)
                state = state.apply(rng.choice(state.legal_actions(seat)), seat)
        assert game.from_position(game.position(state)) == state


@pytest.mark.parametrize("typed", ["1+5 2+2 x3a", "5+1 2+2 x3a", "2+2 5+1 x3a", "2+2 1+5 x3a",
                                   "5+1,2+2,x3a", " 2+2   5+1  X3A "])
def test_extra_decision_pairs_in_any_order(typed: str) -> None:
    game = dicegames.make("extra")
    state = game.new_state().apply("1 2 2 3 5")
    assert str(game.parse(state, typed, 0)) == "2+2 1+5 x3a"


@pytest.mark.parametrize(("typed", "fragment"), [
    ("1+5 2+3 x3a", "does not split the roll 1 2 2 3 5"),
    ("1+5 2+2 x3", "3 is not an EXTRA number yet"),
    ("1+5 2+2 x3z", "after the two pairs comes the EXTRA part"),
])
def test_extra_decision_errors_say_why(typed: str, fragment: str) -> None:
    game = dicegames.make("extra")
    state = game.new_state().apply("1 2 2 3 5")
    with pytest.raises(dicegames.IllegalAction) as info:
        game.parse(state, typed, 0)
    assert fragment in str(info.value)


def test_extra_decision_in_a_taken_column_says_so() -> None:
    game = dicegames.make("extra", players=1)
    state = game.from_position("7=2;3x1,-,- 1 12235 ? 2")
    with pytest.raises(dicegames.IllegalAction) as info:
        game.parse(state, "5+1 2+2 x3a", 0)
    assert "column a already holds the EXTRA number 3" in str(info.value)
    assert str(game.parse(state, "5+1 2+2 x3", 0)) == "2+2 1+5 x3"


def test_a_game_without_a_notation_says_so_and_still_has_facts() -> None:
    game = shared_roll(2)
    state = game.new_state()
    with pytest.raises(PositionError, match="has no position notation"):
        game.position(state)
    with pytest.raises(PositionError, match="has no position notation"):
        game.from_position("anything 1")
    facts = game.facts(state)
    assert (facts.to_move, facts.turn, facts.over, facts.winners) == (
        state.turn.seat, state.turn.number, False, ())
