"""The weights file of a learned level: one format for every game that fits a vector of
weights over named features (Monza's, Shortcut's and EXTRA!'s ``trained`` levels).

A file is a JSON object: ``format`` (the version of this layout the code reads),
``features`` (the names, in order: weights fitted on other features are refused; EXTRA!'s
files call them ``names``), ``weights`` (one finite number per feature, bounded where a game
asks) and informative entries beside them (``version``, ``trainer``, ``measured``). Each
game keeps its own error class and the words that name its weights in messages; the checks
are written once, here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Any


def parse_feature_weights(text: str, *, fmt: int, features: Sequence[str],
                          error: type[Exception], owner: str, key: str = "features",
                          limit: float = math.inf) -> tuple[float, ...]:
    """The weights in ``text``, a weights file of format ``fmt`` over ``features`` (listed
    under ``key``), each at most ``limit`` in size.

    Raises:
        error: the text is not such a file; the message, about ``owner``'s trained weights
            (e.g. ``"Monza's"``), says what is wrong.
    """
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as bad:
        raise error(f"{owner} trained weights are not valid JSON: {bad}") from None
    if not isinstance(spec, dict):
        raise error(f"{owner} trained weights must be a JSON object")
    if spec.get("format") != fmt:
        raise error(f"{owner} trained weights have format {spec.get('format')!r}; "
                    f"this code reads format {fmt}")
    if spec.get(key) != list(features):
        raise error(f"{owner} trained weights were fitted on other features (this code's: "
                    f"{', '.join(features)}); retrain them")
    values = spec.get("weights")
    if not isinstance(values, list) or len(values) != len(features):
        raise error(f"{owner} trained weights must hold {len(features)} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
               and abs(v) <= limit for v in values):
        bound = f" of at most {limit:g}" if math.isfinite(limit) else ""
        raise error(f"{owner} trained weights hold something other than finite "
                    f"numbers{bound}")
    return tuple(float(v) for v in values)


def feature_weights_text(weights: Sequence[float], *, fmt: int, features: Sequence[str],
                         key: str = "features", **info: Any) -> str:
    """The weights file for ``weights`` (what :func:`parse_feature_weights` reads), with
    ``info`` (version, trainer settings, measurements) kept beside them."""
    spec = {"format": fmt, **info, key: list(features),
            "weights": [round(float(w), 6) for w in weights]}
    return json.dumps(spec, indent=1) + "\n"


def read_packaged(package: str, name: str, *, error: type[Exception], owner: str) -> str:
    """The text of the data file ``name`` shipped in ``package``.

    Raises:
        error: the file cannot be read (the message names it).
    """
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except OSError as bad:
        raise error(f"cannot read {owner} trained weights {name}: {bad}") from None


__all__ = ["feature_weights_text", "parse_feature_weights", "read_packaged"]
