"""The live match's pieces that need no server: plain text of boards, state JSON."""

from __future__ import annotations

import json
import random

import pytest
from rich.text import Text

import dicegames
from dicegames.core.chance import sample
from dicegames.core.registry import presenter_of
from dicegames.core.session import PlayerInfo, Session
from dicegames.web.live import LiveMatch, strip_markup

NAMES = [PlayerInfo("Ann [x]"), PlayerInfo("\\\\Ben\\\\"), PlayerInfo(":smile: Cy")]


@pytest.mark.parametrize("markup", ["[bold]a[/] b", "\\\\[bold]x", "\\\\\\\\[red]y[/]",
                                    "[#ff0000]z[/#ff0000]", "a [1] b [ c", "[@click]k[/]",
                                    "\\[ x ]", "no tags"])
def test_strip_markup_agrees_with_rich(markup: str) -> None:
    assert strip_markup(markup) == Text.from_markup(markup, emoji=False).plain


@pytest.mark.parametrize("game_id", [spec.id for spec in dicegames.games()])
def test_plain_boards_agree_with_rich_on_every_game(game_id: str) -> None:
    rng = random.Random(game_id)
    game = dicegames.make(game_id, players=3)
    session = Session(game, NAMES, 1)
    names = [p.name for p in NAMES]
    for _ in range(120):
        state = session.state
        markup = presenter_of(game).render(state, names)
        # Emoji codes (":smile:") stay as typed, as names do everywhere else on the page.
        assert strip_markup(markup) == Text.from_markup(markup, emoji=False).plain
        if state.is_terminal:
            break
        if state.is_chance:
            session.apply(sample(state.chance_outcomes(), rng))
        else:
            seat = state.current_players[0]
            session.apply(rng.choice(state.legal_actions(seat)), seat)


def test_viewer_message_is_the_viewer_state() -> None:
    game = dicegames.make("extra", players=2)
    session = Session(game, NAMES[:2], 3)
    match = LiveMatch("m1", session, "auto", {0: "t0", 1: "t1"}, None)
    session.apply(sample(session.state.chance_outcomes(), random.Random(1)))
    message = json.loads(match.viewer_message((0, 1)))
    assert message == {"type": "state", "state": json.loads(json.dumps(
        match.viewer_state((0, 1))))}
    assert message["state"]["node"]["deciding"] == [0, 1]
    assert set(message["state"]["hints"]) == {"0", "1"}
    spectator = match.viewer_state(())
    assert spectator["hints"] == {} and not spectator["can_undo"]


def test_choices_on_a_shared_roll_stay_sealed_until_everyone_has_chosen() -> None:
    game = dicegames.make("extra", players=3)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben"), PlayerInfo("Cy")], 5)
    match = LiveMatch("m2", session, "auto", {0: "t0", 1: "t1", 2: "t2"}, None)

    def play(move: object, seat: int | None = None) -> None:
        match.note(session.apply(move, seat))

    def log() -> list[str]:
        return [event["description"] for event in match.viewer_state((1,))["log"]]

    play(sample(session.state.chance_outcomes(), random.Random(2)))
    play(session.state.legal_actions(0)[0], 0)
    assert log()[-1] == "Ann has chosen"
    assert all(event["text"] == "" for event in match.viewer_state(())["log"][-1:])
    play(session.state.legal_actions(2)[0], 2)
    assert log()[-2:] == ["Ann has chosen", "Cy has chosen"]
    play(session.state.legal_actions(1)[0], 1)
    settled = log()
    assert not any("has chosen" in line for line in settled)
    assert settled[1].startswith("Ann records") and any(
        line.startswith("Cy records") for line in settled)
    # Undoing the last choice seals the others again.
    session.undo()
    match.forget_last()
    assert log()[-2:] == ["Ann has chosen", "Cy has chosen"]


def test_the_last_roll_stays_in_view_spent_after_the_move() -> None:
    game = dicegames.make("petits-chevaux", players=2)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], 1)
    match = LiveMatch("m3", session, "auto", {0: "t0", 1: "t1"}, None)
    assert match.viewer_state(())["view"]["dice"] == []
    session.apply("red")
    session.apply("6")
    assert [die["value"] for die in match.viewer_state(())["view"]["dice"]] == [6]
    assert not any(die.get("used") for die in match.viewer_state(())["view"]["dice"])
    session.apply("out")
    session.apply("3")
    session.apply("r1")
    # Ben is to roll: the view shows Ann's 3, spent.
    assert session.state.is_chance
    assert match.viewer_state(())["view"]["dice"] == [
        {**die, "used": True} for die in presenter_of(game).view(session.states[-2])["dice"]]
    assert match.viewer_state(())["view"]["dice"][0]["value"] == 3


