"""Sessions (events, undo), the match runner, and game records: saving, loading, tampering."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dicegames
from dicegames import (
    EventKind,
    GameOver,
    IllegalAction,
    PlayerInfo,
    RecordError,
    Session,
    State,
)
from dicegames.bots import RandomBot
from dicegames.core.match import ScriptExhausted
from dicegames.core.session import DiceMode


def new_session(players: int = 2, **options: object) -> Session:
    """A fresh extra-meters session with named players."""
    game = dicegames.make("extra-meters", players=players, **options)
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    return Session(game, [PlayerInfo(name) for name in names], seed=7)


def played(session: Session, moves: list[str]) -> Session:
    """The session after the notation ``moves``."""
    for move in moves:
        session.apply(move)
    return session


FINISHED = ["5", "stop", "1", "stop", "5", "roll", "2", "stop"]
"""A whole game on a 10-square track: Ann reaches 5, Bob 1, then Ann passes 10 with 12."""


def finished_session() -> Session:
    """A finished two-player game on a 10-square track."""
    return played(new_session(track_length=10), FINISHED)


# ----------------------------------------------------------------------- sessions and events


def test_players_default_to_numbered_names_and_must_fit_the_game() -> None:
    game = dicegames.make("extra-meters", players=3)
    session = Session(game)
    assert [session.name(seat) for seat in range(3)] == ["Player 1", "Player 2", "Player 3"]
    assert session.name(None) == "Dice"
    assert not session.players[0].is_bot
    assert PlayerInfo("Robo", "bot:medium").is_bot
    with pytest.raises(ValueError, match="2 players given for a 3-player game"):
        Session(game, [PlayerInfo("A"), PlayerInfo("B")])


def test_a_roll_a_decision_and_a_new_turn_make_events() -> None:
    session = new_session()
    (roll,) = session.apply("5")
    assert (roll.kind, roll.seat, roll.text, roll.turn) == (EventKind.ROLL, 0, "5", 1)
    assert roll.description == "Ann rolls 5"
    (move,) = session.apply("roll")
    assert (move.kind, move.seat, move.text, move.turn) == (EventKind.MOVE, 0, "roll", 1)
    roll, turn = session.apply("6")
    assert (roll.kind, roll.seat, roll.text) == (EventKind.ROLL, 0, "6")
    assert "moves 2 squares" in roll.description
    assert (turn.kind, turn.seat, turn.text, turn.turn) == (EventKind.TURN, 1, "", 2)
    assert turn.description == "Bob's turn"
    assert [(entry.seat, entry.text) for entry in session.moves] == [
        (None, "5"), (0, "roll"), (None, "6")]
    assert len(session.states) == 4
    assert session.state is session.states[-1]


def test_the_winning_move_ends_with_a_game_over_event() -> None:
    session = played(new_session(track_length=10), FINISHED[:-1])
    move, over = session.apply("stop")
    assert move.kind is EventKind.MOVE
    assert move.description == "Ann stops and moves 5+2 = 7 squares to square 12"
    assert over.kind is EventKind.GAME_OVER
    assert over.seat is None
    assert over.result == session.state.result
    assert over.result is not None
    assert over.result.winners == (0,)
    assert over.description == "Ann wins: past square 10 in round 2"


def test_an_illegal_move_leaves_the_session_as_it_was() -> None:
    session = played(new_session(), ["3"])
    states, moves = session.states, session.moves
    for bad, seat in (("jump", None), ("roll", 1), ("4", None), (object(), None)):
        with pytest.raises(IllegalAction):
            session.apply(bad, seat)
    assert session.states == states
    assert session.moves == moves


def test_nothing_can_be_played_after_the_end() -> None:
    session = finished_session()
    count = len(session.moves)
    for move in ("roll", "3"):
        with pytest.raises(GameOver):
            session.apply(move)
    assert len(session.moves) == count


# ----------------------------------------------------------------------- undo


def test_undo_restores_the_previous_state() -> None:
    session = played(new_session(), ["4", "roll", "2"])
    before = session.states[:-1]
    event = session.undo()
    assert (event.kind, event.seat, event.text) == (EventKind.UNDO, None, "2")
    assert event.description == "Dice takes back 2"
    assert session.states == before
    assert len(session.moves) == 2
    event = session.undo()
    assert (event.kind, event.seat, event.text, event.turn) == (EventKind.UNDO, 0, "roll", 1)
    assert event.description == "Ann takes back roll"
    assert session.state == session.game.new_state().apply("4")


def test_undo_with_nothing_played_is_refused() -> None:
    session = new_session()
    assert not session.can_undo()
    assert not session.can_undo(0)
    with pytest.raises(IndexError, match="no move to undo"):
        session.undo()


def test_a_player_may_take_back_only_their_own_last_decision() -> None:
    session = played(new_session(), ["4"])
    assert session.can_undo()  # the dice can be taken back by whoever runs the game
    assert not session.can_undo(0)  # ... but not by a player: it was a roll
    session.apply("stop")
    assert session.can_undo(0)
    assert not session.can_undo(1)
    session.apply("2")
    assert not session.can_undo(0), "a roll came after Ann's decision"
    session.apply("roll")
    assert session.can_undo(1)
    assert not session.can_undo(0)


def test_undo_then_a_different_move_changes_the_record() -> None:
    session = played(new_session(), ["4", "roll"])
    session.undo()
    session.apply("stop")
    assert [entry.text for entry in session.moves] == ["4", "stop"]
    assert dicegames.to_record(session)["moves"] == ["4", "stop"]


# ----------------------------------------------------------------------- the match runner


def test_play_runs_a_whole_game_and_reports_every_event() -> None:
    session = new_session(track_length=20)
    events: list[dicegames.Event] = []
    rng = random.Random(3)
    result = dicegames.play(session, [RandomBot(rng), RandomBot(rng)],
                            dicegames.RandomDice(rng), events.append)
    assert result is not None
    assert result == session.state.result
    assert [e for e in events if e.kind in (EventKind.ROLL, EventKind.MOVE)] != []
    assert len([e for e in events if e.kind in (EventKind.ROLL, EventKind.MOVE)]) == len(
        session.moves)
    assert events[-1].kind is EventKind.GAME_OVER


def test_play_stops_after_max_moves_and_can_go_on() -> None:
    session = new_session()
    rng = random.Random(1)
    agents = [RandomBot(rng), RandomBot(rng)]
    assert dicegames.play(session, agents, dicegames.RandomDice(rng), max_moves=3) is None
    assert len(session.moves) == 3
    assert dicegames.play(session, agents, dicegames.RandomDice(rng)) is not None


def test_play_needs_one_agent_per_seat() -> None:
    with pytest.raises(ValueError, match="1 agents for a 2-player game"):
        dicegames.play(new_session(), [RandomBot(random.Random(0))],
                       dicegames.RandomDice(random.Random(0)))


def test_scripted_dice_that_run_out_leave_the_session_intact() -> None:
    session = new_session()
    agents = [RandomBot(random.Random(0)), RandomBot(random.Random(1))]
    with pytest.raises(ScriptExhausted, match="ran out after 1 rolls"):
        dicegames.play(session, agents, dicegames.ScriptedDice(["2"]))
    assert session.moves[0].text == "2"


def test_scripted_dice_are_checked_when_used() -> None:
    with pytest.raises(IllegalAction):
        dicegames.play(new_session(), [RandomBot(random.Random(0))] * 2,
                       dicegames.ScriptedDice(["9"]))


def test_manual_dice_ask_again_until_the_dice_are_possible() -> None:
    answers = iter(["seven", "6", " 3 "])
    problems: list[str | None] = []

    def ask(state: State[Any, Any, Any], problem: str | None) -> str:
        problems.append(problem)
        return next(answers)

    outcome = dicegames.ManualDice(ask).roll(new_session().state)
    assert outcome == 3
    assert problems[0] is None
    assert problems[1] is not None
    assert "'seven' is not a possible roll here; possible: 1, 2, 3, 4, 5" in problems[1]
    assert problems[2] is not None
    assert "rolled again" in problems[2]


# ----------------------------------------------------------------------- records


def test_a_record_holds_everything_needed_to_replay() -> None:
    session = finished_session()
    record = dicegames.to_record(session)
    assert record["format"] == "dicegames-record"
    assert record["version"] == 1
    assert record["game"] == "extra-meters"
    assert record["options"] == {"track_length": 10, "finish": "first"}
    assert record["players"] == [{"name": "Ann", "kind": "human"},
                                 {"name": "Bob", "kind": "human"}]
    assert record["dice"] == "auto" and record["seed"] == 7
    assert record["moves"] == FINISHED
    assert record["result"]["winners"] == [0]
    assert record["result"]["scores"] == [12, 1]
    assert isinstance(record["saved"], str)
    assert dicegames.to_record(new_session())["result"] is None


@pytest.mark.parametrize("moves", [[], ["4", "roll"], FINISHED])
def test_save_and_load_round_trip(tmp_path: Path, moves: list[str]) -> None:
    session = played(new_session(track_length=10), moves)
    session.players = (PlayerInfo("Ann"), PlayerInfo("Robo", "bot:medium"))
    path = dicegames.save(session, tmp_path / "games" / "one.json")
    assert path == tmp_path / "games" / "one.json"
    loaded = dicegames.load(path)
    assert loaded.states == session.states
    assert loaded.moves == session.moves
    assert loaded.players == session.players
    assert loaded.seed == 7
    assert loaded.game == session.game
    assert list(tmp_path.rglob(".dicegames-*")) == []


def test_a_game_started_from_a_position_keeps_it_in_its_record(tmp_path: Path) -> None:
    game = dicegames.make("extra-meters", track_length=10)
    start = game.from_position("8/9 1 decide 1 5")
    session = Session(game, seed=3, start=start)
    session.apply("roll")
    session.apply("2")
    session.apply("stop")
    assert session.states[0] == start
    assert session.position == "8/9 1 decide 1 5"
    record = dicegames.to_record(session)
    assert (record["version"], record["position"]) == (2, "8/9 1 decide 1 5")
    assert record["moves"] == ["roll", "2", "stop"]
    loaded = dicegames.load(dicegames.save(session, tmp_path / "p.json"))
    assert loaded.states == session.states
    assert loaded.position == session.position
    assert loaded.state.is_terminal and loaded.state.result.winners == (0,)
    assert "position" not in dicegames.to_record(new_session())
    with pytest.raises(ValueError, match="is a state of"):
        Session(dicegames.make("extra-meters"), start=start)


def test_a_finished_record_without_its_result_still_loads() -> None:
    record = dicegames.to_record(finished_session())
    del record["result"]
    assert dicegames.from_record(record).state.is_terminal


def test_older_records_without_player_kinds_or_seed_load() -> None:
    record = dicegames.to_record(new_session())
    record["players"] = [{"name": "Ann"}, {"name": "Bob"}]
    del record["seed"]
    loaded = dicegames.from_record(record)
    assert loaded.players == (PlayerInfo("Ann"), PlayerInfo("Bob"))
    assert loaded.seed is None


@pytest.mark.parametrize(("dice", "seed"), [("manual", None), ("auto", 7), ("auto", None),
                                            ("manual", 12)])
def test_a_record_keeps_how_its_dice_are_rolled(dice: DiceMode, seed: int | None) -> None:
    game = dicegames.make("extra-meters", players=2, track_length=10)
    session = played(Session(game, seed=seed, dice=dice), ["4", "roll"])
    record = json.loads(json.dumps(dicegames.to_record(session)))
    assert (record["dice"], record["seed"]) == (dice, seed)
    loaded = dicegames.from_record(record)
    assert (loaded.dice, loaded.seed) == (dice, seed)


@pytest.mark.parametrize(("seed", "dice"), [(None, "manual"), (7, "auto")])
def test_records_from_before_the_dice_mode_read_it_from_the_seed(seed: int | None,
                                                                 dice: str) -> None:
    """Physical-dice games were saved with a null seed: that is how to tell them apart."""
    record = dicegames.to_record(new_session())
    del record["dice"]
    record["seed"] = seed
    assert dicegames.from_record(record).dice == dice


def test_a_bad_dice_mode_is_refused() -> None:
    with pytest.raises(RecordError, match="the record's dice must be one of auto, manual, "
                                          "not 'dice'"):
        dicegames.from_record(tampered(set_key("dice", "dice")))
    with pytest.raises(ValueError, match="dice must be one of auto, manual"):
        Session(dicegames.make("extra-meters"), dice="robot")  # type: ignore[arg-type]


def write(tmp_path: Path, content: str | bytes) -> Path:
    """A file holding ``content``."""
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_loading_a_file_that_is_not_json(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"is not valid JSON \(line 2: "):
        dicegames.load(write(tmp_path, '{"format":\n nope}'))
    with pytest.raises(RecordError, match="is not a text file"):
        dicegames.load(write(tmp_path, b"\xff\xfe\x00\x81"))
    with pytest.raises(RecordError, match="cannot read"):
        dicegames.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read"):
        dicegames.load(tmp_path)


def tampered(change: Callable[[dict[str, Any]], object], base: Session | None = None
             ) -> dict[str, Any]:
    """A finished game's record (or ``base``'s) after ``change`` edits it."""
    record = dicegames.to_record(base or finished_session())
    change(record)
    return json.loads(json.dumps(record))  # type: ignore[no-any-return]


def set_key(key: str, value: object) -> Callable[[dict[str, Any]], object]:
    """An edit that sets one key of a record."""
    return lambda record: record.__setitem__(key, value)


HEADER_DAMAGE: list[tuple[Any, str]] = [
    (set_key("format", "pgn"), "not a dicegames record (format should be 'dicegames-record')"),
    (lambda r: r.pop("format"), "not a dicegames record"),
    (set_key("version", 3), "record version 3 is newer than this dicegames (reads up to 2); "
                            "update dicegames"),
    (set_key("version", "1"), "the record has no whole-number version"),
    (set_key("version", True), "the record has no whole-number version"),
    (set_key("position", 7), "the record's 'position' must be a position text"),
    (set_key("position", "0/0 3 opening - 1"), "the record's position: bad For a Few Extra "
                                                "Meters position, field to-move"),
    (set_key("game", "chess"), "unknown game 'chess'; the games are: "),
    (set_key("game", 3), "the record's 'game' is missing or not a str"),
    (lambda r: r.pop("game"), "the record's 'game' is missing or not a str"),
    (set_key("options", [10]), "the record's 'options' is missing or not a dict"),
    (set_key("options", {"track_length": 5}), "track_length takes a whole number from 10 to"),
    (set_key("options", {"track_length": "ten"}), "option track_length='ten' is not allowed"),
    (set_key("options", {"colour": "red"}), "extra-meters has no option 'colour'"),
    (set_key("players", "Ann, Bob"), "the record's 'players' is missing or not a list"),
    (set_key("players", [{"name": "Ann"}]), "extra-meters is for 2 to 8 players, not 1"),
    (set_key("players", [{"name": "Ann"}, "Bob"]), "player 2 must be an object with a name"),
    (set_key("players", [{"name": "Ann"}, {"name": 2}]), "player 2 must be an object"),
    (set_key("players", [{"name": "Ann", "kind": 1}, {"name": "B"}]), "player 1 must be"),
    (set_key("moves", "5 stop"), "the record's 'moves' is missing or not a list"),
    (set_key("seed", "7"), "the record's seed must be a whole number or null"),
    (set_key("seed", False), "the record's seed must be a whole number or null"),
]


@pytest.mark.parametrize(("change", "reason"), HEADER_DAMAGE)
def test_a_damaged_header_is_refused_with_the_reason(change: Any, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(change))
    assert info.value.index is None
    assert reason in str(info.value)
    assert str(info.value).startswith("bad game record: ")


@pytest.mark.parametrize("data", [[], "record", 3, None])
def test_a_record_must_be_a_json_object(data: object) -> None:
    with pytest.raises(RecordError, match="a record is a JSON object"):
        dicegames.from_record(data)


@pytest.mark.parametrize("index", [0, 1, 4, 7])
def test_an_illegal_move_is_named_by_its_index(index: int) -> None:
    def damage(record: dict[str, Any]) -> None:
        record["moves"][index] = "jump"

    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(damage))
    assert info.value.index == index
    assert str(info.value).startswith(f"bad game record: move {index}: 'jump' is not a ")
    assert info.value.reason.startswith("'jump' is not a ")


def test_a_move_that_is_not_text_is_named_by_its_index() -> None:
    def damage(record: dict[str, Any]) -> None:
        record["moves"][2] = 5

    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(damage))
    assert info.value.index == 2
    assert "5 is not a move in notation" in str(info.value)


def test_a_reroll_and_moves_after_the_end_are_refused() -> None:
    def opening_six(record: dict[str, Any]) -> None:
        record["moves"][0] = "6"

    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(opening_six))
    assert info.value.index == 0
    assert "rolled again" in str(info.value)

    def beyond(record: dict[str, Any]) -> None:
        record["moves"].append("3")

    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(beyond))
    assert info.value.index == len(FINISHED)
    assert "the game is over" in str(info.value)


@pytest.mark.parametrize("result", [
    {"winners": [1], "scores": [12, 1], "ranks": [2, 1], "summary": "Bob wins"},
    {"winners": [0], "scores": [12, 11], "ranks": [1, 2], "summary": ""},
    {"winners": [0]},
    "Ann wins",
    [0],
])
def test_a_tampered_result_is_refused(result: object) -> None:
    with pytest.raises(RecordError) as info:
        dicegames.from_record(tampered(set_key("result", result)))
    assert "the stored result does not match the replay (the moves give winners [0], " \
           "scores [12, 1])" in str(info.value)


def test_a_result_on_an_unfinished_game_is_refused() -> None:
    record = tampered(set_key("result", {"winners": [0], "scores": [5, 0]}),
                      played(new_session(), ["5", "stop"]))
    with pytest.raises(RecordError, match="states a result, but its moves do not finish"):
        dicegames.from_record(record)


@pytest.mark.parametrize("name", ["players", "game_id"])
def test_an_option_named_like_a_parameter_of_make_is_refused(name: str) -> None:
    with pytest.raises(RecordError, match=f"no option '{name}'"):
        dicegames.from_record(tampered(set_key("options", {name: 3})))


# ----------------------------------------------------------------------- atomic saves


def test_a_failed_save_leaves_the_old_file_intact(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = dicegames.save(played(new_session(), ["4"]), tmp_path / "game.json")
    old = path.read_text(encoding="utf-8")

    def broken_dumps(*args: object, **kwargs: object) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(json, "dumps", broken_dumps)  # the record module uses json.dumps
    with pytest.raises(RuntimeError, match="disk on fire"):
        dicegames.save(finished_session(), path)
    assert path.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_a_save_interrupted_while_writing_leaves_no_trace(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = dicegames.save(played(new_session(), ["4"]), tmp_path / "game.json")
    old = path.read_text(encoding="utf-8")

    def no_sync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_sync)
    with pytest.raises(OSError, match="No space left"):
        dicegames.save(finished_session(), path)
    assert path.read_text(encoding="utf-8") == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert dicegames.load(path).states == played(new_session(), ["4"]).states


# ----------------------------------------------------------------------- fuzzing records

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
RECORD = dicegames.to_record(finished_session())


@given(key=st.sampled_from(sorted(RECORD)), value=JSON_VALUES)
def test_any_damaged_field_is_a_record_error_or_harmless(key: str, value: object) -> None:
    record = json.loads(json.dumps(RECORD))
    record[key] = value
    try:
        session = dicegames.from_record(record)
    except RecordError:
        return
    assert session.states[0] == session.game.new_state()


@given(index=st.integers(0, len(FINISHED) - 1), text=st.text(max_size=10))
def test_any_damaged_move_is_a_record_error_or_a_legal_move(index: int, text: str) -> None:
    record = json.loads(json.dumps(RECORD))
    record["moves"][index] = text
    try:
        session = dicegames.from_record(record)
    except RecordError as error:
        # The damaged move, a later one, or (index None) the stored result is refused.
        assert error.index is None or error.index >= index
        return
    assert len(session.moves) == len(FINISHED)
