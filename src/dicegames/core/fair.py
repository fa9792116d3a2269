"""Provably fair dice: a match's secret, its published commitment, and the rolls it gives.

A web match's automatic rolls must not be predictable by anyone before they happen, and
everyone must be able to check afterwards that the server did not choose them. So:

- at creation the server draws a **secret** (32 bytes from :mod:`secrets`) and publishes only
  its **commitment**, the SHA-256 digest of the committed bytes (below);
- each automatic roll is derived from the secret and the roll's move index by the documented
  scheme :data:`HMAC_SCHEME` (:func:`hmac_ticket`), so nothing else influences it;
- when the game is over the secret is revealed (records, the state), and anyone can redo
  the digest and every roll (:func:`verify_record`, ``dicegames verify RECORD``).

Two schemes exist:

``hmac-sha256/1`` (a server-drawn secret; the default)
    committed bytes = the 32 secret bytes. For the automatic roll that is move ``i``
    (0-based index into the record's ``moves``), at a chance node whose outcomes, in the
    game's fixed order, have exact probabilities with common denominator ``D`` and cumulative
    integer weights ``w_1 < ... < w_n = D``: for ``k = 0, 1, 2, ...`` take
    ``h = HMAC-SHA256(key=secret, msg=ASCII "roll/<i>/<k>")``, read it as a 256-bit
    big-endian number and keep its top ``b = bitlength(D)`` bits as the ticket ``t``; the
    first ``t < D`` picks the first outcome ``j`` with ``t < w_j``. Bots draw from
    ``random.Random(int(HMAC-SHA256(secret, "bot/<seat>")))`` (not part of what is verified).
``seed/1`` (an integer seed: chosen by the match's creator, or a match stored before secrets)
    roll ``i`` is :func:`dicegames.core.chance.sample` drawing from
    ``random.Random(f"{seed}/{i}")``, bots from ``random.Random(seed * 31 + seat)`` (the
    server's rolls before this module, kept so seeded games replay as they always did).
    A creator-seeded match's secret is a 32-byte salt, and the committed bytes are the salt
    followed by the seed in decimal ASCII, so the commitment hides even a small seed. A
    match stored before commitments existed has no commitment.

Nothing here is shown before the end but the scheme, the commitment and who seeded the dice.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from bisect import bisect_right
from collections.abc import Hashable
from dataclasses import dataclass
from math import lcm
from typing import Any, Literal

from dicegames.core.chance import Distribution, sample
from dicegames.core.errors import RecordError

HMAC_SCHEME = "hmac-sha256/1"
"""Rolls from HMAC-SHA256 of a server-drawn secret (see the module docstring)."""

SEED_SCHEME = "seed/1"
"""Rolls from an integer seed, as the server always rolled them (see the module docstring)."""

SCHEMES = (HMAC_SCHEME, SEED_SCHEME)

SECRET_BYTES = 32
"""The size of a secret (and of a creator-seeded match's salt)."""

SeededBy = Literal["server", "creator"]

_HEX = re.compile(r"[0-9a-f]{64}")


def digest(secret: bytes, seed: int | None = None) -> str:
    """The commitment to ``secret`` (and ``seed`` in the seed scheme): lowercase hex of
    SHA-256 over the secret's bytes followed, when there is a seed, by the seed in decimal
    ASCII."""
    committed = secret if seed is None else secret + str(seed).encode("ascii")
    return hashlib.sha256(committed).hexdigest()


def hmac_ticket(secret: bytes, index: int, denominator: int) -> int:
    """A uniform whole number below ``denominator`` for the roll that is move ``index``
    (the ``hmac-sha256/1`` scheme: rejection sampling over HMAC-SHA256 blocks).

    Raises:
        ValueError: ``denominator`` needs more than 256 bits (no dice game comes near).
    """
    bits = denominator.bit_length()
    if not 0 < bits <= 256:
        raise ValueError(f"a chance node with denominator {denominator} cannot be drawn "
                         "from one HMAC-SHA256 block")
    attempt = 0
    while True:
        block = hmac.new(secret, f"roll/{index}/{attempt}".encode("ascii"),
                         hashlib.sha256).digest()
        ticket = int.from_bytes(block, "big") >> (256 - bits)
        if ticket < denominator:
            return ticket
        attempt += 1


_WEIGHTS: dict[int, tuple[object, int, tuple[int, ...]]] = {}
"""Per distribution object (games reuse constants), keyed by identity: the distribution (kept
alive so its id is not reused while cached), its common denominator and cumulative integer
weights. Emptied past a bound (games that build distributions on the fly)."""


def _weights(distribution: Distribution[Any]) -> tuple[int, tuple[int, ...]]:
    """The common denominator and cumulative integer weights of ``distribution``."""
    cached = _WEIGHTS.get(id(distribution))
    if cached is not None and cached[0] is distribution:
        return cached[1], cached[2]
    denominator = lcm(*(p.denominator for _, p in distribution))
    bounds = []
    running = 0
    for _, p in distribution:
        running += p.numerator * (denominator // p.denominator)
        bounds.append(running)
    if len(_WEIGHTS) > 4096:
        _WEIGHTS.clear()
    _WEIGHTS[id(distribution)] = (distribution, denominator, tuple(bounds))
    return denominator, tuple(bounds)


def hmac_outcome(distribution: Distribution[Any], secret: bytes, index: int) -> Hashable:
    """The outcome of ``distribution`` the ``hmac-sha256/1`` scheme gives roll ``index``."""
    denominator, bounds = _weights(distribution)
    ticket = hmac_ticket(secret, index, denominator)
    outcome: Hashable = distribution[bisect_right(bounds, ticket)][0]
    return outcome


def seed_outcome(distribution: Distribution[Any], seed: int, index: int) -> Hashable:
    """The outcome of ``distribution`` the ``seed/1`` scheme gives roll ``index``."""
    outcome: Hashable = sample(distribution, random.Random(f"{seed}/{index}"))
    return outcome


@dataclass(frozen=True, slots=True)
class FairDice:
    """Where a match's automatic rolls come from, and what may be shown of it.

    Attributes:
        scheme: :data:`HMAC_SCHEME` or :data:`SEED_SCHEME`.
        commitment: the published digest (:func:`digest`); None for a match stored before
            commitments existed.
        secret: the secret (the seed scheme: the salt); None when only the commitment is
            known (a record of an unfinished match) or there is none (an old match).
        seed: the seed scheme's seed (None in the HMAC scheme, or not yet revealed).
        seeded_by: ``server`` or ``creator`` (the creator chose the seed, so the creator
            can know every roll: the match shows it to everyone).
    """

    scheme: str
    commitment: str | None
    secret: bytes | None
    seed: int | None
    seeded_by: SeededBy = "server"

    @classmethod
    def new(cls) -> FairDice:
        """A fresh secret drawn by the server (the HMAC scheme)."""
        secret = secrets.token_bytes(SECRET_BYTES)
        return cls(HMAC_SCHEME, digest(secret), secret, None, "server")

    @classmethod
    def seeded(cls, seed: int) -> FairDice:
        """Dice seeded by the match's creator, committed to with a fresh salt."""
        salt = secrets.token_bytes(SECRET_BYTES)
        return cls(SEED_SCHEME, digest(salt, seed), salt, seed, "creator")

    @classmethod
    def legacy(cls, seed: int | None) -> FairDice:
        """A match stored before commitments: its seed rolls on, with no commitment."""
        return cls(SEED_SCHEME, None, None, seed, "server")

    def roll(self, distribution: Distribution[Any], index: int) -> Hashable:
        """The automatic roll that is move ``index``, drawn from ``distribution``.

        Raises:
            ValueError: the HMAC scheme without its secret (a record's commitment only).
        """
        if self.scheme == HMAC_SCHEME:
            if self.secret is None:
                raise ValueError("these dice have no secret to roll from")
            return hmac_outcome(distribution, self.secret, index)
        return seed_outcome(distribution, self.seed or 0, index)

    def bot_rng(self, seat: int) -> random.Random:
        """The generator of the bot in ``seat`` (derived from the secret, never shown)."""
        if self.scheme == HMAC_SCHEME and self.secret is not None:
            key = hmac.new(self.secret, f"bot/{seat}".encode("ascii"), hashlib.sha256)
            return random.Random(int.from_bytes(key.digest(), "big"))
        return random.Random((self.seed or 0) * 31 + seat)

    def public(self, revealed: bool) -> dict[str, Any]:
        """What everyone may see: the scheme, the commitment, who seeded the dice, and
        (once ``revealed``, at the end of the game) the secret as lowercase hex."""
        shown = self.secret.hex() if revealed and self.secret is not None else None
        return {"scheme": self.scheme, "commitment": self.commitment,
                "seeded_by": self.seeded_by, "secret": shown}

    def stored(self) -> dict[str, Any]:
        """Everything, for the server's own database (the secret included)."""
        return {**self.public(True), "seed": self.seed}

    @classmethod
    def from_json(cls, data: object, seed: int | None) -> FairDice:
        """Dice from a record's ``fair`` object (or the database's), with the record's seed.

        Raises:
            RecordError: the object is malformed (the message names the field).
        """
        if not isinstance(data, dict):
            raise RecordError("the record's 'fair' must be an object with scheme, "
                              "commitment, seeded_by and secret")
        scheme = data.get("scheme")
        if scheme not in SCHEMES:
            raise RecordError(f"the record's dice scheme must be one of {', '.join(SCHEMES)}"
                              f", not {str(scheme)[:40]!r}")
        commitment = data.get("commitment")
        if commitment is not None and not (isinstance(commitment, str)
                                           and _HEX.fullmatch(commitment)):
            raise RecordError("the record's commitment must be 64 lowercase hex digits "
                              "(a SHA-256 digest) or null")
        raw = data.get("secret")
        if raw is not None and not (isinstance(raw, str) and _HEX.fullmatch(raw)):
            raise RecordError("the record's secret must be 64 lowercase hex digits (32 "
                              "bytes) or null")
        seeded_by = data.get("seeded_by", "server")
        if seeded_by not in ("server", "creator"):
            raise RecordError("the record's seeded_by must be 'server' or 'creator'")
        secret = None if raw is None else bytes.fromhex(raw)
        return cls(str(scheme), commitment, secret, seed,
                   "creator" if seeded_by == "creator" else "server")
