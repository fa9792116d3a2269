"""Self-contained HTML pages of a design report (one or two side by side) and of a review.

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


def report_section(report: dict[str, Any]) -> str:
    """One report's sections (figures, tables and charts)."""
    charts = {name: _svg(figure) for name, figure in report_charts(report).items()}
    seats = report["seat_advantage"]
    parts = [f"<h2>{escape(report['name'])}</h2>",
             f"<p class=note>{report['games']} games a run, seed {report['seed']}; seats: "
             f"{escape(', '.join(report['bots']))}</p>",
             "<h2>Seat advantage</h2>",
             _table(["seat", "the bots above", "random play"],
                    [[f"seat {s + 1}", _share(best), _share(rand)] for s, (best, rand)
                     in enumerate(zip(seats["best"], seats["random"], strict=True))]),
             charts["seats"], "<h2>Game length and choices</h2>"]
    length = report["length"]
    parts.append(_table(["", "mean", "median", "10%", "90%", "shortest", "longest"], [
        [what, f"{f['mean']:.1f}", f"{f['median']:g}", str(f["p10"]), str(f["p90"]),
         str(f["shortest"]), str(f["longest"])]
        for what, f in (("turns", length["turns"]), ("real decisions", length["decisions"]))]))
    choices = report["choices"]
    parts.append(f"<p>Per game: {choices['decisions_per_game']:.1f} real choices and "
                 f"{choices['forced_per_game']:.1f} forced moves; a real choice offers "
                 f"{choices['branching']:.1f} moves on average.</p>")
    parts.append(charts["length"])
    skill = report["skill"]
    parts.append("<h2>Luck and skill</h2>")
    for key, text in (("best_vs_weakest", "beats"), ("random_vs_best", "beats")):
        pairing = skill[key]
        if pairing:
            parts.append(f"<p>{escape(pairing['first'])} {text} {escape(pairing['second'])} "
                         f"in {_share(pairing)} of the games.</p>")
    parts.append(_table(["bot", "Elo", "95% interval"], [
        [escape(r["name"]), f"{r['elo']:.0f}", f"{r['low']:.0f} to {r['high']:.0f}"]
        for r in sorted(skill["ladder"], key=lambda r: -r["elo"])]))
    parts.append(charts["ladder"])
    drama = report["drama"]
    if drama:
        behind = drama["behind_at_half_wins"]
        parts.append("<h2>Drama</h2>")
        parts.append(f"<p>Over {drama['games']} games (leader by the {drama['estimate']} "
                     f"estimate): {drama['lead_changes']['mean']:.2f} lead changes a game; "
                     f"the winner takes the lead for good "
                     f"{_percent(drama['winner_settles'])} of the way into the game"
                     + (f"; the player behind at half-time wins {_share(behind)}"
                        if behind else "") + ".</p>")
        parts.append(charts["drama"])
    if "strategy" in charts:
        parts += ["<h2>Optimal strategy</h2>", charts["strategy"]]
    parts += [f"<p class=note>{escape(note)}</p>" for note in report.get("notes", [])]
    return "\n".join(parts)


def report_page(reports: Sequence[dict[str, Any]]) -> str:
    """The HTML page of one report, or of several side by side (option comparisons)."""
    title = " vs ".join(report["name"] for report in reports)
    columns = "".join(f"<div>{report_section(report)}</div>" for report in reports)
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{STYLE}</style><h1>Design report: {escape(title)}</h1>"
            f"<div class=columns>{columns}</div></html>\n")


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
