"""The five games as OpenSpiel Python games, registered with ``pyspiel.register_game``.

>>> from dicegames.envs.openspiel import load
>>> game = load("extra-meters", track_length=10)
>>> game.get_type().short_name, game.num_distinct_actions(), game.max_chance_outcomes()
('python_dicegames_extra_meters', 2, 6)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0]
(True, (0, 0.2))

Each game is registered as ``python_dicegames_<id>`` (``python_dicegames_petits_chevaux``...)
when this module is imported; :func:`load` takes the game id and keyword parameters. The
parameters are ``players``, the game's options (text options write ``;`` where the option
has ``,``, since OpenSpiel's game strings split on commas: ``extra_columns=10;9;8``) and
``max_game_length``.

- **Chance** is explicit: a chance node lists the dice's outcomes with their exact
  probabilities (as floats), outcome ids from the game's encoder (docs/rl.md).
- **Actions** are the encoder's ids; observations (``observation_tensor``) the encoder's
  vector, relative to the observing seat; ``observation_string`` and ``str(state)`` are the
  state's key (:meth:`~dicegames.envs.encoding.Encoder.key`). The games have perfect
  information, so the information state is the observation: ``information_state_string``
  and ``information_state_tensor`` give the same as their observation counterparts, and
  OpenSpiel's information-state algorithms (CFR and its sampled variants, NFSP...) run.
- **Simultaneous games** (a definition with ``simultaneous=True``: EXTRA!): at each roll
  every seat still playing decides at once (a seat that does not decide plays *wait*, the
  encoder's ``wait_id``: 1650 in EXTRA!). Use
  ``pyspiel.convert_to_turn_based`` for algorithms that need turns (MCTS).
- **Returns** are zero-sum (:func:`~dicegames.envs.encoding.returns`: +1 for a sole winner,
  -1/(n-1) for a loser); EXTRA! is declared general-sum because of its solo game.
- **Length**: OpenSpiel needs a bound on the number of decisions, which these games do not
  have (a runner may roll on, horses are sent home). A game still running after
  ``max_game_length`` decisions (default 10,000, twenty times the longest of a thousand
  random games) ends there with every return 0.
"""

from __future__ import annotations

from typing import Any

from dicegames.envs import require

require("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from dicegames.core.model import Seat  # noqa: E402
from dicegames.core.options import OptionValue  # noqa: E402
from dicegames.core.registry import configure, definition, game_class  # noqa: E402
from dicegames.envs.encoding import (  # noqa: E402
    AnyGame,
    AnyState,
    Encoder,
    encoded_games,
    encoder_for,
    returns,
    reward_range,
)

MAX_GAME_LENGTH = 10_000
"""The default bound on decisions (see the module docstring)."""

def short_name(game_id: str) -> str:
    """The OpenSpiel name of a game: ``python_dicegames_extra_meters``."""
    return "python_dicegames_" + game_class(game_id).spec.id.replace("-", "_")


def _to_param(value: OptionValue) -> OptionValue:
    """An option value as an OpenSpiel parameter (commas in text become ``;``)."""
    return value.replace(",", ";") if isinstance(value, str) else value


def _game_type(game_id: str) -> Any:
    """The ``pyspiel.GameType`` of a game (parameters: players, options, max length)."""
    spec = game_class(game_id).spec
    params: dict[str, OptionValue] = {"players": spec.default_players}
    params.update({option.name: _to_param(option.default) for option in spec.options})
    params["max_game_length"] = MAX_GAME_LENGTH
    simultaneous = definition(spec.id).simultaneous
    kind = pyspiel.GameType
    return kind(
        short_name=short_name(spec.id),
        long_name=f"dicegames {spec.name}",
        dynamics=kind.Dynamics.SIMULTANEOUS if simultaneous else kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.PERFECT_INFORMATION,
        utility=kind.Utility.GENERAL_SUM if simultaneous else kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class DiceGame(pyspiel.Game):  # type: ignore[misc]
    """A configured dicegames game as an OpenSpiel game.

    One subclass per game is registered (its ``game_id`` set); OpenSpiel builds it from the
    parameters.

    Attributes:
        engine: the dicegames game (:func:`dicegames.make`'s result).
        encoder: its encoder (observations, action and outcome ids).
    """

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_id = self.game_id
        given = dict(params or {})
        players = int(given.pop("players", game_class(game_id).spec.default_players))
        self.max_length = int(given.pop("max_game_length", MAX_GAME_LENGTH))
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be a positive number of decisions, not "
                             f"{self.max_length}")
        options = {name: value.replace(";", ",") if isinstance(value, str) else value
                   for name, value in given.items()}
        self.engine: AnyGame = configure(game_id, players, options)
        self.encoder: Encoder = encoder_for(self.engine)
        low, high = reward_range(players)
        simultaneous = self.simultaneous = definition(game_id).simultaneous
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=self.encoder.num_outcomes,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None if simultaneous else 0.0,
            max_game_length=self.max_length,
        )
        super().__init__(_TYPES[self.engine.spec.id], info, params or {})

    def new_initial_state(self) -> DiceState:
        """The state before the first move (a chance node: the first roll or draw)."""
        return DiceState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        """The observer of the encoder's vector, for observations and information states
        alike (every game here has perfect information, so they are the same)."""
        return Observer(self.encoder, params)


class _Held:
    """The engine state a DiceState stands for. Immutable, so OpenSpiel's deep copy of a
    state (its clone) shares it; pickled (OpenSpiel's serialization) as the data alone."""

    __slots__ = ("data", "state")

    def __init__(self, data: Any, state: AnyState | None = None) -> None:
        self.data = data
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self

    def __reduce__(self) -> tuple[type[_Held], tuple[Any]]:
        return (_Held, (self.data,))


