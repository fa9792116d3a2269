"""Conformance: every registered game keeps the engine's contract (OpenSpiel's games_sim_test).

Each game is played to the end by random moves from many seeds, in several configurations
(fewest and most players, every choice of every option, the ends of every number range, both
values of every switch). Every node on the way is checked: chance outcomes are distinct with
exact probabilities summing to 1; legal actions are non-empty, distinct and stable; notation
parses back to the very action or outcome; nonsense, a wrong seat and moves after the end are
refused with the right error; turn numbers never go back; states are hashable and replays
give equal states; records survive JSON; results name a consistent set of winners.

The walker is generic and also used by other test modules on their own test games.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

import dicegames
from dicegames import (
    PASS,
    Game,
    GameNotOver,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionSpec,
    Result,
    Session,
    State,
)
from dicegames.bots import bot_levels, make_bot
from dicegames.core.chance import sample
from dicegames.core.options import OptionValue
from dicegames.core.presenter import Presenter
from dicegames.core.registry import definition, presenter_of

AnyGame = Game[Any, Any, Any]
AnyState = State[Any, Any, Any]
Move = tuple[Hashable, int | None]
"""A move as played: the action or outcome, and the acting seat (None for the dice)."""

SEEDS = 30
"""Random games per configuration, at most (see :data:`MOVES`)."""

MIN_SEEDS = 10
"""Random games per configuration, at least."""

MOVES = 9_000
"""After :data:`MIN_SEEDS` games, a configuration plays no new game once its games have made
this many moves. Games under 300 moves long on average (every configuration of Extra Meters,
Monza, EXTRA! and Shortcut, measured) still play all :data:`SEEDS`; Petits Chevaux' random
games are long (375 moves at two players, 845 at four) and stop after about 11 to 25.
Measured with a tracer of the pairs of lines run in the game's own modules (its six
configurations, 30 games each): the first two games of each configuration already ran all
634 pairs the 30 games ran."""


THOROUGH_SEEDS = 3
"""Seeds whose every node also gets the costlier checks (render, describe, every notation)."""

MAX_MOVES = 20_000
"""A game still running after this many moves is taken to be stuck in a loop."""

PARSE_SAMPLE = 40
"""At most this many actions or outcomes of one node are parsed back from notation."""

NOT_A_MOVE = "zz-not-a-move"
"""Notation that names nothing in any game."""

POSITION_PLAYOUTS = 10_000
"""Random playouts per game (spread over its configurations) whose every state must come
back unchanged from its position notation."""

POSITION_TRUNKS = 8
"""Whole random games per configuration whose states the short position playouts start
from (so late-game positions are as common as early ones)."""

POSITION_BRANCH = 4
"""Moves in one short position playout."""


# ----------------------------------------------------------------------- configurations


def option_values(option: OptionSpec) -> tuple[OptionValue, ...]:
    """The values of ``option`` worth a game each: every choice, both ends, both switches."""
    if option.kind == "choice":
        return option.choices
    if option.kind == "int":
        assert option.minimum is not None and option.maximum is not None
        return (option.minimum, option.maximum)
    if option.kind == "bool":
        return (False, True)
    return ()  # free text (e.g. a board file): the game's own tests cover it


def configurations() -> list[Any]:
    """One ``pytest.param(game_id, players, options)`` per distinct configuration."""
    params = []
    for spec in dicegames.games():
        defaults = {option.name: option.default for option in spec.options}
        candidates: list[tuple[int, dict[str, OptionValue]]] = [
            (spec.min_players, {}),
            (spec.max_players, {}),
        ]
        for option in spec.options:
            candidates.extend(
                (spec.default_players, {option.name: value}) for value in option_values(option)
            )
            if option.kind == "choice":  # a rule switch is worth a crowded table too
                candidates.extend((spec.max_players, {option.name: value})
                                  for value in option.choices)
        seen: set[tuple[int, tuple[tuple[str, OptionValue], ...]]] = set()
        for players, options in candidates:
            key = (players, tuple(sorted({**defaults, **options}.items())))
            if key in seen:
                continue
            seen.add(key)
            label = "-".join([spec.id, f"{players}p", *(f"{k}={v}" for k, v in options.items())])
            crowded = players > spec.default_players  # the longest walks: `make test` only
            params.append(pytest.param(spec.id, players, options, id=label,
                                       marks=[pytest.mark.slow] if crowded else []))
    return params


CONFIGS = configurations()
GAME_IDS = [spec.id for spec in dicegames.games()]
GAMES_FOLDER = Path(dicegames.__file__).parent / "games"
"""Where the games dicegames ships live (each declares every optional part)."""
CONFIGS_PER_GAME = {game_id: sum(param.values[0] == game_id for param in CONFIGS)
                    for game_id in GAME_IDS}


@contextmanager
def seed_note(seed: int) -> Iterator[None]:
    """Name the seed in any failure inside the block, so it can be replayed."""
    try:
        yield
    except Exception as error:
        error.add_note(f"(random game from seed {seed})")
        raise


# ----------------------------------------------------------------------- the walker


@dataclass
class Walk:
    """A game played to the end: every state, and the move (with its seat) between them."""

    game: AnyGame
    states: list[AnyState] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)


def spread(items: Sequence[Hashable], limit: int = PARSE_SAMPLE) -> Sequence[Hashable]:
    """At most ``limit`` items spread evenly over ``items`` (all of them when few)."""
    step = max(1, len(items) // limit)
    return items[::step]


def random_walk(game: AnyGame, rng: random.Random, *, thorough: bool = False,
                max_moves: int = MAX_MOVES) -> Walk:
    """Play ``game`` to the end by random moves from ``rng``, checking every node.

    At a node where several seats decide, a random one of them acts first, so the
    shared-decision bookkeeping is exercised in every order.
    """
    state = game.new_state()
    walk = Walk(game, [state])
    while not state.is_terminal:
        assert len(walk.moves) < max_moves, f"{game!r} did not end within {max_moves} moves"
        check_common(state, thorough)
        move = check_chance(state, rng, thorough) if state.is_chance else check_decision(
            state, rng, thorough)
        after = state.apply(*move)
        check_step(state, move, after, thorough)
        walk.moves.append(move)
        walk.states.append(after)
        state = after
    check_common(state, thorough=True)
    check_terminal(state)
    return walk


def check_common(state: AnyState, thorough: bool) -> None:
    """Checks for every kind of node: hashing, equality, whose turn, the picture."""
    game = state.game
    assert hash(state) == hash(game.state_from(state.data))
    assert state == game.state_from(state.data)
    turn = state.turn
    assert 0 <= turn.seat < game.players, f"turn seat {turn.seat} is not a seat"
    assert turn.number >= 1
    if thorough:
        picture = str(state)
        assert isinstance(picture, str)
        assert Text.from_markup(picture).plain.strip(), "the board renders as nothing"
        check_view(state)


def element_ids(value: object) -> set[str]:
    """Every ``"id"`` string anywhere inside a view's board data."""
    found: set[str] = set()
    if isinstance(value, dict):
        if isinstance(value.get("id"), str):
            found.add(value["id"])
        for item in value.values():
            found |= element_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= element_ids(item)
    return found


