"""Play again: the same seats in a new match, for every device at the table.

When a match is over, any person of it may ask to play again with the seat tokens their
device holds (:class:`~dicegames.web.commands.Again`). The first such request creates the
rematch: the same game, options, dice mode, players (names and bot levels) in the same
seats, from the game's start, with fresh dice (a new secret: even a match whose creator
seeded the dice is not replayed roll for roll). It is private (not listed in the lobby,
whatever the first match was): its people are the ones who ask. Every later request gets
the same rematch, so every device lands in the same new match.

Each request is answered with the new match's tokens of the seats its own tokens held, and
of no other seat: a phone that joined by its seat link gets its own seat back, never
another's. The rematch's id is stored with the first match (so it survives a restart and
the match leaving memory) and pushed to everyone watching (``rematch`` in the state), so
spectators can follow with a link.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.model import Seat
from dicegames.web.commands import Again, CreateMatch
from dicegames.web.domain import NotOver, ReadOnly
from dicegames.web.fanout import Notice
from dicegames.web.hub import Hub
from dicegames.web.live import LiveMatch


@dataclass(frozen=True, slots=True)
class Rematch:
    """The answer to a request to play again.

    Attributes:
        match: the new match.
        seats: the seats the request's tokens held, each with its token in ``match``.
        created: this request created the match (every later one finds it).
    """

    match: LiveMatch
    seats: dict[Seat, str]
    created: bool


async def play_again(hub: Hub, match: LiveMatch, request: Again) -> Rematch:
    """The rematch of ``match`` for the seats ``request``'s tokens hold, created by the
    first request and found by every later one.

    Raises:
        BadToken: a token that is not one of the match's seat tokens.
        ReadOnly: an uploaded record (nobody sits at it).
        NotOver: the match is still being played.
    """
    seats = await hub.seats_of(match, ",".join(request.tokens))
    if match.status == "record":
        raise ReadOnly("an uploaded record has no seats to play again")
    if match.status != "finished":
        raise NotOver("this match is still being played: play again once it is over")
    created = False
    async with match.lock:  # one rematch however many ask at the same time
        if match.rematch is None:
            session = match.session
            fresh = await hub.create(CreateMatch(
                game=session.game.spec.id, players=tuple(session.players),
                options=dict(session.game.options), dice=session.dice))
            # another server process on the same file may have been first: its rematch wins
            match.rematch = await hub.store.set_rematch(match.id, fresh.id)
            created = match.rematch == fresh.id
        rematch_id = match.rematch
    if created:
        hub.changed(match)  # everyone watching is told where the next game is
        await hub.announce(Notice(match.id, 0, "rematch", text=rematch_id))
    new = await hub.get(rematch_id)
    return Rematch(new, {seat: new.seat_tokens[seat] for seat in seats
                         if seat in new.seat_tokens}, created)
