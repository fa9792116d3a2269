"""For a Few Extra Meters in the vectorised environment (:mod:`dicegames.envs.vector`): the
``vector`` part of its definition, over the compiled step of :mod:`.vector_kernel` (kept
apart so that the compiled code's cache key covers only the modules the kernels import)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicegames.envs.vector import LEARNER, VectorGame
from dicegames.games.extra_meters import vector_kernel


class ExtraMetersVector(VectorGame):
    """Extra Meters' part of the vectorised environment (the ``vector`` definition part)."""

    compiled_step = staticmethod(vector_kernel.step)

    def tables(self, policies: Sequence[int]) -> Any:
        """The kernel's tables, with the exact policy's when an opponent plays it."""
        tables_for = getattr(self.kernel, "tables_for")  # noqa: B009 (an ArrayKernel method)
        return tables_for([code for code in policies if code != LEARNER])
