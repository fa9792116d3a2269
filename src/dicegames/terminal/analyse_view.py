"""``dicegames analyse`` (the design report) and ``dicegames review`` (post-game reviews).

The work is :func:`dicegames.analysis.report.build_report` and :func:`dicegames.analysis.
review.review`; this module parses the requests, draws a progress bar on stderr (only at a
terminal, never with ``--json``), writes the HTML page and the charts, and prints summaries.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from dicegames.analysis.cluster import run_tasks
from dicegames.core.errors import OptionError
from dicegames.core.files import (
    Target,
    TargetError,
    check_target,
    standard_stream,
    write_bytes,
)
from dicegames.core.record import load
from dicegames.terminal.console import ExitCode, Terminal, UsageError
from dicegames.terminal.play import new_seed
from dicegames.terminal.seats import configure, parse_options, split_players
from dicegames.terminal.simulate_view import percent


@dataclass(frozen=True, slots=True)
class AnalyseRequest:
    """What ``dicegames analyse`` was asked to do (the parsed command line)."""

    game: str
    players: str | None
    ladder: str | None
    games: int
    options: Sequence[str]
    compare: Sequence[str]
    seed: int | None
    jobs: int
    scheduler: str | None
    out: Path | None
    charts: str | None
    json: bool
    sweep: str | None = None


def check_out(option: str, path: Path) -> Target:
    """What writing ``path`` (given as ``option``) will do, checked before any long run.

    Raises:
        UsageError: ``path`` is a folder, a socket or a block device (exit code 2).
        OSError: ``path`` cannot be looked at (a symbolic link loop, no permission).
    """
    try:
        return check_target(path)
    except TargetError as error:
        raise UsageError(f"{option} {error}") from None


def messages_for(term: Terminal, path: Path) -> Terminal:
    """``term``, or one printing on stderr when ``path`` is this process's own stdout.

    ``--out /dev/stdout`` then gives the page alone on stdout, and the lines saying what
    was written, and the summary, on stderr.
    """
    if standard_stream(path) != 1:
        return term
    return Terminal(term.err, term.err, reader=term.reader, echo=term.echo, pace=term.pace,
                    keyboard=term.keyboard)


@contextmanager
def _progress(term: Terminal, show: bool, label: str = "analysing"
              ) -> Iterator[Callable[[int, int], None]]:
    """A callback taking (done, total); a bar on stderr when ``show``."""
    if not show:
        yield lambda done, total: None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=term.err, transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def run_analyse(term: Terminal, request: AnalyseRequest) -> ExitCode:
    """Build the report (with ``--compare``, two and their comparison; with ``--sweep``, the
    sweep), write it, print a summary. Ctrl-C writes the report of what was done and exits
    with :attr:`ExitCode.INTERRUPTED`.

    Raises:
        OptionError: unknown game, option or bot, a bad number of games or jobs, charts
            asked for without matplotlib.
    """
    options = parse_options(request.options)
    option_sets = [options]
    if request.compare:
        option_sets.append({**options, **parse_options(request.compare)})
    seats = split_players(request.players) if request.players else None
    ladder = split_players(request.ladder) if request.ladder else None
    seed = request.seed if request.seed is not None else new_seed()
    if request.sweep and request.compare:
        raise UsageError("--sweep and --compare answer different questions: give one")
    if not request.json:
        from dicegames.analysis.charts import require_matplotlib
        require_matplotlib()  # fail before the long run, not after it
        if request.out and check_out("--out", request.out) == "stream" and request.charts:
            raise UsageError(f"--charts writes files named after --out, and --out "
                             f"{request.out} is not a file (it is standard output, a "
                             f"device or a FIFO); give --out a file name")
    if request.sweep:
        return _run_sweep(term, request, options, seats, seed)
    reports = _build_reports(term, request, option_sets=option_sets, seats=seats,
                             ladder=ladder, seed=seed)
    interrupted = any(report["interrupted"] for report in reports)
    comparison = None
    if len(reports) == 2:
        from dicegames.analysis.compare import comparison as compare_reports
        comparison = compare_reports(reports[0], reports[1])
    code = ExitCode.INTERRUPTED if interrupted else ExitCode.OK
    if request.json:
        document: Any = reports[0] if len(reports) == 1 else {
            "reports": reports, "comparison": comparison}
        term.out.file.write(json.dumps(document, indent=2) + "\n")
        return code
    from dicegames.analysis.charts import encode, report_charts
    from dicegames.analysis.html import report_page

    out = request.out or Path(f"{reports[0]['game']}-report.html")
    term = messages_for(term, out)
    written = write_bytes(out, report_page(reports, comparison).encode())
    term.say(f"Report written to {escape(str(written))}")
    if request.charts:
        for number, report in enumerate(reports, start=1):
            suffix = f"-{number}" if len(reports) > 1 else ""
            for name, figure in report_charts(report).items():
                path = out.with_name(f"{out.stem}{suffix}-{name}.{request.charts}")
                write_bytes(path, encode(figure, request.charts))
                term.say(f"Chart written to {escape(str(path))}")
    if comparison:
        for line in comparison["verdict"]:
            term.say(escape(line))
    for report in reports:
        show_summary(term, report)
    return code


def _build_reports(term: Terminal, request: AnalyseRequest, *,
                   option_sets: Sequence[dict[str, Any]], seats: Sequence[str] | None,
                   ladder: Sequence[str] | None, seed: int) -> list[dict[str, Any]]:
    """One report per option set (the HTML page's board drawn in), stopping at a Ctrl-C."""
    from dicegames.analysis.report import build_report

    reports: list[dict[str, Any]] = []
    for option_set in option_sets:
        game, items = configure(request.game, seats, option_set)
        with _progress(term, not request.json and term.err.is_terminal) as progress:
            built = build_report(game, games=request.games, seed=seed,
                                  players=items if seats else None, bots=ladder,
                                  jobs=request.jobs, scheduler=request.scheduler,
                                  progress=progress,
                                  announce=lambda text: term.err.print(escape(text)))
        data = built.to_json()
        if not request.json:
            from dicegames.analysis.board_picture import board_picture
            data["board"] = board_picture(game, f"board-{len(reports) + 1}")
        reports.append(data)
        if built.interrupted:
            break
    return reports


def _run_sweep(term: Terminal, request: AnalyseRequest, options: dict[str, Any],
               seats: Sequence[str] | None, seed: int) -> ExitCode:
    """``--sweep``: measure each value, write the page (or JSON), print a table."""
    from dicegames.analysis.sweep import parse_sweep, sweep

    spec = parse_sweep(request.sweep or "")

    def configured(value: Any) -> Any:
        return configure(request.game, seats, {**options, **{k: str(v) for k, v in
                                                             value.items()}})[0]
    with _progress(term, not request.json and term.err.is_terminal, "sweeping") as progress:
        result = sweep(configured, spec, games=request.games, seed=seed, players=seats,
                       jobs=request.jobs, scheduler=request.scheduler, progress=progress)
    code = ExitCode.INTERRUPTED if result["interrupted"] else ExitCode.OK
    if request.json:
        term.out.file.write(json.dumps(result, indent=2) + "\n")
        return code
    from dicegames.analysis.charts import encode, sweep_chart
    from dicegames.analysis.html import sweep_page

    out = request.out or Path(f"{request.game}-sweep.html")
    term = messages_for(term, out)
    written = write_bytes(out, sweep_page(result).encode())
    term.say(f"Sweep written to {escape(str(written))}")
    if request.charts:
        path = out.with_name(f"{out.stem}-sweep.{request.charts}")
        write_bytes(path, encode(sweep_chart(result), request.charts))
        term.say(f"Chart written to {escape(str(path))}")
    table = Table(title=escape(f"{result['game']}: {result['option']}"), title_justify="left")
    for column in (result["option"], "seat 1 wins alone", "turns", "decisiveness"):
        table.add_column(column, justify="right")
    for point in result["points"]:
        decisive = point["decisiveness"]
        table.add_row(str(point["value"]),
                      f"{percent(point['seat1']['share'])} ({percent(point['seat1']['low'])}"
                      f" to {percent(point['seat1']['high'])})",
                      f"{point['duration']['mean']:.1f}",
                      percent(decisive["mean"]) if decisive else "-")
    term.out.print(table)
    return code


def show_summary(term: Terminal, report: dict[str, Any]) -> None:
    """The headline figures of a report at the terminal."""
    table = Table(title=escape(report["name"]), title_justify="left")
    table.add_column("figure", style="bold")
    table.add_column("value", justify="right")
    out = report["outcomes"]["best"]
    exact = (report.get("exact") or {}).get("seat_advantage")
    if any(share["count"] for share in out["sole"]):
        for seat, share in enumerate(report["seat_advantage"]["best"]):
            value = (f"{percent(share['share'])} ({percent(share['low'])} to "
                     f"{percent(share['high'])})")
            if exact and out["shared"]["count"]:
                value += (f"; a shared win split {percent(out['split'][seat]['share'])}, "
                          f"exactly {percent(exact[seat])}")
            elif exact:
                value += f", exactly {percent(exact[seat])}"
            table.add_row(f"seat {seat + 1} wins alone ({escape(report['bots'][seat])})",
                          value)
    for key, label in (("shared", "shared wins"), ("no_winner", "games nobody won")):
        if out[key]["count"]:
            table.add_row(label, percent(out[key]["share"]))
    if not any(share["count"] for share in out["sole"]):
        for seat, gap in enumerate(out["score_difference"]):
            table.add_row(f"seat {seat + 1} score minus the others'",
                          f"{gap['mean']:+.2f} ({gap['low']:+.2f} to {gap['high']:+.2f})")
    turns = report["length"]["turns"]
    table.add_row("turns (mean, median)", f"{turns['mean']:.1f}, {turns['median']:g}")
    if report["choices"]["games"]:
        table.add_row("real choices a game", f"{report['choices']['decisions_per_game']:.1f}")
    for key in ("best_vs_weakest", "random_vs_best"):
        pairing = report["skill"][key]
        if pairing:
            table.add_row(escape(f"{pairing['first']} beats {pairing['second']}"),
                          percent(pairing["share"]))
    if report["drama"]:
        table.add_row("lead changes a game", f"{report['drama']['lead_changes']['mean']:.2f}")
    term.out.print(table)
    for skipped in report["skill"].get("skipped", []):
        term.say(escape(f"Skipped {skipped['bot']}: {skipped['reason']}."))
    for note in report.get("notes", []):
        term.say(escape(note))


# --------------------------------------------------------------------------- review


@dataclass(frozen=True, slots=True)
class ReviewRequest:
    """What ``dicegames review`` was asked to do (the parsed command line)."""

    files: Sequence[Path]
    json: bool
    html: Path | None
    rollouts: int
    jobs: int
    scheduler: str | None


def review_file(task: tuple[str, int]) -> dict[str, Any]:
    """Review the record at ``task[0]`` with ``task[1]`` rollouts (a task for any worker)."""
    from dicegames.analysis.estimate import estimator_for
    from dicegames.analysis.review import review

    session = load(task[0])
    return review(session, estimator_for(session.game, task[1])).to_json()


def run_review(term: Terminal, request: ReviewRequest) -> ExitCode:
    """Review every record given and print each review (table, JSON or HTML page).

    Raises:
        RecordError, OSError: a record cannot be read; ReviewError: a game is unfinished.
    """
    if request.rollouts < 1:
        raise OptionError("--rollouts must be at least 1")
    if request.html and len(request.files) > 1:
        raise OptionError("--html writes one page: review one record at a time with it")
    if request.html and not request.json:
        check_out("--html", request.html)
    sessions = [load(path) for path in request.files]  # a corrupt record fails first
    show = not request.json and term.err.is_terminal
    if len(sessions) == 1 and request.scheduler is None:
        from dicegames.analysis.estimate import estimator_for
        from dicegames.analysis.review import review

        session = sessions[0]
        with _progress(term, show, "reviewing") as progress:
            reviews = [review(session, estimator_for(session.game, request.rollouts),
                              progress=progress).to_json()]
    else:
        tasks = [(str(path), request.rollouts) for path in request.files]
        reviews = list(run_tasks(review_file, tasks, jobs=request.jobs,
                                 scheduler=request.scheduler))
    if request.json:
        document: Any = reviews[0] if len(reviews) == 1 else {"reviews": reviews}
        term.out.file.write(json.dumps(document, indent=2) + "\n")
        return ExitCode.OK
    if request.html:
        from dicegames.analysis.html import review_page
        term = messages_for(term, request.html)
        written = write_bytes(request.html, review_page(reviews[0]).encode())
        term.say(f"Review written to {escape(str(written))}")
    for path, data in zip(request.files, reviews, strict=True):
        show_review(term, str(path), data)
    return ExitCode.OK


def sparkline(values: Sequence[float]) -> str:
    """Values in 0..1 as a line of block characters."""
    blocks = "▁▂▃▄▅▆▇█"
    return "".join(blocks[min(7, int(v * 8))] for v in values)


def show_review(term: Terminal, name: str, review: dict[str, Any]) -> None:
    """A review at the terminal: the estimate, each decision, the mistakes, the curves."""
    players = review["players"]
    term.say(f"[bold]{escape(name)}[/bold]: {escape(review['game'])}, "
             f"{escape(' vs '.join(players))}")
    term.say(f"Estimate: {escape(review['estimate']['description'])}")
    table = Table(title_justify="left")
    for column in ("move", "turn", "player", "played", "best", "win chance", "cost",
                   "verdict"):
        table.add_column(column, justify="left" if column in ("player", "verdict") else
                         "right")
    for move in review["moves"]:
        if move["verdict"] == "best" and len(review["moves"]) > 40:
            continue
        error = move["error"]
        chance = percent(move["chances"][move["seat"]])
        if error:
            chance += f" ±{100 * error:.0f}"
        verdict = move["verdict"]
        table.add_row(str(move["index"] + 1), str(move["turn"]),
                      escape(players[move["seat"]]), escape(move["played"]),
                      escape(move["best"]), chance, f"{100 * move['cost']:.1f}",
                      f"[red]{verdict}[/red]" if move["flagged"] else verdict)
    term.out.print(table)
    for move in (m for m in review["moves"] if m["index"] in review["mistakes"]):
        term.say(f"Mistake at move {move['index'] + 1}: {escape(players[move['seat']])} "
                 f"played {escape(move['played'])}, {escape(move['best'])} was better by "
                 f"{100 * move['cost']:.1f} points of win chance")
    for seat, player in enumerate(players):
        line = sparkline([point["chances"][seat] for point in review["curve"]])
        term.say(f"{escape(player):>12} {line}")
