"""The strength tables (issue 27): measured figures, the rules pages' generated block in
every language, and the level descriptions of the launcher and the web that say in words
how strong each level is."""

from __future__ import annotations

import copy
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from dicegames import strength
from dicegames.analysis.strength import exact_figures, listed_levels, measure, stale
from dicegames.bots import bot_levels
from dicegames.core.registry import definitions, make
from dicegames.docs import rules_page
from dicegames.games.extra_meters.solver import solve
from dicegames.i18n import LANGUAGES, PACKAGE, use
from dicegames.terminal.launcher import plain_levels
from dicegames.web.language import bot_json

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(found.id for found in definitions()
                 if found.path.is_relative_to(PACKAGE) and found.spec.max_players >= 2)
"""The games dicegames ships that are played by two or more: each has a strength table."""

WORDS = re.compile(r"wins about (1 game|\d+ games) in \d+ against (\w+|\d+ \w+ players)$")

SAMPLE: dict[str, Any] = {
    "format": strength.FORMAT, "version": strength.VERSION, "game": "g", "options": {},
    "games": 1000, "engine_games": 0, "seed": 1, "date": "2026-11-26",
    "listed": ["easy", "medium", "hard", "slow"], "exact_value": 0.55,
    "levels": [
        {"name": "random", "same_as": ["easy"], "rating": {"elo": 0.0, "low": 0.0, "high": 0.0},
         "versus": [{"players": 2, "opponent": "medium", "games": 1000, "share": 0.25,
                     "low": 0.22, "high": 0.28},
                    {"players": 4, "opponent": "medium", "games": 1000, "share": 0.1,
                     "low": 0.08, "high": 0.12}],
         "exact": {"first": 0.2, "second": 0.1}},
        {"name": "medium", "same_as": [], "rating": {"elo": 190.0, "low": 170.0, "high": 210.0},
         "versus": [{"players": 2, "opponent": "easy", "games": 1000, "share": 0.75,
                     "low": 0.72, "high": 0.78}],
         "exact": None},
        {"name": "slow", "same_as": [], "rating": None, "versus": [], "exact": None,
         "unrated": "no-kernel"},
    ],
}


def rows(block: str) -> list[list[str]]:
    """The table rows of a generated block (header first, the separator left out)."""
    found = [line for line in block.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in found
            if not line.startswith("|---")]


# ------------------------------------------------------------------ words and the table


@pytest.mark.parametrize(("share", "expected"), [
    (0.34, (1, 3)), (0.5, (1, 2)), (0.66, (2, 3)), (0.74, (3, 4)), (0.9, (9, 10)),
    (0.048, (1, 20)), (0.97, (97, 100)), (0.002, (1, 500)), (1.0, (999, 1000)),
    (0.0, (1, 1000)),
])
def test_a_share_reads_as_a_few_games_in_a_few(share: float, expected: tuple[int, int]) -> None:
    assert strength.fraction(share) == expected


def test_the_block_has_a_row_per_level_and_says_how_it_was_measured() -> None:
    block = strength.table_markdown(SAMPLE)
    assert block.startswith(strength.BEGIN) and block.endswith(strength.END)
    assert strength.block_of(f"before\n\n{block}\n\nafter") == block
    table = rows(block)
    assert table[0] == ["level", "rating (Elo, 95% interval)", "against `medium`, 2 players",
                        "against `medium`, 4 players", "against optimal play (exact)"]
    assert table[1] == ["`random` = `easy`", "0", "25.0% [22.0, 28.0]", "10.0% [8.0, 12.0]",
                        "15.0%"]
    assert table[2] == ["`medium`", "190 [170, 210]", "75.0% [72.0, 78.0] (against `easy`)",
                        "—", "—"]
    assert table[3] == ["`slow`", "—", "—", "—", "—"]
    assert "1,000 games a pairing" in block and "the first player wins 55.0%" in block
    assert "Not rated: `slow` (no kernel policy yet" in block


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_block_is_translated(lang: str) -> None:
    english = strength.table_markdown(SAMPLE)
    with use(lang):
        block = strength.table_markdown(SAMPLE)
    assert strength.block_of(block) == block
    assert len(rows(block)) == len(rows(english))
    heading = [line for line in block.splitlines() if line.startswith("## ")]
    assert heading and heading != [line for line in english.splitlines()
                                   if line.startswith("## ")]
    assert "Not rated" not in block and "Ratings are" not in block


