"""Monza circuits as data: the file format, its validating loader, and the move graph.

The real board's layout is not published, so a circuit is a JSON file (the default one ships
as ``default.json`` beside this module). Its format::

    {
      "name": "Monza (dicegames default)",
      "lanes": [
        {"name": "i", "squares": [[0, 3, "white"], [3, 7, "red"], [7, 11, "tyre"], ...]},
        {"name": "m", "squares": [[1, 5, "green"], ...]},
        {"name": "o", "squares": [[2, 6, "blue"], ...]}
      ],
      "entries": ["i1", "o1"],
      "targets": ["i25", "o24"]
    }

Lanes are listed side by side (each lane's neighbours are the lanes listed just before and
after it). A square is ``[start, end, colour]``: an interval along the track in whole units,
and one of the six colours or ``tyre``. Squares are named by their lane and their 1-based
place in it (``m7``). ``entries`` are the squares a car in the start zone may step to;
``targets`` the squares that end the race. Drawing needs no coordinates: a square is drawn
over the columns of its interval.

The lane-change rule is computed from the intervals: from a square, a car may step to the
next square of its lane, or to a square of a neighbouring lane that overlaps it and whose far
end is ahead of the current square's far end. Tyres are never entered, and a car on a target
moves no more (targets have no next squares).

The loader rejects a bad circuit with a :class:`CircuitError` that names the square and the
problem: an unknown colour, an empty or reversed square, squares overlapping in a lane,
lane boundaries that line up with a neighbouring lane's (where "overlap" and "ahead" become
ambiguous), a bad entry or target, a target that cannot be reached, or a square with no way
forward.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from dicegames.core.names import text_problem
from dicegames.games.monza.data import COLOURS, START, TYRE, Colour

DEFAULT = "default"
"""The value of the ``circuit`` option that names the shipped circuit."""

DEFAULT_FILE = "default.json"
"""The shipped circuit's file, package data beside this module."""

MAX_SQUARES = 200
"""The most squares a lane may have (the default circuit has about 25 a lane); keeps the
checks of a circuit that arrives in a record quick."""

MAX_LANES = 6
"""The most lanes a circuit may have (the default circuit has three)."""


class CircuitError(ValueError):
    """A circuit file that cannot be played; the message names the square and the problem."""


@dataclass(frozen=True, slots=True)
class Square:
    """One square: its name, lane, interval along the track and colour (None for a tyre)."""

    name: str
    lane: int
    index: int
    start: int
    end: int
    colour: Colour | None

    @property
    def is_tyre(self) -> bool:
        """True for a grey tyre square, which cars never enter."""
        return self.colour is None


