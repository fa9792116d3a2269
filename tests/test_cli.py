"""The ``dicegames`` command line, run for real: as ``python -m dicegames`` and as the script.

Every test starts the real entry point in a subprocess and feeds it stdin, as a person or a
shell script would. Games are made deterministic by typing the dice in (``--dice manual``) or
by ``--seed``; saves go to a temporary folder (``XDG_DATA_HOME``/``HOME`` point there).
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dicegames
from dicegames.docs import rules_page

pytestmark = pytest.mark.process
"""These run the real command in processes of their own (left out by `make check`)."""

ANSI = re.compile(r"\x1b\[")


def script_path() -> str:
    """The installed ``dicegames`` console script of this environment."""
    beside = Path(sys.executable).parent / "dicegames"
    if beside.exists():
        return str(beside)
    found = shutil.which("dicegames")
    if found is None:
        pytest.skip("the dicegames script is not installed in this environment")
    return found


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """An environment whose user data folder is a temporary one, with UTF-8 output."""
    home = tmp_path / "home"
    home.mkdir()
    variables = dict(os.environ)
    # The compiled kernels stay in the machine's cache: a hint's or a simulation's rollouts
    # run in a game's kernel, which would otherwise compile afresh in every test.
    variables.setdefault("XDG_CACHE_HOME", str(Path.home() / ".cache"))
    variables.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), PYTHONUTF8="1",
                     COLUMNS="100", LANG="C.UTF-8")  # English, whatever the machine's
    variables.pop("NO_COLOR", None)
    return variables


def run(env: dict[str, str], *args: str, stdin: str = "",
        script: bool = False) -> subprocess.CompletedProcess[str]:
    """Run the command with ``args`` and ``stdin``; the script itself when ``script``."""
    command = [script_path()] if script else [sys.executable, "-m", "dicegames"]
    return subprocess.run([*command, *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def assert_one_line_error(done: subprocess.CompletedProcess[str], code: int,
                          fragment: str) -> None:
    """A user error: the exit code, one stderr line naming the problem, no traceback."""
    assert done.returncode == code, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("dicegames: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in done.stdout + done.stderr


def record_moves(path: Path) -> list[str]:
    """The ``moves`` of a saved record file."""
    moves = json.loads(path.read_text(encoding="utf-8"))["moves"]
    assert isinstance(moves, list)
    return [str(move) for move in moves]


# ------------------------------------------------------------------------- information


def test_version_and_help_show_examples_and_exit_codes(env: dict[str, str]) -> None:
    done = run(env, "--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"dicegames {dicegames.__version__}"
    for command in ([], ["play"], ["simulate"], ["replay"], ["rules"], ["list"]):
        helped = run(env, *command, "--help")
        assert helped.returncode == 0, helped.stderr
        assert "example" in helped.stdout
        assert "130" in helped.stdout  # the exit codes are documented everywhere
    assert "--resume FILE" in run(env, "play", "--help").stdout


def test_list_shows_every_registered_game_as_plain_text(env: dict[str, str]) -> None:
    done = run(env, "list", script=True)
    assert done.returncode == 0, done.stderr
    assert not ANSI.search(done.stdout)
    for spec in dicegames.games():
        assert spec.id in done.stdout
        assert spec.name in done.stdout
        assert f"{spec.min_players}-{spec.max_players}" in done.stdout


def test_rules_prints_the_rules_page_plain_when_piped(env: dict[str, str]) -> None:
    for name in ("extra-meters", "meters"):  # an id and an alias
        done = run(env, "rules", name)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == rules_page("extra-meters").strip()


# ------------------------------------------------------------------------------- play


def test_people_type_numbers_notation_and_physical_dice(env: dict[str, str],
                                                        tmp_path: Path) -> None:
    save = tmp_path / "scripted.json"
    answers = [
        "5",             # Ann's opening roll
        "xyz", "9", "1",  # a bad move, a number out of range, then 1 = roll
        "3", "stop",     # Ann stops at 8
        "6", "2",        # Ben's opening 6 must be rolled again; then a 2
        "s",             # the game's short form of stop
        "4", "2",        # Ann rolls 4, 2 = stop: 12 passes square 10
    ]
    done = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--dice", "manual",
               "--option", "track_length=10", "--save", str(save),
               stdin="\n".join(answers) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'xyz' is not a legal move here; legal: roll, stop" in out
    assert "9 is not one of the choices: type a number from 1 to 2" in out
    assert "a 6 on the first roll of a turn is rolled again" in out
    # Every prompt names the person asked, so people can share the keyboard.
    assert out.count("Ann › ") == 5 and out.count("Ben › ") == 1
    assert "Ann wins" in out
    # The re-rolled 6 changed nothing: it is not in the record.
    assert record_moves(save) == ["5", "roll", "3", "stop", "2", "stop", "4", "stop"]
    session = dicegames.load(save)
    assert session.state.result.winners == (0,)
    assert session.seed is None  # physical dice: no seed stands for them


def test_human_against_bot_to_the_end_then_replay(env: dict[str, str],
                                                  tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    done = run(env, "play", "extra-meters", "--players", "you,bot:medium", "--seed", "11",
               "--option", "track_length=10", "--save", str(save), stdin="stop\n" * 40)
    assert done.returncode == 0, done.stderr
    assert "Game over." in done.stdout
    assert f"Game saved to {save}" in done.stdout
    assert "Medium bot" in done.stdout and "You ›" in done.stdout

    session = dicegames.load(save)
    assert session.state.is_terminal
    assert [p.kind for p in session.players] == ["human", "bot:medium"]
    assert [p.name for p in session.players] == ["You", "Medium bot"]
    assert session.seed == 11
    stored = json.loads(save.read_text(encoding="utf-8"))
    assert stored["result"]["winners"] == list(session.state.result.winners)

    shown = run(env, "replay", str(save), "--step")  # piped stdin: --step does not wait
    assert shown.returncode == 0, shown.stderr
    numbered = re.findall(r"^\s*(\d+)\. ", shown.stdout, flags=re.MULTILINE)
    assert [int(n) for n in numbered] == list(range(1, len(session.moves) + 1))
    assert session.describe_result(session.state.result) in shown.stdout
    assert "not finished" not in shown.stdout

    again = run(env, "play", "--resume", str(save), stdin="stop\n")
    assert again.returncode == 0, again.stderr
    assert "This game is already over." in again.stdout


def test_the_same_seed_plays_the_same_game(env: dict[str, str], tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        done = run(env, "play", "extra-meters", "--players", "Ann,bot:easy", "--seed", "5",
                   "--save", str(path), stdin="roll\nstop\n" * 40)
        assert done.returncode == 0, done.stderr
    assert record_moves(first) == record_moves(second)


def test_end_of_input_saves_and_resume_finishes_the_same_game(env: dict[str, str],
                                                              tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    base = ["play", "extra-meters", "--players", "you,bot:medium", "--seed", "21"]
    done = run(env, *base, "--save", str(whole), stdin="stop\n" * 60)
    assert done.returncode == 0, done.stderr
    full = record_moves(whole)

    stopped = run(env, *base, "--save", str(part), stdin="stop\nstop\n")
    assert stopped.returncode == 0, stopped.stderr
    assert f"Game saved to {part}" in stopped.stdout
    assert f"dicegames play --resume {part}" in stopped.stdout
    partial = dicegames.load(part)
    assert not partial.state.is_terminal
    assert 0 < len(partial.moves) < len(full)
    assert record_moves(part) == full[:len(partial.moves)]
    shown = run(env, "replay", str(part))
    assert shown.returncode == 0, shown.stderr
    assert f"The game was not finished: continue it with dicegames play --resume {part}" \
        in shown.stdout

    resumed = run(env, "play", "--resume", str(part), stdin="stop\n" * 60)
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resuming after {len(partial.moves)} moves." in resumed.stdout
    # Saved back to the file it came from; the dice went on as if never interrupted.
    assert record_moves(part) == full
    assert dicegames.load(part).state.is_terminal


def test_resume_keeps_physical_dice_unless_told_otherwise(env: dict[str, str],
                                                          tmp_path: Path) -> None:
    """A game typed in from real dice resumes with real dice; --dice auto --seed switches it
    to the computer's dice (the record then says so)."""
    part = tmp_path / "race.json"
    base = ["--players", "Ann,Ben", "--save", str(part)]
    first = run(env, "play", "extra-meters", *base, "--dice", "manual",
                "--option", "track_length=10", stdin="5\n")
    assert first.returncode == 0, first.stderr
    stored = json.loads(part.read_text(encoding="utf-8"))
    assert (stored["dice"], stored["seed"], stored["moves"]) == ("manual", None, ["5"])

    again = run(env, "play", "--resume", str(part), stdin="roll\n3\nstop\n")
    assert again.returncode == 0, again.stderr
    assert "Dice: typed in from physical dice\n" in again.stdout
    assert "rolled by the computer" not in again.stdout
    assert "Resuming after 1 move." in again.stdout
    assert "Ann rolls: type what the dice show" in again.stdout
    stored = json.loads(part.read_text(encoding="utf-8"))
    assert (stored["dice"], stored["seed"]) == ("manual", None)
    assert stored["moves"] == ["5", "roll", "3", "stop"]

    switched = run(env, "play", "--resume", str(part), "--dice", "auto", "--seed", "4",
                   stdin="stop\n" * 40)
    assert switched.returncode == 0, switched.stderr
    assert ("Dice: rolled by the computer, seed 4 (the saved game had physical dice)"
            in switched.stdout)
    assert "Resuming after 4 moves." in switched.stdout
    assert "type what the dice show" not in switched.stdout
    stored = json.loads(part.read_text(encoding="utf-8"))
    assert (stored["dice"], stored["seed"]) == ("auto", 4)
    assert dicegames.load(part).state.is_terminal


