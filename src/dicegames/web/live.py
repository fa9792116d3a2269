"""A match held in memory: its session, seat tokens, log, and the JSON each viewer sees.

:class:`LiveMatch` wraps a :class:`~dicegames.core.session.Session` with what the web needs:
who holds which seat (secret tokens), the dice mode, the event log, a lock so two requests
never act at once, and the state as JSON. The part every viewer shares (board view, text,
log) is built once per change and language; only the viewer's own part (their hints,
whether they may undo or enter dice) is built per viewer.

Every sentence a viewer reads (the log, the board's words, the choices' labels) is in the
viewer's language (``?lang=`` of their page): each language's shared state is built once per
change, however many viewers read it, and each move's log sentences are written once per
language (:meth:`~dicegames.core.session.Session.events_at`), only for the moves a state's
log tail shows.

A board that is data can be large (a 26 x 99 Shortcut grid, a Monza circuit of 1,200
squares): its drawing is most of a state's JSON, yet no move changes it. So the board's
static part (:meth:`~dicegames.core.presenter.Presenter.static_board`) is encoded once per
configured game and language and shared by every match played on it
(:func:`static_board_json`); a move builds and encodes only the rest
(:meth:`~dicegames.core.presenter.Presenter.moving_view`). A whole
state (an API answer, a viewer's first push) has the static part put back into
``view.board`` as text; the pushes after a viewer's first leave it out, and the page keeps
it from the first (the state's ``static_board_keys`` name its entries).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from dicegames.bots import make_bot
from dicegames.core.fair import FairDice
from dicegames.core.game import Game, State
from dicegames.core.model import PASS, Agent, NodeKind, Seat
from dicegames.core.registry import presenter_of
from dicegames.core.session import Event, PlayerInfo, Session
from dicegames.i18n import DEFAULT, _, title, use
from dicegames.web.grace import Grace

LOG_TAIL = 150
"""How many of the latest log events a state carries (the record has them all)."""

FEW_OUTCOMES = 36
"""Up to this many possible rolls, a person entering dice gets one button per outcome."""

STATIC_BOARDS_KEPT = 32
"""How many static boards (per configured game and language) stay encoded in memory; the
largest is about 330 KB of text."""

_static_boards: OrderedDict[Hashable, tuple[str, list[str]]] = OrderedDict()
_static_lock = threading.Lock()  # the sample pictures are built in worker threads


def static_board_json(game: Game[Any, Any, Any], lang: str) -> tuple[str, list[str]]:
    """The presenter's ``static_board()`` in ``lang`` as JSON text, and its keys; encoded once per
    configured game (its id, player count and options) and language, and shared by every
    match played on it (the :data:`STATIC_BOARDS_KEPT` most recently used are kept)."""
    key = (game.spec.id, game.players, tuple(sorted(game.options.items())), lang)
    with _static_lock:
        found = _static_boards.get(key)
        if found is not None:
            _static_boards.move_to_end(key)
            return found
    with use(lang):
        static = presenter_of(game).static_board()
    found = (json.dumps(static), list(static))
    with _static_lock:
        _static_boards[key] = found
        while len(_static_boards) > STATIC_BOARDS_KEPT:
            _static_boards.popitem(last=False)
    return found


def join_objects(*texts: str) -> str:
    """JSON objects given as text, as one object's text (no key may appear twice)."""
    members = [text[1:-1] for text in texts if text != "{}"]
    return "{" + ", ".join(members) + "}"


@dataclass(frozen=True, slots=True)
class SharedJson:
    """A state's shared part as JSON text without the board's static part, and where that
    part goes: the whole state is made by putting it in, without encoding anything again.

    Attributes:
        text: the shared state, its ``view.board`` without the static part.
        board_at: where ``view.board``'s opening brace is in ``text`` (-1: no board).
        static: the static part of the board (:func:`static_board_json`), an object.
    """

    text: str
    board_at: int
    static: str

    @classmethod
    def build(cls, rest: dict[str, Any], view: dict[str, Any], board: Any,
              static: str) -> SharedJson:
        """From the shared state but its view, the view but its board, and the board's
        moving part (None: the game draws no board)."""
        board_text = json.dumps(board)
        view_text = join_objects(json.dumps(view), f'{{"board": {board_text}}}')
        text = join_objects(json.dumps(rest), f'{{"view": {view_text}}}')
        board_at = -1 if board is None else len(text) - len(board_text) - 2
        return cls(text, board_at, static)

    def whole(self) -> str:
        """The shared state's JSON text with the board's static part in ``view.board``."""
        at = self.board_at
        if at < 0 or self.static == "{}":
            return self.text
        after = self.text[at + 1:]
        comma = "" if after.startswith("}") else ", "
        return f"{self.text[:at + 1]}{self.static[1:-1]}{comma}{after}"


