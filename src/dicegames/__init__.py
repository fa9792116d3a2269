"""dicegames: five family dice games as pure, replayable rules.

>>> import dicegames
>>> game = dicegames.make("extra-meters", players=2, track_length=50)
>>> state = game.new_state()
>>> state.is_chance, [str(o) for o, _ in state.chance_outcomes()]
(True, ['1', '2', '3', '4', '5'])
>>> state = state.apply("5")
>>> state.current_players, [str(a) for a in state.legal_actions()]
((0,), ['roll', 'stop'])
"""

# The game folders live in the subpackage ``dicegames.games``; importing it registers every
# game. It is imported first so that the public name ``dicegames.games`` is then rebound to
# the registry listing function below (submodules stay importable as dicegames.games.<id>).
import dicegames.games as _game_folders  # noqa: F401  (registers the games)
from dicegames.core.errors import (
    DiceGamesError,
    GameNotOver,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    PositionError,
    RecordError,
    Reroll,
)
from dicegames.core.game import Game, State
from dicegames.core.match import ManualDice, RandomDice, ScriptedDice, play
from dicegames.core.model import (
    PASS,
    BotLevel,
    GameSpec,
    JsonObject,
    Node,
    NodeKind,
    Result,
    TurnInfo,
)
from dicegames.core.options import OptionSpec
from dicegames.core.position import Facts
from dicegames.core.record import from_record, load, save, to_record
from dicegames.core.registry import from_position, games, make
from dicegames.core.session import Event, EventKind, MoveEntry, PlayerInfo, Session

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "BotLevel",
    "DiceGamesError",
    "Event",
    "EventKind",
    "Facts",
    "Game",
    "GameNotOver",
    "GameOver",
    "GameSpec",
    "IllegalAction",
    "JsonObject",
    "ManualDice",
    "MoveEntry",
    "Node",
    "NodeKind",
    "NotYourTurn",
    "OptionError",
    "OptionSpec",
    "PlayerInfo",
    "PositionError",
    "RandomDice",
    "RecordError",
    "Reroll",
    "Result",
    "ScriptedDice",
    "Session",
    "State",
    "TurnInfo",
    "from_position",
    "from_record",
    "games",
    "load",
    "make",
    "play",
    "save",
    "to_record",
]