class Circuit:
    """A validated circuit: squares, lanes, entries, targets and the move graph.

    Squares have global ids ``0..n-1`` (lane by lane); a car in the start zone is at
    :data:`~dicegames.games.monza.data.START`. Successor lists and the longest-sequence
    search are computed once per circuit and memoised, so random playouts stay fast.
    """

    def __init__(self, name: str, lanes: Sequence[tuple[str, Sequence[Square]]],
                 entries: Sequence[int], targets: Sequence[int]) -> None:
        self.name = name
        self.lane_names = tuple(lane for lane, _ in lanes)
        self.lanes: tuple[tuple[int, ...], ...] = ()
        squares: list[Square] = []
        lane_ids: list[tuple[int, ...]] = []
        for _, lane_squares in lanes:
            first = len(squares)
            squares.extend(lane_squares)
            lane_ids.append(tuple(range(first, len(squares))))
        self.squares: tuple[Square, ...] = tuple(squares)
        self.lanes = tuple(lane_ids)
        self.entries = tuple(entries)
        self.targets = frozenset(targets)
        self.by_name = {square.name: i for i, square in enumerate(self.squares)}
        self.colour_of: tuple[int, ...] = tuple(
            -1 if s.colour is None else COLOURS.index(s.colour) for s in self.squares)
        self.successors: tuple[tuple[int, ...], ...] = tuple(
            self._successors(i) for i in range(len(self.squares)))
        self.length = max(s.end for s in self.squares)
        self.distance = self._distances()
        self._longest: dict[tuple[int, tuple[int, ...]], int] = {}
        self._ends: dict[tuple[int, tuple[int, ...], bool], frozenset[tuple[int, int]]] = {}

    # ------------------------------------------------------------------ the move graph

    def _successors(self, index: int) -> tuple[int, ...]:
        """Legal next squares of a square (no tyres; none from a target)."""
        if index in self.targets:
            return ()
        here = self.squares[index]
        result: list[int] = []
        lane = self.lanes[here.lane]
        if here.index + 1 < len(lane):
            result.append(lane[here.index + 1])
        for other in (here.lane - 1, here.lane + 1):
            if 0 <= other < len(self.lanes):
                result.extend(j for j in self.lanes[other]
                              if self.squares[j].start < here.end
                              and self.squares[j].end > here.end)
        return tuple(j for j in result if not self.squares[j].is_tyre)

    def next_squares(self, position: int) -> tuple[int, ...]:
        """Where a car at ``position`` (a square id or START) may step next."""
        return self.entries if position == START else self.successors[position]

    def _distances(self) -> tuple[int, ...]:
        """Fewest steps from each square to a target (a large number when there is none)."""
        far = 10 * len(self.squares) + 10
        best = [far] * len(self.squares)
        for target in self.targets:
            best[target] = 0
        changed = True
        while changed:
            changed = False
            for i in range(len(self.squares)):
                for j in self.successors[i]:
                    if best[j] + 1 < best[i]:
                        best[i] = best[j] + 1
                        changed = True
        return tuple(best)

    def steps_to_finish(self, position: int) -> int:
        """Fewest steps from ``position`` (START included) to a target."""
        if position == START:
            return 1 + min(self.distance[e] for e in self.entries)
        return self.distance[position]

    def progress(self, position: int) -> int:
        """How far along the track a position is: its square's far end (0 in the start zone)."""
        return 0 if position == START else self.squares[position].end

    def square_name(self, position: int) -> str:
        """A position's name: the square's, or ``start``."""
        return "start" if position == START else self.squares[position].name

    # ------------------------------------------------------------------ sequences of dice

    def longest(self, position: int, dice: tuple[int, ...]) -> int:
        """The largest number of ``dice`` (counts per colour) usable in one move from here."""
        key = (position, dice)
        found = self._longest.get(key)
        if found is not None:
            return found
        best = 0
        colour_of = self.colour_of
        for j in self.next_squares(position):
            c = colour_of[j]
            if dice[c]:
                rest = (*dice[:c], dice[c] - 1, *dice[c + 1:])
                length = 1 + self.longest(j, rest)
                if length > best:
                    best = length
                    if best == sum(dice):
                        break
        self._longest[key] = best
        return best

    def steps(self, position: int, dice: tuple[int, ...], longest: bool) -> tuple[int, ...]:
        """Squares the car may step to now: matching an unused die, and under the
        ``longest`` compulsion only those that still allow a longest sequence."""
        colour_of = self.colour_of
        moves = tuple(j for j in self.next_squares(position) if dice[colour_of[j]])
        if not longest or len(moves) == 0:
            return moves
        need = self.longest(position, dice) - 1
        return tuple(j for j in moves
                     if self.longest(j, remove(dice, colour_of[j])) == need)

    def ends(self, position: int, dice: tuple[int, ...],
             longest: bool) -> frozenset[tuple[int, int]]:
        """Every (end square, dice used) a legal complete move from here can give."""
        key = (position, dice, longest)
        found = self._ends.get(key)
        if found is not None:
            return found
        moves = self.steps(position, dice, longest)
        if not moves:
            result = frozenset({(position, 0)})
        else:
            collected: set[tuple[int, int]] = set()
            for j in moves:
                for end, used in self.ends(j, remove(dice, self.colour_of[j]), longest):
                    collected.add((end, used + 1))
            result = frozenset(collected)
        self._ends[key] = result
        return result


