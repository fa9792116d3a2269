"""Every game dicegames ships: importing this package registers them, one line each."""

from dicegames.core.registry import register
from dicegames.games.extra_meters import ExtraMeters
from dicegames.games.petits_chevaux import PetitsChevaux

register(ExtraMeters)
register(PetitsChevaux)
