"""The exceptions dicegames raises, one class per kind of mistake.

Every error is a subclass of :class:`DiceGamesError`, so a front end can catch them all in one
place and show the message, which always says what was wrong and what is allowed. The ones a
caller can cause with bad input are also :class:`ValueError`, as python-chess does.
"""

from __future__ import annotations


class DiceGamesError(Exception):
    """Base class of every error raised on purpose by dicegames."""


class OptionError(DiceGamesError, ValueError):
    """An unknown game, option, option value or player count.

    Each kind has its subclass, raised where the mistake is found, so a front end tells
    them apart by type (the web app's error codes), never by the message.
    """


class UnknownGame(OptionError):
    """No registered game has this id or alias; the message lists the known ids."""


class PlayerCount(OptionError):
    """A player count the game does not allow; the message names the allowed range."""


class UnknownOption(OptionError):
    """An option name the game does not declare; the message lists its options."""


class BadOptionValue(OptionError):
    """A value an option does not take (out of range, wrong type, an unreadable or
    malformed file); the message names the option and what it takes."""


class UnknownBot(OptionError):
    """A bot level the game does not have; the message lists its bots."""


class IllegalAction(DiceGamesError, ValueError):
    """A move, roll or notation that the rules do not allow in this state."""


class NotYourTurn(IllegalAction):
    """A seat tried to act while it is not one of the seats deciding now."""


class GameOver(IllegalAction):
    """Something was applied to a finished game."""


class GameNotOver(DiceGamesError):
    """The result of a game was asked for before the game ended."""


class Reroll(IllegalAction):
    """Physical dice showed a face that the rules roll again (it changes nothing).

    Raised when typed dice cannot stand, e.g. a 6 on the opening roll of "For a Few Extra
    Meters". The front end tells the person to roll again and asks once more.
    """


class RecordError(DiceGamesError, ValueError):
    """A saved game record that is corrupt, tampered with, or not a record at all.

    Attributes:
        index: the 0-based index of the offending move in ``moves``, or ``None`` when the
            problem is in the record's header (format, game, options, players).
        reason: what was wrong, without the location prefix.
    """

    def __init__(self, reason: str, index: int | None = None) -> None:
        self.index = index
        self.reason = reason
        where = f"move {index}: " if index is not None else ""
        super().__init__(f"bad game record: {where}{reason}")


class PositionError(DiceGamesError, ValueError):
    """A position text (see ``Game.from_position``) that is malformed or cannot occur.

    The message names the field and what is wrong with it (a square that does not exist,
    two cars on one square, more crosses than a row has boxes, a wrong number of fields...)
    and what is allowed there.
    """