def event_json(event: Event) -> dict[str, Any]:
    """An engine event as JSON: kind, seat, notation, a sentence, the turn count."""
    return {"kind": str(event.kind), "seat": event.seat, "text": event.text,
            "description": event.description, "turn": event.turn}


_TAG = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
"""A rich markup tag with any backslashes before it (the pattern rich itself uses)."""


def strip_markup(markup: str) -> str:
    """``rich.text.Text.from_markup(markup, emoji=False).plain``, without styled text.

    Tags are dropped, ``\\[`` stands for ``[``, doubled backslashes before a tag stay one.
    About ten times faster than rich on boards, which matters at every move of every match
    (a test checks both agree on every game's renderings).
    """
    if "[" not in markup:
        return markup
    out = []
    position = 0
    for match in _TAG.finditer(markup):
        full, escapes, _tag = match.groups()
        start, end = match.span()
        out.append(markup[position:start].replace("\\[", "["))
        position = end
        if escapes:
            backslashes, escaped = divmod(len(escapes), 2)
            out.append("\\" * backslashes)
            if escaped:
                out.append(full[len(escapes):])
    out.append(markup[position:].replace("\\[", "["))
    return "".join(out)


def plain_text(session: Session, state: State[Any, Any, Any]) -> str:
    """The terminal rendering of ``state`` with the rich markup stripped."""
    names = [player.name for player in session.players]
    return strip_markup(session.presenter.render(state, names))


@dataclass(eq=False)
class Viewer:
    """Who looks at a match: the seats their tokens hold (none for a spectator), and the
    language they read."""

    seats: tuple[Seat, ...] = ()
    lang: str = DEFAULT
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closing: tuple[int, str] | None = None
    """Set (a close code and its reason) when the server ends this viewer's socket: the
    socket is closed with them when the viewer is next woken (:meth:`LiveMatch.close_viewers`)."""