def test_resume_keeps_the_computer_dice_and_its_seed(env: dict[str, str],
                                                     tmp_path: Path) -> None:
    part = tmp_path / "auto.json"
    first = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--seed", "8",
                "--save", str(part), stdin="stop\n")
    assert first.returncode == 0, first.stderr
    stored = json.loads(part.read_text(encoding="utf-8"))
    assert (stored["dice"], stored["seed"]) == ("auto", 8)
    again = run(env, "play", "--resume", str(part), stdin="")
    assert "Dice: rolled by the computer, seed 8\n" in again.stdout


def roll_lines(out: str) -> list[str]:
    """The event lines that report a roll ("  ⚄ Ann rolls 5")."""
    return [line for line in out.splitlines() if " rolls " in line and "›" not in line]


def test_a_roll_line_shows_the_faces_rolled_and_counts_agree(env: dict[str, str]) -> None:
    answers = ["1", "stop",                  # Ann: 1 = 1 square
               "5", "roll", "2", "stop"]     # Ben: 5, then 2: 7 with 2 dice
    done = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--dice", "manual",
               stdin="\n".join(answers) + "\n")
    assert done.returncode == 0, done.stderr
    assert roll_lines(done.stdout) == ["  ⚀ Ann rolls 1", "  ⚄ Ben rolls 5",
                                       "  → Ben rolls again", "  ⚁ Ben rolls 2: 7 with 2 dice"]
    assert "⚂" not in done.stdout  # no three was rolled
    assert "Ann stops and moves 1 = 1 square to square 1" in done.stdout
    assert "Ben stops and moves 5+2 = 7 squares to square 7" in done.stdout
    assert "Extra Meters · 2 players ·" in done.stdout

    # Monza's colour dice have no face to draw: the line has no die glyph.
    monza = run(env, "play", "monza", "--players", "Ann,Ben", "--dice", "manual",
                stdin="rywppp\n")
    assert roll_lines(monza.stdout) == [
        "  Ann rolls red, yellow, white, purple, purple, purple"]
    assert "1 steps" not in monza.stdout
    assert "type 1 or a move's notation" not in monza.stdout

    solo = run(env, "play", "extra", "--players", "Ann", "--dice", "manual", stdin="")
    assert "EXTRA! · 1 player ·" in solo.stdout


