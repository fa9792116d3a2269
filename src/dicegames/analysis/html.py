"""Self-contained HTML pages of a design report (one, or a comparison), a sweep and a review.

One file, no outside resources: the charts are inline SVG, the style is in the page. Text
from the program (game names, option values, player names) is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from dicegames.analysis.charts import encode, report_charts, review_chart

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1500px;padding:1em 2em;
color:#222} h1{font-size:1.5em} h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid
#ddd} .columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(620px,1fr));gap:2em}
table{border-collapse:collapse;margin:.5em 0} td,th{padding:.2em .7em;text-align:right;
border-bottom:1px solid #eee} th:first-child,td:first-child{text-align:left}
svg{max-width:100%;height:auto} .note{color:#666;font-size:.9em} .flag{color:#b00}
.verdict{font-size:1.1em;font-weight:600}
"""


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _share(share: dict[str, Any]) -> str:
    return (f"{_percent(share['share'])} <span class=note>({_percent(share['low'])} to "
            f"{_percent(share['high'])})</span>")


def _svg(figure: Any) -> str:
    text = encode(figure, "svg").decode()
    return text[text.index("<svg"):]


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _seat_rows(report: dict[str, Any]) -> list[list[str]]:
    seats = report["seat_advantage"]
    exact = (report.get("exact") or {}).get("seat_advantage")
    out = report["outcomes"]["best"]
    rows = []
    for seat, best in enumerate(seats["best"]):
        row = [f"seat {seat + 1}", _share(best)]
        if exact:
            row.append(_percent(exact[seat]) + (
                f" <span class=note>(a shared win split; sampled so: "
                f"{_percent(out['split'][seat]['share'])})</span>"
                if out["shared"]["count"] else ""))
        row.append(_share(seats["random"][seat]) if seats["random"] else "–")
        rows.append(row)
    return rows


def _outcome_lines(report: dict[str, Any]) -> list[str]:
    """Shared wins, games nobody won, ranks and score differences of the main run."""
    out = report["outcomes"]["best"]
    parts = []
    shared, none = out["shared"], out["no_winner"]
    if shared["count"] or none["count"]:
        parts.append(f"<p>Besides the sole wins above: {_share(shared)} of the games ended "
                     f"in a <b>shared win</b> and {_share(none)} with <b>no winner</b>.</p>")
    players = report["players"]
    if players > 1:
        head = ["seat", *[f"rank {r + 1}" for r in range(players)],
                "score minus the others' mean"]
        rows = [[f"seat {s + 1}", *[_percent(p) for p in out["ranks"][s]],
                 f"{d['mean']:+.2f} <span class=note>({d['low']:+.2f} to {d['high']:+.2f})"
                 f"</span>"] for s, d in enumerate(out["score_difference"])]
        parts.append("<p>Ranks (winners first, the others by score) and score differences: "
                     "how seat order shows where wins are shared.</p>" + _table(head, rows))
    return parts


def _metrics_table(report: dict[str, Any]) -> str:
    metrics = report["metrics"]
    rows = []

    def interval(figure: dict[str, Any], percent: bool) -> str:
        show = _percent if percent else (lambda v: f"{v:.2f}")
        return (f"{show(figure['mean'])} <span class=note>({show(figure['low'])} to "
                f"{show(figure['high'])}, {figure['games']} games)</span>")
    found = metrics.get("decisiveness")
    if found:
        rows.append(["decisiveness", interval(found, True),
                     f"share of a game's turns after the winner reached "
                     f"{_percent(found['threshold'])}; a player lost after reaching it in "
                     f"{_percent(found['reversals'])} of the games"])
    draw = metrics["drawishness"]
    rows.append(["drawishness", _share(draw), f"games without a sole winner (draws "
                 f"{_percent(draw['draws'])}, shared wins {_percent(draw['shared'])})"])
    rows.append(["duration", interval(metrics["duration"], False), "turns a game"])
    branching = metrics["branching"]
    rows.append(["branching factor", f"{branching['all']:.2f}",
                 f"legal moves a decision ({branching['choices']:.2f} at a real choice)"])
    for key, text in (("drama", "the leader's chance minus the winner's, while the winner "
                                "is behind"),
                      ("lead_changes", "changes of leader, per turn"),
                      ("uncertainty", "entropy of the win chances, 1 = all level")):
        if metrics.get(key):
            rows.append([key.replace("_", " "), interval(metrics[key], key != "drama"), text])
    first = metrics.get("first_move_advantage")
    if first:
        exact = (report.get("exact") or {}).get("seat_advantage")
        rows.append(["first-move advantage",
                     f"{100 * first['gap']:+.1f} points <span class=note>"
                     f"({100 * first['low']:+.1f} to {100 * first['high']:+.1f})</span>",
                     "seat 1's sole wins minus an even share"
                     + (f"; exactly {100 * (exact[0] - 1 / len(exact)):+.1f} under optimal "
                        f"play" if exact else "")])
    return _table(["metric", "value", "what it measures (docs/analysis.md)"], rows)


