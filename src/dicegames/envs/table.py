"""A game played inside an environment: the engine state, seeded dice, whose decision.

Shared by the PettingZoo and Gymnasium environments. Dice are drawn with
:func:`dicegames.core.chance.sample` from a ``random.Random(seed)``, exactly as
:class:`~dicegames.core.match.RandomDice` draws them, so an environment reset with a seed
and given the same decisions plays the very game the engine's match runner plays with
``RandomDice(random.Random(seed))``.
"""

from __future__ import annotations

import random
from typing import Any

from rich.text import Text

from dicegames.core.chance import sample
from dicegames.core.model import Seat
from dicegames.envs.encoding import AnyGame, AnyState, Encoder, encoder_for

RENDER_MODES = ("ansi", "human")
"""``render_mode`` values: ``ansi`` returns the board as plain text, ``human`` prints it."""


def check_settings(render_mode: str | None, max_moves: int | None) -> None:
    """Refuse a render mode or move limit the environments do not know.

    Raises:
        ValueError: the message says what is allowed.
    """
    if render_mode not in (None, *RENDER_MODES):
        raise ValueError(f"render_mode {render_mode!r} is not supported; use None, 'ansi' or "
                         "'human'")
    if max_moves is not None and max_moves < 1:
        raise ValueError(f"max_moves must be a positive number of decisions, not {max_moves!r}")


class Table:
    """The engine state of one episode and the dice that move it on.

    When several seats decide on one roll (EXTRA!), they decide one after the other in
    seat order (:attr:`deciding` is the lowest seat still to decide); the engine keeps each
    decision until the last one is in, then records them all and the dice roll again.
    """

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.encoder: Encoder = encoder_for(game)
        self.rng = random.Random()
        self.state: AnyState = game.new_state()
        self.moves = 0

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; a seed makes the dice repeatable (None: keep drawing from the
        generator as it stands, fresh from the system at first)."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.state = self.game.new_state()
        self.moves = 0
        self.roll()

    def roll(self) -> None:
        """Roll the dice until a seat decides or the game is over."""
        state = self.state
        while state.is_chance:
            state = state.apply_unchecked(sample(state.chance_outcomes(), self.rng))
        self.state = state

    @property
    def deciding(self) -> Seat | None:
        """The seat to decide now (the lowest of several), None once the game is over."""
        players = self.state.current_players
        return players[0] if players else None

    def act(self, seat: Seat, action_id: int) -> None:
        """Play ``seat``'s action ``action_id``, then roll on to the next decision.

        Raises:
            IllegalAction: the id is not legal for ``seat`` now; the message lists what is.
        """
        action = self.encoder.action(self.state, seat, action_id)
        self.state = self.state.apply_unchecked(action, seat)
        self.moves += 1
        self.roll()

    def observation(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s observation dict: its vector and its action mask."""
        return {"observation": self.encoder.observe(self.state, seat),
                "action_mask": self.encoder.mask(self.state, seat)}

    def render(self, render_mode: str | None) -> str | None:
        """The board as plain text: returned for ``ansi``, printed for ``human``."""
        if render_mode is None:
            return None
        text = Text.from_markup(str(self.state)).plain
        if render_mode == "human":
            print(text)
            return None
        return text