def test_stale_figures_are_named() -> None:
    game = "extra-meters"
    data = copy.deepcopy(strength.load(game))
    assert stale(data, game) is None
    assert data is not None
    data["listed"] = data["listed"][:-1]
    assert "listed levels are now" in (stale(data, game) or "")
    data = copy.deepcopy(strength.load(game))
    assert data is not None
    data["options"] = {**data["options"], "track_length": 7}
    assert "default options changed" in (stale(data, game) or "")
    assert stale(None, game) is not None
    data = copy.deepcopy(strength.load(game))
    assert data is not None
    medium = next(entry for entry in data["levels"] if entry["name"] == "medium")
    medium.update(rating=None, versus=[], unrated="no-kernel")  # as before its kernel policy
    assert "the kernel now plays medium" in (stale(data, game) or "")


# ------------------------------------------------------------- every shipped game's page


@pytest.mark.parametrize("game", SHIPPED)
def test_every_rules_page_carries_the_table_of_its_figures(game: str) -> None:
    data = strength.load(game)
    assert data is not None, f"{game}: no {strength.FILE} (run scripts/strength_tables.py)"
    measured = {name for entry in data["levels"] for name in (entry["name"],
                                                                *entry["same_as"])}
    assert set(data["listed"]) <= measured
    for lang in LANGUAGES:
        page = rules_page(game, lang)
        block = strength.block_of(page)
        assert block is not None, (game, lang)
        with use(lang):
            assert block == strength.table_markdown(data), (game, lang)
        table = rows(block)
        assert len(table) == 1 + len(data["levels"])
        assert all(len(row) == len(table[0]) for row in table)
    docs = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    assert strength.block_of(docs) == strength.block_of(rules_page(game))


@pytest.mark.parametrize("game", SHIPPED)
def test_every_kernel_level_is_rated_against_random(game: str) -> None:
    data = strength.load(game)
    assert data is not None
    first = data["levels"][0]
    assert first["name"] == "random" and first["rating"]["elo"] == 0.0
    for entry in data["levels"]:
        if entry["rating"] is None:
            assert entry["unrated"] in strength.REASONS
            continue
        assert entry["rating"]["low"] <= entry["rating"]["elo"] <= entry["rating"]["high"]
        for versus in entry["versus"]:
            assert versus["low"] <= versus["share"] <= versus["high"]


