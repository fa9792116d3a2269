"""The web app's error answers: one JSON shape, and a status and code per kind of refusal.

Every refusal is ``{"error": code, "message": text}`` with a 4xx status: 400 malformed JSON
or fields, 403 a wrong seat token, 404 an unknown match or game, 409 acting out of turn or
on a stale version (and 409 ``damaged_match`` for a match whose stored row is damaged), 413 a
body over the limit, 422 an unknown option or an illegal move, 429 too many requests from one
client (:mod:`.limits`, with ``Retry-After``). The game is never changed by a refused request.
503 ``store_busy`` (with ``Retry-After``) is the one 5xx a request may meet on purpose: the
database could not be written (or read) in time, for example while another process holds it
locked; nothing was changed, and the same request may be sent again after ``retry_after``
seconds.

The codes are stable (clients match on them). The message is a precise English sentence for
the developer; for the refusals a player can meet while playing, a request in another
language gets that code's sentence in its language as ``message`` and the precise English
one as ``detail``.

The domain (the hub, the store, the lobby, the engine) raises
:class:`~dicegames.core.errors.DiceGamesError` subclasses that know nothing of HTTP (see
:mod:`dicegames.web.domain`); :data:`REFUSALS` here is the one table from each of those
classes to its status and code, and :func:`refusal` applies it. :class:`ApiError` is the
answer itself, raised directly only for what is about HTTP alone (a body's media type or
size, malformed JSON, a rate limit).
"""

from __future__ import annotations

from dicegames.core.errors import (
    BadOptionValue,
    DiceGamesError,
    GameNotOver,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    PlayerCount,
    PositionError,
    RecordError,
    Reroll,
    UnknownBot,
    UnknownGame,
    UnknownOption,
)
from dicegames.core.names import BadName
from dicegames.i18n import DEFAULT, N_, translate
from dicegames.web import domain

PLAYER_MESSAGES: dict[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "illegal_move": N_("That move is not allowed now: choose one of the moves offered."),
    "game_over": N_("The game is over: nothing more can be played."),
    "stale": N_("The game has moved on: look at the board again and choose."),
    "roll_again": N_("Roll again: this roll does not count."),
    "bad_dice": N_("Those dice cannot be entered now: enter the faces shown on the dice."),
    "not_dice_time": N_("No dice are to be rolled now."),
    "auto_dice": N_("The computer rolls the dice in this game."),
    "cannot_undo": N_("There is no move you can take back now."),
    "read_only": N_("This is a saved game: it can only be replayed."),
    "bad_token": N_("Only a player with a seat link can do that; you are watching."),
    "unknown_match": N_("There is no such game on this server."),
    "unknown_table": N_("There is no such open table on this server."),
    "table_full": N_("Someone was quicker: this table has no free seat left."),
    "not_finished": N_("Only a finished game can be reviewed."),
    "not_over": N_("This game is not over yet: play it to the end before playing again."),
    "too_large": N_("That is too much at once for this server."),
    "seeded_table": N_("An open table cannot use dice chosen by its creator: leave the seed "
                       "out."),
    "store_busy": N_("The server cannot save the game just now: try again in a moment."),
    "damaged_match": N_("This game's saved data is damaged: it cannot be shown."),
    "rate_limited": N_("Too many requests at once: wait a moment, then try again."),
    "too_busy": N_("You asked for too much at once: wait a moment and try again."),
    "busy": N_("The server is busy thinking for others: wait a moment and try again."),
}
"""The refusals a player can meet while playing, each as a sentence for the player."""


class ApiError(Exception):
    """A request the app refuses: HTTP ``status``, a stable ``code`` and a sentence.

    ``retry_after``: seconds after which the same request may succeed (sent as the
    ``Retry-After`` header, and as ``retry_after`` in a websocket's error), or None.
    """

    def __init__(self, status: int, code: str, message: str,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def to_json(self, lang: str = DEFAULT) -> dict[str, str]:
        """The error body sent to clients: in ``lang`` for a refusal a player can meet (the
        precise English sentence then goes in ``detail``)."""
        sentence = PLAYER_MESSAGES.get(self.code)
        if lang == DEFAULT or sentence is None:
            return {"error": self.code, "message": self.message}
        return {"error": self.code, "message": translate(lang, sentence),
                "detail": self.message}


REFUSALS: dict[type[DiceGamesError], tuple[int, str]] = {
    # the engine: moves, options, positions, records, names
    IllegalAction: (422, "illegal_move"),
    NotYourTurn: (409, "not_your_turn"),
    GameOver: (409, "game_over"),
    Reroll: (422, "roll_again"),
    OptionError: (422, "bad_option"),
    UnknownOption: (422, "bad_option"),
    BadOptionValue: (422, "bad_option"),
    UnknownGame: (422, "unknown_game"),
    PlayerCount: (422, "bad_player_count"),
    UnknownBot: (422, "bad_player"),
    BadName: (422, "bad_player"),
    PositionError: (422, "bad_position"),
    RecordError: (422, "bad_record"),
    # the server: requests, matches, tables, busy workers
    domain.BadRequest: (400, "bad_request"),
    domain.BadPlayer: (422, "bad_player"),
    domain.BadDice: (422, "bad_dice"),
    domain.SeededTable: (422, "seeded_table"),
    domain.BadOpen: (422, "bad_open"),
    domain.BadRecord: (422, "bad_record"),
    domain.GameNotFound: (404, "unknown_game"),
    domain.MatchNotFound: (404, "unknown_match"),
    domain.StepNotFound: (404, "unknown_step"),
    domain.NoBoard: (404, "no_board"),
    domain.NoReview: (404, "no_review"),
    domain.TableNotFound: (404, "unknown_table"),
    domain.BadToken: (403, "bad_token"),
    domain.DamagedMatch: (409, "damaged_match"),
    domain.UnplayableMatch: (409, "unplayable_match"),
    domain.ReadOnly: (409, "read_only"),
    domain.Stale: (409, "stale"),
    domain.AutoDice: (409, "auto_dice"),
    domain.NotDiceTime: (409, "not_dice_time"),
    domain.CannotUndo: (409, "cannot_undo"),
    domain.NotFinished: (409, "not_finished"),
    domain.NotOver: (409, "not_over"),
    domain.TableFull: (409, "table_full"),
    domain.TooBusy: (429, "too_busy"),
    domain.AnalysisBusy: (503, "busy"),
    domain.StoreBusy: (503, "store_busy"),
    domain.HintFailed: (500, "server_error"),
}
"""Each domain error class's HTTP status and stable code (a subclass not listed takes its
nearest listed base's). Every class the engine and the server raise is listed (a test holds
it) except :data:`NOT_REFUSALS`."""

NOT_REFUSALS: frozenset[type[DiceGamesError]] = frozenset(
    {DiceGamesError, domain.MatchError, GameNotOver})
"""Bases never raised as such, and :class:`~dicegames.core.errors.GameNotOver` (a result
asked for before the end: a bug in the asker). Reaching a handler, they are failures, not
refusals: logged and answered 500 like any other."""


def refusal(error: DiceGamesError) -> ApiError | None:
    """The answer to a request the domain refused with ``error``: its class's status and
    code (:data:`REFUSALS`), its sentence, and its ``retry_after`` when it has one; None
    for an error that is no refusal (:data:`NOT_REFUSALS`: the caller lets it fail)."""
    for cls in type(error).__mro__:
        if cls in REFUSALS:
            status, code = REFUSALS[cls]
            retry_after = error.retry_after if isinstance(error, domain.MatchError) else None
            return ApiError(status, code, str(error), retry_after=retry_after)
    return None