def test_a_roll_that_ends_the_turn_at_once_still_shows_spent() -> None:
    # Shortcut's road roll moves the car and ends the turn: the game keeps no die, yet the
    # table shows the roll until the next one.
    game = dicegames.make("shortcut", players=2)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], 1)
    match = LiveMatch("m4", session, "auto", {0: "t0", 1: "t1"}, None)
    session.apply("road", 0)
    session.apply("4")
    assert presenter_of(game).view(session.state)["dice"] == []
    assert match.viewer_state(())["view"]["dice"] == [{"value": 4, "label": "4", "used": True}]
    # A shortcut roll the car can use stays the game's own die, spent once the car moved.
    session.apply("shortcut", 1)
    session.apply("2")
    assert [die["value"] for die in match.viewer_state(())["view"]["dice"]] == [2]


def test_each_viewer_reads_the_match_in_their_own_language() -> None:
    """The log, the choices, the board's words and the sealed choices are written per
    language (issue 14), each language's shared state built once per change; the notation
    never changes."""
    game = dicegames.make("petits-chevaux", players=2)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], 1)
    match = LiveMatch("m9", session, "auto", {0: "t0", 1: "t1"}, None)
    for move in ("red", "6", "out", "6"):
        match.note(session.apply(move))
    english, french, german = (match.viewer_state((0,), lang) for lang in ("en", "fr", "de"))
    assert [e["description"] for e in english["log"]][:3] == [
        "Ann plays first (red, drawn by lot)", "Ann rolls 6",
        "Ann brings R1 out onto its start square"]
    assert [e["description"] for e in french["log"]][:3] == [
        "Ann joue en premier (rouge, tiré au sort)", "Ann lance 6",
        "Ann sort R1 sur sa case de départ"]
    assert german["log"][1]["description"] == "Ann würfelt 6"
    assert [e["text"] for e in french["log"]] == [e["text"] for e in english["log"]]
    assert english["hints"]["0"][0]["label"] == "Bring R2 out: barrage with R1"
    assert french["hints"]["0"][0]["label"] == "Sortir R2 : barrage avec R1"
    assert [h["move"] for h in french["hints"]["0"]] == [h["move"] for h in english["hints"]["0"]]
    # Built once per change and language, whoever asks; a move makes them new.
    assert match.shared_json(None, "fr", False) is match.shared_json(None, "fr", False)
    assert match.viewer_message((), "de") == match.viewer_message((), "de")
    before = match.shared_state(None, "fr")
    match.note(session.apply(session.state.legal_actions(0)[0], 0))
    after = match.shared_state(None, "fr")
    assert after is not before and after["log_size"] == before["log_size"] + 1
    # A replay step is in the language asked too, and an undo drops the translated line.
    assert match.shared_state(2, "it")["log"][-1]["description"] == "Ann tira 6"
    session.undo()
    match.forget_last()
    assert match.shared_state(None, "fr")["log"] == before["log"]


def test_a_sealed_choice_says_who_has_chosen_in_the_viewers_language() -> None:
    game = dicegames.make("extra", players=2)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], 5)
    match = LiveMatch("m10", session, "auto", {0: "t0", 1: "t1"}, None)
    match.note(session.apply(sample(session.state.chance_outcomes(), random.Random(2))))
    match.note(session.apply(session.state.legal_actions(0)[0], 0))
    assert match.viewer_state((1,), "de")["log"][-1]["description"] == "Ann hat gewählt"
    assert match.viewer_state((1,), "it")["log"][-1]["description"] == "Ann ha scelto"


def test_the_result_is_summed_up_in_the_viewers_language() -> None:
    game = dicegames.make("extra-meters", players=2, track_length=10)
    session = Session(game, [PlayerInfo("Ann"), PlayerInfo("Ben")], 1, "manual")
    match = LiveMatch("m11", session, "manual", {0: "t0", 1: "t1"}, None)
    for move, seat in (("5", None), ("roll", 0), ("5", None), ("roll", 0), ("1", None),
                       ("stop", 0)):
        match.note(session.apply(move, seat))
    assert match.shared_state(None, "en")["result"]["summary"] == "past square 10 in round 1"
    italian = match.shared_state(None, "it")
    assert italian["result"]["summary"] == "oltre la casella 10 al giro 1"
    assert [e["description"] for e in italian["log"][-2:]] == [
        "Ann si ferma e avanza di 5+5+1 = 11 caselle fino alla casella 11",
        "Ann vince: oltre la casella 10 al giro 1"]
