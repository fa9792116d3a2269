"""The encoder of each game (observation fields, action and outcome ids); see docs/rl.md."""

from __future__ import annotations

from collections.abc import Callable

from dicegames.envs.encoders.extra import ExtraEncoder
from dicegames.envs.encoders.extra_meters import ExtraMetersEncoder
from dicegames.envs.encoders.monza import MonzaEncoder
from dicegames.envs.encoders.petits_chevaux import PetitsChevauxEncoder
from dicegames.envs.encoders.shortcut import ShortcutEncoder
from dicegames.envs.encoding import AnyGame, Encoder

ENCODERS: dict[str, Callable[[AnyGame], Encoder]] = {
    "extra-meters": ExtraMetersEncoder,
    "shortcut": ShortcutEncoder,
    "petits-chevaux": PetitsChevauxEncoder,
    "monza": MonzaEncoder,
    "extra": ExtraEncoder,
}
"""Encoder classes by game id."""


def encoder_for(game: AnyGame) -> Encoder:
    """The encoder of a configured game.

    Raises:
        ValueError: the game has no encoder (a game registered later than this module).
    """
    try:
        factory = ENCODERS[game.spec.id]
    except KeyError:
        known = ", ".join(ENCODERS)
        raise ValueError(f"{game.spec.id} has no learning environment yet; these games "
                         f"have one: {known}") from None
    return factory(game)


__all__ = ["ENCODERS", "ExtraEncoder", "ExtraMetersEncoder", "MonzaEncoder",
           "PetitsChevauxEncoder", "ShortcutEncoder", "encoder_for"]
