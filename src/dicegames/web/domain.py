"""The match server's domain errors: what the hub, the store and the lobby refuse, by kind.

Each refusal is a class (a :class:`~dicegames.core.errors.DiceGamesError`, as the engine's
own errors are), raised where the problem is found and carrying a precise English sentence;
none of them knows about HTTP. :mod:`dicegames.web.errors` alone turns them, and the
engine's errors (an illegal move, an unknown option...), into a status and a stable code.
"""

from __future__ import annotations

from dicegames.core.errors import DiceGamesError


class MatchError(DiceGamesError):
    """Base class of the server's refusals.

    Attributes:
        retry_after: seconds after which the same request may succeed (a busy server), or
            None when sending it again cannot help.
    """

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# --------------------------------------------------------------------- malformed requests


class BadRequest(MatchError, ValueError):
    """A request field of the wrong type or shape; the message names the field and what
    it takes."""


class BadPlayer(MatchError, ValueError):
    """A new match's player that cannot sit: a bot invited, a kind that is neither a
    person nor a bot level."""


class BadDice(MatchError, ValueError):
    """A dice mode that does not exist, or manual dice with nobody to enter them."""


class SeededTable(MatchError, ValueError):
    """An open table with a creator's seed: whoever chose it could know every roll."""


class BadOpen(MatchError, ValueError):
    """An open table without an invited seat for someone from the lobby to take."""


class BadRecord(MatchError, ValueError):
    """An uploaded record whose players cannot sit (an unknown bot level)."""


# ------------------------------------------------------------------------ not found


class GameNotFound(MatchError, LookupError):
    """No game at this address (an unknown id in a URL)."""


class MatchNotFound(MatchError, LookupError):
    """No match with this id on this server."""


class StepNotFound(MatchError, LookupError):
    """A step of a match's history that does not exist."""


class NoBoard(MatchError, LookupError):
    """A game without a board module of its own."""


class NoReview(MatchError, LookupError):
    """A review cancelled that was never started."""


class TableNotFound(MatchError, LookupError):
    """No open table with this id (a private match answers the same)."""


# ---------------------------------------------------------------- who may, and when


class BadToken(MatchError):
    """A seat token that does not belong to the match, or none where one is needed."""


class DamagedMatch(MatchError):
    """A stored match whose rows are not what the server writes."""


class UnplayableMatch(MatchError):
    """A stored match that this version's rules cannot replay."""


class ReadOnly(MatchError):
    """A change asked of an uploaded record, which can only be replayed."""


class Stale(MatchError):
    """A change based on a version of the match that is no longer the current one."""


class AutoDice(MatchError):
    """Dice typed in for a match whose dice the server rolls."""


class NotDiceTime(MatchError):
    """Dice typed in while a player, not the dice, decides."""


class CannotUndo(MatchError):
    """An undo of anything but the asker's own last decision."""


class NotFinished(MatchError):
    """A review asked of a match still being played."""


class NotOver(MatchError):
    """A rematch ("play again") asked of a match still being played."""


class TableFull(MatchError):
    """An open table whose invited seats are all taken."""


# ---------------------------------------------------------------------- busy, failed


class TooBusy(MatchError):
    """A client with too much analysis (hints, reviews) in flight already."""


class AnalysisBusy(MatchError):
    """Every analysis worker stayed occupied for the whole time a hint may take."""


class StoreBusy(MatchError):
    """The database could not be used in time (another process holds it locked, the disk
    refused...). Nothing was changed; the request may be sent again."""


class HintFailed(MatchError):
    """The bot that thinks out a hint failed."""
