"""Every game dicegames ships: importing this package registers them, one line each."""

from dicegames.core.registry import register
from dicegames.games.extra import Extra
from dicegames.games.extra_meters import ExtraMeters

register(ExtraMeters)
register(Extra)