def remove(dice: tuple[int, ...], colour: int) -> tuple[int, ...]:
    """The dice counts with one die of ``colour`` put aside."""
    return (*dice[:colour], dice[colour] - 1, *dice[colour + 1:])


# ---------------------------------------------------------------------- loading


def _fail(message: str) -> CircuitError:
    return CircuitError(message)


def parse(raw: Mapping[str, Any], source: str = "circuit") -> Circuit:
    """Build and validate a circuit from decoded JSON.

    Raises:
        CircuitError: the message names the square and the problem.
    """
    if not isinstance(raw, Mapping):
        raise _fail(f"{source}: the file must hold a JSON object with lanes, entries, targets")
    lanes_raw = raw.get("lanes")
    if not isinstance(lanes_raw, list) or not 1 <= len(lanes_raw) <= MAX_LANES:
        raise _fail(f"{source}: 'lanes' must be a list of 1 to {MAX_LANES} lanes")
    lanes: list[tuple[str, list[Square]]] = []
    seen_names: set[str] = set()
    for lane_index, lane_raw in enumerate(lanes_raw):
        if not isinstance(lane_raw, Mapping):
            raise _fail(f"{source}: lane {lane_index + 1} must be an object with name, squares")
        lane_name = lane_raw.get("name")
        if not isinstance(lane_name, str) or not lane_name.isalpha() or not lane_name.islower():
            raise _fail(f"{source}: lane {lane_index + 1} needs a name of lower-case letters")
        if lane_name in seen_names:
            raise _fail(f"{source}: two lanes are called {lane_name!r}")
        seen_names.add(lane_name)
        squares_raw = lane_raw.get("squares")
        if not isinstance(squares_raw, list) or not squares_raw:
            raise _fail(f"{source}: lane {lane_name} needs a non-empty list of squares")
        if len(squares_raw) > MAX_SQUARES:
            raise _fail(f"{source}: lane {lane_name} has {len(squares_raw)} squares; at most "
                        f"{MAX_SQUARES}")
        lane: list[Square] = []
        for index, item in enumerate(squares_raw):
            lane.append(_square(item, lane_name, lane_index, index))
        for before, after in itertools.pairwise(lane):
            if after.start < before.end:
                raise _fail(f"square {after.name} overlaps square {before.name} in lane "
                            f"{lane_name}: it starts at {after.start}, before {before.name} "
                            f"ends at {before.end}")
        lanes.append((lane_name, lane))
    _check_staggered(lanes)
    names = {s.name: s for _, lane in lanes for s in lane}
    entries = _named_squares(raw, "entries", names, source)
    targets = _named_squares(raw, "targets", names, source)
    ids = {name: i for i, name in enumerate(names)}
    name = str(raw.get("name", "circuit"))
    problem = text_problem(name)
    if problem is not None:  # shown on the board: plain text only
        raise _fail(f"{source}: the circuit's 'name' contains {problem}; it must be plain "
                    "text")
    circuit = Circuit(name, lanes, [ids[n] for n in entries], [ids[n] for n in targets])
    _check_graph(circuit)
    return circuit


def _square(item: object, lane_name: str, lane_index: int, index: int) -> Square:
    """One ``[start, end, colour]`` entry, checked."""
    name = f"{lane_name}{index + 1}"
    if (not isinstance(item, list) or len(item) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in item[:2])):
        raise _fail(f"square {name}: expected [start, end, colour] with whole-number "
                    f"start and end, got {item!r}")
    start, end, colour = item
    if end <= start:
        raise _fail(f"square {name}: its end {end} is not after its start {start}")
    if colour == TYRE:
        return Square(name, lane_index, index, start, end, None)
    if not isinstance(colour, str) or colour not in {c.value for c in COLOURS}:
        allowed = ", ".join(c.value for c in COLOURS)
        raise _fail(f"square {name}: unknown colour {colour!r} (allowed: {allowed}, {TYRE})")
    return Square(name, lane_index, index, start, end, Colour(colour))


