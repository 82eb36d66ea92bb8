"""Natively batched Box2D envs (the specs' ``vector_entry_point``): blocks of sub-envs over the cores.

A Box2D env's step is the engine's C++ calls with Python around them, all under the GIL,
so one process steps one env at a time. The batched envs spread the sub-envs over the
machine's cores in contiguous blocks: every block but the last runs in a worker process, and
the parent steps the last one itself while the workers step theirs (``AsyncVectorEnv`` with
``in_parent=True``), with actions, observations, rewards and flags in shared memory. Where a
compiled kernel steps the blocks (the landers and walkers), it does so on threads outside
the GIL: the workers are then the blocks' threads, up to eight a block (one block, in this
process, on up to eight cores). Each
sub-env is the single env with its time limit, as ``make`` builds it, so the numbers are
``SyncVectorEnv``'s (and Gymnasium's) for the same seeds and actions, in every autoreset
mode.

They take what a vectorizer takes, so ``make_vec`` code written for Gymnasium's sync
default runs unchanged: ``wrappers`` (callables applied to each sub-env) and
``vector_kwargs`` (``autoreset_mode``, ``num_workers``, ``context``, ``step_timeout``,
``copy``, ...: :class:`~palaestra.plugin.AsyncVectorEnv`'s arguments).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from palaestra import Env
from palaestra.plugin import (
    THREADS_PER_BLOCK,
    AsyncVectorEnv,
    AutoresetMode,
    TimeLimit,
    check_max_episode_steps,
    check_num_envs,
    check_sub_env_objects,
)
from palaestra_box2d._lander_block import LanderBlock
from palaestra_box2d._walker_block import WalkerBlock
from palaestra_box2d.bipedal_walker import BipedalWalker
from palaestra_box2d.car_racing import CarRacing
from palaestra_box2d.lunar_lander import LunarLander

__all__ = ["BipedalWalkerVectorEnv", "CarRacingVectorEnv", "LunarLanderVectorEnv"]


def make_sub_env(
    env_class: type[Env[Any, Any]],
    max_episode_steps: int | None,
    wrappers: Sequence[Callable[[Env[Any, Any]], Env[Any, Any]]],
    kwargs: dict[str, Any],
) -> Env[Any, Any]:
    """One sub-env: the single env, its time limit, then the caller's wrappers."""
    env: Env[Any, Any] = env_class(**kwargs)
    if max_episode_steps is not None:
        env = TimeLimit(env, max_episode_steps)
    for wrapper in wrappers:
        env = wrapper(env)
    return env


class _Box2DVectorEnv(AsyncVectorEnv):
    """``num_envs`` sub-envs of :attr:`env_class` in blocks, the last in this process.

    Args:
        num_envs: Number of sub-environments.
        max_episode_steps: Steps before truncation (``make_vec`` passes the registration's).
        render_mode: Each sub-env's render mode (``render()`` returns their frames).
        autoreset_mode: An :class:`~palaestra.plugin.AutoresetMode` or its value.
        wrappers: Callables applied to each sub-env after its time limit.
        vector_kwargs: :class:`~palaestra.plugin.AsyncVectorEnv` arguments (``num_workers``,
            default the cores this process may use: a block each, or a thread each of the
            compiled blocks; ``context``; ``step_timeout``; ``copy``; ...).
        **kwargs: The env's constructor arguments.
    """

    #: The single env each sub-env is.
    env_class: ClassVar[type[Env[Any, Any]]]
    #: ``make_vec`` hands this entry point its ``wrappers`` and ``vector_kwargs`` (those that
    #: :attr:`vectorizer` takes; ``make_vec`` refuses others before anything is built).
    takes_vectorizer_arguments: ClassVar[bool] = True
    vectorizer: ClassVar[type] = AsyncVectorEnv

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The single env's render modes, read by make_vec before anything is built.
        cls.metadata = {**cls.env_class.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int | None = None,
        render_mode: str | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        wrappers: Sequence[Callable[[Env[Any, Any]], Env[Any, Any]]] = (),
        vector_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        num_envs = check_sub_env_objects(check_num_envs(num_envs), type(self).__name__)
        check_max_episode_steps(max_episode_steps)
        options = {"autoreset_mode": autoreset_mode, **(vector_kwargs or {})}
        if "in_parent" in options:
            raise TypeError(
                f"{type(self).__name__} always steps its last block in this process; "
                "for workers only, use make_vec(..., vectorization_mode='async')"
            )
        factory = functools.partial(
            make_sub_env,
            self.env_class,
            max_episode_steps,
            list(wrappers),
            {"render_mode": render_mode, **kwargs},
        )
        super().__init__([factory] * num_envs, in_parent=True, **options)

    @classmethod
    def describe_batching(cls) -> str:
        """How its blocks step (``palaestra info`` shows it): compiled, or in Python and why."""
        blocks = "blocks of sub-envs, one per core, the last in this process"
        verdict = getattr(cls.block_type, "verdict", None)
        if verdict is None:
            return f"{blocks}, each sub-env stepped in Python"
        module, reason = verdict()
        if module is not None:
            kernel = getattr(cls.block_type, "kernel_name", "kernel")
            return (
                "blocks of sub-envs, the last in this process, each block stepped in one compiled call "
                f"({kernel}) on up to {THREADS_PER_BLOCK} threads outside the GIL (the workers)"
            )
        return f"{blocks}, stepped in Python (same numbers, about half as fast): {reason}"


class LunarLanderVectorEnv(_Box2DVectorEnv):
    """``LunarLander-v3`` (and ``LunarLanderContinuous-v3``) in blocks of sub-envs over the cores.

    Each block steps its landers in one compiled call when it can (see
    :mod:`palaestra_box2d._lander_block`), with the same numbers.
    """

    env_class = LunarLander
    block_type = LanderBlock


class BipedalWalkerVectorEnv(_Box2DVectorEnv):
    """``BipedalWalker-v3`` (and ``BipedalWalkerHardcore-v3``) in blocks of sub-envs over the cores.

    Each block steps its walkers in one compiled call when it can (see
    :mod:`palaestra_box2d._walker_block`), with the same numbers.
    """

    env_class = BipedalWalker
    block_type = WalkerBlock


class CarRacingVectorEnv(_Box2DVectorEnv):
    """``CarRacing-v3`` in blocks of sub-envs, one per core."""

    env_class = CarRacing
