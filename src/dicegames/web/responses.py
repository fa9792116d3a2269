"""JSON answers that never fail to encode, whatever text they carry.

Starlette's ``JSONResponse`` writes non-ASCII characters as themselves and encodes the text
as UTF-8, which raises on an unpaired surrogate (``"\\ud800"`` is a valid JSON string, so one
can arrive in a request, and rows stored by older versions may hold one): the answer would
be a 500, and every later answer carrying that text too. New text is checked where it comes
in (:mod:`dicegames.core.names`); this response is the last line: such a character goes out
as U+FFFD instead of failing the answer.
"""

from __future__ import annotations

import json
from typing import Any

from starlette import responses

from dicegames.core.names import safe_text


def encode_json(content: Any) -> bytes:
    """``content`` as compact UTF-8 JSON; unpaired surrogates become U+FFFD (never raises
    for any text)."""
    text = json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # rare: only then is the text searched and repaired
        return safe_text(text).encode("utf-8")


class JSONResponse(responses.JSONResponse):
    """Starlette's ``JSONResponse`` rendered by :func:`encode_json`."""

    def render(self, content: Any) -> bytes:
        """The body: ``content`` as UTF-8 JSON, every string safely encodable."""
        return encode_json(content)