class DiceState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`DiceGame`: the engine's state, the count of decisions and (for
    speed: OpenSpiel asks for it at every turn) the player to act."""

    def __init__(self, game: DiceGame) -> None:
        super().__init__(game)
        self._moves = 0
        self._move_on(game.engine.new_state())

    # ------------------------------------------------------------------ helpers

    @property
    def engine_state(self) -> AnyState:
        """The dicegames state this OpenSpiel state stands for."""
        held = self._held
        if held.state is None:
            held.state = self._game.engine.state_from(held.data)
        return held.state

    @property
    def _game(self) -> DiceGame:
        game: DiceGame = self.get_game()
        return game

    @property
    def truncated(self) -> bool:
        """True when the game was stopped at ``max_game_length`` decisions."""
        return self._moves >= self._game.max_length and not self.engine_state.is_terminal

    def _move_on(self, state: AnyState) -> None:
        """Stand for ``state`` now, and note who acts in it."""
        self._held = _Held(state.data, state)
        if state.is_terminal or self.truncated:
            self._player = int(pyspiel.PlayerId.TERMINAL)
        elif state.is_chance:
            self._player = int(pyspiel.PlayerId.CHANCE)
        elif self._game.simultaneous:
            self._player = int(pyspiel.PlayerId.SIMULTANEOUS)
        else:
            self._player = state.current_players[0]

    # ------------------------------------------------------------------ the OpenSpiel API

    def current_player(self) -> int:
        """The deciding seat, or CHANCE, SIMULTANEOUS (EXTRA!'s shared roll), TERMINAL."""
        return self._player

    def _legal_actions(self, player: Seat) -> list[int]:
        """The legal action ids of ``player``, ascending (*wait* for a finished EXTRA! seat)."""
        state = self.engine_state
        if player not in state.current_players:
            wait = self._game.encoder.wait_id
            return [wait] if self._game.simultaneous and wait is not None else []
        return self._game.encoder.legal_ids(state, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The dice's outcome ids with their exact probabilities (as floats)."""
        return [(i, p) for i, (_, p) in self._game.encoder.outcomes(self.engine_state).items()]

    def _apply_action(self, action: int) -> None:
        """Set the dice, or play the deciding seat's action."""
        state = self.engine_state
        encoder = self._game.encoder
        if state.is_chance:
            self._move_on(state.apply_unchecked(encoder.outcomes(state)[action][0]))
            return
        seat = state.current_players[0]
        self._moves += 1
        self._move_on(state.apply_unchecked(encoder.action(state, seat, action), seat))

    def _apply_actions(self, actions: list[int]) -> None:
        """Every seat's action on EXTRA!'s shared roll (*wait* for a finished seat)."""
        state = self.engine_state
        encoder = self._game.encoder
        for seat in state.current_players:
            state = state.apply_unchecked(encoder.action(state, seat, actions[seat]), seat)
        self._moves += 1
        self._move_on(state)

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's notation of a legal action or outcome, else the id's description."""
        encoder = self._game.encoder
        if player == pyspiel.PlayerId.CHANCE:
            return encoder.outcome_name(action)
        state = self.engine_state
        if player in state.current_players and not state.is_chance:
            legal = encoder.legal(state, player)
            if action in legal:
                return str(legal[action])
        return encoder.action_name(action)

    def is_terminal(self) -> bool:
        """True at the end of the game, or at ``max_game_length`` decisions."""
        return self._player == int(pyspiel.PlayerId.TERMINAL)

    def returns(self) -> list[float]:
        """Zero-sum returns at the end (0 each when stopped at the length bound)."""
        state = self.engine_state
        if state.is_terminal:
            return list(returns(state))
        return [0.0] * self._game.engine.players

    def __str__(self) -> str:
        """The state's key: one line that tells apart states whose futures differ."""
        return self._game.encoder.key(self.engine_state)


class Observer:
    """OpenSpiel's observer of the encoder's vector, with the named fields as ``dict``."""

    def __init__(self, encoder: Encoder, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = encoder.views(self.tensor)

    def set_from(self, state: DiceState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s observation of ``state``."""
        self.encoder.write(state.engine_state, player, self.tensor)

    def string_from(self, state: DiceState, player: int) -> str:
        """The state's key (the games have perfect information)."""
        return str(state)


def load(game_id: str, **params: Any) -> DiceGame:
    """``pyspiel.load_game`` for a game id: ``load("monza", players=4)``.

    Raises:
        OptionError: an unknown game or option, or a value out of range.
    """
    options = {name: value for name, value in params.items()
               if name not in ("players", "max_game_length")}
    configure(game_id, params.get("players"), options)  # our errors, before OpenSpiel's
    converted = {name: _to_param(value) for name, value in params.items()}
    game: DiceGame = pyspiel.load_game(short_name(game_id), converted)
    return game


_TYPES = {game_id: _game_type(game_id) for game_id in encoded_games()}
GAMES: dict[str, type[DiceGame]] = {
    game_id: type(f"DiceGame_{game_id.replace('-', '_')}", (DiceGame,), {"game_id": game_id})
    for game_id in _TYPES}
"""The registered class of each game. Classes, not closures: OpenSpiel keeps its creators
until after Python has shut down, and a class is never freed then (a closure would be, and
crash the interpreter on exit)."""

for _game_id, _type in _TYPES.items():
    pyspiel.register_game(_type, GAMES[_game_id])