def check_view(state: AnyState) -> None:
    """The web view is plain JSON; action hints list the legal moves and real targets."""
    game = state.game
    view = presenter_of(game).view(state)
    assert json.loads(json.dumps(view)) == view, "a view must be plain JSON"
    assert view["game"] == game.spec.id
    assert {"board", "dice", "dice_entry"} <= set(view)
    assert isinstance(view["dice"], list)
    # The view is its moving part with the board's static part put back (the web app sends
    # the static part once); the static part names no entry the moving part has.
    static, moving = presenter_of(game).static_board(), presenter_of(game).moving_view(state)
    board = moving["board"]
    assert not set(static) & set(board or {}), "static and moving board entries overlap"
    assert not static or board is not None, "a static board part needs a board"
    assert {**moving, "board": {**static, **board} if static else board} == view
    ids = element_ids(view["board"])
    for seat in state.current_players:
        hints = presenter_of(game).action_hints(state, seat)
        assert json.loads(json.dumps(hints)) == hints, "action hints must be plain JSON"
        assert [hint["move"] for hint in hints] == [
            str(action) for action in state.legal_actions(seat)]
        for hint in hints:
            assert isinstance(hint["label"], str) and hint["label"], hint
            missing = set(hint["targets"]) - ids
            assert not missing, f"{hint['move']} targets {missing}, absent from the board"


