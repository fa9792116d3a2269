"""Each Monza level's exact chance against ``optimal`` (the strength tables' exact column).

:func:`exact_losses` evaluates every listed own level but ``optimal`` (``easy`` as the uniform
random policy, ``medium`` and ``hard`` as the fixed policies of :mod:`.evaluate`, or with
``variant_last_colour`` of :mod:`.evaluate_variant`) against the solution, from both seats,
where the solver covers the game (:func:`.optimal.covered`). ``hard``'s one-reply look-ahead
makes that slow (minutes on the default circuit), so the figures are kept in the solutions'
disk cache (:mod:`dicegames.core.solution_cache`), keyed by the variant, the compulsion, the
circuit and the source of every module the policies read.
"""

from __future__ import annotations

from typing import Any

from dicegames.core import solution_cache
from dicegames.games.monza.optimal import covered

SOURCES = ("losses.py", "evaluate.py", "heuristics.py", "race.py", "solver.py", "circuit.py",
           "rules.py", "evaluate_variant.py", "evaluate_choices.py", "solver_variant.py")
"""The modules the figures depend on (their text is part of the cache key)."""


def exact_losses(game: Any) -> dict[str, tuple[float, float]] | None:
    """For a strength table: each of the game's listed levels but ``optimal`` mapped to its
    exact chance to win against ``optimal`` (moving first, moving second; a shared win
    counting half); None where the solution does not cover the game."""
    import numpy as np

    from dicegames.bots import own_levels
    from dicegames.games.monza import evaluate
    from dicegames.games.monza.solver import solution_for

    if not covered(game):
        return None
    circuit = game.circuit
    # The listed levels: an experiment (``trained``, unlisted) has no fixed-policy evaluation.
    names = [level.name for level in own_levels(game)
             if level.listed and level.name != "optimal"]
    key = solution_cache.cache_name(  # its own prefix: pruning never takes the solution
        "monza-losses", solution_cache.code_version("dicegames.games.monza", SOURCES),
        "last-colour" if game.variant else "plain", "longest" if game.longest_rule else "greedy",
        ",".join(names),
        repr(circuit.squares), repr(circuit.entries), repr(sorted(circuit.targets)))
    stored = solution_cache.load_arrays(key)
    if stored is not None and stored["levels"].tolist() == names:
        return {name: (float(first), float(second))
                for name, (first, second) in zip(names, stored["chances"].tolist(),
                                                 strict=True)}
    if game.variant:
        from dicegames.games.monza import evaluate_variant, solver_variant

        result = evaluate_variant.against_optimal(
            solver_variant.solve(circuit, game.longest_rule), names, game)
    else:
        solution = solution_for(game)
        found = evaluate.policies(solution, game)
        best = found["optimal"]
        result = {name: (evaluate.red_chance(solution, found[name], best),
                         1.0 - evaluate.red_chance(solution, best, found[name]))
                  for name in names}
    solution_cache.store_arrays(key, {"levels": np.array(names),
                                      "chances": np.array([result[n] for n in names])})
    return result
