"""The match hub: creates, loads and drives matches; every change goes through here.

Matches are loaded lazily from the store by replaying their moves, then kept in memory.
Every change takes the match's lock, is checked by the engine, is committed to SQLite and
only then acknowledged and pushed to the viewers. A driver task per match plays the steps
nobody needs to decide on: automatic dice, bot moves (thought out in a worker thread so the
server stays responsive) and forced passes, each after a short pause so people can follow.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import secrets
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from dicegames.bots import adviser
from dicegames.core.chance import sample
from dicegames.core.errors import (
    DiceGamesError,
    IllegalAction,
    OptionError,
    PositionError,
    RecordError,
)
from dicegames.core.game import Game, State
from dicegames.core.model import PASS, Seat
from dicegames.core.record import MAX_NAME, MAX_POSITION, from_record
from dicegames.core.registry import configure
from dicegames.core.session import Event, PlayerInfo, Session
from dicegames.i18n import DEFAULT
from dicegames.web.errors import ApiError, from_engine
from dicegames.web.live import LiveMatch
from dicegames.web.lobby import table_setup
from dicegames.web.reviews import Reviews, with_labels
from dicegames.web.store import Store, StoredMatch

DICE_MODES = ("auto", "manual")

RECORD_BUDGET = 5.0
"""Seconds a record may take to check or rebuild (its replay runs in a worker thread, one
record at a time, so the event loop keeps serving everyone meanwhile)."""

RECORDS_IN_MEMORY = 32
"""How many uploaded records stay in memory (the least recently used one without viewers
is dropped past this, and rebuilt from the database when asked for again)."""

_T = TypeVar("_T")


def roll_rng(seed: int, index: int) -> random.Random:
    """The generator of the automatic roll that is move ``index``: restart-safe and fixed."""
    return random.Random(f"{seed}/{index}")


class Hub:
    """All matches of one server.

    Args:
        store: the database.
        bot_delay: seconds of pause before a bot move or forced pass (half of it before an
            automatic roll), so people can follow; 0 in tests and benchmarks.
        board_module: maps a game id to the URL of its board module, or None.
    """

    def __init__(self, store: Store, bot_delay: float,
                 board_module: Callable[[str], str | None]) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.board_module = board_module
        self._matches: dict[str, LiveMatch] = {}
        self.reviews = Reviews()
        self._records: OrderedDict[str, None] = OrderedDict()
        self._loading: dict[str, asyncio.Future[LiveMatch]] = {}
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="dicegames-record")

    def close(self) -> None:
        """Stop the record checker's and the reviews' threads (after the server stops)."""
        self._checker.shutdown(wait=False, cancel_futures=True)
        self.reviews.close()

    async def _off_loop(self, work: Callable[[], _T]) -> _T:
        """Run ``work`` (a record check or a replay) in the checker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._checker, _quietly, work)

    # ------------------------------------------------------------------ creating, loading

    def create(self, body: dict[str, Any]) -> LiveMatch:
        """Create a match from the API's request body (see ``docs/web-api.md``)."""
        game_id = body.get("game")
        if not isinstance(game_id, str):
            raise ApiError(400, "bad_request", "'game' must be a game id (text)")
        players = _players(body.get("players"))
        open_table, invited = table_setup(body, players)
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise ApiError(400, "bad_request", "'options' must be an object of option values")
        dice = body.get("dice", "auto")
        if dice not in DICE_MODES:
            raise ApiError(422, "bad_dice", f"'dice' must be one of {', '.join(DICE_MODES)}")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ApiError(400, "bad_request", "'seed' must be a whole number from 0 to 2**63-1")
        try:  # never files=True: nothing a request holds may name a file to read
            game = configure(game_id, len(players), options)
        except OptionError as error:
            raise ApiError(422, _option_code(str(error)), str(error)) from None
        if dice == "manual" and all(player.is_bot for player in players):
            raise ApiError(422, "bad_dice", "manual dice need at least one person to enter them")
        session = Session(game, players, seed, "manual" if dice == "manual" else "auto",
                          start=_start(game, body.get("position")))
        tokens = {seat: secrets.token_urlsafe(18)
                  for seat, player in enumerate(players) if not player.is_bot}
        try:
            match = LiveMatch(_new_id(), session, dice, tokens, self.board_module(game.spec.id))
        except OptionError as error:
            raise ApiError(422, "bad_player", str(error)) from None
        self.store.create(replace(self._stored(match), open=open_table, invited=invited))
        self._matches[match.id] = match
        self.kick(match)
        return match

    async def upload(self, record: object) -> LiveMatch:
        """Store an uploaded record as a read-only match for replay.

        The record is checked in the checker thread within :data:`RECORD_BUDGET`; nothing
        in it can make the server read a file (see :func:`~dicegames.core.record.from_record`).
        """
        def check() -> LiveMatch:
            log: list[list[Event]] = []
            try:
                session = from_record(record, budget=RECORD_BUDGET, events=log)
                match = LiveMatch(_new_id(), session, "record", {},
                                  self.board_module(session.game.spec.id))
            except RecordError as error:
                raise ApiError(422, "bad_record", str(error)) from None
            except OptionError as error:  # an unknown bot level
                raise ApiError(422, "bad_record", f"a player's kind: {error}") from None
            for happened in log:
                match.note(happened)
            return match

        match = await self._off_loop(check)
        self.store.create(self._stored(match))
        self._keep(match)
        return match

    async def get(self, match_id: str) -> LiveMatch:
        """The match with this id, loaded from the store on first use (replayed in the
        checker thread, once however many requests ask for it meanwhile).

        Raises:
            ApiError: 404 when there is no such match.
        """
        match = self._matches.get(match_id)
        if match is not None:
            if match_id in self._records:
                self._records.move_to_end(match_id)
            return match
        loading = self._loading.get(match_id)
        if loading is None:
            stored = self.store.load(match_id) if len(match_id) <= 64 else None
            if stored is None:
                raise ApiError(404, "unknown_match", f"there is no match {match_id!r}")
            loading = asyncio.ensure_future(self._off_loop(lambda: self._rebuild(stored)))
            self._loading[match_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(match_id, None))
        match = await asyncio.shield(loading)
        if match_id not in self._matches:
            self._keep(match)
            self.kick(match)
        return match

    def _keep(self, match: LiveMatch) -> None:
        """Hold ``match`` in memory; past :data:`RECORDS_IN_MEMORY` uploaded records, drop
        the least recently used one nobody watches (records are read-only: nothing is lost)."""
        self._matches[match.id] = match
        if match.status != "record":
            return
        self._records[match.id] = None
        for old in list(self._records)[:-RECORDS_IN_MEMORY]:
            if not self._matches[old].viewers:
                del self._records[old], self._matches[old]

    def _rebuild(self, stored: StoredMatch) -> LiveMatch:
        """A stored match replayed into memory (in the checker thread)."""
        try:
            players = [PlayerInfo(p["name"], p["kind"]) for p in stored.players]
            game = configure(stored.game, len(players), stored.options)
            start = None if stored.position is None else game.from_position(stored.position)
            session = Session(game, players, stored.seed,
                              "manual" if stored.dice == "manual" else "auto", start=start)
            log = [session.apply(text, seat) for seat, text, _several in stored.moves]
            match = LiveMatch(stored.id, session, stored.dice, stored.tokens,
                              self.board_module(game.spec.id))
        except DiceGamesError as error:  # stored by a version whose rules differ
            raise ApiError(409, "unplayable_match", f"match {stored.id!r} cannot be rebuilt "
                           f"by this version of dicegames: {error}") from None
        for happened in log:
            match.note(happened)
        return match

    def seats_of(self, match: LiveMatch, tokens: str | None) -> tuple[Seat, ...]:
        """The seats held by a comma-separated list of tokens (none: a spectator).

        Every use of a seat's token comes through here (state, QR code, websocket, act,
        dice, undo, hint), so here the seats are marked claimed: a token someone used is
        never handed to a stranger by the lobby (:meth:`Store.claim`).

        Raises:
            ApiError: 403 when a token is not one of this match's seat tokens.
        """
        if not tokens:
            return ()
        seats = []
        for token in tokens.split(","):
            seat = match.token_seats.get(token.strip())
            if seat is None:
                raise ApiError(403, "bad_token", "that seat token does not belong to this match")
            seats.append(seat)
        held = tuple(sorted(set(seats)))
        self.store.claim(match.id, held)
        return held

    def seat_of(self, match: LiveMatch, token: object) -> Seat:
        """The one seat a token holds (403 when it holds none)."""
        if not isinstance(token, str) or not token:
            raise ApiError(403, "bad_token", "a seat token is needed to act ('token')")
        return self.seats_of(match, token)[0]

    # ------------------------------------------------------------------ changes

    async def act(self, match: LiveMatch, token: object, move: object,
                  expect: object = None) -> int:
        """A person's decision for the seat their token holds; returns the new version."""
        seat = self.seat_of(match, token)
        text = _move_text(move)
        async with match.lock:
            self._check_open(match, expect)
            self._check_deciding(match, seat)
            self._apply(match, text, seat)
        self.changed(match)
        return match.version

    async def enter_dice(self, match: LiveMatch, token: object, dice: object,
                         expect: object = None) -> int:
        """Physical dice typed in by a person of the match (manual mode only)."""
        self.seat_of(match, token)
        text = _move_text(dice)
        async with match.lock:
            self._check_open(match, expect)
            if match.dice != "manual":
                raise ApiError(409, "auto_dice", "this match's dice are rolled by the server")
            if not match.state.is_chance:
                raise ApiError(409, "not_dice_time", "the dice are not rolled now: a player "
                               "decides")
            self._apply(match, text, None)
        self.changed(match)
        return match.version

    async def undo(self, match: LiveMatch, token: object, expect: object = None) -> int:
        """Take back the last move, when it is the token holder's own decision."""
        seat = self.seat_of(match, token)
        async with match.lock:
            self._check_open(match, expect)
            if not match.session.can_undo(seat):
                raise ApiError(409, "cannot_undo", "only your own last decision can be taken "
                               "back, before the dice are rolled again or another player acts")
            self.store.remove_move(match.id, match.version - 1)
            match.session.undo()
            match.forget_last()
        self.changed(match)
        return match.version

    async def hint(self, match: LiveMatch, token: object,
                   lang: str = DEFAULT) -> dict[str, Any]:
        """What the game's hint bot (:func:`dicegames.bots.adviser`) would play for the seat
        the token holds, which must be deciding now: ``{"seat", "version", "revision",
        "move", "label", "bot"}``, ``move`` in the notation the seat's choices use, ``label``
        its button's text in ``lang``; the hint holds while the match's state has that
        ``revision``.

        The adviser is built and thinks in a worker thread on the immutable state, with a
        generator seeded by the version; asking changes nothing in the match.
        """
        seat = self.seat_of(match, token)
        async with match.lock:
            self._check_open(match, None)
            self._check_deciding(match, seat)
            state, version, revision = match.state, match.version, match.revision
            labels = {hint["move"]: hint["label"] for hint in match.hints(seat, lang)}
        game = match.session.game

        def think() -> tuple[str, str]:
            level, bot = adviser(game, random.Random(version))
            return level, str(bot.choose(state, seat))

        try:
            level, move = await asyncio.to_thread(think)
        except Exception as error:  # a failing bot must not take the connection down
            raise ApiError(500, "server_error", f"the hint bot failed: {error}") from None
        return {"seat": seat, "version": version, "revision": revision, "move": move,
                "label": labels.get(move, move), "bot": level}

    async def review(self, match: LiveMatch, lang: str = DEFAULT) -> dict[str, Any]:
        """The review of a finished match so far (:mod:`dicegames.web.reviews`), started on
        first asking, its flagged moves labelled in ``lang``; 409 ``not_finished`` while the
        game goes on."""
        async with match.lock:
            if not match.session.state.is_terminal:
                raise ApiError(409, "not_finished", "only a finished game can be reviewed; "
                               "this one is still being played")
            job = self.reviews.get(match.id, match.revision, match.session)
            return with_labels(job.to_json(), match.session, lang)

    def changed(self, match: LiveMatch) -> None:
        """After a change: wake the viewers and let the driver look for automatic steps."""
        match.wake_viewers()
        self.kick(match)

    def _check_deciding(self, match: LiveMatch, seat: Seat) -> None:
        """409 ``not_your_turn`` unless ``seat`` decides now (caller holds the lock)."""
        state = match.state
        if state.is_chance:
            raise ApiError(409, "not_your_turn", "the dice must be rolled now; no player "
                           "decides")
        if seat not in state.current_players:
            deciding = ", ".join(match.session.name(s) for s in state.current_players)
            raise ApiError(409, "not_your_turn",
                           f"it is not {match.session.name(seat)}'s decision now; "
                           f"deciding now: {deciding}")

    def _check_open(self, match: LiveMatch, expect: object) -> None:
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise ApiError(400, "bad_request", "'expect' must be the match's version (a whole "
                           f"number), not {json.dumps(expect)[:40]}")
        if match.status == "record":
            raise ApiError(409, "read_only", "an uploaded record can only be replayed")
        if expect is not None and expect != match.version:
            raise ApiError(409, "stale", f"the match is at version {match.version}, not "
                           f"{expect!r}: reload the state and decide again")
        if match.state.is_terminal:
            raise ApiError(409, "game_over", "the game is over: nothing more can be played")

    def _apply(self, match: LiveMatch, move: Hashable, seat: Seat | None) -> None:
        """Check, play and commit one move (caller holds the lock)."""
        session = match.session
        try:
            events = session.apply(move, seat)
        except IllegalAction as error:
            raise from_engine(error) from None
        except DiceGamesError as error:
            raise ApiError(422, "illegal_move", str(error)) from None
        entry = session.moves[-1]
        try:
            self.store.add_move(match.id, len(session.moves) - 1, entry.seat, entry.text,
                                entry.several)
        except Exception:
            session.undo()
            raise
        match.note(events)
        if session.state.is_terminal:
            self.store.finish(match.id)  # out of the lobby

    # ------------------------------------------------------------------ the driver

    def kick(self, match: LiveMatch) -> None:
        """Start the match's driver unless it is running (it stops when nothing is due)."""
        if match.status != "playing" or (match.driver is not None and not match.driver.done()):
            return
        match.driver = asyncio.get_running_loop().create_task(self._drive(match))

    async def _drive(self, match: LiveMatch) -> None:
        """Play automatic rolls, bot moves and forced passes until a person must act."""
        while True:
            async with match.lock:
                step = self._next_step(match)
                version = match.version
                state = match.state
            if step is None:
                return
            kind, seat = step
            pause = self.bot_delay / 2 if kind == "roll" else self.bot_delay
            if pause > 0:
                await asyncio.sleep(pause)
            move: Hashable
            if kind == "roll":
                move = sample(state.chance_outcomes(), roll_rng(match.session.seed or 0,
                                                                version))
            elif kind == "pass":
                move = PASS
            else:
                assert seat is not None
                move = await asyncio.to_thread(match.bots[seat].choose, state, seat)
            async with match.lock:
                if match.version != version:
                    continue
                self._apply(match, move, None if kind == "roll" else seat)
            match.wake_viewers()

    def _next_step(self, match: LiveMatch) -> tuple[str, Seat | None] | None:
        state = match.state
        if state.is_terminal or match.status != "playing":
            return None
        if state.is_chance:
            return ("roll", None) if match.dice == "auto" else None
        for seat in state.current_players:
            if seat in match.bots:
                return "bot", seat
        for seat in state.current_players:
            if state.legal_actions(seat) == (PASS,):
                return "pass", seat
        return None

    def _stored(self, match: LiveMatch) -> StoredMatch:
        session = match.session
        return StoredMatch(
            match.id, session.game.spec.id, dict(session.game.options),
            [{"name": p.name, "kind": p.kind} for p in session.players], session.seed,
            match.dice, match.seat_tokens,
            [(entry.seat, entry.text, entry.several) for entry in session.moves],
            session.position)