class LiveMatch:
    """One match in memory. Mutated only by :class:`~dicegames.web.hub.Hub` under ``lock``."""

    def __init__(self, match_id: str, session: Session, dice: str, tokens: dict[int, str],
                 board_module: str | None) -> None:
        self.id = match_id
        self.session = session
        self.dice = dice
        self.seat_tokens = dict(tokens)
        self.token_seats = {token: seat for seat, token in tokens.items()}
        self.board_module = board_module
        self.lock = asyncio.Lock()
        self.viewers: set[Viewer] = set()
        self.joined: set[Seat] = set()
        """The seats that have had an open connection since the server started (a seat in it
        with no open connection now is "away")."""
        self.claimed: set[Seat] = set()
        """Seats whose token was used and the store told (the lobby offers them no more)."""
        self.move_events: list[list[dict[str, Any]]] = []
        """Each move's events as played, in English (the log's other languages are written
        from the session when asked: :meth:`_move_log`)."""
        self._translated: dict[str, dict[int, list[dict[str, Any]]]] = {}
        self.driver: asyncio.Task[None] | None = None
        self.grace = Grace()
        """The undo grace period after a person's last decision of a turn
        (:mod:`.grace`)."""
        self.rematch: str | None = None
        """The id of the match its players play again in, once one of them asked
        (:mod:`.rematch`): every viewer is told, so watchers can follow."""
        self.bots: dict[Seat, Agent] = {}
        fair = session.fair or FairDice.legacy(session.seed)
        for seat, player in enumerate(session.players):
            if player.is_bot:  # drawing from the secret, never from anything shown
                level = player.kind.removeprefix("bot:")
                self.bots[seat] = make_bot(session.game, level, fair.bot_rng(seat))
        self.revision = 0
        """Changes with every move and every undo (:meth:`note`, :meth:`forget_last`), and
        when a seat is renamed (:meth:`rename`).
        Unlike :attr:`version` it never comes back: after an undo, another move has the
        version of the one taken back, so the caches below are keyed by both."""
        self._shared: dict[str, tuple[tuple[int, int], SharedJson]] = {}
        """Per language: the cache key and the current state's shared JSON."""
        self._hints: dict[tuple[tuple[int, int], Seat, str], list[dict[str, Any]]] = {}

    # ------------------------------------------------------------------ facts

    @property
    def version(self) -> int:
        """The number of moves played (an undo then another move comes back to the same
        number: see :attr:`revision`)."""
        return len(self.session.moves)

    @property
    def state(self) -> State[Any, Any, Any]:
        """The current state."""
        return self.session.state

    @property
    def status(self) -> str:
        """``playing``, ``finished``, or ``record`` for an uploaded record (read-only)."""
        if self.dice == "record":
            return "record"
        return "finished" if self.state.is_terminal else "playing"

    def human_seats(self) -> tuple[Seat, ...]:
        """The seats people play (the ones with tokens)."""
        return tuple(sorted(self.seat_tokens))

    def note(self, events: list[Event]) -> None:
        """Keep the events of the move just played, for the log."""
        self.move_events.append([event_json(event) for event in events])
        self.revision += 1
        self.grace.close()

    def forget_last(self) -> None:
        """Drop the log entries of the move just taken back."""
        self.move_events.pop()
        for moves in self._translated.values():
            moves.pop(len(self.move_events), None)
        self.revision += 1
        self.grace.close()

    def rename(self, seat: Seat, name: str) -> None:
        """The person who took ``seat`` (from the lobby) is called ``name`` from now on
        (the English log's earlier sentences keep the name they were written with; the
        other languages' are written when first read, with the name then)."""
        players = list(self.session.players)
        players[seat] = PlayerInfo(name, players[seat].kind)
        self.session.players = tuple(players)
        self.revision += 1  # every cache of the state is keyed by it

    def add_viewer(self, viewer: Viewer) -> None:
        """A viewer connects: its seats count as joined; everyone sees the new presence."""
        self.viewers.add(viewer)
        self.joined.update(viewer.seats)
        self.wake_viewers()

    def remove_viewer(self, viewer: Viewer) -> None:
        """A viewer leaves: the others see its seats' presence change."""
        self.viewers.discard(viewer)
        self.wake_viewers()

    def presence(self) -> dict[str, str]:
        """Each human seat's presence, by seat number as text: ``connected`` (an open
        connection holds it), ``away`` (joined before, no open connection now) or ``invited``
        (never joined). Names only seats, never tokens, so every viewer may see it."""
        online = {seat for viewer in self.viewers for seat in viewer.seats}
        return {str(seat): "connected" if seat in online
                else "away" if seat in self.joined else "invited"
                for seat in self.human_seats()}

    def wake_viewers(self) -> None:
        """Tell every connected viewer that there is a new state to send."""
        for viewer in self.viewers:
            viewer.wake.set()

    def close_viewers(self, code: int, reason: str) -> None:
        """Close every connected viewer's socket with ``code`` and ``reason`` (this copy of
        the match is being given up: the page connects again and gets the new one)."""
        for viewer in self.viewers:
            viewer.closing = (code, reason)
            viewer.wake.set()

    # ------------------------------------------------------------------ JSON

    def shared_state(self, step: int | None = None, lang: str = DEFAULT) -> dict[str, Any]:
        """What every viewer reading ``lang`` sees after ``step`` moves (default: now), the
        board whole (decoded from :meth:`shared_json`: for tests and the sample pictures)."""
        decoded: dict[str, Any] = json.loads(self.shared_json(step, lang))
        return decoded

    def shared_json(self, step: int | None = None, lang: str = DEFAULT,
                    static: bool = True) -> str:
        """:meth:`shared_state` as JSON text, with the board's static part or without it;
        the current state's is built once per change and language."""
        if step is None or step == self.version:
            shared = self._current(lang)
        else:
            shared = self._build_shared(step, lang)
        return shared.whole() if static else shared.text

    def _current(self, lang: str) -> SharedJson:
        """The shared state now in ``lang`` (built once for every viewer of that language)."""
        key = self._key()
        cached = self._shared.get(lang)
        if cached is None or cached[0] != key:
            if any(old[0] != key for old in self._shared.values()):
                self._shared = {}
                self._hints = {}
            cached = self._shared[lang] = (key, self._build_shared(self.version, lang))
        return cached[1]

    def _key(self) -> tuple[int, int]:
        """What the caches of the current state are keyed by: the revision and the version
        (the version also sees a move applied to the session directly, as tests do)."""
        return self.revision, self.version

    def _build_shared(self, step: int, lang: str) -> SharedJson:
        with use(lang):
            data = self._shared_now(step, lang)
        view = dict(data.pop("view"))  # a copy: a game may hand out a view it keeps
        board = view.pop("board")
        static, keys = (static_board_json(self.session.game, lang) if board is not None
                        else ("{}", []))
        data["static_board_keys"] = keys
        return SharedJson.build(data, view, board, static)

    def _shared_now(self, step: int, lang: str) -> dict[str, Any]:
        """The shared state after ``step`` moves, in the language in use (``lang``), its
        board without the static part."""
        session = self.session
        state = session.states[step]
        game = session.game
        node = state.node
        turn = state.turn
        log, log_size = self._log(step, lang)
        data: dict[str, Any] = {
            "id": self.id,
            "game": {"id": game.spec.id, "name": title(game.spec.name, lang),
                     "board_module": self.board_module},
            "players": [{"seat": seat, "name": player.name, "kind": player.kind}
                        for seat, player in enumerate(session.players)],
            "options": dict(game.options),
            "dice_mode": self.dice,
            "status": self.status if step == self.version else "replay",
            "version": step,
            "moves": self.version,
            "revision": self.revision,
            "node": {"kind": node.kind.name.lower(), "deciding": list(node.players),
                     "turn": {"seat": turn.seat, "number": turn.number}},
            "view": self._view(step),
            "text": plain_text(session, state) if self.board_module is None else None,
            "log": log,
            "log_size": log_size,
            "result": self._result(state),
            "outcomes": None,
            "dice_note": None,
            "fair": self._fair(),
        }
        if node.kind is NodeKind.CHANCE and self.dice == "manual":
            data["dice_note"] = session.presenter.dice_note(state) or None
            outcomes = state.chance_outcomes()
            if len(outcomes) <= FEW_OUTCOMES:
                data["outcomes"] = [str(outcome) for outcome, _ in outcomes]
        return data

    def _fair(self) -> dict[str, Any] | None:
        """The dice commitment as everyone may see it: the secret only once the game is
        over (whatever step is shown: a past step of a game still played reveals nothing)."""
        fair = self.session.fair
        return None if fair is None else fair.public(self.session.state.is_terminal)

    def _result(self, state: State[Any, Any, Any]) -> dict[str, Any] | None:
        """The result of a finished game as JSON, for the end screen, in the language in
        use: its summary, each seat's score in words (``score_words``) and why the winners
        won (``explanation``, possibly empty)."""
        if not state.is_terminal:
            return None
        result = state.result
        presenter = self.session.presenter
        names = [player.name for player in self.session.players]
        return {**result.to_json(),
                "summary": presenter.describe_summary(state, result),
                "score_words": [presenter.describe_score(state, result, seat)
                                for seat in range(len(names))],
                "explanation": presenter.explain_result(state, result, names)}

    def _view(self, step: int) -> dict[str, Any]:
        """The game's view after ``step`` moves without the board's static part
        (:meth:`~dicegames.core.presenter.Presenter.moving_view`); with no dice out, the last roll,
        spent.

        Most games keep a roll only while it is being used, so without this the die would
        vanish the moment a bot has moved (or a forced pass was played) and a child would
        never see what was rolled. The last roll is shown as the game draws it
        (:meth:`~dicegames.core.presenter.Presenter.roll_dice`), every die marked used.
        """
        states = self.session.states
        game = self.session.game
        presenter = self.session.presenter
        view = presenter.moving_view(states[step])
        if view["dice"]:
            return view
        for index in range(step - 1, -1, -1):
            before = states[index]
            if before.is_chance:
                outcome = game.parse(before, self.session.moves[index].text)
                dice = presenter.roll_dice(before, outcome)
                return {**view, "dice": [{**die, "used": True} for die in dice]}
        return view

    def _log(self, step: int, lang: str) -> tuple[list[dict[str, Any]], int]:
        """The last :data:`LOG_TAIL` events of the log after ``step`` moves in ``lang`` (the
        language in use), and the log's whole length; the choices of an unfinished shared
        roll are sealed.

        When several seats decide on the same roll (EXTRA!), a choice already made must not
        show to those still deciding, so until the last of them has decided the log says only
        who has chosen; the full sentences appear as soon as the roll is settled.
        """
        moves = self.move_events[:step]
        size = sum(len(events) for events in moves)
        first, shown = len(moves), 0
        while first > 0 and shown < LOG_TAIL:
            first -= 1
            shown += len(moves[first])
        sealed = self._sealed_moves(step)
        log: list[dict[str, Any]] = []
        for index in range(first, len(moves)):
            events = self._move_log(index, lang)
            if index not in sealed:
                log.extend(events)
                continue
            log.extend({**event, "text": "",
                        "description": _("{name} has chosen",
                                         name=self.session.name(event["seat"]))}
                       if event["kind"] == "move" and event["seat"] is not None else event
                       for event in events)
        return log[-LOG_TAIL:], size

    def _move_log(self, index: int, lang: str) -> list[dict[str, Any]]:
        """The events of move ``index`` in ``lang`` (the language in use), written once."""
        if lang == DEFAULT:
            return self.move_events[index]
        moves = self._translated.setdefault(lang, {})
        if index not in moves:
            moves[index] = [event_json(event) for event in self.session.events_at(index)]
        return moves[index]

    def _sealed_moves(self, step: int) -> set[int]:
        """The moves (by index) made on a shared roll whose other seats are still deciding:
        the trailing run of moves the session recorded as made among several deciders (the
        last decider's move is not one, so a settled roll seals nothing)."""
        moves = self.session.moves
        sealed: set[int] = set()
        index = step - 1
        while index >= 0 and moves[index].several:
            sealed.add(index)
            index -= 1
        return sealed

    def hints(self, seat: Seat, lang: str = DEFAULT) -> list[dict[str, Any]]:
        """The action hints of ``seat`` now in ``lang`` ([] when it does not decide), cached
        per revision and language."""
        state = self.state
        if seat not in state.current_players:
            return []
        key = (self._key(), seat, lang)
        if key not in self._hints:
            legal = state.legal_actions(seat)
            with use(lang):
                self._hints[key] = ([] if legal == (PASS,)
                                    else presenter_of(state.game).action_hints(state, seat))
        return self._hints[key]

    def viewer_state(self, seats: tuple[Seat, ...], lang: str = DEFAULT) -> dict[str, Any]:
        """The current state as the holder of ``seats`` reading ``lang`` sees it
        (spectator: no seats), decoded from :meth:`viewer_json`."""
        decoded: dict[str, Any] = json.loads(self.viewer_json(seats, lang))
        return decoded

    def viewer_json(self, seats: tuple[Seat, ...], lang: str = DEFAULT,
                    static: bool = True) -> str:
        """The current state as the holder of ``seats`` reading ``lang`` sees it, as JSON
        text; ``static=False`` leaves the board's static part out (see the module's doc).

        The shared part is encoded once per change and language; only the viewer's own part
        is encoded here.
        """
        return join_objects(self.shared_json(None, lang, static),
                            json.dumps(self._personal(seats, lang)))

    def viewer_message(self, seats: tuple[Seat, ...], lang: str = DEFAULT,
                       static: bool = True) -> str:
        """``{"type": "state", "state": viewer_json(seats, lang, static)}``: a push."""
        return f'{{"type": "state", "state": {self.viewer_json(seats, lang, static)}}}'

    def _personal(self, seats: tuple[Seat, ...], lang: str) -> dict[str, Any]:
        data: dict[str, Any] = {}
        playing = self.status == "playing"
        data["you"] = list(seats)
        data["presence"] = self.presence()
        data["hints"] = ({str(seat): self.hints(seat, lang) for seat in seats} if playing
                         else {})
        undo_seat = self.undo_seat(seats) if playing else None
        data["can_undo"] = undo_seat is not None
        data["undo_seat"] = undo_seat
        data.update(self.grace.to_json(undo_seat is not None))
        data["can_enter_dice"] = (playing and bool(seats) and self.dice == "manual"
                                  and self.state.is_chance)
        data["rematch"] = self.rematch
        return data

    def undo_seat(self, seats: tuple[Seat, ...]) -> Seat | None:
        """Which of ``seats`` may take back the last move now, if any."""
        return next((seat for seat in seats if self.session.can_undo(seat)), None)