def report_section(report: dict[str, Any]) -> str:
    """One report's sections (figures, tables and charts)."""
    charts = {name: _svg(figure) for name, figure in report_charts(report).items()}
    out = report["outcomes"]["best"]
    same_as = report["skill"].get("same_as", {})

    def bot(name: str) -> str:
        return escape(f"{name} (= {', '.join(same_as[name])})" if same_as.get(name) else name)
    exact = report.get("exact")
    parts = [f"<h2>{escape(report['name'])}</h2>",
             f"<p class=note>{report['games']:,} games a run ({out['games']:,} played, by "
             f"the {escape(out['engine'])}), seed {report['seed']}; seats: "
             f"{', '.join(bot(b) for b in report['bots'])}</p>"]
    parts += [f"<p class=flag>{escape(note)}</p>" for note in report.get("notes", [])
              if note.startswith("interrupted")]
    if report.get("board"):
        parts += ["<h2>The board</h2>", report["board"]]
    parts.append("<h2>Seat advantage</h2>")
    head = ["seat", "sole wins, the bots above"]
    if exact:
        head.append("exact, optimal play")
    head.append("sole wins, random play")
    parts.append(_table(head, _seat_rows(report)))
    parts += _outcome_lines(report)
    parts.append(charts["seats"])
    parts.append("<h2>Game length and choices</h2>")
    length = report["length"]
    parts.append(_table(["", "mean", "median", "10%", "90%", "shortest", "longest", "games"], [
        [what, f"{f['mean']:.1f}", f"{f['median']:g}", str(f["p10"]), str(f["p90"]),
         str(f["shortest"]), str(f["longest"]), f"{f['games']:,}"]
        for what, f in (("turns", length["turns"]), ("real decisions", length["decisions"]))
        if f]))
    choices = report["choices"]
    if choices["games"]:
        parts.append(f"<p>Per game ({choices['games']:,} games traced move by move): "
                     f"{choices['decisions_per_game']:.1f} real choices and "
                     f"{choices['forced_per_game']:.1f} forced moves; a real choice offers "
                     f"{choices['branching']:.1f} moves on average.</p>")
    parts.append(charts["length"])
    skill = report["skill"]
    parts.append("<h2>Luck and skill</h2>")
    for key in ("best_vs_weakest", "random_vs_best"):
        pairing = skill[key]
        if pairing:
            parts.append(f"<p>{bot(pairing['first'])} beats {bot(pairing['second'])} "
                         f"in {_share(pairing)} of the games.</p>")
    if skill["ladder"]:
        parts.append(_table(["bot", "Elo", "95% interval"], [
            [bot(r["name"]), f"{r['elo']:.0f}", f"{r['low']:.0f} to {r['high']:.0f}"]
            for r in sorted(skill["ladder"], key=lambda r: -r["elo"])]))
        parts.append(charts["ladder"])
    for skipped in skill.get("skipped", []):
        parts.append(f"<p class=note>Skipped: {escape(skipped['bot'])}, "
                     f"{escape(skipped['reason'])}.</p>")
    parts.append("<h2>Game metrics</h2>")
    parts.append(_metrics_table(report))
    drama = report["drama"]
    if drama:
        behind = drama["behind_at_half_wins"]
        parts.append("<h2>Drama</h2>")
        parts.append(f"<p>Over {drama['games']:,} games (leader by the {drama['estimate']} "
                     f"estimate): {drama['lead_changes']['mean']:.2f} lead changes a game; "
                     f"the winner takes the lead for good "
                     f"{_percent(drama['winner_settles'])} of the way into the game"
                     + (f"; the player behind at half-time wins {_share(behind)}"
                        if behind else "") + ".</p>")
        parts.append(charts["drama"])
    if "strategy" in charts:
        parts += ["<h2>Optimal strategy</h2>", charts["strategy"]]
        note = report["strategy"].get("note")
        if note:
            parts.append(f"<p class=note>{escape(note)}</p>")
    parts += [f"<p class=note>{escape(note)}</p>" for note in report.get("notes", [])
              if not note.startswith("interrupted")]
    return "\n".join(parts)