def _option_code(message: str) -> str:
    if message.startswith("unknown game"):
        return "unknown_game"
    return "bad_player_count" if " players, not " in message else "bad_option"


def _quietly(work: Callable[[], _T]) -> _T:
    """``work()`` (a replay building thousands of long-lived states) with the cyclic garbage
    collector paused, then its survivors moved out of the collector's sight (``gc.freeze``).

    Otherwise the collector's full passes over the growing heap, each holding the GIL for
    a tenth of a second or more, would stall the event loop while a big record is checked.
    Frozen objects are still freed by reference counting when a match is dropped.
    """
    gc.disable()
    try:
        result = work()
    finally:
        gc.enable()
    gc.freeze()
    return result


def _new_id() -> str:
    return secrets.token_urlsafe(9)


def _start(game: Game[Any, Any, Any], position: object) -> State[Any, Any, Any] | None:
    """The state a match's optional ``position`` describes (None: the start of the game).

    Raises:
        ApiError: 400 when it is not text or too long, 422 ``bad_position`` when the game
            refuses it (the message names the field and what is allowed).
    """
    if position is None:
        return None
    if not isinstance(position, str) or len(position) > MAX_POSITION:
        raise ApiError(400, "bad_request", f"'position' must be a position text of at most "
                       f"{MAX_POSITION} characters (see Positions on the game's rules page)")
    try:
        return game.from_position(position)
    except PositionError as error:
        raise ApiError(422, "bad_position", str(error)) from None


def _move_text(move: object) -> str:
    if not isinstance(move, str) or not move.strip():
        raise ApiError(400, "bad_request", "'move' must be the move's notation (text)")
    if len(move) > 200:
        raise ApiError(400, "bad_request", "'move' is longer than 200 characters")
    return move


def _players(raw: object) -> list[PlayerInfo]:
    if not isinstance(raw, list) or not raw:
        raise ApiError(400, "bad_request", "'players' must be a non-empty list of "
                       "{name, kind} objects")
    players = []
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise ApiError(400, "bad_request", f"player {number} must be an object "
                           "{name, kind}")
        kind = item.get("kind", "human")
        if not isinstance(kind, str) or not (kind == "human" or kind.startswith("bot:")):
            raise ApiError(422, "bad_player", f"player {number}'s kind must be 'human' or "
                           "'bot:<level>'")
        name = item.get("name", kind.replace("bot:", "Bot ").capitalize()
                        if kind != "human" else f"Player {number}")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ApiError(422, "bad_player", f"player {number}'s name must be 1 to "
                           f"{MAX_NAME} characters")
        players.append(PlayerInfo(name.strip(), kind))
    return players
