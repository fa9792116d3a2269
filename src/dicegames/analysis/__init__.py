"""Analysis tools: bot-versus-bot simulation and the statistics behind its report.

>>> import dicegames
>>> from dicegames.analysis import simulate
>>> game = dicegames.make("extra-meters")
>>> report = simulate(game, ["bot:medium", "bot:easy"], games=50, seed=1, rotate=True)
>>> [stats.label for stats in report.per_player]
['bot:medium', 'bot:easy']
"""

from dicegames.analysis.simulate import (
    GameOutcome,
    PlayerStats,
    SimulationError,
    SimulationReport,
    bot_name,
    game_seed,
    play_one,
    simulate,
)
from dicegames.analysis.stats import (
    histogram_mean,
    histogram_median,
    wilson_interval,
)

__all__ = [
    "GameOutcome",
    "PlayerStats",
    "SimulationError",
    "SimulationReport",
    "bot_name",
    "game_seed",
    "histogram_mean",
    "histogram_median",
    "play_one",
    "simulate",
    "wilson_interval",
]