def comparison_section(result: dict[str, Any]) -> str:
    """The comparison: the verdict first, then one table of every figure."""
    rows = []
    for row in result["rows"]:
        share = row["kind"] == "share"

        def show(value: float, share: bool = share) -> str:
            return f"{100 * value:.1f}%" if share else f"{value:.2f}"

        def unit(value: float, share: bool = share) -> str:
            return f"{100 * value:+.1f}" if share else f"{value:+.2f}"
        mark = "<span class=flag>*</span>" if row["significant"] else ""
        rows.append([escape(row["label"]), show(row["first"]), show(row["second"]),
                     f"{unit(row['difference'])}{mark}",
                     f"{unit(row['low'])} to {unit(row['high'])}"])
    verdict = "".join(f"<li>{escape(line)}</li>" for line in result["verdict"])
    return (f"<h2>Fairer or shorter?</h2><ul class=verdict>{verdict}</ul>"
            + _table(["figure", escape(result["first"]), escape(result["second"]),
                      "difference", "95% interval"], rows)
            + "<p class=note>Differences are the second minus the first (points for shares); "
              "* marks a difference whose 95% interval leaves out zero. Shares: Newcombe's "
              "hybrid score interval; means: the normal interval of a difference of "
              "means.</p>")


def report_page(reports: Sequence[dict[str, Any]],
                comparison: dict[str, Any] | None = None) -> str:
    """The HTML page of one report, or of a comparison: its verdict and table first, then
    both reports side by side."""
    title = " vs ".join(report["name"] for report in reports)
    columns = "".join(f"<div>{report_section(report)}</div>" for report in reports)
    first = comparison_section(comparison) if comparison else ""
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style><h1>Design report: {escape(title)}</h1>"
            f"{first}<div class=columns>{columns}</div></html>\n")


def sweep_page(result: dict[str, Any]) -> str:
    """The HTML page of a sweep: the chart, then a row per value."""
    from dicegames.analysis.charts import sweep_chart

    title = f"{result['game']}: {result['option']} from {result['values'][0]} to " \
            f"{result['values'][-1]}"
    rows = []
    for point in result["points"]:
        decisive = point["decisiveness"]
        rows.append([str(point["value"]), _share(point["seat1"]), _share(point["shared"]),
                     f"{point['duration']['mean']:.1f} <span class=note>"
                     f"({point['duration']['low']:.1f} to {point['duration']['high']:.1f})"
                     f"</span>",
                     (f"{_percent(decisive['mean'])} <span class=note>("
                      f"{_percent(decisive['low'])} to {_percent(decisive['high'])})</span>")
                     if decisive else "–"])
    note = ("<p class=flag>Interrupted (Ctrl-C): the values after the last row were not "
            "measured.</p>" if result.get("interrupted") else "")
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style><h1>Sweep: {escape(title)}</h1>{note}"
            f"<p class=note>{result['games']:,} games at each value (seed {result['seed']}); "
            f"bands and intervals at 95%.</p>{_svg(sweep_chart(result))}"
            + _table([result["option"], "seat 1 wins alone", "shared wins", "turns a game",
                      "decisiveness"], rows) + "</html>\n")


def review_page(review: dict[str, Any]) -> str:
    """The HTML page of a review: the curve, the flagged moves, every decision."""
    players = review["players"]
    rows = [[str(m["index"] + 1), str(m["turn"]), escape(players[m["seat"]]),
             escape(m["played"]), escape(m["best"]), f"{100 * m['chances'][m['seat']]:.1f}%",
             "" if not m["error"] else f"±{100 * m['error']:.1f}", f"{100 * m['cost']:.1f}",
             f"<span class=flag>{m['verdict']}</span>" if m["flagged"] else m["verdict"]]
            for m in review["moves"]]
    title = f"Review: {review['game']}, {' vs '.join(players)}"
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style><h1>{escape(title)}</h1>"
            f"<p class=note>Estimate: {escape(review['estimate']['description'])}.</p>"
            f"{_svg(review_chart(review))}"
            + _table(["move", "turn", "player", "played", "best", "win chance", "±",
                      "cost (points)", "verdict"],
                     rows) + "</html>\n")
