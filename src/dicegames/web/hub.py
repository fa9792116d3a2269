"""The match hub: creates, loads and drives matches; every change goes through here.

Matches are loaded lazily from the store by replaying their moves, then kept in memory
while they are used (:mod:`.resident`: an idle match leaves memory, and is replayed again
on its next request).
Every change takes the match's lock, is checked by the engine, is committed to SQLite and
only then acknowledged and pushed to the viewers. A driver task per match plays the steps
nobody needs to decide on: automatic dice, bot moves (thought out in a worker thread so the
server stays responsive) and forced passes, each after a short pause so people can follow.

Automatic rolls come from the match's committed dice (:mod:`dicegames.core.fair`): a secret
the server draws at creation and never shows before the end (only its SHA-256 commitment is
public), or a seed its creator chose, which the match then shows to everyone.

The database is used off the event loop (:mod:`dicegames.web.store`); while a move is being
committed the match's state does not show it, and it is shown, acknowledged and pushed only
once committed. A move that cannot be committed (another process holds the file locked) is
refused with :class:`~dicegames.web.domain.StoreBusy` and the match is as before; a driver
that meets it waits and tries again (:mod:`.driver`).

With several server processes on one PostgreSQL database (:mod:`.cluster`), a move is
stored only at the version the match has in the database (another process's move first:
:class:`~dicegames.web.domain.Stale`, 409); the moves every process stores reach the
others' copies as notices (:meth:`Hub.heard`, :mod:`.fanout`), and one process at a time
drives each match (its lease, :mod:`.driver`).

The hub takes requests as typed values (:mod:`.commands`, checked by the handlers) and
refuses with domain errors (:mod:`.domain`, and the engine's own: an illegal move, an unknown
game or option); it knows nothing of HTTP, whose statuses and codes :mod:`.errors` gives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from dicegames.analysis.anytime import HintJob, hint_within
from dicegames.core.errors import (
    DiceGamesError,
    GameOver,
    IllegalAction,
    NotYourTurn,
    OptionError,
    PositionError,
)
from dicegames.core.fair import FairDice
from dicegames.core.game import Game, State
from dicegames.core.model import Seat
from dicegames.core.names import safe_name, text_problem
from dicegames.core.record import from_record
from dicegames.core.registry import configure
from dicegames.core.session import Event, PlayerInfo, Session
from dicegames.i18n import DEFAULT
from dicegames.web.cluster import Cluster
from dicegames.web.commands import Act, AskHint, CreateMatch, EnterDice, Undo, Upload
from dicegames.web.domain import (
    AutoDice,
    BadDice,
    BadPlayer,
    BadRecord,
    BadToken,
    CannotUndo,
    DamagedMatch,
    HintFailed,
    MatchNotFound,
    NoReview,
    NotDiceTime,
    NotFinished,
    ReadOnly,
    Stale,
    UnplayableMatch,
)
from dicegames.web.driver import Driving
from dicegames.web.fanout import Following
from dicegames.web.grace import closes_turn
from dicegames.web.live import LiveMatch
from dicegames.web.pool import AnalysisPool, Busy, JobFailed
from dicegames.web.resident import IDLE_EVICT, MATCHES_IN_MEMORY, Resident
from dicegames.web.reviews import Reviews, with_labels
from dicegames.web.stored import StoredMatch
from dicegames.web.stores import MatchStore
from dicegames.web.work import HINT_BUDGET, HINT_MARGIN, HINT_SLICE, ClientLimit, busy_error

RECORD_BUDGET = 5.0
"""Seconds a record may take to check or rebuild (its replay runs in a worker thread, one
record at a time, so the event loop keeps serving everyone meanwhile)."""

BOT_THREADS = 4
"""Threads that think out bot moves: theirs alone (analysis runs in :mod:`.pool`)."""

_T = TypeVar("_T")
log = logging.getLogger("dicegames.web")


class Hub(Driving, Following):
    """All matches of one server.

    Args:
        store: the database.
        bot_delay: seconds of pause before a bot move or forced pass (half of it before an
            automatic roll), so people can follow; 0 in tests and benchmarks.
        board_module: maps a game id to the URL of its board module, or None.
        idle_evict, matches_in_memory: when idle matches leave memory (:mod:`.resident`).
        undo_grace: seconds the next automatic step waits after a person's last decision
            of a turn, so they can still take it back (:mod:`.grace`); 0: no wait.
        cluster: this process's part in several processes on one PostgreSQL database
            (:mod:`.cluster`: moves made elsewhere, leases, orphaned matches), or None for a
            server alone on its database.
    """

    def __init__(self, store: MatchStore, bot_delay: float,
                 board_module: Callable[[str], str | None], idle_evict: float = IDLE_EVICT,
                 matches_in_memory: int = MATCHES_IN_MEMORY, *, undo_grace: float = 0.0,
                 cluster: Cluster | None = None) -> None:
        self.store = store
        self.cluster = cluster
        self.bot_delay = bot_delay
        self.undo_grace = undo_grace
        self.board_module = board_module
        self.resident = Resident(idle_evict, matches_in_memory)
        """The matches in memory."""
        self.pool = AnalysisPool()
        self.limits = ClientLimit()
        self.reviews = Reviews(self.pool, self.limits)
        self._bots = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="dicegames-bot")
        self._loading: dict[str, asyncio.Future[LiveMatch]] = {}
        self._catching: set[asyncio.Task[None]] = set()
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="dicegames-record")

    async def start(self) -> None:
        """As the server starts: join the cluster, if any. The analysis workers start with
        the first hint or review (:class:`~dicegames.web.pool.AnalysisPool`), so a server
        (or a test) that is never asked for analysis never pays their start."""
        if self.cluster is not None:
            await self.cluster.start(self)

    async def leave(self) -> None:
        """Leave the cluster, if any (its leases handed over to the other processes);
        before :meth:`close`."""
        if self.cluster is not None:
            await self.cluster.close()

    def close(self) -> None:
        """Stop the drivers, the reviews, the analysis workers and the threads (the server
        stops: nothing may keep the process alive; every acknowledged move is committed)."""
        for match in self.resident.matches():
            if match.driver is not None:
                match.driver.cancel()
        self.resident.close()
        self.reviews.close()
        self.pool.close()
        self._checker.shutdown(wait=False, cancel_futures=True)
        self._bots.shutdown(wait=False, cancel_futures=True)

    async def _off_loop(self, work: Callable[[], _T]) -> _T:
        """Run ``work`` (a record check or a replay) in the checker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._checker, work)

    # ------------------------------------------------------------------ creating, loading

    async def create(self, request: CreateMatch) -> LiveMatch:
        """Create the match ``request`` sets up (see ``docs/web-api.md``).

        Raises:
            OptionError: its subclass for an unknown game, player count, option or value.
            BadDice: manual dice with nobody to enter them; PositionError: a starting
                position the game refuses; BadPlayer: an unknown bot level.
        """
        # No seed: a secret nobody sees before the end. A creator's seed: the match shows
        # everyone that its creator seeded the dice (for tests and reproducible games).
        fair = FairDice.new() if request.seed is None else FairDice.seeded(request.seed)
        # never files=True: nothing a request holds may name a file to read
        game = configure(request.game, len(request.players), request.options)
        if request.dice == "manual" and all(player.is_bot for player in request.players):
            raise BadDice("manual dice need at least one person to enter them")
        session = Session(game, list(request.players), request.seed, request.dice,
                          start=_start_state(game, request.position), fair=fair)
        tokens = {seat: secrets.token_urlsafe(18)
                  for seat, player in enumerate(request.players) if not player.is_bot}
        try:
            match = LiveMatch(_new_id(), session, request.dice, tokens,
                              self.board_module(game.spec.id))
        except OptionError as error:
            raise BadPlayer(str(error)) from None
        await self.store.create(replace(self._stored(match), open=request.open,
                                        invited=request.invited))
        self.resident.keep(match)
        self.kick(match)
        return match

    async def upload(self, request: Upload) -> LiveMatch:
        """Store an uploaded record as a read-only match for replay.

        The record is checked in the checker thread within :data:`RECORD_BUDGET`; nothing
        in it can make the server read a file (see :func:`~dicegames.core.record.from_record`).

        Raises:
            RecordError: the record is malformed or one of its moves is illegal.
            BadRecord: a player's kind is a bot level the game does not have.
        """
        def check() -> LiveMatch:
            log: list[list[Event]] = []
            try:
                session = from_record(request.record, budget=RECORD_BUDGET, events=log)
                match = LiveMatch(_new_id(), session, "record", {},
                                  self.board_module(session.game.spec.id))
            except OptionError as error:  # an unknown bot level
                raise BadRecord(f"a player's kind: {error}") from None
            for happened in log:
                match.note(happened)
            return match

        match = await self._off_loop(check)
        await self.store.create(self._stored(match))
        self.resident.keep(match)
        return match

    async def get(self, match_id: str) -> LiveMatch:
        """The match with this id, loaded from the store on first use (replayed in the
        checker thread, once however many requests ask for it meanwhile).

        Raises:
            MatchNotFound: there is no such match.
            DamagedMatch, UnplayableMatch: it is stored but cannot be rebuilt.
        """
        match = self.resident.find(match_id)
        if match is not None:
            return match
        loading = self._loading.get(match_id)
        if loading is None:
            if len(match_id) > 64:
                raise MatchNotFound(f"there is no match {match_id[:64]!r}")
            loading = asyncio.ensure_future(self._load(match_id))
            self._loading[match_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(match_id, None))
        match = await asyncio.shield(loading)
        held = self.resident.find(match_id)
        if held is not None:  # another request kept it first
            return held
        self.resident.keep(match)
        self.kick(match)
        self.recheck(match)  # other processes' moves while it was being read
        return match

    async def _load(self, match_id: str) -> LiveMatch:
        """Read a match from the store and replay it (in the checker thread)."""
        stored = await self.store.load(match_id)
        if stored is None:
            raise MatchNotFound(f"there is no match {match_id!r}")
        return await self._off_loop(lambda: self._rebuild(stored))

    def _rebuild(self, stored: StoredMatch) -> LiveMatch:
        """A stored match replayed into memory (in the checker thread)."""
        try:
            players = [PlayerInfo(safe_name(p["name"], seat + 1), p["kind"])
                       for seat, p in enumerate(stored.players)]  # older rows: any text
            game = configure(stored.game, len(players), stored.options)
            start = None if stored.position is None else game.from_position(stored.position)
            session = Session(game, players, stored.seed,
                              "manual" if stored.dice == "manual" else "auto", start=start,
                              fair=_stored_fair(stored))
            log = [session.apply(text, seat) for seat, text, _several in stored.moves]
            match = LiveMatch(stored.id, session, stored.dice, stored.tokens,
                              self.board_module(game.spec.id))
        except DiceGamesError as error:  # stored by a version whose rules differ
            raise UnplayableMatch(f"match {stored.id!r} cannot be rebuilt by this version of "
                                  f"dicegames: {error}") from None
        except (LookupError, TypeError, ValueError, AttributeError) as error:  # edited rows
            raise DamagedMatch(f"match {stored.id!r} is damaged in the database and cannot "
                               f"be rebuilt: {error!r}") from None
        for happened in log:
            match.note(happened)
        match.rematch = stored.rematch
        return match

    async def seats_of(self, match: LiveMatch, tokens: str | None) -> tuple[Seat, ...]:
        """The seats held by a comma-separated list of tokens (none: a spectator).

        Every use of a seat's token comes through here (state, QR code, websocket, act,
        dice, undo, hint), so here the seats are marked claimed: a token someone used is
        never handed to a stranger by the lobby (:meth:`Store.claim`).

        Raises:
            BadToken: a token is not one of this match's seat tokens.
        """
        if not tokens:
            return ()
        seats = []
        for token in tokens.split(","):
            seat = match.token_seats.get(token.strip())
            if seat is None:
                raise BadToken("that seat token does not belong to this match")
            seats.append(seat)
        held = tuple(sorted(set(seats)))
        if not match.claimed.issuperset(held):  # the first use of a token: one read or write
            await self.store.claim(match.id, held)
            match.claimed.update(held)
        return held

    async def seat_of(self, match: LiveMatch, token: str) -> Seat:
        """The one seat a token holds (:class:`BadToken` when it holds none)."""
        if not token:
            raise BadToken("a seat token is needed to act ('token')")
        return (await self.seats_of(match, token))[0]

    # ------------------------------------------------------------------ changes

    async def act(self, match: LiveMatch, request: Act) -> int:
        """A person's decision for the seat their token holds; returns the new version
        (``IllegalAction`` when the rules refuse it, ``StoreBusy`` when it cannot be
        committed; the other refusals: :meth:`_check_open`, :meth:`_check_deciding`)."""
        seat = await self.seat_of(match, request.token)
        async with match.lock:
            self._check_open(match, request.expect)
            self._check_deciding(match, seat)
            await self._apply(match, request.move, seat)
            if closes_turn(match.session) and self._next_step(match) is not None:
                match.grace.open(self.undo_grace)
        self.changed(match)
        return match.version

    async def enter_dice(self, match: LiveMatch, request: EnterDice) -> int:
        """Physical dice typed in by a person of the match (manual mode only: else
        :class:`AutoDice`; :class:`NotDiceTime` while a player decides)."""
        await self.seat_of(match, request.token)
        async with match.lock:
            self._check_open(match, request.expect)
            if match.dice != "manual":
                raise AutoDice("this match's dice are rolled by the server")
            if not match.state.is_chance:
                raise NotDiceTime("the dice are not rolled now: a player decides")
            await self._apply(match, request.dice, None)
        self.changed(match)
        return match.version

    async def undo(self, match: LiveMatch, request: Undo) -> int:
        """Take back the last move, when it is the token holder's own decision
        (:class:`CannotUndo` otherwise)."""
        seat = await self.seat_of(match, request.token)
        async with match.lock:
            self._check_open(match, request.expect)
            if not match.session.can_undo(seat):
                raise CannotUndo("only your own last decision can be taken back, before the "
                                 "dice are rolled again or another player acts")
            await _committed(self.store.remove_move(match.id, match.version - 1),
                             lambda: _take_back(match))
        self.changed(match)
        return match.version

    async def hint(self, match: LiveMatch, request: AskHint, lang: str = DEFAULT,
                   client: str = "") -> dict[str, Any]:
        """What to play for the seat the token holds, which must be deciding now, found
        within :data:`~dicegames.web.work.HINT_BUDGET` seconds of asking:
        ``{"seat", "version", "revision", "move", "label", "bot", "estimate", "interval",
        "rollouts", "exact", "complete"}`` (see :func:`~dicegames.analysis.anytime.
        hint_within`), ``move`` in the notation the seat's choices use, ``label`` its
        button's text in ``lang``; the hint holds while the match's state has that
        ``revision``.

        The work runs in the analysis pool on the position, with generators seeded by the
        version; asking changes nothing in the match. It counts against ``client``'s
        limit (:class:`~dicegames.web.domain.TooBusy`); ``AnalysisBusy`` when no worker is
        free in time, :class:`HintFailed` when the bot fails.
        """
        arrived = time.monotonic()
        seat = await self.seat_of(match, request.token)
        async with match.lock:
            self._check_open(match, None)
            self._check_deciding(match, seat)
            state, version, revision = match.state, match.version, match.revision
            labels = {hint["move"]: hint["label"] for hint in match.hints(seat, lang)}
        game = match.session.game
        with self.limits.slot(client, "hint"):
            if await self.pool.ready():  # the first hint: the workers' start is not its budget
                arrived = time.monotonic()
            try:
                found = await self.pool.run(
                    hint_within, HintJob(game.spec.id, game.players, dict(game.options),
                                         game.position(state), seat, version, HINT_SLICE),
                    deadline=arrived + HINT_BUDGET - HINT_MARGIN, urgent=True)
            except (Busy, TimeoutError, OSError, EOFError):  # a worker that died: replaced
                raise busy_error() from None
            except JobFailed as error:  # a failing bot must not take the connection down
                raise HintFailed(f"the hint bot failed: {error}") from None
        return {"seat": seat, "version": version, "revision": revision,
                **found.to_json(), "label": labels.get(found.move, found.move)}

    async def review(self, match: LiveMatch, lang: str = DEFAULT,
                     client: str = "") -> dict[str, Any]:
        """The review of a finished match so far (:mod:`dicegames.web.reviews`), started on
        first asking (counting against ``client``'s limit while it runs), its flagged moves
        labelled in ``lang``; :class:`NotFinished` while the game goes on."""
        async with match.lock:
            if not match.session.state.is_terminal:
                raise NotFinished("only a finished game can be reviewed; this one is still "
                                  "being played")
            job = self.reviews.get(match.id, match.revision, match.session, client)
            return with_labels(job.to_json(), match.session, lang)

    async def cancel_review(self, match: LiveMatch) -> dict[str, Any]:
        """Stop the match's review if it runs (asking for it again resumes it); the
        review so far."""
        async with match.lock:
            job = self.reviews.cancel(match.id, match.revision)
        if job is None:
            raise NoReview("this match's review was never started")
        if job.task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(job.task), 1.0)
        return job.to_json()

    def changed(self, match: LiveMatch) -> None:
        """After a change: wake the viewers and let the driver look for automatic steps."""
        self.resident.touch(match)
        match.wake_viewers()
        if self.cluster is not None:  # made here: the lease may have been given up since
            self.cluster.forget(match.id)
        self.kick(match)

    def _check_deciding(self, match: LiveMatch, seat: Seat) -> None:
        """:class:`~dicegames.core.errors.NotYourTurn` unless ``seat`` decides now (caller
        holds the lock)."""
        state = match.state
        if state.is_chance:
            raise NotYourTurn("the dice must be rolled now; no player decides")
        if seat not in state.current_players:
            deciding = ", ".join(match.session.name(s) for s in state.current_players)
            raise NotYourTurn(f"it is not {match.session.name(seat)}'s decision now; "
                              f"deciding now: {deciding}")

    def _check_open(self, match: LiveMatch, expect: int | None) -> None:
        """Refuse a change of a record (:class:`ReadOnly`), of a match reloaded meanwhile or
        past ``expect`` (:class:`Stale`), of a finished game (``GameOver``)."""
        if match.status == "record":
            raise ReadOnly("an uploaded record can only be replayed")
        if not self.resident.holds(match):  # dropped from memory since it was fetched
            raise Stale("the match was reloaded meanwhile: reload the state and decide again")
        if expect is not None and expect != match.version:
            raise Stale(f"the match is at version {match.version}, not {expect!r}: reload "
                        "the state and decide again")
        if match.state.is_terminal:
            raise GameOver("the game is over: nothing more can be played")

    async def _apply(self, match: LiveMatch, move: Hashable, seat: Seat | None) -> None:
        """Check, commit and play one move (caller holds the lock).

        The move is checked by playing it, taken back at once, and played again only once
        it is committed: meanwhile nobody (a GET, a viewer's push) sees it.

        Raises:
            StoreBusy: the move could not be committed; the match is unchanged.
        """
        session = match.session
        try:
            session.apply(move, seat)
        except IllegalAction:
            raise
        except DiceGamesError as error:  # any other refusal of the move's text
            raise IllegalAction(str(error)) from None
        entry, finished = session.moves[-1], session.state.is_terminal
        session.undo()
        # finished: the match leaves the lobby with its last move
        await _committed(self.store.add_move(match.id, len(session.moves), entry.seat,
                                             entry.text, entry.several, finished=finished),
                         lambda: match.note(session.apply(move, seat)))

    def _stored(self, match: LiveMatch) -> StoredMatch:
        session = match.session
        return StoredMatch(
            match.id, session.game.spec.id, dict(session.game.options),
            [{"name": p.name, "kind": p.kind} for p in session.players], session.seed,
            match.dice, match.seat_tokens,
            [(entry.seat, entry.text, entry.several) for entry in session.moves],
            session.position, fair=None if session.fair is None else session.fair.stored())