def check_refuses_nonsense(state: AnyState, seat: int | None, thorough: bool) -> None:
    """A foreign object and notation of nothing raise IllegalAction; the state is untouched."""
    snapshot = copy.deepcopy(state.data) if thorough else state.data
    before = hash(state)
    for nonsense in (object(), NOT_A_MOVE):
        with pytest.raises(IllegalAction) as info:
            state.apply(nonsense, seat)
        assert not isinstance(info.value, NotYourTurn | GameOver), info.value
        assert str(info.value), "an illegal move must say what is legal"
    assert state.data == snapshot
    assert hash(state) == before


def check_chance(state: AnyState, rng: random.Random, thorough: bool) -> Move:
    """Check a chance node and draw its outcome from ``rng``."""
    game = state.game
    assert state.current_players == ()
    distribution = state.chance_outcomes()
    assert distribution, "a chance node needs outcomes"
    outcomes = [outcome for outcome, _ in distribution]
    assert len(set(outcomes)) == len(outcomes), f"repeated chance outcomes: {outcomes}"
    for outcome, probability in distribution:
        assert isinstance(probability, Fraction), f"{outcome}: {probability!r} is not exact"
        assert probability > 0, f"outcome {outcome} has probability {probability}"
    total = sum(p for _, p in distribution)
    assert total == 1, f"chance probabilities sum to {total}, not 1"
    assert state.chance_outcomes() == distribution, "chance outcomes are not stable"
    for outcome in outcomes if thorough else spread(outcomes, 4):
        assert game.parse(state, str(outcome)) == outcome, f"{outcome} does not parse back"
    with pytest.raises(NotYourTurn):
        state.legal_actions()
    with pytest.raises(NotYourTurn):
        state.apply(outcomes[0], 0)
    with pytest.raises(GameNotOver):
        state.result  # noqa: B018  (the property raises)
    check_refuses_nonsense(state, None, thorough)
    drawn = sample(distribution, rng)
    if thorough:
        # What the table shows of the roll once spent. In a game with a board (its own
        # view), a die roll (a plain int outcome; a draw for the first player is an enum and
        # may show nothing) ends with that die, even when the roll ended the turn at once.
        dice = presenter_of(game).roll_dice(state, drawn)
        if type(drawn) is int and type(presenter_of(game)).view is not Presenter.view:
            assert dice and dice[-1]["value"] == drawn, (drawn, dice)
        assert json.loads(json.dumps(dice)) == dice, "rolled dice must be plain JSON"
        assert all({"value", "label"} <= set(die) for die in dice), dice
    return drawn, None


def check_decision(state: AnyState, rng: random.Random, thorough: bool) -> Move:
    """Check a decision node and pick a random seat among the deciders and its action."""
    game = state.game
    deciding = state.current_players
    assert deciding, "a decision node needs a deciding seat"
    assert len(set(deciding)) == len(deciding)
    assert all(0 <= seat < game.players for seat in deciding)
    with pytest.raises(IllegalAction):
        state.chance_outcomes()
    with pytest.raises(GameNotOver):
        state.result  # noqa: B018
    if len(deciding) > 1:
        with pytest.raises(NotYourTurn) as info:
            state.legal_actions()
        assert all(str(seat) in str(info.value) for seat in deciding), info.value
    seat = rng.choice(deciding)
    legal = state.legal_actions(seat)
    idle = [s for s in range(game.players) if s not in deciding]
    others = [*idle[:1], game.players]  # a seat that waits, and one that does not exist
    for outsider in others:
        with pytest.raises(NotYourTurn):
            state.legal_actions(outsider)
        with pytest.raises(NotYourTurn):
            state.apply(legal[0], outsider)
        with pytest.raises(NotYourTurn):
            state.apply(str(legal[0]), outsider)
    for decider in deciding if thorough else (seat,):
        actions = state.legal_actions(decider)
        assert actions, f"seat {decider} has no legal action (the rules must offer {PASS})"
        assert len(set(actions)) == len(actions), f"repeated legal actions: {actions}"
        assert state.legal_actions(decider) == actions, "legal actions are not stable"
        for action in actions if thorough else spread(actions, 4):
            parsed = game.parse(state, str(action), decider)
            assert parsed == action, f"{action} parses back as {parsed}"
    if len(deciding) == 1:
        assert state.legal_actions() == legal
    check_refuses_nonsense(state, seat, thorough)
    return rng.choice(legal), seat


