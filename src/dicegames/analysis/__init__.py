"""Analysis tools: bot-versus-bot simulation and the statistics behind its report.

Beside :func:`simulate`: :mod:`.report` (the design report of ``dicegames analyse``),
:mod:`.review` (the post-game review of ``dicegames review``) with :mod:`.estimate` (win
chances: exact, learned or rollouts), :mod:`.charts` and :mod:`.html` (matplotlib, from the
``analysis`` extra) and :mod:`.cluster` (local processes or a Dask cluster). They are
imported on use, so ``import dicegames.analysis`` stays light.

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
    play_one,
    simulate,
)
from dicegames.analysis.stats import (
    histogram_mean,
    histogram_median,
    wilson_interval,
)
from dicegames.core.rollout import game_seed

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
