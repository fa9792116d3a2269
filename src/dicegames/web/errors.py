"""The web app's error answers: one exception type, one JSON shape, a status per kind.

Every refusal is ``{"error": code, "message": text}`` with a 4xx status: 400 malformed JSON
or fields, 403 a wrong seat token, 404 an unknown match or game, 409 acting out of turn or
on a stale version, 413 a body over the limit, 422 an unknown option or an illegal move.
The game is never changed by a refused request.
"""

from __future__ import annotations

from dicegames.core.errors import GameOver, IllegalAction, NotYourTurn, Reroll


class ApiError(Exception):
    """A request the app refuses: HTTP ``status``, a stable ``code`` and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        """The error body sent to clients."""
        return {"error": self.code, "message": self.message}


def from_engine(error: IllegalAction) -> ApiError:
    """Map the engine's refusal of a move to the API's status and code."""
    if isinstance(error, GameOver):
        return ApiError(409, "game_over", str(error))
    if isinstance(error, NotYourTurn):
        return ApiError(409, "not_your_turn", str(error))
    if isinstance(error, Reroll):
        return ApiError(422, "roll_again", str(error))
    return ApiError(422, "illegal_move", str(error))
