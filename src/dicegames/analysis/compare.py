"""Two design reports in one table: does the variant make the game fairer or shorter?

:func:`compare` takes the JSON figures of two reports of one game (the same bots, two option
sets) and gives, for each figure measured in both, its value under each option set, the
difference (second minus first) with a 95% interval, and whether that interval leaves out
zero (``significant``). Shares of games (seat wins, shared wins, games nobody won) use
Newcombe's hybrid score interval for a difference of two independent proportions (Newcombe,
"Interval estimation for the difference between independent proportions", Statistics in
Medicine 17, 1998, method 10), built from each side's Wilson interval; means (turns,
decisions, the game metrics) use the normal interval of a difference of means with each
side's own variance (Welch).

:func:`verdict` turns the table into the two sentences a designer asks for first: is the
variant **fairer** (seat 1's edge over an even share, a shared win split among its winners,
moves toward zero; in a game whose wins are all shared, seat 1's score gap) and is it
**shorter** (mean turns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dicegames.analysis.stats import Z_95


@dataclass(frozen=True, slots=True)
class Row:
    """One figure of a comparison (shares as fractions, means in their unit)."""

    key: str
    label: str
    kind: str  # "share" or "mean"
    first: float
    second: float
    difference: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the 95% interval of the difference leaves out zero."""
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {"key": self.key, "label": self.label, "kind": self.kind,
                "first": self.first, "second": self.second,
                "difference": self.difference, "low": self.low, "high": self.high,
                "significant": self.significant}


def share_row(key: str, label: str, a: dict[str, Any], b: dict[str, Any]) -> Row:
    """A share's row from two ``{"share", "low", "high"}`` figures (Wilson intervals)."""
    p1, l1, u1 = a["share"], a["low"], a["high"]
    p2, l2, u2 = b["share"], b["low"], b["high"]
    difference = p2 - p1
    low = difference - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = difference + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return Row(key, label, "share", p1, p2, difference, low, high)


def mean_row(key: str, label: str, a: dict[str, Any], b: dict[str, Any]) -> Row:
    """A mean's row from two ``{"mean", "sd", "games"}`` figures."""
    m1, m2 = a["mean"], b["mean"]
    spread = math.sqrt(a["sd"] ** 2 / max(1, a["games"]) + b["sd"] ** 2 / max(1, b["games"]))
    difference = m2 - m1
    return Row(key, label, "mean", m1, m2, difference, difference - Z_95 * spread,
               difference + Z_95 * spread)


METRICS = (("decisiveness", "decisiveness (share of turns after 90%)"),
           ("drama", "drama"), ("lead_changes", "lead changes (share of turns)"),
           ("uncertainty", "uncertainty"))
"""The game metrics compared, by key, with their labels."""


def compare(first: dict[str, Any], second: dict[str, Any]) -> list[Row]:
    """The rows of every figure both reports measured."""
    rows: list[Row] = []
    a_out, b_out = first["outcomes"]["best"], second["outcomes"]["best"]
    players = min(len(a_out["sole"]), len(b_out["sole"]))
    for seat in range(players):
        rows.append(share_row(f"seat{seat + 1}", f"seat {seat + 1} wins alone",
                              a_out["sole"][seat], b_out["sole"][seat]))
    for key, label in (("shared", "shared wins"), ("no_winner", "games nobody won")):
        if a_out[key]["count"] or b_out[key]["count"]:
            rows.append(share_row(key, label, a_out[key], b_out[key]))
    if first["metrics"]["first_move_advantage"] and second["metrics"]["first_move_advantage"]:
        rows.append(share_row("seat1_split", "seat 1's share, a shared win split",
                              a_out["split"][0], b_out["split"][0]))
    a_gap, b_gap = first["metrics"]["first_seat_score_gap"], second["metrics"][
        "first_seat_score_gap"]
    if a_gap["mean"] or b_gap["mean"]:
        rows.append(Row("score_gap", "seat 1's score minus the others'", "mean",
                        a_gap["mean"], b_gap["mean"], b_gap["mean"] - a_gap["mean"],
                        *_gap_interval(a_gap, b_gap)))
    rows.append(mean_row("turns", "turns a game", first["length"]["turns"],
                         second["length"]["turns"]))
    a_dec, b_dec = first["length"]["decisions"], second["length"]["decisions"]
    if a_dec and b_dec:
        rows.append(mean_row("decisions", "real choices a game", a_dec, b_dec))
    for key, label in METRICS:
        a_metric, b_metric = first["metrics"].get(key), second["metrics"].get(key)
        if a_metric and b_metric and a_metric["games"] and b_metric["games"]:
            rows.append(mean_row(key, label, a_metric, b_metric))
    return rows


def _gap_interval(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float]:
    """The interval of a difference of two means given by their own 95% intervals."""
    half = math.hypot((a["high"] - a["low"]) / 2, (b["high"] - b["low"]) / 2)
    difference = b["mean"] - a["mean"]
    return difference - half, difference + half


def _points(value: float) -> str:
    return f"{100 * value:.1f}"


def verdict(first: dict[str, Any], second: dict[str, Any], rows: list[Row]) -> list[str]:
    """Two sentences: fairer? shorter? (the second option set against the first)."""
    by_key = {row.key: row for row in rows}
    lines: list[str] = []
    split = by_key.get("seat1_split")
    a_edge, b_edge = first["metrics"]["first_move_advantage"], second["metrics"][
        "first_move_advantage"]
    if split is not None and a_edge and b_edge:
        before, after = a_edge["gap"], b_edge["gap"]
        change = abs(after) - abs(before)
        # the interval of |after| - |before|: the difference's, turned toward the first edge
        sign = 1 if before >= 0 else -1
        low, high = sorted((sign * split.low, sign * split.high))
        sure = low > 0 or high < 0
        word = ("Fairer" if change < 0 else "Less fair") if sure else "No clearer fairness"
        lines.append(f"{word}: seat 1's edge over an even share goes from {_points(before)} "
                     f"to {_points(after)} points (seat 1 wins {_points(split.first)}% and "
                     f"then {_points(split.second)}%, a shared win split)"
                     + ("" if sure else ", a change within the noise") + ".")
    elif "score_gap" in by_key:
        gap = by_key["score_gap"]
        sure = gap.significant and abs(gap.second) != abs(gap.first)
        word = ("Fairer" if abs(gap.second) < abs(gap.first) else "Less fair") if sure \
            else "No clearer fairness"
        lines.append(f"{word}: wins are mostly shared, so seat order is judged by score: "
                     f"seat 1 scores {gap.second:+.2f} against the others' mean, was "
                     f"{gap.first:+.2f}.")
    turns = by_key["turns"]
    word = ("Shorter" if turns.difference < 0 else "Longer") if turns.significant \
        else "No shorter"
    lines.append(f"{word}: {turns.second:.1f} turns a game against {turns.first:.1f} "
                 f"({turns.difference:+.1f}, 95% interval {turns.low:+.1f} to "
                 f"{turns.high:+.1f}).")
    return lines


def comparison(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """The comparison as JSON-ready data: the verdict, then every row."""
    rows = compare(first, second)
    return {"first": first["name"], "second": second["name"],
            "verdict": verdict(first, second, rows), "rows": [r.to_json() for r in rows]}
