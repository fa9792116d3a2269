"""Personal best scores of solo games, kept in a small JSON file in the user's data folder.

Any game played by one person (a solo variant such as EXTRA!'s "beat your record") can keep a
best score: :func:`record_score` stores the score of a finished game under the game's id and
its option values (a record with other options is another record), and returns the best so
far. The file is ``scores.json`` in ``platformdirs.user_data_dir("dicegames")``.

The file is written to a temporary file that then replaces it, so an interrupted write never
destroys it (:func:`dicegames.core.files.write_text`: a symbolic link is followed, a folder
in its place is refused). A file that cannot be read as scores is never overwritten: it is
set aside as ``scores.json.corrupt`` (numbered if that exists) and a fresh file is started,
and the caller gets a message saying so. A device or FIFO in its place (a link to
``/dev/null``, to keep no scores) is neither read nor set aside: the scores are written to it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from dicegames.core.files import check_target, write_text
from dicegames.core.options import OptionValue

FORMAT = "dicegames-scores"
VERSION = 1


def scores_path() -> Path:
    """Where the best scores are kept (the user's dicegames data folder)."""
    return Path(platformdirs.user_data_dir("dicegames")) / "scores.json"


def score_key(game_id: str, options: Mapping[str, OptionValue]) -> str:
    """The key of one record: the game id and its options, e.g. ``extra children=False``."""
    settings = " ".join(f"{name}={value}" for name, value in sorted(options.items()))
    return f"{game_id} {settings}".strip()


@dataclass(frozen=True, slots=True)
class BestScore:
    """The outcome of recording a score.

    Attributes:
        score: the score just recorded.
        best: the best score for this game and options, the new one included.
        previous: the best before this game (None for the first game recorded).
        games: solo games recorded for this game and options.
        warning: a problem met on the way (a corrupt file set aside, a file that could not
            be written), for people; None when all went well.
    """

    score: float
    best: float
    previous: float | None
    games: int
    warning: str | None = None

    @property
    def is_new_best(self) -> bool:
        """True when this score beats every earlier one (or is the first)."""
        return self.previous is None or self.score > self.previous


def _set_aside(path: Path) -> Path:
    """Rename an unreadable file out of the way (never deleting it) and return its new name."""
    target = path.with_name(path.name + ".corrupt")
    number = 2
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt{number}")
        number += 1
    path.rename(target)
    return target


def load_scores(path: Path | None = None) -> tuple[dict[str, dict[str, float]], str | None]:
    """The stored records by key, and a warning when the file had to be set aside."""
    path = path or scores_path()
    if not path.exists():
        return {}, None
    try:
        if check_target(path) == "stream":  # e.g. a link to /dev/null: scores kept nowhere
            return {}, None
    except OSError:
        pass  # a folder: set aside below, like any file that is not scores
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a dicegames scores file")
        records = data["records"]
        if not isinstance(records, dict):
            raise ValueError("records is not a mapping")
        clean = {}
        for key, entry in records.items():
            best, games = entry["best"], entry["games"]
            if not isinstance(best, int | float) or not isinstance(games, int):
                raise ValueError(f"bad record {key!r}")
            clean[str(key)] = {"best": best, "games": games}
        return clean, None
    except (OSError, ValueError, KeyError, TypeError) as error:
        try:
            moved = _set_aside(path)
        except OSError:
            return {}, f"the best-scores file {path} cannot be read ({error}); it is left as is"
        return {}, (f"the best-scores file {path} could not be read ({error}); it was kept "
                    f"as {moved.name} and a new one is started")


def _write(path: Path, records: Mapping[str, Mapping[str, float]]) -> None:
    """Write the records atomically (see :func:`dicegames.core.files.write_text`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": FORMAT, "version": VERSION, "records": records},
                      indent=2, sort_keys=True)
    write_text(path, text + "\n")


def record_score(game_id: str, options: Mapping[str, OptionValue], score: float,
                 path: Path | None = None) -> BestScore:
    """Store ``score`` of a finished solo game and return the best for its game and options.

    Never raises for file problems: they come back as :attr:`BestScore.warning`.
    """
    path = path or scores_path()
    records, warning = load_scores(path)
    key = score_key(game_id, options)
    entry = records.get(key)
    previous = None if entry is None else entry["best"]
    games = 1 if entry is None else int(entry["games"]) + 1
    best = score if previous is None else max(previous, score)
    if warning is None or not path.exists():
        records[key] = {"best": best, "games": games}
        try:
            _write(path, records)
        except OSError as error:
            warning = f"could not save the best score to {path}: {error.strerror or error}"
    return BestScore(score, best, previous, games, warning)