def check_step(before: AnyState, move: Move, after: AnyState, thorough: bool) -> None:
    """Checks on one move: the turn count, the unchecked path, the sentence for logs."""
    game = before.game
    assert after.game == game
    assert after.turn.number >= before.turn.number, "the turn number went back"
    assert before.apply_unchecked(*move) == after, "apply_unchecked disagrees with apply"
    if thorough:
        names = [f"Player {seat + 1}" for seat in range(game.players)]
        sentence = presenter_of(game).describe(before, move[0], move[1], names)
        assert isinstance(sentence, str)
        assert sentence.strip()


def check_terminal(state: AnyState) -> None:
    """A finished game refuses everything and has a consistent result."""
    assert state.current_players == ()
    assert not state.is_chance
    refusals: list[Callable[[], object]] = [
        state.legal_actions,
        lambda: state.legal_actions(0),
        lambda: state.apply(NOT_A_MOVE),
        lambda: state.apply(object()),
        lambda: state.game.parse(state, NOT_A_MOVE),
    ]
    for refusal in refusals:
        with pytest.raises(GameOver):
            refusal()
    with pytest.raises(IllegalAction):
        state.chance_outcomes()
    check_result(state.game, state.result)


def check_result(game: AnyGame, result: Result) -> None:
    """Winners are distinct seats, rank 1 is exactly the winners, returns split the win."""
    seats = set(range(game.players))
    winners = result.winners
    assert len(set(winners)) == len(winners), f"repeated winners: {winners}"
    assert set(winners) <= seats, f"winners {winners} are not all seats"
    # Only a solo game (a record to beat) may end with nobody winning.
    assert winners or game.players == 1, "a game of several players needs a winner"
    assert len(result.scores) == len(result.ranks) == game.players
    assert all(1 <= rank <= game.players for rank in result.ranks), result.ranks
    if winners:
        assert {seat for seat in seats if result.ranks[seat] == 1} == set(winners), result
        returns = result.returns()
        assert len(returns) == game.players
        assert sum(returns) == pytest.approx(1.0)
        assert all(returns[seat] > 0 for seat in winners)
    assert isinstance(result.summary, str)


def replay(game: AnyGame, moves: Sequence[Move]) -> list[AnyState]:
    """The states of a game replayed from the moves' notation."""
    states = [game.new_state()]
    for move, seat in moves:
        states.append(states[-1].apply(str(move), seat))
    return states


def session_of(walk: Walk, seed: int | None = None) -> Session:
    """A session that played the walk's moves."""
    session = Session(walk.game, seed=seed)
    for move, seat in walk.moves:
        session.apply(move, seat)
    return session


def round_trip(session: Session) -> Session:
    """The session saved as JSON text and loaded back."""
    return dicegames.from_record(json.loads(json.dumps(dicegames.to_record(session))))


def without_timestamp(record: dict[str, Any]) -> dict[str, Any]:
    """A record minus the moment it was saved."""
    return {key: value for key, value in record.items() if key != "saved"}


def random_step(state: AnyState, rng: random.Random) -> AnyState:
    """One random move (a random deciding seat's random action, or a drawn roll)."""
    if state.is_chance:
        return state.apply_unchecked(sample(state.chance_outcomes(), rng))
    seat = rng.choice(state.current_players)
    return state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)


