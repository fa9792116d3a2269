"""The charts of the design report and the review, drawn with matplotlib (headless Agg).

Each function takes the report's (or review's) JSON figures and returns a matplotlib
``Figure``; :func:`encode` turns one into SVG text (inlined in the HTML page) or PNG bytes
(written beside it on request). matplotlib comes with the ``analysis`` extra; without it
:func:`require_matplotlib` says what to install.
"""

from __future__ import annotations

import io
from typing import Any

from dicegames.analysis.cluster import EXTRA_HINT
from dicegames.core.errors import OptionError

SEAT_COLOURS = ("#d1495b", "#00798c", "#edae49", "#66a182", "#8d96a3", "#2e4057")
"""One colour per seat (and per bot in the ladder)."""


def require_matplotlib() -> Any:
    """``matplotlib.pyplot`` on the Agg backend, or an :class:`OptionError` naming the extra."""
    try:
        import matplotlib
    except ImportError:
        raise OptionError(f"charts need matplotlib, from the analysis extra: {EXTRA_HINT}"
                          ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "dicegames", "svg.fonttype": "none",
                         "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False})
    return plt


def encode(figure: Any, kind: str) -> bytes:
    """The figure as ``svg`` or ``png`` bytes (metadata without dates: same input, same
    bytes), then closed."""
    plt = require_matplotlib()
    buffer = io.BytesIO()
    metadata: dict[str, Any] = {"Date": None} if kind == "svg" else {"Software": None}
    figure.savefig(buffer, format=kind, bbox_inches="tight", metadata=metadata, dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def whole_ticks(axis: Any, which: str = "y") -> None:
    """Whole-number ticks on an axis that counts games, turns or decisions."""
    from matplotlib.ticker import MaxNLocator

    target = axis.yaxis if which == "y" else axis.xaxis
    target.set_major_locator(MaxNLocator(integer=True))


def _interval_bars(axis: Any, labels: list[str], shares: list[dict[str, Any]],
                   colours: list[str]) -> None:
    values = [s["share"] for s in shares]
    below = [s["share"] - s["low"] for s in shares]
    above = [s["high"] - s["share"] for s in shares]
    axis.bar(labels, values, color=colours, yerr=[below, above], capsize=4)
    axis.set_ylim(0, 1)
    axis.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")


def seat_chart(report: dict[str, Any]) -> Any:
    """Each seat's share of wins with its 95% interval, best bots and random play."""
    plt = require_matplotlib()
    figure, axes = plt.subplots(1, 2, figsize=(7, 2.8), sharey=True)
    seats = report["seat_advantage"]
    players = report["players"]
    labels = [f"seat {s + 1}" for s in range(players)]
    colours = [SEAT_COLOURS[s % len(SEAT_COLOURS)] for s in range(players)]
    bots = report["bots"]
    given = f"{bots[0]} bots" if len(set(bots)) == 1 else "the given bots"
    for axis, key, title in ((axes[0], "best", given),
                             (axes[1], "random", "random play")):
        if not seats[key]:
            axis.set_axis_off()
            continue
        _interval_bars(axis, labels, seats[key], colours)
        axis.axhline(1 / players, color="#888", linewidth=0.8, linestyle="--")
        axis.set_title(f"sole wins by seat, {title}")
    exact = (report.get("exact") or {}).get("seat_advantage")
    if exact and seats["best"]:
        axes[0].scatter(labels, exact, marker="D", color="#222", zorder=3,
                        label="exact (optimal play)")
        axes[0].legend(frameon=False, loc="upper right")
    return figure


def length_chart(report: dict[str, Any]) -> Any:
    """Histograms of game length in turns and in real decisions, mean and median marked."""
    plt = require_matplotlib()
    figure, axes = plt.subplots(1, 2, figsize=(7, 2.8))
    for axis, key, title in ((axes[0], "turns", "turns per game"),
                             (axes[1], "decisions", "real decisions per game")):
        figures = report["length"][key]
        if not figures:
            axis.set_axis_off()
            continue
        histogram = {int(k): v for k, v in figures["histogram"].items()}
        axis.bar(list(histogram), list(histogram.values()), width=1.0, color="#00798c")
        axis.axvline(figures["mean"], color="#d1495b", label=f"mean {figures['mean']:.1f}")
        axis.axvline(figures["median"], color="#edae49", linestyle="--",
                     label=f"median {figures['median']:g}")
        axis.set_title(title)
        axis.set_ylabel("games")
        whole_ticks(axis, "x")
        whole_ticks(axis, "y")
        axis.legend(frameon=False, loc="upper right")
    return figure


def ladder_chart(report: dict[str, Any]) -> Any:
    """The Bradley-Terry ladder: each bot's Elo rating with its 95% interval."""
    plt = require_matplotlib()
    ladder = sorted(report["skill"]["ladder"], key=lambda r: r["elo"])
    figure, axis = plt.subplots(figsize=(7, 0.5 + 0.45 * len(ladder)))
    names = [r["name"] for r in ladder]
    elos = [r["elo"] for r in ladder]
    errors = [[r["elo"] - r["low"] for r in ladder], [r["high"] - r["elo"] for r in ladder]]
    axis.errorbar(elos, names, xerr=errors, fmt="o", color="#2e4057", capsize=4)
    axis.axvline(0, color="#888", linewidth=0.8, linestyle="--")
    axis.set_xlabel("Elo rating (random = 0), 95% interval")
    axis.set_title("rating ladder from the round robin (Bradley-Terry)")
    return figure


def drama_chart(report: dict[str, Any]) -> Any:
    """How many times the lead changed hands per game."""
    plt = require_matplotlib()
    drama = report["drama"]
    histogram = {int(k): v for k, v in drama["lead_changes"]["histogram"].items()}
    figure, axis = plt.subplots(figsize=(7, 2.6))
    axis.bar(list(histogram), list(histogram.values()), width=0.8, color="#66a182")
    axis.set_xlabel("lead changes in a game")
    axis.set_ylabel("games")
    whole_ticks(axis, "x")
    whole_ticks(axis, "y")
    axis.set_title(f"lead changes ({drama['games']} games, leader by the {drama['estimate']} "
                   f"estimate)")
    return figure


def strategy_chart(report: dict[str, Any]) -> Any:
    """The optimal stop threshold over both positions, one panel per dice count."""
    plt = require_matplotlib()
    strategy = report["strategy"]
    grids = strategy["thresholds"]
    n = strategy["track_length"]
    figure, axes = plt.subplots(1, len(grids), figsize=(2.3 * len(grids) + 1, 2.9),
                                sharey=True, constrained_layout=True)
    image = None
    for axis, (dice, grid) in zip(axes, grids.items(), strict=True):
        values = [[float("nan") if v is None else float(v) for v in row] for row in grid]
        image = axis.imshow(values, origin="lower", cmap="viridis", vmin=0, vmax=30,
                            extent=(-0.5, n + 0.5, -0.5, n + 0.5), aspect="equal")
        axis.set_title(f"{dice} dice")
        axis.set_xlabel("opponent's square")
    axes[0].set_ylabel("own square")
    bar = figure.colorbar(image, ax=list(axes), shrink=0.85)
    bar.set_label("stop from this running sum\n(blank: always roll)")
    figure.suptitle("optimal play: when to stop (exact solution, first player)")
    if strategy.get("note"):
        figure.text(0.5, -0.04, strategy["note"], ha="center", fontsize=8, color="#444")
    return figure


def review_chart(review: dict[str, Any]) -> Any:
    """The evaluation graph: each player's win chance over the game, mistakes marked."""
    plt = require_matplotlib()
    figure, axis = plt.subplots(figsize=(7, 2.8))
    curve = review["curve"]
    xs = [point["index"] for point in curve]
    flagged = {move["index"] + 1: move for move in review["moves"] if move["flagged"]}
    for seat, name in enumerate(review["players"]):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        ys = [point["chances"][seat] for point in curve]
        axis.step(xs, ys, where="post", color=colour, label=name)
        marks = [(x, y) for x, y in zip(xs, ys, strict=True)
                 if x in flagged and flagged[x]["seat"] == seat]
        if marks:
            axis.plot(*zip(*marks, strict=True), "v", color=colour, markersize=7)
    axis.set_ylim(-0.02, 1.02)
    axis.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    axis.set_xlabel("move")
    axis.set_ylabel("win chance")
    axis.set_title(f"win chance over the game ({review['estimate']['kind']} estimate; "
                   f"▼ mistakes)")
    axis.legend(frameon=False, loc="upper left")
    return figure


def sweep_chart(result: dict[str, Any]) -> Any:
    """Seat 1's share, the length and the decisiveness over an option's values, with bands."""
    plt = require_matplotlib()
    points = result["points"]
    xs = [p["value"] for p in points]
    figure, axes = plt.subplots(1, 3, figsize=(10, 2.9), constrained_layout=True)
    panels = (
        ("seat 1 wins alone", [p["seat1"]["share"] for p in points],
         [p["seat1"]["low"] for p in points], [p["seat1"]["high"] for p in points], True),
        ("turns a game", [p["duration"]["mean"] for p in points],
         [p["duration"]["low"] for p in points], [p["duration"]["high"] for p in points],
         False),
        ("decisiveness", [(p["decisiveness"] or {}).get("mean", float("nan")) for p in points],
         [(p["decisiveness"] or {}).get("low", float("nan")) for p in points],
         [(p["decisiveness"] or {}).get("high", float("nan")) for p in points], True),
    )
    for axis, (title, ys, lows, highs, percent) in zip(axes, panels, strict=True):
        axis.fill_between(xs, lows, highs, color="#00798c", alpha=0.25, linewidth=0,
                          label="95% interval")
        axis.plot(xs, ys, "o-", color="#00798c", markersize=3)
        if title.startswith("seat 1") and points:
            axis.axhline(1 / points[0]["players"], color="#888", linewidth=0.8,
                         linestyle="--")
        if percent:
            from matplotlib.ticker import PercentFormatter

            axis.yaxis.set_major_formatter(PercentFormatter(xmax=1))
        axis.set_title(title)
        axis.set_xlabel(result["option"])
        whole_ticks(axis, "x")
        if len(xs) <= 12:
            axis.set_xticks(xs)
    axes[0].legend(frameon=False)
    return figure


def report_charts(report: dict[str, Any]) -> dict[str, Any]:
    """Every chart a report has, by file stem."""
    charts = {"seats": seat_chart(report), "length": length_chart(report)}
    if report["skill"]["ladder"]:
        charts["ladder"] = ladder_chart(report)
    if report.get("drama"):
        charts["drama"] = drama_chart(report)
    if report.get("strategy"):
        charts["strategy"] = strategy_chart(report)
    return charts