def test_leaving_without_save_writes_to_the_user_data_folder(env: dict[str, str]) -> None:
    done = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--seed", "2",
               stdin="quit\n")
    assert done.returncode == 0, done.stderr
    match = re.search(r"Game saved to (\S+\.json)", done.stdout)
    assert match is not None, done.stdout
    path = Path(match.group(1))
    assert path.is_relative_to(Path(env["XDG_DATA_HOME"]) / "dicegames" / "saves")
    assert len(dicegames.load(path).moves) == 1  # Ann's opening roll, then she quit


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def default_sigint() -> None:
    """In the child, before it runs: Ctrl-C's default action. A shell without job control
    starts background commands with SIGINT ignored, and the child would inherit that (then
    Python never raises KeyboardInterrupt), so a test run in the background would not test
    Ctrl-C at all."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_saves_and_exits_130(env: dict[str, str], tmp_path: Path) -> None:
    save = tmp_path / "interrupted.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "dicegames", "play", "extra-meters", "--players", "Ann,Ben",
         "--seed", "4", "--save", str(save)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        preexec_fn=default_sigint)  # noqa: PLW1509 (only signal(2) in the child)
    assert process.stdout is not None
    seen = b""
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + 60
    while b"Ann \xe2\x80\xba " not in seen:  # wait for Ann's prompt, however long it takes
        assert time.monotonic() < deadline, seen
        if selector.select(timeout=1):
            chunk = os.read(process.stdout.fileno(), 4096)
            assert chunk, seen
            seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert b"Interrupted. Game saved to" in seen + out
    assert len(dicegames.load(save).moves) == 1


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["play", "chess"], 2, "unknown game 'chess'; the games are: extra-meters"),
        (["rules", "chess"], 2, "unknown game 'chess'"),
        (["play", "extra-meters", "--option", "speed=3"], 2, "has no option 'speed'"),
        (["play", "extra-meters", "--option", "players=3"], 2, "has no option 'players'"),
        (["play", "extra-meters", "--option", "track_length"], 2, "not of the form name=value"),
        (["play", "extra-meters", "--option", "track_length=5"], 2,
         "track_length takes a whole number from 10 to 200"),
        (["play", "extra-meters", "--players", "you"], 2, "for 2 to 8 players, not 1"),
        (["play", "extra-meters", "--players", "you,,bot:easy"], 2, "has an empty entry"),
        (["play", "extra-meters", "--players", "Ann,ann"], 2, "two players are called"),
        (["play", "extra-meters", "--players", "you,bot:genius"], 2,
         "has no bot 'genius'; the bots are: easy, medium"),
        (["play", "extra-meters", "--players", "you,bot:"], 2, "names no bot level"),
        (["play", "extra-meters", "--seed", "x"], 2, "invalid int value: 'x'"),
        (["play"], 2, "name a game to play"),
        (["play", "extra-meters", "--save", "."], 2, "is a folder: name a file"),
        (["juggle"], 2, "invalid choice: 'juggle'"),
        (["simulate", "extra-meters", "--players", "you,bot:easy"], 2, "needs bots only"),
        (["simulate", "extra-meters", "--players", "bot:easy,bot:easy", "--games", "0"], 2,
         "at least 1"),
        (["replay", "no-such-file.json"], 1, "cannot read no-such-file.json"),
        (["play", "--resume", "no-such-file.json"], 1, "cannot read no-such-file.json"),
        (["play", "extra-meters", "--position", "48/46 3 decide 4 7"], 2,
         "--position: bad For a Few Extra Meters position, field to-move: seat 3 is out"),
        (["play", "extra-meters", "--position", "  "], 2, "--position: a position is one line"),
        (["play", "extra-meters", "--position", "1/2/3 1 opening - 1", "--players", "a,b"],
         2, "--players names 2 players but the position has 3 seats"),
        (["play", "--resume", "x.json", "--position", "0/0 1 opening - 1"], 2,
         "--position cannot be combined with --resume"),
        (["hint", "monza", "q1/start 1 roll - - 0/0 - 1"], 2, "'q1' is not a square"),
        (["hint", "extra-meters", "garbage"], 2,
         "a position of For a Few Extra Meters has 5 fields (runners to-move phase dice "
         "turn), separated by spaces; this one has 1"),
        (["hint", "extra-meters", "52/38 1 over - 7"], 2, "no hint here: the game is over"),
        (["hint", "extra", "-;-,-,-/-;-,-,- 1 12235 ?/? 1", "--seat", "3"], 2,
         "seat 3 does not decide here (deciding: 1, 2)"),
        (["hint", "extra-meters", "48/46 1 decide 4 7", "--rollouts", "0"], 2,
         "--rollouts takes a whole number from 1"),
        (["hint", "extra-meters", "1/2/3/4/5/6/7/8/9 1 opening - 1"], 2,
         "the position has 9 seats in its first field; extra-meters is for 2 to 8"),
    ],
)
def test_user_errors_are_one_line_without_traceback(
        env: dict[str, str], args: list[str], code: int, fragment: str) -> None:
    assert_one_line_error(run(env, *args), code, fragment)


def test_corrupt_records_are_refused_with_the_record_error(env: dict[str, str],
                                                           tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{ not json", encoding="utf-8")
    assert_one_line_error(run(env, "replay", str(garbage)), 1, "is not valid JSON")

    good = tmp_path / "good.json"
    done = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--dice", "manual",
               "--save", str(good), stdin="3\nroll\n")
    assert done.returncode == 0, done.stderr
    data = json.loads(good.read_text(encoding="utf-8"))
    assert data["moves"] == ["3", "roll"]
    data["moves"].append("9")  # a die never shows 9
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    for args in (["replay", str(tampered)], ["play", "--resume", str(tampered)]):
        assert_one_line_error(run(env, *args), 1, "bad game record: move 2: '9' is not")

    assert_one_line_error(run(env, "play", "--resume", str(good), "--players", "a,b"), 2,
                          "--players cannot be combined with --resume")


def test_a_record_with_an_option_named_players_is_refused(env: dict[str, str],
                                                          tmp_path: Path) -> None:
    record = {"format": "dicegames-record", "version": 1, "game": "extra-meters",
              "options": {"players": 3}, "players": [{"name": "A"}, {"name": "B"}],
              "seed": 1, "moves": [], "result": None}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(run(env, "replay", str(path)), 1, "no option 'players'")


# ---------------------------------------------------------------------------- simulate


def test_simulate_prints_a_table(env: dict[str, str]) -> None:
    done = run(env, "simulate", "extra-meters", "--players", "bot:easy,bot:medium",
               "--games", "60", "--seed", "3", "--rotate", "--option", "track_length=10")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar off a terminal
    for text in ("bot:easy", "bot:medium", "win share", "95% interval", "60 games",
                 "seed 3", "rotated", "Game length: mean", "games/s"):
        assert text in done.stdout
    assert len(re.findall(r"\d+\.\d% to \d+\.\d%", done.stdout)) == 2


def test_simulate_json_is_one_document(env: dict[str, str]) -> None:
    done = run(env, "simulate", "extra-meters", "--players", "bot:random,bot:medium",
               "--games", "40", "--seed", "9", "--option", "track_length=10", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["game"] == "extra-meters"
    assert report["games"] == 40 and report["seed"] == 9
    assert report["options"]["track_length"] == 10
    assert report["players"] == ["bot:random", "bot:medium"]
    players = report["per_player"]
    assert [p["label"] for p in players] == ["bot:random", "bot:medium"]
    assert sum(p["wins"] for p in players) + report["no_winner"] == 40
    # Counts are whole numbers in the JSON text (no shared wins here), shares are floats.
    assert all(isinstance(p["wins"], int) for p in players)
    assert re.search(r'"wins": \d+,', done.stdout) and '.0,' not in done.stdout.split(
        '"wins"')[1].split(",")[0]
    assert isinstance(report["no_winner"], int)
    assert all(isinstance(p["win_share"], float) for p in players)
    median = report["median_turns"]
    assert isinstance(median, int) or median % 1 == 0.5
    # Every field is documented in --help (and the README says the same).
    documented = " ".join(run(env, "simulate", "--help").stdout.split())
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    for key in [*report, *players[0]]:
        assert key in documented and f"`{key}`" in readme, key
    for p in players:
        assert 0 <= p["ci_low"] <= p["win_share"] <= p["ci_high"] <= 1
    assert report["mean_turns"] > 0


# ---------------------------------------------------------------------------- launcher


def test_launcher_sets_up_and_plays_a_bot_game(env: dict[str, str]) -> None:
    answers = [
        "7", "extra-meters",     # not on the list, then the id
        "9", "",                 # 9 players is too many; Enter keeps 2
        "easy", "bot:medium",    # two bots
        "5", "10",               # track_length 5 is refused, 10 kept
        "",                      # finish: the default
        "x", "1",                # dice: a wrong answer, then the computer
    ]
    done = run(env, stdin="\n".join(answers) + "\n", script=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "is not on the list" in out
    assert "type a number from 2 to 8" in out
    assert "track_length takes a whole number from 10 to 200" in out
    assert "type 1 for dice rolled by the computer" in out
    assert "medium: a fair opponent" in out  # the listed levels, in plain words
    assert "Players, in turn order: Easy bot (bot:easy), Medium bot (bot:medium)" in out
    assert "track_length=10" in out
    assert "Game over." in out


def test_launcher_speaks_the_language_of_lang(env: dict[str, str]) -> None:
    """The menu, its refusals and the game it starts follow ``LANG`` (issue 14)."""
    answers = ["7", "extra-meters", "9", "", "easy", "bot:medium", "5", "10", "", "x", "1"]
    done = run({**env, "LANG": "it_IT.UTF-8"}, stdin="\n".join(answers) + "\n", script=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "giochi di dadi per la famiglia" in out and "7 non è nell'elenco" in out
    assert "è per 2-8 giocatori: scrivi un numero da 2 a 8" in out
    assert "'5' non è permesso qui: un numero intero da 10 a 200" in out
    assert "scrivi 1 se i dadi li tira il computer" in out
    assert "Opzioni (Invio tiene il valore predefinito):" in out
    assert "Partita finita." in out
    for english in ("not on the list", "type a number", "Options", "Game over"):
        assert english not in out


def test_launcher_offers_the_listed_bots_in_plain_words(env: dict[str, str]) -> None:
    """Petits Chevaux has nine bots; the menu shows the six listed ones, and an unlisted
    one (random) is still seated by name."""
    done = run(env, stdin="petits-chevaux\n2\nrandom\neasy\n", script=True)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    listing = out.split("Computer players")[1].split("Player 1")[0]
    shown = re.findall(r"^  (\S+): ", listing, flags=re.MULTILINE)
    assert shown == ["easy", "medium", "hard", "expert", "trained", "search"]
    for jargon in ("search-expert-60", "search-60", "mcts", "random", "network",
                   "continuations", "Monte Carlo"):
        assert jargon not in listing
    assert "How each one plays: dicegames rules petits-chevaux." in listing
    assert "there is no bot" not in out
    assert "Player 2: a person's name or a bot level" in out  # random was accepted
    # The menu went on to the options, named in words (issue 14, defect 5).
    assert "Three sixes lose the turn" in out and "three_sixes_penalty" not in out


def test_launcher_leaves_quietly_at_end_of_input(env: dict[str, str]) -> None:
    done = run(env, stdin="1\n")
    assert done.returncode == 0, done.stderr
    assert "Bye." in done.stdout
    assert done.stderr == ""


def test_hint_suggests_the_strongest_bot_move_without_changing_the_game(
        env: dict[str, str], tmp_path: Path) -> None:
    """Ann at 0 with 5+4+2 on a 10-square track: stopping wins, and the hard bot says so."""
    save = tmp_path / "hinted.json"
    answers = ["5", "roll", "4", "roll", "2", "hint", "stop"]
    done = run(env, "play", "extra-meters", "--players", "Ann,Ben", "--dice", "manual",
               "--option", "track_length=10", "--save", str(save),
               stdin="\n".join(answers) + "\n")
    assert done.returncode == 0, done.stderr
    assert "Hint: the hard bot would play stop" in done.stdout
    assert "Ann wins" in done.stdout
    assert record_moves(save) == ["5", "roll", "4", "roll", "2", "stop"]


def test_hint_asks_the_learned_bot_where_a_game_has_one(env: dict[str, str],
                                                        tmp_path: Path) -> None:
    save = tmp_path / "hinted.json"
    done = run(env, "play", "petits-chevaux", "--players", "Ann,Ben", "--dice", "manual",
               "--save", str(save), stdin="red\n6\nhint\nout\n")
    assert "Hint: the expert bot would play out" in done.stdout, done.stdout[-2000:]
    assert record_moves(save) == ["red", "6", "out"]


# ------------------------------------------------------------------------- positions


def test_play_from_a_position_to_the_end_and_the_record_keeps_it(
        env: dict[str, str], tmp_path: Path) -> None:
    save = tmp_path / "from-position.json"
    done = run(env, "play", "extra-meters", "--position", "48/46 1 decide 4 7",
               "--players", "Ann,bot:medium", "--seed", "1", "--save", str(save),
               stdin="stop\n")
    assert done.returncode == 0, done.stderr
    assert "Ann wins: past square 50 in round 4" in done.stdout
    record = json.loads(save.read_text(encoding="utf-8"))
    assert (record["version"], record["position"], record["moves"]) == (
        2, "48/46 1 decide 4 7", ["stop"])
    replayed = run(env, "replay", str(save))
    assert replayed.returncode == 0 and "Ann wins" in replayed.stdout


def test_play_from_a_position_seats_you_against_bots_by_default(env: dict[str, str]) -> None:
    done = run(env, "play", "petits-chevaux", "--position",
               "s4,s5,s6,0/0,0,0,0/30,0,0,0 2 move 6 1 14", "--seed", "3", stdin="")
    assert done.returncode == 0, done.stderr
    assert "Medium bot" in done.stdout and "You" in done.stdout
    assert "Game saved to" in done.stdout  # end of input at a person's turn: saved


def test_hint_gives_exact_chances_where_the_game_is_solved(env: dict[str, str]) -> None:
    done = run(env, "hint", "extra-meters", "48/46 1 decide 4 7")
    assert done.returncode == 0, done.stderr
    assert "The hard bot plays stop" in done.stdout
    assert "exact: the solved game" in done.stdout
    lines = [line.split() for line in done.stdout.splitlines() if line.startswith("  ")]
    assert ["stop", "100.0%", "◀", "the", "bot's", "choice"] in lines
    assert ["roll", "86.2%"] in lines


def test_hint_where_the_dice_roll_next_gives_the_chance_before_the_roll(
        env: dict[str, str]) -> None:
    done = run(env, "hint", "extra-meters", "48/46 1 opening - 7")
    assert done.returncode == 0, done.stderr
    assert "The dice roll next for Seat 1." in done.stdout
    assert "Seat 1's chance to win before the roll: 94.5% (exact: the solved game)" in \
        done.stdout
    lines = [line.split() for line in done.stdout.splitlines() if line.startswith("  ")]
    assert ["1", "20.0%", "86.2%"] in lines and ["5", "20.0%", "100.0%"] in lines
    done = run(env, "hint", "monza", "start/start 1 roll - - 0/0 - 1", "--rollouts", "4",
               "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["move"] is None and answer["seat"] == 1
    assert 0 <= answer["low"] <= answer["win_chance"] <= answer["high"] <= 1


def test_hint_json_estimates_every_choice_by_rollouts(env: dict[str, str]) -> None:
    position = "0,0,12,s3/30,0,0,0 2 move 6 1 14"
    done = run(env, "hint", "petits-chevaux", position, "--rollouts", "8", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["seat"], answer["position"], answer["exact"]) == (2, position, False)
    assert answer["bot"] == "expert" and answer["move"] in ("out", "y1")
    assert sorted(c["move"] for c in answer["choices"]) == ["out", "y1"]
    for choice in answer["choices"]:
        assert choice["rollouts"] == 8
        assert 0 <= choice["low"] <= choice["win_chance"] <= choice["high"] <= 1
    again = run(env, "hint", "petits-chevaux", position, "--rollouts", "8", "--json")
    assert json.loads(again.stdout) == answer, "the same seed gives the same answer"


def test_hint_screens_many_choices_and_names_the_seat(env: dict[str, str]) -> None:
    done = run(env, "hint", "extra", "-;-,-,-/-;-,-,- 1 12235 ?/? 1", "--seat", "2",
               "--rollouts", "5")
    assert done.returncode == 0, done.stderr
    assert "Seat 2 decides" in done.stdout
    assert "other choices scored lower in a first screening of 1 rollouts each" in done.stdout


def test_hint_explains_in_the_language_asked(env: dict[str, str]) -> None:
    done = run(env, "hint", "extra-meters", "0/0 1 decide 1 1", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "Place 1 décide. Le bot hard joue roll." in done.stdout
    assert "Comment il décide : joue parfaitement" in done.stdout
    assert "(exact : le jeu résolu)" in done.stdout and "le choix du bot" in done.stdout
    for english in ("decides", "How it decides", "the bot's choice", "exact: the solved"):
        assert english not in done.stdout


def test_play_speaks_the_language_asked_or_the_one_of_lang(env: dict[str, str],
                                                           tmp_path: Path) -> None:
    """``dicegames play --lang fr``: prompts, move sentences, the log and the end in French,
    the moves still typed in notation; ``replay --lang it`` shows the saved game in Italian;
    without ``--lang``, ``LANG`` decides (issue 14)."""
    save = tmp_path / "partie.json"
    done = run(env, "play", "extra-meters", "--lang", "fr", "--players", "you,bot:medium",
               "--seed", "11", "--option", "track_length=10", "--save", str(save),
               stdin="fly\n" + "stop\n" * 40)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'fly' n'est pas un coup possible ici ; les coups : roll, stop" in out
    assert "Vous, à vous de choisir" in out and "Vous ›" in out
    assert "Vous vous arrêtez et avancez" in out and "Vous lancez" in out
    assert "Partie terminée." in out and f"Partie enregistrée dans {save}" in out
    assert "Joueurs, dans l'ordre du jeu" in out
    for english in ("You roll", "your choice", "Game over", "Game saved", "legal"):
        assert english not in out
    assert [p.name for p in dicegames.load(save).players] == ["Vous", "Bot moyen"]
    shown = run(env, "replay", str(save), "--lang", "it")
    assert shown.returncode == 0, shown.stderr
    assert "replay di" in shown.stdout and "Partita finita." in shown.stdout
    assert "Ti fermi e avanzi di" in shown.stdout  # "Vous" is the player at the keyboard
    german = run({**env, "LANG": "de_DE.UTF-8"}, "play", "extra-meters", "--players",
                 "you,bot:medium", "--seed", "11", "--option", "track_length=10",
                 stdin="stop\n" * 40)
    assert german.returncode == 0, german.stderr
    assert "Du hörst auf und ziehst" in german.stdout and "Spiel vorbei." in german.stdout
    assert "Du, deine Wahl" in german.stdout
    wrong = run(env, "play", "extra-meters", "--lang", "xx")
    assert wrong.returncode == 2 and "--lang" in wrong.stderr and "fr" in wrong.stderr
