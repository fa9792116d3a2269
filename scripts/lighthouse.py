"""Lighthouse scores of the web app: the home page and a game page, phone profile.

    python scripts/lighthouse.py            # one run of each page, the scores as a table
    python scripts/lighthouse.py --runs 3   # medians of 3 interleaved runs
    python scripts/lighthouse.py --check    # exit 1 below the aims (Performance >= 90,
                                            # the three others 100)

Starts ``dicegames serve`` on a free loopback port over a temporary database, creates one
match (a person against the medium bot, Extra Meters' first listed game: the registry's
first game) and runs Lighthouse from npm (``npx --yes lighthouse@12``; ``--lighthouse CMD``
runs another) in the installed Chromium (``CHROME_PATH``, default ``/usr/bin/chromium``),
headless, with Lighthouse's default phone profile (emulated mid-range phone, simulated slow
4G and a 4x slower processor). The reports (JSON) are kept in ``--out`` (default
``test-output/lighthouse``); a failed audit is listed under its page. Only loopback is
used: Lighthouse's own network checks are left to the page's requests.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from dicegames.core.registry import games
from dicegames.web.server import spawn

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
AIMS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
"""The issue's aims, in percent."""
ROOT = Path(__file__).resolve().parents[1]


def post(url: str, body: object) -> dict[str, object]:
    """POST JSON to the local server; returns its JSON answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, object] = json.loads(answer.read())
        return result


def game_page(base: str) -> str:
    """A new match's page for its person's seat: a person against the medium bot."""
    game = games()[0].id
    match = post(f"{base}/api/matches", {"game": game, "players": [
        {"name": "Ann", "kind": "human"}, {"name": "Computer", "kind": "bot:medium"}]})
    seats = match["seats"]
    assert isinstance(seats, list)
    return f"{base}{seats[0]['link']}"


def run_lighthouse(command: list[str], url: str, report: Path) -> dict[str, int]:
    """One Lighthouse run of ``url``: its category scores in percent (report in
    ``report``)."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run([*command, url, "--quiet", "--output=json", f"--output-path={report}",
                    f"--only-categories={','.join(CATEGORIES)}",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                   check=True, env=env)
    data = json.loads(report.read_text(encoding="utf-8"))
    return {name: round(100 * (data["categories"][name]["score"] or 0)) for name in CATEGORIES}


def failed_audits(report: Path) -> list[str]:
    """The audits below full marks that count towards a category, as ``id: title``."""
    data = json.loads(report.read_text(encoding="utf-8"))
    counted = {ref["id"] for name in CATEGORIES
               for ref in data["categories"][name]["auditRefs"] if ref["weight"] > 0}
    return [f"{key}: {audit['title']} ({audit.get('displayValue', '')})"
            for key, audit in data["audits"].items()
            if key in counted and audit["score"] is not None and audit["score"] < 1]


def main(argv: list[str] | None = None) -> int:
    """Run Lighthouse on both pages ``--runs`` times, interleaved; print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 below the aims")
    parser.add_argument("--lighthouse", default="npx --yes lighthouse@12",
                        help="the Lighthouse command (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "test-output/lighthouse")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    command = shlex.split(args.lighthouse)
    with tempfile.TemporaryDirectory() as folder:
        process, base = spawn(Path(folder) / "games.sqlite3", 0.7)
        try:
            pages = {"home": f"{base}/", "game": game_page(base)}
            scores: dict[str, list[dict[str, int]]] = {name: [] for name in pages}
            for run in range(args.runs):
                for name, url in pages.items():
                    report = args.out / f"{name}-{run}.json"
                    scores[name].append(run_lighthouse(command, url, report))
        finally:
            process.terminate()
            process.wait(10)
    below = False
    print(f"{'page':<6}" + "".join(f"{name:>16}" for name in CATEGORIES))
    for name, runs in scores.items():
        medians = {c: statistics.median(run[c] for run in runs) for c in CATEGORIES}
        print(f"{name:<6}" + "".join(f"{medians[c]:>16g}" for c in CATEGORIES))
        below |= any(medians[c] < AIMS[c] for c in CATEGORIES)
        for audit in failed_audits(args.out / f"{name}-{args.runs - 1}.json"):
            print(f"    {audit}")
    return 1 if args.check and below else 0


if __name__ == "__main__":
    sys.exit(main())