def _stored_fair(stored: StoredMatch) -> FairDice | None:
    """A stored match's dice: its committed secret, or for a match stored before
    commitments its seed (it rolls on from it, and keeps it hidden until the end).

    Raises:
        RecordError: the stored commitment is malformed.
    """
    raw = stored.fair
    if raw is None:
        return None if stored.dice == "record" else FairDice.legacy(stored.seed)
    seed = raw.get("seed") if isinstance(raw, dict) else None
    return FairDice.from_json(raw, seed if isinstance(seed, int) else None)


async def _committed(write: Awaitable[None], then: Callable[[], object]) -> None:
    """Await ``write`` (a store call), then do ``then()`` (the same change in memory).

    Both happen even when the caller is cancelled meanwhile (a viewer leaving): the caller
    holds the match's lock until the end, and memory never differs from the database.
    The cancellation is raised once both are done.
    """
    async def both() -> None:
        await write
        then()

    task = asyncio.ensure_future(both())
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait((task,))
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        if not task.cancelled():
            task.exception()  # retrieved: a refused write is not an error left unread
        raise asyncio.CancelledError
    task.result()


def _take_back(match: LiveMatch) -> None:
    """Undo the last move in memory (its row is deleted)."""
    match.session.undo()
    match.forget_last()


def _start_state(game: Game[Any, Any, Any], position: str | None
                 ) -> State[Any, Any, Any] | None:
    """The state a new match's ``position`` describes (None: the start of the game).

    Raises:
        PositionError: the text holds control characters, or the game refuses it (the
            message names the field and what is allowed).
    """
    if position is None:
        return None
    problem = text_problem(position)
    if problem is not None:
        raise PositionError(f"'position' contains {problem}; a position is plain text (see "
                            "Positions on the game's rules page)")
    return game.from_position(position)


def _new_id() -> str:
    return secrets.token_urlsafe(9)