def _check_staggered(lanes: Sequence[tuple[str, Sequence[Square]]]) -> None:
    """Neighbouring lanes never share a boundary (the lane-change rule stays unambiguous)."""
    for (_, left), (_, right) in itertools.pairwise(lanes):
        edges: dict[int, Square] = {}
        for square in left:
            edges.setdefault(square.start, square)
            edges.setdefault(square.end, square)
        for square in right:
            for point in (square.start, square.end):
                if point in edges:
                    other = edges[point]
                    raise _fail(
                        f"square {square.name}: its boundary at {point} lines up with a "
                        f"boundary of square {other.name} in the neighbouring lane; stagger "
                        f"them so the lane-change rule is never ambiguous")


def _named_squares(raw: Mapping[str, Any], key: str, names: Mapping[str, Square],
                   source: str) -> list[str]:
    """The ``entries`` or ``targets`` list: known, distinct, not tyres."""
    value = raw.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise _fail(f"{source}: '{key}' must be a non-empty list of square names")
    if len(set(value)) != len(value):
        raise _fail(f"{source}: '{key}' names a square twice")
    singular = {"entries": "entry", "targets": "target"}[key]
    for name in value:
        if name not in names:
            raise _fail(f"{singular} {name}: there is no such square")
        if names[name].is_tyre:
            raise _fail(f"{singular} {name}: the square is a tyre, which cars never enter")
    return list(value)


def _check_graph(circuit: Circuit) -> None:
    """Every target reachable from the start zone; no square but a target is a dead end."""
    for i, square in enumerate(circuit.squares):
        if not square.is_tyre and i not in circuit.targets and not circuit.successors[i]:
            raise _fail(f"square {square.name} has no way forward: no free next square in "
                        f"its lane and no lane change (only targets may be dead ends)")
    reached = set(circuit.entries)
    frontier = list(reached)
    while frontier:
        for j in circuit.successors[frontier.pop()]:
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    for target in sorted(circuit.targets):
        if target not in reached:
            raise _fail(f"target {circuit.squares[target].name} cannot be reached from the "
                        f"start zone")


def load(path: str | Path) -> Circuit:
    """Read and validate a circuit file.

    Raises:
        CircuitError: the file cannot be read, is not JSON, or is not a playable circuit.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise _fail(f"cannot read circuit file {str(path)!r}: {error.strerror}") from None
    return loads(text, str(path))


def loads(text: str, source: str = "circuit") -> Circuit:
    """Validate a circuit given as JSON text (``source`` names it in errors)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(f"{source}: not valid JSON ({error.msg} at line {error.lineno})") from None
    except RecursionError:
        raise _fail(f"{source}: nested too deeply to be a circuit") from None
    return parse(raw, source)


@cache
def default_circuit() -> Circuit:
    """The shipped circuit, loaded once."""
    text = files("dicegames.games.monza").joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
    return loads(text, DEFAULT_FILE)


def circuit_for(option: str) -> Circuit:
    """The circuit a ``circuit`` option holds: ``default`` or a circuit file's JSON text.

    Never reads a file: the command line and the library read a circuit file's path into
    its text before the game is configured (see
    :func:`dicegames.core.options.read_option_files`), so a record carries the circuit
    itself and replays anywhere.
    """
    return default_circuit() if option.strip().lower() == DEFAULT else _custom(option)


@lru_cache(maxsize=16)
def _custom(text: str) -> Circuit:
    """A custom circuit, parsed once per text (bounded: texts come from records too)."""
    return loads(text, "circuit")