def test_the_script_checks_the_figures_and_pages() -> None:
    spec = importlib.util.spec_from_file_location("strength_tables",
                                                  ROOT / "scripts" / "strength_tables.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("strength_tables", script)
    spec.loader.exec_module(script)
    assert script.shipped() == [g for g in script.shipped() if g in SHIPPED]
    assert script.problems("extra-meters") == []


# -------------------------------------------------------------------------- measuring


def test_a_small_round_robin_rates_the_levels_and_adds_the_exact_figures() -> None:
    data = measure("extra-meters", 120, 5, options={"track_length": 10})
    names = [entry["name"] for entry in data["levels"]]
    assert names[0] == "random" and data["levels"][0]["same_as"] == ["easy"]
    hard = strength.level_entry(data, "optimal")
    assert hard is not None and hard["name"] == "hard"  # one bot, two names
    assert [v["players"] for v in hard["versus"]][:1] == [2]
    assert data["listed"] == listed_levels(make("extra-meters", track_length=10))
    value = solve(10).win_probability(0, 0, 0)  # the solver's own first-player chance
    assert data["exact_value"] == pytest.approx(value, abs=1e-12)
    assert hard["exact"]["first"] == pytest.approx(data["exact_value"], abs=1e-12)
    assert (hard["exact"]["first"] + hard["exact"]["second"]) / 2 == pytest.approx(0.5)
    medium = strength.level_entry(data, "medium")
    assert medium is not None and medium["versus"][0]["opponent"] == "easy"
    assert data == measure("extra-meters", 120, 5, options={"track_length": 10}) | {
        "date": data["date"]}


def test_the_exact_part_ranks_the_levels() -> None:
    found = exact_figures(make("extra-meters", track_length=12))
    assert found is not None
    mean = {name: (c["first"] + c["second"]) / 2 for name, c in found["levels"].items()}
    assert mean["optimal"] == pytest.approx(0.5, abs=1e-12)
    assert mean["easy"] < mean["medium"] <= mean["optimal"] + 1e-12
    assert exact_figures(make("extra-meters", track_length=12, finish="same_round")) is None


# ------------------------------------------------------------------- level descriptions


def test_the_launcher_says_how_strong_each_level_is() -> None:
    game = make("extra-meters")
    described = dict(plain_levels(bot_levels(game), game))
    for level in ("easy", "medium", "hard"):
        words = described[level].split("; ")[-1]
        assert WORDS.match(words), described[level]
    assert described["medium"].endswith("against easy")
    assert "players" not in described["hard"]
    four = dict(plain_levels(bot_levels(make("extra-meters", players=4)),
                             make("extra-meters", players=4)))
    assert four["easy"].endswith("against 3 medium players")


def test_the_web_sends_the_words_by_player_count_in_each_language() -> None:
    game = make("extra-meters")
    bots = {bot["name"]: bot for bot in bot_json(bot_levels(game), "fr", "extra-meters")}
    assert set(bots["easy"]["strength"]) == {"2", "3", "4"}
    assert bots["easy"]["strength"]["4"].startswith("gagne environ")
    assert "niveau moyen" in bots["easy"]["strength"]["2"]
    assert bots["random"]["strength"] == {}  # not listed: not offered
    assert bot_json(bot_levels(game), "fr")[0]["strength"] == {}
    with use("ja"):
        words = strength.plain_strength("extra-meters", "medium", 2)
    assert words is not None and "やさしい" in words


def test_a_solo_game_says_the_mean_score_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    data = copy.deepcopy(SAMPLE)
    data["levels"][1]["alone"] = {"games": 1000, "mean": 84.6}
    monkeypatch.setattr(strength, "load", lambda game_id: data)
    assert strength.plain_strength("g", "medium", 1) == (
        "scores 85 on average when playing alone")
    assert strength.plain_strength("g", "easy", 1) is None  # not measured alone
    assert strength.plain_strength("g", "medium", 2) == "wins about 3 games in 4 against easy"
    table = rows(strength.table_markdown(data))
    assert table[0][-2:] == ["alone: mean score", "against optimal play (exact)"]
    assert [row[-2] for row in table[1:]] == ["—", "84.6", "—"]
    with use("de"):
        assert strength.plain_strength("g", "medium", 1) == (
            "erzielt allein im Schnitt 85 Punkte")


@pytest.mark.parametrize("game", SHIPPED)
def test_the_exact_figures_give_optimal_the_game_value(game: str) -> None:
    data = strength.load(game)
    assert data is not None
    if data["exact_value"] is None:
        return
    best = strength.level_entry(data, "optimal")
    assert best is not None and best["exact"] is not None
    assert best["exact"]["first"] == pytest.approx(data["exact_value"], abs=1e-9)
    assert (best["exact"]["first"] + best["exact"]["second"]) / 2 == pytest.approx(0.5)
    for entry in data["levels"]:
        if entry["exact"] is not None:  # nobody beats optimal play on average
            assert (entry["exact"]["first"] + entry["exact"]["second"]) / 2 <= 0.5 + 1e-9
