"""Monza: the colour-dice car race on a three-lane circuit, as pure rules.

Source: HABA "Monza" (no. 4416, 2000), rule sheet ``003_8d3597385c870964.txt``, with the
gaps closed by RULINGS.md. Each player owns the car of one colour (seat i drives
``COLOURS[i]``: red, yellow, green, blue, white, purple). A turn: roll six colour dice, then
step one square at a time, each step using one unused die of the colour of the square
stepped to. Legal next squares come from the circuit (see :mod:`.circuit`). Under the
``longest`` compulsion only steps that still allow a sequence using the most dice are legal;
under ``greedy`` any matching step is, and the car must go on while one matches. The turn
ends by itself when no legal step remains. A car whose move ends on another car pushes it
back to the nearest free non-tyre square behind in its lane (or the start zone); a target
square holds any number of cars, and a car on one moves no more and is never pushed.

When a car reaches a target square the round is completed; then the one car on a target
wins, or among several the one whose player used the fewest dice in that round, a remaining
tie sharing the win. Variant ``variant_last_colour``: after a move, the owner of the car of
the last die's colour may advance it one square to a free legal next square, or stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from dicegames.core.chance import multisets
from dicegames.core.errors import BadOptionValue, IllegalAction
from dicegames.core.game import Game, State, normalize
from dicegames.core.model import (
    CHANCE,
    PASS,
    TERMINAL,
    GameSpec,
    Node,
    Result,
    Seat,
    Special,
    TurnInfo,
)
from dicegames.core.options import OptionSpec, OptionValue
from dicegames.core.text import count
from dicegames.games.monza.circuit import DEFAULT, Circuit, CircuitError, circuit_for, remove
from dicegames.games.monza.data import (
    COLOURS,
    DICE,
    LETTERS,
    START,
    STAY,
    Action,
    Advance,
    MonzaData,
    Phase,
    Roll,
    Step,
)
from dicegames.games.monza.position import MonzaFacts, facts, from_position, position

ROLLS: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(tuple(combo.count(c) for c in COLOURS)), p) for combo, p in multisets(COLOURS, DICE))
"""The 462 multisets of six colour dice with their exact probabilities (a module constant,
so exact sampling caches it)."""

Move = Action | Special

SPEC = GameSpec(
    id="monza",
    name="Monza",
    pitch=(
        "A car race for 2 to 6 players. Roll six colour dice and chain them: each die moves "
        "your car one square onto a square of its colour, in your lane or into a neighbouring "
        "one. Order the colours cleverly, pass other cars, shove them back by landing on them, "
        "and reach a target square first."
    ),
    min_players=2,
    max_players=6,
    default_players=2,
    aliases=("monza-race", "haba-monza"),
    age=5,  # the rule sheet: "players ages 5 to 99"
    minutes=(10, 15),  # the rule sheet: "Length of the game: 10 - 15 minutes approx."
    options=(
        OptionSpec("compulsion", "choice", "longest",
                   "Either you must use as many of your dice as possible, or you must keep "
                   "stepping while any die matches the next square, in any order.",
                   choices=("longest", "greedy"), label="Which dice you must use",
                   choice_labels=("As many dice as possible", "Keep going while a die matches")),
        OptionSpec("variant_last_colour", "bool", False,
                   "After each move, the car of the last die's colour may move one more free "
                   "square; its owner decides.", label="Last colour moves one more"),
        OptionSpec("circuit", "file", DEFAULT,
                   "The circuit to race on: default for the usual one, or a circuit file of "
                   "your own (the command line takes its path).", choices=(DEFAULT,),
                   label="Circuit"),
    ),
)


class MonzaRules(Game[MonzaData, Move, Roll]):
    """The rules of Monza (see the module docstring)."""

    spec = SPEC

    def __init__(self, players: int, options: Mapping[str, OptionValue]) -> None:
        super().__init__(players, options)
        try:
            self.circuit: Circuit = circuit_for(str(self.options["circuit"]))
        except CircuitError as error:
            raise BadOptionValue(f"option circuit: {error}") from None
        self.longest_rule = self.options["compulsion"] == "longest"
        self.variant = bool(self.options["variant_last_colour"])

    # ------------------------------------------------------------------ template methods

    def _initial(self) -> MonzaData:
        return MonzaData(cars=(START,) * self.players, round_used=(0,) * self.players)

    def _node(self, data: MonzaData) -> Node:
        if data.phase is Phase.ROLL:
            return CHANCE
        if data.phase is Phase.OVER:
            return TERMINAL
        if data.phase is Phase.VARIANT:
            return Node.decision(data.last)
        return Node.decision(data.player)

    def _turn(self, data: MonzaData) -> TurnInfo:
        return TurnInfo(data.player, data.turn)

    def _legal_actions(self, data: MonzaData, seat: Seat) -> tuple[Move, ...]:
        circuit = self.circuit
        if data.phase is Phase.STEP:
            car = data.cars[seat]
            return tuple(Step(COLOURS[circuit.colour_of[j]], j, circuit.squares[j].name)
                         for j in circuit.steps(car, data.dice, self.longest_rule))
        if data.phase is Phase.VARIANT:
            return (*(Advance(j, circuit.squares[j].name)
                      for j in self.free_next(data.cars, seat)), STAY)
        return (PASS,)

    def _apply_action(self, data: MonzaData, seat: Seat, action: Move) -> MonzaData:
        if isinstance(action, Step):
            cars = list(data.cars)
            cars[seat] = action.square
            colour = COLOURS.index(action.colour)
            dice = remove(data.dice, colour)
            moved = MonzaData(tuple(cars), data.player, data.turn, Phase.STEP, dice, data.roll,
                              data.used + 1, colour, data.round_used, data.finishing)
            if self.circuit.steps(action.square, dice, self.longest_rule):
                return moved
            return self._finish_move(moved)
        if isinstance(action, Advance):
            cars = list(data.cars)
            cars[seat] = action.square
            finishing = data.finishing or action.square in self.circuit.targets
            return self._end_turn(MonzaData(tuple(cars), data.player, data.turn, data.phase,
                                            data.dice, data.roll, data.used, data.last,
                                            data.round_used, finishing))
        if data.phase is Phase.STUCK:  # pass: no die could be used
            return self._finish_move(data)
        return self._end_turn(data)  # stay: the variant step is declined

    def _chance_outcomes(self, data: MonzaData) -> tuple[tuple[Roll, Fraction], ...]:
        return ROLLS

    def _apply_outcome(self, data: MonzaData, outcome: Roll) -> MonzaData:
        dice = outcome.counts
        can_move = bool(self.circuit.steps(data.cars[data.player], dice, False))
        return MonzaData(data.cars, data.player, data.turn,
                         Phase.STEP if can_move else Phase.STUCK, dice, dice, 0, -1,
                         data.round_used, data.finishing)

    def _result(self, data: MonzaData) -> Result:
        circuit = self.circuit
        scores = tuple(float(circuit.progress(car)) for car in data.cars)
        names = dict.fromkeys(circuit.square_name(data.cars[s]) for s in data.winners)
        squares = " and ".join(names)  # two cars may share a target square
        colours = " and ".join(str(COLOURS[s]) for s in data.winners)
        used = data.round_used[data.winners[0]] if data.winners else 0
        dice = count(used, "die")
        if len(data.winners) > 1:
            summary = f"the {colours} cars on {squares}, {dice} each in the last round"
        else:
            summary = f"the {colours} car on {squares}, {dice} in the last round"
        return Result.from_scores(data.winners, scores, summary)

    # ------------------------------------------------------------------ turn bookkeeping

    def free_next(self, cars: tuple[int, ...], seat: Seat) -> tuple[int, ...]:
        """Free legal next squares of ``seat``'s car (the variant step), none from a target."""
        car = cars[seat]
        if car != START and car in self.circuit.targets:
            return ()
        return tuple(j for j in self.circuit.next_squares(car) if j not in cars)

    def push_back(self, cars: tuple[int, ...], seat: Seat) -> tuple[int, ...]:
        """Resolve the end of ``seat``'s move: a car on the same square is pushed back to
        the nearest free non-tyre square behind it in its lane, or to the start zone.

        Nobody is pushed in the start zone or on a target square: a target holds any number
        of cars, and a car that has reached one moves no more and is never pushed."""
        square = cars[seat]
        if square == START or square in self.circuit.targets:
            return cars
        for other, car in enumerate(cars):
            if other != seat and car == square:
                circuit = self.circuit
                here = circuit.squares[square]
                lane = circuit.lanes[here.lane]
                target = START
                for j in reversed(lane[:here.index]):
                    if not circuit.squares[j].is_tyre and j not in cars:
                        target = j
                        break
                moved = list(cars)
                moved[other] = target
                return tuple(moved)
        return cars

    def _finish_move(self, data: MonzaData) -> MonzaData:
        """The move is over: push back, note the dice, trigger the last round, the variant."""
        seat = data.player
        cars = self.push_back(data.cars, seat)
        round_used = (*data.round_used[:seat], data.used, *data.round_used[seat + 1:])
        finishing = data.finishing or cars[seat] in self.circuit.targets
        after = MonzaData(cars, seat, data.turn, Phase.VARIANT, data.dice, data.roll,
                          data.used, data.last, round_used, finishing)
        owner = data.last
        if self.variant and 0 <= owner < self.players and self.free_next(cars, owner):
            return after
        return self._end_turn(after)

    def _end_turn(self, data: MonzaData) -> MonzaData:
        """Pass the turn, or end the game when the finishing round is complete."""
        targets = self.circuit.targets
        if data.finishing and data.player == self.players - 1:
            on_target = [s for s, car in enumerate(data.cars) if car in targets]
            if on_target:
                fewest = min(data.round_used[s] for s in on_target)
                winners = tuple(s for s in on_target if data.round_used[s] == fewest)
                return MonzaData(data.cars, data.player, data.turn, Phase.OVER, data.dice,
                                 data.roll, data.used, data.last, data.round_used, True,
                                 winners)
        player = (data.player + 1) % self.players
        round_used = (0,) * self.players if player == 0 else data.round_used
        finishing = data.finishing and player != 0
        phase = Phase.STUCK if data.cars[player] in targets else Phase.ROLL
        return MonzaData(data.cars, player, data.turn + 1, phase, (0,) * DICE, (), 0, -1,
                         round_used, finishing)

    # ------------------------------------------------------------------ notation

    def _parse_outcome(self, data: MonzaData, text: str) -> Roll:
        """A roll as six letters (``rryyyg``) or six colour words, in any order."""
        words = normalize(text.replace(",", " ")).split()
        names = {c.value: i for i, c in enumerate(COLOURS)}
        letters: list[int] = []
        if len(words) == 1 and all(ch in LETTERS for ch in words[0]):
            letters = [LETTERS.index(ch) for ch in words[0]]
        elif all(w in names or w in LETTERS for w in words):
            letters = [names[w] if w in names else LETTERS.index(w) for w in words]
        if len(letters) != DICE:
            raise IllegalAction(
                f"{text.strip()!r} is not a roll: give the six dice's colours, as letters "
                f"({', '.join(f'{ch}={c}' for ch, c in zip(LETTERS, COLOURS, strict=True))}) "
                f"such as rryyyg, or as words")
        return Roll(tuple(letters.count(i) for i in range(len(COLOURS))))

    def _parse_action(self, data: MonzaData, seat: Seat, text: str) -> Move:
        """Accept the square alone (``m5``), or a colour letter for the colour (``r m5``)."""
        wanted = normalize(text)
        for action in self._legal_actions(data, seat):
            if isinstance(action, Step):
                aliases = (action.name, f"{action.colour.value[0]} {action.name}")
            elif isinstance(action, Advance):
                aliases = (action.name, f"step {action.name}")
            else:
                continue
            if wanted in aliases:
                return action
        return super()._parse_action(data, seat, text)

    # ------------------------------------------------------------ positions (position.py)

    def _position(self, data: MonzaData) -> str:
        return position(data, self.circuit)

    def _from_position(self, text: str) -> MonzaData:
        return from_position(text, self.players, self.circuit, longest=self.longest_rule,
                             variant=self.variant)

    def facts(self, state: State[MonzaData, Move, Roll]) -> MonzaFacts:
        """Each car's square by name, the dice, the round's counts, whose turn, the phase."""
        return facts(state.data, self.circuit)
