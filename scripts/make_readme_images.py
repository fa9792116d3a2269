"""Make the README's analysis pictures from the real program (docs/images/*.png).

A design report of the two-player game that has an ``optimal`` bot (the first registered:
Extra Meters; its seat chart and optimal strategy chart) and the evaluation graph of a
reviewed game between the optimal bot and a careless player, all seeded: running it again
gives the same figures.

    .venv/bin/python scripts/make_readme_images.py
"""

from __future__ import annotations

import random
from pathlib import Path

import dicegames
from dicegames.analysis.charts import encode, report_charts, review_chart
from dicegames.analysis.report import build_report
from dicegames.analysis.review import review
from dicegames.bots import bot_levels, make_bot
from dicegames.core.match import RandomDice, play
from dicegames.core.session import PlayerInfo, Session

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


def solved_game() -> str:
    """The id of the first registered game with an ``optimal`` bot (a solved game: its
    report has a strategy chart)."""
    for spec in dicegames.games():
        if any(level.name == "optimal" for level in bot_levels(dicegames.make(spec.id))):
            return spec.id
    raise SystemExit("no registered game has an optimal bot")


def reviewed_game() -> Session:
    """Ann (the medium bot, so she stops early) against Ben (optimal), seeded dice."""
    game = dicegames.make(solved_game(), players=2)
    session = Session(game, [PlayerInfo("Ann", "bot:medium"), PlayerInfo("Ben", "bot:optimal")],
                      seed=12)
    bots = [make_bot(game, "medium", random.Random(1)), make_bot(game, "optimal",
                                                                random.Random(2))]
    play(session, bots, RandomDice(random.Random(12)))
    return session


def main() -> None:
    """Write the pictures and say where."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    report = build_report(dicegames.make(solved_game(), players=2), games=2000, seed=1,
                          bots=["random", "easy", "medium", "hard", "optimal"]).to_json()
    charts = report_charts(report)
    for name in ("seats", "ladder", "strategy"):
        path = IMAGES / f"report-{name}.png"
        path.write_bytes(encode(charts[name], "png"))
        print(f"wrote {path}")
    path = IMAGES / "review-curve.png"
    path.write_bytes(encode(review_chart(review(reviewed_game()).to_json()), "png"))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
