"""Jeu des Petits Chevaux in the vectorised environment (:mod:`dicegames.envs.vector`): the
``vector`` part of its definition, over the compiled step of :mod:`.vector_kernel` (kept
apart so that the compiled code's cache key covers only the modules the kernels import)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicegames.envs.vector import VectorGame
from dicegames.games.petits_chevaux import vector_kernel
from dicegames.games.petits_chevaux.kernel_play import work


class PetitsChevauxVector(VectorGame):
    """Petits Chevaux's part of the vectorised environment (the ``vector`` definition part)."""

    compiled_step = staticmethod(vector_kernel.step)

    def tables(self, policies: Sequence[int]) -> Any:
        """The kernel's tables (every policy uses the same)."""
        return getattr(self.kernel, "tabs")  # noqa: B009 (the ArrayKernel's tables)

    def work(self) -> Any:
        """The kernel's scratch arrays (legal moves, the bots' scores)."""
        return work(getattr(self.kernel, "tabs"))  # noqa: B009
