"""Engine agents whose decisions the game's kernel takes: the same choices at kernel speed.

A game loop that must stay on the engine (a traced game of the design report watches every
state) still spends nearly all its time in the bots when they search, as the ``hard`` bots
do (a Monza hard decision weighs 462 replies; the engine takes ~10 ms, the kernel ~0.1 ms).
Where the game's kernel plays a bot by a **deterministic** policy (one that draws nothing
from its generator: :attr:`~dicegames.core.kernel.GameKernel.deterministic`), its choice is
the engine bot's, step for step (the differential tests in ``tests/kernels`` hold that), so
:func:`kernel_agents` lets the kernel choose: encode the state, pick, decode the action. The
game played is the same game. Only compiled kernels are used (the plain-Python path would be
slower than the engine's bot), and a state the kernel cannot encode goes to the engine bot.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dicegames.core.game import Game, State
from dicegames.core.model import Agent, Seat

if TYPE_CHECKING:  # the kernel layer is imported on first use
    from dicegames.core.kernel import GameKernel


class KernelAgent:
    """An agent that asks ``kernel`` for ``policy``'s choice (``fallback`` where the kernel
    cannot encode the state).

    Args:
        kernel: the configured game's kernel.
        policy: a deterministic kernel policy that plays like ``fallback``.
        fallback: the engine bot it stands for.
    """

    def __init__(self, kernel: GameKernel, policy: str, fallback: Agent) -> None:
        from dicegames.core.kernel import seed_rng

        self.kernel = kernel
        self.policy = policy
        self.fallback = fallback
        self.whims = seed_rng(0)  # never drawn from: the policy is deterministic

    def choose(self, state: State[Any, Any, Any], seat: Seat) -> Hashable:
        """The kernel's choice for the deciding seat (``seat``, the first one deciding)."""
        try:
            values = self.kernel.encode(state.data)
        except ValueError:  # beyond the kernel's array (e.g. an over-long turn)
            return self.fallback.choose(state, seat)
        return self.kernel.action_of(values, self.kernel.choose(values, self.policy,
                                                                self.whims))


@lru_cache(maxsize=16)
def _kernel(game: Game[Any, Any, Any]) -> GameKernel | None:
    """The game's compiled kernel, one per configured game (so that the tables a policy
    builds on first use, such as Monza's reply table, are built once, not once a game)."""
    from dicegames.core.kernel import HAVE_NUMBA, kernel_for

    return kernel_for(game) if HAVE_NUMBA else None


def kernel_agents(game: Game[Any, Any, Any], names: Sequence[str | None],
                  agents: Sequence[Agent]) -> list[Agent]:
    """``agents`` (by seat, built from the bot ``names``), each one that the compiled kernel
    plays by a deterministic policy replaced by a :class:`KernelAgent`; the others as given.
    """
    kernel = _kernel(game)
    if kernel is None:
        return list(agents)
    chosen: list[Agent] = []
    for name, agent in zip(names, agents, strict=True):
        policy = kernel.policy_of(name) if name is not None else None
        if policy is not None and policy in kernel.deterministic:
            chosen.append(KernelAgent(kernel, policy, agent))
        else:
            chosen.append(agent)
    return chosen


__all__ = ["KernelAgent", "kernel_agents"]