def check_position(state: AnyState) -> str:
    """The state's position is one canonical line that gives the state back, and its facts
    agree with the state."""
    game = state.game
    text = game.position(state)
    assert text == " ".join(text.split()) and text, f"not one canonical line: {text!r}"
    back = game.from_position(text)
    assert back == state, f"{text} gives {back.data!r}, not {state.data!r}"
    assert game.position(back) == text
    facts = game.facts(state)
    assert (facts.to_move, facts.turn) == (state.turn.seat, state.turn.number), (text, facts)
    assert facts.over == state.is_terminal, (text, facts)
    assert facts.winners == (state.result.winners if state.is_terminal else ()), (text, facts)
    assert isinstance(facts.phase, str) and facts.phase, facts
    return text


# ----------------------------------------------------------------------- the tests


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_positions_round_trip_on_random_playouts(
    game_id: str, players: int, options: dict[str, OptionValue]
) -> None:
    game = dicegames.make(game_id, players=players, **options)
    rng = random.Random(f"positions {game!r}")
    pool: list[AnyState] = []
    for _ in range(POSITION_TRUNKS):
        state = game.new_state()
        pool.append(state)
        while not state.is_terminal:
            state = random_step(state, rng)
            pool.append(state)
    playouts = -(-POSITION_PLAYOUTS // CONFIGS_PER_GAME[game_id])
    for _ in range(playouts):
        state = rng.choice(pool)
        for _ in range(POSITION_BRANCH):
            check_position(state)
            if state.is_terminal:
                break
            state = random_step(state, rng)
    for state in (pool[0], pool[-1], rng.choice(pool)):
        text = game.position(state)
        assert dicegames.from_position(game_id, text, **options) == state


MUTATIONS = "0123456789-,/;=?+xsabcdefgimnoprtuvwyRYGBWP "


@pytest.mark.parametrize("game_id", GAME_IDS)
@given(pick=st.integers(min_value=0), edits=st.lists(
    st.tuples(st.integers(min_value=0), st.sampled_from(MUTATIONS)), min_size=1, max_size=3))
def test_mangled_positions_are_refused_or_round_trip(
        game_id: str, pick: int, edits: list[tuple[int, str]]) -> None:
    states = sample_game(game_id).states
    state = states[pick % len(states)]
    game = state.game
    text = list(game.position(state))
    for where, char in edits:
        text[where % len(text)] = char
    mangled = "".join(text)
    try:
        parsed = game.from_position(mangled)
    except dicegames.PositionError as error:
        assert str(error)
        return
    check_position(parsed)




@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_random_games_keep_the_contract(
    game_id: str, players: int, options: dict[str, OptionValue]
) -> None:
    game = dicegames.make(game_id, players=players, **options)
    moves = 0
    for seed in range(SEEDS):
        if seed >= MIN_SEEDS and moves >= MOVES:
            break
        with seed_note(seed):
            walk = random_walk(game, random.Random(seed), thorough=seed < THOROUGH_SEEDS)
            moves += len(walk.moves)
            assert replay(game, walk.moves) == walk.states
            session = session_of(walk, seed)
            assert session.states == tuple(walk.states)
            loaded = round_trip(session)
            assert loaded.states == session.states
            assert loaded.moves == session.moves
            assert loaded.seed == seed
            assert without_timestamp(dicegames.to_record(loaded)) == without_timestamp(
                dicegames.to_record(session))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_gives_the_same_game_and_seeds_differ(game_id: str) -> None:
    game = dicegames.make(game_id)
    first = random_walk(game, random.Random(11))
    again = random_walk(game, random.Random(11))
    assert again.moves == first.moves
    assert again.states == first.states
    others = [random_walk(game, random.Random(seed)).moves for seed in range(12, 17)]
    assert any(moves != first.moves for moves in others), "the seed changes nothing"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_records_round_trip_at_every_prefix(game_id: str) -> None:
    game = dicegames.make(game_id)
    for seed in range(2):
        with seed_note(seed):
            walk = random_walk(game, random.Random(seed))
            step = max(1, len(walk.moves) // 150)  # keeps very long games quick
            session = Session(game, seed=seed)
            for count in range(len(walk.moves) + 1):
                if count:
                    session.apply(*walk.moves[count - 1])
                if count % step and count != len(walk.moves):
                    continue
                loaded = round_trip(session)
                assert loaded.states == tuple(walk.states[: count + 1]), f"prefix {count}"
                assert loaded.state.is_terminal == (count == len(walk.moves))


@cache
def sample_game(game_id: str) -> Walk:
    """One random game of ``game_id`` with its default options, played once per run."""
    return random_walk(dicegames.make(game_id), random.Random(99))


@pytest.mark.parametrize("game_id", GAME_IDS)
@given(text=st.text(max_size=16), pick=st.integers(min_value=0))
def test_any_typed_text_is_a_legal_move_or_an_illegal_action(game_id: str, text: str,
                                                               pick: int) -> None:
    states = [s for s in sample_game(game_id).states if not s.is_terminal]
    state = states[pick % len(states)]
    seat = None if state.is_chance else state.current_players[0]
    try:
        move = state.game.parse(state, text, seat)
    except IllegalAction as error:
        assert str(error)
        return
    if state.is_chance:
        assert move in [outcome for outcome, _ in state.chance_outcomes()]
    else:
        assert move in state.legal_actions(seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spec_is_sound(game_id: str) -> None:
    spec = next(s for s in dicegames.games() if s.id == game_id)
    assert spec.id == spec.id.strip().lower()
    assert spec.name.strip()
    assert spec.pitch.strip()
    assert 1 <= spec.min_players <= spec.default_players <= spec.max_players
    names = [option.name for option in spec.options]
    assert len(set(names)) == len(names), f"repeated option names: {names}"
    for option in spec.options:
        assert option.doc.strip(), f"option {option.name} has no doc"
        assert option.validate(option.default) == option.default, option
        assert spec.option(option.name) is option
        if option.kind == "int":
            assert option.minimum is not None and option.maximum is not None
            assert option.minimum <= option.maximum
        if option.kind == "choice":
            assert option.choices, f"option {option.name} offers no choice"
            assert all(choice == choice.lower() for choice in option.choices)
    for alias in (spec.id, *spec.aliases):
        assert dicegames.make(alias).spec is spec
        assert dicegames.make(alias.upper()).spec is spec


def test_ids_and_aliases_are_unique_across_games() -> None:
    names = [name for spec in dicegames.games() for name in (spec.id, *spec.aliases)]
    assert len(set(names)) == len(names), names


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_make_refuses_player_counts_out_of_range(game_id: str) -> None:
    spec = dicegames.make(game_id).spec
    assert dicegames.make(game_id).players == spec.default_players
    for count in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(dicegames.OptionError) as info:
            dicegames.make(game_id, players=count)
        assert f"{spec.min_players} to {spec.max_players}" in str(info.value)
    with pytest.raises(dicegames.OptionError) as info:
        dicegames.make(game_id, no_such_option=1)
    assert "no_such_option" in str(info.value)


def needs(game_id: str, part: str) -> None:
    """Skip this test for a game whose definition has no ``part`` (the toy game has no bots
    or kernel); every game dicegames ships declares them all, and that is checked."""
    found = definition(game_id)
    if not found.has(part):
        assert found.path.parent != GAMES_FOLDER, f"{game_id} ships without its {part}"
        pytest.skip(f"{game_id} declares no {part}")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_offers_easy_medium_and_hard_bots(game_id: str) -> None:
    needs(game_id, "bots")
    levels = bot_levels(dicegames.make(game_id))
    names = [level.name for level in levels]
    assert names[:3] == ["easy", "medium", "hard"]
    assert len(set(names)) == len(names)
    assert all(level.doc.strip() for level in levels)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_easy_and_medium_bots_play_a_whole_game(game_id: str) -> None:
    game = dicegames.make(game_id)
    rng = random.Random(5)
    own = definition(game_id).has("bots")  # a game without bots plays the generic one
    levels = ["medium" if own else "random"] + ["easy" if own else "random"] * (game.players - 1)
    agents = [make_bot(game, level, rng) for level in levels]
    session = Session(game, seed=5)
    events: list[dicegames.Event] = []
    result = dicegames.play(session, agents, dicegames.RandomDice(rng), events.append)
    assert result is not None
    assert result == session.state.result
    check_result(game, result)
    assert events[-1].kind is dicegames.EventKind.GAME_OVER
    assert events[-1].result == result
    assert sum(event.kind is dicegames.EventKind.GAME_OVER for event in events) == 1
    assert round_trip(session).states == session.states
