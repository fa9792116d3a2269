"""Checking a finished match's dice: the revealed secret against the published commitment,
then every automatic roll against the secret (``dicegames verify RECORD``).

The record is first replayed through the rules (:func:`~dicegames.core.record.from_record`),
which gives, at every roll, the chance node's outcomes and exact probabilities; each roll is
then derived again as the record's scheme says (:mod:`dicegames.core.fair`) and compared
with the roll the record holds. The first difference is the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from dicegames.core.fair import SEED_SCHEME, digest
from dicegames.core.record import from_record


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of :func:`verify_record`.

    Attributes:
        ok: True when the secret matches the commitment and every automatic roll follows
            from it.
        line: one sentence saying so, or what failed (the roll's move number, 1-based).
        rolls: how many automatic rolls were checked (up to the failing one).
        failed: the 0-based index in ``moves`` of the first roll that does not follow, or
            None.
    """

    ok: bool
    line: str
    rolls: int = 0
    failed: int | None = None


def verify_record(data: object) -> Verdict:
    """Verify the dice of the record ``data`` (a parsed JSON object).

    Raises:
        RecordError: the record is corrupt (not a record, an illegal move, a malformed
            ``fair`` object...): nothing can be verified.
    """
    session = from_record(data)
    fair = session.fair
    if fair is None:
        return Verdict(False, "this record has no dice commitment (a game saved at the "
                       "terminal, or by a server without commitments): nothing to verify")
    if not session.state.is_terminal:
        return Verdict(False, "the game is not finished: its secret is revealed only when "
                       "the match ends; download the record again then")
    if fair.commitment is None:
        return Verdict(False, "this match began before dice commitments existed: no "
                       "commitment was published, so its rolls cannot be verified")
    if fair.secret is None:
        return Verdict(False, "the record holds no revealed secret (saved before the end, "
                       "or the secret was removed)")
    if fair.scheme == SEED_SCHEME and fair.seed is None:
        return Verdict(False, "the record's seed is missing: a seeded match's rolls follow "
                       "from its seed")
    seed = fair.seed if fair.scheme == SEED_SCHEME else None
    if digest(fair.secret, seed) != fair.commitment:
        return Verdict(False, f"the revealed secret does not match the commitment "
                       f"{fair.commitment}: the dice may have been changed")
    if session.dice != "auto":
        return Verdict(False, "the dice of this match were typed in by people: there is no "
                       "automatic roll to verify (the commitment itself matches)")
    rolls = 0
    for index, state in enumerate(session.states[:-1]):
        if not state.is_chance:
            continue
        rolls += 1
        expected = str(fair.roll(state.chance_outcomes(), index))
        played = session.moves[index].text
        if played != expected:
            return Verdict(False, f"roll {rolls} (move {index + 1}) is {played!r}, but the "
                           f"secret gives {expected!r}: the dice were not the committed ones",
                           rolls, index)
    who = " (dice seeded by the match's creator)" if fair.seeded_by == "creator" else ""
    return Verdict(True, f"verified: all {rolls} automatic rolls follow the secret whose "
                   f"SHA-256 commitment is {fair.commitment}{who}", rolls)
